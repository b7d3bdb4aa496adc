"""Probe answers the library's configuration decides are Django's own answers (issue 20).

The urlize integrations ask the library whether it links ``scheme://host/`` and
``a@domain`` (``refine.acceptance``).  For Django's own Urlizer the answers for
``http(s)://`` and a host of letters, digits, ``_``, ``.`` and ``-``, and for emails,
follow from its configuration (``backends.django._known``); they must be exactly what a
render of the probe gives, and a configuration that changes what they depend on asks
Django again.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("django")

import django
from django.utils import html as django_html

import uts58_adapt.backends.django as django_backend
import uts58_adapt.integrations._urlize as urlize_module
from uts58_adapt.integrations.django import urlize
from uts58_adapt.refine.acceptance import HostProbe, ascii_host, email_probe, scheme_check

#: Django 6 reads hosts with DomainNameValidator's patterns: some answers differ from Django 5's.
DJANGO_6 = django.VERSION >= (6,)


def _render(word: str) -> str:
    return str(django_html.urlizer(word, autoescape=True))


def _asked_scheme(scheme: str, host: str) -> bool:
    """Django's answer, from a render of the probe (nothing derived, nothing kept)."""
    return urlize_module._library_accepts_scheme(_render, None).answer(scheme, host)


def _asked_email(probe: str) -> bool:
    return urlize_module._library_accepts_email(_render, None)(probe)


SCHEMES = ["http:", "https:", "ftp:", "ms-msdt:", "mailto:", "javascript:", "git+ssh:"]
HOSTS = [
    "example.com",
    "www.example.org",
    "a",
    "_",
    "_x.com",
    "x_y.de",
    "1.2.3.4",
    "0x7f.1",
    "localhost",
    "a..b",
    "a-b.c-d.e",
    "-a.com",
    ".a.com",
    "a.com.",
    "bücher.de",
    "é",
    "-é.com",
    "例え.テスト",
    "xn--bcher-kva.de",
    "рф.рф",
    "ſ.com",
    "\u212a.org",
    "ı.com",
    "İ.com",
    "a\u3000b.com",
    "EXAMPLE.COM",
    "[::1]",
    "::1",
    "[2001:db8::1]",
    "2001:db8::1",
    "a%41.com",
    "a&b.com",
    "a'b.com",
    'a"b.com',
    "a<b.com",
    "a b.com",
    "a(b).com",
    "a[b].com",
    "a:80",
    "a/b",
    "a?b",
    "a#b",
    "a@b",
    "a;b",
    "a!b",
    "a,b",
    "(a.com",
    "[a.com",
    "a.com)",
    "a.com]",
    "x" * 60 + ".com",
    "é" * 60 + "." + "ü" * 39,
    ".".join(["a" * 63] * 4),
    "\u00ad.com",
    "\u202e.com",
]


@pytest.mark.parametrize("scheme", SCHEMES)
def test_derived_scheme_answers_are_djangos(scheme: str) -> None:
    config = django_backend.django_configuration(django_html.urlizer)
    assert config.links_url is not None
    for host in HOSTS:
        if config.links_url(scheme, host):
            assert _asked_scheme(scheme, host), (scheme, host)
    # Not vacuous: the common shapes are derived, and other schemes are asked.
    for host in ("example.com", "bücher.de", "1.2.3.4", "例え.テスト", "x_y.de"):
        assert config.links_url("http:", host) and config.links_url("https:", host), host
    assert not config.links_url("ftp:", "example.com") and not config.links_url("ms-msdt:", "example.com")


_host_chars = st.sampled_from(list("abzAZ09_-.é例ſıİ\u212a\u3000%&'\"<>()[]:/?#@;!,~+= \u00ad\u202e"))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(SCHEMES + ["HTTP:"]), st.lists(_host_chars, min_size=1, max_size=20).map("".join))
def test_derived_scheme_answers_on_generated_hosts(scheme: str, host: str) -> None:
    config = django_backend.django_configuration(django_html.urlizer)
    assert config.links_url is not None
    if config.links_url(scheme, host):
        assert _asked_scheme(scheme, host), (scheme, host)


