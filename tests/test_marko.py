"""``uts58_adapt.integrations.marko``: marko's GFM extended autolinks with UTS #58 links (issue 35, item 3).

Expected outputs are written by hand from the spec and from marko's own rendering rules
(``escape_url`` percent-encodes a non-ASCII href as UTF-8, ``http://`` before ``www.``):
例 is E4 BE 8B, え E3 81 88, テ E3 83 86, ス E3 82 B9, ト E3 83 88, 」 E3 80 8D.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import REPO, dense_paragraphs, sample_lines

marko = pytest.importorskip("marko")

from marko.ext.gfm import elements  # noqa: E402

from uts58_adapt import detect  # noqa: E402
from uts58_adapt.integrations.marko import make_extension  # noqa: E402

EXAMPLE_JP = "%E4%BE%8B%E3%81%88.jp"
TESUTO = "%E3%83%86%E3%82%B9%E3%83%88"


def upgraded(text: str) -> str:
    return str(marko.Markdown(extensions=["gfm", "uts58_adapt.integrations.marko"]).convert(text))


def alone(text: str) -> str:
    return str(marko.Markdown(extensions=["gfm"]).convert(text))


# --- the issue's inputs ------------------------------------------------------------------------


def test_link_stops_before_the_closing_bracket() -> None:
    """§3.5.1: 」 is a Close bracket with no open one in the path: the link ends before it."""
    text = "Visit https://例え.jp/テスト」です"
    assert alone(text) == (  # marko alone takes the whole run (cmark-gfm#377)
        f'<p>Visit <a href="https://{EXAMPLE_JP}/{TESUTO}%E3%80%8D%E3%81%A7%E3%81%99">https://例え.jp/テスト」です</a></p>\n'
    )
    assert upgraded(text) == f'<p>Visit <a href="https://{EXAMPLE_JP}/{TESUTO}">https://例え.jp/テスト</a>」です</p>\n'


def test_www_link_stops_there_too() -> None:
    assert upgraded("www.例え.jp/テスト」です") == (
        f'<p><a href="http://www.{EXAMPLE_JP}/{TESUTO}">www.例え.jp/テスト</a>」です</p>\n'
    )


def test_non_ascii_email_gets_mailto() -> None:
    """marko alone writes ``href="a@…"`` (its ``mailto:`` test is ASCII-only): a relative link."""
    assert alone("mail a@例え.jp") == f'<p>mail <a href="a@{EXAMPLE_JP}">a@例え.jp</a></p>\n'
    assert upgraded("mail a@例え.jp") == f'<p>mail <a href="mailto:a@{EXAMPLE_JP}">a@例え.jp</a></p>\n'
    assert upgraded("Mail bug@例え.jp") == f'<p>Mail <a href="mailto:bug@{EXAMPLE_JP}">bug@例え.jp</a></p>\n'


def test_the_other_inputs_of_the_issue() -> None:
    # 。 is Soft (Terminal_Punctuation) followed by Include text: it stays inside the path (§3.5.1).
    assert upgraded("詳細は https://example.com/パス。次へ") == (
        '<p>詳細は <a href="https://example.com/%E3%83%91%E3%82%B9%E3%80%82%E6%AC%A1%E3%81%B8">'
        "https://example.com/パス。次へ</a></p>\n"
    )
    assert upgraded("See https://en.wikipedia.org/wiki/Antenna_(radio).") == (
        '<p>See <a href="https://en.wikipedia.org/wiki/Antenna_(radio)">'
        "https://en.wikipedia.org/wiki/Antenna_(radio)</a>.</p>\n"
    )


# --- the differences from marko, one rule each ---------------------------------------------------


def test_query_initiator_is_kept() -> None:
    """§3.5.1: ``?`` starts a query and is included (marko trims it as trailing punctuation)."""
    assert alone("see http://x.com/a? ok") == '<p>see <a href="http://x.com/a">http://x.com/a</a>? ok</p>\n'
    assert upgraded("see http://x.com/a? ok") == '<p>see <a href="http://x.com/a?">http://x.com/a?</a> ok</p>\n'


def test_trailing_soft_run_is_dropped() -> None:
    """§3.5.1: a run of Soft characters at the end is not in the link (marko drops only one)."""
    assert alone("see http://x.com/a.. ok") == '<p>see <a href="http://x.com/a.">http://x.com/a.</a>. ok</p>\n'
    assert upgraded("see http://x.com/a.. ok") == '<p>see <a href="http://x.com/a">http://x.com/a</a>.. ok</p>\n'


def test_invalid_host_is_not_linked() -> None:
    """§3.3: an empty label (``a..b``) is no valid host: the span stays text."""
    assert alone("see http://a..b.com x") == '<p>see <a href="http://a..b.com">http://a..b.com</a> x</p>\n'
    assert upgraded("see http://a..b.com x") == "<p>see http://a..b.com x</p>\n"


@pytest.mark.parametrize("text", ["a..b@x.com", ".a@x.com"])
def test_email_local_part_rules(text: str) -> None:
    """§5.2: a local part with ``..`` or starting with ``.`` gives no email (marko links both)."""
    assert alone(text) == f'<p><a href="mailto:{text}">{text}</a></p>\n'
    assert upgraded(text) == f"<p>{text}</p>\n"


def test_ascii_email_as_marko_renders_it() -> None:
    assert upgraded("write to a.b+c@example.com.") == (
        '<p>write to <a href="mailto:a.b+c@example.com">a.b+c@example.com</a>.</p>\n'
    )


def test_bidi_control_is_shown_escaped() -> None:
    """§8: a Bidi_Control character in the link text is shown percent-escaped (marko shows it live)."""
    text = "x http://a.com/\u202ex y"
    assert alone(text) == '<p>x <a href="http://a.com/%E2%80%AEx">http://a.com/\u202ex</a> y</p>\n'
    assert upgraded(text) == '<p>x <a href="http://a.com/%E2%80%AEx">http://a.com/%E2%80%AEx</a> y</p>\n'
    # and one written as a character reference, which marko decodes in text
    assert upgraded("http://a.com/x&#x202e;y") == (
        '<p><a href="http://a.com/x%E2%80%AEy">http://a.com/x%E2%80%AEy</a></p>\n'
    )


def test_reference_at_the_end_stays_whole() -> None:
    """``&amp;`` is one ``&`` of the shown text, an Include character (§3.5.1): it stays in the link."""
    assert alone("http://a.com/x&amp; y") == '<p><a href="http://a.com/x">http://a.com/x</a>&amp; y</p>\n'
    assert upgraded("http://a.com/x&amp; y") == '<p><a href="http://a.com/x&amp;">http://a.com/x&amp;</a> y</p>\n'


@pytest.mark.parametrize("text", ["http://t.e/&lta;", "see http://t.e/&ampx; ok", "see http://t.e/&copy2 ok"])
def test_a_reference_marko_decodes_after_its_link_ends_the_link(text: str) -> None:
    """marko decodes ``&lt`` in ``&lta;`` (``html.unescape``: a named reference without ``;``) in the
    text after its link, which ends before it: the refined link ends there too, and the text
    shows marko's ``<a;`` (fuzz campaign 3, seed 7, marko: visible text)."""
    assert upgraded(text) == alone(text)
    assert "<a " in alone(text)


