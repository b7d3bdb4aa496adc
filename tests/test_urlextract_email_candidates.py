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

from uts58_adapt.backends.urlextract import UrlExtractBackend, _CandidateURLExtract, _EmailCandidate
from uts58_adapt.refine.migration import refine_links

from conftest import BRACKETS, detection_cases, sample_lines


class _CompletingExtract(_CandidateURLExtract):
    """The candidate pass without the shortcut: urlextract completes every hit.

    Where the shortcut applies, urlextract's completion must be the shortcut's span or
    nothing (the premise of the shortcut; checked here on every such hit).  The span it
    gives is then marked as the shortcut's is, for one reason: urlextract's own
    ``_get_tld_pos`` looks the host up from the start of the span, so in
    ``example.comjane.doe@example.com`` it finds the host inside the local part and
    moves its cursor past the next TLD hit, losing that link; the shortcut knows where
    its TLD is (``test_shortcut_avoids_the_cursor_bug``).
    """

    def _email_candidate(self, text, tld_pos, tld):
        return None

    def _complete_url(self, text, tld_pos, tld, check_dns=False, with_schema_only=False):
        url = super()._complete_url(text, tld_pos, tld, check_dns=check_dns, with_schema_only=with_schema_only)
        shortcut = _CandidateURLExtract._email_candidate(self, text, tld_pos, tld)
        if shortcut is None:
            return url
        assert url in (shortcut, "", tld[1:]), (text, tld_pos, url, shortcut)
        return _EmailCandidate(url) if url == shortcut else url


class _UnfixedCompletingExtract(_CandidateURLExtract):
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
    return [line for _, line in detection_cases()] + sample_lines()


def test_official_and_sample_lines_give_the_same_links(detection_test_file) -> None:
    lines = _corpus_lines()
    assert len(lines) > 300
    differ = [line for line in lines if _links(FAST, line) != _links(FULL, line)]
    assert not differ, f"{len(differ)} lines differ, first: {differ[:3]!r}"


PIECES = [
    "a",
    "jane.doe",
    "x+y",
    "b.c",
    "@",
    "@",
    ".",
    "..",
    "-",
    "/",
    "//",
    "://",
    "http",
    "mailto:",
    ":",
    "example.com",
    "debian.org",
    "co.uk",
    "b.org.uk",
    "x.com",
    "σωκράτης",
    "ö",
    "普遍",
    "。",
    "．",
    *BRACKETS,
    "`",
    "|",
    ",",
    ";",
    "!",
    "'",
    '"',
    " ",
    " ",
    "\n",
    "?",
    "#",
    "=",
    "&",
    "%41",
    "~",
    ":80",
    "xn--bcher-kva.de",
    "UPPER.ORG",
    "_x",
    "-y",
]


@settings(max_examples=3000, deadline=None)
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


def test_shortcut_avoids_the_cursor_bug() -> None:
    text = "example.comjane.doe@example.com ．!．httpdebian.org\nb.org.uk"
    unfixed = UrlExtractBackend()
    unfixed._candidate_extractor = _UnfixedCompletingExtract(extract_email=True, cache_dns=False, limit=None)
    assert "httpdebian.org" not in [link[2] for link in _links(unfixed, text)]
    assert "httpdebian.org" in [link[2] for link in _links(FAST, text)]
    _same(text)
