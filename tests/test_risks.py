"""UTS #58 §8 (issue 22): ``link_risks``, ``reject_risky`` and the tables behind them.

The generated tables (``uts58_adapt/_security_tables.py``) are compared with the official
UTS #39 and UCD files line by line (each file parsed here, independently of the
generator); each failing line is reported with its number.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_linear_time import check_linear

from uts58_adapt import Link, detect, link_risks, linkify
from uts58_adapt import _security_tables as tables
from uts58_adapt.refine import risks

from conftest import REPO, require_data, ucd_data_lines

MAX = 0x110000


def _expand(runs: tuple[tuple[int, int], ...]) -> set[int]:
    return {cp for first, last in runs for cp in range(first, last + 1)}


def _official(*parts: str) -> Path:
    return require_data("17.0.0", *parts)


# --- the tables against the official files -----------------------------------------------------


def test_identifier_status_line_by_line() -> None:
    path = _official("security", "IdentifierStatus.txt")
    allowed = _expand(tables.ALLOWED)
    listed: set[int] = set()
    bad = []
    for lineno, first, last, fields in ucd_data_lines(path):
        for cp in range(first, last + 1):
            listed.add(cp)
            restricted = risks._RESTRICTED.match(chr(cp)) is not None
            if fields[0] != "Allowed" or cp not in allowed or restricted:
                bad.append(f"line {lineno}: U+{cp:04X} is {fields[0]}, table says Allowed={cp in allowed}")
    # @missing: every other code point is Restricted
    extra = [cp for cp in range(MAX) if cp not in listed and (cp in allowed or not risks._RESTRICTED.match(chr(cp)))]
    bad += [f"U+{cp:04X}: not listed (Restricted), table says Allowed" for cp in extra[:20]]
    assert len(listed) > 30_000 and not bad, f"{len(bad)} differences, first: {bad[:20]}"


def test_scripts_line_by_line() -> None:
    path = _official("ucd", "Scripts.txt")
    listed = [False] * MAX
    bad = []
    for lineno, first, last, fields in ucd_data_lines(path):
        for cp in range(first, last + 1):
            listed[cp] = True
            if risks._script(cp) != fields[0]:
                bad.append(f"line {lineno}: U+{cp:04X} is {fields[0]}, table says {risks._script(cp)}")
    unknown = [cp for cp in range(MAX) if not listed[cp] and risks._script(cp) != "Unknown"]
    bad += [f"U+{cp:04X}: unlisted (Unknown), table says {risks._script(cp)}" for cp in unknown[:20]]
    assert not bad, f"{len(bad)} differences, first: {bad[:20]}"


def test_script_extensions_line_by_line() -> None:
    """Each line's codes, through the generator's aliases (which the generator checks), are the table's names."""
    sys.path.insert(0, str(REPO / "tools"))
    try:
        from generate_tables import SCRIPT_CODES
    finally:
        sys.path.remove(str(REPO / "tools"))
    path = _official("ucd", "ScriptExtensions.txt")
    bad = []
    listed = set()
    for lineno, first, last, fields in ucd_data_lines(path):
        expected = sorted(SCRIPT_CODES[code] for code in fields[0].split())
        for cp in range(first, last + 1):
            listed.add(cp)
            i = [k for k, r in enumerate(tables.SCRIPT_EXTENSIONS) if r[0] <= cp <= r[1]]
            got = sorted(tables.SCRIPTS[j] for j in tables.SCRIPT_EXTENSIONS[i[0]][2]) if i else None
            if got != expected:
                bad.append(f"line {lineno}: U+{cp:04X} has {expected}, table says {got}")
    table_cps = {cp for first, last, _ in tables.SCRIPT_EXTENSIONS for cp in range(first, last + 1)}
    bad += [f"U+{cp:04X}: not in the file, in the table" for cp in sorted(table_cps - listed)]
    assert listed and not bad, f"{len(bad)} differences, first: {bad[:20]}"


