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
        """The links linkify-it finds in ``text``, sorted by start (``mailto:`` ones are emails)."""
        with self._lock:
            matches = self._linkify.match(text) or []
        out = []
        for m in matches:
            kind = "email" if m.schema == "mailto:" or (not m.schema and "@" in m.raw and "/" not in m.raw) else "url"
            out.append(RawLink(m.index, m.last_index, kind))
        return out
