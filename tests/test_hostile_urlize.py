"""Issue 32, items 6, 7, 8, 12 and 13: the HTML integrations never do what their library would not.

Each test runs the issue's input through the upgrade and through the library alone (or
reads the input itself) and compares what an HTML5 parser (html5lib's DOM builder, which
keeps foster-parented text) makes of them: no element or attribute the library does not
write, the visible text unchanged, and the hrefs checked against the input, not against
the code under test.
"""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import unquote

import pytest

from uts58_adapt import detect, linkify, linkify_html

html5lib = pytest.importorskip("html5lib")

#: The characters with Bidi_Control=Yes (PropList.txt), written here rather than imported.
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def _dom(fragment: str) -> Any:
    return html5lib.parseFragment(fragment, treebuilder="dom")


def _walk(node: Any) -> list[Any]:
    out = [node]
    for child in node.childNodes:
        out += _walk(child)
    return out


def _elements(fragment: str) -> list[tuple[str, tuple[str, ...]]]:
    """(tag, attribute names) of every element in the fragment, in document order."""
    return [
        (n.tagName, tuple(sorted(n.attributes.keys()))) for n in _walk(_dom(fragment)) if n.nodeType == n.ELEMENT_NODE
    ]


def _anchors(fragment: str) -> list[tuple[str, str]]:
    """(href, text) of every ``a`` element, as a browser reads them."""
    return [
        (n.getAttribute("href"), "".join(t.data for t in _walk(n) if t.nodeType == t.TEXT_NODE))
        for n in _walk(_dom(fragment))
        if n.nodeType == n.ELEMENT_NODE and n.tagName == "a"
    ]


def _visible(fragment: str) -> str:
    return "".join(n.data for n in _walk(_dom(fragment)) if n.nodeType == n.TEXT_NODE)


def _percent(ch: str) -> str:
    return "".join(f"%{byte:02X}" for byte in ch.encode("utf-8"))


def _no_new_markup(upgraded: str, library: str) -> None:
    """Every element of ``upgraded`` is one ``library`` has (tag and attribute names), or an anchor
    shaped as one of the library's own anchors (or, when it wrote none, ``href`` and its own attributes)."""
    known = set(_elements(library))
    for element in _elements(upgraded):
        assert element in known or (element[0] == "a" and "href" in element[1]), (element, upgraded, library)
    for name in {name for _, names in _elements(upgraded) for name in names}:
        assert not name.startswith("on"), upgraded


# --- 7. A Bidi_Control character written as a character reference is neutralized too ------------------

BIDI_TEXTS = [
    "see http://example.com/a&#x202e;b ok",
    "see http://example.com/a&#8238;gpj.exe ok",
    "see https://example.com/&rlm;x&amp;y ok",
    "see x.com/&#X202E;gpj.exe ok",
    "mail a&#x202e;b@example.com ok",
]


def _bidi_shown(fragment_text: str) -> str:
    """The visible text with each Bidi_Control character shown as its percent-escape (what the upgrade
    promises in a link; the only visible difference the check allows)."""
    return "".join(_percent(ch) if ch in BIDI else ch for ch in fragment_text)


def _check_bidi(upgraded: str, library: str, source: str) -> None:
    _no_new_markup(upgraded, library)
    for href, text in _anchors(upgraded):
        assert not any(ch in BIDI for ch in href + text), (source, upgraded)
    # A Bidi_Control reads as its percent-escape (in a link) or as it did (outside): nothing else changes.
    assert _bidi_shown(_visible(upgraded)) == _bidi_shown(_visible(library)), (source, upgraded, library)


@pytest.mark.parametrize("text", BIDI_TEXTS)
def test_bleach_bidi_reference_in_a_link_is_not_live(text: str) -> None:
    pytest.importorskip("bleach")
    from bleach.linkifier import Linker

    from uts58_adapt import wrap

    for linker in (Linker(), Linker(parse_email=True)):
        _check_bidi(wrap(linker).linkify(text), linker.linkify(text), text)


