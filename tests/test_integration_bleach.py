"""``uts58_adapt.wrap(bleach.linkifier.Linker(...))``: bleach's linkify, refined to UTS #58."""

from __future__ import annotations

import re

import pytest

bleach_linkifier = pytest.importorskip("bleach.linkifier")

import uts58_adapt  # noqa: E402

Linker = bleach_linkifier.Linker


def test_same_type_and_acceptance_url() -> None:
    linker = uts58_adapt.wrap(Linker())
    assert isinstance(linker, Linker)
    assert linker.linkify("see https://example.com/αβ(γ/δ)ρς.") == (
        'see <a href="https://example.com/αβ(γ/δ" rel="nofollow">https://example.com/αβ(γ/δ</a>)ρς.'
    )
    # bleach alone takes the whole run
    assert 'href="https://example.com/αβ(γ/δ)ρς"' in Linker().linkify("see https://example.com/αβ(γ/δ)ρς.")


def test_tracker_bugs_fixed() -> None:
    linker = uts58_adapt.wrap(Linker())
    assert linker.linkify("[https://www.example.org/]") == (
        '[<a href="https://www.example.org/" rel="nofollow">https://www.example.org/</a>]'
    )
    assert linker.linkify("(http://ex.mp/).") == '(<a href="http://ex.mp/" rel="nofollow">http://ex.mp/</a>).'


def test_email_only_with_parse_email() -> None:
    assert uts58_adapt.wrap(Linker()).linkify("write σωκράτης@example.com") == "write σωκράτης@example.com"
    out = uts58_adapt.wrap(Linker(parse_email=True)).linkify("write σωκράτης@example.com.")
    assert out == (
        'write <a href="mailto:%CF%83%CF%89%CE%BA%CF%81%CE%AC%CF%84%CE%B7%CF%82@example.com">σωκράτης@example.com</a>.'
    )


def test_apostrophe_in_path_kept() -> None:
    out = uts58_adapt.wrap(Linker()).linkify("see https://example.com/it's-here now")
    assert out == 'see <a href="https://example.com/it\'s-here" rel="nofollow">https://example.com/it\'s-here</a> now'


def test_callbacks_skip_tags_and_recognized_tags_apply() -> None:
    def target_blank(attrs: dict, new: bool = False) -> dict:
        attrs[(None, "target")] = "_blank"
        return attrs

    def drop_example_org(attrs: dict, new: bool = False) -> dict | None:
        return None if "example.org" in attrs[(None, "href")] else attrs

    linker = uts58_adapt.wrap(
        Linker(callbacks=[target_blank, drop_example_org], skip_tags={"pre"}, recognized_tags={"p", "pre"})
    )
    out = linker.linkify("<p>x.com/a(b)c) example.org</p><pre>y.com</pre><blink>z.com</blink>")
    assert out == (
        '<p><a href="http://x.com/a(b)c" target="_blank">x.com/a(b)c</a>) example.org</p><pre>y.com</pre>'
        '&lt;blink&gt;<a href="http://z.com" target="_blank">z.com</a>&lt;/blink&gt;'
    )


def test_configuration_is_shared() -> None:
    original = Linker()
    linker = uts58_adapt.wrap(original)
    original.skip_tags = {"b"}
    assert linker.linkify("<b>x.com</b>") == "<b>x.com</b>"
    assert uts58_adapt.wrap(linker) is linker


def test_custom_url_re_still_decides() -> None:
    only_org = bleach_linkifier.build_url_re(tlds=["org"])
    linker = uts58_adapt.wrap(Linker(url_re=only_org))
    assert linker.linkify("x.com and y.org/ä'b.") == (
        'x.com and <a href="http://y.org/ä\'b" rel="nofollow">y.org/ä\'b</a>.'
    )


def test_escaping() -> None:
    linker = uts58_adapt.wrap(Linker(parse_email=True))
    out = linker.linkify('javascript:alert(1)//x.com <script>a.com</script> "q" x.com/?a=<b>&c="d" e.com/\u202eevil')
    assert "javascript:" not in re.findall(r'href="[^"]*"', out)[0]
    for tag in re.findall(r"<a [^>]*>", out):
        assert re.fullmatch(r'<a( [a-z]+="[^"<>]*")+>', tag), tag
        assert "javascript:" not in tag
    assert "\u202e" not in re.sub(r"</?script>.*?</script>", "", out)
    assert 'href="http://e.com/%E2%80%AEevil"' in out