def test_userinfo_is_not_linked() -> None:
    """§3.2 (userinfo is deprecated): marko's own pattern takes no ``@`` in a host either."""
    assert upgraded("http://user@a.com") == alone("http://user@a.com") == "<p>http://user@a.com</p>\n"


# --- what marko keeps -------------------------------------------------------------------------


def test_rest_of_markos_span_stays_plain_text() -> None:
    """The emphasis marko's link swallowed does not come alive after the shorter link."""
    text = "http://a.com/x」*y* z"
    assert alone(text) == '<p><a href="http://a.com/x%E3%80%8D*y">http://a.com/x」*y</a>* z</p>\n'
    assert upgraded(text) == '<p><a href="http://a.com/x">http://a.com/x</a>」*y* z</p>\n'
    assert upgraded("http://a..b.com/*x* y") == "<p>http://a..b.com/*x* y</p>\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("*http://a.com/x*", '<p><em><a href="http://a.com/x">http://a.com/x</a></em></p>\n'),
        ("_http://a.com/x_", '<p><em><a href="http://a.com/x">http://a.com/x</a></em></p>\n'),
        ("~~http://a.com/x~~", "<p><del>http://a.com/x</del></p>\n"),  # marko's own: no link in it
    ],
)
def test_delimiter_marko_trims_stays_a_delimiter(text: str, expected: str) -> None:
    """``*`` is Include, but a link never takes the emphasis delimiter marko leaves out."""
    assert alone(text) == upgraded(text) == expected


