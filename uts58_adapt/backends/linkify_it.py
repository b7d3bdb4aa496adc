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
import weakref
from collections.abc import Iterator
from typing import Any, Literal

from linkify_it.main import LinkifyIt, Match

from ._tlds import tld_initials, tld_pattern
from ._windows import LINKIFY_IT_CUT, anchored_windows, windows
from .base import RawLink

__all__ = ["LinkifyItBackend", "anchored_matches", "instance_anchor", "merge_windows"]

#: Anchored tokens at most this far apart go to linkify-it in one window.  linkify-it-py 2.2
#: matches a text in one pass of each of its patterns, so joining tokens saves little more
#: than the cost of a call: 4 to 8 was the fastest of 0-32 on both benchmark corpora (CPU
#: time of the backend pass 3 % below the 32 that ``_windows.GAP`` keeps for urlextract on
#: the Debian docs, 6 % on the dense multilingual corpus).
GAP = 8


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
        with self._lock:
            return [self._raw(m, 0) for m in anchored_matches(self._linkify, text, self._anchor)]

    def _spans(self, text: str, shift: int) -> list[RawLink]:
        """linkify-it's matches in ``text`` as RawLinks, offsets plus ``shift``; the caller holds the lock."""
        return [self._raw(m, shift) for m in self._linkify.match(text) or ()]

    @staticmethod
    def _raw(m: Match, shift: int) -> RawLink:
        email = m.schema == "mailto:" or (not m.schema and "@" in m.raw and "/" not in m.raw)
        kind: Literal["url", "email"] = "email" if email else "url"
        return RawLink(m.index + shift, m.last_index + shift, kind)


# --- Anchors of any configured LinkifyIt instance (the fast path of a wrapped instance) -----------

#: linkify-it's own validators: their links hold no white space (nor do its fuzzy links and emails).
_OWN_VALIDATORS = (LinkifyIt._validate_http, LinkifyIt._validate_double_slash, LinkifyIt._validate_mailto)
#: A TLD entry linkify-it puts in its pattern as it is: letters, digits, hyphens (any script).
_PLAIN_TLD = re.compile(r"[^\W_]+(?:-[^\W_]*)*")
_NEVER = re.compile(r"(?!)")


#: instance -> (its compiled schemas, its patterns, its options, the anchor); add(), tlds() and
#: set() replace the first two or change the third, which makes the entry stale.
_ANCHORS: weakref.WeakKeyDictionary[LinkifyIt, tuple[object, object, tuple[Any, ...], re.Pattern[str] | None]] = (
    weakref.WeakKeyDictionary()
)


def instance_anchor(linkify: LinkifyIt) -> re.Pattern[str] | None:
    """A pattern that every link of ``linkify`` (as configured now) contains, or None.

    From the instance's own configuration (``add()``, ``set()``, ``tlds()``): the name of
    each schema it links (``http:``, ``mailto:``, ``//``, aliases such as ``add("git:",
    "http:")``; a disabled one is left out), ``@`` when it links fuzzy emails, and for
    fuzzy links a ``.`` before the first character of one of its TLDs (any letter with the
    default list, which takes every two-letter TLD; ``xn--`` names; a digit when
    ``fuzzy_ip`` is on), matched without regard to case as linkify-it matches them.

    None (no anchors: one plain call is needed) when a schema has a validator of its own
    (a pattern or function, which may take white space into a link), a schema name holds
    white space, or a TLD entry is a pattern rather than a name.  Then
    :func:`anchored_matches` cannot be used.  Kept per instance until its configuration changes.
    """
    compiled = getattr(linkify, "_compiled", None)
    patterns = getattr(linkify, "re", None)
    options = getattr(linkify, "_opts", None)
    state = tuple(options.items()) if isinstance(options, dict) else ()
    try:
        known = _ANCHORS.get(linkify)
    except TypeError:  # not weak-referenceable or not hashable
        return _instance_anchor(linkify)
    if known is not None and known[0] is compiled and known[1] is patterns and known[2] == state:
        return known[3]
    anchor = _instance_anchor(linkify)
    _ANCHORS[linkify] = (compiled, patterns, state, anchor)
    return anchor