def test_line_break_classes_line_by_line() -> None:
    path = _official("ucd", "LineBreak.txt")
    listed = [False] * MAX
    bad = []
    for lineno, first, last, fields in ucd_data_lines(path):
        for cp in range(first, last + 1):
            listed[cp] = True
            ideographic = cp in risks._IDEOGRAPHIC
            combining = cp in risks._COMBINING
            if ideographic != (fields[0] in ("ID", "CJ", "SA")) or combining != (fields[0] in ("CM", "ZWJ")):
                bad.append(
                    f"line {lineno}: U+{cp:04X} is {fields[0]}, table says ID/CJ/SA={ideographic} CM={combining}"
                )
    # @missing: XX, neither class
    stray = [cp for cp in range(MAX) if not listed[cp] and (cp in risks._IDEOGRAPHIC or cp in risks._COMBINING)]
    bad += [f"U+{cp:04X}: unlisted (XX), in a table" for cp in stray[:20]]
    assert not bad, f"{len(bad)} differences, first: {bad[:20]}"


def test_bidi_control_line_by_line() -> None:
    expected = set()
    for _lineno, first, last, fields in ucd_data_lines(_official("ucd", "PropList.txt")):
        if fields[0] == "Bidi_Control":
            expected.update(range(first, last + 1))
    got = {cp for cp in range(MAX) if risks._BIDI.match(chr(cp))}
    assert len(expected) == 12 and got == expected


def test_tld_exclusions_line_by_line() -> None:
    expected = {ord("-")}
    for _lineno, first, last, fields in ucd_data_lines(_official("ucd", "extracted", "DerivedGeneralCategory.txt")):
        if fields[0] == "Nd":
            expected.update(range(first, last + 1))
    for _lineno, first, last, fields in ucd_data_lines(_official("idna", "Idna2008.txt")):
        if fields[0] in ("CONTEXTJ", "CONTEXTO"):
            expected.update(range(first, last + 1))
    got = {cp for cp in range(MAX) if risks._NOT_TLD.match(chr(cp))}
    assert {0x200C, 0x200D, 0x00B7, 0x30FB, 0x0660} <= expected
    assert sorted(got ^ expected)[:20] == []


def test_confusables_line_by_line() -> None:
    bad = []
    seen = 0
    for lineno, first, _last, fields in ucd_data_lines(_official("security", "confusables.txt")):
        target = "".join(chr(int(cp, 16)) for cp in fields[0].split())
        got = tables.CONFUSABLE_ASCII.get(first)
        if target.isascii():
            seen += 1
            if got != target:
                bad.append(f"line {lineno}: U+{first:04X} -> {target!r}, table says {got!r}")
        elif got is not None:
            bad.append(f"line {lineno}: U+{first:04X} -> {target!r} (not ASCII), table says {got!r}")
    assert seen == len(tables.CONFUSABLE_ASCII) and not bad, f"{len(bad)} differences, first: {bad[:20]}"


def _unicode_data() -> list[tuple[int, int, list[str]]]:
    """``(line number, code point, fields)`` of UnicodeData.txt, parsed here (its own format)."""
    out = []
    with _official("ucd", "UnicodeData.txt").open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            fields = line.rstrip("\n").split(";")
            out.append((lineno, int(fields[0], 16), fields))
    return out


def test_decimal_digits_line_by_line() -> None:
    """UTS #39 §5.3: Numeric_Type=Decimal is UnicodeData.txt field 6; a digit's zero is cp - value."""
    bad = []
    listed = set()
    for lineno, cp, fields in _unicode_data():
        if not fields[6]:
            continue
        listed.add(cp)
        runs = [r for r in tables.DECIMAL_DIGITS if r[0] <= cp <= r[1]]
        if len(runs) != 1 or runs[0][2] != cp - int(fields[6]):
            bad.append(f"line {lineno}: U+{cp:04X} digit {fields[6]}, table says {runs}")
    in_table = {cp for first, last, _ in tables.DECIMAL_DIGITS for cp in range(first, last + 1)}
    bad += [f"U+{cp:04X}: no decimal digit, in the table" for cp in sorted(in_table - listed)]
    assert len(listed) > 700 and not bad, f"{len(bad)} differences, first: {bad[:20]}"


def test_nonspacing_marks_line_by_line() -> None:
    expected = set()
    for _lineno, first, last, fields in ucd_data_lines(_official("ucd", "extracted", "DerivedGeneralCategory.txt")):
        if fields[0] in ("Mn", "Me"):
            expected.update(range(first, last + 1))
    assert _expand(tables.NONSPACING_MARKS) == expected and 0x0301 in expected and 0x20DD in expected


