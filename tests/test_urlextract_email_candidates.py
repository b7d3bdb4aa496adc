"""The urlextract candidate pass does not complete TLD hits in an email's domain.

Skipping urlextract's completion there is only a saving if it changes no link: the
email stage (§5.2) owns every ``@``, and the URL stage never links a host right after
an ``@``.  These tests compare the refined links against a candidate pass that lets
urlextract complete every hit, on the official test lines, the bundled corpus and
generated text dense in ``@``, dots and punctuation.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uts58_adapt.backends.urlextract import UrlExtractBackend, _CandidateURLExtract
from uts58_adapt.refine.migration import refine_links

from conftest import REPO, detection_cases


class _CompletingExtract(_CandidateURLExtract):
    """The candidate pass without the shortcut: urlextract completes every hit."""

    @staticmethod
    def _email_candidate(text, tld_pos, tld):
        return None


def _backends() -> tuple[UrlExtractBackend, UrlExtractBackend]:
    fast = UrlExtractBackend()
    full = UrlExtractBackend()
    full._candidate_extractor = _CompletingExtract(extract_email=True, cache_dns=False, limit=None)
    return fast, full


FAST, FULL = _backends()


def _links(backend: UrlExtractBackend, text: str) -> list[tuple[int, int, str, str, str]]:
    return [(k.start, k.end, k.text, k.kind, k.href) for k in refine_links(text, backend.candidates(text))]


def _same(text: str) -> None:
    assert _links(FAST, text) == _links(FULL, text), text


def _corpus_lines() -> list[str]:
    lines = [line for _, line in detection_cases()]
    for path in sorted((REPO / "uts58_adapt" / "corpora").glob("*.txt")):
        lines += path.read_text(encoding="utf-8").splitlines()
    return lines


def test_official_and_sample_lines_give_the_same_links(detection_test_file) -> None:
    lines = _corpus_lines()
    assert len(lines) > 300
    differ = [line for line in lines if _links(FAST, line) != _links(FULL, line)]
    assert not differ, f"{len(differ)} lines differ, first: {differ[:3]!r}"


PIECES = [
    "a", "jane.doe", "x+y", "b.c", "@", "@", ".", "..", "-", "/", "//", "://", "http", "mailto:", ":",
    "example.com", "debian.org", "co.uk", "b.org.uk", "x.com", "σωκράτης", "ö", "普遍", "。", "．",
    "<", ">", "(", ")", "[", "]", ",", ";", "!", "'", '"', " ", " ", "\n", "?", "#", "=", "&", "%41", "~",
]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=24))
def test_generated_text_gives_the_same_links(pieces: list[str]) -> None:
    _same("".join(pieces))


@pytest.mark.parametrize(
    "text",
    [
        " -- Jane Doe <jane.doe@debian.org>  Mon, 01 Jan 2024 12:00:00 +0000",
        "mail σωκράτης@example.com now",
        "http://user@example.com/a and user@example.com",
        "foo.com+bar@baz.com foo.com..bar@baz.com",
        "a.b@c.d.org.uk, x@y.co.uk.",
        "see https://x.org/a@b.com and (jane@x.org)",
    ],
)
def test_known_shapes_give_the_same_links(text: str) -> None:
    _same(text)


def test_email_candidate_is_the_local_part_and_domain() -> None:
    text = " -- Jane Doe <jane.doe@debian.org>  Mon"
    (raw,) = FAST.candidates(text)
    assert text[raw.start : raw.end] == "jane.doe@debian.org"
    (link,) = refine_links(text, [raw])
    assert (link.text, link.kind, link.original) == ("jane.doe@debian.org", "email", (raw.start, raw.end))


def test_random_email_dense_text_gives_the_same_links() -> None:
    rng = random.Random(5)
    words = ["a@b.com", "x.y@z.org", "see", "http://q.example.com/p@r.com", "u@v", "@w.net", "m@n.co.uk.", "(e@f.io)"]
    text = " ".join(rng.choice(words) for _ in range(3000))
    _same(text)