def test_bleachs_own_hosts_and_schemes_stay_linked() -> None:
    # A TLD list and protocols of the user's: what bleach links stays linked (drop-in contract,
    # only invalid hosts are rejected), and the path is still refined.
    url_re = bleach_linkifier.build_url_re(tlds=["lan", *bleach_linkifier.TLDS], protocols={"http", "https", "gopher"})
    email_re = bleach_linkifier.build_email_re(tlds=["lan", *bleach_linkifier.TLDS])
    linker = uts58_adapt.wrap(Linker(url_re=url_re, email_re=email_re, parse_email=True))
    assert linker.linkify("see wiki.lan/page, gopher://printer.lan/x and http://printer.lan/αβ(γ/δ)ρς.") == (
        'see <a href="http://wiki.lan/page" rel="nofollow">wiki.lan/page</a>, '
        '<a href="gopher://printer.lan/x" rel="nofollow">gopher://printer.lan/x</a> and '
        '<a href="http://printer.lan/αβ(γ/δ" rel="nofollow">http://printer.lan/αβ(γ/δ</a>)ρς.'
    )
    # an email bleach did not find (non-ASCII local part) on a domain whose TLD bleach knows
    assert linker.linkify("to σωκράτης@printer.lan") == (
        'to <a href="mailto:%CF%83%CF%89%CE%BA%CF%81%CE%AC%CF%84%CE%B7%CF%82@printer.lan">σωκράτης@printer.lan</a>'
    )
    assert linker.linkify("see https://example.com/αβ(γ/δ)ρς.") == (
        'see <a href="https://example.com/αβ(γ/δ" rel="nofollow">https://example.com/αβ(γ/δ</a>)ρς.'
    )


def test_strict_hosts_is_opt_in() -> None:
    url_re = bleach_linkifier.build_url_re(tlds=["lan", *bleach_linkifier.TLDS])
    original = Linker(url_re=url_re)
    strict = uts58_adapt.wrap(original, strict_hosts=True)
    assert isinstance(strict, Linker)
    assert strict.linkify("wiki.lan/page and x.com") == (
        'wiki.lan/page and <a href="http://x.com" rel="nofollow">x.com</a>'
    )
    lenient = uts58_adapt.wrap(strict, strict_hosts=False)
    assert lenient is not strict
    assert lenient.linkify("wiki.lan/page") == '<a href="http://wiki.lan/page" rel="nofollow">wiki.lan/page</a>'
    assert uts58_adapt.wrap(strict, strict_hosts=True) is strict
    assert uts58_adapt.wrap(original).linkify("wiki.lan") == '<a href="http://wiki.lan" rel="nofollow">wiki.lan</a>'


def test_dangerous_schemes_never_linked() -> None:
    url_re = bleach_linkifier.build_url_re(protocols={"http", "javascript", "data"})
    linker = uts58_adapt.wrap(Linker(url_re=url_re))
    assert linker.linkify("javascript://example.com/%0aalert(1) data://example.com/x") == (
        "javascript://example.com/%0aalert(1) data://example.com/x"
    )


def test_mailto_email_stays_linked() -> None:
    # bleach's own test_hang (found by tools/upstream_compat.py): bleach links the address after
    # mailto:, and UTS #58 links mailto:an@email.com whole; the upgrade must not drop it.
    linker = uts58_adapt.wrap(Linker(parse_email=True))
    assert linker.linkify("an@email.com<mailto:an@email.com>") == (
        '<a href="mailto:an@email.com">an@email.com</a>&lt;<a href="mailto:an@email.com">mailto:an@email.com</a>&gt;'
    )


# --- issue 24.3: what to wrap, and bleach's LinkifyFilter in a Cleaner ------------------------


def test_wrapping_bleach_linkify_function_says_what_to_wrap() -> None:
    import bleach

    with pytest.raises(TypeError, match=r"bleach\.linkifier\.Linker"):
        uts58_adapt.wrap(bleach.linkify)
    with pytest.raises(TypeError, match=r"instance.*Linker\(\)"):
        uts58_adapt.wrap(Linker)


