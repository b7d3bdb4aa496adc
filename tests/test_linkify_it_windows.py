"""The linkify-it backend's windowed candidate pass gives exactly the spans of one whole call.

``LinkifyItBackend.find`` hands a long text to linkify-it in the windows of
``backends/_windows.py``; where the windows are cut at white space the spans must be
those of one ``LinkifyIt.match`` call on the whole text (``plain``), which is the
reference here.  Where a run without white space is cut inside, only validity is
required.
"""

from __future__ import annotations

import itertools
import random

import pytest

from uts58_adapt import detect
from uts58_adapt.backends import get_backend
from uts58_adapt.backends._windows import OVERLAP, WINDOW, windows
from uts58_adapt.refine.migration import refine_links

from conftest import LINK_WORDS

WORDS = [
    *LINK_WORDS,
    "//x.org/p",
    "ftp://h.net:21/",
    "<http://a.io>",
    "|",
    "x.co/(",
    "foo.de:bar",
    "e.g.",
    "file.py",
    "'x.com'",
    '"y.org"',
    "a.b.c.d",
]
SPACES = [" ", " ", " ", "\n", "\t", "\u3000", "\u00a0", "\u2028", "  "]


def _spaced(seed: int, words: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(WORDS) + rng.choice(SPACES) for _ in range(words))


def _texts() -> list[str]:
    texts = [_spaced(seed, 1500) for seed in range(4)]
    # long space-free tokens (up to just under half a window) next to cuts
    texts.append(" ".join("x.co/" + "a" * k + "(b" for k in range(0, WINDOW // 2 - 10, 17)))
    return texts


@pytest.mark.parametrize("text", _texts(), ids=lambda t: f"len{len(t)}")
def test_windowed_spans_are_those_of_one_call(text: str) -> None:
    backend = get_backend("linkify-it")
    whole = backend.plain(text)
    assert len(text) > 2 * WINDOW and len(whole) > 20
    assert backend.find(text) == whole
    assert refine_links(text, backend.find(text)) == refine_links(text, whole)


def test_short_text_is_one_call() -> None:
    text = "see x.co/( and http://a.b/c"
    backend = get_backend("linkify-it")
    assert backend.find(text) == backend.plain(text)
    assert [(r.start, r.end) for r in backend.plain(text)] == [(4, 9), (15, 27)]


def test_long_run_without_space_gives_the_links_of_one_call() -> None:
    """Cut inside a run without white space, the windows overlap; on this run (linkify-it's
    own worst case) the refined links are still those of one call: UTS #58 does not end a
    link at an unclosed "(", so the whole run is one link, over the default length limit."""
    text = "x.co/(" * 2000
    backend = get_backend("linkify-it")
    links = detect(text, max_length=None)
    assert [(k.start, k.end) for k in links] == [(0, len(text))]
    assert links == refine_links(text, backend.plain(text))
    assert detect(text) == []


def test_windows_cover_the_text_and_cut_at_white_space() -> None:
    text = ("x" * 3000) + " " + ("y z " * 700) + "\u3000" * 5 + "w" * 2000
    ws = list(windows(text))
    assert ws[0][0] == 0 and ws[-1][1] == len(text)
    for (lo1, hi1), (lo2, _hi2) in itertools.pairwise(ws):
        assert hi1 - lo1 <= WINDOW and lo2 > lo1
        if lo2 == hi1:  # cut after white space, in the window's second half
            assert text[hi1 - 1].isspace() and hi1 - lo1 > WINDOW // 2
            assert not any(ch.isspace() for ch in text[hi1 : lo1 + WINDOW])  # the last one
        else:
            assert hi1 - lo2 == OVERLAP and hi1 - lo1 == WINDOW
            assert not any(ch.isspace() for ch in text[lo1 + WINDOW // 2 : hi1])


def test_windows_of_a_short_text() -> None:
    assert list(windows("")) == [(0, 0)]
    assert list(windows("a b")) == [(0, 3)]
    assert list(windows("a" * WINDOW)) == [(0, WINDOW)]
