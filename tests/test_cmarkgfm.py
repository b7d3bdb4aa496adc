"""Issue 35 item 4: the cmark-gfm drop-ins (``uts58_adapt.integrations.cmarkgfm``).

Expected outputs are written by hand from UTS #58 (§3.5.1 termination, §5.2 email) and
from cmark-gfm's escaping rules (``houdini_escape_href``: every byte of a non-ASCII
character as ``%XX``; text: ``& < > "``).  Explicit links, code and raw HTML are compared
with cmarkgfm's own output on the same text (the library, not the code under test).
"""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

cmarkgfm = pytest.importorskip("cmarkgfm")

from cmarkgfm.cmark import Options  # noqa: E402
from test_hostile_markdown import AROUND, check  # noqa: E402

from uts58_adapt.integrations import cmarkgfm as upgrade  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
raw = cmarkgfm.github_flavored_markdown_to_html
gfm = upgrade.github_flavored_markdown_to_html

# 例 E4 BE 8B, え E3 81 88, テ E3 83 86, ス E3 82 B9, ト E3 83 88, 」 E3 80 8D, で E3 81 A7, す E3 81 99
REIE = "%E4%BE%8B%E3%81%88"
TESUTO = "%E3%83%86%E3%82%B9%E3%83%88"


def test_signatures_and_defaults_are_cmarkgfms() -> None:
    for name in ("github_flavored_markdown_to_html", "markdown_to_html_with_extensions"):
        ours = inspect.signature(getattr(upgrade, name)).parameters
        theirs = inspect.signature(getattr(cmarkgfm, name)).parameters
        positional = [p for p in ours.values() if p.kind is not p.KEYWORD_ONLY]
        assert [(p.name, p.default) for p in positional] == [(p.name, p.default) for p in theirs.values()]


# --- the issue's inputs ----------------------------------------------------------------------

ISSUE = {
    # 」 is Link_Term=Close without its opening bracket: the link ends before it (§3.5.1).
    "Visit https://例え.jp/テスト」です": f'<p>Visit <a href="https://{REIE}.jp/{TESUTO}">https://例え.jp/テスト</a>」です</p>\n',
    # 。 is Soft: inside the path it is kept, the link runs to the end of the text.
    "詳細は https://example.com/パス。次へ": (
        '<p>詳細は <a href="https://example.com/%E3%83%91%E3%82%B9%E3%80%82%E6%AC%A1%E3%81%B8">'
        "https://example.com/パス。次へ</a></p>\n"
    ),
    # the ( ) pair is kept, the final Soft "." is not
    "See https://en.wikipedia.org/wiki/Antenna_(radio).": (
        '<p>See <a href="https://en.wikipedia.org/wiki/Antenna_(radio)">'
        "https://en.wikipedia.org/wiki/Antenna_(radio)</a>.</p>\n"
    ),
    # cmark-gfm links no email with a non-ASCII domain; it links the probe a@xn--r8jz45g.jp (§5.2,
    # §10.1): the email is linked, its href escaped as cmark-gfm escapes one (UTF-8, %XX)
    "Mail bug@例え.jp": f'<p>Mail <a href="mailto:bug@{REIE}.jp">bug@例え.jp</a></p>\n',
    "mail a@例え.jp": f'<p>mail <a href="mailto:a@{REIE}.jp">a@例え.jp</a></p>\n',
}


@pytest.mark.parametrize("text", list(ISSUE))
def test_issue_inputs(text: str) -> None:
    assert gfm(text) == ISSUE[text]


def test_the_first_input_is_cmarkgfms_bug() -> None:
    """The test above can fail: cmarkgfm alone links the 」 and what follows (cmark-gfm#377)."""
    assert f"{TESUTO}%E3%80%8D%E3%81%A7%E3%81%99" in raw("Visit https://例え.jp/テスト」です")