def test_code_html_and_links_are_never_linked() -> None:
    url = "http://例え.jp/テスト」です"
    text = (
        f"`{url}` <span title='{url}'>{url}</span> [t]({url}) <{url}>\n\n"
        f"    {url}\n\n```\n{url}\n```\n\n<div>\n{url}\n</div>\n"
    )
    out = upgraded(text)
    assert out == alone(text)
    # the only anchors: the Markdown link and the <…> autolink, both marko's own (CommonMark)
    assert (
        re.findall(r"<a href=\"[^\"]*\">", out)
        == [f'<a href="http://{EXAMPLE_JP}/{TESUTO}%E3%80%8D%E3%81%A7%E3%81%99">'] * 2
    )


def test_markos_start_rules_stay() -> None:
    """No link where marko starts none (its look-behind: white space, ``*_~(`` or full-width)."""
    for text in ("x.com/a", "ahttp://x.com/a", "foo.example.com/テスト」", "mailto:a@例え.jp」"):
        assert upgraded(text) == alone(text), text


def test_markdown_renderer() -> None:
    from marko.md_renderer import MarkdownRenderer

    if marko.Markdown(extensions=["gfm"], renderer=MarkdownRenderer).convert("x") != "x\n":
        pytest.skip("this marko's GFM has no Markdown renderer of its own (marko 2.0)")
    md = marko.Markdown(extensions=["gfm", "uts58_adapt.integrations.marko"], renderer=MarkdownRenderer)
    assert md.convert("Visit https://例え.jp/テスト」です") == "Visit https://例え.jp/テスト」です\n"
    assert md.convert("mail a@例え.jp") == "mail mailto:a@例え.jp\n"  # marko writes the dest (ASCII: the same)


def test_risky_links_stay_text_with_reject_risky() -> None:
    """§8 (``reject_risky=True``, as ``detect()``): a mixed-script host (Cyrillic ``а`` in paypal) stays text."""
    risky = marko.Markdown(extensions=["gfm", make_extension(reject_risky=True)])
    assert upgraded("see https://p\u0430ypal.com/x") == (
        '<p>see <a href="https://p%D0%B0ypal.com/x">https://p\u0430ypal.com/x</a></p>\n'
    )
    assert risky.convert("see https://p\u0430ypal.com/x and https://x.com/") == (
        '<p>see https://p\u0430ypal.com/x and <a href="https://x.com/">https://x.com/</a></p>\n'
    )


def test_gfm_extension_is_both_listed() -> None:
    from uts58_adapt.integrations.marko import gfm_extension

    text = "Visit https://例え.jp/テスト」です, mail a@例え.jp, www.x.com/a?, | a |\n| - |\n| ~~b~~ |"
    assert marko.Markdown(extensions=[gfm_extension()]).convert(text) == upgraded(text)


def test_strict_hosts_option() -> None:
    """§1.4's registrable-domain rule, as ``detect(strict_hosts=True)``: ``.local`` is no public suffix."""
    strict = marko.Markdown(extensions=["gfm", make_extension(strict_hosts=True)])
    assert upgraded("see http://intranet.local/x") == (
        '<p>see <a href="http://intranet.local/x">http://intranet.local/x</a></p>\n'
    )
    assert strict.convert("see http://intranet.local/x and https://x.com/") == (
        '<p>see http://intranet.local/x and <a href="https://x.com/">https://x.com/</a></p>\n'
    )


# --- byte for byte where no link is affected ---------------------------------------------------


def _blocks() -> list[str]:
    """The sample corpus's lines, the dense benchmark corpus's paragraphs (link-dense multilingual
    chat), and the paragraphs of the repository's Markdown documents."""
    texts = list(sample_lines()) + list(dense_paragraphs(30_000))
    for path in sorted([REPO / "README.md", *Path(REPO / "docs").rglob("*.md")]):
        texts += [block for block in path.read_text(encoding="utf-8").split("\n\n") if block.strip()]
    return texts


