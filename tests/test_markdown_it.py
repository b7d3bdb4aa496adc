"""markdown-it-py: ``md.linkify = wrap(md.linkify)`` upgrades both linkify rules.

markdown-it-py's core rule linkifies text tokens with ``test``/``match`` (fuzzy links
and emails); its inline rule handles ``scheme://`` with ``match_at_start``.  Each
case is rendered with and without the wrapper; the expected HTML is written by hand
(percent-encoding of the href is markdown-it's own ``normalizeLink``: UTF-8 bytes).
"""

from __future__ import annotations

import pytest

pytest.importorskip("markdown_it")
pytest.importorskip("linkify_it")

from markdown_it import MarkdownIt

from uts58_adapt.wrapping import LinkifyItWrapper, wrap


def make_md(upgrade: bool) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    if upgrade:
        md.linkify = wrap(md.linkify)
    return md


@pytest.fixture(scope="module")
def plain() -> MarkdownIt:
    return make_md(False)


@pytest.fixture(scope="module")
def md() -> MarkdownIt:
    return make_md(True)


def test_the_wrapper_is_installed(md):
    assert isinstance(md.linkify, LinkifyItWrapper)


def test_bracket_crossing_a_slash_core_rule(plain, md):
    text = "see example.com/αβ(γ/δ)ρς"
    # α β γ δ ρ ς = CE B1, CE B2, CE B3, CE B4, CF 81, CF 82 in UTF-8.
    assert plain.render(text) == (
        '<p>see <a href="http://example.com/%CE%B1%CE%B2(%CE%B3/%CE%B4)%CF%81%CF%82">example.com/αβ(γ/δ)ρς</a></p>\n'
    )
    assert md.render(text) == (
        '<p>see <a href="http://example.com/%CE%B1%CE%B2(%CE%B3/%CE%B4">example.com/αβ(γ/δ</a>)ρς</p>\n'
    )


def test_bracket_crossing_a_slash_inline_rule(plain, md):
    text = "see https://example.com/αβ(γ/δ)ρς"
    assert plain.render(text) == (
        '<p>see <a href="https://example.com/%CE%B1%CE%B2(%CE%B3/%CE%B4)%CF%81%CF%82">'
        "https://example.com/αβ(γ/δ)ρς</a></p>\n"
    )
    assert md.render(text) == (
        '<p>see <a href="https://example.com/%CE%B1%CE%B2(%CE%B3/%CE%B4">https://example.com/αβ(γ/δ</a>)ρς</p>\n'
    )


def test_apostrophe_inside_a_path(plain, md):
    text = "https://mt.wikipedia.org/wiki/Wikipedija:Lista_ta'_artikli_li_kull_Wikipedija"
    assert plain.render(text) == (
        '<p><a href="https://mt.wikipedia.org/wiki/Wikipedija:Lista_ta">'
        "https://mt.wikipedia.org/wiki/Wikipedija:Lista_ta</a>'_artikli_li_kull_Wikipedija</p>\n"
    )
    assert md.render(text) == (
        '<p><a href="https://mt.wikipedia.org/wiki/Wikipedija:Lista_ta\'_artikli_li_kull_Wikipedija">'
        "https://mt.wikipedia.org/wiki/Wikipedija:Lista_ta'_artikli_li_kull_Wikipedija</a></p>\n"
    )


def test_non_ascii_email(plain, md):
    text = "σωκράτης@example.com"
    assert plain.render(text) == "<p>σωκράτης@example.com</p>\n"
    # σ ω κ ρ ά τ η ς = CF 83, CF 89, CE BA, CF 81, CE AC, CF 84, CE B7, CF 82.
    assert md.render(text) == (
        '<p><a href="mailto:%CF%83%CF%89%CE%BA%CF%81%CE%AC%CF%84%CE%B7%CF%82@example.com">'
        "σωκράτης@example.com</a></p>\n"
    )


