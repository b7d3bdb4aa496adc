"""Issue 32, the Markdown integrations: the upgrade never does what mistune, magiclink or markdown-it would not.

Each output is parsed with html5lib's DOM builder (its etree builder loses foster-parented
text) and compared with the library's output on the same input: no element, no attribute
on an anchor and no href scheme the library does not produce, the same visible text.  One
test (or a few) per item of the issue, on its own reproducer, then a generated campaign
around links (markup, comments, CDATA, link and image syntax, emphasis, references).
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uts58_adapt.html import BIDI_CONTROLS

html5lib = pytest.importorskip("html5lib")

Render = Callable[[str], str]


class _Parsed:
    """What a browser builds of an HTML fragment: its elements, anchors and text (html5lib, DOM builder)."""

    def __init__(self, html: str) -> None:
        self.elements: Counter[tuple[str, tuple[str, ...]]] = Counter()
        self.anchors: list[tuple[str | None, str]] = []  # (href, text)
        self.anchor_attributes: set[str] = set()
        self.text: list[str] = []
        self._walk(html5lib.parseFragment(html, treebuilder="dom"), None)

    def _walk(self, node, anchor: list[str] | None) -> None:  # type: ignore[no-untyped-def]
        for child in node.childNodes:
            if child.nodeType == child.ELEMENT_NODE:
                names = tuple(sorted(child.attributes.keys()))
                if child.tagName == "a":
                    self.anchor_attributes.update(names)
                    inner: list[str] = []
                    self._walk(child, inner)
                    href = child.getAttribute("href") if child.hasAttribute("href") else None
                    self.anchors.append((href, "".join(inner)))
                else:
                    self.elements[(child.tagName, names)] += 1
                    if child.tagName != "textarea":  # its text is the serialized markup of the rest
                        self._walk(child, anchor)
            elif child.nodeType == child.TEXT_NODE:
                self.text.append(child.data)
                if anchor is not None:
                    anchor.append(child.data)

    @property
    def visible(self) -> str:
        return "".join(self.text)


def _scheme(href: str) -> str:
    """The scheme a browser reads in ``href`` (WHATWG URL: controls and spaces trimmed, tabs and newlines removed)."""
    url = re.sub(r"[\t\n\r]", "", href.strip("".join(map(chr, range(0x21)))))
    m = re.match(r"([A-Za-z][A-Za-z0-9+.\-]*):", url)
    return m.group(1).lower() if m else ""


#: The schemes these libraries give a link of their own (and "" for a relative href).
LINK_SCHEMES = {"http", "https", "ftp", "ftps", "mailto", ""}


def check(text: str, upgraded: str, library: str, same_text: bool = True, author: str | None = None) -> None:
    """The upgrade's output has no markup the library's lacks, and (``same_text``) the same visible text.

    ``author``: for markdown-it, the renderer's output without the linkifier.  Where the upgrade's
    link is shorter than linkify-it's, markdown-it parses the rest as the author wrote it (its
    inline rule can only make a link): its markup and text are the author's own, and references
    are compared decoded.
    """
    up, lib = _Parsed(upgraded), _Parsed(library)
    allowed = lib.elements | _Parsed(author).elements if author is not None else lib.elements
    extra = up.elements - allowed
    assert not extra, ("new elements", dict(extra), text, upgraded, library)
    attributes = up.anchor_attributes - lib.anchor_attributes - {"href"}
    assert not attributes, ("new anchor attributes", attributes, text, upgraded, library)
    schemes = {_scheme(href) for href, _ in up.anchors if href is not None} - LINK_SCHEMES
    assert not schemes, ("new href schemes", schemes, text, upgraded, library)
    if same_text and author is None:
        assert up.visible == lib.visible, ("visible text", text, upgraded, library)
    elif same_text:
        # Where linkify-it's match ends inside a reference ("&amp" then ";"), markdown-it shows
        # the reference as written; markdown-it decodes it where the upgrade's link ends before it.
        shown = {html.unescape(lib.visible), html.unescape(_Parsed(author).visible)}
        assert html.unescape(up.visible) in shown, ("visible text", text, upgraded, library)


def _mistune(escape: bool) -> tuple[Render, Render]:
    mistune = pytest.importorskip("mistune")
    from uts58_adapt.integrations import mistune as integration

    upgraded = mistune.create_markdown(escape=escape, plugins=[integration.url])
    alone = mistune.create_markdown(escape=escape, plugins=["url"])
    return (lambda t: str(upgraded(t))), (lambda t: str(alone(t)))


def _magiclink(*extensions: str) -> tuple[Render, Render]:
    markdown = pytest.importorskip("markdown")
    pytest.importorskip("pymdownx")
    upgraded = markdown.Markdown(extensions=["uts58_adapt.integrations.magiclink", *extensions])
    alone = markdown.Markdown(extensions=["pymdownx.magiclink", *extensions])
    return (lambda t: upgraded.reset().convert(t)), (lambda t: alone.reset().convert(t))


def _markdown_it(html: bool) -> tuple[Render, Render]:
    pytest.importorskip("linkify_it")
    from markdown_it import MarkdownIt

    from uts58_adapt import wrap

    alone = MarkdownIt("commonmark", {"linkify": True, "html": html}).enable("linkify")
    upgraded = MarkdownIt("commonmark", {"linkify": True, "html": html}).enable("linkify")
    upgraded.linkify = wrap(upgraded.linkify)
    return upgraded.render, alone.render


def _marko() -> tuple[Render, Render]:
    marko = pytest.importorskip("marko")
    upgraded = marko.Markdown(extensions=["gfm", "uts58_adapt.integrations.marko"])
    alone = marko.Markdown(extensions=["gfm"])
    return upgraded.convert, alone.convert


def _markdown_it_author(html: bool) -> Render:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": html}).render


# --- 2. mistune with escape=False: no markup comes alive -------------------------------------------

ITEM_2 = [
    "see http://x.com/<!-- <img src=x onerror=alert(1)> -->",
    'see http://x.com/<b title="<img src=x onerror=alert(1)>">',
    "see http://x.com/<textarea><img src=x onerror=alert(1)></textarea>",
    "see http://x.com/<![CDATA[<img src=x onerror=alert(1)>]]>",
    "see http://x.com/a.<!-- <img src=x onerror=alert(1)> -->",
]


@pytest.mark.parametrize("escape", [False, True])
@pytest.mark.parametrize("text", ITEM_2)
def test_mistune_link_stops_where_mistunes_pattern_does(text: str, escape: bool) -> None:
    upgraded, alone = _mistune(escape)
    check(text, upgraded(text), alone(text))
    assert not any(tag == "img" for tag, _ in _Parsed(upgraded(text)).elements), upgraded(text)
    # mistune links http://x.com/ (or http://x.com/a) and stops at "<": so does the upgrade.
    assert [href for href, _ in _Parsed(upgraded(text)).anchors] == [re.search(r"http://x\.com/a?", text).group()]


def test_mistune_link_may_still_take_what_the_pattern_leaves_at_its_end() -> None:
    """Past mistune's match a link takes the trailing characters mistune's pattern leaves out
    (a closing ")" UTS #58 keeps), but not the "<" after them."""
    upgraded, _ = _mistune(False)
    assert upgraded("see http://x.com/(a)<b>x</b>") == (
        '<p>see <a href="http://x.com/(a)">http://x.com/(a)</a><b>x</b></p>\n'
    )


# --- 3. mistune default: no image, no link text naming another URL ---------------------------------


@pytest.mark.parametrize("escape", [True, False])
@pytest.mark.parametrize(
    "text", ["see ![http://a.co/<[y](https://t.example/p.png) ok", "[http://a.co/<[y](https://t.example/)"]
)
def test_mistune_link_syntax_after_a_url_stays_the_librarys(text: str, escape: bool) -> None:
    upgraded, alone = _mistune(escape)
    check(text, upgraded(text), alone(text))
    parsed = _Parsed(upgraded(text))
    assert not any(tag == "img" for tag, _ in parsed.elements)
    for href, shown in parsed.anchors:  # an anchor showing a URL goes there
        assert not shown.startswith("http") or href == shown, (href, shown)


# --- 7. Bidi_Control characters are never shown live in a link --------------------------------------


def _no_live_bidi(out: str) -> None:
    for href, shown in _Parsed(out).anchors:
        assert BIDI_CONTROLS.isdisjoint(shown), ascii((href, shown, out))


@pytest.mark.parametrize("escape", [True, False])
def test_mistune_bidi_control_in_link_text(escape: bool) -> None:
    upgraded, alone = _mistune(escape)
    text = "see http://x.com/\u202egpj.exe ok"
    _no_live_bidi(upgraded(text))
    assert _Parsed(upgraded(text)).anchors == [("http://x.com/%E2%80%AEgpj.exe", "http://x.com/%E2%80%AEgpj.exe")]
    check(text, upgraded(text), alone(text), same_text=False)


def test_mistune_escape_false_bidi_reference_in_link_text() -> None:
    upgraded, alone = _mistune(False)
    text = "see http://x.com/&#x202e;gpj&rlm;.exe&#82340;x ok"
    _no_live_bidi(upgraded(text))
    # U+202E and U+200F are E2 80 AE and E2 80 8F in UTF-8; &#82340; is U+141A4, not a control
    assert _Parsed(upgraded(text)).anchors[0][1] == "http://x.com/%E2%80%AEgpj%E2%80%8F.exe\U000141a4x"
    check(text, upgraded(text), alone(text), same_text=False)


def test_mistune_escaped_references_stay_as_they_are() -> None:
    upgraded, alone = _mistune(True)  # the renderer shows "&#x202e;" as written: nothing to do
    text = "see http://x.com/&#x202e;gpj.exe ok"
    assert upgraded(text) == alone(text)


@pytest.mark.parametrize(
    "text", ["see http://x.com/&#x202e;gpj.exe ok", "see www.x.com/&#8238;a&lrm;b ok", "see http://x.com/\u2067a ok"]
)
def test_magiclink_bidi_reference_in_link_text(text: str) -> None:
    upgraded, alone = _magiclink()
    _no_live_bidi(upgraded(text))
    check(text, upgraded(text), alone(text), same_text=False)


@pytest.mark.parametrize("text", ["see ex\u3002com/\u202egpj.exe ok", "see x.com/\u202egpj.exe ok"])
def test_markdown_it_bidi_control_in_link_text(text: str) -> None:
    upgraded, alone = _markdown_it(False)
    _no_live_bidi(upgraded(text))
    for href, shown in _Parsed(upgraded(text)).anchors:
        assert href is not None and href.endswith("x.com/%E2%80%AEgpj.exe"), href
        assert shown.endswith("x.com/%25E2%2580%25AEgpj.exe"), shown  # as a percent-encoded one shows
    check(text, upgraded(text), alone(text), same_text=False)


# --- 10. magiclink keeps the emphasis around a link ------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Contact **support@example.com** today",
        "**http://example.com/x**",
        "see *http://example.com/x* ok",
        "*www.example.com/a*",
        "__http://example.com/x__ and _a@example.com",
        "see http://example.com/?a=1&amp; ok",
    ],
)
def test_magiclink_emphasis_around_a_link(text: str) -> None:
    upgraded, alone = _magiclink()
    assert upgraded(text) == alone(text)


