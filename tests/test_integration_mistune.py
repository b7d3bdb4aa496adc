"""``uts58_adapt.integrations.mistune.url``: mistune's url plugin with UTS #58 links."""

from __future__ import annotations

import re

import pytest

mistune = pytest.importorskip("mistune")

from uts58_adapt.integrations.mistune import url  # noqa: E402


def md(text: str, **kwargs: object) -> str:
    return mistune.create_markdown(plugins=[url], **kwargs)(text)


def test_acceptance_url() -> None:
    assert md("see https://example.com/αβ(γ/δ)ρς.") == (
        '<p>see <a href="https://example.com/%CE%B1%CE%B2(%CE%B3/%CE%B4">https://example.com/αβ(γ/δ</a>)ρς.</p>\n'
    )


def test_no_email_and_apostrophe_kept() -> None:
    assert md("to σωκράτης@example.com") == "<p>to σωκράτης@example.com</p>\n"  # mistune links no bare email
    assert md("see https://e.com/it's-x now") == (
        '<p>see <a href="https://e.com/it%27s-x">https://e.com/it\'s-x</a> now</p>\n'
    )


def test_refinement_extends_and_trims() -> None:
    assert md("(http://x.com/a_(b)).") == '<p>(<a href="http://x.com/a_(b)">http://x.com/a_(b)</a>).</p>\n'
    assert md("http://x.com/path。 next") == '<p><a href="http://x.com/path">http://x.com/path</a>。 next</p>\n'


def test_mistunes_own_rules_apply() -> None:
    assert md("`http://x.com/a` and [t](http://y.com) and [see http://z.com/a] b") == (
        '<p><code>http://x.com/a</code> and <a href="http://y.com">t</a> and [see '
        '<a href="http://z.com/a">http://z.com/a</a>] b</p>\n'
    )
    assert md("[http://z.com/a](http://w.com)") == '<p><a href="http://w.com">http://z.com/a</a></p>\n'
    assert md("x.com and www.x.com") == "<p>x.com and www.x.com</p>\n"  # no fuzzy links
    assert md("see https://e.com/x.", escape=False) == '<p>see <a href="https://e.com/x">https://e.com/x</a>.</p>\n'


def test_escaping() -> None:
    out = md('http://e.com/"onclick=alert(1)<script> javascript:alert(1)//x.com http://e.com/a\u202eb')
    assert "<script>" not in out
    for tag in re.findall(r"<a [^>]*>", out):
        assert re.fullmatch(r'<a href="https?://[^"<>\u202e]*">', tag), tag


def test_mistunes_own_hosts_stay_linked() -> None:
    from uts58_adapt.integrations.mistune import url_plugin

    assert md("see http://localhost:8000/x and http://intranet/αβ(γ/δ)ρς.") == (
        '<p>see <a href="http://localhost:8000/x">http://localhost:8000/x</a> and '
        '<a href="http://intranet/%CE%B1%CE%B2(%CE%B3/%CE%B4">http://intranet/αβ(γ/δ</a>)ρς.</p>\n'
    )
    strict = mistune.create_markdown(plugins=[url_plugin(strict_hosts=True)])
    assert strict("see http://localhost:8000/x and https://x.com/") == (
        '<p>see http://localhost:8000/x and <a href="https://x.com/">https://x.com/</a></p>\n'
    )


def test_url_inside_an_inline_html_link_leaves_the_closing_tag() -> None:
    # mistune's own fixture (tests/fixtures/url.txt): no link is made inside a link, and the
    # ``</a>`` after the URL stays markup (regression found by tools/upstream_compat.py).
    text = 'visit <a href="/foo">https://lepture.com/</a>'
    assert md(text, escape=False) == '<p>visit <a href="/foo">https://lepture.com/</a></p>\n'