def test_markdown_constructs_are_left_alone(md):
    text = "**http://x.com/α** [x.com/α(β](http://y.com) `x.com/α(β` (http://x.com/a)"
    assert md.render(text) == (
        '<p><strong><a href="http://x.com/%CE%B1">http://x.com/α</a></strong> '
        '<a href="http://y.com">x.com/α(β</a> <code>x.com/α(β</code> '
        '(<a href="http://x.com/a">http://x.com/a</a>)</p>\n'
    )


def test_escaped_scheme_is_still_not_linked(md):
    assert md.render("http\\://example.com/α(β") == "<p>http://example.com/α(β</p>\n"


@pytest.mark.parametrize(
    ("source", "library"),
    [
        # a backslash before any character is an escape token (text_special) in markdown-it-py
        ("\\t:&@c.org", "<p>\\t:&amp;@c.org</p>\n"),
        ("\\t:a@c.org", "<p>\\t:a@c.org</p>\n"),
        ("&amp;,jane@x.com", "<p>&amp;,jane@x.com</p>\n"),
        # an email of a non-ASCII local part: the library is asked with "a" for it (",jane@x.com")
        ("\\*,jüne@x.com", "<p>*,jüne@x.com</p>\n"),
    ],
)
def test_no_email_after_an_escape_where_the_library_drops_its_link(plain, md, source, library):
    """markdown-it's core rule drops linkify-it's first link when it starts a text token right after
    an escape or a character reference (``text_special``: ``http\\://x``); the email UTS #58 starts
    later in that link (its local part, §3.6) is dropped with it (issue 32, new N3)."""
    assert plain.render(source) == library
    assert md.render(source) == library


def test_an_email_after_an_escape_is_kept_where_the_library_links(plain, md):
    """Where no escape comes right before, the library links the token's start and the upgrade its
    email; a later link of the token after an escape stays (the library drops only the first)."""
    assert plain.render("*a*,jane@x.com") == '<p><em>a</em><a href="mailto:,jane@x.com">,jane@x.com</a></p>\n'
    assert md.render("*a*,jane@x.com") == '<p><em>a</em>,<a href="mailto:jane@x.com">jane@x.com</a></p>\n'
    expected = '<p>*,jane@x.com and <a href="mailto:b@x.com">b@x.com</a></p>\n'
    assert plain.render("\\*,jane@x.com and b@x.com") == expected
    assert md.render("\\*,jane@x.com and b@x.com") == expected
    # outside markdown-it's rule (the wrapper asked directly), nothing is dropped
    assert [(m.index, m.last_index) for m in md.linkify.match(",jane@x.com") or []] == [(1, 11)]


def test_md_validate_link_still_applies(md):
    # The wrapper refines spans; markdown-it's own normalizeLink/validateLink still run.
    md2 = make_md(True)
    md2.validateLink = lambda url: not url.startswith("mailto:")  # type: ignore[method-assign]
    assert md2.render("σωκράτης@example.com and example.com/α") == (
        '<p>σωκράτης@example.com and <a href="http://example.com/%CE%B1">example.com/α</a></p>\n'
    )


def test_options_set_through_md_linkify_apply(md):
    md2 = make_md(True)
    md2.linkify.set({"fuzzy_email": False})
    assert md2.render("σωκράτης@example.com") == "<p>σωκράτης@example.com</p>\n"


@pytest.mark.parametrize(
    "source, library",
    [
        # linkify-it's test() (markdown-it's core rule's gate) says False here, though its match()
        # finds the host: "<" does not end a fuzzy host in test()'s pattern (issue 32, fuzz campaign)
        ("x.com<", "<p>x.com&lt;</p>\n"),
        ("see x.com< ok", "<p>see x.com&lt; ok</p>\n"),
        ("l·l.om<", "<p>l·l.om&lt;</p>\n"),
        ("xn--her-kva.de<", "<p>xn--her-kva.de&lt;</p>\n"),
        ("see x。com< ok", "<p>see x。com&lt; ok</p>\n"),
    ],
)
def test_no_link_where_the_library_test_gate_is_false(plain, md, source, library):
    """markdown-it's core rule links a text token only where ``linkify.test`` is True: the wrapper's
    test() is False wherever the library's is, so the upgrade links nothing there either."""
    assert plain.render(source) == library
    assert md.render(source) == library