@pytest.mark.parametrize("text", ["~~http://example.com/x~~", "^^http://example.com/x^^", "==a@example.com=="])
def test_magiclink_pymdownx_delimiters_around_a_link(text: str) -> None:
    upgraded, alone = _magiclink("pymdownx.tilde", "pymdownx.caret", "pymdownx.mark")
    assert upgraded(text) == alone(text)


def test_magiclink_emphasis_around_an_email_it_adds() -> None:
    """An email magiclink's pattern does not take (a non-ASCII local part) is linked inside the
    emphasis, not over its delimiters."""
    upgraded, alone = _magiclink()
    text = "**σ@example.com** and *σ@example.com*"
    parsed = _Parsed(upgraded(text))
    assert parsed.elements == Counter({("p", ()): 1, ("strong", ()): 1, ("em", ()): 1}), upgraded(text)
    assert [shown for _, shown in parsed.anchors] == ["σ@example.com", "σ@example.com"]
    check(text, upgraded(text), alone(text))


@pytest.mark.parametrize("text", ["_a@example.com_", "__a@example.com__", "see a@example.com_x_ ok"])
def test_magiclink_no_email_where_its_pattern_ends_none(text: str) -> None:
    """magiclink ends an address only at a word boundary: not before "_" (where emphasis may close)."""
    upgraded, alone = _magiclink()
    assert upgraded(text) == alone(text)