@pytest.mark.parametrize("text", BIDI_TEXTS)
def test_django_safe_bidi_reference_in_a_link_is_not_live(text: str) -> None:
    pytest.importorskip("django")
    from django.utils.html import urlize as django_urlize
    from django.utils.safestring import mark_safe

    from uts58_adapt.integrations.django import urlize

    _check_bidi(urlize(mark_safe(text)), django_urlize(mark_safe(text)), text)
    _check_bidi(urlize(text, autoescape=False), django_urlize(text, autoescape=False), text)


@pytest.mark.parametrize("text", BIDI_TEXTS)
def test_jinja2_safe_bidi_reference_in_a_link_is_not_live(text: str) -> None:
    pytest.importorskip("jinja2")
    from jinja2 import Environment

    from uts58_adapt.integrations.jinja2 import install

    env = Environment(autoescape=True)
    library = env.from_string("{{ x|safe|urlize }}").render(x=text)
    install(env)
    _check_bidi(env.from_string("{{ x|safe|urlize }}").render(x=text), library, text)


# --- 8. Character references in trusted markup are read once -----------------------------------------


def _check_read_once(upgraded: str, library: str, source: str) -> None:
    _no_new_markup(upgraded, library)
    assert _visible(upgraded) == _visible(source), (source, upgraded)
    anchors = _anchors(upgraded)
    assert anchors, upgraded
    for href, text in anchors:
        assert "&amp;" not in href and "&amp;" not in text, (source, upgraded)
        # The href is the link's visible text, a scheme added (the library's http(s), for a bare domain).
        assert href.endswith(text.replace("｡", ".")) or href.endswith(text), (href, text)


@pytest.mark.parametrize(
    "text",
    [
        "see https://en.wikipedia.org/wiki/Hawai'i&amp;x ok",
        "see example｡com/?a=1&amp;b=2 ok",
        "see https://example.com/a'b&#38;c&lt;d ok",
    ],
)
def test_django_safe_references_are_read_once(text: str) -> None:
    pytest.importorskip("django")
    from django.utils.html import urlize as django_urlize
    from django.utils.safestring import mark_safe

    from uts58_adapt.integrations.django import urlize

    library = django_urlize(mark_safe(text))
    upgraded = urlize(mark_safe(text))
    _check_read_once(upgraded, library, text)
    # Django's own link (up to its word's end, "'") is the start of the upgrade's, in href and text.
    assert _visible(library) == _visible(upgraded)
    for (href, shown), (own_href, own_shown) in zip(_anchors(upgraded), _anchors(library), strict=False):
        assert shown.startswith(own_shown) and href.startswith(own_href), (upgraded, library)
    _check_read_once(urlize(text, autoescape=False), django_urlize(text, autoescape=False), text)


@pytest.mark.parametrize(
    "text",
    [
        "see example｡com/?a=1&amp;b=2 ok",
        'see https://example.com/?q="x"&amp;y=1 ok',
        "see https://en.wikipedia.org/wiki/Hawai&#x27;i&amp;x&quot;y ok",
        # A reference ending the link stays whole: its ";" is no trailing Soft character.
        "see https://example.com/?a=1&amp; ok",
        "see http://localhost:8000/?a=1&amp;b=http://127.0.0.1&quot; ok",
    ],
)
def test_jinja2_safe_references_are_read_once(text: str) -> None:
    pytest.importorskip("jinja2")
    from jinja2 import Environment

    from uts58_adapt.integrations.jinja2 import install

    env = Environment(autoescape=True)
    library = env.from_string("{{ x|safe|urlize }}").render(x=text)
    install(env)
    _check_read_once(env.from_string("{{ x|safe|urlize }}").render(x=text), library, text)


# --- 12. bleach: no raw "<" in an href --------------------------------------------------------------------