def test_combining_class_and_decomposition_line_by_line() -> None:
    """Each line's field 3 (ccc) and field 5 (canonical decomposition, applied recursively here)."""
    ccc = {cp: value for first, last, value in tables.COMBINING_CLASS for cp in range(first, last + 1)}
    rows = _unicode_data()
    single = {cp: [int(x, 16) for x in f[5].split()] for _, cp, f in rows if f[5] and not f[5].startswith("<")}

    def full(cp: int) -> str:
        return "".join(full(part) if part in single else chr(part) for part in single[cp])

    bad = []
    for lineno, cp, fields in rows:
        if ccc.get(cp, 0) != int(fields[3]):
            bad.append(f"line {lineno}: U+{cp:04X} ccc {fields[3]}, table says {ccc.get(cp, 0)}")
        if cp in single and tables.DECOMPOSITION.get(cp) != full(cp):
            bad.append(
                f"line {lineno}: U+{cp:04X} decomposes to {full(cp)!r}, table says {tables.DECOMPOSITION.get(cp)!r}"
            )
    bad += [f"U+{cp:04X}: no canonical decomposition, in the table" for cp in set(tables.DECOMPOSITION) - set(single)]
    assert len(single) > 2000 and not bad, f"{len(bad)} differences, first: {bad[:20]}"


def test_nfd_agrees_with_python_where_python_knows_the_character() -> None:
    """Normalization is stable: for every character Python's (older) ``unicodedata`` has, NFD agrees.
    Hangul syllables are decomposed algorithmically; a mark sequence is reordered by ccc."""
    import unicodedata

    bad = [
        f"U+{cp:04X}"
        for cp in range(MAX)
        if not 0xD800 <= cp < 0xE000
        and unicodedata.category(chr(cp)) != "Cn"
        and risks._nfd(chr(cp)) != unicodedata.normalize("NFD", chr(cp))
    ]
    assert not bad, bad[:20]
    for text in ("a\u0301\u0323", "\u1ea1\u0301", "한국어", "e\u0301\u0308\u0327x\u0300", "ḉ"):
        assert risks._nfd(text) == unicodedata.normalize("NFD", text), text
    # A Unicode 16 character Python 3.11 does not know: U+1611E..U+16120 decompose (Gurung Khema).
    assert risks._nfd("\U00016121") == "\U0001611e\U0001611e"


def test_generator_reproduces_security_tables_byte_for_byte(tmp_path: Path) -> None:
    ucd = _official("ucd", "PropList.txt").parent
    _official("security", "IdentifierStatus.txt")
    _official("idna", "Idna2008.txt")
    out = tmp_path / "_tables.py"
    subprocess.run(
        [sys.executable, str(REPO / "tools" / "generate_tables.py"), "--ucd-dir", str(ucd), "--output", str(out)],
        check=True,
    )
    committed = (REPO / "uts58_adapt" / "_security_tables.py").read_bytes()
    assert (tmp_path / "_security_tables.py").read_bytes() == committed, (
        "uts58_adapt/_security_tables.py is stale or hand-edited; regenerate it"
    )
    assert b"Unicode 17.0.0" in committed.splitlines()[1]
    assert b"tools/generate_tables.py" in committed.splitlines()[0]


# --- link_risks -----------------------------------------------------------------------------------


def test_codes_are_stable() -> None:
    """The codes are API: listed in docs/security.md and never renamed; new ones come after the old."""
    assert risks.DEFAULT_CODES == (
        "mixed-script",
        "restricted-character",
        "whole-script-confusable",
        "bidi-control",
        "invalid-tld",
        "ideographic-boundary",
        "mixed-numbers",  # issue 37
        "invisible-marks",
        "cjk-lookalike",
    )
    assert risks.BROWSER_CODES == (
        "digit-lookalike",
        "whole-script-lookalike",
        "non-ascii-latin-mixed",
        "dangerous-pattern",
        "latin-lookalike",
        "tld-specific-character",
    )
    assert risks.RISK_CODES == risks.DEFAULT_CODES + risks.BROWSER_CODES
    doc = (REPO / "docs" / "security.md").read_text(encoding="utf-8")
    for code in risks.RISK_CODES:
        assert f"`{code}`" in doc