DOMAINS = [
    "example.com",
    "EXAMPLE.ORG",
    "e.de",
    "localhost",
    "bücher.de",
    "例え.テスト",
    "ex_ample.com",
    "-e.com",
    "e-.com",
    "e..com",
    ".e.com",
    "e.com.",
    "e.com,",
    "e.com;",
    "e.com:",
    "e.com!",
    "e.com)",
    "e.com]",
    "(e.com",
    "e.c",
    "e.c0m",
    "e.123",
    "[1.2.3.4]",
    "[::1]",
    "[1.2.3.999]",
    "[::1]x",
    "e.com:80",
    "e.com&x",
    "e.com'x",
    "e com",
    "e\u3000.com",
    "ſ.com",
    "\u212a.org",
    "x" * 64 + ".com",
    "x" * 300 + ".com",
    "e.com/x",
    "e.com?x",
    "e@f.com",
    "",
]


def test_derived_email_answers_are_djangos() -> None:
    config = django_backend.django_configuration(django_html.urlizer)
    assert config.links_email is not None
    derived = 0
    for domain in DOMAINS:
        for local in ("σ", "MailTo:σ", "mailto:σ"):
            probe = email_probe(f"{local}@{domain}")
            answer = config.links_email(probe)
            if answer is not None:
                derived += 1
                assert answer == _asked_email(probe), probe
    assert derived > len(DOMAINS)
    assert config.links_email("a@example.com") is True and config.links_email("mailto:a@example.com") is False


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["a@", "mailto:a@", "MAILTO:a@"]), st.lists(_host_chars, min_size=0, max_size=16).map("".join))
def test_derived_email_answers_on_generated_domains(prefix: str, domain: str) -> None:
    config = django_backend.django_configuration(django_html.urlizer)
    assert config.links_email is not None
    probe = email_probe(prefix + domain)
    answer = config.links_email(probe)
    if answer is not None:
        assert answer == _asked_email(probe), probe


def test_a_changed_configuration_asks_django(monkeypatch: pytest.MonkeyPatch) -> None:
    class OtherMailto(django_html.Urlizer):  # type: ignore[misc]
        mailto_template = "https://mail.example/?to={local}@{domain}"

    config = django_backend.django_configuration(OtherMailto())
    assert config.anchor is not None and config.links_email is None and config.links_url is not None

    class OtherSchemes(django_html.Urlizer):  # type: ignore[misc]
        simple_url_re = re.compile(r"^ftp://\w", re.IGNORECASE)

    assert django_backend.django_configuration(OtherSchemes()) == django_backend.DjangoConfig(
        None, None, None, None, None
    )

    urlizer = django_html.Urlizer()
    assert django_backend.django_configuration(urlizer).links_url is not None
    monkeypatch.setattr(django_html, "smart_urlquote", lambda url: "ftp://elsewhere/")
    changed = django_backend.django_configuration(urlizer)
    assert changed.anchor is not None and changed.links_url is None
    monkeypatch.undo()
    monkeypatch.setattr(django_html, "MAX_URL_LENGTH", 20)
    assert django_backend.django_configuration(urlizer).links_url is None


def test_the_integration_follows_a_changed_smart_urlquote(monkeypatch: pytest.MonkeyPatch) -> None:
    # Django now writes every href with another scheme: http(s) is no longer "linked with its scheme".
    original = django_html.smart_urlquote
    monkeypatch.setattr(django_html, "smart_urlquote", lambda url: "x" + original(url))
    urlize_module.clear_memo()
    text = "see https://bücher.de/a and http://example.com"
    assert urlize(text) == text  # Django's hrefs do not have the schemes: no link is its own
    monkeypatch.undo()
    urlize_module.clear_memo()
    assert urlize(text).count("<a ") == 2