@pytest.mark.parametrize("text", ["see x.com/<1", "see http://x.com/a<1>b ok", "see x.com/(<1) ok"])
def test_bleach_href_never_holds_a_raw_angle_bracket(text: str) -> None:
    pytest.importorskip("bleach")
    from bleach.linkifier import Linker

    from uts58_adapt import wrap

    library = Linker().linkify(text)
    upgraded = wrap(Linker()).linkify(text)
    _no_new_markup(upgraded, library)
    assert _visible(upgraded) == _visible(library)
    # In the markup itself: no "<" or ">" inside an attribute value (bleach's url_re stops before them).
    for tag in re.findall(r"<a\s[^>]*>", upgraded):
        for value in re.findall(r'="([^"]*)"', tag):
            assert "<" not in value and ">" not in value, upgraded
    for href, shown in _anchors(upgraded):
        assert unquote(href).endswith(shown), (href, shown)


# --- 13. Jinja2 extra_schemes: a hostless link keeps its scheme ---------------------------------------------


@pytest.mark.parametrize("text", ["call tel:+1\u202e2 now", "call tel:+1&#x202e;2 now", "call tel:+1\u200f555 now"])
@pytest.mark.parametrize("safe", [False, True])
def test_jinja2_extra_scheme_link_keeps_its_scheme(text: str, safe: bool) -> None:
    pytest.importorskip("jinja2")
    from jinja2 import Environment

    from uts58_adapt.integrations.jinja2 import install

    template = "{{ x|safe|urlize(extra_schemes=['tel:']) }}" if safe else "{{ x|urlize(extra_schemes=['tel:']) }}"
    env = Environment(autoescape=True)
    library = env.from_string(template).render(x=text)
    install(env)
    upgraded = env.from_string(template).render(x=text)
    _no_new_markup(upgraded, library)
    assert [href.split(":")[0] for href, _ in _anchors(upgraded)] == [
        href.split(":")[0] for href, _ in _anchors(library)
    ]
    for href, shown in _anchors(upgraded):
        assert href.startswith("tel:+1") and href == shown and not any(ch in BIDI for ch in href)


# --- 6. mailto: hrefs: the address is percent-encoded as RFC 6068 §2 requires --------------------------------

MAILTO_TEXTS = [
    "see ?subject=Urgent&body=Pay_now&bcc=boss@corp.com ok",
    "see a#b%41/c=d@example.com ok",
    "see mailto:x?cc=boss@corp.com ok",
]
#: RFC 6068 §2: in the addr-spec these must be percent-encoded (of the characters an email link may hold).
_RFC6068 = set("%/?#&=")


def _address(text: str) -> str:
    return text.split()[1]


def _check_mailto(href: str, address: str) -> None:
    assert href[:7].lower() == "mailto:", href
    encoded = href[7:]
    local, _, domain = encoded.rpartition("@")
    assert not _RFC6068.intersection(local.replace("%", "")) and re.fullmatch(r"(?:[^%]|%[0-9A-F]{2})*", local), href
    assert unquote(local) + "@" + domain == address.removeprefix("mailto:"), (href, address)


@pytest.mark.parametrize("text", MAILTO_TEXTS)
@pytest.mark.parametrize("backend", ["linkify-it", "urlextract"])
def test_detect_mailto_href_is_encoded(text: str, backend: str) -> None:
    links = [link for link in detect(text, backend) if link.kind == "email"]
    assert [link.text for link in links] == [_address(text)]
    _check_mailto(links[0].href, _address(text))


@pytest.mark.parametrize("text", MAILTO_TEXTS)
def test_linkify_and_linkify_html_mailto_href_is_encoded(text: str) -> None:
    for out in (linkify(text), linkify_html(text), linkify_html(html.escape(text))):
        ((href, shown),) = _anchors(out)
        assert shown == _address(text)
        _check_mailto(href, _address(text))
        assert _visible(out) == text


@pytest.mark.parametrize("text", [*MAILTO_TEXTS, "see a&b=c@example.com ok", "see σ&b=c@example.com ok"])
def test_markdown_it_mailto_href_is_encoded(text: str) -> None:
    """Where linkify-it links an email in the run (its ASCII form), the href is encoded; where it
    links none (``?``, ``#``, ``%`` end its local parts), the upgrade links none either (issue 32 "new N1")."""
    pytest.importorskip("markdown_it")
    from markdown_it import MarkdownIt

    from uts58_adapt import wrap

    alone = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    md.linkify = wrap(md.linkify)
    library = _anchors(alone.render(text.replace("σ", "a")))
    # (markdown-it shows the text percent-decoded, "mailto:" kept: its own display, not checked here.)
    anchors = _anchors(md.render(text))
    if not library:
        assert anchors == []
        return
    ((href, _shown),) = anchors
    _check_mailto(href, _address(text))