@pytest.mark.parametrize(
    "url, expected",
    [
        # the examples
        ("pаypal.com", ("mixed-script",)),  # Cyrillic а in a Latin label
        ("пример.рф", ()),
        ("例え.jp", ()),  # Han and Hiragana: one script (Jpan)
        ("exǉample.com", ("restricted-character",)),  # ǉ maps to lj, but is Restricted as written
        ("аррӏе.com", ("whole-script-confusable",)),  # all Cyrillic, skeleton "apple"
        ("example.com/αβ(γ)", ()),  # only the host decides
        ("ウェブサイトはexample.com", ("ideographic-boundary",)),
        ("ウェブサイトはexample.com です。", ("ideographic-boundary",)),  # the host ends at white space
        # more of each
        ("https://pаypal.com/x", ("mixed-script",)),
        ("user@pаypal.com", ("mixed-script",)),
        ("mailto:user@pаypal.com", ("mixed-script",)),
        ("user@example.c0m:25", ("invalid-tld",)),
        ("xn--80ak6aa92e.com", ("whole-script-confusable",)),  # аррӏе.com as an A-label
        ("аррӏе.рф", ()),  # the TLD is in the label's script
        ("ёлка.рф", ()),
        ("BÜCHER.de", ()),
        ("日本語.jp", ()),
        ("ソニー製品.jp", ()),
        ("한국어.kr", ()),
        ("中国.中国", ()),
        ("ภาษาไทย.com", ()),  # Complex_Context throughout: no change
        ("Latin日本.jp", ("ideographic-boundary",)),  # Latin with Han: Highly Restrictive allows it
        ("Latinабв.com", ("mixed-script",)),
        ("한국ひらがな.com", ("mixed-script", "ideographic-boundary")),  # Hangul is not Line_Break=ID
        ("ｅｘａｍｐｌｅ.com", ("restricted-character",)),  # fullwidth, as written
        ("example.com/a\u202eb", ("bidi-control",)),
        ("example.com\u200f", ("restricted-character", "bidi-control")),  # in the host, as written
        ("example.c0m", ("invalid-tld",)),
        ("example.co-m", ("invalid-tld",)),
        ("example.xn--zz-", ("invalid-tld",)),  # no valid A-label: the hyphen counts
        ("example.xn--p1ai", ()),  # .рф
        ("http://192.168.0.1/x", ()),  # an address has no TLD
        ("http://[::1]/x", ()),
        ("http://server1/", ()),  # one label: no TLD
        ("https://example.com:8080/p", ()),
        ("http://最高のSONY製品.com", ()),  # a scheme starts the link: no boundary to move
        # several codes, in the fixed order
        ("pаypal.c0m/\u202e", ("mixed-script", "bidi-control", "invalid-tld")),
        ("ウェブはexǉample.com", ("restricted-character", "ideographic-boundary")),
    ],
)
def test_link_risks(url: str, expected: tuple[str, ...]) -> None:
    assert link_risks(url) == expected


def test_link_risks_of_a_link_reads_its_text() -> None:
    (link,) = detect("Visit pаypal.com now")
    assert link_risks(link) == ("mixed-script",)
    (email,) = detect("mail me at ab@pаypal.com")
    assert email.kind == "email" and link_risks(email) == ("mixed-script",)
    made = Link(0, 14, "ab\u202ec@x.com", "email", "mailto:ab\u202ec@x.com")
    assert link_risks(made) == ("bidi-control",)


def test_link_risks_rejects_other_types() -> None:
    with pytest.raises(TypeError, match="link must be a Link or a str, not int"):
        link_risks(3)  # type: ignore[arg-type]


# --- reject_risky ------------------------------------------------------------------------------------


def _texts(links: list[Link]) -> list[str]:
    return [link.text for link in links]


@pytest.mark.parametrize("backend", ["linkify-it", "urlextract"])
def test_reject_risky_drops_risky_links(backend: str) -> None:
    text = "Visit pаypal.com, аррӏе.com or exǉample.com, not example.com/αβ(γ) or пример.рф"
    assert _texts(detect(text, backend)) == [
        "pаypal.com",
        "аррӏе.com",
        "exǉample.com",
        "example.com/αβ(γ)",
        "пример.рф",
    ]
    assert _texts(detect(text, backend, reject_risky=True)) == ["example.com/αβ(γ)", "пример.рф"]


