"""``uts58_adapt.integrations.django``: urlize / urlizetrunc and the ``{% load uts58 %}`` filters."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from typing import cast

import pytest

pytest.importorskip("django")

import django

from uts58_adapt.integrations.django import urlize, urlizetrunc


def test_acceptance_url() -> None:
    assert urlize("see https://example.com/αβ(γ/δ)ρς.") == (
        'see <a href="https://example.com/%CE%B1%CE%B2(%CE%B3/%CE%B4">https://example.com/αβ(γ/δ</a>)ρς.'
    )


def test_non_ascii_email_and_apostrophe() -> None:
    assert urlize("to σωκράτης@example.com.") == 'to <a href="mailto:σωκράτης@example.com">σωκράτης@example.com</a>.'
    # Django splits words at "'": the refined link keeps the rest of the path
    assert urlize("https://e.com/it's-x", autoescape=True) == (
        '<a href="https://e.com/it&#x27;s-x">https://e.com/it&#x27;s-x</a>'
    )


def test_djangos_options_apply() -> None:
    assert urlize("www.example.org/ä.", nofollow=True) == (
        '<a href="http://www.example.org/%C3%A4" rel="nofollow">www.example.org/ä</a>.'
    )
    assert urlizetrunc("see https://example.com/abcdef", 10) == (
        'see <a href="https://example.com/abcdef" rel="nofollow">https://e…</a>'
    )
    # bare domains only with Django's seven TLDs
    assert urlize("example.de example.io") == "example.de example.io"
    assert urlize("<b>ab.com</b> & y", autoescape=True) == (
        '&lt;b&gt;<a href="http://ab.com">ab.com</a>&lt;/b&gt; &amp; y'
    )
    assert urlize("<b>ab.com</b> & y") == '<b><a href="http://ab.com">ab.com</a></b> & y'


def test_escaping() -> None:
    out = urlize('javascript:alert(1)//x.com "><script> www.x.com/"onclick=1 example.com/\u202ex', autoescape=True)
    assert "<script>" not in out and "javascript:" not in "".join(re.findall(r'href="[^"]*"', out))
    for tag in re.findall(r"<a [^>]*>", out):
        assert re.fullmatch(r'<a href="[^"<>]*">', tag), tag
    assert 'href="http://example.com/%E2%80%AEx"' in out and "\u202e" not in out


_RENDER_SCRIPT = textwrap.dedent(
    """
    import json, sys
    import django
    from django.conf import settings
    job = json.loads(sys.argv[1])
    settings.configure(
        INSTALLED_APPS=["uts58_adapt.integrations.django"],
        TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": False}],
        **job["settings"],
    )
    django.setup()
    from django.core.exceptions import ImproperlyConfigured
    from django.template import engines
    engine = engines["django"]
    try:
        out = {
            name: engine.from_string(source).render({"v": job["value"]})
            for name, source in job["templates"].items()
        }
    except ImproperlyConfigured as exc:
        out = {"error": str(exc)}
    print(json.dumps(out))
    """
)


def _render(value: str, templates: dict[str, str], **settings: object) -> dict[str, str]:
    """``templates`` rendered with ``{{ v }}`` = ``value`` in a fresh Django process configured with ``settings``."""
    job = json.dumps({"settings": settings, "value": value, "templates": templates})
    done = subprocess.run([sys.executable, "-c", _RENDER_SCRIPT, job], capture_output=True, text=True, check=True)
    return cast(dict[str, str], json.loads(done.stdout))


def test_installed_app_template_filters() -> None:
    out = _render(
        "see https://example.com/αβ(γ/δ)ρς. <b>",
        {
            "urlize": "{% load uts58 %}{{ v|urlize }}",
            "trunc": "{% load uts58 %}{{ v|urlizetrunc:12 }}",
            "off": "{% load uts58 %}{% autoescape off %}{{ v|urlize }}{% endautoescape %}",
            "builtin": "{{ v|urlize }}",
        },
    )
    href = "https://example.com/%CE%B1%CE%B2(%CE%B3/%CE%B4"
    assert out["urlize"] == f'see <a href="{href}" rel="nofollow">https://example.com/αβ(γ/δ</a>)ρς. &lt;b&gt;'
    assert out["trunc"] == f'see <a href="{href}" rel="nofollow">https://exa…</a>)ρς. &lt;b&gt;'
    assert out["off"] == f'see <a href="{href}" rel="nofollow">https://example.com/αβ(γ/δ</a>)ρς. <b>'
    assert "αβ(γ/δ)ρς</a>" in out["builtin"]  # the built-in filter, for contrast


def _render_with(**settings: object) -> dict[str, str]:
    value = "see http://localhost:8000/x and p\u0430ypal.com and https://example.com/αβ"
    filters = {"urlize": "{% load uts58 %}{{ v|urlize }}", "trunc": "{% load uts58 %}{{ v|urlizetrunc:40 }}"}
    return _render(value, filters, **settings)


def test_template_filters_take_their_options_from_settings() -> None:
    example = '<a href="https://example.com/%CE%B1%CE%B2" rel="nofollow">https://example.com/αβ</a>'
    localhost = '<a href="http://localhost:8000/x" rel="nofollow">http://localhost:8000/x</a>'
    paypal = '<a href="http://p%D0%B0ypal.com" rel="nofollow">p\u0430ypal.com</a>'  # Django's own href
    # No setting: Django decides the hosts (localhost stays linked), no §8 check.
    for out in _render_with().values():
        assert out == f"see {localhost} and {paypal} and {example}", out
    # strict_hosts: §1.4's registrable-domain rule; reject_risky: a link with a §8 risk stays text.
    for out in _render_with(UTS58_ADAPT={"strict_hosts": True}).values():
        assert out == f"see http://localhost:8000/x and {paypal} and {example}", out
    for out in _render_with(UTS58_ADAPT={"reject_risky": True}).values():
        assert out == f"see {localhost} and p\u0430ypal.com and {example}", out
    both = _render_with(UTS58_ADAPT={"strict_hosts": True, "reject_risky": False})
    assert both["urlize"] == f"see http://localhost:8000/x and {paypal} and {example}"


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (["strict_hosts"], "UTS58_ADAPT must be a dict such as {'strict_hosts': True}, not list"),
        ({"strict": True}, "UTS58_ADAPT: unknown option 'strict'; the options are strict_hosts, reject_risky"),
        ({"strict_hosts": 1}, "UTS58_ADAPT['strict_hosts'] must be True or False, not 1"),
    ],
)
def test_a_wrong_setting_is_named(setting: object, message: str) -> None:
    assert _render_with(UTS58_ADAPT=setting) == {"error": message}


def test_settings_are_left_to_the_project() -> None:
    code = (
        "import django\nfrom uts58_adapt import detect\nfrom uts58_adapt.integrations.django import urlize\n"
        "from django.conf import settings\n"
        "if django.VERSION < (6,):\n"
        "    assert urlize('see ab.com') == 'see <a href=\"http://ab.com\">ab.com</a>'\n"
        "    print(settings.configured)\n"
        "assert detect('see ab.com', 'django')[0].text == 'ab.com'\n"
        "print(settings.configured)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # Django 5 runs urlize without settings; Django 6 cannot (it reads URLIZE_ASSUME_HTTPS), and the
    # django backend configures that one setting in a process that has none (test below).
    assert done.stdout.split() == (["True"] if django.VERSION >= (6,) else ["False", "False"])


_SETTINGS_SCRIPT = textwrap.dedent(
    """
    import sys
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.utils.html import Urlizer
    from uts58_adapt.backends.django import DjangoBackend

    class Django6(Urlizer):
        # What Django 6's urlize does for a bare domain: read URLIZE_ASSUME_HTTPS.
        def __call__(self, text, **options):
            if not isinstance(getattr(settings, "URLIZE_ASSUME_HTTPS", None), bool):
                raise ImproperlyConfigured("Requested setting URLIZE_ASSUME_HTTPS")
            return super().__call__(text, **options)

    class Broken(Urlizer):
        def __call__(self, text, **options):
            raise ImproperlyConfigured("something else")

    if sys.argv[1] == "project":
        settings.configure(URLIZE_ASSUME_HTTPS=False)
    spans = DjangoBackend(Django6()).find("see ab.com and x")
    print(spans[0].start, spans[0].end, settings.configured, settings.URLIZE_ASSUME_HTTPS)
    try:
        DjangoBackend(Broken()).find("see ab.com")
    except ImproperlyConfigured as exc:
        print("raised:", exc)
    """
)


@pytest.mark.parametrize(("case", "setting"), [("none", "True"), ("project", "False")])
def test_the_backend_configures_django_only_in_a_process_without_settings(case: str, setting: str) -> None:
    """Django 6's urlize needs settings: the backend configures ``URLIZE_ASSUME_HTTPS=True`` only where
    there are none (a project's own settings are kept), and any other ``ImproperlyConfigured`` is raised."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-c", _SETTINGS_SCRIPT, case], capture_output=True, text=True, check=True, env=env
    )
    assert done.stdout.splitlines() == [f"4 10 True {setting}", "raised: something else"]


