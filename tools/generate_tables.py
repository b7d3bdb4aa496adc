#!/usr/bin/env python3
"""Generate ``uts58_adapt/_tables.py`` from the Unicode Character Database.

UTS #58 §6.1 defines Link_Term, Link_Bracket and Link_Email in terms of UCD
properties.  This script derives them from the UCD 17.0.0 files (never from
Python's ``unicodedata``, which is an older Unicode version) and writes them as
compact, sorted range tables.  The output is deterministic: running the script
twice gives the same bytes, and a test checks that the committed file matches.

    python tools/generate_tables.py --idna-dir data/unicode/17.0.0/idna

``--ucd-dir`` defaults to the repository's ``data/unicode/17.0.0/ucd`` (docs/data.md).

``--unicode-version`` picks another data version the package ships (:data:`VERSIONS`): its
files (``data/unicode/18.0.0-draft/``) and its modules (``_tables_18_0_0.py``, ...):

    python tools/generate_tables.py --unicode-version 18.0.0 --idna-dir data/unicode/18.0.0-draft/idna

It also writes ``_security_tables.py`` beside the output: the data of the UTS #58 §8
checks, from the UTS #39, UCD and IDNA files of the release directory above
``--ucd-dir`` (:func:`render_security`).

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
from typing import NamedTuple

UNICODE_VERSION = "17.0.0"
#: The Unicode data versions the package ships -> their directory under data/unicode/ (a draft's
#: directory is named so). Must match SHIPPED in uts58_adapt/_unicode_version.py (tests/test_unicode_versions.py).
VERSIONS = {"17.0.0": "17.0.0", "18.0.0": "18.0.0-draft"}
REPO = Path(__file__).resolve().parent.parent
#: The repository's copy of the release's files (tools/refresh_data.py refreshes it).
DATA = REPO / "data" / "unicode" / UNICODE_VERSION


def module_suffix(version: str) -> str:
    """The suffix of a version's generated modules: none for 17.0.0 (``_tables.py``), else
    ``_18_0_0`` (``_tables_18_0_0.py``). The names never change with the default."""
    return "" if version == "17.0.0" else "_" + version.replace(".", "_")


def _regenerate(version: str, ucd_part: str, options: str = "") -> str:
    """The header's "Regenerate:" line (the 17.0.0 one is the line it always was)."""
    if version != "17.0.0":
        options = f" --unicode-version {version}" + options.replace("17.0.0", VERSIONS[version])
    return f"# Regenerate: python tools/generate_tables.py{options} ({ucd_part.replace('17.0.0', VERSIONS[version])})"


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