def test_django_mailto_href_is_encoded() -> None:
    pytest.importorskip("django")
    from django.utils.html import urlize as django_urlize

    from uts58_adapt.integrations.django import urlize

    for text in ("σ?cc=boss@corp.com", "see σ#x&y=1@example.com ok"):
        upgraded = urlize(text)
        _no_new_markup(upgraded, django_urlize("a@example.com"))
        assert _visible(upgraded) == text
        ((href, shown),) = _anchors(upgraded)
        _check_mailto(href, shown)


def test_django_bare_domain_after_a_scheme_keeps_djangos_href() -> None:
    """Django links ``tel:x.com/…`` as a bare ``.com`` domain (href ``http://tel:x.com/…``): with a
    Bidi_Control in it, the upgrade's anchor (built from a probe) keeps Django's href scheme."""
    pytest.importorskip("django")
    from django.utils.html import urlize as django_urlize

    from uts58_adapt.integrations.django import urlize

    text = "tel:x.com/\u202e"
    library, upgraded = django_urlize(text), urlize(text)
    _no_new_markup(upgraded, library)
    assert [href.split(":")[0] for href, _ in _anchors(upgraded)] == [
        href.split(":")[0] for href, _ in _anchors(library)
    ]


# --- Fuzz finding N7: a reference bleach keeps is not broken by the percent-escape after it --------

#: A numeric reference without ";", then one character and ";": bleach keeps the reference (and drops the character).
CUT_REFERENCE_TEXTS = ["\u3048.jp/&#xf\u202a;", "see x.jp/&#15\u202e;b ok", "see x.jp/&#x41\u200f; ok"]


@pytest.mark.parametrize("text", CUT_REFERENCE_TEXTS)
def test_bleach_reference_before_a_bidi_control_stays_a_reference(text: str) -> None:
    pytest.importorskip("bleach")
    from bleach.linkifier import Linker

    from uts58_adapt import wrap

    library, upgraded = Linker().linkify(text), wrap(Linker()).linkify(text)
    _no_new_markup(upgraded, library)
    for href, shown in _anchors(upgraded):
        assert not any(ch in BIDI for ch in href + shown), (text, upgraded)
    # What bleach alone shows: the reference read, the character before its ";" dropped (no "&#xf" as text).
    assert _visible(upgraded) == _visible(library), (text, upgraded, library)
    assert "&#" not in _visible(upgraded)


# --- Fuzz finding N8: no link inside a word a browser shows joined across a tag ---------------------

#: Jinja2 splits Markup into words at white space only: a word that holds a tag is never linked.
JOINED_WORDS = [
    "x<b>hTtP://ao",
    "see x<b>http://example.com/a</b> ok",
    "see <i>a</i>www.example.com ok",
    "http://example.com<b>x</b>",
    "see http://example.com.<b>evil.net</b>",
    "a<!-- c -->http://example.com b",
    "x</div>http://example.com",  # an end tag of an element not open is ignored
    "x<td>http://example.com",  # a table part outside a table too
    "x<!--<p>-->http://example.com",
]


@pytest.mark.parametrize("text", JOINED_WORDS)
def test_jinja2_safe_no_link_inside_a_word_joined_across_a_tag(text: str) -> None:
    pytest.importorskip("jinja2")
    from jinja2 import Environment

    from uts58_adapt.integrations.jinja2 import install

    env = Environment(autoescape=True)
    library = env.from_string("{{ x|safe|urlize }}").render(x=text)
    install(env)
    upgraded = env.from_string("{{ x|safe|urlize }}").render(x=text)
    assert _anchors(library) == []
    assert _anchors(upgraded) == [], (text, upgraded)
    assert _elements(upgraded) == _elements(library) and _visible(upgraded) == _visible(text)