HAND = {
    "www.例え.jp/テスト」です x": f'<p><a href="http://www.{REIE}.jp/{TESUTO}">www.例え.jp/テスト</a>」です x</p>\n',
    # a "?" starts the query: it is part of the link (cmark-gfm drops it)
    "see http://a.com/x? ok": '<p>see <a href="http://a.com/x?">http://a.com/x?</a> ok</p>\n',
    # "_" is Include: kept at the end (cmark-gfm drops it)
    "see http://a.com/x_ ok": '<p>see <a href="http://a.com/x_">http://a.com/x_</a> ok</p>\n',
    # an invalid host (an empty label) is no link
    "see http://foo..com/x ok": "<p>see http://foo..com/x ok</p>\n",
    "http://a.com/x」 and http://b.com/y」": (
        '<p><a href="http://a.com/x">http://a.com/x</a>」 and <a href="http://b.com/y">http://b.com/y</a>」</p>\n'
    ),
    # cmark-gfm's link took "_x_" (no emphasis): it stays in the link, as cmark-gfm shows it
    "http://a.com/_x_」 y": '<p><a href="http://a.com/_x_">http://a.com/_x_</a>」 y</p>\n',
    "*http://a.com/x」*": '<p><em><a href="http://a.com/x">http://a.com/x</a>」</em></p>\n',
    # escaped as cmark-gfm escapes: "&" in the href as &amp;, text with & < > " as references
    # ('"' is Soft: a final one is dropped too)
    'http://a.com/?a=1&b="2"x」': '<p><a href="http://a.com/?a=1&amp;b=%222%22x">http://a.com/?a=1&amp;b=&quot;2&quot;x</a>」</p>\n',
    'http://a.com/?a="2"」': '<p><a href="http://a.com/?a=%222">http://a.com/?a=&quot;2</a>&quot;」</p>\n',
    "http://a.com/x」<http://b.com/y」>": (
        '<p><a href="http://a.com/x">http://a.com/x</a>」<a href="http://b.com/y%E3%80%8D">http://b.com/y」</a></p>\n'
    ),
    "[http://a.com/x」](http://a.com/x」) http://a.com/x」": (
        '<p><a href="http://a.com/x%E3%80%8D">http://a.com/x」</a> <a href="http://a.com/x">http://a.com/x</a>」</p>\n'
    ),
    "a.b@example.com」 and mailto:a@example.com": (
        '<p><a href="mailto:a.b@example.com">a.b@example.com</a>」 and '
        '<a href="mailto:a@example.com">mailto:a@example.com</a></p>\n'
    ),
    # §5.2: the local part is scanned back over Link_Email characters (σ, !, &), not only [A-Za-z0-9.+_-]
    "aσb@example.gr x": '<p><a href="mailto:a%CF%83b@example.gr">aσb@example.gr</a> x</p>\n',
    "x ü.b@example.com": '<p>x <a href="mailto:%C3%BC.b@example.com">ü.b@example.com</a></p>\n',
    "hey!a@x.com": '<p><a href="mailto:hey!a@x.com">hey!a@x.com</a></p>\n',
    "a&amp;b@x.com": '<p><a href="mailto:a&amp;b@x.com">a&amp;b@x.com</a></p>\n',
    # ... never across markup, and a failed local part is no link
    "*ü*b@x.com": '<p><em>ü</em><a href="mailto:b@x.com">b@x.com</a></p>\n',
    "x a..b@example.com": "<p>x a..b@example.com</p>\n",
    # right after another email: back to where that one ends
    "a@example.com」σb@example.gr": (
        '<p><a href="mailto:a@example.com">a@example.com</a>」<a href="mailto:%CF%83b@example.gr">σb@example.gr</a></p>\n'
    ),
    "Mail jürgen.müller@example.de, MAILTO:x@example.com": (
        '<p>Mail <a href="mailto:j%C3%BCrgen.m%C3%BCller@example.de">jürgen.müller@example.de</a>, '
        '<a href="MAILTO:x@example.com">MAILTO:x@example.com</a></p>\n'
    ),
    "http://a.com/x」 aσb@example.gr": (
        '<p><a href="http://a.com/x">http://a.com/x</a>」 <a href="mailto:a%CF%83b@example.gr">aσb@example.gr</a></p>\n'
    ),
    # a Bidi_Control character in the link text is shown percent-escaped (§8)
    "see http://a.com/\u202egpj.exe ok": '<p>see <a href="http://a.com/%E2%80%AEgpj.exe">http://a.com/%E2%80%AEgpj.exe</a> ok</p>\n',
}


@pytest.mark.parametrize("text", list(HAND))
def test_by_hand(text: str) -> None:
    assert gfm(text) == HAND[text]


EXPLICIT = [
    "<https://x.com/a」b>",
    "[https://x.com/a」b](https://x.com/a」b)",
    '<a href="https://x.com/a」b">x</a>',
    "`https://x.com/a」b`",
    "    https://x.com/a」b\n",
    "```\nhttps://x.com/a」b\n```\n",
    "<div>\nhttps://x.com/a」b\n</div>\n",
    "[https://x.com/a」b]\n\n[https://x.com/a」b]: https://x.com/a」b\n",
    "![https://x.com/a」b](https://x.com/a」b)",
]


@pytest.mark.parametrize("text", EXPLICIT)
def test_explicit_links_code_and_raw_html_are_never_changed(text: str) -> None:
    for options in (0, Options.CMARK_OPT_UNSAFE):
        assert gfm(text, options) == raw(text, options)


