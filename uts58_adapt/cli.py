"""The ``uts58-adapt`` command line: one subcommand per module in ``uts58_adapt/commands``."""

from __future__ import annotations

import argparse
import importlib
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn

from ._io import Terminated
from ._unicode_version import DATA_DIRECTORY, DEFAULT, ENV, SHIPPED, UNICODE_VERSION

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
  uts58-adapt conformance --unicode-version 18.0.0 the same on the Unicode 18.0.0 draft's data

Run 'uts58-adapt COMMAND --help' for each command's options.
"""


def version_text() -> str:
    """``uts58-adapt --version``: the package's version, the data it applies (``data_versions()``) and
    which refinement runs (the compiled extension or pure Python: docs/compiled.md)."""
    from . import __version__
    from .backends import data_versions
    from .refine._dispatch import description

    v = data_versions()
    chosen = "" if UNICODE_VERSION == DEFAULT else f"; the data of {DATA_DIRECTORY}/, chosen by {ENV}"
    return (
        f"uts58-adapt {__version__}\n"
        f"Unicode {v['unicode']} (UTS #58 revision 2: Link_Term, Link_Bracket, Link_Email{chosen})\n"
        f"Public Suffix List {v['public_suffix_list']} (snapshot of {v['public_suffix_list_date']})\n"
        f"idna {v['idna']} (UTS #46 processing; host characters from the Unicode {v['host_characters']} tables)\n"
        f"Python {sys.version.split()[0]}\n"
        f"refinement: {description()}"
    )


class _VersionAction(argparse.Action):
    """``--version``: computed only when asked for (``data_versions()`` imports idna)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        print(version_text())
        parser.exit()


#: ``--backend`` names that are no backend, with what to use instead: libraries whose links come
#: from a backend (markdown-it-py's from linkify-it-py), or that have no linkify of their own (nh3).
BACKEND_HINTS = {
    "markdown-it": "markdown-it-py finds its links with linkify-it-py: use --backend linkify-it "
    "(in Python, wrap md.linkify: docs/migration/markdown-it-py.md)",
    "nh3": "nh3 has no linkify of its own: use --backend linkify-it (in Python, uts58_adapt.linkify_html "
    "before nh3.clean: docs/migration/nh3.md)",
    "linkify-it-py": "the backend is named linkify-it",
    "python-markdown": "Python-Markdown links through pymdown-extensions' magiclink: use --backend magiclink",
}
BACKEND_HINTS["markdown-it-py"] = BACKEND_HINTS["markdown_it"] = BACKEND_HINTS["markdown-it"]
BACKEND_HINTS["linkify_it"] = BACKEND_HINTS["linkify-it-py"]
BACKEND_HINTS["markdown"] = BACKEND_HINTS["pymdownx"] = BACKEND_HINTS["python-markdown"]

_INVALID_BACKEND = re.compile(r"argument --backend: invalid choice: '?([^' ]*)'?")


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line (``PROG: error: …; see PROG --help``)
    and exit status 2, not the whole usage block (issue 24.3); subcommands' parsers are of this class too.
    An unknown ``--backend`` that names a library with a hint (:data:`BACKEND_HINTS`) gets it."""

    def error(self, message: str) -> NoReturn:
        invalid = _INVALID_BACKEND.match(message)
        hint = BACKEND_HINTS.get(invalid.group(1).lower()) if invalid else None
        if hint:
            message = f"{message}; {hint}"
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="uts58-adapt", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--version", action=_VersionAction, help="show the version and the data it applies (Unicode, PSL, idna)"
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f".commands.{name}", __package__).register(subparsers)
    for command in subparsers.choices.values():
        command.add_argument(
            "--unicode-version",
            choices=tuple(SHIPPED),
            help=f"the Unicode data version (default: ${ENV}, else {DEFAULT}); "
            f"another one than this process's runs the command in a new process with ${ENV} set",
        )
    return parser


def _run_with_unicode_version(version: str, argv: list[str], replace: bool) -> int:
    """Run ``uts58-adapt ARGV`` in a new Python process with ``$UTS58_UNICODE_VERSION=version``.

    The version is chosen once per process, when the package is imported (``_unicode_version.py``),
    and this process has imported it already: the tables are built at import so that no call
    looks the version up (docs/decisions.md).  ``replace``: the console script replaces itself
    (``os.execve``, POSIX); otherwise (a call of :func:`main` from Python, Windows) the command
    runs as a child with the same standard streams and its exit status is returned.
    """
    env = {**os.environ, ENV: version}
    checkout = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if os.path.isfile(os.path.join(checkout, "pyproject.toml")):
        # A source checkout, perhaps only on sys.path: the new process imports this same copy.
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (checkout, env.get("PYTHONPATH"))))
    command = [sys.executable, "-m", "uts58_adapt", *argv]
    sys.stdout.flush()
    sys.stderr.flush()
    if replace and os.name == "posix":
        os.execve(sys.executable, command, env)
    return subprocess.run(command, env=env, check=False).returncode


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signum)


@contextmanager
def _sigterm_raises() -> Iterator[None]:
    """While the command runs, SIGTERM raises :class:`Terminated` in the main thread, so
    cleanup runs as for Ctrl-C (no temporary file left, worker processes stopped)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # The command line as given: a command's message can name the command that goes on (detect).
    args.argv = list(sys.argv[1:] if argv is None else argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    requested = getattr(args, "unicode_version", None)
    try:
        if requested is not None and requested != UNICODE_VERSION:
            return _run_with_unicode_version(requested, args.argv, replace=argv is None)
        with _sigterm_raises():
            return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except Terminated:
        return 143
    except BrokenPipeError:
        # Output piped into e.g. `head`: stop quietly.
        sys.stderr.close()
        return 141


if __name__ == "__main__":
    sys.exit(main())