def test_cleaner_with_the_wrapped_linkify_filter() -> None:
    from functools import partial

    from bleach.sanitizer import Cleaner

    from uts58_adapt.integrations import bleach as integration

    text = "<pre>https://example.com/αβ(γ/δ)ρς.</pre> see https://example.com/αβ(γ/δ)ρς. <script>x</script>"
    expected = (
        '<pre>https://example.com/αβ(γ/δ)ρς.</pre> see <a href="https://example.com/αβ(γ/δ" rel="nofollow">'
        "https://example.com/αβ(γ/δ</a>)ρς. &lt;script&gt;x&lt;/script&gt;"
    )
    filter_class = uts58_adapt.wrap(bleach_linkifier.LinkifyFilter)
    assert issubclass(filter_class, bleach_linkifier.LinkifyFilter)
    assert filter_class is integration.LinkifyFilter
    for filters in ([filter_class], [partial(filter_class, skip_tags=["pre"])], [integration.LinkifyFilter]):
        cleaner = Cleaner(tags={"pre"}, filters=filters)
        out = cleaner.clean(text)
        if filters[0] is filter_class or filters[0] is integration.LinkifyFilter:
            assert 'see <a href="https://example.com/αβ(γ/δ" rel="nofollow">' in out
        else:
            assert out == expected
    # bleach's own filter, for contrast: the whole run
    alone = Cleaner(tags={"pre"}, filters=[partial(bleach_linkifier.LinkifyFilter, skip_tags=["pre"])]).clean(text)
    assert "αβ(γ/δ)ρς</a>" in alone
    # a partial of bleach's filter is wrapped as a partial of the upgraded one, its arguments kept
    wrapped = uts58_adapt.wrap(partial(bleach_linkifier.LinkifyFilter, skip_tags=["pre"]))
    assert Cleaner(tags={"pre"}, filters=[wrapped]).clean(text) == expected


def test_wrapped_linkify_filter_with_strict_hosts() -> None:
    from bleach.sanitizer import Cleaner

    strict = uts58_adapt.wrap(bleach_linkifier.LinkifyFilter, strict_hosts=True)
    assert strict.strict_hosts is True
    url_re = bleach_linkifier.build_url_re(tlds=["lan", *bleach_linkifier.TLDS])
    from functools import partial

    text = "see http://printer.lan/x and http://example.com/y"
    lenient = Cleaner(filters=[partial(uts58_adapt.wrap(bleach_linkifier.LinkifyFilter), url_re=url_re)]).clean(text)
    assert lenient.count("<a ") == 2
    assert Cleaner(filters=[partial(strict, url_re=url_re)]).clean(text).count("<a ") == 1


def test_non_ascii_tlds_of_the_users_list_stay_linked() -> None:
    # The scheme probe gives bleach the host in both forms: its TLD list may name "рф", not "xn--p1ai".
    url_re = bleach_linkifier.build_url_re(tlds=["рф", "com"])
    plain = Linker(url_re=url_re)
    linker = uts58_adapt.wrap(plain)
    for text in ["see https://пример.рф/x", "see пример.рф/x", "see https://пример.com/x", "https://пример.рф"]:
        assert linker.linkify(text) == plain.linkify(text)
        assert "<a " in linker.linkify(text)
    assert linker.linkify("see https://пример.рф/путь.") == (
        'see <a href="https://пример.рф/путь" rel="nofollow">https://пример.рф/путь</a>.'
    )


@pytest.mark.parametrize(
    ("text", "reference"),
    [("x.om/`&#7;", "&#7;"), ("x.om/&#7;", "&#7;"), ("see x.com/a&nbsp;b ok", "&nbsp;"), ("x.com/p&#x0a;q", "&#x0a;")],
)
def test_a_reference_to_a_hard_character_ends_the_link(text: str, reference: str) -> None:
    """Issue 32 item 11: bleach keeps character references unread in its text nodes; a reference to
    a control or a space ends the link as the character itself does (§3.5.1: Link_Term=Hard), so no
    href holds a control (``x.om/`&#7;`` was linked whole, U+0007 in its href)."""
    import bleach

    html = uts58_adapt.wrap(bleach.linkifier.Linker(parse_email=True)).linkify(text)
    hrefs = re.findall(r'href="([^"]*)"', html)
    assert len(hrefs) == 1, html
    assert reference not in hrefs[0] and reference in html.split("</a>", 1)[1], html