def _markos_links(text: str) -> list[str]:
    """The text of each GFM extended autolink marko alone makes in ``text`` (its ``Url`` elements)."""
    found: list[str] = []

    def walk(element: object) -> None:
        if isinstance(element, elements.Url):
            found.append(element.children[0].children)
        children = getattr(element, "children", None)
        if isinstance(children, list):
            for child in children:
                walk(child)

    walk(marko.Markdown(extensions=["gfm"]).parse(text))
    return found


def _affected(text: str) -> bool:
    """Whether a link marko makes is not, as it is, one of ``detect()``'s (UTS #58's reference path),
    or is an email marko gives no ``mailto:`` (its test is ``patterns.email``, ASCII only)."""
    found = {link.text for link in detect(text)}
    for link in _markos_links(text):
        if link not in found:
            return True
        if "://" not in link and link[:4].lower() != "www." and not re.match(marko.patterns.email, link):
            return True
    return False


def test_byte_identical_without_affected_links() -> None:
    checked = with_links = 0
    for text in _blocks():
        if _affected(text):
            continue
        assert upgraded(text) == alone(text), text
        checked += 1
        with_links += bool(_markos_links(text))
    assert checked > 500 and with_links > 20, (checked, with_links)


def test_affected_check_can_fail() -> None:
    assert _affected("Visit https://例え.jp/テスト」です")
    assert _affected("mail a@例え.jp")
    assert not _affected("Visit https://example.com/a now")


# --- the fast path gives what the plain path gives (issue 35: speed) ----------------------------

#: Pieces at the edges of the fast path's shapes and of what is around a match.
FAST_PIECES = [
    "http://example.com", "https://a.b.example.org/x/y-z_1", "ftp://x.io/", "www.example.com/a?b=c#d",
    "HTTP://EXAMPLE.COM/X", "http://a-b.c-d.com/", "http://a--b.com/", "http://xn--p1ai.com/", "http://a.1/",
    "http://1.2.3.4/", "http://a.b0/", "http://-a.com/", "http://a-.com/", "http://a_b.x.com/", "http://a.com:80/",
    "http://u@a.com/", f"http://{'a' * 64}.com/", f"http://{'b' * 60}.{'c' * 60}.{'d' * 60}.{'e' * 66}.com",
    "http://a.com/%E4", "http://a.com/a&b", "http://a.com/a&amp;", "http://a.com/(x)", "http://a.com/x#y:z",
    "http://a.com/a:~:text=b", "http://a.com/~u/$x*", "http://a.com/x+y=z;w", "http://a.com/", "a@example.com",
    "a.b+c_d-e@x.example.org", "-a@b.com", ".a@b.com", "a..b@c.com", f"{'l' * 64}@b.com", f"{'l' * 65}@b.com",
    "a@b.c", "a@1.2.3.4", "a@b--c.com", "mailto:a@b.com", "bug@例え.jp", "σ@a.com", "例え.jp",
    "https://例え.jp/テスト", "ü", "」", "。", "\\", "`", "*", "_", "~", "(", ")", "<", ">", "[", "]", "{", "}",
    "'", '"', ",", ".", ":", ";", "!", "?", "/", "-", "@", "&", " ", "\n", "\u3000", "x", "<b>", "[x](y)",
    "?a=1&lang=en", "&lrm;", "&rlm", "&#8206", "&#x200F;", "&amp", "&amp;", "&lt", "&a", "&1", "&-", "::", ":)",
    "https://a.com/テスト", "http://a.com/ü", "www.a.com/wiki/ç_é", "テ", "ü", "\u0301", "\u200e", "\u202e", "\u061c",
    "？", "／", "＃", "＠", "«", "»", "、", "．", "｡", "\u00ad", "\u0640", "\u2019", "\U0001f600", "\u3001", "（", "）", "\u0149", "\x9f", "\u0378",
]  # fmt: skip


def _plain_path(text: str) -> str:
    """The upgrade without its fast path (every match of marko's refined)."""
    from uts58_adapt.integrations import marko as module

    fast = module._FAST
    module._FAST = False
    try:
        return upgraded(text)
    finally:
        module._FAST = fast


def test_the_fast_path_is_the_plain_path() -> None:
    import random

    rng = random.Random(58)
    texts = ["".join(rng.choice(FAST_PIECES) for _ in range(rng.randint(1, 10))) for _ in range(2000)]
    texts += [  # references in an ASCII span: the fast path leaves them to the plain path
        "see http://a.com/?a&lrm;b y", "see http://a.com/?a&#8206b y", "see http://a.com/?a&#x202e;b y",
        "see http://a.com/?a=1&lang=en: y", "see http://a.com/a&amp;b y", "see www.a.com/a&rlm;x, y",
    ]  # fmt: skip
    differ = [text for text in texts if upgraded(text) != _plain_path(text)]
    assert not differ, differ[:3]


