"""``markdown.markdown(text, extensions=["uts58_adapt.integrations.magiclink"])``: magiclink with UTS #58 links."""

from __future__ import annotations

import html
import re

import pytest

markdown = pytest.importorskip("markdown")
pytest.importorskip("pymdownx.magiclink")

EXT = "uts58_adapt.integrations.magiclink"


def md(text: str, **config: object) -> str:
    return markdown.markdown(text, extensions=[EXT], extension_configs={EXT: config} if config else {})


def test_acceptance_url() -> None:
    assert md("see https://example.com/αβ(γ/δ)ρς.") == (
        '<p>see <a href="https://example.com/αβ(γ/δ">https://example.com/αβ(γ/δ</a>)ρς.</p>'
    )
    assert "αβ(γ/δ)ρς</a>" in markdown.markdown("see https://example.com/αβ(γ/δ)ρς.", extensions=["pymdownx.magiclink"])


def _anchors(out: str) -> list[tuple[str, str]]:
    return [(html.unescape(h), html.unescape(t)) for h, t in re.findall(r'<a href="([^"]*)">([^<]*)</a>', out)]


def test_emails() -> None:
    out = md("to σωκράτης@example.com, mailto:x@ab.org or (jane@example.org).")
    assert _anchors(out) == [
        ("mailto:σωκράτης@example.com", "σωκράτης@example.com"),
        ("mailto:x@ab.org", "x@ab.org"),
        ("mailto:jane@example.org", "jane@example.org"),
    ]
    assert "mailto:<a" in out  # as magiclink: the address after "mailto:" is the link
    assert "&#963;" in out  # magiclink's entity encoding of addresses still applies


def test_apostrophe_and_options() -> None:
    assert md("see www.ab.com/it's-x.") == "<p>see <a href=\"http://www.ab.com/it's-x\">www.ab.com/it's-x</a>.</p>"
    assert md("see https://ab.com/a_(b)).", hide_protocol=True) == (
        '<p>see <a href="https://ab.com/a_(b)">ab.com/a_(b)</a>).</p>'
    )
    # magiclink's shortener still runs on refined links
    assert md("https://github.com/facelessuser/pymdown-extensions/issues/1。", repo_url_shortener=True) == (
        '<p><a class="magiclink magiclink-github magiclink-issue" '
        'href="https://github.com/facelessuser/pymdown-extensions/issues/1" '
        'title="GitHub Issue: facelessuser/pymdown-extensions #1">facelessuser/pymdown-extensions#1</a>。</p>'
    )
    assert md("`http://c.com/x` [l](http://q.com)") == '<p><code>http://c.com/x</code> <a href="http://q.com">l</a></p>'


def test_escaping() -> None:
    out = md('http://e.com/"onclick=alert(1)<script> javascript:alert(1)//x.com e@x.com/ http://e.com/a\u202eb')
    assert '<a href="http://e.com/a%E2%80%AEb">http://e.com/a%E2%80%AEb</a>' in out
    for tag in re.findall(r"<a [^>]*>", out):
        assert re.fullmatch(r'<a href="[^"<>]*">', tag), tag
        assert "javascript" not in html.unescape(tag)


def test_magiclinks_own_hosts_stay_linked() -> None:
    assert md("see http://localhost:8000/x and http://intranet/αβ(γ/δ)ρς.") == (
        '<p>see <a href="http://localhost:8000/x">http://localhost:8000/x</a> and '
        '<a href="http://intranet/αβ(γ/δ">http://intranet/αβ(γ/δ</a>)ρς.</p>'
    )
    assert md("see http://localhost:8000/x", strict_hosts=True) == "<p>see http://localhost:8000/x</p>"
    # an email on a domain magiclink's pattern accepts (a TLD outside the ICANN list)
    address = "σωκράτης@printer.lan"
    assert _anchors(md(f"to {address}")) == [(f"mailto:{address}", address)]
    assert md("to σωκράτης@printer.lan", strict_hosts=True) == "<p>to σωκράτης@printer.lan</p>"


def test_host_with_underscore_stays_whole() -> None:
    """magiclink links ``www.foo_bar.baz.com``; WHATWG URL accepts ``_`` in a host (its UTS #46
    step runs without STD3 rules), so the upgrade keeps the library's host instead of cutting
    it to ``www.foo``, a host the library never proposed."""
    assert md("see www.foo_bar.baz.com ok") == (
        '<p>see <a href="http://www.foo_bar.baz.com">www.foo_bar.baz.com</a> ok</p>'
    )


def test_underscore_emphasis_before_an_email_stays_emphasis() -> None:
    """A ``_`` that opens emphasis inside the run before an "@" (after ``!`` or a backtick) is
    not taken into the local part: magiclink alone keeps the emphasis (issue 32 campaign, seed 1)."""
    for text, address in (("!_#y@z.m?_", "#y@z.m"), ("`_&b@c.o;_", "&b@c.o")):
        alone = markdown.markdown(text, extensions=["pymdownx.magiclink"])
        assert "<em>" in alone, alone
        out = md(text)
        assert "<em>" in out, (text, out)
        anchors = _anchors(out)
        assert len(anchors) == 1 and anchors[0][1] in (address, address.lstrip("#&")), (text, out)


