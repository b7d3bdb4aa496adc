#!/usr/bin/env python3
"""Refresh the official Unicode files the repository carries (``data/unicode/``) from a directory.

The repository holds, byte for byte, the files its tests, ``uts58-adapt conformance`` and
``tools/generate_tables.py`` read, in the layout of the source directory (unicode.org's:
``17.0.0/linkification/``, ``17.0.0/ucd/``, ``17.0.0/idna/``, ``17.0.0/security/``, and
``dev/linkification/`` for the corrected LinkFormattingTest.txt).  Which files: the ones
already in ``data/unicode/`` (this script never adds a file on its own: a new one is copied
by hand, once, and refreshed from then on).  Every version directory present there is
refreshed (``17.0.0``, ``dev``, ``18.0.0-draft``; a new one is copied by hand, once).

    python tools/refresh_data.py                      # from ../shared/unicode
    python tools/refresh_data.py /path/to/unicode     # from another copy
    python tools/refresh_data.py --check              # say what would change, write nothing

It prints one line per file that changed (``changed``, with the old and new sizes and the
``Date:`` line of its header when that changed) or is missing from the source
(``missing``), then a summary.  Exit status: 0 when nothing had to change, 1 when
something changed (or would, with ``--check``), 2 when a file is missing from the source.
After a refresh, regenerate the tables (tools/generate_tables.py) and run the tests.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: The repository's copy (see docs/data.md).
DATA = REPO / "data" / "unicode"
#: Where the official files are kept beside the repository, by default.
DEFAULT_SOURCE = REPO.parent / "shared" / "unicode"
#: Files of ``data/unicode/`` that are ours, not copies.
OWN_FILES = {"LICENSE", "README.md"}

_DATE = re.compile(rb"^# Date: *(.*?)\s*$", re.MULTILINE)


def carried_files(data: Path = DATA) -> list[Path]:
    """The copied files under ``data``, relative to it, sorted (every version directory)."""
    return sorted(
        path.relative_to(data)
        for path in data.rglob("*")
        if path.is_file() and path.relative_to(data).parts[0] not in OWN_FILES
    )


def _date(content: bytes) -> str | None:
    found = _DATE.search(content[:2000])
    return found.group(1).decode("utf-8", "replace") if found else None


def refresh(source: Path, data: Path = DATA, *, write: bool = True) -> tuple[list[str], list[str]]:
    """Copy each carried file from ``source`` when its bytes differ: (lines for the changes, lines for the missing)."""
    changed: list[str] = []
    missing: list[str] = []
    for rel in carried_files(data):
        new_path = source / rel
        if not new_path.is_file():
            missing.append(f"missing  {rel.as_posix()}  (not in {source})")
            continue
        old, new = (data / rel).read_bytes(), new_path.read_bytes()
        if old == new:
            continue
        line = f"changed  {rel.as_posix()}  {len(old)} -> {len(new)} bytes"
        if _date(old) != _date(new):
            line += f"; Date: {_date(old)} -> {_date(new)}"
        changed.append(line)
        if write:
            (data / rel).write_bytes(new)
    return changed, missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "source",
        nargs="?",
        type=Path,
        default=DEFAULT_SOURCE,
        help="the unicode/ directory to copy from (default: ../shared/unicode)",
    )
    parser.add_argument("--data", type=Path, default=DATA, help=argparse.SUPPRESS)
    parser.add_argument("--check", action="store_true", help="only say what would change")
    args = parser.parse_args(argv)
    if not args.source.is_dir():
        parser.error(f"{args.source}: no such directory")
    changed, missing = refresh(args.source, args.data, write=not args.check)
    for line in changed + missing:
        print(line)
    versions = sorted({rel.parts[0] for rel in carried_files(args.data)})
    verb = "would change" if args.check else "changed"
    print(
        f"{len(carried_files(args.data))} files in {', '.join(versions)}: {len(changed)} {verb}, "
        f"{len(missing)} missing from {args.source}"
    )
    if missing:
        return 2
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