@pytest.mark.parametrize("backend", ["linkify-it", "urlextract"])
def test_reject_risky_moves_an_ideographic_start(backend: str) -> None:
    text = "ウェブサイトはexample.com です。"
    (before,) = detect(text, backend)
    assert before.text == "ウェブサイトはexample.com"
    (after,) = detect(text, backend, reject_risky=True)
    assert (after.start, after.end, after.text, after.href) == (7, 18, "example.com", "https://example.com")
    assert after.original == before.original
    # With a path, a port and a trailing separator before a path.
    (moved,) = detect("見てexample.com。/パス です", backend, reject_risky=True)
    assert (moved.text, moved.href) == ("example.com。/パス", "https://example.com./パス")


def test_reject_risky_cuts_the_specs_counter_example() -> None:
    """§8: moving the start "would block some reasonable URLs, like 最高のSONY製品.com"."""
    (link,) = detect("最高のSONY製品.com")
    assert link.text == "最高のSONY製品.com"
    assert _texts(detect("最高のSONY製品.com", reject_risky=True)) == ["製品.com"]


def test_reject_risky_drops_a_moved_link_that_is_no_host() -> None:
    # Moved after the last change, the host would start with "-": no host left.
    for strict_hosts in (True, False):
        assert _texts(detect("日本-example.com", strict_hosts=strict_hosts)) == ["日本-example.com"]
        assert detect("日本-example.com", strict_hosts=strict_hosts, reject_risky=True) == []
    # Kana and kanji are all ideographic (small kana are CJ): nothing moves.
    assert _texts(detect("ウェブ例.com", reject_risky=True)) == ["ウェブ例.com"]
    assert _texts(detect("東京2020.com", reject_risky=True)) == ["2020.com"]


def test_reject_risky_on_linkify_and_detect_pair() -> None:
    from uts58_adapt.detection import detect_pair

    text = "Visit pаypal.com or ウェブサイトはexample.com"
    html = linkify(text, reject_risky=True)
    assert html == 'Visit pаypal.com or ウェブサイトは<a href="https://example.com" dir="ltr">example.com</a>'
    assert linkify(text).count("<a ") == 2
    before, after = detect_pair(text, reject_risky=True)
    assert _texts(after) == ["example.com"] and _texts(before) == ["example.com"]


def test_reject_risky_on_wrap() -> None:
    from linkify_it import LinkifyIt
    from urlextract import URLExtract

    from uts58_adapt import wrap

    text = "Visit pаypal.com or ウェブサイトはexample.com"
    plain = wrap(LinkifyIt())
    safe = wrap(LinkifyIt(), reject_risky=True)
    assert [m.text for m in plain.match(text) or []] == ["pаypal.com", "ウェブサイトはexample.com"]
    assert [m.text for m in safe.match(text) or []] == ["example.com"]
    assert wrap(safe, reject_risky=True) is safe and wrap(safe) is not safe
    assert wrap(URLExtract(), reject_risky=True).find_urls(text) == ["example.com"]
    assert wrap(URLExtract()).find_urls(text) == ["pаypal.com", "ウェブサイトはexample.com"]


def test_reject_risky_on_a_bleach_linker() -> None:
    bleach = pytest.importorskip("bleach")
    from uts58_adapt import wrap

    text = "Visit pаypal.com or ウェブサイトはexample.com"
    safe = wrap(bleach.linkifier.Linker(), reject_risky=True).linkify(text)
    assert safe == 'Visit pаypal.com or ウェブサイトは<a href="http://example.com" rel="nofollow">example.com</a>'


_ALPHABET = st.sampled_from(
    list("ab.-/ 。@")
    + ["com", "jp", "рф", "а", "р", "ӏ", "ǉ", "日", "本", "は", "ウ", "ェ", "\u202e", "\u0301", "https://", "١"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join), st.booleans(), st.sampled_from(["linkify-it", "urlextract"]))
