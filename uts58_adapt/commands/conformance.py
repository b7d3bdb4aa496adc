"""``uts58-adapt conformance``: pass counts on the official Unicode data files."""

from __future__ import annotations

import argparse
import sys

from .._data import data_dir

HELP = """\
Run every official UTS #58 file found in the data directory and print one pass
count per file: the property files (LinkTerm, LinkBracket, LinkEmail: all code
points), LinkFormattingTest.txt (17.0.0 and the corrected dev/ file, through
format_url and minimal_escape) and LinkDetectionTest.txt (per backend).

The data directory is --data-dir, else $UTS58_DATA_DIR, else ../shared/unicode.
It must contain 17.0.0/linkification/ (and optionally dev/linkification/).
The 17.0.0 LinkFormattingTest.txt has 10 known errata, so 45/55 is the correct
score there and 55/55 on the dev/ file.

example:
  uts58-adapt conformance --verbose --backend urlextract
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    from ..backends import BACKENDS

    parser = subparsers.add_parser(
        "conformance",
        help="run the official Unicode test files and print pass counts",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--data-dir", help="the unicode/ data directory (default: $UTS58_DATA_DIR or ../shared/unicode)")
    parser.add_argument(
        "--backend",
        action="append",
        choices=tuple(BACKENDS),
        help="backend for LinkDetectionTest.txt (repeatable; default: linkify-it and urlextract)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="print every failing case")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..conformance import run_all

    base = data_dir(args.data_dir)
    if base is None:
        print(
            "uts58-adapt conformance: no data directory with 17.0.0/linkification/ found; "
            "pass --data-dir or set UTS58_DATA_DIR",
            file=sys.stderr,
        )
        return 2
    print(f"data directory: {base}")
    backends = tuple(args.backend or ("linkify-it", "urlextract"))
    for result in run_all(base, backends):
        print(f"{result.passed:>8}/{result.total:<8} {result.name}", flush=True)
        if args.verbose:
            for failure in result.failures:
                print(f"    {failure}")
    return 0