def test_the_email_anchor_follows_djangos_validator(monkeypatch: pytest.MonkeyPatch) -> None:
    anchor = django_backend.django_anchor(django_html.Urlizer())
    assert anchor is not None and anchor.search("σ@e.de") is None and anchor.search("a@e.de")
    # Case folding as in Django's IGNORECASE pattern: "ſ" (long s) is an "s".
    assert anchor.search("ſ@e.de") and "<a " in str(django_html.urlizer("ſ@e.de"))
    from django.core.validators import EmailValidator

    monkeypatch.setattr(EmailValidator, "user_regex", re.compile(r"^\S+\Z"))
    anchor = django_backend.django_anchor(django_html.Urlizer())
    assert anchor is not None and anchor.search("σ@e.de")
    assert "<a " in str(django_html.urlizer("σ@e.de"))  # what the changed validator accepts
    assert [s.end for s in django_backend.django_spans(django_html.urlizer, "to σ@e.de")] == [9]


def test_hosts_are_written_as_probes_only_when_django_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []

    def counting(host: str) -> str:
        written.append(host)
        return ascii_host(host)

    monkeypatch.setattr(urlize_module, "ascii_host", counting)
    urlize_module.clear_memo()
    urlize("see https://bücher.de/a http://example.com ftp://bücher.com/x ftp://bücher.com/y")
    # ftp: asked once where Django 5 links the word as a .com domain (Django 6's host pattern
    # takes no ":", so the configuration says that Django links nothing there); http(s): derived.
    asked = [] if DJANGO_6 else ["bücher.com"]
    assert written == asked
    urlize("ftp://bücher.com/z")
    assert written == asked  # kept across calls


def test_a_host_probe_is_also_a_scheme_probe() -> None:
    asked: list[tuple[str, str]] = []

    def answer(scheme: str, host: str) -> bool:
        asked.append((scheme, host))
        return scheme == "git:"

    probe = HostProbe(answer)
    assert probe("git:", "git://xn--bcher-kva.de/") and asked == [("git:", "xn--bcher-kva.de")]
    ok = scheme_check(probe)
    assert ok("git:", "bücher.de", False) and not ok("ftp:", "bücher.de", True) and ok("git:", "bücher.de", True)
    assert asked[1:] == [("git:", "bücher.de"), ("ftp:", "bücher.de")]  # the Unicode host, once per refinement


_word_pieces = st.sampled_from(
    ["a", "σ", "例", "@", ".", "com", "org", "de", "www.", "WWW.", "/", ":", "//", "http", "(", ")", "[", "]", "&"]
    + ["amp;", ";", "!", ",", "'", '"', "<", " ", "_", "-", "+", "ſ", "\u212a", "1.2.3.4", "[::1]", "mailto:"]
)


@settings(max_examples=600, deadline=None)
@given(st.lists(_word_pieces, min_size=1, max_size=12).map("".join))
def test_derived_word_answers_are_djangos(word: str) -> None:
    """``links_word(word) is False`` only for a word in which Django links nothing (any options)."""
    config = django_backend.django_configuration(django_html.urlizer)
    assert config.links_word is not None
    if config.links_word(word) is False:
        for options in ({}, {"autoescape": True}, {"nofollow": True, "trim_url_limit": 5}):
            assert "<a " not in str(django_html.urlizer(word, **options)), (word, options)


def test_derived_word_answers_on_emails() -> None:
    config = django_backend.django_configuration(django_html.urlizer)
    assert config.links_word is not None
    assert config.links_word("σωκράτης@example.com") is False
    assert config.links_word("里@docs.e.edu") is False
    # Django 6's simple_url_2_re links "σ.com" + a path; Django 5's needs two characters before the dot.
    assert config.links_word("σ.com/x@e.de") is (None if DJANGO_6 else False)
    for linked in ("a@example.com", "www.σ@e.com", "σσ.com/x@e.de", "ſ@e.de", "(σ@e.com", "σ@e.com."):
        assert config.links_word(linked) is None, linked