# --- 13. markdown-it: the href holds the host as UTS #46 maps it -------------------------------------


@pytest.mark.parametrize(
    ("text", "href"),
    [
        ("see http://\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.\uff43\uff4f\uff4d/ok", "http://example.com/ok"),
        ("see \uff38.com/a", "http://x.com/a"),
        ("see //\uff38.com/a", "//x.com/a"),
        ("B\u00dcCHER.de/x", "http://xn--bcher-kva.de/x"),  # bücher: xn--bcher-kva (RFC 3492 examples)
        ("see ftp://\uff38\uff39.com:80/a?b#c", "ftp://xy.com:80/a?b#c"),
    ],
)
def test_markdown_it_href_has_the_mapped_host(text: str, href: str) -> None:
    upgraded, alone = _markdown_it(False)
    assert [h for h, _ in _Parsed(upgraded(text)).anchors] == [href]
    check(text, upgraded(text), alone(text), same_text=False)


@pytest.mark.parametrize("text", ["B\u00fccher.de/x", "see http://ex.com/\u00e9", "HTTP://EXAMPLE.COM/\u00c9"])
def test_markdown_it_href_unchanged_where_it_resolves_already(text: str) -> None:
    """A host markdown-it encodes to the right A-label (ASCII case aside) is left as written."""
    upgraded, alone = _markdown_it(False)
    assert upgraded(text) == alone(text)


