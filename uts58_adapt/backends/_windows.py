"""Bounded windows of a long text, cut at white space: how both backends stay linear.

Both backends have inputs on which one call costs time quadratic in the length of a run
of text: urlextract walks from every TLD hit to the ends of its run of non-stop
characters (``a.com,b.com,…``), and linkify-it-py's path regex rescans the rest of the
run for every fuzzy link in it (``x.co/(x.co/(…``).  :func:`windows` cuts a text into
pieces of at most :data:`WINDOW` code points that the backend is then given one by one.

A cut is made just after a white-space character in the second half of a window when
there is one.  Neither backend's links contain white space, and both treat a white-space
character like the start or the end of the text on either side of it (linkify-it's
context classes include it with ``^`` and ``$``; urlextract stops at it), so the links of
the windows are exactly those of one pass.  Only a run of more than ``WINDOW // 2`` code
points without white space is cut inside; there the windows overlap by :data:`OVERLAP`
(more than a host and its scheme) and the links can differ from those of one pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["OVERLAP", "WINDOW", "windows"]

#: Longest text given to a backend in one call (code points), and the overlap of two
#: windows cut inside a run without white space.
WINDOW = 1024
OVERLAP = 320

# Greedy to the end of the range, then back to its last white-space character: the
# position after it is ``m.end()`` (one C-speed match, no Python loop over the matches).
_LAST_SPACE = re.compile(r".*\s", re.DOTALL)


def windows(text: str, window: int = WINDOW, overlap: int = OVERLAP) -> Iterator[tuple[int, int]]:
    """Yield ``(lo, hi)`` windows covering ``text`` in order: each at most ``window`` long, cut
    after the last white space in the window's second half when there is some (then the
    next window starts there), else overlapping the next one by ``overlap``."""
    if not 0 <= overlap < window // 2:
        raise ValueError("overlap must be in [0, window // 2)")
    n = len(text)
    lo = 0
    while n - lo > window:
        hi = lo + window
        m = _LAST_SPACE.match(text, lo + window // 2, hi)
        if m is not None:
            yield lo, m.end()
            lo = m.end()
        else:
            yield lo, hi
            lo = hi - overlap
    yield lo, n
