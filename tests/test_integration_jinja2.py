"""``uts58_adapt.integrations.jinja2.install(env)``: Jinja2's urlize filter with UTS #58 links."""

from __future__ import annotations

import re

import pytest

jinja2 = pytest.importorskip("jinja2")

from uts58_adapt.integrations.jinja2 import install  # noqa: E402


def _env(**kwargs: object) -> jinja2.Environment:
    env = jinja2.Environment(**kwargs)
    install(env)
    return env


def render(source: str, value: str, **kwargs: object) -> str:
    return _env(**kwargs).from_string(source).render(v=value)


def test_acceptance_url() -> None:
    assert render("{{ v|urlize }}", "see https://example.com/αβ(γ/δ)ρς.") == (
        'see <a href="https://example.com/αβ(γ/δ" rel="noopener">https://example.com/αβ(γ/δ</a>)ρς.'
    )
    plain = jinja2.Environment().from_string("{{ v|urlize }}").render(v="see https://example.com/αβ(γ/δ)ρς.")
    assert "αβ(γ/δ)ρς</a>" in plain  # Jinja2 alone


def test_email_and_apostrophe() -> None:
    assert render("{{ v|urlize }}", "to σωκράτης@example.com.") == (
        'to <a href="mailto:σωκράτης@example.com">σωκράτης@example.com</a>.'
    )
    assert render("{{ v|urlize }}", "see https://e.com/it's-x now") == (
        'see <a href="https://e.com/it&#39;s-x" rel="noopener">https://e.com/it&#39;s-x</a> now'
    )


def test_parameters_and_policies_apply() -> None:
    out = render("{{ v|urlize(10, true, target='_blank') }}", "www.example.org/päth.")
    assert out == '<a href="https://www.example.org/päth" rel="nofollow noopener" target="_blank">www.exampl...</a>.'
    out = render("{{ v|urlize(rel='me', extra_schemes=['tel:']) }}", "tel:123 ftp://a.org")
    assert out == '<a href="tel:123" rel="me noopener">tel:123</a> ftp://a.org'
    env = _env()
    env.policies["urlize.target"] = "_top"
    assert env.from_string("{{ v|urlize }}").render(v="example.com") == (
        '<a href="https://example.com" rel="noopener" target="_top">example.com</a>'
    )
    assert render("{{ v|urlize }}", "example.de") == "example.de"  # bare domains only .com/.net/.org


def test_autoescape() -> None:
    value = "<b> example.com & ab.org/x'y <i>"
    on = render("{{ v|urlize }}", value, autoescape=True)
    off = render("{{ v|urlize }}", value)
    assert on == off  # Jinja2's urlize always escapes; autoescape only marks the result safe
    assert on == (
        '&lt;b&gt; <a href="https://example.com" rel="noopener">example.com</a> &amp; '
        '<a href="https://ab.org/x&#39;y" rel="noopener">ab.org/x&#39;y</a> &lt;i&gt;'
    )
    env = _env(autoescape=True)
    assert env.from_string("{{ v|urlize }}{{ '<i>' }}").render(v="ab.org") == (
        '<a href="https://ab.org" rel="noopener">ab.org</a>&lt;i&gt;'
    )


def test_escaping() -> None:
    out = render("{{ v|urlize }}", 'javascript:alert(1)//x.com "><script> www.x.com/"onclick=1 example.com/\u202ex')
    assert "<script>" not in out and "javascript:" not in "".join(re.findall(r'href="[^"]*"', out))
    for tag in re.findall(r"<a [^>]*>", out):
        assert re.fullmatch(r'<a href="[^"<>]*" rel="noopener">', tag), tag
    assert 'href="https://example.com/%E2%80%AEx"' in out and "\u202e" not in out


def test_install_twice() -> None:
    env = _env()
    first = env.filters["urlize"]
    install(env)
    assert env.filters["urlize"] is first


