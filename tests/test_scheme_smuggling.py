"""Issue 13.1: no scheme smuggling.  A ``scheme://`` is only linked when the backend
recognizes it: http, https and ftp for ``detect()``, the wrapped instance's schemas for
``wrap()``.  The host stage must not take in whatever scheme stands before a host the
backend found after a ``·`` (a host character when between two ``l``).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from linkify_it import LinkifyIt
from markdown_it import MarkdownIt

from uts58_adapt import detect
from uts58_adapt.wrapping import wrap

ALLOWED_DETECT = ("http://", "https://", "ftp://", "mailto:")


def test_detect_does_not_take_in_a_javascript_scheme():
    links = detect("javascript://l·lexample.com/%0aalert(1)")
    assert all(link.href.startswith(ALLOWED_DETECT) for link in links)
    assert links == []


@pytest.mark.parametrize("backend", ["linkify-it", "urlextract"])
def test_detect_never_links_an_unknown_scheme(backend):
    assert detect("javascript://example.com/x", backend) == []
    assert [link.href for link in detect("see ftp://example.com/x", backend)] == ["ftp://example.com/x"]


def test_markdown_it_does_not_render_an_ms_msdt_anchor():
    md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    md.linkify = wrap(md.linkify)
    html = md.render("x ms-msdt://l·lexample.com/id")
    assert "ms-msdt://" not in html.split("<a ", 1)[-1].split(">", 1)[0]
    assert html == "<p>x ms-msdt://l·lexample.com/id</p>\n"


def test_disabled_ftp_is_not_taken_in():
    w = wrap(LinkifyIt().add("ftp:", None))
    assert w.match("ftp://l·lexample.com/x") is None


def test_a_scheme_the_instance_knows_is_still_taken_in():
    w = wrap(LinkifyIt().add("git:", "http:"))
    assert [m.text for m in w.match("git://l·lexample.com/x")] == ["git://l·lexample.com/x"]


SCHEMES = st.from_regex(r"\A[A-Za-z][A-Za-z0-9+.\-]{0,12}\Z")
PREFIXES = st.text(alphabet="l·.-aé0", max_size=6)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scheme=SCHEMES, prefix=PREFIXES, backend=st.sampled_from(["linkify-it", "urlextract"]))
def test_every_detect_href_has_an_allowed_scheme(scheme, prefix, backend):
    text = f"{scheme}://{prefix}lexample.com/x"
    for link in detect(text, backend):
        assert link.href.lower().startswith(ALLOWED_DETECT), (text, link)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scheme=SCHEMES, prefix=PREFIXES)
def test_every_wrapped_link_has_a_schema_of_the_instance(scheme, prefix):
    w = wrap(LinkifyIt().add("ftp:", None).add("git:", "http:"))
    text = f"{scheme}://{prefix}lexample.com/x"
    for m in w.match(text) or []:
        assert m.schema in ("", "http:", "https:", "git:", "//", "mailto:"), (text, m)
        if m.schema and m.schema != "//":
            assert m.text.lower().startswith(m.schema), (text, m)
        else:
            assert "://" not in m.text, (text, m)


def test_scheme_answers_follow_a_configuration_change():
    """The wrapper keeps the instance's answers on a scheme while its configuration is unchanged only."""
    w = wrap(LinkifyIt().add("git:", "http:"))
    assert [m.text for m in w.match("git://l·lexample.com/x")] == ["git://l·lexample.com/x"]
    w.add("git:", None)
    assert all(not m.text.startswith("git:") for m in w.match("git://l·lexample.com/x") or [])
    w.wrapped.add("git:", "http:")  # directly on the wrapped instance
    assert [m.text for m in w.match("git://l·lexample.com/x")] == ["git://l·lexample.com/x"]
