"""``uts58_adapt.linkify_html``: links in the text nodes of an HTML fragment, safe through nh3."""

from __future__ import annotations

import re

import pytest

import uts58_adapt
from uts58_adapt import linkify_html


def test_public_api() -> None:
    assert "linkify_html" in uts58_adapt.__all__
    assert uts58_adapt.linkify_html is linkify_html


def test_acceptance_url_and_email() -> None:
    assert linkify_html("<p>see https://example.com/αβ(γ/δ)ρς.</p>") == (
        '<p>see <a href="https://example.com/αβ(γ/δ" dir="ltr">https://example.com/αβ(γ/δ</a>)ρς.</p>'
    )
    assert linkify_html("<i>σωκράτης@example.com</i>") == (
        '<i><a href="mailto:σωκράτης@example.com" dir="ltr">σωκράτης@example.com</a></i>'
    )


def test_apostrophe_in_path_kept() -> None:
    assert linkify_html("x https://e.com/it's-x y") == (
        'x <a href="https://e.com/it&#x27;s-x" dir="ltr">https://e.com/it&#x27;s-x</a> y'
    )
    # an apostrophe written as a character reference is the same text
    assert linkify_html("x https://e.com/it&#39;s-x y") == linkify_html("x https://e.com/it's-x y")


def test_existing_markup_untouched() -> None:
    src = (
        "<a href=\"y.com\" title='t.com'>z.com</a><pre>q.com</pre><code>c.com</code><script>if (a<b) s.com</script>"
        '<style>t.com{}</style><!-- u.com --><img alt="i.com" src=x.com><br/><textarea>r.com</textarea>'
        "<pre><b>nested.com</b></pre>&nbsp;&copy; no links here"
    )
    assert linkify_html(src) == src


def test_options_apply() -> None:
    assert linkify_html("<pre>q.com</pre>", skip_tags=()) == '<pre><a href="https://q.com" dir="ltr">q.com</a></pre>'
    assert linkify_html("a@b.com", schemes=("https",)) == "a@b.com"
    assert linkify_html("<b>x.com</b>", backend="bleach") == '<b><a href="https://x.com" dir="ltr">x.com</a></b>'
    with pytest.raises(ValueError, match="schemes must not include 'javascript'"):
        linkify_html("x.com", schemes=("javascript",))
    with pytest.raises(TypeError):
        linkify_html(b"x.com")  # type: ignore[arg-type]


def test_text_is_escaped_and_nh3_keeps_the_links() -> None:
    nh3 = pytest.importorskip("nh3")
    src = '<p>&lt;script&gt;x.com/"onmouseover=alert(1)&lt;/script&gt; javascript:alert(1)//e.com q.com/a\u202eb</p>'
    out = linkify_html(src)
    assert "<script>" not in out
    for tag in re.findall(r"<a [^>]*>", out):
        assert re.fullmatch(r'<a href="https?://[^"<>\u202e]*" dir="ltr">', tag), tag
    assert "\u202e" not in "".join(re.findall(r"<a [^>]*>[^<]*</a>", out))
    cleaned = nh3.clean(out)
    assert cleaned.count("<a ") == out.count("<a ") == 3
    assert 'href="https://e.com"' in cleaned
    assert '<a href="https://q.com/a%E2%80%AEb" rel="noopener noreferrer">q.com/a%E2%80%AEb</a>' in cleaned
    assert "javascript" not in "".join(re.findall(r'href="[^"]*"', cleaned))


def test_nh3_keeps_the_bidi_isolation_when_dir_is_allowed() -> None:
    """The README's nh3 call keeps ``dir="ltr"`` (the anchor's bidi isolation); nh3's defaults drop it."""
    nh3 = pytest.importorskip("nh3")
    out = linkify_html("<p>Pay here: \u202e (evil.com/moc.knab)</p>")
    assert '<a href="https://evil.com/moc.knab" dir="ltr">evil.com/moc.knab</a>' in out
    assert 'dir="ltr"' not in nh3.clean(out)
    kept = nh3.clean(out, attributes={**nh3.ALLOWED_ATTRIBUTES, "a": {*nh3.ALLOWED_ATTRIBUTES["a"], "dir"}})
    assert '<a href="https://evil.com/moc.knab" dir="ltr" rel="noopener noreferrer">evil.com/moc.knab</a>' in kept


def test_strict_hosts_is_detects() -> None:
    # linkify_html runs detect()'s own backends: §1.4's registrable-domain rule by default
    assert linkify_html("<p>http://localhost:8000/x</p>") == "<p>http://localhost:8000/x</p>"
    assert linkify_html("<p>http://localhost:8000/x</p>", strict_hosts=False) == (
        '<p><a href="http://localhost:8000/x" dir="ltr">http://localhost:8000/x</a></p>'
    )
