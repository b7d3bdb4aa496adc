"""Bounded windows of a text, cut at white space: how both backends stay linear, and fast.

Both backends have inputs on which one call costs time quadratic in the length of a run
of text: urlextract walks from every TLD hit to the ends of its run of non-stop
characters (``a.com,b.com,…``), and linkify-it-py's path regex rescans the rest of the
run for every fuzzy link in it (``x.co/(x.co/(…``).  :func:`windows` cuts a text into
pieces of at most :data:`WINDOW` code points that the backend is then given one by one.

A cut is made just after a white-space character (in the backend's sense, see
:class:`Space`).  Neither backend's links contain white space, and both treat a
white-space character like the start or the end of the text on either side of it
(linkify-it's context classes put it with ``^`` and ``$``; urlextract stops at it), so
the links of the windows are exactly those of one pass.  Only a run of more than
``WINDOW // 2`` code points without white space is cut inside; there the windows overlap
by :data:`OVERLAP` (more than a host and its scheme) and the links can differ from those
of one pass.

:func:`anchored_windows` gives only the white-space-delimited tokens that hold a match
of an *anchor* pattern, a necessary condition for any link of the backend (``@``,
``//``, a dot before a TLD's first letter): the backend then reads a fraction of the
text, with the same links (tests/test_fast_path.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = [
    "ANY_SPACE",
    "ASCII_SPACE",
    "GAP",
    "LINKIFY_IT_CUT",
    "OVERLAP",
    "WINDOW",
    "Space",
    "anchored_windows",
    "windows",
]

#: Longest text given to a backend in one call (code points), and the overlap of two
#: windows cut inside a run without white space.
WINDOW = 1024
OVERLAP = 320
#: Two anchored tokens at most this far apart go to the backend in one window: one call
#: less against more text to scan (32 was the fastest of 0-160 on the Debian corpus).
GAP = 32


@dataclass(frozen=True)
class Space:
    """A backend's white space: ``search`` finds one character, ``last`` (``.*`` then one,
    ``DOTALL``) matched from a position ends just after the last one before ``endpos``."""

    search: re.Pattern[str]
    last: re.Pattern[str]


def _space(cls: str) -> Space:
    return Space(re.compile(cls), re.compile(f".*{cls}", re.DOTALL))


#: Every Unicode white-space character (``\s``: all are Z or Cc, linkify-it's separators).
ANY_SPACE = _space(r"\s")
#: ASCII white space only (``string.whitespace``: urlextract's stop characters).
ASCII_SPACE = _space(r"[ \t\n\r\x0b\x0c]")
#: Where linkify-it-py's host matching cannot run across: ASCII punctuation (``P``, so never
#: in its domain labels) other than the ``.``, ``-`` and ``:`` that its host, port and
#: terminator patterns look at, and its separators ``<`` ``>``.  A host ends before such a
#: character, and what its patterns look at past the host's end is that character alone,
#: so a window that ends just after one gives every host it holds exactly as the whole
#: text does (docs/performance.md, "Windows").
LINKIFY_IT_CUT = _space(r"""[!"#%&'()*,/;<>?@\[\\\]_{}]""")


def windows(
    text: str,
    window: int = WINDOW,
    overlap: int = OVERLAP,
    space: Space = ANY_SPACE,
    lo: int = 0,
    hi: int | None = None,
    cut: Space | None = None,
) -> Iterator[tuple[int, int]]:
    """Yield ``(lo, hi)`` windows covering ``text[lo:hi]`` in order: each at most ``window``
    long, cut after the last white space in the window's second half when there is some
    (then the next window starts there), else overlapping the next one by ``overlap``.

    With ``cut`` (the characters after which the backend's matching cannot run on, e.g.
    :data:`LINKIFY_IT_CUT`), a run without white space is cut only just after one of them:
    the last one in the window's second half, else the first one past it (a longer window;
    none at all: the rest of the run is one window).  The next window then starts at a
    ``cut`` character (the first one in the ``overlap`` before the cut), so it never
    starts inside a host either.
    """
    if not 0 <= overlap < window // 2:
        raise ValueError("overlap must be in [0, window // 2)")
    n = len(text) if hi is None else hi
    while n - lo > window:
        end = lo + window
        m = space.last.match(text, lo + window // 2, end)
        if m is not None:
            yield lo, m.end()
            lo = m.end()
            continue
        if cut is None:
            yield lo, end
            lo = end - overlap
            continue
        c = cut.last.match(text, lo + window // 2, end)
        if c is None:  # none in the second half: the first one past the window, unless white space comes first
            c = cut.search.search(text, end, n)
            m = space.search.search(text, end, n if c is None else c.start())
            if m is not None:
                yield lo, m.end()
                lo = m.end()
                continue
            if c is None:
                break
        yield lo, c.end()
        # (found: the character just before the cut is one)
        start = cut.search.search(text, max(lo + 1, c.end() - overlap), c.end())
        lo = c.end() - 1 if start is None else start.start()
    yield lo, n


def anchored_windows(
    text: str,
    anchor: re.Pattern[str],
    space: Space = ANY_SPACE,
    gap: int = GAP,
    window: int = WINDOW,
    first: re.Match[str] | None = None,
    cut: Space | None = None,
) -> Iterator[tuple[int, int]]:
    """Yield the windows (as :func:`windows` cuts them) of the white-space-delimited tokens
    of ``text`` that hold a match of ``anchor``, in order.

    A token runs from just after a white-space character (or the start) to just after the
    next one (or the end), so every window starts and ends where :func:`windows` may cut.
    Tokens at most ``gap`` apart are joined, with what lies between; ``window`` is the
    longest window (a larger one than any text: never cut inside a run); ``first`` is the
    first match of ``anchor`` in ``text`` when the caller has it; ``cut`` is given to
    :func:`windows` for a long run.  Cost: one search of
    ``anchor`` and of white space over the text, in C, and a few steps per token.
    """
    n = len(text)
    lo = hi = 0  # the tokens gathered so far: text[lo:hi], empty when lo == hi
    m = anchor.search(text) if first is None else first
    while m is not None:
        last = space.last.match(text, hi, m.start())  # the token starts after white space, or at hi
        start = hi if last is None else last.end()
        after = space.search.search(text, m.end())
        end = n if after is None else after.end()
        if lo < hi and start - hi > gap:
            if hi - lo <= window:
                yield lo, hi  # what windows() gives, without its generator
            else:
                yield from windows(text, window, space=space, lo=lo, hi=hi, cut=cut)
            lo = start
        elif lo == hi:
            lo = start
        hi = end
        m = anchor.search(text, end)
    if lo < hi:
        if hi - lo <= window:
            yield lo, hi
        else:
            yield from windows(text, window, space=space, lo=lo, hi=hi, cut=cut)