#: Words a browser shows apart (white space, or an element that ends a word: ``p``, ``br``) that Jinja2,
#: splitting at white space only, reads as one word with the tag and links nothing in (issue 32: the
#: fuzz findings ``a<p>me.com`` and ``<e>ftp:&#7``): the library decides where links start, in its words.
JINJA2_WORDS_WITH_A_TAG = [
    "a<p>me.com",
    "<p>me.com ok",
    "x <b>http://example.com/a</b> y",
    "<p>x</p><p>http://example.com/a</p>",
    "a <!-- c -->http://example.com",
    "x<br>http://example.com",
    "x</p>http://example.com",
    "<p>Visit http://example.com</p>",
    "http://example.com<br>",
]


def _jinja2_pair(text: str, policies: dict[str, Any] | None = None) -> tuple[str, str]:
    pytest.importorskip("jinja2")
    from jinja2 import Environment

    from uts58_adapt.integrations.jinja2 import install

    alone, env = Environment(autoescape=True), Environment(autoescape=True)
    for e in (alone, env):
        e.policies.update(policies or {})
    install(env)
    source = "{{ x|safe|urlize }}"
    return alone.from_string(source).render(x=text), env.from_string(source).render(x=text)


@pytest.mark.parametrize("text", JINJA2_WORDS_WITH_A_TAG)
def test_jinja2_safe_links_nothing_in_a_word_with_a_tag_jinja2_does_not_link(text: str) -> None:
    library, upgraded = _jinja2_pair(text)
    assert _anchors(library) == []
    assert _anchors(upgraded) == [], (text, upgraded)
    assert upgraded == text


@pytest.mark.parametrize(
    ("text", "linked"),
    [("2e.com/</p>le.org", ["2e.com/"]), ("see ab.com/</p>cd.com ok", ["ab.com/"]), ("xy.org/<br>yz.org", ["xy.org/"])],
)
def test_jinja2_safe_links_no_word_after_a_tag_inside_its_own_link(text: str, linked: list[str]) -> None:
    """Jinja2 links ``2e.com/</p>le.org`` whole, from the word's start: ``le.org`` after the tag is
    inside that link, and is not linked on its own (fuzz seed 22, issue 32)."""
    library, upgraded = _jinja2_pair(text)
    assert len(_anchors(library)) == 1 and _anchors(library)[0][0].startswith("https://" + linked[0])
    assert [shown for _, shown in _anchors(upgraded)] == linked


def test_jinja2_safe_hostless_link_the_library_reads_otherwise_is_not_pointed_elsewhere() -> None:
    """Jinja2 links ``tel:>&#10`` (|safe, ``extra_schemes``) whole; read, the upgrade's link is ``tel:>``
    and a line feed, which Jinja2 links with no ``tel:`` href: its anchor had the href
    ``https://tel:&gt;%0A`` (fuzz seed 27, issue 32).  No anchor is made then."""
    policies = {"urlize.extra_schemes": ["tel:", "ftp:"], "urlize.rel": "nofollow"}
    library, upgraded = _jinja2_pair("tel:>&#10", policies)
    assert [href for href, _ in _anchors(library)] == ["tel:>\n"]
    assert all(not href.startswith("https://tel:") for href, _ in _anchors(upgraded)), upgraded
    # a hostless link Jinja2 keeps its scheme for is linked as before
    assert [href for href, _ in _anchors(_jinja2_pair("call tel:+1", policies)[1])] == ["tel:+1"]


def test_jinja2_safe_extra_scheme_after_a_tag_is_not_linked() -> None:
    """``<e>ftp:&#7``: Jinja2 reads the word ``<e>ftp:&#7`` (no ``ftp:`` at its start): no link, and so no
    control in an href (the upgrade linked ``ftp:&#7`` from the text run)."""
    policies = {"urlize.extra_schemes": ["tel:", "ftp:"], "urlize.rel": "nofollow"}
    library, upgraded = _jinja2_pair("<e>ftp:&#7", policies)
    assert _anchors(library) == [] and upgraded == library == "<e>ftp:&#7"
    # The same run alone, a word of its own, is Jinja2's link.
    assert _anchors(_jinja2_pair("<e> ftp:x", policies)[1]) == [("ftp:x", "ftp:x")]