@pytest.mark.parametrize(
    "source, library",
    [
        # test() looks for a host anywhere in the token ("1.2.3.4 ", "localhost", "www.") and,
        # separately, for a fuzzy link: both found in different words, the gate is True
        ("1.2.3.4 x.com<", '<p>1.2.3.4 <a href="http://x.com">x.com</a>&lt;</p>\n'),
        ("localhost x.com<", '<p>localhost <a href="http://x.com">x.com</a>&lt;</p>\n'),
        ("www. x.com<", '<p>www. <a href="http://x.com">x.com</a>&lt;</p>\n'),
        ("x.com< y.com", '<p><a href="http://x.com">x.com</a>&lt; <a href="http://y.com">y.com</a></p>\n'),
        (
            "x.com< " + "word " * 300 + "y.co",
            '<p><a href="http://x.com">x.com</a>&lt; ' + "word " * 300 + '<a href="http://y.co">y.co</a></p>\n',
        ),
        (
            "1.2.3.4 " + "word " * 300 + "x.com<",
            "<p>1.2.3.4 " + "word " * 300 + '<a href="http://x.com">x.com</a>&lt;</p>\n',
        ),
    ],
)
def test_links_where_the_library_test_gate_is_true(plain, md, source, library):
    assert plain.render(source) == library
    assert md.render(source) == library


def test_a_non_ascii_email_is_still_linked_before_a_less_than_sign(plain, md):
    """The library's test() finds an email with the same pattern as its match(): an email the
    upgrade adds (a local part UTS #58 allows, §3.6, asked of the library as ``a@…``) passes the gate."""
    assert plain.render("σ@example.com<") == "<p>σ@example.com&lt;</p>\n"
    assert md.render("σ@example.com<") == '<p><a href="mailto:%CF%83@example.com">σ@example.com</a>&lt;</p>\n'


@pytest.mark.parametrize(
    ("text", "link"),
    [
        ("_http://c#//e.\u202d", '_<a href="http://c#//e">http://c#//e</a>.\u202d'),
        ("_http://x.com/a\u202eb", '_<a href="http://x.com/a">http://x.com/a</a>\u202eb'),
    ],
)
def test_inline_link_with_a_bidi_control_the_core_rule_would_not_relink(plain, md, text, link):
    """Issue 32 (fuzz): after ``_`` markdown-it's inline rule links ``http://…`` where linkify-it's
    ``match()`` (its core rule) links no scheme; declined there (a Bidi_Control character must show
    percent-encoded), the core rule linked ``//e`` inside the library's link.  The link ends before
    the Bidi_Control character instead, at the library's start."""
    assert plain.render(text).startswith('<p>_<a href="http://')
    assert md.render(text) == f"<p>{link}</p>\n"


def test_inline_link_with_a_bidi_control_the_core_rule_relinks(md):
    """After a space the core rule links the whole link, showing the Bidi_Control percent-encoded."""
    assert md.render("see http://c#//e.\u202d") == (
        '<p>see <a href="http://c#//e.%E2%80%AD">http://c#//e.%25E2%2580%25AD</a></p>\n'
    )


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("http://c#**//e.b**", '<p><a href="http://c#**//e.b">http://c#**//e.b</a>**</p>\n'),
        ("*http://x.com/a*", '<p><em><a href="http://x.com/a">http://x.com/a</a></em></p>\n'),
    ],
)
def test_the_inline_rule_links_what_markdown_it_keeps_of_a_trailing_star_run(md, plain, text, html):
    """Fuzz (seed 1): markdown-it links linkify-it's match without its trailing ``*`` run; the
    inline rule's link was declined there (the library's span, past the cut text, was refined to
    nothing), and markdown-it then read ``**//e.b**`` as strong emphasis with two links in it."""
    assert plain.render(text) == html
    assert md.render(text) == html
    found = md.linkify.match_at_start(text[text.index("http") :])
    assert found is not None and found.url == html.split('"')[1]


