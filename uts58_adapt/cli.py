"""The ``uts58-adapt`` command line: one subcommand per module in ``uts58_adapt/commands``."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

__all__ = ["main"]

# Each module defines ``register(subparsers)``, which adds its parser and sets ``func``.
COMMANDS = ("detect", "report", "escape", "conformance")

DESCRIPTION = """\
Make existing linkifiers (linkify-it-py, urlextract) conform to UTS #58,
Unicode Link Detection and Formatting (Unicode 17.0).

examples:
  uts58-adapt report --sample --format md          audit the bundled sample corpus
  uts58-adapt detect notes.txt --format marked     show links as ⸠link⸡
  echo 'see x.com/Dvořák.' | uts58-adapt detect    detect from stdin
  uts58-adapt escape 'https://x.com/%CE%B1%2E'      minimal escaping: https://x.com/α%2E
  uts58-adapt conformance                          run the official Unicode test files

Run 'uts58-adapt COMMAND --help' for each command's options.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="uts58-adapt", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    from . import __version__

    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f".commands.{name}", __package__).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into e.g. `head`: stop quietly.
        sys.stderr.close()
        return 141


if __name__ == "__main__":
    sys.exit(main())