def test_markdown_it_fuzzy_link_shows_the_host_as_written() -> None:
    upgraded, _ = _markdown_it(False)
    assert _Parsed(upgraded("see \uff38.com/a")).anchors == [("http://x.com/a", "\uff38.com/a")]


# --- markdown-it's inline rule (``scheme://``) shows the url: where the link's text must show
# otherwise, the core rule links it (tests/test_fuzz.py's screen, issue 32) ------------------------


@pytest.mark.parametrize("html_option", [False, True])
@pytest.mark.parametrize(
    ("text", "anchor"),
    [
        # a Bidi_Control character: percent-escaped in the text, as a percent-encoded one shows
        ("hTtP://e/\u202d", ("hTtP://e/%E2%80%AD", "hTtP://e/%25E2%2580%25AD")),
        ("see http://e.com/#\u202c ok", ("http://e.com/#%E2%80%AC", "http://e.com/#%25E2%2580%25AC")),
        ("see http://e.com/a%E2%80%AEb ok", ("http://e.com/a%E2%80%AEb", "http://e.com/a%25E2%2580%25AEb")),
        # a host UTS #46 maps: the href holds it mapped, the text shows it as written
        ("see http://\uff45 ok", ("http://e", "http://\uff45")),
        ("ftp://\uff58", ("ftp://x", "ftp://\uff58")),
        ("see http://\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.\uff43\uff4f\uff4d/", (
            "http://example.com/", "http://\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.\uff43\uff4f\uff4d/"
        )),
    ],
)  # fmt: skip
def test_markdown_it_inline_rule_shows_the_link_as_written(
    text: str, anchor: tuple[str, str], html_option: bool
) -> None:
    upgraded, alone = _markdown_it(html_option)
    out = upgraded(text)
    _no_live_bidi(out)
    assert _Parsed(out).anchors == [anchor], out
    check(text, out, alone(text), same_text=False)


# --- generated: links among markup, emphasis, link syntax and references ---------------------------