@pytest.mark.parametrize("html", [False, True])
@pytest.mark.parametrize(
    ("text", "before", "after"),
    [
        ("http://w\u202bl·l.co", "", ""),
        ("see http://w\u202bl·l.co ok", "see ", " ok"),
        ("_http://w\u202bl·l.co", "_", ""),
    ],
)
def test_no_moved_back_host_inside_the_inline_rules_link(html, text, before, after):
    """Issue 32 (fuzz, seed 14): the inline rule's library link ``http://w\\u202bl`` is refined to end
    at the Bidi_Control character; the core rule then read ``\\u202bl·l.co`` alone, where the refined
    host ``l·l.co`` (moved back over ``l·``, §1.4) starts inside the library's link.  No link starts
    inside it, as in ``wrap(LinkifyIt()).match`` on the whole text: only ``http://w`` is linked (after
    ``_`` too, where linkify-it's ``match()`` links no scheme and only the inline rule links it)."""
    plain = MarkdownIt("commonmark", {"linkify": True, "html": html}).enable("linkify")
    assert plain.render(text) == (
        f'<p>{before}<a href="http://xn--wl-63t">http://w\u202bl</a>·<a href="http://l.co">l.co</a>{after}</p>\n'
    )
    md = MarkdownIt("commonmark", {"linkify": True, "html": html}).enable("linkify")
    md.linkify = wrap(md.linkify)
    assert md.render(text) == f'<p>{before}<a href="http://w">http://w</a>\u202bl·l.co{after}</p>\n'


@pytest.mark.parametrize("text", ["_//e.c/<_", "_//\uff45.\uff43/<_", "_//e.c/_"])
def test_no_link_where_linkify_its_pretest_fails_on_the_inline_content(text: str) -> None:
    """markdown-it-py links nothing in an inline token whose content fails linkify-it's ``pretest``
    (a ``//`` schema after ``_``), though the text token inside the emphasis (``//e.c/<``) passes
    ``test``; the wrapper's ``pretest`` was True there (fuzz seed 18, issue 32)."""
    from linkify_it import LinkifyIt

    assert not LinkifyIt().pretest(text)
    alone = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    upgraded = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    upgraded.linkify = wrap(upgraded.linkify)
    assert "<a " not in alone.render(text)
    assert upgraded.render(text) == alone.render(text)


@pytest.mark.parametrize("html", [False, True])
def test_inline_link_cut_before_a_character_reference_links_nothing_after(html: bool) -> None:
    """Issue 32 (fuzz, seed 18): linkify-it links ``ftp://t/[&#0;]l·l.co`` whole; UTS #58 ends it at
    ``&#0`` (the ``#`` starts the fragment, so the ``]`` closes no bracket, §3.5.1).  The inline rule
    declined it, and the core rule, which reads ``&#0;`` as a token of its own, linked ``ftp://t/[``
    and ``l·l.co`` inside the library's link.  The inline rule makes the refined link (its text is
    the source) and nothing after it in the library's match is linked."""
    plain = MarkdownIt("commonmark", {"linkify": True, "html": html}).enable("linkify")
    text = "ftp://t/[&#0;]l·l.co"
    assert plain.render(text) == ('<p><a href="ftp://t/%5B&amp;#0;%5Dl%C2%B7l.co">ftp://t/[&amp;#0;]l·l.co</a></p>\n')
    md = MarkdownIt("commonmark", {"linkify": True, "html": html}).enable("linkify")
    md.linkify = wrap(md.linkify)
    assert md.render(text) == '<p><a href="ftp://t/%5B&amp;#0">ftp://t/[&amp;#0</a>;]l·l.co</p>\n'