@pytest.mark.parametrize(
    "text", ["<https://x.com/a」b>", "[https://x.com/a」b](https://x.com/a」b)", "`https://x.com/a」b`"]
)
def test_an_explicit_link_then_an_autolink_on_the_same_line(text: str) -> None:
    library = raw(text + " https://x.com/a」b")
    expected = library.replace(
        ' <a href="https://x.com/a%E3%80%8Db">https://x.com/a」b</a></p>',
        ' <a href="https://x.com/a">https://x.com/a</a>」b</p>',
    )
    assert expected != library
    assert gfm(text + " https://x.com/a」b") == expected


def test_an_autolink_inside_raw_html_is_cmark_gfms_and_refined_the_raw_html_kept() -> None:
    """cmark-gfm's extension links the text between raw HTML tags (even inside a raw ``<a>``):
    its anchor is refined, the raw tags stay as they are."""
    text = '<a href="https://x.com/a」b">https://x.com/a」b</a>'
    unsafe = Options.CMARK_OPT_UNSAFE
    assert raw(text, unsafe).count("<a ") == 2
    assert gfm(text, unsafe) == (
        '<p><a href="https://x.com/a」b"><a href="https://x.com/a">https://x.com/a</a>」b</a></p>\n'
    )


def test_other_extension_lists() -> None:
    text = "see https://x.com/a」b ~~x~~"
    # without the autolink extension nothing is linked, as in cmarkgfm
    assert upgrade.markdown_to_html_with_extensions(text) == cmarkgfm.markdown_to_html_with_extensions(text)
    assert upgrade.markdown_to_html_with_extensions(text, extensions=["strikethrough"]) == (
        "<p>see https://x.com/a」b <del>x</del></p>\n"
    )
    assert upgrade.markdown_to_html_with_extensions(text, extensions=["autolink"]) == (
        '<p>see <a href="https://x.com/a">https://x.com/a</a>」b ~~x~~</p>\n'
    )


def test_strict_hosts_and_reject_risky() -> None:
    assert gfm("see http://localhost/x ok") == '<p>see <a href="http://localhost/x">http://localhost/x</a> ok</p>\n'
    assert gfm("see http://localhost/x ok", strict_hosts=True) == "<p>see http://localhost/x ok</p>\n"
    mixed = "see http://pаypal.com/x ok"  # Cyrillic а: a mixed-script host (§8)
    assert "<a " in gfm(mixed)
    assert gfm(mixed, reject_risky=True) == f"<p>{mixed}</p>\n"


@settings(max_examples=300, deadline=None, database=None, derandomize=True)
@given(
    st.text(st.characters(blacklist_characters="<>\\&\n\r\t \x00", blacklist_categories=("Cs", "Zs", "Cc")), min_size=1)
)
def test_escape_href_is_cmark_gfms(url: str) -> None:
    """The href cmark-gfm writes for a link destination given in ``<…>`` (no escapes, no references in it)."""
    out = raw(f"[x](<{url}>)")
    if out.startswith('<p><a href="'):
        assert out == f'<p><a href="{upgrade.escape_href(url)}">x</a></p>\n', repr(url)


# --- byte for byte where no link is affected ---------------------------------------------------

MARKDOWN = """# Title with https://example.com/page

Some *emphasis*, **strong**, ~~struck~~ and `code https://example.com/」`.

- item www.example.com/path
- [ ] task with a@example.com
- [x] https://example.org/a_(b)_c

| a | b |
|---|---|
| https://example.net/x | www.example.net |

> quote http://example.com/?q=1&r=2#frag
> <https://example.com/」>

```python
print("https://example.com/」")
```

<div>raw https://example.com/」 html</div>

[link](https://example.com/x」) and ![img](https://example.com/i.png) and
foo@bar.example.com, mailto:x@y.org. See http://example.com/a.b?c=d&e=f.
"""


