"""The linkify-it-py backend: ``LinkifyIt`` with the complete ICANN TLD list, offline.

linkify-it-py ships a short default TLD list; here it is replaced (``tlds(list,
keep_old=False)``) by every ICANN TLD of the bundled Public Suffix List snapshot, in
Unicode and ``xn--`` forms (given as one trie-shaped pattern, which linkify-it inserts
into its regexes as it does with its own entries), so fuzzy links like ``foo.accountants`` or ``foo.香港`` are
found.  Fuzzy links and fuzzy emails are on; fuzzy IPs are off (an IPv4 host is only
linked after a scheme, which linkify-it finds anyway).
"""

from __future__ import annotations

import threading

from linkify_it import LinkifyIt

from ._tlds import tld_pattern
from ._windows import WINDOW, windows
from .base import RawLink

__all__ = ["LinkifyItBackend"]


class LinkifyItBackend:
    """linkify-it-py behind the :class:`~uts58_adapt.backends.base.Backend` protocol."""

    name = "linkify-it"

    def __init__(self) -> None:
        self._linkify = LinkifyIt(options={"fuzzy_link": True, "fuzzy_email": True, "fuzzy_ip": False})
        # One entry that is a trie-shaped pattern of every TLD: linkify-it joins its TLD
        # entries into a regex unescaped, and a flat 3,000-word alternation is slow.
        self._linkify.tlds([tld_pattern()], False)
        # LinkifyIt keeps the state of its last test() on the instance: one caller at a time.
        self._lock = threading.Lock()

    def find(self, text: str) -> list[RawLink]:
        """The links linkify-it finds in ``text`` in one call, sorted by start (``mailto:`` ones are emails)."""
        with self._lock:
            return self._spans(text, 0)

    def candidates(self, text: str) -> list[RawLink]:
        """``find``, with long texts given to linkify-it in windows, for refinement.

        linkify-it-py's path regex rescans the rest of a run without white space for every
        fuzzy link in it, so one call on ``x.co/(x.co/(…`` costs time quadratic in the
        run's length.  A text longer than ``WINDOW`` is given to it in the windows of
        ``_windows.windows``: exactly the links of one call where the windows are cut at
        white space (the only case outside runs of over ``WINDOW // 2`` code points without
        white space; see tests/test_linkify_it_windows.py).
        """
        with self._lock:
            if len(text) <= WINDOW:
                return self._spans(text, 0)
            found: list[RawLink] = []
            for lo, hi in windows(text):
                found += self._spans(text[lo:hi], lo)
        if not found:
            return found
        # Overlapping windows (inside a long run without white space) can report a link twice.
        return sorted(set(found), key=lambda r: (r.start, r.end))

    def _spans(self, text: str, shift: int) -> list[RawLink]:
        """linkify-it's matches in ``text`` as RawLinks, offsets plus ``shift``; the caller holds the lock."""
        out = []
        for m in self._linkify.match(text) or ():
            kind = "email" if m.schema == "mailto:" or (not m.schema and "@" in m.raw and "/" not in m.raw) else "url"
            out.append(RawLink(m.index + shift, m.last_index + shift, kind))
        return out
