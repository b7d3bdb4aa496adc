#!/usr/bin/env python3
"""Generate ``uts58_adapt/_tables.py`` from the Unicode Character Database.

UTS #58 §6.1 defines Link_Term, Link_Bracket and Link_Email in terms of UCD
properties.  This script derives them from the UCD 17.0.0 files (never from
Python's ``unicodedata``, which is an older Unicode version) and writes them as
compact, sorted range tables.  The output is deterministic: running the script
twice gives the same bytes, and a test checks that the committed file matches.

    python tools/generate_tables.py --ucd-dir ../shared/unicode/17.0.0/ucd

Derivation (verified to reproduce LinkTerm.txt, LinkBracket.txt and
LinkEmail.txt of Unicode 17.0.0 for all 0x110000 code points):

* Hard    = White_Space | Noncharacter_Code_Point | (gc=C* minus Cf, Cn included) | Deprecated
* Soft    = (Terminal_Punctuation | Line_Break=QU) - Deprecated - Hard
* Close   = (Bidi_Paired_Bracket_Type=Close | {">"}) - Deprecated
* Open    = (Bidi_Paired_Bracket_Type=Open | {"<"}) - Deprecated
* Include = everything else (format characters, gc=Cf, are Include)
* Link_Bracket(c) = Bidi_Paired_Bracket(c) for Close characters, "<" for ">"
* Link_Email = (XID_Continue - Basic Latin block) | ASCII [a-zA-Z0-9_-!?'{}*/&#%`^+=|~$.]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

UNICODE_VERSION = "17.0.0"
MAX_CP = 0x10FFFF
INPUT_FILES = (
    "PropList.txt",
    "extracted/DerivedGeneralCategory.txt",
    "LineBreak.txt",
    "BidiBrackets.txt",
    "DerivedCoreProperties.txt",
    "Blocks.txt",
)
# Link_Term value codes; must match uts58_adapt/properties.py.
INCLUDE, HARD, SOFT, OPEN, CLOSE = range(5)
TERM_NAMES = ("INCLUDE", "HARD", "SOFT", "OPEN", "CLOSE")
EMAIL_ASCII = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-!?'{}*/&#%`^+=|~$."


def _records(path: Path):
    """Yield (first, last, fields) for each data line of a UCD file."""
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            data = line.split("#", 1)[0].strip()
            if not data:
                continue
            fields = [f.strip() for f in data.split(";")]
            cps = fields[0].split("..")
            first = int(cps[0], 16)
            last = int(cps[-1], 16)
            yield first, last, fields[1:]


def _code_points(path: Path, field: int, value: str) -> set[int]:
    out: set[int] = set()
    for first, last, fields in _records(path):
        if fields[field] == value:
            out.update(range(first, last + 1))
    return out


def derive(ucd: Path) -> tuple[list[int], dict[int, int], list[bool]]:
    """Return per-code-point Link_Term codes, the Link_Bracket map and Link_Email flags."""
    proplist = ucd / "PropList.txt"
    white = _code_points(proplist, 0, "White_Space")
    nonchar = _code_points(proplist, 0, "Noncharacter_Code_Point")
    deprecated = _code_points(proplist, 0, "Deprecated")
    term_punct = _code_points(proplist, 0, "Terminal_Punctuation")

    # Unlisted code points are unassigned (gc=Cn), hence in C*.
    other = [True] * (MAX_CP + 1)
    for first, last, fields in _records(ucd / "extracted" / "DerivedGeneralCategory.txt"):
        is_c = fields[0].startswith("C") and fields[0] != "Cf"
        for cp in range(first, last + 1):
            other[cp] = is_c

    quotation = _code_points(ucd / "LineBreak.txt", 0, "QU")

    bpt: dict[int, str] = {}
    pair: dict[int, int] = {}
    for first, _last, fields in _records(ucd / "BidiBrackets.txt"):
        pair[first] = int(fields[0], 16)
        bpt[first] = fields[1]

    xid_continue = _code_points(ucd / "DerivedCoreProperties.txt", 0, "XID_Continue")
    basic_latin: set[int] = set()
    for first, last, fields in _records(ucd / "Blocks.txt"):
        if fields[0] == "Basic Latin":
            basic_latin.update(range(first, last + 1))

    term = [INCLUDE] * (MAX_CP + 1)
    bracket: dict[int, int] = {}
    for cp in range(MAX_CP + 1):
        if cp in white or cp in nonchar or other[cp] or cp in deprecated:
            term[cp] = HARD
        elif bpt.get(cp) == "c" or cp == 0x3E:
            term[cp] = CLOSE
            bracket[cp] = 0x3C if cp == 0x3E else pair[cp]
        elif bpt.get(cp) == "o" or cp == 0x3C:
            term[cp] = OPEN
        elif cp in term_punct or cp in quotation:
            term[cp] = SOFT

    email = [cp in xid_continue and cp not in basic_latin for cp in range(MAX_CP + 1)]
    for ch in EMAIL_ASCII:
        email[ord(ch)] = True
    return term, bracket, email


def _ranges(values: list, skip) -> list[tuple[int, int, object]]:
    """Collapse per-code-point values into (first, last, value) runs, omitting `skip`."""
    out = []
    start = 0
    for cp in range(1, MAX_CP + 2):
        if cp == MAX_CP + 1 or values[cp] != values[start]:
            if values[start] != skip:
                out.append((start, cp - 1, values[start]))
            start = cp
    return out


def render(ucd: Path) -> str:
    term, bracket, email = derive(ucd)
    lines = [
        "# This file is generated by tools/generate_tables.py. Do not edit it by hand.",
        f"# Unicode {UNICODE_VERSION}; input files: " + ", ".join(INPUT_FILES) + ".",
        "# Derivation (UTS #58 §6.1):",
        "#   Hard    = White_Space | Noncharacter_Code_Point | (gc=C* - Cf) | Deprecated",
        "#   Soft    = (Terminal_Punctuation | Line_Break=QU) - Deprecated - Hard",
        "#   Close   = (Bidi_Paired_Bracket_Type=Close | '>') - Deprecated",
        "#   Open    = (Bidi_Paired_Bracket_Type=Open | '<') - Deprecated",
        "#   Include = all other code points",
        "#   Link_Bracket = Bidi_Paired_Bracket for Close, '<' for '>'",
        "#   Link_Email = (XID_Continue - Basic Latin) | ASCII [a-zA-Z0-9_-!?'{}*/&#%`^+=|~$.]",
        "# Regenerate: python tools/generate_tables.py --ucd-dir ../shared/unicode/17.0.0/ucd",
        "",
        f'UNICODE_VERSION = "{UNICODE_VERSION}"',
        "",
        "INCLUDE, HARD, SOFT, OPEN, CLOSE = range(5)",
        "",
        "# (first, last, Link_Term code); code points not listed are Hard.",
        "LINK_TERM_RANGES = (",
    ]
    for first, last, value in _ranges(term, HARD):
        lines.append(f"    (0x{first:04X}, 0x{last:04X}, {TERM_NAMES[value]}),")
    lines += [")", "", "# Close code point -> its Link_Bracket (an Open code point).", "LINK_BRACKET = {"]
    for cp in sorted(bracket):
        lines.append(f"    0x{cp:04X}: 0x{bracket[cp]:04X},")
    lines += ["}", "", "# (first, last) runs with Link_Email=Yes.", "LINK_EMAIL_RANGES = ("]
    for first, last, _ in _ranges(email, False):
        lines.append(f"    (0x{first:04X}, 0x{last:04X}),")
    lines += [")", ""]
    return "\n".join(lines)


# --- UTS #46 and IDNA2008: the host characters of refine/host_chars.py ----------------------

IDNA_INPUT_FILES = ("IdnaMappingTable.txt", "Idna2008.txt")
#: IDNA2008 categories (RFC 5892) of code points that may occur in a label.
IDNA2008_VALID = ("PVALID", "CONTEXTJ", "CONTEXTO")


def derive_host_chars(idna_dir: Path) -> list[tuple[int, int]]:
    """The non-ASCII host characters, as merged (first, last) ranges.

    A host character is one that can occur in an IDNA2008 label (Idna2008.txt: PVALID,
    CONTEXTJ, CONTEXTO), directly or after UTS #46 mapping (IdnaMappingTable.txt: a
    "mapped" code point whose mapping is ASCII letters, digits, "-" or such characters).
    """
    valid: set[int] = set()
    for first, last, fields in _records(idna_dir / "Idna2008.txt"):
        if fields[0] in IDNA2008_VALID:
            valid.update(range(first, last + 1))
    host = {cp for cp in valid if cp >= 0x80}
    for first, last, fields in _records(idna_dir / "IdnaMappingTable.txt"):
        if fields[0] != "mapped" or last < 0x80:
            continue
        mapping = [int(cp, 16) for cp in fields[1].split()]
        if mapping and all((cp < 0x80 and chr(cp).isalnum()) or cp == 0x2D or cp in valid for cp in mapping):
            host.update(range(max(first, 0x80), last + 1))
    ranges: list[tuple[int, int]] = []
    for cp in sorted(host):
        if ranges and cp == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], cp)
        else:
            ranges.append((cp, cp))
    return ranges


def render_idna(idna_dir: Path) -> str:
    """The text of ``uts58_adapt/_idna_tables.py`` from the UTS #46 / IDNA2008 files of ``idna_dir``."""
    lines = [
        "# This file is generated by tools/generate_tables.py. Do not edit it by hand.",
        f"# Unicode {UNICODE_VERSION}; input files: " + ", ".join(f"idna/{n}" for n in IDNA_INPUT_FILES) + ".",
        "# Host characters (refine/host_chars.py), non-ASCII only:",
        "#   IDNA2008_Category in {PVALID, CONTEXTJ, CONTEXTO}                 (Idna2008.txt, RFC 5892)",
        "#   | UTS #46 status 'mapped' to [a-z0-9-] or such characters only  (IdnaMappingTable.txt, UTS #46 §5)",
        "# Regenerate: python tools/generate_tables.py --ucd-dir ../shared/unicode/17.0.0/ucd "
        "--idna-dir ../shared/unicode/17.0.0/idna",
        "",
        f'UNICODE_VERSION = "{UNICODE_VERSION}"',
        "",
        "# (first, last) runs of non-ASCII host characters.",
        "HOST_CHAR_RANGES = (",
    ]
    for first, last in derive_host_chars(idna_dir):
        lines.append(f"    (0x{first:04X}, 0x{last:04X}),")
    lines += [")", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ucd-dir", required=True, type=Path, help="directory with the UCD 17.0.0 files")
    parser.add_argument(
        "--output",
        type=Path,
        default=Path(__file__).resolve().parent.parent / "uts58_adapt" / "_tables.py",
        help="where to write the table module (default: uts58_adapt/_tables.py; '-' for stdout)",
    )
    parser.add_argument(
        "--idna-dir", type=Path, help="directory with the UTS #46 17.0.0 files (also writes --idna-output)"
    )
    parser.add_argument(
        "--idna-output",
        type=Path,
        default=Path(__file__).resolve().parent.parent / "uts58_adapt" / "_idna_tables.py",
        help="where to write the host-character module (default: uts58_adapt/_idna_tables.py)",
    )
    args = parser.parse_args(argv)
    missing = [name for name in INPUT_FILES if not (args.ucd_dir / name).is_file()]
    if missing:
        parser.error(f"{args.ucd_dir} lacks {', '.join(missing)}")
    if args.idna_dir:
        args.idna_output.write_text(render_idna(args.idna_dir), encoding="utf-8", newline="\n")
    text = render(args.ucd_dir)
    if str(args.output) == "-":
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8", newline="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