#: The lines of the sample corpus whose links cmark-gfm and UTS #58 end differently, and the rule.
AFFECTED = {
    "Invalid hosts:": "§3.3/IDNA: a label that is empty or starts or ends with '-' is no host",
    "Userinfo:": "§5.2 note: a URL with userinfo is not linked",
    "Bad emails:": "§5.2: a local part that starts or ends with '.' or holds '..' gives no link",
    "Ports:": "§3.3: a port above 65535 is no port (the host is invalid)",
    "Emails:": "§5.2: the local part is scanned back over Link_Email (cmark-gfm links 'ller@example.de' in 'jürgen.müller@…')",
    "Mailto:": "§5.2: the same, and 'mailto:' in any case is part of the link",
    # §5.2, §10.1: a non-ASCII email cmark-gfm leaves as text, linked where it links the probe
    "Δείτε": "σωκράτης@example.gr",
    "ראו": "דוד@example.co.il",
    "انظر": "mailto:سارة@example.com",
    "详情见（": "用户@例子.中国",
    "Umlaut domain:": "anna@bücher.de, jörg@bücher.de",
}
SAMPLE = (REPO / "uts58_adapt" / "corpora" / "sample.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("text", [*SAMPLE.splitlines(), *MARKDOWN.split("\n\n"), MARKDOWN])
def test_byte_identical_without_affected_links(text: str) -> None:
    """Text without an affected link renders byte for byte as cmarkgfm renders it; the lines
    listed in AFFECTED (by hand, each with its rule) differ."""
    if text.startswith(tuple(AFFECTED)):
        assert gfm(text) != raw(text)
    else:
        assert gfm(text) == raw(text)


# --- differential: never markup cmarkgfm does not make -----------------------------------------

LINKS = [
    "http://x.com/",
    "https://a.co/p」",
    "http://x.com/a.",
    "www.x.com/a」b",
    "x@example.com」",
    "https://例え.jp/テスト」です",
    "http://x.com/a?",
    "http://foo..com/",
    "http://x.com/a_",
    "<http://x.com/a」>",
    "[http://x.com/a」](http://x.com/a」)",
    "mailto:a@x.com",
    "http://x.com/a&b」",
    "José@example.com",
    "bug@例え.jp」",
    "σ@例え。jp",
    "`José@例え.jp`",
    "<span>é@a.co</span>",
]


@st.composite
def markdown_text(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.one_of(st.sampled_from(LINKS), st.sampled_from(AROUND)), min_size=1, max_size=8))
    return "".join(parts)


