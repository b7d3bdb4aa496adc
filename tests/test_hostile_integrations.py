"""Issue 21: the upgrade is never less safe than the library it upgrades.

One test (or a few) per item of the issue, each on the input the issue gives; the
differential tests (tests/test_differential_integrations.py) cover generated input.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uts58_adapt import linkify_html

html5lib = pytest.importorskip("html5lib")


def _elements(html: str) -> list[tuple[str, tuple[str, ...]]]:
    """(tag, attribute names) of every element an HTML5 parser finds in the fragment ``html``."""
    root = html5lib.parseFragment(html, namespaceHTMLElements=False)
    return [(el.tag, tuple(sorted(el.attrib))) for el in root.iter() if isinstance(el.tag, str)][1:]


def _hrefs(html: str) -> list[str]:
    root = html5lib.parseFragment(html, namespaceHTMLElements=False)
    return [el.get("href") for el in root.iter("a")]


# --- 1. schemes the library never links ---------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "ms-msdt://evilhost://x.com",
        "file://127.0.0.1%www.x.com",
        "search-ms://x.com",
        "ms-officecmd://example.com/x",
        "ssh://example.com",
        "see FILE://example.com/a",
    ],
)
def test_django_never_links_a_scheme_it_does_not_link(text: str) -> None:
    pytest.importorskip("django")
    from django.utils.html import urlize as django_urlize

    from uts58_adapt.integrations.django import urlize

    for href in _hrefs(urlize(text)):
        assert href.lower().startswith(("http://", "https://", "mailto:")), (text, href)
    for href in _hrefs(django_urlize(text)):  # Django alone: only its own schemes
        assert href.lower().startswith(("http://", "https://", "mailto:"))


SCHEME = st.from_regex(r"\A[A-Za-z][A-Za-z0-9+.\-]{0,10}\Z") | st.sampled_from(
    ["file", "ms-msdt", "search-ms", "ms-officecmd", "tel", "ssh", "javascript", "HtTpS", "mailto"]
)
HOSTISH = st.sampled_from(["x.com", "127.0.0.1", "evilhost", "l·lx.com", "www.x.com", "a@x.com", "[::1]"])
JOIN = st.sampled_from(["://", ":", "://evilhost://", "://127.0.0.1%", ":///", "://x.org/"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scheme=SCHEME, join=JOIN, host=HOSTISH, tail=st.sampled_from(["", "/a", ".", "/x?y#z"]))
def test_django_and_jinja2_hrefs_have_the_librarys_schemes(scheme: str, join: str, host: str, tail: str) -> None:
    pytest.importorskip("django")
    pytest.importorskip("jinja2")
    from jinja2 import Environment

    from uts58_adapt.integrations.django import urlize
    from uts58_adapt.integrations.jinja2 import install

    text = f"see {scheme}{join}{host}{tail} ok"
    for href in _hrefs(urlize(text)):
        assert href.lower().startswith(("http://", "https://", "mailto:")), (text, href)
    env = Environment(autoescape=True)
    install(env)
    for href in _hrefs(env.from_string("{{ v|urlize }}").render(v=text)):
        assert href.lower().startswith(("http://", "https://", "mailto:")), (text, href)


# --- 2. markup already marked safe: never a link inside a tag ---------------------------------


def test_jinja2_safe_markup_no_anchor_in_an_attribute() -> None:
    pytest.importorskip("jinja2")
    from jinja2 import Environment

    from uts58_adapt.integrations.jinja2 import install

    value = '<abbr title="x/onmouseover=alert`1`//@b.com">hover me</abbr>'
    env = Environment(autoescape=True)
    alone = env.from_string("{{ x|safe|urlize }}").render(x=value)
    install(env)
    upgraded = env.from_string("{{ x|safe|urlize }}").render(x=value)
    assert upgraded == alone == value
    assert _elements(upgraded) == [("abbr", ("title",))]


def test_jinja2_safe_markup_still_links_its_text() -> None:
    pytest.importorskip("jinja2")
    from jinja2 import Environment

    from uts58_adapt.integrations.jinja2 import install

    env = Environment(autoescape=True)
    install(env)
    out = env.from_string("{{ x|safe|urlize }}").render(x='<b title="a.com">see https://example.com/αβ.</b>')
    assert out == '<b title="a.com">see <a href="https://example.com/αβ" rel="noopener">https://example.com/αβ</a>.</b>'


def test_django_safe_markup_no_live_img() -> None:
    pytest.importorskip("django")
    from django.utils.html import urlize as django_urlize
    from django.utils.safestring import mark_safe

    from uts58_adapt.integrations.django import urlize

    value = mark_safe('<abbr title="mail:a@b.com <img src=x onerror=alert(1)>">hi</abbr>')
    assert _elements(django_urlize(value)) == [("abbr", ("title",))]
    assert _elements(urlize(value)) == [("abbr", ("title",))]
    assert urlize(value) == str(value)


def test_django_safe_markup_still_links_its_text() -> None:
    pytest.importorskip("django")
    from django.utils.safestring import mark_safe

    from uts58_adapt.integrations.django import urlize

    out = urlize(mark_safe('<i title="x.com">to σωκράτης@example.com.</i> <a href="/">a.com</a>'))
    assert out == (
        '<i title="x.com">to <a href="mailto:σωκράτης@example.com">σωκράτης@example.com</a>.</i> <a href="/">a.com</a>'
    )


# --- 3. linkify_html: an anchor only where an HTML5 parser sees text ---------------------------


@pytest.mark.parametrize(
    "fragment",
    [
        '<p title="><b>see http://x.com/onmouseover=alert(1)// now</b></p>',
        '<b title=">see http://example.com <img src=x onerror=alert(1)>',
        "<![CDATA[ x ]]> see http://x.com/onmouseover=alert(1)// <b>",
        '<xmp><b title="</xmp>http://x.com/onmouseover=alert(1)//">',
        '<noembed><b title="</noembed>http://x.com/onmouseover=alert(1)//">',
        '<iframe><b title="</iframe>http://x.com/onmouseover=alert(1)//">',
        '<noframes><b title="</noframes>http://x.com/onmouseover=alert(1)//">',
        '<noscript><b title="</noscript>http://x.com/onmouseover=alert(1)//">',
        '<svg><style><b title="</style>http://x.com/onmouseover=alert(1)//">',
        '<math><mtext><b title="</math>http://x.com/onmouseover=alert(1)//">',
        '<select><xmp><b title="</xmp>http://x.com/onmouseover=alert(1)//">',
        '<script><!--<script></script>http://x.com/"</script>',
        "<title>http://x.com</title><textarea>http://x.com</textarea><style>http://x.com</style>",
        "<plaintext>http://x.com/<b>",
        '<!-- http://x.com/ --!> <!--> http://a.com/"> <!---> http://b.com/">',
        "<? http://x.com/ > </ http://x.com/ > <!x http://x.com/>",
        '</p title="http://x.com/>"> <p title=http://x.com/>',
    ],
)
def test_linkify_html_no_new_markup(fragment: str) -> None:
    out = linkify_html(fragment)
    before = _elements(fragment)
    after = _elements(out)
    added = list(after)
    for element in before:
        added.remove(element)
    assert all(element == ("a", ("dir", "href")) for element in added), (fragment, out)
    assert not any(name.startswith("on") for _, names in after for name in names), out


def test_linkify_html_links_text_around_raw_text_elements() -> None:
    out = linkify_html("<style>a.com</style>see http://x.com/ <script>'</script>then https://y.com/")
    assert out == (
        '<style>a.com</style>see <a href="http://x.com/" dir="ltr">http://x.com/</a> '
        '<script>\'</script>then <a href="https://y.com/" dir="ltr">https://y.com/</a>'
    )


def test_linkify_html_bad_markup_is_passed_through() -> None:
    assert linkify_html("<![>") == "<![>"
    assert linkify_html("<![> http://x.com/") == '<![> <a href="http://x.com/" dir="ltr">http://x.com/</a>'
    assert linkify_html("a < b http://x.com/ <") == 'a &lt; b <a href="http://x.com/" dir="ltr">http://x.com/</a> &lt;'


# --- 4. bleach: a character reference at the end of a link stays whole --------------------------


@pytest.mark.parametrize("entity", ["&amp;", "&gt;", "&quot;", "&#38;", "&#x26;"])
def test_bleach_entity_at_the_end_of_a_link(entity: str) -> None:
    pytest.importorskip("bleach")
    from bleach.linkifier import Linker

    from uts58_adapt import wrap

    text = f"see https://example.com/?a=1{entity} ok"
    assert wrap(Linker()).linkify(text) == Linker().linkify(text)


# --- 5. markdown-it: a link never crosses inline HTML ---------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "see http://example.com/a<b>c</b>d now",
        "see hTtPs://x.com/<script>alert(1)</script> now",
        "see https://x.com/a<img src=x onerror=alert(1)> now",
    ],
)
def test_markdown_it_link_stops_at_inline_html(text: str) -> None:
    from markdown_it import MarkdownIt

    from uts58_adapt import wrap

    md = MarkdownIt("commonmark", {"linkify": True, "html": True}).enable("linkify")
    alone = md.render(text)
    md.linkify = wrap(md.linkify)
    assert md.render(text) == alone


# --- 7. no Bidi_Control character decoded into display text -------------------------------------


def test_markdown_it_display_text_has_no_decoded_bidi_control() -> None:
    from markdown_it import MarkdownIt

    from uts58_adapt import wrap
    from uts58_adapt.html import BIDI_CONTROLS

    md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    md.linkify = wrap(md.linkify)
    out = md.render("see %E2%80%AEmoc.evil@bank.com and %e2%81%a6x@bank.com ok")
    # linkify-it links no email where the local part holds "%" (issue 32 "new N1": neither does the upgrade) ...
    assert "<a " not in out
    assert not BIDI_CONTROLS.intersection(out), ascii(out)
    # ... and where it does, "%" is written %25 in the href (RFC 6068 §2, issue 32.6), so no mail client decodes it.
    out = md.render("see a&moc=evil@bank.com ok")
    assert 'href="mailto:a%26moc%3Devil@bank.com"' in out


# --- found by the differential tests -------------------------------------------------------------


def test_urlize_fallback_href_keeps_its_scheme() -> None:
    """A link whose path holds "://" is not taken for a schemed URL (href without a scheme)."""
    pytest.importorskip("jinja2")
    from jinja2 import Environment

    from uts58_adapt.integrations.jinja2 import install

    env = Environment(autoescape=True)
    install(env)
    for text in ("x.com/\u202ehttp://x.com", "see www.x.com/\u202e/http://y.com ok"):
        for href in _hrefs(env.from_string("{{ v|urlize }}").render(v=text)):
            assert href.startswith(("http://", "https://")), (text, href)


@pytest.mark.parametrize("text", ["http://x.com/a)**b**", "see http://x.com/a)*b* and `c`"])
def test_rest_of_the_librarys_span_stays_inert(text: str) -> None:
    """Markdown the library swallowed into its link does not come alive when the link is shortened."""
    mistune = pytest.importorskip("mistune")
    markdown = pytest.importorskip("markdown")
    pytest.importorskip("pymdownx")
    from uts58_adapt.integrations import mistune as mistune_integration

    for render in (
        mistune.create_markdown(plugins=[mistune_integration.url]),
        lambda t: markdown.markdown(t, extensions=["uts58_adapt.integrations.magiclink"]),
    ):
        tags = [tag for tag, _ in _elements(render(text))]
        assert "strong" not in tags and "em" not in tags, render(text)
        assert tags.count("a") == 1


def test_jinja2_markup_link_with_a_quote_gets_no_new_attribute() -> None:
    """Jinja2 puts a '"' of Markup text into the href unescaped: the upgrade's anchor never does."""
    pytest.importorskip("jinja2")
    from jinja2 import Environment

    from uts58_adapt.integrations.jinja2 import install

    env = Environment(autoescape=True)
    install(env)
    for value in ('<b>x</b>dx.com/"onmouseover=alert(1)', 'see x.com/"onmouseover=alert(1)'):
        out = env.from_string("{{ v|safe|urlize }}").render(v=value)
        for tag, names in _elements(out):
            assert not any(name.startswith("on") for name in names), (value, out)
            assert tag != "a" or set(names) <= {"href", "rel", "target"}, (value, out)