def _instance_anchor(linkify: LinkifyIt) -> re.Pattern[str] | None:
    """:func:`instance_anchor`, computed."""
    compiled = getattr(linkify, "_compiled", None)
    options = getattr(linkify, "_opts", None)
    tlds = getattr(linkify, "_tlds", None)
    if not isinstance(compiled, dict) or not isinstance(options, dict) or not isinstance(tlds, list):
        return None
    parts: list[str] = []
    for name, value in compiled.items():
        if not name or not value:
            continue  # the fake record of fuzzy links, or a disabled schema
        validate = value.get("validate") if isinstance(value, dict) else None
        if (
            getattr(validate, "__self__", None) is not linkify
            or getattr(validate, "__func__", None) not in _OWN_VALIDATORS
        ):
            return None
        if not isinstance(name, str) or any(ch.isspace() for ch in name):
            return None
        parts.append(re.escape(name))
    if options.get("fuzzy_email") and compiled.get("mailto:"):
        parts.append("@")
    if options.get("fuzzy_link") and compiled.get("http:"):
        initials: set[str] = {"x"}  # xn--…, always in linkify-it's TLD pattern
        if not getattr(linkify, "_tlds_replaced", False):
            initials.update("abcdefghijklmnopqrstuvwxyz")  # its two-letter pattern
        for tld in tlds:
            if not isinstance(tld, str) or _PLAIN_TLD.fullmatch(tld) is None:
                return None
            initials.add(tld[0])
        if options.get("fuzzy_ip"):
            initials.update("0123456789")
        parts.append("\\.[" + "".join(re.escape(ch) for ch in sorted(initials)) + "]")
    if not parts:
        return _NEVER
    return re.compile("|".join(parts), re.IGNORECASE)


def anchored_matches(linkify: LinkifyIt, text: str, anchor: re.Pattern[str] | None) -> list[Match]:
    """``linkify.match(text)`` (as a list, sorted), given to linkify-it in anchored windows.

    ``anchor`` is :func:`instance_anchor` of ``linkify``.  The windows are those of
    :meth:`LinkifyItBackend.find`: the white-space-delimited tokens that hold an anchor,
    joined when at most ``GAP`` apart, so the matches are those of one call on the whole
    text (tests/test_fast_path.py), each the instance's own ``Match`` with its offsets
    moved to the text.  Without an anchor (None: an instance with a validator of its own),
    every window of the text.  A run of over ``WINDOW // 2`` code points without white
    space is cut inside, in overlapping windows (the bound that keeps linkify-it linear
    there), only just after a character its host matching cannot run across
    (``_windows.LINKIFY_IT_CUT``): a window never ends inside a host, where linkify-it
    may take time exponential in the number of labels that it would not take on the
    whole text (``xn--a.`` × n, issue 32).  There the matches can differ from one call:
    see :func:`merge_windows`.
    """
    if anchor is None:
        pieces: Iterator[tuple[int, int]] = windows(text, cut=LINKIFY_IT_CUT)
    else:
        first = anchor.search(text)
        if first is None:
            return []
        pieces = anchored_windows(text, anchor, gap=GAP, first=first, cut=LINKIFY_IT_CUT)
    out: list[Match] = []
    end = 0
    overlapped = False
    for lo, hi in pieces:
        if hi - lo == len(text):
            return linkify.match(text) or []
        inside = lo < end  # a window that starts inside a run, at a cut character
        overlapped |= inside
        end = hi
        for m in linkify.match(text[lo:hi]) or ():
            if inside and m.index == 0:
                continue  # linkify-it took the window's start for the start of a text
            if lo:
                m.index += lo
                m.last_index += lo
            out.append(m)
    return merge_windows(out) if overlapped else out


def merge_windows(matches: list[Match]) -> list[Match]:
    """The matches of overlapping windows as one call gives them: sorted, none twice, none
    inside another (linkify-it's matches of one text never overlap; of two that start at
    the same place, the longer one is of the window that saw more of the text)."""
    seen: dict[tuple[Any, ...], Match] = {}
    for m in matches:
        seen.setdefault((m.index, m.last_index, m.schema), m)
    out: list[Match] = []
    reach = 0
    for m in sorted(seen.values(), key=lambda m: (m.index, -m.last_index)):
        if m.index >= reach:
            out.append(m)
            reach = m.last_index
    return out
