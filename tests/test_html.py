"""uts58_adapt.html.linkify: escaped HTML with anchors for allowed schemes only.

Two kinds of tests: with the real backends (end to end), and with ``detect`` replaced
by a fixed list of links, so the HTML layer is checked on links no backend would
produce (a ``javascript:`` href, quotes in an href).  Expected HTML is hand-written.
"""

from __future__ import annotations

import pytest

import uts58_adapt.html as html_mod
from uts58_adapt.html import linkify, render
from uts58_adapt.link import Link

BACKENDS = ["linkify-it", "urlextract"]


def fixed_links(monkeypatch: pytest.MonkeyPatch, *links: Link) -> None:
    monkeypatch.setattr(html_mod, "detect", lambda text, backend, max_length, **_options: list(links))


# --- end to end -----------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_text_around_links_is_escaped(backend):
    text = "<b>\"Tom\" & 'Jerry'</b> example.com"
    assert linkify(text, backend) == (
        "&lt;b&gt;&quot;Tom&quot; &amp; &#x27;Jerry&#x27;&lt;/b&gt; "
        '<a href="https://example.com" dir="ltr">example.com</a>'
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_attribute_and_link_text_are_escaped(backend):
    text = 'https://example.com/it\'s"x"y?a=1&b=<c>'
    escaped = "https://example.com/it&#x27;s&quot;x&quot;y?a=1&amp;b=&lt;c&gt;"
    assert linkify(text, backend) == f'<a href="{escaped}" dir="ltr">{escaped}</a>'


@pytest.mark.parametrize("backend", BACKENDS)
def test_refined_end_and_non_ascii_email(backend):
    assert linkify("see example.com/αβ(γ/δ)ρς", backend) == (
        'see <a href="https://example.com/αβ(γ/δ" dir="ltr">example.com/αβ(γ/δ</a>)ρς'
    )
    assert linkify("σωκράτης@example.com.", backend) == (
        '<a href="mailto:σωκράτης@example.com" dir="ltr">σωκράτης@example.com</a>.'
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_bidi_controls_are_percent_escaped_in_href_and_text(backend):
    # U+202E RIGHT-TO-LEFT OVERRIDE is UTF-8 E2 80 AE; U+2067 RIGHT-TO-LEFT ISOLATE is E2 81 A7.
    text = "go https://example.com/a\u202eb\u2067c now"
    shown = "https://example.com/a%E2%80%AEb%E2%81%A7c"
    assert linkify(text, backend) == f'go <a href="{shown}" dir="ltr">{shown}</a> now'


@pytest.mark.parametrize("backend", BACKENDS)
def test_javascript_is_never_an_href(backend):
    text = "javascript:alert(1) <a href=javascript:alert(2)>"
    out = linkify(text, backend)
    assert "<a" not in out
    assert out == "javascript:alert(1) &lt;a href=javascript:alert(2)&gt;"


def test_schemes_option_selects_anchors():
    text = "mailto:bob@example.com https://example.com ftp://example.com/x"
    assert linkify(text) == (
        '<a href="mailto:bob@example.com" dir="ltr">mailto:bob@example.com</a> '
        '<a href="https://example.com" dir="ltr">https://example.com</a> ftp://example.com/x'
    )
    assert linkify(text, schemes=("ftp", "HTTPS:")) == (
        'mailto:bob@example.com <a href="https://example.com" dir="ltr">https://example.com</a> '
        '<a href="ftp://example.com/x" dir="ltr">ftp://example.com/x</a>'
    )
    assert linkify(text, schemes=()) == text


def test_render_uses_the_links_given():
    text = "a <b> example.com/x y"
    links = [Link(6, 19, "example.com/x", "url", "https://example.com/x", None)]
    assert render(text, links) == 'a &lt;b&gt; <a href="https://example.com/x" dir="ltr">example.com/x</a> y'
    # a link whose scheme is not allowed stays escaped text
    bad = [Link(6, 19, "example.com/x", "url", "javascript:alert(1)", None)]
    assert render(text, bad) == "a &lt;b&gt; example.com/x y"


def test_plain_text_without_links():
    assert linkify("") == ""
    assert linkify("1 < 2 && 3 > 2") == "1 &lt; 2 &amp;&amp; 3 &gt; 2"


# --- the HTML layer alone -------------------------------------------------------------


def test_script_schemes_in_hrefs_stay_text(monkeypatch):
    text = "x javascript:alert(1) y"
    fixed_links(monkeypatch, Link(2, 21, "javascript:alert(1)", "url", "javascript:alert(1)"))
    assert linkify(text) == text
    fixed_links(monkeypatch, Link(2, 21, "javascript:alert(1)", "url", " JavaScript:alert(1)"))
    assert linkify(text) == text  # no scheme at the start: not an anchor either


def test_script_schemes_cannot_be_allowed():
    for scheme in ("javascript", "JavaScript:", "vbscript", "data"):
        with pytest.raises(ValueError, match="schemes"):
            linkify("x", schemes=(scheme,))


def test_href_quotes_cannot_break_the_attribute(monkeypatch):
    text = 'see example.com/"onmouseover="x'
    fixed_links(monkeypatch, Link(4, 31, text[4:], "url", 'https://example.com/"onmouseover="x'))
    assert linkify(text) == (
        'see <a href="https://example.com/&quot;onmouseover=&quot;x" dir="ltr">'
        "example.com/&quot;onmouseover=&quot;x</a>"
    )


def test_every_bidi_control_is_escaped(monkeypatch):
    controls = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    escaped = (
        "%D8%9C%E2%80%8E%E2%80%8F%E2%80%AA%E2%80%AB%E2%80%AC%E2%80%AD%E2%80%AE%E2%81%A6%E2%81%A7%E2%81%A8%E2%81%A9"
    )
    text = "https://example.com/" + controls + " " + controls
    fixed_links(monkeypatch, Link(0, 32, text[:32], "url", text[:32]))
    shown = "⟨U+061C⟩⟨U+200E⟩⟨U+200F⟩⟨U+202A⟩⟨U+202B⟩⟨U+202C⟩⟨U+202D⟩⟨U+202E⟩⟨U+2066⟩⟨U+2067⟩⟨U+2068⟩⟨U+2069⟩"
    anchor = f'<a href="https://example.com/{escaped}" dir="ltr">https://example.com/{escaped}</a>'
    # Outside the link they are shown, not obeyed (issue 13.2) ...
    assert linkify(text) == f"{anchor} {shown}"
    # ... unless escape_bidi=False, which keeps them as text; the anchor is still an isolate.
    assert linkify(text, escape_bidi=False) == f"{anchor} {controls}"


def test_text_around_links_is_bidi_escaped_by_default():
    assert linkify("Pay here: \u202e (evil.com/moc.knab)") == (
        'Pay here: ⟨U+202E⟩ (<a href="https://evil.com/moc.knab" dir="ltr">evil.com/moc.knab</a>)'
    )
    assert linkify("a\u2067b &") == "a⟨U+2067⟩b &amp;"


def test_type_errors_name_the_argument():
    with pytest.raises(TypeError, match="text"):
        linkify(b"example.com")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="backend"):
        linkify("example.com", 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="schemes"):
        linkify("example.com", schemes="https")
    with pytest.raises(TypeError, match="schemes"):
        linkify("example.com", schemes=(b"https",))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_length"):
        linkify("example.com", max_length="10")  # type: ignore[arg-type]


def test_unknown_backend_is_a_value_error():
    with pytest.raises(ValueError, match="backend"):
        linkify("example.com", "no-such-backend")


def test_max_length_is_passed_on():
    text = "https://example.com/" + "a" * 30
    assert linkify(text, max_length=20) == text
    assert linkify(text, max_length=50) == f'<a href="{text}" dir="ltr">{text}</a>'