@pytest.mark.parametrize(
    ("text", "after"),
    [
        # "&t" is no character reference: text to markdown-it, so no stop for the link
        ("HTTP://l·l.om/_i&t.cc", '<a href="HTTP://l%C2%B7l.om/_i&amp;t.cc">HTTP://l·l.om/_i&amp;t.cc</a>'),
        # "&amp;" is one: the link ends before it, where markdown-it decodes it, as before
        ("HTTP://l·l.om/_i&amp;t", '<a href="HTTP://l%C2%B7l.om/_i">HTTP://l·l.om/_i</a>&amp;t'),
        # a backslash before a letter is text; before punctuation an escape
        ("HTTP://l·l.om/a\\b", '<a href="HTTP://l%C2%B7l.om/a%5Cb">HTTP://l·l.om/a\\b</a>'),
        ("HTTP://l·l.om/a\\*b", '<a href="HTTP://l%C2%B7l.om/a">HTTP://l·l.om/a</a>*b'),
    ],
)
def test_past_the_librarys_match_only_markup_stops_the_link(text: str, after: str) -> None:
    """Issue 32 (fuzz, seed 18): linkify-it links ``HTTP://l`` then ``l.om/_i&t.cc``; the refined
    link took ``·l.om/_i`` and stopped at ``&``, and the core rule linked ``t.cc`` inside the
    library's second link.  Past the library's match the link stops only at a ``&`` or ``\\`` that
    markdown-it reads as markup."""
    md = MarkdownIt("commonmark", {"linkify": True, "html": True}).enable("linkify")
    md.linkify = wrap(md.linkify)
    assert md.render(text) == f"<p>{after}</p>\n"


@pytest.mark.parametrize("html", [False, True])
@pytest.mark.parametrize("reference", ["&#0;", "&amp;", "\\*"])
def test_no_link_after_a_reference_inside_a_declined_inline_link(html: bool, reference: str) -> None:
    """Issue 32 (fuzz, seed 23): linkify-it links ``http://例/%E2%80%AE&#0;:l·l.om`` whole.  Its
    refined link must show the Bidi_Control percent-encoded, so the inline rule declines it, and
    the core rule reads the text in pieces split at the reference: it linked ``l·l.co`` in the
    piece after it, inside linkify-it's match.  Only the first piece is linked now."""
    text = f"http://\u4f8b/%E2%80%AE{reference}:l·l.om"
    plain = MarkdownIt("commonmark", {"linkify": True, "html": html}).enable("linkify")
    assert plain.render(text).count("<a ") == 1
    md = MarkdownIt("commonmark", {"linkify": True, "html": html}).enable("linkify")
    md.linkify = wrap(md.linkify)
    out = md.render(text)
    assert out.startswith('<p><a href="http://xn--fsq/%E2%80%AE">http://\u4f8b/%25E2%2580%25AE</a>'), out
    assert out.count("<a ") == 1 and out.endswith(":l·l.om</p>\n"), out
    # a link of its own after a reference outside the library's match is still linked
    assert md.render("see &amp; l·l.om").count("<a ") == 1


@pytest.mark.parametrize("text", ["http://t/**l·l.om**\u202a", "see http://t/**l·l.om**\u202a ok"])
def test_no_link_inside_emphasis_within_the_librarys_match(text: str) -> None:
    """Issue 32 (fuzz, seed 29): linkify-it links ``http://t/**l·l.om**\\u202a`` whole; the upgrade's
    link ends before ``**`` (emphasis markdown-it parses on), and the core rule linked ``l·l.om``
    inside the strong emphasis, inside linkify-it's match.  It is text now; a link of its own
    inside emphasis is still linked."""
    plain = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    assert plain.render(text).count("<a ") == 1
    md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    md.linkify = wrap(md.linkify)
    out = md.render(text)
    assert out.count("<a ") == 1 and "<strong>l·l.om</strong>" in out, out
    assert md.render("see **l·l.om** ok").count("<a ") == 1
