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


# --- Windows never end inside a host (issue 32, item 1) ------------------------------------------

#: The outside campaign's reproducers: linkify-it takes time exponential in the number of
#: ``xn--`` labels before a text's end that is not a TLD (``'xn--80ak6aa92e.' * 20 + 'xn--'``
#: alone takes seconds), so a window cut inside such a host hangs where one call on the
#: whole text takes milliseconds.
HANG_TEXTS = [
    "xn--a." * 200 + "com",
    "see " + "xn--80ak6aa92e." * 69 + "com now",
    "http://" + "xn--80ak6aa92e." * 69 + "com",
    "a@" + "xn--80ak6aa92e." * 69 + "com",
    "x.com/path/" + "xn--80ak6aa92e." * 69 + "com/x",
    "x.co/(" * 60 + "xn--80ak6aa92e." * 69 + "com",
]

_HANG_SCRIPT = """
from linkify_it import LinkifyIt
from markdown_it import MarkdownIt
import uts58_adapt
from uts58_adapt import detect, linkify, linkify_html
from uts58_adapt.backends import get_backend
from test_linkify_it_windows import HANG_TEXTS

wrapped = uts58_adapt.wrap(LinkifyIt())
md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
md.linkify = uts58_adapt.wrap(md.linkify)
for text in HANG_TEXTS:
    wrapped.match(text)
    detect(text)
    detect(text, refine=False)
    linkify(text)
    linkify_html(text)
    md.render(text)
backend = get_backend("linkify-it")
for text in HANG_TEXTS[:4]:  # no cut character in the run: given to linkify-it whole, as one call
    assert backend.find(text) == backend.plain(text), text
print("done")
"""


def test_windows_do_not_hang_on_long_hosts() -> None:
    """Every linkify-it entry point finishes on the reproducers in bounded time (a
    subprocess, so a hang fails the test instead of stopping the suite)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "tests")])}
    try:
        done = subprocess.run(
            [sys.executable, "-c", _HANG_SCRIPT], cwd=root, env=env, capture_output=True, text=True, timeout=60
        )
    except subprocess.TimeoutExpired:
        pytest.fail("an entry point ran past 60 s on a text that linkify-it matches in milliseconds")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "done"


def test_windows_cut_a_run_only_after_a_cut_character() -> None:
    from uts58_adapt.backends._windows import LINKIFY_IT_CUT

    text = "a" * 300 + ("xn--80ak6aa92e." * 40 + "com/") * 6 + "b" * 3000 + " " + "xn--a." * 400
    ws = list(windows(text, cut=LINKIFY_IT_CUT))
    assert ws[0][0] == 0 and ws[-1][1] == len(text)
    for (lo1, hi1), (lo2, _hi2) in itertools.pairwise(ws):
        assert lo1 < lo2 <= hi1
        assert text[hi1 - 1] in "/ "  # after a cut character or white space, never inside a host
        assert lo2 == hi1 or text[lo2] == "/"  # the next window starts at a cut character
    # a run without a cut character is one window, however long
    assert (text.index("b") - 1, text.index(" ") + 1) in ws
    assert ws[-1] == (text.index(" ") + 1, len(text))