@pytest.mark.parametrize(
    ("text", "hrefs"),
    [
        ("x <b> http://example.com/a </b> y", ["http://example.com/a"]),
        ("<p>x</p> <p> http://example.com/a </p>", ["http://example.com/a"]),
        ("a <!-- c --> http://example.com", ["http://example.com"]),
        ("<p>Visit http://example.com </p>", ["http://example.com"]),
        # Jinja2 links the word with its tag (a broken anchor): the upgrade links the text before the tag.
        ("http://example.com/a<br>", ["http://example.com/a"]),
        ("see http://x.com/a</p> ok", ["http://x.com/a"]),
    ],
)
def test_jinja2_safe_links_a_word_apart_from_its_tags_or_one_jinja2_links(text: str, hrefs: list[str]) -> None:
    library, upgraded = _jinja2_pair(text)
    assert _anchors(library), library  # Jinja2 links something in that word
    assert [href for href, _ in _anchors(upgraded)] == hrefs, upgraded
    assert _visible(upgraded) == _visible(text)


@pytest.mark.parametrize("text", [*JOINED_WORDS, *JINJA2_WORDS_WITH_A_TAG, "<e>ftp:&#7"])
def test_django_safe_links_as_django_does_across_a_tag(text: str) -> None:
    """Django splits words at ``<`` and ``>`` too: across a tag the upgrade links what Django links
    (``me.com`` in ``a<p>me.com``: the text runs are Django's words there, issue 32)."""
    pytest.importorskip("django")
    from django.utils.html import urlize as django_urlize
    from django.utils.safestring import mark_safe

    from uts58_adapt.integrations.django import urlize

    library, upgraded = django_urlize(mark_safe(text)), urlize(mark_safe(text))
    _no_new_markup(upgraded, library)
    assert [shown for _, shown in _anchors(upgraded)] == [shown for _, shown in _anchors(library)], (text, upgraded)
    assert _visible(upgraded) == _visible(library)


# --- Fuzz rerun: a reference to a control in a link built from a probe (trusted markup) is not lost ---

#: In a link with a Bidi_Control character (built from a probe), references to controls and noncharacters.
CONTROL_REFERENCE_TEXTS = [
    "see http://example.com/\u202e&#xf ok",
    "see http://example.com/a&#x202e;&#6;b ok",
    "see http://example.com/\u202e&#x7f;&#xfdd0; ok",
]
_CONTROLS = re.compile("[\x00-\x1f\x7f\ufdd0-\ufdef]")


def _check_controls(upgraded: str, library: str, source: str) -> None:
    _no_new_markup(upgraded, library)
    for href, shown in _anchors(upgraded):
        assert _CONTROLS.search(href) is None and not any(ch in BIDI for ch in href + shown), (source, upgraded)
    # What a browser reads in the input (html5lib: a reference to a control is that control), bidi escaped.
    assert _visible(upgraded) == _bidi_shown(_visible(source)), (source, upgraded)


@pytest.mark.parametrize("text", CONTROL_REFERENCE_TEXTS)
def test_jinja2_safe_control_references_are_kept(text: str) -> None:
    pytest.importorskip("jinja2")
    from jinja2 import Environment

    from uts58_adapt.integrations.jinja2 import install

    env = Environment(autoescape=True)
    library = env.from_string("{{ x|safe|urlize }}").render(x=text)
    install(env)
    _check_controls(env.from_string("{{ x|safe|urlize }}").render(x=text), library, text)


@pytest.mark.parametrize("text", CONTROL_REFERENCE_TEXTS)
def test_django_safe_control_references_are_kept(text: str) -> None:
    pytest.importorskip("django")
    from django.utils.html import urlize as django_urlize
    from django.utils.safestring import mark_safe

    from uts58_adapt.integrations.django import urlize

    _check_controls(urlize(mark_safe(text)), django_urlize(mark_safe(text)), text)


