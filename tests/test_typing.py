"""The public API's static types, checked by mypy in CI (``mypy --strict uts58_adapt tests/test_typing.py``).

Each ``assert_type(expr, T)`` fails the mypy run when mypy infers another type for
``expr``; at run time (under pytest) it returns its argument, so the calls are run too.
Sections follow the public modules; ``wrap()`` has its own section, for its overloads.
"""

from __future__ import annotations

from typing import Literal, assert_type

import uts58_adapt
from uts58_adapt import Link, LinkTerm, RawLink
from uts58_adapt.report import ChunkResult, ChunkTask, audit_chunk, merge, render


def test_properties() -> None:
    assert_type(uts58_adapt.link_term("。"), LinkTerm)
    assert_type(uts58_adapt.link_bracket("("), "str | None")
    assert_type(uts58_adapt.is_link_email("a"), bool)
    assert_type(uts58_adapt.UNICODE_VERSION, str)
    assert uts58_adapt.link_term("。") is LinkTerm.SOFT


def test_algorithms() -> None:
    assert_type(uts58_adapt.terminate("x.com/a) b", 5), int)
    assert_type(uts58_adapt.email_start("mail anna@example.org", 9), "int | None")
    assert_type(uts58_adapt.quote_local_part("anna"), str)
    assert_type(uts58_adapt.minimal_escape("https://x.com/%CE%B1"), str)
    assert_type(uts58_adapt.format_url("https://", "x.com", ["α"]), str)


def test_detection() -> None:
    links = assert_type(uts58_adapt.detect("see example.com/αβ."), list[Link])
    assert_type(uts58_adapt.detect("x", "urlextract", refine=False, max_length=None), list[Link])
    link = links[0]
    assert_type(link.start, int)
    assert_type(link.end, int)
    assert_type(link.text, str)
    assert_type(link.href, str)
    assert_type(link.original, "tuple[int, int] | None")
    assert_type(uts58_adapt.linkify("see example.com"), str)
    raw = RawLink(0, 5, "url")
    assert_type(raw.kind, Literal["url", "email"])


def test_report() -> None:
    result = assert_type(audit_chunk(ChunkTask("t.txt", 1, ["see example.com/a."], "linkify-it")), ChunkResult)
    assert_type(result.failures, "tuple[str, ...]")
    report = merge([result], backend="linkify-it")
    assert_type(render(report, "json"), str)


def test_version() -> None:
    assert_type(uts58_adapt.__version__, str)


# --- wrap() -------------------------------------------------------------------------------------
# The overloads of wrap() (one per supported linkifier type) are checked here, e.g.
#     assert_type(uts58_adapt.wrap(LinkifyIt()), <the wrapper type for LinkifyIt>)
# (added with the overloads' rewrite).