def render(ucd: Path, version: str = UNICODE_VERSION) -> str:
    term, bracket, email = derive(ucd)
    lines = [
        "# This file is generated by tools/generate_tables.py. Do not edit it by hand.",
        f"# Unicode {version}; input files: " + ", ".join(INPUT_FILES) + ".",
        "# Derivation (UTS #58 §6.1):",
        "#   Hard    = White_Space | Noncharacter_Code_Point | (gc=C* - Cf) | Deprecated",
        "#   Soft    = (Terminal_Punctuation | Line_Break=QU) - Deprecated - Hard",
        "#   Close   = (Bidi_Paired_Bracket_Type=Close | '>') - Deprecated",
        "#   Open    = (Bidi_Paired_Bracket_Type=Open | '<') - Deprecated",
        "#   Include = all other code points",
        "#   Link_Bracket = Bidi_Paired_Bracket for Close, '<' for '>'",
        "#   Link_Email = (XID_Continue - Basic Latin) | ASCII [a-zA-Z0-9_-!?'{}*/&#%`^+=|~$.]",
        "#   Letter  = gc=L (Lu | Ll | Lt | Lm | Lo), for refine/initiation.py",
        _regenerate(version, "the UCD files of data/unicode/17.0.0/ucd"),
        "",
        f'UNICODE_VERSION = "{version}"',
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
    lines += [")", "", "# (first, last) runs of General_Category L (letters).", "LETTER_RANGES = ("]
    for first, last in _letter_runs(ucd):
        lines.append(f"    (0x{first:04X}, 0x{last:04X}),")
    lines += [")", ""]
    return "\n".join(lines)


def _letter_runs(ucd: Path) -> list[tuple[int, int]]:
    """The runs of code points with General_Category L (Lu, Ll, Lt, Lm, Lo), merged."""
    runs: list[tuple[int, int]] = []
    records = _records(ucd / "extracted" / "DerivedGeneralCategory.txt")
    for first, last, _ in sorted(r for r in records if r[2][0].startswith("L")):
        if runs and runs[-1][1] + 1 == first:
            runs[-1] = (runs[-1][0], last)
        else:
            runs.append((first, last))
    return runs


# --- UTS #58 §8 security layer (UTS #39 data): uts58_adapt/_security_tables.py ---------------------

SECURITY_MODULE = "_security_tables.py"
#: Inputs of the security tables, relative to the directory above ``--ucd-dir`` (``17.0.0/``).
SECURITY_INPUTS = (
    "security/IdentifierStatus.txt",
    "security/confusables.txt",
    "ucd/Scripts.txt",
    "ucd/ScriptExtensions.txt",
    "ucd/LineBreak.txt",
    "ucd/PropList.txt",
    "ucd/extracted/DerivedGeneralCategory.txt",
    "ucd/UnicodeData.txt",
    "idna/Idna2008.txt",
)
#: Script_Extensions values are short names (ISO 15924 codes), Scripts.txt values long ones.
#: The alias file (PropertyValueAliases.txt) is not among the input files, so the aliases
#: of the codes that ScriptExtensions.txt uses are listed here; render_security checks each
#: one against the files (the long name of every code ScriptExtensions.txt uses is a script of
#: Scripts.txt, every such code is listed, and a character's own script is in its extensions).
#: One list serves every data version: a code a version does not use is not checked there.
SCRIPT_CODES = {
    "Adlm": "Adlam",
    "Aghb": "Caucasian_Albanian",
    "Arab": "Arabic",
    "Armn": "Armenian",
    "Avst": "Avestan",
    "Beng": "Bengali",
    "Bopo": "Bopomofo",
    "Bugi": "Buginese",
    "Buhd": "Buhid",
    "Cakm": "Chakma",
    "Cari": "Carian",
    "Cher": "Cherokee",
    "Copt": "Coptic",
    "Cpmn": "Cypro_Minoan",
    "Cprt": "Cypriot",
    "Cyrl": "Cyrillic",
    "Deva": "Devanagari",
    "Dogr": "Dogra",
    "Dupl": "Duployan",
    "Elba": "Elbasan",
    "Ethi": "Ethiopic",
    "Gara": "Garay",
    "Geor": "Georgian",
    "Glag": "Glagolitic",
    "Gong": "Gunjala_Gondi",
    "Gonm": "Masaram_Gondi",
    "Goth": "Gothic",
    "Gran": "Grantha",
    "Grek": "Greek",
    "Gujr": "Gujarati",
    "Gukh": "Gurung_Khema",
    "Guru": "Gurmukhi",
    "Hang": "Hangul",
    "Hani": "Han",
    "Hano": "Hanunoo",
    "Hebr": "Hebrew",
    "Hira": "Hiragana",
    "Hung": "Old_Hungarian",
    "Java": "Javanese",
    "Kali": "Kayah_Li",
    "Kana": "Katakana",
    "Khoj": "Khojki",
    "Knda": "Kannada",
    "Kthi": "Kaithi",
    "Latn": "Latin",
    "Limb": "Limbu",
    "Lina": "Linear_A",
    "Linb": "Linear_B",
    "Lisu": "Lisu",
    "Lyci": "Lycian",
    "Lydi": "Lydian",
    "Mahj": "Mahajani",
    "Mand": "Mandaic",
    "Mani": "Manichaean",
    "Mero": "Meroitic_Hieroglyphs",
    "Merc": "Meroitic_Cursive",
    "Mlym": "Malayalam",
    "Modi": "Modi",
    "Mong": "Mongolian",
    "Mult": "Multani",
    "Mymr": "Myanmar",
    "Nand": "Nandinagari",
    "Newa": "Newa",
    "Nkoo": "Nko",
    "Onao": "Ol_Onal",
    "Orkh": "Old_Turkic",
    "Orya": "Oriya",
    "Osge": "Osage",
    "Ougr": "Old_Uyghur",
    "Perm": "Old_Permic",
    "Phag": "Phags_Pa",
    "Pcun": "Proto_Cuneiform",  # from Unicode 18.0.0
    "Phlp": "Psalter_Pahlavi",
    "Rohg": "Hanifi_Rohingya",
    "Runr": "Runic",
    "Samr": "Samaritan",
    "Shaw": "Shavian",
    "Shrd": "Sharada",
    "Sind": "Khudawadi",
    "Sinh": "Sinhala",
    "Sogd": "Sogdian",
    "Sogo": "Old_Sogdian",
    "Sunu": "Sunuwar",
    "Sylo": "Syloti_Nagri",
    "Syrc": "Syriac",
    "Tagb": "Tagbanwa",
    "Takr": "Takri",
    "Tale": "Tai_Le",
    "Taml": "Tamil",
    "Tang": "Tangut",
    "Telu": "Telugu",
    "Tfng": "Tifinagh",
    "Tglg": "Tagalog",
    "Thaa": "Thaana",
    "Thai": "Thai",
    "Tibt": "Tibetan",
    "Tirh": "Tirhuta",
    "Todr": "Todhri",
    "Toto": "Toto",
    "Tutg": "Tulu_Tigalari",
    "Yezi": "Yezidi",
    "Xsux": "Cuneiform",  # in ScriptExtensions.txt from Unicode 18.0.0
    "Yiii": "Yi",
    "Zyyy": "Common",
    "Zinh": "Inherited",
}
#: Line_Break values of §8's ideographic test: ID and Complex_Context (SA), with CJ, which
#: UAX #14 (LB1) resolves to ID in strict line breaking (small kana, the prolonged sound mark).
IDEOGRAPHIC_LB = ("ID", "CJ", "SA")
#: Line_Break values that take the value of the character before them (UAX #14 LB9).
COMBINING_LB = ("CM", "ZWJ")
ASCII_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _run_list(cps: set[int]) -> list[tuple[int, int]]:
    """Sorted (first, last) runs of a set of code points."""
    runs: list[tuple[int, int]] = []
    for cp in sorted(cps):
        if runs and runs[-1][1] == cp - 1:
            runs[-1] = (runs[-1][0], cp)
        else:
            runs.append((cp, cp))
    return runs


class SecurityData(NamedTuple):
    """What ``_security_tables.py`` holds, before rendering."""

    allowed: list[tuple[int, int]]
    scripts: list[str]
    script_of: dict[int, str]
    extensions: dict[int, tuple[str, ...]]
    ideographic: list[tuple[int, int]]
    combining: list[tuple[int, int]]
    bidi_control: list[tuple[int, int]]
    not_tld: list[tuple[int, int]]
    confusable: dict[int, str]
    decimal_digits: list[tuple[int, int, int]]
    nonspacing_marks: list[tuple[int, int]]
    combining_class: list[tuple[int, int, int]]
    decomposition: dict[int, str]


def _unicode_data(path: Path):
    """Yield ``(code point, fields)`` for each line of UnicodeData.txt (its own format: one code
    point a line, ``First>``/``Last>`` pairs for ranges, which hold no digit, mark or decomposition)."""
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            fields = line.rstrip("\n").split(";")
            if len(fields) >= 15:
                yield int(fields[0], 16), fields


def _value_runs(values: dict[int, int]) -> list[tuple[int, int, int]]:
    """Sorted (first, last, value) runs of consecutive code points with the same value."""
    runs: list[tuple[int, int, int]] = []
    for cp in sorted(values):
        if runs and runs[-1][1] == cp - 1 and runs[-1][2] == values[cp]:
            runs[-1] = (runs[-1][0], cp, values[cp])
        else:
            runs.append((cp, cp, values[cp]))
    return runs


def derive_normalization(ucd: Path) -> tuple[dict[int, int], dict[int, int], dict[int, str]]:
    """From UnicodeData.txt: the zero of each Numeric_Type=Decimal digit (UTS #39 §5.3: the code
    point minus its decimal value, field 6), Canonical_Combining_Class (field 3, non-zero only),
    and the full canonical decomposition (field 5 without a ``<tag>``, applied recursively) that
    NFD needs (UTS #39 §5.4); Hangul syllables decompose algorithmically, in risks.py."""
    zero: dict[int, int] = {}
    ccc: dict[int, int] = {}
    single: dict[int, list[int]] = {}
    for cp, fields in _unicode_data(ucd / "UnicodeData.txt"):
        if fields[6]:
            zero[cp] = cp - int(fields[6])
        if fields[3] != "0":
            ccc[cp] = int(fields[3])
        if fields[5] and not fields[5].startswith("<"):
            single[cp] = [int(part, 16) for part in fields[5].split()]

    def full(cp: int) -> list[int]:
        return [d for part in single[cp] for d in (full(part) if part in single else [part])]

    return zero, ccc, {cp: "".join(map(chr, full(cp))) for cp in single}


def derive_security(ucd: Path) -> SecurityData:
    """The §8 tables from the UTS #39 and UCD files of the release directory above ``ucd``."""
    release = ucd.parent
    allowed: set[int] = set()
    for first, last, fields in _records(release / "security" / "IdentifierStatus.txt"):
        if fields[0] != "Allowed":
            raise ValueError(f"IdentifierStatus.txt: unexpected value {fields[0]!r}")
        allowed.update(range(first, last + 1))

    script_of: dict[int, str] = {}
    for first, last, fields in _records(ucd / "Scripts.txt"):
        for cp in range(first, last + 1):
            script_of[cp] = fields[0]
    long_names = set(script_of.values())
    extensions: dict[int, tuple[str, ...]] = {}
    for first, last, fields in _records(ucd / "ScriptExtensions.txt"):
        codes = fields[0].split()
        missing = [code for code in codes if code not in SCRIPT_CODES]
        if missing:
            raise ValueError(f"ScriptExtensions.txt uses codes that SCRIPT_CODES lacks: {missing}")
        unknown = sorted(SCRIPT_CODES[code] for code in codes if SCRIPT_CODES[code] not in long_names)
        if unknown:
            raise ValueError(f"SCRIPT_CODES names scripts that Scripts.txt lacks: {unknown}")
        names = tuple(sorted(SCRIPT_CODES[code] for code in codes))
        for cp in range(first, last + 1):
            own = script_of.get(cp, "Unknown")
            if own not in ("Common", "Inherited") and own not in names:
                raise ValueError(f"U+{cp:04X}: Script {own} is not in its Script_Extensions {names}: wrong alias")
            extensions[cp] = names

    ideographic: set[int] = set()
    combining: set[int] = set()
    for first, last, fields in _records(ucd / "LineBreak.txt"):
        if fields[0] in IDEOGRAPHIC_LB:
            ideographic.update(range(first, last + 1))
        elif fields[0] in COMBINING_LB:
            combining.update(range(first, last + 1))

    bidi_control = _code_points(ucd / "PropList.txt", 0, "Bidi_Control")
    not_tld: set[int] = {ord("-")}
    not_tld |= _code_points(ucd / "extracted" / "DerivedGeneralCategory.txt", 0, "Nd")
    for first, last, fields in _records(release / "idna" / "Idna2008.txt"):
        if fields[0] in ("CONTEXTJ", "CONTEXTO"):
            not_tld.update(range(first, last + 1))

    confusable: dict[int, str] = {}
    for first, _last, fields in _records(release / "security" / "confusables.txt"):
        target = "".join(chr(int(cp, 16)) for cp in fields[0].split())
        if target.isascii():
            confusable[first] = target
    zero, ccc, decomposition = derive_normalization(ucd)
    marks = _code_points(ucd / "extracted" / "DerivedGeneralCategory.txt", 0, "Mn")
    marks |= _code_points(ucd / "extracted" / "DerivedGeneralCategory.txt", 0, "Me")
    return SecurityData(
        allowed=_run_list(allowed),
        scripts=sorted(long_names | {"Unknown"}),
        script_of=script_of,
        extensions=extensions,
        ideographic=_run_list(ideographic),
        combining=_run_list(combining),
        bidi_control=_run_list(bidi_control),
        not_tld=_run_list(not_tld),
        confusable=confusable,
        decimal_digits=_value_runs(zero),
        nonspacing_marks=_run_list(marks),
        combining_class=_value_runs(ccc),
        decomposition=decomposition,
    )


def _literal(text: str) -> str:
    """A string literal as the formatter writes it: double quotes unless the text holds one."""
    if '"' in text and "'" not in text:
        return repr(text)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _escaped(text: str) -> str:
    """``text`` as ``\\uXXXX`` / ``\\UXXXXXXXX`` escapes (decompositions start with combining marks)."""
    return "".join(f"\\u{ord(c):04X}" if ord(c) < 0x10000 else f"\\U{ord(c):08X}" for c in text)


def render_security(ucd: Path, version: str = UNICODE_VERSION) -> str:
    """The text of ``uts58_adapt/_security_tables.py``."""
    d = derive_security(ucd)
    scripts = d.scripts
    index = {name: i for i, name in enumerate(scripts)}
    script_of = d.script_of
    extensions = d.extensions
    confusable = d.confusable

    def runs(name: str, comment: str) -> list[str]:
        out = ["", f"# {comment}", f"{name} = ("]
        out += [f"    (0x{first:04X}, 0x{last:04X})," for first, last in getattr(d, name.lower())]
        return out + [")"]

    lines = [
        "# This file is generated by tools/generate_tables.py. Do not edit it by hand.",
        f"# Unicode {version}; input files: " + ", ".join(SECURITY_INPUTS) + ".",
        "# The data of the UTS #58 §8 checks (uts58_adapt/refine/risks.py): UTS #39 identifier status,",
        "# scripts and confusables, the Line_Break classes of §8's ideographic test, Bidi_Control, and",
        "# the characters a TLD cannot hold (RZ-LGR: digits, hyphen, IDNA2008 CONTEXTJ and CONTEXTO).",
        _regenerate(version, "the files of data/unicode/17.0.0/"),
        "# fmt: off",
        "",
        f'UNICODE_VERSION = "{version}"',
    ]
    lines += runs("ALLOWED", "(first, last) runs with Identifier_Status=Allowed; every other code point is Restricted.")
    lines += ["", "# Script values (long names), indexed by SCRIPT_RANGES and SCRIPT_EXTENSIONS.", "SCRIPTS = ("]
    lines += [f'    "{name}",' for name in scripts]
    lines += [
        ")",
        "",
        "# (first, last, SCRIPTS index) runs of the Script property; unlisted: Unknown.",
        "SCRIPT_RANGES = (",
    ]
    run_start: int | None = None
    prev = -2
    value = ""
    items = sorted(script_of.items())
    for cp, name in items + [(MAX_CP + 2, "")]:
        if cp != prev + 1 or name != value:
            if run_start is not None:
                lines.append(f"    (0x{run_start:04X}, 0x{prev:04X}, {index[value]}),  # {value}")
            run_start, value = cp, name
        prev = cp
    lines += [
        ")",
        "",
        "# (first, last, SCRIPTS indices): Script_Extensions where ScriptExtensions.txt lists it.",
        "SCRIPT_EXTENSIONS = (",
    ]
    run_start = None
    prev = -2
    ext_value: tuple[str, ...] = ()
    for cp, names in sorted(extensions.items()) + [(MAX_CP + 2, ())]:
        if cp != prev + 1 or names != ext_value:
            if run_start is not None:
                ids = ", ".join(str(index[n]) for n in ext_value) + ("," if len(ext_value) == 1 else "")
                line = f"    (0x{run_start:04X}, 0x{prev:04X}, ({ids})),"
                comment = f"  # {' '.join(ext_value)}"
                lines.append(line + comment if len(line + comment) <= 120 else line)
            run_start, ext_value = cp, names
        prev = cp
    lines.append(")")
    lines += runs(
        "IDEOGRAPHIC", "(first, last) runs with Line_Break " + ", ".join(IDEOGRAPHIC_LB) + " (§8's ideographic test)."
    )
    lines += runs(
        "COMBINING",
        "(first, last) runs with Line_Break " + ", ".join(COMBINING_LB) + " (they take the class before them).",
    )
    lines += runs("BIDI_CONTROL", "(first, last) runs with Bidi_Control=Yes.")
    lines += runs("NOT_TLD", "(first, last) runs a TLD cannot hold: gc=Nd, '-', IDNA2008 CONTEXTJ and CONTEXTO.")
    lines += [
        "",
        "# confusables.txt: code point -> its prototype, for the prototypes that are ASCII.",
        "CONFUSABLE_ASCII = {",
    ]
    lines += [f"    0x{cp:04X}: {_literal(confusable[cp])}," for cp in sorted(confusable)]
    lines += [
        "}",
        "",
        "# (first, last, zero) runs with Numeric_Type=Decimal; zero is the code point of the run's digit 0.",
        "DECIMAL_DIGITS = (",
    ]
    lines += [f"    (0x{first:04X}, 0x{last:04X}, 0x{zero:04X})," for first, last, zero in d.decimal_digits]
    lines.append(")")
    lines += runs("NONSPACING_MARKS", "(first, last) runs with General_Category Mn or Me (UTS #39 §5.4).")
    lines += ["", "# (first, last, ccc) runs with a non-zero Canonical_Combining_Class.", "COMBINING_CLASS = ("]
    lines += [f"    (0x{first:04X}, 0x{last:04X}, {value})," for first, last, value in d.combining_class]
    lines += [
        ")",
        "",
        "# Full canonical decompositions (NFD before reordering), Hangul syllables aside.",
        "DECOMPOSITION = {",
    ]
    lines += [f'    0x{cp:04X}: "{_escaped(text)}",' for cp, text in sorted(d.decomposition.items())]
    lines += ["}", ""]
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


def render_idna(idna_dir: Path, version: str = UNICODE_VERSION) -> str:
    """The text of ``uts58_adapt/_idna_tables.py`` from the UTS #46 / IDNA2008 files of ``idna_dir``."""
    lines = [
        "# This file is generated by tools/generate_tables.py. Do not edit it by hand.",
        f"# Unicode {version}; input files: " + ", ".join(f"idna/{n}" for n in IDNA_INPUT_FILES) + ".",
        "# Host characters (refine/host_chars.py), non-ASCII only:",
        "#   IDNA2008_Category in {PVALID, CONTEXTJ, CONTEXTO}                 (Idna2008.txt, RFC 5892)",
        "#   | UTS #46 status 'mapped' to [a-z0-9-] or such characters only  (IdnaMappingTable.txt, UTS #46 §5)",
        _regenerate(version, "", " --idna-dir data/unicode/17.0.0/idna").removesuffix(" ()"),
        "",
        f'UNICODE_VERSION = "{version}"',
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
    parser.add_argument(
        "--unicode-version",
        choices=tuple(VERSIONS),
        default=UNICODE_VERSION,
        help="the data version: its files are the defaults of --ucd-dir, its modules those of the outputs "
        "(default: 17.0.0; 18.0.0 reads data/unicode/18.0.0-draft/ and writes _tables_18_0_0.py ...)",
    )
    parser.add_argument(
        "--ucd-dir",
        type=Path,
        help="directory with the UCD files (default: data/unicode/17.0.0/ucd, the version's directory)",
    )
    parser.add_argument(
        "--output",
        type=Path,
        help="where to write the table module (default: uts58_adapt/_tables.py, _tables_18_0_0.py for 18.0.0; "
        "'-' for stdout); the §8 tables go beside it",
    )
    parser.add_argument(
        "--idna-dir", type=Path, help="directory with the UTS #46 files of the version (also writes --idna-output)"
    )
    parser.add_argument(
        "--idna-output",
        type=Path,
        help="where to write the host-character module (default: uts58_adapt/_idna_tables.py, the version's)",
    )
    args = parser.parse_args(argv)
    version = args.unicode_version
    suffix = module_suffix(version)
    package = REPO / "uts58_adapt"
    ucd_dir = args.ucd_dir or REPO / "data" / "unicode" / VERSIONS[version] / "ucd"
    output = args.output or package / f"_tables{suffix}.py"
    idna_output = args.idna_output or package / f"_idna_tables{suffix}.py"
    missing = [name for name in INPUT_FILES if not (ucd_dir / name).is_file()]
    if missing:
        parser.error(f"{ucd_dir} lacks {', '.join(missing)}")
    missing = [name for name in SECURITY_INPUTS if not (ucd_dir.parent / name).is_file()]
    if missing:
        parser.error(f"{ucd_dir.parent} lacks {', '.join(missing)}")
    if args.idna_dir:
        idna_output.write_text(render_idna(args.idna_dir, version), encoding="utf-8", newline="\n")
    text = render(ucd_dir, version)
    if str(output) == "-":
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8", newline="\n")
        # The §8 tables go beside the output (uts58_adapt/_security_tables.py by default).
        security = output.with_name(SECURITY_MODULE.replace(".py", f"{suffix}.py"))
        security.write_text(render_security(ucd_dir, version), encoding="utf-8", newline="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