def test_no_link_starts_where_mistunes_pattern_would_not_match() -> None:
    # Fuzz campaign seed 8 ("starts inside the library's link"): mistune links the whole
    # "http://e!http://x".  The refined link ends at "!"; the rest stays text, since mistune's
    # pattern needs two characters after "//" and would not link "http://x" there either.
    plain = mistune.create_markdown(plugins=["url"])
    assert plain("see !http://x ok") == "<p>see !http://x ok</p>\n"
    assert md("see http://e!http://x ok") == '<p>see <a href="http://e">http://e</a>!http://x ok</p>\n'
    # Where mistune's pattern would match, the next link in the rest is made, as before.
    assert plain("see )http://xy ok") == '<p>see )<a href="http://xy">http://xy</a> ok</p>\n'
    assert md("see http://e)http://xy ok") == (
        '<p>see <a href="http://e">http://e</a>)<a href="http://xy">http://xy</a> ok</p>\n'
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("*t**http://@*", "<p><em>t</em>*http://@*</p>\n"),
        ("_e_http://;_", "<p><em>e</em>http://;_</p>\n"),
        ("_http://e_<_http://b@", '<p><em><a href="http://e_">http://e_</a>&lt;</em>http://b@</p>\n'),
    ],
)
def test_emphasis_next_to_a_rejected_link_is_mistunes(text: str, expected: str) -> None:
    # Fuzz campaign seeds 18 and 19 (issue 32): mistune 3.4 resolves emphasis over its tokens,
    # where its link token counts as one non-text character.  A link the upgrade rejects (an
    # empty host) stays text that counts the same way: mistune's emphasis is kept, only the
    # anchor goes.
    if not hasattr(mistune.create_markdown().inline, "finalize_tokens"):
        pytest.skip("mistune before 3.4 parses emphasis on the source")
    library = mistune.create_markdown(plugins=["url"])(text)
    assert re.sub(r'<a href="[^"]*(?:@\*|;_|b@)">([^<]*)</a>', r"\1", library) == expected
    assert md(text) == expected
    assert md(text, escape=False) == expected


def test_rejected_link_leaves_only_mistunes_token_types() -> None:
    ast = mistune.create_markdown(renderer="ast", plugins=[url])("*t**http://@* ok")
    assert ast[0]["children"][0] == {"type": "emphasis", "children": [{"type": "text", "raw": "t"}]}
    assert {token["type"] for token in ast[0]["children"][1:]} == {"text"}
    assert "".join(token["raw"] for token in ast[0]["children"][1:]) == "*http://@* ok"


@pytest.mark.parametrize("text", ["\\&#60;", "\\&#0;", "see \\&#60; http://a.com/ ok", "*t**http://@* \\&#60;"])
def test_an_escaped_ampersand_stays_text_with_escape_false(text: str) -> None:
    # Fuzz campaign seed 22: mistune keeps the text of "\\&" and of "#60;" apart, so that the
    # renderer (escape=False decodes references in a text token) shows "&#60;"; the plugin's
    # tokens were joined, and showed "<".
    library = mistune.create_markdown(plugins=["url"], escape=False)(text)
    assert "&amp;#" in library
    assert md(text, escape=False) == re.sub(r'<a href="http://@\*">([^<]*)</a>', r"\1", library)


@pytest.mark.parametrize("text", ["[*t**http://@*](/u)", "[_a_http://@x_](/u)", "[*t**http://@*"])
def test_a_rejected_link_in_link_text_is_text_as_mistunes_link_is(text: str) -> None:
    # In link text that "](…)" closes, mistune makes its url links plain text (no emphasis
    # inside, counted as text around it); the text of a rejected link follows it there too.
    if not hasattr(mistune.create_markdown().inline, "finalize_tokens"):
        pytest.skip("mistune before 3.4 parses emphasis on the source")
    library = mistune.create_markdown(plugins=["url"])(text)
    assert md(text) == re.sub(r'<a href="http://@\*">([^<]*)</a>', r"\1", library)


@pytest.mark.parametrize("text", ["http://w#[](&gt&#xb;)", "see http://a.com/x&amp;) ok", "http://a.com/(&#x41;)"])
def test_no_reference_completed_past_mistunes_match_with_escape_false(text: str) -> None:
    # Fuzz campaign seed 24: mistune's match ends before the ";" of "&#xb;" (its pattern's last
    # character is no ";"), so "&#xb" and ";)" are shown apart, as written.  A link taking ";)"
    # (a ")" UTS #58 keeps) made "&#xb;" one reference in its text, which the renderer decodes.
    library = mistune.create_markdown(plugins=["url"], escape=False)(text)
    out = md(text, escape=False)
    shown = re.sub(r"<[^>]*>", "", out)
    assert shown == re.sub(r"<[^>]*>", "", library), out