def test_the_rest_of_magiclinks_span_stays_inert_inside_emphasis() -> None:
    # Fuzz campaign seed 9: inside emphasis, Python-Markdown joins the text after the link to the
    # rest of magiclink's span (the anchor's tail) and parses the two again: a mention inside
    # magiclink's own link came alive as a GitHub link (class, title), and so did "**b**".
    options = {"social_url_shortener": True, "repo_url_shorthand": True}
    alone = markdown.markdown(
        "*ftp://a&#;@c.*", extensions=["pymdownx.magiclink"], extension_configs={"pymdownx.magiclink": options}
    )
    assert alone == '<p><em><a href="ftp://a&amp;#;@c">ftp://a&amp;#;@c</a>.</em></p>'
    assert md("*ftp://a&#;@c.*", **options) == '<p><em><a href="ftp://a">ftp://a</a>&amp;#;@c.</em></p>'
    assert md("_see http://example.com/a)**b** ok_") == (
        '<p><em>see <a href="http://example.com/a">http://example.com/a</a>)**b** ok</em></p>'
    )


def test_an_underscore_magiclink_takes_into_its_email_is_no_emphasis_for_a_non_ascii_one() -> None:
    """magiclink links ``_a@e.m`` from the ``_`` (no emphasis): with a non-ASCII local part the
    upgrade links ``_ς@e.m`` the same way, not ``ς@e.m`` inside emphasis the ``_`` opens
    (fuzz seed 19, issue 32)."""
    alone = markdown.markdown("*a*_a@e.m/_", extensions=["pymdownx.magiclink"])
    assert "<em>a</em><a " in alone and alone.endswith("</a>/_</p>")
    assert _anchors(md("*a*_\u03c2@e.m/_")) == [("mailto:_\u03c2@e.m", "_\u03c2@e.m")]
    assert md("*a*_\u03c2@e.m/_").endswith("</a>/_</p>")


@pytest.mark.parametrize("text", ["_)_a&b@c.o", "_>__a%b@c.c/__", "_`>_a%b@c.c/_"])
def test_no_email_starts_right_after_an_underscore_before_a_letter(text: str) -> None:
    """magiclink links ``b@c.o`` in ``_)_a&b@c.o`` (its local part holds no ``&``), after a letter,
    so the ``_`` before ``a`` closes no emphasis there.  UTS #58's address starts at ``a`` (or at
    the ``_``): a link there puts its placeholder after the ``_``, where it may close emphasis
    (Python-Markdown's ``(?!\\w)``), and with the ``_`` in it the emphasis the ``_`` opens is
    gone.  No start keeps magiclink's emphasis: the address is not linked, and the page is
    magiclink's with its link as text (fuzz seeds 23 to 29, issue 32)."""
    alone = markdown.markdown(text, extensions=["pymdownx.magiclink"])
    out = md(text)
    assert "<a " in alone and "<a " not in out, out
    assert re.sub(r"<a [^>]*>([^<]*)</a>", r"\1", html.unescape(alone)) == html.unescape(out)
    # with no "_" before it, the address is linked as UTS #58 reads it
    assert _anchors(md(")a&b@c.o")) == [("mailto:a&b@c.o", "a&b@c.o")]


def test_an_email_magiclink_links_is_one_that_holds_the_at() -> None:
    """In ``/r.g@e.m/t@e.c`` magiclink links nothing (``/`` and ``r.`` before its local parts); the
    probe's ``g@e.m`` overlaps UTS #58's ``e.m/t@e.c`` but is another address (fuzz seed 23)."""
    assert "<a " not in markdown.markdown("/r.g@e.m/t@e.c", extensions=["pymdownx.magiclink"])
    assert "<a " not in md("/r.g@e.m/t@e.c")
    assert _anchors(md("see r.g@e.m/t ok")) == [("mailto:r.g@e.m", "r.g@e.m")]


@pytest.mark.parametrize("text", ["__%b@c.m/_", "__#y@z.o`_"])
def test_a_run_of_underscores_before_an_email_opens_emphasis_as_in_magiclink(text: str) -> None:
    """The second ``_`` of ``__%b@c.m/_`` opens the emphasis the last ``_`` closes, in magiclink
    alone; the first is of the same run, and opens nothing it could close (fuzz seed 25, after
    the seed 23 rule kept the run in the address)."""
    alone = markdown.markdown(text, extensions=["pymdownx.magiclink"])
    assert alone.startswith("<p>_<em>"), alone
    out = md(text)
    assert out.startswith("<p>_<em>"), out
    assert len(_anchors(out)) == 1 and not _anchors(out)[0][1].startswith("_")


@pytest.mark.parametrize("text", ["_)_&b@c.e", "_\u2069_&b@c.e"])
def test_an_underscore_that_closes_emphasis_in_magiclink_stays_out_of_the_address(text: str) -> None:
    """Before ``&`` the second ``_`` closes the emphasis in magiclink alone (its ``(?!\\w)``): the
    seed 23 rule (keep the ``_`` in the address) applies only before a letter or digit, where it
    closes nothing in magiclink (fuzz seed 28, issue 32)."""
    alone = markdown.markdown(text, extensions=["pymdownx.magiclink"])
    assert alone.startswith("<p><em>"), alone
    out = md(text)
    assert out.startswith("<p><em>"), out
    assert [shown for _, shown in _anchors(out)] == ["&b@c.e"]


def test_a_reference_python_markdown_keeps_stays_whole_in_the_link() -> None:
    """magiclink links ``ftp://x/&lta;>`` whole, and Python-Markdown writes ``&lta;`` as it is, which
    a browser reads ``<a;``.  The refined link ended before the ``;``, and its ``&lta`` came out
    ``&amp;lta``: the reference stays whole in the link, as ``&amp;`` does (fuzz seed 31)."""
    assert "ftp://x/&lta;&gt;</a>" in markdown.markdown("ftp://x/&lta;>", extensions=["pymdownx.magiclink"])
    assert md("ftp://x/&lta;>") == '<p><a href="ftp://x/&lta;">ftp://x/&lta;</a>&gt;</p>'
