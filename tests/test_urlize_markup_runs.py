"""Django's and Jinja2's upgraded ``urlize`` on markup: the text runs of one document in one call (issue 36).

``_urlize.in_text`` gives the runs an HTML5 parser reads as text to the library and the
refinement joined by a white-space character that none of them holds (``_convert_all``)
instead of one call per run.  Compared here with the runs converted one by one, on
documents that hold the joiners themselves (then the next one, or one call per run, is
used), and with outputs written out by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

jinja2 = pytest.importorskip("jinja2")
pytest.importorskip("django")

from django.utils.safestring import mark_safe  # noqa: E402

import uts58_adapt.integrations.jinja2 as jinja2_integration  # noqa: E402
from uts58_adapt.integrations import _urlize  # noqa: E402
from uts58_adapt.integrations.django import urlize as django_urlize  # noqa: E402


def _jinja2(source: str = "{{ v|safe|urlize }}", **install: Any) -> Callable[[str], str]:
    env = jinja2.Environment(autoescape=True)
    jinja2_integration.install(env, **install)
    template = env.from_string(source)
    return lambda text: template.render(v=text)


ENTRY_POINTS: dict[str, Callable[[str], str]] = {
    "jinja2 safe": _jinja2(),
    "jinja2 safe, options": _jinja2("{{ v|safe|urlize(12, true, target='_b', extra_schemes=['tel:']) }}"),
    "jinja2 safe, reject_risky": _jinja2(reject_risky=True),
    "django safe": lambda text: django_urlize(mark_safe(text)),
    "django autoescape off, trimmed": lambda text: django_urlize(text, 12, True),
    "django safe, strict_hosts": lambda text: django_urlize(mark_safe(text), strict_hosts=True),
}

DOCUMENTS = [
    "<p>Visit http://a.com/</p><p>Visit http://b.com/</p>",
    "<li>see www.a.com ok</li>\n<li>mail a@b.org, x.com.</li>",
    "<p>a<b>me.com</b> x.org<i>y</i> (https://e.org/a_(b)) jürgen@ex.de</p><p>tel:+1 例え.jp 「https://ja.example/パス」</p>",
    "<td>x.com</td><p>ex\u3002com &amp; https://q.org/?a=1&amp;b=2&#x202e;</p><!-- x.com --><p>mailto:m@n.org</p>",
    "<p>one x.com\u2029two y.com</p><p>\u2028z.org\x85</p><p>w.net</p>",  # the joiners in the text
    "<p>u\u2029x.com</p><p>\u2028y.com</p><p>\x85z.com</p>",  # all three: one call per run
]


def _one_call_per_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_urlize, "_JOINERS", ())


@pytest.mark.parametrize("name", list(ENTRY_POINTS))
def test_runs_in_one_call_give_what_each_run_gives(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    convert = ENTRY_POINTS[name]
    together = [convert(text) for text in DOCUMENTS]
    _one_call_per_run(monkeypatch)
    _urlize.clear_memo()
    one_by_one = [convert(text) for text in DOCUMENTS]
    for text, a, b in zip(DOCUMENTS, together, one_by_one, strict=True):
        assert a == b, text


def test_a_document_is_refined_in_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    refined = jinja2_integration.urlize_refined

    def counting(text: str, *args: Any, **kwargs: Any) -> str:
        calls.append(text)
        return refined(text, *args, **kwargs)

    monkeypatch.setattr(jinja2_integration, "urlize_refined", counting)
    text = "".join(f"<p>Visit http://a{i}.com/</p>" for i in range(50))
    out = _jinja2()(text)
    assert len(calls) == 1
    assert out.count("<a ") == 50
    calls.clear()
    _one_call_per_run(monkeypatch)
    assert _jinja2()(text) == out
    assert len(calls) == 50


def test_outputs_written_out() -> None:
    jinja = ENTRY_POINTS["jinja2 safe"]
    assert jinja("<p>Visit http://a.com/</p><p>Visit http://b.com/</p>") == (
        '<p>Visit <a href="http://a.com/" rel="noopener">http://a.com/</a></p>'
        '<p>Visit <a href="http://b.com/" rel="noopener">http://b.com/</a></p>'
    )
    # Jinja2 links nothing in the words "a<b>me.com</b>" and "x.org</p>" (read whole, tags included, issue 32).
    assert jinja("<p>a<b>me.com</b> xy.org x.org</p>\u2029<p> yz.com </p>") == (
        '<p>a<b>me.com</b> <a href="https://xy.org" rel="noopener">xy.org</a> x.org</p>\u2029'
        '<p> <a href="https://yz.com" rel="noopener">yz.com</a> </p>'
    )
    assert ENTRY_POINTS["django safe"]("<li>see www.a.com ok</li>\n<li>mail a@b.org</li>") == (
        '<li>see <a href="http://www.a.com">www.a.com</a> ok</li>\n<li>mail <a href="mailto:a@b.org">a@b.org</a></li>'
    )


@pytest.mark.parametrize(
    "host",
    ["example.com", "a.b.example.org", "b\u00fccher.example", "localhost", "x.y", "1.2.3.4", "a_b.com", "-a.com"],
)
@pytest.mark.parametrize("scheme", ["http:", "https:", "HTTP:", "ftp:"])
def test_a_url_jinja2_is_not_asked_about_is_one_it_links(scheme: str, host: str) -> None:
    """``jinja2_links_url``: True only where Jinja2 links ``scheme//host/`` whole, its scheme in the href."""
    from uts58_adapt.backends.jinja2 import jinja2_links_url

    probe = f"{scheme}//{host.encode('idna').decode() if not host.isascii() else host}/"
    if jinja2_links_url(scheme, host):
        assert jinja2.utils.urlize(probe) == f'<a href="{probe}">{probe}</a>'
    if scheme in ("http:", "https:") and host in ("example.com", "a.b.example.org", "b\u00fccher.example"):
        assert jinja2_links_url(scheme, host)