def test_the_fast_path_is_the_plain_path_on_the_corpora() -> None:
    texts = [*sample_lines(), *dense_paragraphs(20_000)]
    differ = [text for text in texts if upgraded(text) != _plain_path(text)]
    assert not differ, differ[:1]


def test_the_fast_path_is_taken() -> None:
    """(The tests above can fail only if it is: marko's own match comes back, unwrapped.)"""
    from uts58_adapt.integrations.marko import Url, _Span

    for text, fast in (("see http://a.example.com/x. y", True), ("at www.example.com/a, x", True),
                       ("see http://a.com/?a=1&lang=en: y", True), ("see http://a.com/?a&lrm;b y", False),
                       ("see http://a.com/?a&#8206b y", False), ("see https://a.com/テスト x", True),
                       ("see https://a.com/x\u200ey z", False), ("see https://a.com/x。y z", False),
                       ("see http://例え.jp/x y", False), ("see http://a.com/x」y", False)):  # fmt: skip
        matches = list(Url.find(text, source=None))
        assert len(matches) == 1 and isinstance(matches[0], _Span) is not fast, text


def test_gfm_patterns_searched_from_near_each_match_find_what_finditer_finds() -> None:
    """``_Candidates.finditer`` (the search started near the next "www.", "://" or "@") gives
    GFM's own ``finditer``, match for match, groups included."""
    import random

    from marko.ext.gfm import elements

    from uts58_adapt.integrations.marko import Url

    rng = random.Random(35)
    pieces = [*FAST_PIECES, "www.", "://", "wwww.a.b", "ftp", "https", "a_b@c.d", "x+y@z.io", "\t", "(", "*_~"]
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 14))) for _ in range(3000)]
    texts += [*sample_lines(), *dense_paragraphs(20_000)]
    # no white space within 256 characters before an "@" (the search then starts where finditer's would)
    texts += ["x" * 300 + "@b.cd", "a b" + "x" * 300 + "@b.cd y@z.io", "http://a.bc/x。" * 40 + "a@b.cd", "a@" * 200]
    pairs = ((Url.www_pattern, elements.Url.www_pattern), (Url.bare_pattern, elements.Url.bare_pattern))
    for ours, theirs in pairs:
        assert ours is not theirs and ours.pattern == theirs.pattern
        for text in texts:
            got = [(m.span(), m.groups()) for m in ours.finditer(text)]
            assert got == [(m.span(), m.groups()) for m in theirs.finditer(text)], text
    assert [m.group() for m in Url.bare_pattern.finditer("x http://a.bc y@d.ef")] == ["http://a.bc", "y@d.ef"]


def test_a_www_link_cut_to_a_shape_marko_never_links_stays_text() -> None:
    """Fuzz seed 26 (issue 32): marko links ``www.a..&`` (href ``http://www.a..&amp;``); UTS #58 ends
    it at ``www.a``, which marko's ``www`` pattern does not take (no ``.`` after its label): marko
    would write no ``http://`` before it, and the href was the relative ``www.a``.  It stays text."""
    assert alone("www.a..&") == '<p><a href="http://www.a..&amp;">www.a..&amp;</a></p>\n'
    assert upgraded("www.a..&") == "<p>www.a..&amp;</p>\n"
    assert upgraded("see www.a.b, ok") == '<p>see <a href="http://www.a.b">www.a.b</a>, ok</p>\n'


def test_a_reference_without_semicolon_is_shown_as_written() -> None:
    """Fuzz seed 26: in an autolink's text marko decodes ``&#x202e;`` and shows ``&#x202e`` as written;
    only the first is a Bidi_Control to show percent-escaped (§8)."""
    assert "www.r.e/&amp;#x202e&amp;#9</a>" in alone("www.r.e/&#x202e&#9")
    assert "www.r.e/&amp;#x202e&amp;#9</a>" in upgraded("www.r.e/&#x202e&#9")
    assert ">www.r.e/%E2%80%AEx</a>" in upgraded("www.r.e/&#x202e;x")