LINKS = ["http://x.com/", "https://a.co/p", "http://x.com/a.", "www.x.com/a", "x.com/(a)", "support@example.com"]
AROUND = [
    "<!-- <img src=x onerror=alert(1)> -->", '<b title="<img src=x onerror=alert(1)>">', "<textarea>", "</textarea>",
    "<![CDATA[<img src=x>]]>", "<[y](https://t.example/p.png)", "](https://t.example/)", "[", "![", "<", ">",
    "**", "*", "_", "__", "~~", "^^", "==", "&amp;", "&lt;", "&#38;", ")", "(", ".", ",", ";", ":", '"', "'", "]",
    "`", "\\", " ", "\n", "a", "/", "?", "#", "<b>", "</b>", "<img src=x onerror=alert(1)>", "<a href='/'>", "</a>",
]  # fmt: skip


@st.composite
def markdown_text(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.one_of(st.sampled_from(LINKS), st.sampled_from(AROUND)), min_size=1, max_size=8))
    return "".join(parts)


#: The Markdown renderer without the linkifier, for the configurations that need it (see ``check``).
AUTHOR: dict[str, Callable[[], Render]] = {
    "markdown-it": lambda: _markdown_it_author(False),
    "markdown-it html": lambda: _markdown_it_author(True),
}
CONFIGURATIONS: dict[str, Callable[[], tuple[Render, Render]]] = {
    "mistune": lambda: _mistune(True),
    "mistune escape=False": lambda: _mistune(False),
    "magiclink": _magiclink,
    "magiclink tilde caret mark": lambda: _magiclink("pymdownx.tilde", "pymdownx.caret", "pymdownx.mark"),
    "markdown-it": lambda: _markdown_it(False),
    "markdown-it html": lambda: _markdown_it(True),
    "marko": _marko,
}


@pytest.mark.parametrize("name", list(CONFIGURATIONS))
def test_generated_markdown_around_links(name: str) -> None:
    upgraded, alone = CONFIGURATIONS[name]()
    author = AUTHOR[name]() if name in AUTHOR else None

    # markdown-it's inline rule can only make a link: where the upgrade's link is shorter than
    # linkify-it's, the rest is parsed as the author wrote it, so its text is neither output's.
    same_text = author is None

    @settings(max_examples=300, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(markdown_text())
    def run(text: str) -> None:
        check(text, upgraded(text), alone(text), same_text, author(text) if author else None)

    run()


# --- markdown-it's inline rule: emphasis and link syntax after linkify-it's match stay markup ------


@pytest.mark.parametrize(
    "text",
    [
        "http://x.com/**[**",
        "http://x.com/**(**",
        "see _http://x.com/a'_ ok",
        "see http://x.com/a'_b_ ok",
        "see http://x.com/a.`code` ok",
    ],
)
def test_markdown_it_link_leaves_markup_after_linkify_its_match(text: str) -> None:
    upgraded, alone = _markdown_it(False)
    assert upgraded(text) == alone(text)


def test_markdown_it_underscore_inside_a_word_stays_in_the_link() -> None:
    """A "_" that can open no emphasis (no closer after it) is text: the link takes it (UTS #58)."""
    upgraded, _ = _markdown_it(False)
    text = "https://mt.wikipedia.org/wiki/Wikipedija:Lista_ta'_artikli_li_kull_Wikipedija"
    assert [shown for _, shown in _Parsed(upgraded(text)).anchors] == [text]


@pytest.mark.parametrize("text", ["http://e\u200el.io", "see http://e\u200el.io ok", "http://x.com\u200ey.io/p"])
def test_markdown_it_no_link_starts_inside_the_librarys(text: str) -> None:
    """Issue 32 item 5: the refined link ends at a Hard character inside linkify-it's match; the
    rest of that match is not linked afresh by markdown-it's core rule (``l.io`` after U+200E):
    the upgrade's anchors are the one refined link, which starts where the library's does."""
    upgraded, alone = _markdown_it(False)
    mine, theirs = _Parsed(upgraded(text)).anchors, _Parsed(alone(text)).anchors
    assert len(theirs) == 1 and len(mine) == 1, (mine, theirs)
    assert theirs[0][1].startswith(mine[0][1]) and "\u200e" not in mine[0][1]
