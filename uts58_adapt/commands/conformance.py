"""``uts58-adapt conformance``: pass counts on the official Unicode data files, checked against the correct ones."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .._data import data_dir
from .._unicode_version import DATA_DIRECTORY, DEFAULT, ENV, UNICODE_VERSION

HELP = """\
Run every official UTS #58 file of the data directory and print one pass count
per file: the property files (LinkTerm, LinkBracket, LinkEmail: all code
points), LinkFormattingTest.txt (17.0.0 and the corrected dev/ file, through
format_url and minimal_escape) and LinkDetectionTest.txt (per backend).

Every count is checked against the documented correct score, printed with the
reason below the line when it is not "all cases": the 17.0.0
LinkFormattingTest.txt has 10 known errata, so 45/55 is correct there and 55/55
on the dev/ file.  The backends whose libraries recognize fewer link forms
(django, jinja2, mistune, magiclink) pass LinkDetectionTest.txt when no line has
a link the file does not expect; their recall is printed.  minimal_escape gets a fully escaped URL built from each case's
structure comment; its second figure, on the file's own escaped lines, is lower
because 5 of those lines are ambiguous.

The data directory is --data-dir, else $UTS58_DATA_DIR (either one must hold
17.0.0/linkification/, and optionally dev/linkification/), else the official
files this package carries: data/unicode/ in a source checkout, the
linkification files in an installed wheel.

--unicode-version 18.0.0 (or $UTS58_UNICODE_VERSION=18.0.0) runs the Unicode
18.0.0 draft's files (18.0.0-draft/linkification/, which the package carries
too) against the tables generated from the draft's data; every case must pass.

exit status: 0 when every score is the correct one, 1 when one is not (or a
required file is missing), 2 when there is no data directory.

examples:
  uts58-adapt conformance --verbose --backend urlextract
  uts58-adapt conformance --unicode-version 18.0.0
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ..backends import BACKENDS

    parser = subparsers.add_parser(
        "conformance",
        help="run the official Unicode test files; exit 1 unless every score is the correct one",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--data-dir", help="the unicode/ data directory (default: $UTS58_DATA_DIR, else the files this package carries)"
    )
    parser.add_argument(
        "--backend",
        action="append",
        choices=tuple(BACKENDS),
        help="backend for LinkDetectionTest.txt (repeatable; default: linkify-it and urlextract)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="print every failing case")
    parser.set_defaults(func=run)


def _error(message: str) -> int:
    print(f"uts58-adapt conformance: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from ..conformance import run_all

    if args.data_dir is not None:
        # An explicit directory is used or refused, never replaced by another one.
        explicit = Path(args.data_dir)
        if not (explicit / DATA_DIRECTORY / "linkification").is_dir():
            return _error(f"--data-dir {args.data_dir}: no {DATA_DIRECTORY}/linkification/ directory there")
        base = explicit.resolve()
    else:
        found = data_dir()
        if found is None:
            env = os.environ.get("UTS58_DATA_DIR")
            if env:
                return _error(f"UTS58_DATA_DIR={env}: no data directory with {DATA_DIRECTORY}/linkification/ there")
            return _error(
                f"no data directory with {DATA_DIRECTORY}/linkification/ found; pass --data-dir or set UTS58_DATA_DIR"
            )
        base = found
    print(f"data directory: {base}")
    if UNICODE_VERSION != DEFAULT:
        print(f"Unicode {UNICODE_VERSION}: the files of {DATA_DIRECTORY}/ (chosen by --unicode-version or {ENV})")
    backends = tuple(args.backend or ("linkify-it", "urlextract"))
    wrong: list[str] = []
    for result in run_all(base, backends):
        if result.missing:
            print(f"{'-':>8}/{'-':<8} {result.name}", flush=True)
        else:
            print(f"{result.passed:>8}/{result.total:<8} {result.name}", flush=True)
        for note in result.notes:
            print(f"{'':18}{note}")
        if not result.ok:
            wrong.append(result.name)
            if result.recall_only and result.wrong:
                print(f"{'':18}WRONG: {len(result.wrong)} line(s) with a link the file does not expect")
            elif not result.missing:
                side = "below" if result.passed < result.expected_passed else "above"
                print(f"{'':18}WRONG: {side} the correct {result.expected_passed}/{result.total}")
        if args.verbose:
            for case in (result, result.secondary):
                for failure in case.failures if case else ():
                    print(f"    {failure}")
    if wrong:
        print(f"FAILED: {len(wrong)} score(s) differ from the correct one or are missing: {'; '.join(wrong)}")
        return 1
    print("OK: every score is the correct one")
    return 0