def test_ideographic_host_in_the_path_of_bleachs_link_is_not_linked() -> None:
    """A domain written with ``．`` in the path of a URL bleach links (``hTtP:t@e.om/…``) is no
    host bleach links: its span covers the domain, but as a path (issue 32 campaign, seed 1)."""
    text = "hTtP:t@e.om/\u200bｅ．ｏｍ"
    out = uts58_adapt.wrap(Linker(parse_email=True)).linkify(text)
    assert out == 'hTtP:<a href="mailto:t@e.om">t@e.om</a>/\u200bｅ．ｏｍ', out
    # bleach alone, given the "." form, links the email and no host after it either
    assert Linker(parse_email=True).linkify("hTtP:t@e.om/\u200bｅ.ｏｍ") == (
        'hTtP:<a href="mailto:t@e.om">t@e.om</a>/\u200bｅ.ｏｍ'
    )
    # a domain bleach links at its start is still linked in its "." form
    linker = uts58_adapt.wrap(Linker(parse_email=True))
    assert (
        linker.linkify("see example．com ok") == 'see <a href="http://example．com" rel="nofollow">example．com</a> ok'
    )
    assert linker.linkify("see http://example。com/p ok") == (
        'see <a href="http://example。com/p" rel="nofollow">http://example。com/p</a> ok'
    )


def test_email_of_bleach_never_becomes_a_link_to_another_host() -> None:
    """bleach links ``//x#@z.co`` as an email; the refinement read ``//x`` as a scheme-relative
    URL and wrote ``http:////x#@z.co`` (host ``x``; issue 32 campaign, seed 1)."""
    assert Linker(parse_email=True).linkify("//x#@z.co") == '<a href="mailto://x%23@z.co">//x#@z.co</a>'
    out = uts58_adapt.wrap(Linker(parse_email=True)).linkify("see //x#@z.co ok")
    assert "http:" not in out and out.replace('<a href="mailto://x%23@z.co">', "").replace("</a>", "") == (
        "see //x#@z.co ok"
    ), out


def test_unterminated_reference_is_text_as_bleach_shows_it() -> None:
    """bleach reads ``&#x202e`` without its ";" as text and writes ``&amp;#x202e``; the upgrade
    took it for the reference to U+202E and showed ``%E2%80%AE`` instead (issue 32 campaign,
    seed 2, bleach Cleaner: visible text)."""
    from functools import partial

    from bleach.sanitizer import Cleaner

    from uts58_adapt.integrations.bleach import LinkifyFilter

    assert (
        Linker().linkify("x.com/&#x202e") == '<a href="http://x.com/&amp;#x202e" rel="nofollow">x.com/&amp;#x202e</a>'
    )
    assert uts58_adapt.wrap(Linker()).linkify("x.com/&#x202e") == Linker().linkify("x.com/&#x202e")
    cleaner = Cleaner(filters=[partial(LinkifyFilter, parse_email=True)])
    assert "%E2%80%AE" not in cleaner.clean("see x。com/&#x202e ok")
    assert "&amp;#x202e" in cleaner.clean("see x。com/&#x202e ok")
    # a terminated reference to a Bidi_Control character is still shown escaped (§8)
    assert "%E2%80%AE" in uts58_adapt.wrap(Linker()).linkify("x.com/a&#x202e;b")


@pytest.mark.parametrize("cleaner", [False, True])
def test_no_email_whose_local_part_goes_on_into_a_reference_before_it(cleaner: bool) -> None:
    """bleach keeps ``&#xc1;`` as a token of its own before ``ς@e.om``: a reader sees ``Áς@e.om``,
    whose local part (§5.2) goes on into the reference, and bleach links no email there.  The
    upgrade linked ``ς@e.om`` (fuzz seed 29, issue 32); ``&lt;`` is no Link_Email character."""
    import functools

    import bleach

    def run(text: str, upgrade: bool) -> str:
        if cleaner:
            base = uts58_adapt.wrap(bleach_linkifier.LinkifyFilter) if upgrade else bleach_linkifier.LinkifyFilter
            return str(bleach.Cleaner(filters=[functools.partial(base, parse_email=True)]).clean(text))
        linker = bleach_linkifier.Linker(parse_email=True)
        return str((uts58_adapt.wrap(linker) if upgrade else linker).linkify(text))

    assert "<a " not in run("&#xc1;\u03c2@e.om ok", False)
    assert "<a " not in run("&#xc1;\u03c2@e.om ok", True)
    assert "mailto:%CF%82@e.om" in run("&lt;\u03c2@e.om&gt; ok", True)
    # a URL after the reference is linked as bleach links it (the rule is the email's local part)
    assert 'href="http://x.com"' in run("&#xc1;x.com ok", False)
    assert 'href="http://x.com"' in run("&#xc1;x.com ok", True)