def test_reject_risky_never_adds_a_link_nor_moves_an_end(text: str, strict_hosts: bool, backend: str) -> None:
    before = detect(text, backend, strict_hosts=strict_hosts)
    after = detect(text, backend, strict_hosts=strict_hosts, reject_risky=True)
    by_end = {link.end: link for link in before}
    for link in after:
        assert link.end in by_end, (text, link)
        old = by_end[link.end]
        assert old.start <= link.start < link.end and old.kind == link.kind
        assert text[link.start : link.end] == link.text
        assert link_risks(link) == ()


# --- a scheme right after a word (issue 22, point 3) -----------------------------------------------


@pytest.mark.parametrize("backend", ["linkify-it", "urlextract", "django", "mistune"])
def test_detect_links_a_scheme_after_a_non_ascii_letter(backend: str) -> None:
    text = "詳しくはhttps://example.com/ページ を見て"
    assert _texts(detect(text, backend)) == ["https://example.com/ページ"]
    assert _texts(detect("見てftp://example.com。", backend)) == ["ftp://example.com"]
    assert _texts(detect("Ελληνικάhttp://example.com/α", backend)) == ["http://example.com/α"]


def test_a_letter_of_unicode_17_counts_though_python_does_not_know_it() -> None:
    """U+31350 (CJK Unified Ideographs Extension H, Unicode 15.0) is gc=Lo: ``str.isalpha`` on
    Python 3.11 (Unicode 14.0) says no, so the scheme after it was missed (the leftover of issue 22)."""
    assert _texts(detect("詳しくは\U00031350https://example.com/x")) == ["https://example.com/x"]
    assert _texts(detect("\U0002ebf0https://example.com/x")) == ["https://example.com/x"]  # Extension I, 15.1
    assert detect("\U00031350\u0300https://example.com/x") == []  # after a mark (gc=Mn): the backend's view
    assert detect("\u2160https://example.com/x") == detect("\u2160https://example.com/x", refine=False)  # Nl


def test_no_scheme_after_an_ascii_letter_or_for_other_schemes() -> None:
    assert detect("xhttps://example.com") == []  # "xhttps" may be a scheme
    assert detect("見てfile://example.com/x") == []
    assert detect("詳しくはhttps://example.com/ページ", refine=False) == []  # the backend's own view


def test_wrap_leaves_a_scheme_after_a_word_to_the_library() -> None:
    from linkify_it import LinkifyIt

    from uts58_adapt import wrap

    assert wrap(LinkifyIt()).match("詳しくはhttps://example.com/ページ") is None


# --- linear time ------------------------------------------------------------------------------------

RISK_SHAPES = {
    "ideographic starts": lambda n: "ウェブサイトはexample.com です。" * n,
    "mixed-script links": lambda n: "pаypal.com аррӏе.com exǉample.com 例え.jp " * n,
    "scheme after a word": lambda n: "詳しくはhttps://例え.jp/ページ" * n,
}


@pytest.mark.parametrize("shape", list(RISK_SHAPES))
def test_detect_reject_risky_linear(shape: str) -> None:
    check_linear(lambda text: detect(text, reject_risky=True), RISK_SHAPES[shape])


LONG_HOST_SHAPES = {
    "Latin and Cyrillic": lambda n: "aа" * n + ".com",
    "Han and Latin labels": lambda n: ("日a" * 20 + ".") * n + "com",
    "kana and Hangul": lambda n: "ひ한" * n + ".ﾃｽﾄ",
    "combining marks": lambda n: "日" + "\u0301" * n + "a.com",
    "confusable Cyrillic": lambda n: "аррӏе" * n + ".com",
}


@pytest.mark.parametrize("shape", list(LONG_HOST_SHAPES))
def test_link_risks_linear_on_long_hosts(shape: str) -> None:
    build = LONG_HOST_SHAPES[shape]
    risks._host_risks.cache_clear()
    # A distinct host each call: the per-host cache must not hide the work.
    counter = iter(range(1 << 30))
    check_linear(lambda text: link_risks(f"{next(counter)}{text}"), build)


def test_no_module_level_work_in_detect_without_reject_risky() -> None:
    """The security tables load only when a caller asks for the §8 checks."""
    code = (
        "import sys, uts58_adapt; uts58_adapt.detect('see example.com'); "
        "print('uts58_adapt._security_tables' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert out.stdout.strip() == "False"
