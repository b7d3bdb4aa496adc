"""The urlextract candidate pass keeps urlextract's completion per span (issue 32, timing screen).

``_CandidateURLExtract._library_completion`` gives every TLD hit of one span (the token
urlextract's ``_complete_url`` walks over) the completion of the first, when the span holds
no enclosure character and no ``://``.  These tests compare it, hit by hit in one text, with
urlextract's own ``_complete_url`` called on every hit: on the official test lines, the
bundled corpus, generated text dense in TLDs, stops, enclosures and non-ASCII letters, and
the timing screen's ``**a.co**`` shape, where the memo must be what is used.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from urlextract.urlextract_core import URLExtract

from uts58_adapt.backends.urlextract import UrlExtractBackend, _CandidateURLExtract

from conftest import BRACKETS, URLEXTRACT_PUNCTUATION, detection_cases, sample_lines


def _extractor() -> _CandidateURLExtract:
    return UrlExtractBackend()._candidates_extractor()


def _library(extractor: URLExtract, text: str, pos: int, tld: str) -> str | None:
    try:
        return str(URLExtract._complete_url(extractor, text, pos, tld))
    except ValueError:
        return None


def _check(text: str) -> int:
    """Compare every hit of ``text``; return how many were answered from the memo (without
    a call of urlextract's ``_complete_url``)."""
    extractor = _extractor()
    fresh = _extractor()
    pattern = extractor._recorder.pattern
    hits = [(m.start(), m.group()) for m in pattern.finditer(text)]
    walks: list[int] = []
    complete_url = URLExtract._complete_url

    def counted(self: URLExtract, *args: Any, **kwargs: Any) -> Any:
        if self is extractor:
            walks.append(1)
        return complete_url(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(URLExtract, "_complete_url", counted)
        for pos, tld in hits:
            got = extractor._library_completion(text, pos, tld, False, False)
            assert got == _library(fresh, text, pos, tld), (text, pos, tld)
    return len(hits) - len(walks)


def test_the_shape_of_the_screen_is_answered_from_the_memo() -> None:
    text = "**a.co**" * 130
    assert _check(text) >= 120  # one completion per span: the walk is not repeated per hit


@pytest.mark.parametrize(
    "text",
    [
        "**a.co**" * 20,
        "x.com/a.com/b.org?c.net#d.io",
        "(a.com) [b.org] {c.net} 'd.io' `e.uk` \\f.de\\ \"g.fr\"",
        "http://a.com/x.org://b.net c.io://d.uk",
        "[a.com](http://b.org/c.net) a.co)b.co(c.co",
        "déjà.com.org αβ.co.uk a.cοm.net",
        "a.com|b.org;c.net<d.io>e.uk=f.de]g.fr}h.it)i.nl",
        "a@b.com.org x@y.co.uk.net",
        "a.c\u3002com.org。net x.1.2.3.4",
        # left stops that are no right stops, between two hits of one span: "=" and non-ASCII
        "a.com=b.com",
        "a.com=b.com=c.com",
        "a.coméb.co",
        "a.coméb.coαc.co",
        "**a.co**=**a.co****a.co**é**a.co**",
    ],
)
def test_cases(text: str) -> None:
    _check(text)


@pytest.mark.parametrize("number, line", detection_cases())
def test_official_lines(number: int, line: str) -> None:
    _check(line)


def test_sample_corpus() -> None:
    for line in sample_lines():
        _check(line)


_PIECES = [
    "a",
    "b.",
    ".com",
    ".co",
    ".org",
    ".uk",
    "x.io",
    "é",
    "α",
    "://",
    "http://",
    "@",
    "-",
    "/",
    "*",
    " ",
    "\n",
    ":",
    *BRACKETS,
    *URLEXTRACT_PUNCTUATION,
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40))
def test_generated(pieces: list[str]) -> None:
    _check("".join(pieces))


def test_generated_long_tokens() -> None:
    rng = random.Random(32)
    for _ in range(30):
        _check("".join(rng.choice(_PIECES[:11] + ["*", "!", ","]) for _ in range(rng.randint(50, 400))))