@pytest.mark.parametrize("options", [0, Options.CMARK_OPT_UNSAFE])
def test_differential_against_cmarkgfm(options: int) -> None:
    pytest.importorskip("html5lib")

    @settings(max_examples=400, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(markdown_text())
    def run(text: str) -> None:
        check(text, gfm(text, options), raw(text, options))

    run()


# --- readme_renderer -----------------------------------------------------------------------------


def test_readme_renderer_recipe() -> None:
    markdown = pytest.importorskip("readme_renderer.markdown")
    from unittest import mock

    text = "Visit https://例え.jp/テスト」です"
    with mock.patch.dict(markdown.variants, GFM=upgrade.readme_gfm):
        out = markdown.render(text)
    assert out is not None
    assert f'href="https://{REIE}.jp/{TESUTO}"' in out and "テスト</a>」です" in out
    assert markdown.variants.get("GFM") is not upgrade.readme_gfm  # the patch is gone


def test_readme_gfm_is_readme_renderers_cmarkgfm_call() -> None:
    """readme_renderer up to 44 renders GFM with ``github_flavored_markdown_to_html(raw, options=CMARK_OPT_UNSAFE)``."""
    text = "<b>raw</b> https://example.com/x"
    assert upgrade.readme_gfm(text) == raw(text, options=Options.CMARK_OPT_UNSAFE)


# --- linear time -------------------------------------------------------------------------------

UNITS = [
    "http://a.com/x」 ",
    "www.a.com/」",
    "a@b.com」 ",
    "http://a.com/_x_」 ",
    "`http://a.com」` ",
    "<http://a.com/」> http://b.com/」 ",
    "[http://a.com/」](http://a.com/」) http://a.com/」 ",
    "http://a.com/」",
    "http://a.com/(",
    "*http://a.com/x」* ",
    "http://a.com/&amp;」",
    "aσb@example.gr ",
    "σa@b.co",
    "σ!a.b@b.co」",
    "José@example.com ",
    "bug@例え.jp」",
    "é@",
    "é@a.co",
    "<b>é@a.co</b> ",
]


def _cpu(fn: Callable[[str], object], text: str) -> float:
    best = float("inf")
    for _ in range(2):
        t0 = time.process_time()
        fn(text)
        best = min(best, time.process_time() - t0)
    return max(best, 0.002)


@pytest.mark.slow
@pytest.mark.parametrize("unit", UNITS)
def test_linear_time(unit: str) -> None:
    """Twice the text takes at most about twice the time (3.2x allows noise, quadratic is 4x)."""
    small, large = unit * 2000, unit * 4000
    assert _cpu(gfm, large) <= 3.2 * _cpu(gfm, small) + 0.01


def test_import_does_not_import_cmarkgfm() -> None:
    code = "import sys, uts58_adapt, uts58_adapt.integrations\nprint('cmarkgfm' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "False\n"


# --- cmark-gfm's own autolink examples (tests/data/cmark-gfm-autolinks.txt) -------------------

_FENCE = "`" * 32
SPEC = (REPO / "tests" / "data" / "cmark-gfm-autolinks.txt").read_text(encoding="utf-8")
EXAMPLES = [
    (markdown.replace("→", "\t"), html)
    for markdown, html in re.findall(
        rf"^{_FENCE} example[^\n]*\n(.*?)^\.\n(.*?)^{_FENCE}$", SPEC, re.MULTILINE | re.DOTALL
    )
]
#: The examples (numbered from 1 in the file) whose expected output the upgrade does not give, and the rule.
SPEC_DIFFERENCES = {
    5: "§3.5.1: a ')' without its '(' ends the link ('(business))+ok' links up to '(business)')",
    6: "§3.5.1: '&hl' is query text, only the final Soft ';' is left out (cmark-gfm drops '&hl;' as a reference)",
}


def test_the_spec_examples_are_read() -> None:
    assert len(EXAMPLES) == 14  # 11 of spec.txt's "Autolinks (extension)", 3 of extensions.txt's "Autolinks"


@pytest.mark.parametrize("number", range(1, len(EXAMPLES) + 1))
def test_cmark_gfm_autolink_spec(number: int) -> None:
    """Each example as cmarkgfm renders it (all pass), and as the upgrade renders it: the same,
    except the examples of SPEC_DIFFERENCES, which differ."""
    markdown, expected = EXAMPLES[number - 1]
    if expected.strip() == "<IGNORE>":  # "this shouldn't crash"
        gfm(markdown)
        return
    assert raw(markdown) == expected
    if number in SPEC_DIFFERENCES:
        assert gfm(markdown) != expected
        check(markdown, gfm(markdown), raw(markdown))
    else:
        assert gfm(markdown) == expected


def test_reject_risky_with_a_local_part_before_the_anchor() -> None:
    """The §8 checks also run where the local part starts before cmark-gfm's anchor (no risk here:
    one script, Greek, in the local part, as ``detect(reject_risky=True)`` keeps it)."""
    expected = '<p><a href="mailto:%CF%83%CF%83b@example.gr">σσb@example.gr</a> x</p>\n'
    assert gfm("σσb@example.gr x", reject_risky=True) == expected
    assert gfm("see http://pаypal.com/x σσb@example.gr x", reject_risky=True) == (
        '<p>see http://pаypal.com/x <a href="mailto:%CF%83%CF%83b@example.gr">σσb@example.gr</a> x</p>\n'
    )


def test_errors_are_cmarkgfms() -> None:
    with pytest.raises(ValueError, match=r"^Unknown extension nope$"):
        upgrade.markdown_to_html_with_extensions("x", extensions=["autolink", "nope"])
    with pytest.raises(ValueError, match=r"^Unknown extension nope$"):
        cmarkgfm.markdown_to_html_with_extensions("x", extensions=["autolink", "nope"])


def test_extensions_given_as_an_iterator() -> None:
    names = ("table", "autolink", "strikethrough")
    assert upgrade.markdown_to_html_with_extensions("see https://x.com/a」b", extensions=iter(names)) == (
        '<p>see <a href="https://x.com/a">https://x.com/a</a>」b</p>\n'
    )


# --- the fast path gives what the plain path gives (issue 35: speed) ----------------------------

#: Pieces at the edges of the fast path's shape (``_UNCHANGED``): hosts and local parts it takes
#: and those just outside it, the characters around an anchor that decide, and markup.
FAST_PIECES = [
    "http://example.com", "https://a.b.example.org/x/y-z_1", "ftp://x.io/", "www.example.com/a?b=c#d",
    "HTTP://EXAMPLE.COM/X", "http://a-b.c-d.com/", "http://a--b.com/", "http://xn--p1ai.com/",
    "http://a.xn--p1ai/", "http://a.1/", "http://1.2.3.4/", "http://a.b0/", "http://a.0b/", "http://-a.com/",
    "http://a-.com/", "http://a_b.com/", "http://a.com:80/", "http://a.com:99999/", "http://u@a.com/",
    f"http://{'a' * 63}.com/", f"http://{'a' * 64}.com/", f"http://{'b' * 60}.{'c' * 60}.{'d' * 60}.{'e' * 60}.com",
    f"http://{'b' * 60}.{'c' * 60}.{'d' * 60}.{'e' * 66}.com", "http://a.com/%E4%BE%8B", "http://a.com/a&amp;b",
    "http://a.com/a'b", "http://a.com/(x)", "http://a.com/x)", "http://a.com/a:~:text=b", "http://a.com/~u/$x*",
    "http://a.com/x+y=z;w", "http://a.com/x!", "http://a.com/x?", "http://a.com/x_", "http://a.com/x.", "http://a.com/",
    "a@example.com", "a.b+c_d-e@x.example.org", "-a@b.com", ".a@b.com", "a.@b.com", "a..b@c.com",
    f"{'l' * 64}@b.com", f"{'l' * 65}@b.com", "a@b.c", "a@b.1", "a@1.2.3.4", "a@b_c.com", "a@b--c.com", "mailto:a@b.com",
    "MAILTO:a@b.com", "xmpp:a@b.com", "例え.jp", "https://例え.jp/テスト", "ü", "σ", "」", "。", "です",
    "<https://a.com/x>", "[x](https://a.com/y)", "[https://a.com/z](https://a.com/z)", "[r]", "[r]: https://a.com/r\n\n",
    "`https://a.com/c`", "&lt;", "&amp;", "\\", "*", "_", "~", "(", ")", "'", '"', ",", ".", ":", "!", "?", "/", "-",
    " ", "\n", "\n\n", "\u3000", "\u00a0", "x", "<b>", "</b>",
]  # fmt: skip


def _plain(text: str, **options: object) -> str:
    """The drop-in without its fast path (every candidate refined, the second render whenever one changes)."""
    fast = upgrade._FAST
    upgrade._FAST = False
    try:
        return gfm(text, **options)  # type: ignore[arg-type]
    finally:
        upgrade._FAST = fast


@settings(max_examples=1500, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(FAST_PIECES), min_size=1, max_size=10).map("".join))
def test_the_fast_path_is_the_plain_path(text: str) -> None:
    assert gfm(text) == _plain(text), repr(text)


