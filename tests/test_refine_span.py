"""``migration.refine_span`` (one raw span, the inline integrations' entry point) gives what
``refine_links`` gives for that span (issue 20).

For every span every installed backend reports in the official LinkDetectionTest.txt, the
sample corpus, the dense benchmark corpus and generated text, in the whole text and in the
window the inline integrations refine it in (``integrations._common.refine_at``: from the
span's start to the next white space), with ``strict_hosts`` on and off and several
``scheme_ok``: the link of that span's kind whose ``original`` is the span, and the calls
made to ``scheme_ok``, must be the same; with the lanes off too.  Arbitrary spans are
compared on generated text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_refine_email_lane import PIECES as EMAIL_PIECES
from test_refine_lane import AVAILABLE, PIECES, SCHEME_CHECKS, Recorder, _plain, _spans

from uts58_adapt.integrations import _common
from uts58_adapt.link import LinkKind, RawLink
from uts58_adapt.refine import migration

from conftest import dense_paragraphs, detection_cases, plain_text, require_data, sample_lines

_SPACE = re.compile(r"\s")


def _expected(
    text: str, start: int, end: int, kind: LinkKind, strict: bool, ok: Recorder
) -> tuple[int, int, str, str] | None:
    links = migration.refine_links(text, [RawLink(start, end, kind)], strict_hosts=strict, scheme_ok=ok)
    for link in links:
        if link.kind == kind and link.original == (start, end):
            return link.start, link.end, link.text, link.href
    return None


def _compare(text: str, start: int, end: int, kind: LinkKind, checks: int = 4) -> None:
    for strict in (True, False):
        for _label, make in SCHEME_CHECKS[:checks]:
            span_calls: list[tuple[str, str, bool]] = []
            links_calls: list[tuple[str, str, bool]] = []
            got = migration.refine_span(text, start, end, kind, strict_hosts=strict, scheme_ok=make(span_calls))
            expected = _expected(text, start, end, kind, strict, make(links_calls))
            assert got == expected, (text, start, end, kind, strict, _label)
            assert span_calls == links_calls, (text, start, end, kind, strict, _label)


def _windows(text: str, spans: Iterable[RawLink]) -> Iterable[tuple[str, int, int, LinkKind]]:
    """Each span in the whole text, and in its inline window (as ``refine_at`` cuts it)."""
    for r in spans:
        yield text, r.start, r.end, r.kind
        space = _SPACE.search(text, r.end, min(len(text), r.end + _common.WINDOW))
        window_end = space.start() if space else min(len(text), r.end + _common.WINDOW)
        yield text[r.start : window_end], 0, r.end - r.start, r.kind


def _check_texts(texts: Sequence[str], backends: Sequence[str] = AVAILABLE, checks: int = 4) -> int:
    compared = 0
    for name in backends:
        for text in texts:
            for args in _windows(text, _spans(name, text)):
                _compare(*args, checks=checks)
                with _plain():
                    _compare(*args, checks=1)
                compared += 1
    return compared


def test_refine_span_on_the_official_file() -> None:
    require_data("17.0.0", "linkification", "LinkDetectionTest.txt")
    failures = []
    for lineno, line in detection_cases():
        try:
            _check_texts([plain_text(line)], checks=2)
        except AssertionError as exc:
            failures.append(f"LinkDetectionTest.txt line {lineno}: {exc}")
    assert not failures, "\n".join(failures[:20])


def test_refine_span_on_the_sample_corpus() -> None:
    lines = [line for line in sample_lines() if line]
    assert _check_texts(lines, checks=2) > 50


def test_refine_span_on_the_dense_corpus() -> None:
    assert _check_texts(dense_paragraphs(), checks=1) > 300


_TEXTS = st.lists(st.sampled_from(PIECES + EMAIL_PIECES), max_size=14).map("".join)


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXTS)
def test_refine_span_on_generated_text(text: str) -> None:
    _check_texts([text], backends=[b for b in AVAILABLE if b in ("linkify-it", "urlextract", "bleach")])


@settings(max_examples=300, deadline=None)
@given(_TEXTS, st.integers(0, 60), st.integers(0, 40), st.booleans())
def test_refine_span_on_arbitrary_spans(text: str, start: int, length: int, email: bool) -> None:
    n = len(text)
    start = start % (n + 1)
    end = min(n, start + length)
    kind: LinkKind = "email" if email else "url"
    _compare(text, start, end, kind)
    _compare(text[start:], 0, end - start, kind)
    with _plain():
        _compare(text, start, end, kind, checks=1)


def test_refine_window_uses_refine_span() -> None:
    """The inline integrations' window refinement is refine_span's answer (and with reject_risky, the old path)."""
    window = "https://example.com/path)."
    expected = migration.refine_span(window, 0, 24, "url", strict_hosts=False, scheme_ok=_common._SCHEME_OK)
    assert expected == (0, 24, "https://example.com/path", "https://example.com/path")
    assert _common.refine_window(window, 24, "url") == expected
    assert _common.refine_window(window, 24, "url", reject_risky=True) == expected
    assert _common.refine_window("a@example.com", 13, "email") == (0, 13, "a@example.com", "mailto:a@example.com")


def test_refine_span_rejects_non_text() -> None:
    bad: Callable[..., object] = migration.refine_span
    with pytest.raises(TypeError, match="text must be str"):
        bad(b"example.com", 0, 11, "url")