def test_djangos_own_hosts_stay_linked() -> None:
    # Django links these after an explicit scheme; the drop-in contract keeps them linked.
    assert urlize("see http://localhost:8000/x and http://intranet/αβ(γ/δ)ρς.") == (
        'see <a href="http://localhost:8000/x">http://localhost:8000/x</a> and '
        '<a href="http://intranet/%CE%B1%CE%B2(%CE%B3/%CE%B4">http://intranet/αβ(γ/δ</a>)ρς.'
    )
    assert urlize("see https://example.com/αβ(γ/δ)ρς.") == (
        'see <a href="https://example.com/%CE%B1%CE%B2(%CE%B3/%CE%B4">https://example.com/αβ(γ/δ</a>)ρς.'
    )
    assert urlize("see http://localhost:8000/x", strict_hosts=True) == "see http://localhost:8000/x"
    assert urlizetrunc("http://intranet/x", 40, strict_hosts=True) == "http://intranet/x"


def test_a_urlizer_of_the_users_decides_bare_hosts(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.utils import html as django_html

    class IntranetUrlizer(django_html.Urlizer):  # type: ignore[misc]
        simple_url_2_re = re.compile(r"^www\.|^(?!http)\w[^@]+\.(com|edu|gov|int|mil|net|org|lan)($|/.*)$", re.I)

    monkeypatch.setattr(django_html, "urlizer", IntranetUrlizer())
    assert urlize("see wiki.lan/αβ(γ/δ)ρς.") == (
        'see <a href="http://wiki.lan/%CE%B1%CE%B2(%CE%B3/%CE%B4">wiki.lan/αβ(γ/δ</a>)ρς.'
    )


def test_safe_input_and_character_references_as_django_has_them() -> None:
    # Django's own urlize01, urlize02, urlize09 and test_trailing_semicolon (found by
    # tools/upstream_compat.py): a SafeData input is not escaped again, and the ';' of a
    # character reference (&amp; &gt;) stays with it instead of being dropped as a Soft character.
    from django.utils.safestring import mark_safe

    assert urlize(mark_safe("http://example.com?x=&amp;y=&lt;2&gt;"), nofollow=True, autoescape=True) == (
        '<a href="http://example.com?x=&amp;y=%3C2%3E" rel="nofollow">http://example.com?x=&amp;y=&lt;2&gt;</a>'
    )
    assert urlize("http://example.com?x=&amp;;", nofollow=True) == (
        '<a href="http://example.com?x=" rel="nofollow">http://example.com?x=&amp;</a>;'
    )
    assert urlize("see http://e.com/a;", nofollow=True) == (
        'see <a href="http://e.com/a" rel="nofollow">http://e.com/a</a>;'
    )


def test_bracketed_ipv6_host_stays_linked() -> None:
    """Django links ``http://[2001:db8:cafe::2]/api/9`` (its own test_ipv6); the upgrade keeps it,
    and still ends the link by §3.5.1 (the unmatched ``)`` and the trailing ``.`` are left out)."""
    assert urlize("(see http://[2001:db8:cafe::2]/api/9).") == (
        '(see <a href="http://[2001:db8:cafe::2]/api/9">http://[2001:db8:cafe::2]/api/9</a>).'
    )


def test_an_email_inside_a_word_django_rejects_whole_is_not_linked() -> None:
    """Issue 32 ("new N1"): Django links no email in ``@c@b.jec`` nor in ``a@b.com,c@d.com`` (one word, two
    ``@``), so the upgrade links none either; a non-ASCII local part Django misses stays linked where Django
    would link an ASCII one (asked with the word, ``jargen.maller@example.de``)."""
    for text in ["@c@b.jec", "see @c@d.co ok", "a@b.com,c@d.com", "x「σω@e.com」", "&@c.om&"]:
        assert "<a" not in urlize(text, autoescape=True), text
        assert "<a" not in urlize(text), text
    assert urlize("see jürgen.müller@example.de, ok", autoescape=True) == (
        'see <a href="mailto:jürgen.müller@example.de">jürgen.müller@example.de</a>, ok'
    )
    assert urlize("(σω@e.com」") == '(<a href="mailto:σω@e.com">σω@e.com</a>」'


def test_a_link_never_starts_inside_djangos_link() -> None:
    """Issue 32: the library decides where a link starts.  Django 6 links ``｡e.org`` (its first label
    empty, an invalid host): the upgrade rejects it, and links no ``e.org`` inside it.  Shown with
    Django's span given to the refinement (Django 5 does not link that word)."""
    from django.utils.html import urlizer

    from uts58_adapt.backends.base import RawLink
    from uts58_adapt.integrations._urlize import urlize_refined

    def render(word: str) -> str:
        return str(urlizer(word, autoescape=True))

    for text, span in [("\uff61e.org", (0, 6)), ("see \uff61e.org/x ok", (4, 12))]:
        html = urlize_refined(
            text,
            [RawLink(*span, "url")],
            render_one=render,
            render_escaped=render,
            escape_text=None,
            default_scheme="http://",
        )
        assert html == text