def test_the_fast_path_is_the_plain_path_on_the_corpora() -> None:
    from conftest import dense_paragraphs, sample_lines

    texts = [*sample_lines(), *dense_paragraphs(), *MARKDOWN.split("\n\n"), MARKDOWN]
    differ = [text for text in texts if gfm(text) != _plain(text)]
    assert not differ, differ[:3]


def test_the_fast_path_takes_what_changes_nothing() -> None:
    """The fast path's shape (the test above can fail only if it is taken): those anchors whose
    refinement changes nothing, by hand; the others go through the refinement."""
    shape = upgrade._UNCHANGED
    taken = ["see http://a.example.com/x-y_z?q=1#f\n", "mail a.b+c@example.org x", "at www.example.com/ y"]
    for text in taken:
        out = raw(text)
        assert out.count('<a href="') == len(shape.findall(out)) == 1, out
    refined = [
        "see http://例え.jp/x y",
        "see http://a.com/x」y",
        "see http://a.com/(x) y",
        "mail σa@example.org",
        "see http://a.com:80/ y",
        "see http://a_b.x.com/ y",
        "see http://xn--p1ai.com/ y",
        "see http://a.com/&amp;b y",
    ]
    for text in refined:
        out = raw(text)
        assert out.count('<a href="') == 1 and not shape.findall(out), out


def test_the_second_render_is_left_out_only_without_authors_anchors() -> None:
    """(The fast path = plain path tests above can fail only where it is left out.)"""
    changed = "see https://例え.jp/テスト」です"
    assert upgrade._all_extensions(changed, raw(changed), 0)
    for text in (changed + " <b>", changed + " [x](y)", changed + " [x][]", "[x]: y\n\n" + changed):
        assert not upgrade._all_extensions(text, raw(text), 0), text
    for text in ("see https://例え.jp/テ_スト」", "see https://例え.jp/テ&amp;スト」"):
        assert not upgrade._all_extensions(text, raw(text), 0), text
    assert not upgrade._all_extensions(changed, raw(changed), Options.CMARK_OPT_SMART)


# --- emails cmark-gfm does not link: asked with the probe (§5.2, §10.1) -----------------------

