"""The linkify-it-py backend: ``LinkifyIt`` with the complete ICANN TLD list, offline.

linkify-it-py ships a short default TLD list; here it is replaced (``tlds(list,
keep_old=False)``) by every ICANN TLD of the bundled Public Suffix List snapshot, in
Unicode and ``xn--`` forms (given as one trie-shaped pattern, which linkify-it inserts
into its regexes as it does with its own entries), so fuzzy links like ``foo.accountants`` or ``foo.香港`` are
found.  Fuzzy links and fuzzy emails are on; fuzzy IPs are off (an IPv4 host is only
linked after a scheme, which linkify-it finds anyway).

``find`` (both the "before" view and what ``detect(refine=True)`` refines) gives
linkify-it only the white-space-delimited tokens that can hold one of its links, in
windows of bounded length (``_windows.py``): the links of one call on the whole text
(``plain``), in less time, and in linear time on runs where one call is quadratic.
"""

from __future__ import annotations

import re
import threading
from typing import Literal

from linkify_it.main import LinkifyIt

from ._tlds import tld_initials, tld_pattern
from ._windows import anchored_windows
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
        # Every link holds "//", "@" or a dot before the first letter of a TLD (with the
        # list replaced, linkify-it adds only ``xn--…`` names to it).
        self._anchor = re.compile(f"//|@|\\.[{tld_initials()}x]", re.IGNORECASE)
        # LinkifyIt keeps the state of its last test() on the instance: one caller at a time.
        self._lock = threading.Lock()

    def plain(self, text: str) -> list[RawLink]:
        """The links linkify-it finds in ``text`` in one call, sorted by start (``mailto:`` ones are emails).

        The reference that :meth:`find` is tested against (tests/test_fast_path.py); one
        call costs time quadratic in a long run without white space (``x.co/(`` × n).
        """
        with self._lock:
            return self._spans(text, 0)

    def find(self, text: str) -> list[RawLink]:
        """The links of one linkify-it call on ``text`` (:meth:`plain`), from less text.

        linkify-it is given only the white-space-delimited tokens that hold an *anchor*,
        something every one of its links contains: ``//`` (``http:``, ``https:``,
        ``ftp:`` and ``//`` links), ``@`` (emails, ``mailto:``) or a dot before the first
        letter of a TLD (fuzzy links: its host pattern ends with ``.`` and a TLD of the
        list).  Tokens are joined into windows of at most ``WINDOW`` code points
        (``_windows.anchored_windows``), and linkify-it treats white space like the ends
        of the text, so the links are exactly those of one call
        (tests/test_fast_path.py), for a fraction of its time on ordinary text.

        The windows also bound the text of one call: linkify-it-py's path regex rescans
        the rest of a run without white space for every fuzzy link in it, so one call on
        ``x.co/(x.co/(…`` costs time quadratic in the run's length.  Only a run of over
        ``WINDOW // 2`` code points without white space is cut inside (the windows then
        overlap), and there the links can differ from those of one call.
        """
        first = self._anchor.search(text)
        if first is None:
            return []  # no anchor: no link
        found: list[RawLink] = []
        overlapped = False
        end = 0
        with self._lock:
            for lo, hi in anchored_windows(text, self._anchor, first=first):
                overlapped |= lo < end
                end = hi
                found += self._spans(text[lo:hi] if hi - lo < len(text) else text, lo)
        if overlapped:  # overlapping windows can report a link twice
            return sorted(set(found), key=lambda r: (r.start, r.end))
        return found

    def _spans(self, text: str, shift: int) -> list[RawLink]:
        """linkify-it's matches in ``text`` as RawLinks, offsets plus ``shift``; the caller holds the lock."""
        out = []
        for m in self._linkify.match(text) or ():
            email = m.schema == "mailto:" or (not m.schema and "@" in m.raw and "/" not in m.raw)
            kind: Literal["url", "email"] = "email" if email else "url"
            out.append(RawLink(m.index + shift, m.last_index + shift, kind))
        return out
