"""The urlextract backend's windowed candidate pass gives exactly the links of one whole pass."""

from __future__ import annotations

import itertools
import random

import pytest

from uts58_adapt.backends import get_backend
from uts58_adapt.backends.urlextract import _OVERLAP, _WINDOW, _windows
from uts58_adapt.refine.migration import refine_links

from conftest import LINK_WORDS

WORDS = LINK_WORDS


def _texts():
    rng = random.Random(58)
    spaced = " ".join(rng.choice(WORDS) for _ in range(2500))
    # hosts and schemes straddling a window cut inside a long space-free run, at every
    # offset around the cut
    straddle = ["a" * (_WINDOW - k) + "https://straddle.example.com/path(x)" + "b" * 900 for k in range(1, 45, 3)]
    return [spaced, *straddle]


@pytest.mark.parametrize("text", _texts(), ids=lambda t: f"len{len(t)}")
def test_windowed_candidates_give_the_same_links(text):
    backend = get_backend("urlextract")
    extractor = backend._candidates_extractor()
    whole = refine_links(text, backend._spans(extractor, text))
    windowed = refine_links(text, backend.candidates(text))

    # The links are the same; a candidate span that ran past a window end is cut there,
    # so only ``original``'s end may differ.
    def key(links):
        return [(k.start, k.end, k.text, k.kind, k.href, k.original and k.original[0]) for k in links]

    assert key(windowed) == key(whole)
    assert len(text) > _WINDOW


def test_dense_space_free_text_gives_valid_links():
    """Cut inside a long space-free run, the windows may give other links than one pass; the
    result is still sorted, non-overlapping and in bounds, and every one-pass link that
    does not overlap a windowed one is a windowed link too."""
    rng = random.Random(58)
    text = "".join(rng.choice(WORDS) for _ in range(900))
    backend = get_backend("urlextract")
    extractor = backend._candidates_extractor()
    whole = refine_links(text, backend._spans(extractor, text))
    windowed = refine_links(text, backend.candidates(text))
    assert all(0 <= a.start < a.end <= len(text) for a in windowed)
    assert all(a.end <= b.start for a, b in itertools.pairwise(windowed))
    for k in whole:
        if not any(k.start < w.end and w.start < k.end for w in windowed):
            pytest.fail(f"one-pass link {k.text!r} at {k.start} lost by the windows")
    assert windowed


def test_windows_cover_the_text():
    text = ("x" * 3000) + " " + ("y z " * 700)
    windows = list(_windows(text))
    assert windows[0][0] == 0 and windows[-1][1] == len(text)
    for (lo1, hi1), (lo2, _hi2) in itertools.pairwise(windows):
        assert hi1 - lo1 <= _WINDOW
        assert lo2 == hi1 or hi1 - lo2 == _OVERLAP  # cut at white space, or overlapping
        assert lo2 > lo1


def test_urlextract_windows_cut_only_at_ascii_white_space(monkeypatch):
    """urlextract stops only at ASCII white space (``string.whitespace``): a cut after
    U+3000 or U+00A0 could split one of its spans, so the backend's windows never end there."""
    from uts58_adapt.backends.urlextract import UrlExtractBackend

    text = ("x.com/a\u3000b.org\u00a0" * 300) + " " + ("c.net/d\u2028" * 300)
    seen = []
    spans = UrlExtractBackend._spans

    def spy(extractor, window):
        seen.append(window)
        return spans(extractor, window)

    monkeypatch.setattr(UrlExtractBackend, "_spans", staticmethod(spy))
    get_backend("urlextract").candidates(text)
    assert len(seen) > 3
    assert any(w.endswith(" ") for w in seen[:-1])  # the one ASCII space is used for a cut
    for window, following in itertools.pairwise(seen):
        if window[-1] in "\u3000\u00a0\u2028":  # not a cut there: the windows overlap
            assert len(window) == _WINDOW and following.startswith(window[-_OVERLAP:])
