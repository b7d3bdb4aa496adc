"""Issue 32, item 4: a domain written with ``。 ． ｡`` is linked only when the library links its ``.`` form.

The library decides the host (the drop-in contract): ``evil。com`` is a link of a wrapped
library exactly when the library, with its own configuration, links ``evil.com``.
"""

from __future__ import annotations

from typing import Any

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


# The library is asked with the host's "." form *in its word*, as it reads it in the text: a
# host it links alone is not linked where the word around it makes the library link nothing
# (tests/test_fuzz.py, the screen's "invented link" findings on domains written with 。 ． ｡).
def _django_urlize() -> tuple[Any, Any]:
    pytest.importorskip("django")
    from django.conf import settings

    if not settings.configured:
        settings.configure()
    from django.utils.html import urlize as django_urlize

    from uts58_adapt.integrations.django import urlize

    return urlize, django_urlize


@pytest.mark.parametrize(
    ("text", "safe", "nofollow"),
    [
        ("y(www.例え。jp/&", False, True),  # Django reads the word "y(www.例え.jp/&": no link
        ("il．com#", True, False),  # "il.com#": a bare .com domain is linked only before "/" or the end
        ("see il．com# ok", False, False),
    ],
)
def test_django_is_asked_with_the_word(text: str, safe: bool, nofollow: bool) -> None:
    from django.utils.safestring import mark_safe

    urlize, django_urlize = _django_urlize()
    given = mark_safe(text) if safe else text
    dotted = given.translate(str.maketrans("。．｡", "..."))
    assert "<a" not in django_urlize(mark_safe(dotted) if safe else dotted, nofollow=nofollow)
    assert "<a" not in urlize(given, nofollow=nofollow)


def test_django_links_the_host_where_its_word_is_linked() -> None:
    urlize, _ = _django_urlize()
    assert ">www.例え。jp/</a>)" in urlize("see (www.例え。jp/) ok")
    assert ">il．com/</a>" in urlize("see il．com/ ok")


def _jinja2(source: str, **policies: object) -> tuple[Any, Any]:
    pytest.importorskip("jinja2")
    from jinja2 import Environment

    from uts58_adapt.integrations.jinja2 import install

    alone, env = Environment(autoescape=True), Environment(autoescape=True)
    for e in (alone, env):
        e.policies.update(policies)
    install(env)
    return env.from_string(source), alone.from_string(source)


@pytest.mark.parametrize(
    ("source", "text"),
    [
        ("{{ v|urlize }}", ".HTTP://e｡io"),  # Jinja2 reads ".HTTP://e.io": no link
        ("{{ v|safe|urlize }}", ">tt。com/&#13"),
        ('{{ v|urlize(rel="me", target="_blank", nofollow=true) }}', "[HTTP://l｡io/&"),
        ('{{ v|urlize(extra_schemes=["tel:", "ftp:"]) }}', ":il．com/&"),
    ],
)
def test_jinja2_is_asked_with_the_word(source: str, text: str) -> None:
    upgraded, alone = _jinja2(source)
    assert "<a" not in alone.render(v=text.translate(str.maketrans("。．｡", "...")))
    assert "<a" not in upgraded.render(v=text)


def test_no_link_starts_inside_the_librarys() -> None:
    """Where the library links a span of its own (a ``tel:`` link of Jinja2's ``extra_schemes``,
    Django's bare domain ``x(https://…``), a domain written with ``。`` inside it is not linked
    apart: the library's link stays, or no link, as for the same text written with ``.``."""
    upgraded, alone = _jinja2("{{ v|safe|urlize }}", **{"urlize.extra_schemes": ["tel:"]})
    assert upgraded.render(v="tel:ex。com") == alone.render(v="tel:ex。com")
    assert '<a href="tel:ex。com"' in upgraded.render(v="tel:ex。com")
    urlize, _ = _django_urlize()
    assert "x(<a" not in urlize("x(https://ｘ．ｃｏｍ/1&a/x.com")
    assert "x(<a" not in urlize("x(https://x.com/1&a/x.com")


def test_urlextract_is_given_the_dot_form_already() -> None:
    """``wrap(URLExtract())`` gives urlextract the text in its ``.`` form: a domain written with
    ``。`` that urlextract does not link there stays text (``:e.io/<``), though it links ``e.io``."""
    from urlextract import URLExtract

    assert URLExtract().find_urls(":e.io/<") == [] and URLExtract().find_urls("e.io") == ["e.io"]
    assert uts58_adapt.wrap(URLExtract()).find_urls(":e｡io/<") == []
    assert uts58_adapt.wrap(URLExtract()).find_urls("see e｡io ok") == ["e｡io"]


def test_an_email_domain_is_asked_in_its_dot_form() -> None:
    """An email the library did not report is asked about as ``a@domain`` with the domain in its
    ``.`` form: Django links ``a@c.c．m`` as it is (a "." in the domain), not ``a@c.c.m``."""
    urlize, django_urlize = _django_urlize()
    assert "<a" not in django_urlize("a@c.c.m/") and "<a" not in django_urlize("a@c.c.m")
    assert "<a" not in urlize("a@c.c．m/") and "<a" not in urlize("&@c.c．m/", autoescape=True)
    assert ">σ@example。com</a>" in urlize("mail σ@example。com ok")