#: Written by hand: cmark-gfm links no email whose local part ends with a non-ASCII character
#: nor one with a non-ASCII domain; it links the probe (the local part's non-ASCII characters
#: written "a", the domain in its xn-- form), so the email is linked, escaped as cmark-gfm
#: escapes (href: UTF-8 bytes %XX, "&" as &amp;; text: & < > ").
NON_ASCII_EMAILS = {
    "mail José@example.com": '<p>mail <a href="mailto:Jos%C3%A9@example.com">José@example.com</a></p>\n',
    "σωκράτης@example.gr": (
        '<p><a href="mailto:%CF%83%CF%89%CE%BA%CF%81%CE%AC%CF%84%CE%B7%CF%82@example.gr">σωκράτης@example.gr</a></p>\n'
    ),
    "José@例え.jp」です": f'<p><a href="mailto:Jos%C3%A9@{REIE}.jp">José@例え.jp</a>」です</p>\n',
    "x Jos&amp;é@example.com y": ('<p>x <a href="mailto:Jos&amp;%C3%A9@example.com">Jos&amp;é@example.com</a> y</p>\n'),
    "*em* José@example.com, & \\<b> bug@例え.jp": (
        '<p><em>em</em> <a href="mailto:Jos%C3%A9@example.com">José@example.com</a>, &amp; &lt;b&gt; '
        f'<a href="mailto:bug@{REIE}.jp">bug@例え.jp</a></p>\n'
    ),
    # cmark-gfm links "a@e.co" in the probe "/a@e.co": an email stands at this "@"; §5.2 starts
    # its local part at "/", as the upgrade does for the ASCII "/a@e.co" (decisions.md).
    "see /ς@e.co ok": '<p>see <a href="mailto:/%CF%82@e.co">/ς@e.co</a> ok</p>\n',
    "# José@example.com": '<h1><a href="mailto:Jos%C3%A9@example.com">José@example.com</a></h1>\n',
    "| a |\n|---|\n| bug@例え.jp |": (
        f'<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td><a href="mailto:bug@{REIE}.jp">'
        "bug@例え.jp</a></td>\n</tr>\n</tbody>\n</table>\n"
    ),
}


@pytest.mark.parametrize("text", list(NON_ASCII_EMAILS))
def test_non_ascii_emails_are_linked_where_cmark_gfm_links_the_probe(text: str) -> None:
    assert "mailto:" not in raw(text)  # cmark-gfm alone links none of them
    assert gfm(text) == NON_ASCII_EMAILS[text]


#: cmark-gfm decides: it links none of these probes (a last character that is no letter, no
#: "." in the domain, two "@"), so the email stays text, as its ASCII form does.
NOT_LINKED_PROBES = ["x José@x.co1", "x José@localhost", "José@例え.jp1"]


def test_a_non_ascii_local_part_is_read_as_its_ascii_form_is() -> None:
    """The probe decides as cmark-gfm's own anchor does for an ASCII email: the same span."""
    assert gfm("see /a@e.co ok") == '<p>see <a href="mailto:/a@e.co">/a@e.co</a> ok</p>\n'
    assert gfm("see /ς@e.co ok").replace("%CF%82", "a").replace("ς", "a") == gfm("see /a@e.co ok")


@pytest.mark.parametrize("text", NOT_LINKED_PROBES)
def test_what_cmark_gfm_does_not_link_in_the_probe_stays_text(text: str) -> None:
    ascii_form = re.sub(r"[^\x00-\x7f]", "a", text)
    assert "mailto:" not in raw(ascii_form)
    assert gfm(text) == raw(text)


#: Code spans, code blocks, raw HTML and links already there: never an email added.
NEVER_LINKED = [
    "`José@example.com`",
    "```\nJosé@example.com\n```",
    "    bug@例え.jp",
    "[José@example.com](http://x.com)",
    "[x](mailto:José@example.com) and ![José@example.com](i.png)",
    "<mailto:José@example.com>",
    '<span title="José@example.com">x</span>',
    "<div>\nJosé@example.com\n</div>",
    "<div>José@example.com</div>\n\nJosé@example.com",
    "<a href='x'>José@example.com</a>",
    "x <!-- José@example.com --> y",
    # a raw </a> inside a link's text: the email is still inside cmark-gfm's anchor
    "[a </a> José@example.com b](http://x.com)",
    "<pre>\nJosé@example.com\n</pre>",
    "<code>José@example.com</code> and <a href='x'>José@例え.jp</a>",
]


@pytest.mark.parametrize("options", [0, Options.CMARK_OPT_UNSAFE])
@pytest.mark.parametrize("text", NEVER_LINKED)
def test_no_email_added_in_code_raw_html_or_links(text: str, options: int) -> None:
    out = gfm(text, options)
    linked = '<a href="mailto:Jos%C3%A9@example.com">José@example.com</a>'
    # without CMARK_OPT_UNSAFE raw HTML is omitted: the text of the paragraph around it is
    # cmark-gfm's, where it links an ASCII email (as it links a@example.com there)
    if text == "<div>José@example.com</div>\n\nJosé@example.com" and not options:
        assert out == f"<!-- raw HTML omitted -->\n<p>{linked}</p>\n"
    elif text == "<a href='x'>José@example.com</a>" and not options:
        assert out == f"<p><!-- raw HTML omitted -->{linked}<!-- raw HTML omitted --></p>\n"
    elif text.startswith("<code>") and not options:
        omitted = "<!-- raw HTML omitted -->"
        jp = f'<a href="mailto:Jos%C3%A9@{REIE}.jp">José@例え.jp</a>'
        assert out == f"<p>{omitted}{linked}{omitted} and {omitted}{jp}{omitted}</p>\n"
    else:
        assert out == raw(text, options)


