"""`uts58-adapt escape`: print URLs in the UTS #58 §4 minimal escaped form (§4.1, §10)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import TextIO

DESCRIPTION = """\
Print each URL in the minimal escaped form of UTS #58 section 4: the form to show
to people, which link detection covers completely when it stands alone.
Percent-escapes are decoded except where needed (syntax characters of the part,
Hard characters, unmatched brackets, invalid UTF-8, a final Soft character such as
'.'), and xn-- host labels are shown in Unicode.

With no URL arguments, URLs are read from standard input, one per line, as a
stream, and one result is printed per line (flushed at once on a terminal, or
with --unbuffered).  Surrounding whitespace of each URL is ignored; an empty line
gives an empty line.  Input bytes that are not UTF-8 are kept as %XX escapes.
"""

EPILOG = """\
examples:
  uts58-adapt escape 'https://x.com/%CE%B1%2E'
      https://x.com/α%2E
  uts58-adapt escape 'xn--bcher-kva.de/b%C3%BCcher' 'abc.com/path1./path2.'
      bücher.de/bücher
      abc.com/path1./path2%2E
  cut -f3 access.log | uts58-adapt escape --unbuffered
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "escape",
        help="print URLs in UTS #58 minimal escaped form",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("urls", nargs="*", metavar="URL", help="URLs to format (default: read lines from stdin)")
    parser.add_argument(
        "-u", "--unbuffered", action="store_true", help="flush after every line (for live pipes such as tail -f)"
    )
    parser.set_defaults(func=run)


def escape_lines(lines: Iterable[str], out: TextIO, flush: bool = False) -> int:
    """Write ``minimal_escape`` of each line (whitespace stripped) to ``out``, one per line; return the count."""
    from ..refine.escaping import minimal_escape

    count = 0
    for line in lines:
        out.write(minimal_escape(line.strip()))
        out.write("\n")
        if flush:
            out.flush()
        count += 1
    return count


def run(args: argparse.Namespace) -> int:
    if args.urls:
        escape_lines(args.urls, sys.stdout, args.unbuffered)
        return 0
    from .detect import stdin_hint

    stdin_hint("escape", "URLs, one per line,")
    stdin = sys.stdin
    # Bytes that are not UTF-8 arrive as U+DC80..U+DCFF, which minimal_escape writes as %80..%FF.
    if hasattr(stdin, "reconfigure"):
        stdin.reconfigure(errors="surrogateescape")
    escape_lines(stdin, sys.stdout, args.unbuffered or stdin.isatty())
    return 0
