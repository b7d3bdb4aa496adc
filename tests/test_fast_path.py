"""The linkify-it backend's fast path gives exactly the links of one plain backend pass.

``LinkifyItBackend.find`` gives linkify-it only the white-space-delimited tokens
that hold an anchor (``//``, ``@``, a dot before a TLD's first letter); the reference is
one ``LinkifyIt.match`` call on the whole text (``plain``).  Both the raw spans and the
refined links must be the same, on the official test lines, the bundled sample corpus
and generated text (dense in the characters the backend and the anchors care about, and
in white space of every kind, since the windows are cut there).

urlextract's ``gen_urls`` is not local (it relocates each TLD hit with ``str.find``
from a cursor, which can drift past a URL's end, and can report a hit twice), so its
fast path also checks each window's run and falls back to one plain pass where the
check fails: tests/test_urlextract_fast_path.py.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uts58_adapt import detect
from uts58_adapt.backends import get_backend
from uts58_adapt.backends._windows import GAP, WINDOW
from uts58_adapt.refine.migration import refine_links

from conftest import dense_paragraphs, detection_cases, plain_text, sample_lines


def _check(text: str) -> None:
    backend = get_backend("linkify-it")
    plain = backend.plain(text)  # one call on the whole text
    assert backend.find(text) == plain, text
    assert detect(text, max_length=None) == refine_links(text, plain), text


@pytest.mark.parametrize("lineno", [n for n, _ in detection_cases()] or [0])
def test_official_lines(lineno: int, detection_test_file: object) -> None:
    line = dict(detection_cases())[lineno]
    _check(plain_text(line))


def test_official_file_as_one_text(detection_test_file: object) -> None:
    lines = [plain_text(line) for _, line in detection_cases()]
    _check("\n".join(lines))


def test_sample_corpus_lines() -> None:
    lines = sample_lines()
    assert len(lines) >= 50
    for line in lines:
        _check(line)


def test_sample_corpus_as_one_text() -> None:
    text = "\n".join(sample_lines())
    assert len(text) > 2 * WINDOW
    _check(text)


# Pieces the backend and the anchors care about, and separators of every kind.
PIECES = [
    "x",
    "com",
    "co",
    "org",
    "xn--p1ai",
    "рф",
    "香港",
    "COM",
    ".",
    "..",
    "@",
    "//",
    "/",
    ":",
    "http:",
    "https:",
    "ftp:",
    "mailto:",
    "www.",
    "localhost",
    "-",
    "_",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    "|",
    "｜",
    "'",
    '"',
    "?",
    "#",
    "!",
    ",",
    ";",
    "%",
    "&",
    "=",
    "+",
    "*",
    "~",
    "a.b",
    "1.2.3.4",
    ":8080",
    "。",
    "．",
    "ǅ",
    "\u0301",
    "K",
    "ſ",
    "\u200b",
    "\u00ad",
    "é",
    "ß",
    "0",
    "LOCALHOST",
    "255",
    ".1",
    "=",
    "\\",
]
SEPARATORS = [" ", "\n", "\t", "\r", "\u00a0", "\u3000", "\u2028", "\u2029", "\x1c", "\x85", "\u200a", "\x0b"]

_texts = st.lists(st.sampled_from(PIECES + SEPARATORS), max_size=60).map("".join)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_texts)
def test_generated_text(text: str) -> None:
    _check(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_texts, min_size=1, max_size=40), st.sampled_from(SEPARATORS), st.integers(0, 2 * GAP))
def test_generated_long_text(parts: list[str], sep: str, filler: int) -> None:
    """Tokens far apart and close together (joined windows), over several windows."""
    text = (sep + "w" * filler + sep).join(parts)
    _check(text)


def test_tokens_joined_across_windows() -> None:
    rng = random.Random(58)
    words = ["see", "x.com/a(b)", "a@b.org", "http://h.net/p?q#f", "e.g.", "foo.c", "word", "-", "(x.co)", "10.0.0.1"]
    text = " ".join(rng.choice(words) for _ in range(3000))
    assert len(text) > 10 * WINDOW
    _check(text)


# The benchmark's dense multilingual corpus (generated, deterministic): links in brackets,
# quotes and before CJK punctuation, IDN hosts, non-ASCII emails, text without spaces.
def test_dense_corpus_paragraphs() -> None:
    paragraphs = dense_paragraphs()
    assert len(paragraphs) > 40
    for paragraph in paragraphs:
        _check(paragraph)


def test_dense_corpus_as_one_text() -> None:
    text = "\n\n".join(dense_paragraphs())
    assert len(text) > 20 * WINDOW
    _check(text)