def test_no_email_added_with_other_extension_lists() -> None:
    text = "mail José@example.com"
    assert upgrade.markdown_to_html_with_extensions(text, extensions=["table"]) == "<p>mail José@example.com</p>\n"
    assert upgrade.markdown_to_html_with_extensions(text) == "<p>mail José@example.com</p>\n"
    assert upgrade.markdown_to_html_with_extensions(text, extensions=["autolink"]) == NON_ASCII_EMAILS[text]


def test_non_ascii_emails_with_strict_hosts_and_reject_risky() -> None:
    # a domain mixing Latin and Cyrillic (exаmple) is a §8 risk: text with reject_risky
    text = "mail José@exаmple.com"
    assert "mailto:" in gfm(text)
    assert gfm(text, reject_risky=True) == raw(text)
    assert gfm("mail José@example.com", reject_risky=True) == NON_ASCII_EMAILS["mail José@example.com"]
    # §1.4: a domain that is no registrable domain under strict_hosts
    assert gfm("mail José@example.invalidtld", strict_hosts=True) == raw("mail José@example.invalidtld")


def test_no_error_where_cmarkgfm_alone_renders() -> None:
    """cmark-gfm writes ``&#xfffe;`` as bytes Python cannot decode: it raises on that reference,
    but not where its autolink takes it as link text.  The upgrade renders the text again without
    autolink (to tell the extension's anchors from the author's) and raised there; it now gives
    cmark-gfm's own output (issue 32 campaign, seed 1: "raises")."""
    with pytest.raises(UnicodeDecodeError):
        cmarkgfm.github_flavored_markdown_to_html("x &#xfffe; y")  # the library's own failure
    for text in ("ftp://ｘ&#xfffe;", "see https://example.com/ｘ&#xffff; ok"):
        alone = cmarkgfm.github_flavored_markdown_to_html(text)
        assert upgrade.github_flavored_markdown_to_html(text) == alone


def test_no_email_added_inside_the_authors_anchor() -> None:
    """With raw HTML, step 4 (non-ASCII emails cmark-gfm leaves as text) added an email inside the
    author's anchor, which ``</a>`` in ``<marquee>`` does not close: a nested anchor that cmark-gfm
    alone never makes (issue 32 campaign, seed 1, cmarkgfm unsafe)."""
    unsafe = Options.CMARK_OPT_UNSAFE
    for text in ('<a f=""><marquee></a>&#963;@e.o', '<a href="/x"><marquee></a>σ@example.com'):
        alone = cmarkgfm.github_flavored_markdown_to_html(text, unsafe)
        assert "mailto:" not in alone
        assert upgrade.github_flavored_markdown_to_html(text, unsafe) == alone, text
    # an email outside raw HTML anchors is still step 4's
    assert "mailto:" in upgrade.github_flavored_markdown_to_html("<b>x</b> see σ@example.com ok", unsafe)
    assert "mailto:" in upgrade.github_flavored_markdown_to_html("see σ@example.com ok")


#: Where the render without autolink makes markup of the link's text (``_…_`` emphasis, ``~~…~~``
#: strikethrough), the anchors cannot be aligned and cmark-gfm's anchor is kept: a Bidi_Control
#: character in its text is still shown percent-escaped (§8, docs/hostile-input.md; fuzz, issue 32).
BIDI_KEPT = {
    ("_www.\u202b_@", 0): '<p>_<a href="http://www.%E2%80%AB_@">www.%E2%80%AB_@</a></p>\n',
    ("~~HTTP://\u2069~~&", Options.CMARK_OPT_UNSAFE): (
        '<p>~~<a href="HTTP://%E2%81%A9~~&amp;">HTTP://%E2%81%A9~~&amp;</a></p>\n'
    ),
}


@pytest.mark.parametrize(("text", "options"), list(BIDI_KEPT))
def test_a_kept_anchor_shows_no_live_bidi_control(text: str, options: int) -> None:
    library = raw(text, options)
    # the test can fail: cmark-gfm's own anchor holds the character live
    assert any(c in library for c in "\u202b\u2069")
    assert gfm(text, options) == BIDI_KEPT[(text, options)]


def test_an_authors_link_keeps_its_bidi_control() -> None:
    """An anchor found in both renders is the author's: never changed, even after a kept one."""
    text = "_www.\u202b_@ [x\u202by](http://x.com)"
    out = gfm(text)
    assert '<a href="http://x.com">x\u202by</a>' in out
    assert "www.%E2%80%AB_@</a>" in out