def test_jinja2s_own_hosts_and_schemes_stay_linked() -> None:
    # Jinja2 links these after an explicit scheme; the drop-in contract keeps them linked.
    assert render("{{ v|urlize }}", "see http://localhost:8000/x and http://intranet/αβ(γ/δ)ρς.") == (
        'see <a href="http://localhost:8000/x" rel="noopener">http://localhost:8000/x</a> and '
        '<a href="http://intranet/αβ(γ/δ" rel="noopener">http://intranet/αβ(γ/δ</a>)ρς.'
    )
    # a scheme of the user's (extra_schemes) before a host outside the ICANN list
    assert render('{{ v|urlize(extra_schemes=["myapp:"]) }}', "open myapp://build.corp/x") == (
        'open <a href="myapp://build.corp/x" rel="noopener">myapp://build.corp/x</a>'
    )
    assert render("{{ v|urlize }}", "see https://example.com/αβ(γ/δ)ρς.") == (
        'see <a href="https://example.com/αβ(γ/δ" rel="noopener">https://example.com/αβ(γ/δ</a>)ρς.'
    )


def test_strict_hosts_is_opt_in() -> None:
    env = jinja2.Environment()
    install(env, strict_hosts=True)
    template = env.from_string("{{ v|urlize }}")
    assert template.render(v="http://localhost:8000/x and http://x.com/") == (
        'http://localhost:8000/x and <a href="http://x.com/" rel="noopener">http://x.com/</a>'
    )
    strict = env.filters["urlize"]
    install(env, strict_hosts=True)
    assert env.filters["urlize"] is strict
    install(env)  # back to the library's own hosts
    assert env.from_string("{{ v|urlize }}").render(v="http://localhost:8000/x") == (
        '<a href="http://localhost:8000/x" rel="noopener">http://localhost:8000/x</a>'
    )


def test_dangerous_extra_schemes_never_linked() -> None:
    assert render('{{ v|urlize(extra_schemes=["javascript:"]) }}', "javascript://example.com/%0aalert(1)") == (
        "javascript://example.com/%0aalert(1)"
    )


def test_mailto_email_stays_linked() -> None:
    # Jinja2's own test_filters.py::test_urlize (found by tools/upstream_compat.py): Jinja2 links
    # mailto:… showing the address only, and UTS #58 links mailto:email@example.com as an email.
    out = _env().from_string('{{ "foo mailto:email@example.com bar"|urlize }}').render()
    assert out == 'foo <a href="mailto:email@example.com">email@example.com</a> bar'


def test_an_email_inside_a_word_jinja2_rejects_whole_is_not_linked() -> None:
    """Issue 32 ("new N1"): Jinja2 links no email in a word starting ``www.`` or ``@``; the upgrade links
    none either (asked with the word, the local part's non-ASCII characters written ``a``)."""
    for source in ["{{ v|urlize }}", "{{ v|urlize(30, true) }}"]:
        for text in ["www.ς@e.c", "see www.t@e.museum ok", "@b@d.co"]:
            assert "<a" not in render(source, text, autoescape=True), (source, text)
    assert render("{{ v|urlize }}", "see σω@e.com ok", autoescape=True) == (
        'see <a href="mailto:σω@e.com">σω@e.com</a> ok'
    )


def test_email_of_jinja2_never_becomes_a_link_to_another_host() -> None:
    """Jinja2 links ``//p>@e.c`` as an email; the refinement read ``//p`` as a scheme-relative
    URL and linked ``https:////p`` (a link to host ``p``, which Jinja2 never makes; issue 32
    campaign, seed 1, "href points elsewhere")."""
    plain = jinja2.Environment().from_string("{{ s|urlize }}").render(s="//p>@e.c")
    assert plain == '<a href="mailto://p&gt;@e.c">//p&gt;@e.c</a>'  # Jinja2's own email
    out = render("{{ v|urlize }}", "//p>@e.c")
    assert "https:////p" not in out and 'href="https://' not in out, out
    assert "//p&gt;@e.c" in re.sub(r"<[^>]*>", "", out)  # the text is shown as it is
