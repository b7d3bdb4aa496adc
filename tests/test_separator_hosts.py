"""Issue 32, item 4: a domain written with ``。 ． ｡`` is linked only when the library links its ``.`` form.

The library decides the host (the drop-in contract): ``evil。com`` is a link of a wrapped
library exactly when the library, with its own configuration, links ``evil.com``.
"""

from __future__ import annotations

import pytest

import uts58_adapt


def _linkify_it_links(fuzzy: bool, text: str) -> list[str]:
    from linkify_it import LinkifyIt

    wrapped = uts58_adapt.wrap(LinkifyIt().set({"fuzzy_link": fuzzy}))
    return [m.raw for m in wrapped.match(text) or ()]


def test_linkify_it_with_fuzzy_links_off_links_no_bare_host() -> None:
    assert _linkify_it_links(False, "see evil.com ok") == []
    assert _linkify_it_links(False, "see evil。com ok") == []
    assert _linkify_it_links(True, "see evil。com ok") == ["evil。com"]


def test_markdown_it_with_fuzzy_links_off() -> None:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    md.linkify.set({"fuzzy_link": False})
    md.linkify = uts58_adapt.wrap(md.linkify)
    assert "<a" not in md.render("see evil｡io ok")
    assert "<a" in md.render("see http://evil｡io ok")


def test_urlextract_keeps_its_tlds() -> None:
    from urlextract import URLExtract

    wrapped = uts58_adapt.wrap(URLExtract())
    assert wrapped.find_urls("see evil。com ok") == ["evil。com"]
    assert wrapped.find_urls("see evil。notatld ok") == []


def test_bleach_with_its_own_tld_list() -> None:
    pytest.importorskip("bleach")
    from bleach.linkifier import Linker, build_url_re

    linker = uts58_adapt.wrap(Linker(url_re=build_url_re(tlds=["com"])))
    out = linker.linkify("see evil｡io and evil.io and evil｡com ok")
    assert out.count("<a ") == 1 and ">evil｡com</a>" in out


def test_django_never_links_a_bare_io() -> None:
    pytest.importorskip("django")
    from django.conf import settings

    if not settings.configured:
        settings.configure()
    from django.utils.html import urlize as django_urlize

    from uts58_adapt.integrations.django import urlize

    assert "<a" not in django_urlize("see example.io ok")
    assert "<a" not in urlize("see example｡io ok")
    assert ">example｡com</a>" in urlize("see example｡com ok")


def test_jinja2_never_links_a_bare_io() -> None:
    pytest.importorskip("jinja2")
    from jinja2 import Environment

    from uts58_adapt.integrations.jinja2 import install

    env = Environment(autoescape=True)
    install(env)
    template = env.from_string("{{ v|urlize }}")
    assert "<a" not in Environment(autoescape=True).from_string("{{ v|urlize }}").render(v="see example.io ok")
    assert "<a" not in template.render(v="see example｡io ok")
    assert ">example｡com</a>" in template.render(v="see example｡com ok")