def test_jinja2_safe_word_with_a_tag_is_asked_with_the_extra_schemes() -> None:
    """Jinja2 links ``ftp:x<b>`` (balanced ``<>``) with the extra scheme ``ftp:`` and nothing without it:
    the answers for one word are kept per configuration."""
    policies = {"urlize.extra_schemes": ["ftp:"]}
    for _ in range(2):  # (the second time from the kept answers)
        library, upgraded = _jinja2_pair("see ftp:x<b> ok", policies)
        assert _anchors(library) and [href for href, _ in _anchors(upgraded)] == ["ftp:x"], upgraded
        library, upgraded = _jinja2_pair("see ftp:x<b> ok")
        assert _anchors(library) == [] and upgraded == library == "see ftp:x<b> ok"


def test_jinja2_safe_word_with_a_tag_asks_another_installed_filter() -> None:
    """A filter installed before the upgrade (not Jinja2's own) is asked about the word as it is."""
    pytest.importorskip("jinja2")
    from jinja2 import Environment
    from jinja2.filters import do_urlize

    from uts58_adapt.integrations.jinja2 import install

    env = Environment(autoescape=True)
    env.filters["urlize"] = lambda *args, **kwargs: do_urlize(*args, **kwargs)
    env.filters["urlize"].jinja_pass_arg = do_urlize.jinja_pass_arg  # type: ignore[attr-defined]
    install(env)
    render = env.from_string("{{ x|safe|urlize }}").render
    assert render(x="a<p>me.com") == "a<p>me.com"
    assert render(x="a<p> me.com") == 'a<p> <a href="https://me.com" rel="noopener">me.com</a>'


# --- Fuzz seed 6: a scheme written with a reference is no scheme to the library (issue 32) ----------

#: Django links these as a bare ``.com``/``.org`` domain (href ``http://file://…``); with the reference read
#: (``&#47`` is ``/``) the link built from a probe (it holds a Bidi_Control) started with ``file://``.
HIDDEN_SCHEMES = [
    "file:&#47/.com/\u202c",
    "ftp:/&#x2f.org/\u2066",
    "ms-msdt:&#x2f/.org/\u202e",
    "see ms-msdt:&#47;/.org/\u202e ok",
]


@pytest.mark.parametrize("text", HIDDEN_SCHEMES)
@pytest.mark.parametrize("safe", [True, False])
def test_django_markup_scheme_hidden_by_a_reference_stays_the_librarys(text: str, safe: bool) -> None:
    pytest.importorskip("django")
    from django.utils.html import urlize as django_urlize
    from django.utils.safestring import mark_safe

    from uts58_adapt.integrations.django import urlize

    value = mark_safe(text) if safe else text
    library = django_urlize(value, autoescape=False)
    upgraded = urlize(value, autoescape=False)
    assert [href for href, _ in _anchors(library)] == [href for href, _ in _anchors(upgraded)], upgraded
    assert all(href.startswith("http://") for href, _ in _anchors(upgraded))
    assert _visible(upgraded).replace("%E2%80%AC", "\u202c").replace("%E2%81%A6", "\u2066").replace(
        "%E2%80%AE", "\u202e"
    ) == _visible(library)


def test_django_no_ideographic_domain_inside_the_librarys_dot_form_link() -> None:
    """Django links ``p/.com/;ם.me`` whole (the host ``p``): in ``p/．com/;ם。me`` the domain
    ``ם。me`` is inside that link of the library's, not one it starts (fuzz seed 16, issue 32);
    a domain the library's link starts at stays linked. (Django 6 reads a host by its
    ``DomainNameValidator``: it links nothing in ``p/.com/;ם.me``, and the upgrade neither.)"""
    django = pytest.importorskip("django")
    from django.utils.html import urlize as django_urlize

    from uts58_adapt.integrations.django import urlize

    assert ("<a " in django_urlize("p/.com/;\u05dd.me)")) == (django.VERSION[0] < 6)
    assert "<a " not in urlize("p/\uff0ecom/;\u05dd\u3002me)\uff61")
    assert _anchors(urlize("(\u4f8b\u3048\u3002com)")) == [("http://\u4f8b\u3048\u3002com", "\u4f8b\u3048\u3002com")]
