"""``reject_risky=True`` on every integration and on ``linkify_html`` (issue 22.2).

Each entry point links a host with a Cyrillic ``а`` (``pаypal.com``, mixed-script) by
default and leaves it as text with ``reject_risky=True``; where the library links a
host right after ideographs (``ウェブサイトはexample.com``) the start moves to
``example.com``; an explicit ``https://`` after a Japanese word has no risk and stays linked.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import pytest

TEXT = "Visit pаypal.com or ウェブサイトはexample.com and https://pаypal.com/x ウェブサイトはhttps://example.com/y"
_ANCHOR_TEXT = re.compile(r"<a [^>]*>([^<]*)</a>")


def _shown(out: str) -> list[str]:
    return [html.unescape(text) for text in _ANCHOR_TEXT.findall(out)]


def _bleach_linker(text: str, reject_risky: bool) -> str:
    bleach_linkifier = pytest.importorskip("bleach.linkifier")
    from uts58_adapt import wrap

    return str(wrap(bleach_linkifier.Linker(), reject_risky=reject_risky).linkify(text))


def _bleach_filter(text: str, reject_risky: bool) -> str:
    bleach = pytest.importorskip("bleach")
    from functools import partial

    from uts58_adapt import wrap

    upgraded = wrap(partial(bleach.linkifier.LinkifyFilter, skip_tags=["pre"]), reject_risky=reject_risky)
    return str(bleach.sanitizer.Cleaner(filters=[upgraded]).clean(text))


def _django_urlize(text: str, reject_risky: bool) -> str:
    pytest.importorskip("django")
    from uts58_adapt.integrations.django import urlize

    return urlize(text, reject_risky=reject_risky)


def _django_urlizetrunc(text: str, reject_risky: bool) -> str:
    pytest.importorskip("django")
    from uts58_adapt.integrations.django import urlizetrunc

    return urlizetrunc(text, 40, reject_risky=reject_risky)


def _jinja2(text: str, reject_risky: bool) -> str:
    jinja2 = pytest.importorskip("jinja2")
    from uts58_adapt.integrations.jinja2 import install

    env = jinja2.Environment(autoescape=True)
    install(env, reject_risky=reject_risky)
    return str(env.from_string("{{ t|urlize }}").render(t=text))


def _mistune(text: str, reject_risky: bool) -> str:
    mistune = pytest.importorskip("mistune")
    from uts58_adapt.integrations.mistune import url_plugin

    return str(mistune.create_markdown(plugins=[url_plugin(reject_risky=reject_risky)])(text))


def _magiclink(text: str, reject_risky: bool) -> str:
    markdown = pytest.importorskip("markdown")
    pytest.importorskip("pymdownx.magiclink")
    ext = "uts58_adapt.integrations.magiclink"
    return str(markdown.markdown(text, extensions=[ext], extension_configs={ext: {"reject_risky": reject_risky}}))


def _linkify_html(text: str, reject_risky: bool) -> str:
    from uts58_adapt import linkify_html

    return linkify_html(f"<p>{html.escape(text)}</p>", reject_risky=reject_risky)


_ALL = ["pаypal.com", "ウェブサイトはexample.com", "https://pаypal.com/x", "https://example.com/y"]
_SAFE = ["example.com", "https://example.com/y"]
# Django and Jinja2 link no scheme right after a letter; mistune and magiclink no bare host.
_NO_SCHEME_AFTER_WORD = (_ALL[:3], ["example.com"])
_SCHEMES_ONLY = (_ALL[2:], _SAFE[1:])

#: entry point -> (its links by default, its links with reject_risky=True)
CASES: dict[str, tuple[Callable[[str, bool], str], list[str], list[str]]] = {
    "bleach Linker": (_bleach_linker, _ALL, _SAFE),
    "bleach LinkifyFilter": (_bleach_filter, _ALL, _SAFE),
    "django urlize": (_django_urlize, *_NO_SCHEME_AFTER_WORD),
    "django urlizetrunc": (_django_urlizetrunc, *_NO_SCHEME_AFTER_WORD),
    "jinja2 urlize": (_jinja2, *_NO_SCHEME_AFTER_WORD),
    "mistune url": (_mistune, *_SCHEMES_ONLY),
    "magiclink": (_magiclink, ["https://pаypal.com/x"], []),
    "linkify_html": (_linkify_html, _ALL, _SAFE),
}


@pytest.mark.parametrize("name", list(CASES))
def test_reject_risky_drops_a_mixed_script_host_and_moves_an_ideographic_start(name: str) -> None:
    run, default, safe = CASES[name]
    assert _shown(run(TEXT, False)) == default
    assert _shown(run(TEXT, True)) == safe


def test_bleach_moved_link_gets_bleachs_href() -> None:
    out = _bleach_linker("ウェブサイトはexample.com です", True)
    assert out == 'ウェブサイトは<a href="http://example.com" rel="nofollow">example.com</a> です'


def test_bleach_options_are_kept_apart() -> None:
    bleach_linkifier = pytest.importorskip("bleach.linkifier")
    from uts58_adapt import wrap

    original = bleach_linkifier.Linker()
    safe = wrap(original, reject_risky=True)
    assert safe.reject_risky is True and safe.strict_hosts is False
    assert wrap(safe, reject_risky=True) is safe
    both = wrap(safe, strict_hosts=True, reject_risky=True)
    assert both.strict_hosts is True and both.reject_risky is True
    assert _shown(both.linkify("pаypal.com http://localhost:8000/")) == []
    plain = wrap(safe)
    assert plain.reject_risky is False and _shown(plain.linkify("pаypal.com")) == ["pаypal.com"]
    upgraded = wrap(bleach_linkifier.LinkifyFilter, reject_risky=True)
    assert upgraded.reject_risky is True and upgraded.strict_hosts is False
    assert wrap(upgraded, reject_risky=True) is upgraded


def test_jinja2_install_again_with_the_other_option() -> None:
    jinja2 = pytest.importorskip("jinja2")
    from uts58_adapt.integrations.jinja2 import install

    env = jinja2.Environment()
    install(env, reject_risky=True)
    render = env.from_string("{{ t|urlize }}").render
    assert _shown(render(t="pаypal.com")) == []
    install(env)
    assert _shown(render(t="pаypal.com")) == ["pаypal.com"]


def test_django_email_with_a_risky_domain() -> None:
    pytest.importorskip("django")
    from uts58_adapt.integrations.django import urlize

    text = "to σωκράτης@pаypal.com or σωκράτης@example.com"
    assert _shown(urlize(text)) == ["σωκράτης@pаypal.com", "σωκράτης@example.com"]
    assert _shown(urlize(text, reject_risky=True)) == ["σωκράτης@example.com"]


def test_magiclink_www_with_a_risky_host_and_an_email_without_risk() -> None:
    text = "www.pаypal.com www.example.com σωκράτης@example.com"
    assert _shown(_magiclink(text, False)) == ["www.pаypal.com", "www.example.com", "σωκράτης@example.com"]
    assert _shown(_magiclink(text, True)) == ["www.example.com", "σωκράτης@example.com"]
