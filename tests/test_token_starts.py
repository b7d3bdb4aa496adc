"""Issue 32, item 5: a refined link never starts inside a token where the library linked nothing.

urlextract's discarded TLD hits (``backends.urlextract._CandidateURLExtract``) and the
domains written with ``。`` that the refinement finds itself used to become links that
start after a ``/`` or a ``_`` of a path or a file name.  Neither urlextract alone nor
``wrap(URLExtract())`` links them.
"""

from __future__ import annotations

import pytest
from urlextract import URLExtract

import uts58_adapt
from uts58_adapt import detect, linkify

TOKENS = ["see methods/rsh.cc ok", "see net/base/escape.cc ok", "see foo_unittest.cc ok"]


@pytest.mark.parametrize("text", TOKENS)
def test_no_link_inside_a_path_or_file_name(text: str) -> None:
    assert URLExtract().find_urls(text) == []  # the library links nothing here
    assert uts58_adapt.wrap(URLExtract()).find_urls(text) == []
    assert detect(text, backend="urlextract") == []
    assert detect(text, backend="linkify-it") == []
    assert "<a" not in linkify(text)


@pytest.mark.parametrize("text", ["see a/מיזם。me ok", "see a_b。com ok", "see x.com/a?q=מיזם。me"])
def test_no_ideographic_dot_domain_inside_a_token(text: str) -> None:
    from linkify_it import LinkifyIt

    links = detect(text)
    assert all(text[link.start - 1] == " " for link in links)
    matches = uts58_adapt.wrap(LinkifyIt()).match(text) or []
    assert all(text[m.index - 1] == " " for m in matches)


def test_the_domains_that_start_a_token_are_still_found() -> None:
    """urlextract misses these hosts (non-ASCII, or a "!" after the TLD); the refinement finds them."""
    for text, link in [
        ("see deΩ.uk ok", "deΩ.uk"),
        ("see 普遍适用测试.我爱你 ok", "普遍适用测试.我爱你"),
        ("see (example.com!) ok", "example.com"),
        ("see a/b x。com ok", "x。com"),
    ]:
        assert [k.text for k in detect(text, backend="urlextract")] == [link]


def test_a_scheme_before_a_span_is_not_taken_from_another_span_of_the_library() -> None:
    """bleach links ``a.om/\\u200bhTtP:`` and the email ``//b.om/@z.co`` after it; the upgrade rejects
    the first (``-a.om``: its host moved back over ``-``) and read the second as the URL
    ``hTtP://b.om/@z.co``, with a scheme inside bleach's first link (fuzz seed 27, issue 32).  A
    link never starts inside another span of the library's."""
    from uts58_adapt.link import RawLink
    from uts58_adapt.refine.migration import refine_links

    text = "-a.om/\u200bhTtP://b.om/@z.co"
    raw = [RawLink(1, 12, "url"), RawLink(12, 24, "email")]
    assert all(not 1 < link.start < 12 for link in refine_links(text, raw))
    # the span alone, with no library span around the scheme, takes it in as before
    assert [link.start for link in refine_links(text, [RawLink(12, 24, "email")])] == [7]
