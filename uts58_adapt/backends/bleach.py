"""The bleach backend: ``bleach.linkifier.Linker``, built with every ICANN TLD, offline.

bleach's default ``url_re`` and ``email_re`` know a short TLD list; here both are
rebuilt with ``build_url_re`` / ``build_email_re`` from the bundled Public Suffix List
snapshot (one trie-shaped pattern, which bleach joins into its regexes unescaped, as
linkify-it does), and emails are on (``parse_email=True``).

``bleach_spans`` is the span logic of bleach's ``LinkifyFilter`` for one text node:
emails first (when ``parse_email``), then ``url_re`` on the text between them, each
match trimmed by the filter's own ``strip_non_url_bits``.  The ``wrap()`` integration
(``integrations/bleach.py``) uses it on every text node.

The fast path (:func:`linker_anchors`): when a filter's ``url_re`` (and, with emails on,
its ``email_re``) is one that bleach's ``build_url_re`` / ``build_email_re`` (or this
module's ``build_url_re``) builds, whatever its TLDs and protocols, every link holds an
*anchor* (a ``.`` before one of its TLDs and no word character when the TLDs are a list
of names, as bleach's own; else a ``.`` before the first character of one of them; ``@``
for emails) and no white space, so the regexes are run only on the white-space-delimited tokens that hold
one, with the same spans (tests/test_fast_path_bleach.py).  Any other ``url_re`` or
``email_re`` runs on the whole text node, as bleach does.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import pairwise
from typing import Any

from ._tlds import tld_pattern
from ._windows import WINDOW as _WINDOW
from ._windows import anchored_windows
from ._windows import windows as _windows
from .base import RawLink

try:  # Python 3.11+
    from re import _constants as _sre  # type: ignore[attr-defined]
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _sre
    import sre_parse as _sre_parse

__all__ = ["Anchors", "BleachBackend", "bleach_find", "bleach_spans", "build_url_re", "linker_anchors"]


@lru_cache(maxsize=1)
def _marks() -> str:
    """A character-class body of every combining mark (General_Category M*), as ranges."""
    ranges: list[tuple[int, int]] = []
    for cp in range(sys.maxunicode + 1):
        if unicodedata.category(chr(cp))[0] == "M":
            if ranges and ranges[-1][1] == cp - 1:
                ranges[-1] = (ranges[-1][0], cp)
            else:
                ranges.append((cp, cp))
    return "".join(f"\\U{a:08x}-\\U{b:08x}" if a != b else f"\\U{a:08x}" for a, b in ranges)


def build_url_re(tlds: list[str] | None = None) -> re.Pattern[str]:
    """bleach's own ``build_url_re(tlds)``, with combining marks allowed in host labels.

    Python's ``\\w`` has no combining marks, so bleach's ``[\\w-]+`` labels stop inside
    ``পরীক্ষা`` or ``ការសាកល្បង``; the pattern is bleach's, with marks added to that class
    and to the word boundary after the TLD.
    """
    from bleach.linkifier import build_url_re as bleach_build_url_re

    url_re = bleach_build_url_re(tlds=tlds if tlds is not None else [tld_pattern()])
    marks = _marks()
    source = url_re.pattern.replace(r"[\w-]+\.", rf"[\w{marks}-]+\.")
    source = source.replace(r"(?!\.\w)\b", rf"(?!\.\w)(?![\w{marks}])")
    return re.compile(source, url_re.flags)


def bleach_spans(linkify_filter: Any, text: str, parse_email: bool, *, fast: bool = True) -> list[RawLink]:
    """The spans a ``bleach.linkifier.LinkifyFilter`` links in one text node ``text``, sorted.

    With ``fast`` (default), when the filter's regexes have anchors (:func:`linker_anchors`)
    they read only the tokens that hold one (:func:`_anchored_spans`), with the same result.
    """
    if fast:
        anchors = linker_anchors(linkify_filter.url_re, linkify_filter.email_re if parse_email else None)
        if anchors is not None:
            return _anchored_spans(linkify_filter, text, parse_email, anchors)
    out: list[RawLink] = []
    pieces = [(0, len(text))]
    if parse_email:
        pieces = []
        pos = 0
        for m in linkify_filter.email_re.finditer(text):
            if m.end() > m.start():
                start = m.start()
                if start - 7 >= pos and text[start - 7 : start].lower() == "mailto:":
                    start -= 7  # bleach links the address after ``mailto:``; the link is ``mailto:…`` (§5)
                out.append(RawLink(start, m.end(), "email"))
                pieces.append((pos, start))
                pos = m.end()
        pieces.append((pos, len(text)))
    for lo, hi in pieces:
        piece = text[lo:hi]  # bleach gives the text between emails to url_re as separate nodes
        for m in linkify_filter.url_re.finditer(piece):
            url, prefix, _suffix = linkify_filter.strip_non_url_bits(m.group(0))
            if url:
                start = lo + m.start() + len(prefix)
                out.append(RawLink(start, start + len(url), "url"))
    out.sort(key=lambda r: (r.start, r.end))
    return out


def bleach_find(linkify_filter: Any, text: str, parse_email: bool, *, fast: bool = True) -> list[RawLink]:
    """``bleach_spans`` on ``text``, given in bounded windows when it is long.

    bleach's ``email_re`` (and its ``url_re`` on some input) takes time quadratic in
    the length of a run without white space, so a long text is given to it in the
    windows urlextract's backend uses (``urlextract._windows``: cut after white space,
    which no bleach span crosses, else overlapping by more than a host and scheme).
    On the fast path, when every window ends after white space, the text is read in one
    pass of :func:`_anchored_spans`, which gives the windows' links (its regexes read only
    the tokens that hold an anchor, each within one window).
    ``fast=False``: the plain path of :func:`bleach_spans` (the reference of the tests).
    """
    spans: Callable[[Any, str, bool], list[RawLink]]
    if not fast:
        spans = partial(bleach_spans, fast=False)
    else:
        spans = bleach_spans  # looked up here: tests/test_newlib_backends.py replaces it
    if len(text) <= _WINDOW:
        return spans(linkify_filter, text, parse_email)
    cuts = list(_windows(text))
    if fast and all(a[1] == b[0] and text[b[0]] != '"' for a, b in pairwise(cuts)):
        # Every window ends after white space (no run cut inside) and the next does not start
        # with the ``"`` of email_re's ``^"…"@`` (``^`` would match at a window's start only):
        # the windows' links are those of one pass, which the fast path makes without slices.
        anchors = linker_anchors(linkify_filter.url_re, linkify_filter.email_re if parse_email else None)
        if anchors is not None:
            return _anchored_spans(linkify_filter, text, parse_email, anchors)
    seen: set[RawLink] = set()
    for lo, hi in cuts:
        for r in spans(linkify_filter, text[lo:hi], parse_email):
            seen.add(RawLink(r.start + lo, r.end + lo, r.kind))
    return sorted(seen, key=lambda r: (r.start, r.end))


# --- The fast path: anchors of bleach's own regex shapes ------------------------------------------


@dataclass(frozen=True)
class Anchors:
    """What every link of a filter holds: ``url`` (a ``.`` before a TLD, or before a TLD's
    first character) for its ``url_re``; ``any`` also ``@`` when its ``email_re`` is used."""

    url: re.Pattern[str]
    any: re.Pattern[str]


_AT = re.compile("@")
#: Anchored tokens at most this far apart go to ``url_re`` in one window (``_windows.GAP``):
#: 0-8 were 5 % faster than 32 on the dense corpus (bleach's regex tries every word start
#: between tokens), and as fast on Debian docs.
GAP = 8
#: Every character ``\s`` matches in a str pattern (str.isspace(); tests check the list).
SPACES = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + ("\u2028\u2029\u202f\u205f\u3000")
)
_ANCHOR_CACHE: dict[tuple[int, int], tuple[Any, Any, Anchors | None]] = {}


def linker_anchors(url_re: Any, email_re: Any | None) -> Anchors | None:
    """The anchors of a bleach filter whose regexes are ``url_re`` and (emails on) ``email_re``, or None.

    None (the plain path: the regexes read the whole text node) unless ``url_re`` is one
    that bleach's ``build_url_re(tlds, protocols)`` builds, or this module's
    :func:`build_url_re`, and ``email_re`` (when not None) one of ``build_email_re(tlds)``,
    their TLDs and protocols being names or patterns that match no white space (no
    lookaround, ``.``, negated class, back reference, flag change or ``#``).  Then every
    link holds a ``.`` followed by the first character of a TLD (by a whole TLD and no word
    character when the TLDs are a list of names such as bleach's ``TLDS``), and every email
    an ``@``, and none holds white space.  Kept per pair of regexes.
    """
    key = (id(url_re), id(email_re))
    known = _ANCHOR_CACHE.get(key)
    if known is not None and known[0] is url_re and known[1] is email_re:
        return known[2]
    anchors = _linker_anchors(url_re, email_re)
    if len(_ANCHOR_CACHE) >= 64:
        _ANCHOR_CACHE.clear()
    _ANCHOR_CACHE[key] = (url_re, email_re, anchors)
    return anchors


def _linker_anchors(url_re: Any, email_re: Any | None) -> Anchors | None:
    from bleach.linkifier import build_email_re as bleach_build_email_re
    from bleach.linkifier import build_url_re as bleach_build_url_re

    if not isinstance(url_re, re.Pattern) or not isinstance(url_re.pattern, str):
        return None
    probe = bleach_build_url_re(tlds=["\x00T\x00"], protocols=["\x00P\x00"])
    # This module's variant (every combining mark written as \U ranges) is built only when it can match.
    templates = [probe.pattern, _marks_variant(probe.pattern)] if "\\U" in url_re.pattern else [probe.pattern]
    url = None
    tlds = ""
    for template in templates:
        parts = _split(url_re.pattern, template, ("\x00P\x00", "\x00T\x00"))
        if parts is not None and url_re.flags == probe.flags:
            protocols, tlds = parts
            if _first(protocols, url_re.flags) is not None:
                url = _first(tlds, url_re.flags)
                break
    if url is None:
        return None
    nullable, initials = url
    if _NAMES.fullmatch(tlds):
        # A list of names, each ending on a word character, as bleach's own TLDS: after its
        # TLD a link has a port's ":" or a non-word character (``\b``, ``(?![\w…])``), so
        # the anchor is a "." before one of the names and no word character.
        url_anchor = re.compile(f"\\.(?:{_trie(tlds.split('|'))})(?!\\w)", re.IGNORECASE)
    elif nullable or initials is None:
        url_anchor = re.compile(r"\.")
    else:
        url_anchor = re.compile("\\.[" + "".join(_class_char(c) for c in sorted(initials)) + "]", re.IGNORECASE)
    if email_re is None:
        return Anchors(url_anchor, url_anchor)
    if not isinstance(email_re, re.Pattern) or not isinstance(email_re.pattern, str):
        return None
    email_probe = bleach_build_email_re(tlds=["\x00T\x00"])
    parts = _split(email_re.pattern, email_probe.pattern, ("\x00T\x00",))
    if parts is None or email_re.flags != email_probe.flags or _first(parts[0], email_re.flags) is None:
        return None
    return Anchors(url_anchor, re.compile(f"{url_anchor.pattern}|@", re.IGNORECASE))


_NAMES = re.compile(r"[\w-]*\w(?:\|[\w-]*\w)*")


def _trie(names: list[str]) -> str:
    """One pattern matching exactly the ``names`` (``co|com|coop`` -> ``co(?:op|m)?``):
    a search tries a few branches at each ``.``, not every name."""
    tree: dict[str, Any] = {}
    for name in names:
        node = tree
        for ch in name:
            node = node.setdefault(ch, {})
        node[""] = {}

    def render(node: dict[str, Any]) -> str:
        keys = sorted(k for k in node if k)
        leaves = [k for k in keys if node[k] == {"": {}}]
        alts = [re.escape(k) + render(node[k]) for k in keys if node[k] != {"": {}}]
        if leaves:
            alts.append(re.escape(leaves[0]) if len(leaves) == 1 else f"[{''.join(map(_class_char, leaves))}]")
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if "" in node else body

    return render(tree)


def _marks_variant(source: str) -> str:
    """What this module's :func:`build_url_re` makes of bleach's pattern ``source``."""
    marks = _marks()
    source = source.replace(r"[\w-]+\.", rf"[\w{marks}-]+\.")
    return source.replace(r"(?!\.\w)\b", rf"(?!\.\w)(?![\w{marks}])")


def _split(source: str, template: str, holes: tuple[str, ...]) -> tuple[str, ...] | None:
    """The texts that fill ``holes`` of ``template`` to give ``source`` (each hole once), or None."""
    pieces = [template]
    for hole in holes:
        last = pieces.pop().split(hole)
        if len(last) != 2:
            return None
        pieces += last
    if not source.startswith(pieces[0]) or not source.endswith(pieces[-1]):
        return None
    rest = source[len(pieces[0]) : len(source) - len(pieces[-1])]
    if len(source) < len(pieces[0]) + len(pieces[-1]):
        return None
    filled: list[str] = []
    for middle in pieces[1:-1]:
        if rest.count(middle) != 1:
            return None
        value, rest = rest.split(middle)
        filled.append(value)
    filled.append(rest)
    return tuple(filled)


def _class_char(ch: str) -> str:
    return "\\" + ch if ch in "\\]^-[" else ch


def _first(fragment: str, flags: int) -> tuple[bool, frozenset[str] | None] | None:
    """For a fragment of a bleach pattern (its TLDs or protocols, joined by ``|``): whether it
    can match the empty string and the characters a match can start with (None: any), or None
    when a match could hold white space or depends on context (see :func:`linker_anchors`)."""
    if "#" in fragment or any(ch in SPACES for ch in fragment):
        return None
    try:
        parsed = _sre_parse.parse(fragment, flags)
    except (re.error, RecursionError, OverflowError):
        return None
    try:
        return _seq(list(parsed))
    except _Unsafe:
        return None


class _Unsafe(Exception):
    pass


def _seq(items: Iterable[tuple[Any, Any]]) -> tuple[bool, frozenset[str] | None]:
    """Whether a sequence can match the empty string, and its first characters; every item is
    checked (raising ``_Unsafe``), not only those that can start a match."""
    first: set[str] | None = set()
    nullable = True
    for op, av in items:
        item_nullable, chars = _node(op, av)
        if nullable and first is not None:
            first = None if chars is None else first | chars
        nullable = nullable and item_nullable
    return nullable, None if first is None else frozenset(first)


def _no_space(lo: int, hi: int) -> None:
    if any(lo <= ord(ch) <= hi for ch in SPACES):
        raise _Unsafe


def _node(op: Any, av: Any) -> tuple[bool, frozenset[str] | None]:
    if op is _sre.LITERAL:
        _no_space(av, av)
        return False, frozenset(chr(av))
    if op is _sre.IN:
        chars: set[str] | None = set()
        for item_op, item in av:
            if item_op is _sre.LITERAL:
                _no_space(item, item)
                if chars is not None:
                    chars.add(chr(item))
            elif item_op is _sre.RANGE:
                _no_space(*item)
                chars = (
                    None
                    if chars is None or item[1] - item[0] > 256
                    else chars | set(map(chr, range(item[0], item[1] + 1)))
                )
            elif item_op is _sre.CATEGORY and item in (_sre.CATEGORY_WORD, _sre.CATEGORY_DIGIT):
                chars = None
            else:
                raise _Unsafe  # a negated class, a space class…
        return False, None if chars is None else frozenset(chars)
    if op is _sre.BRANCH:
        any_nullable = False
        union: set[str] | None = set()
        for branch in av[1]:
            n, f = _seq(branch)
            any_nullable |= n
            union = None if f is None or union is None else union | f
        return any_nullable, None if union is None else frozenset(union)
    if op is _sre.SUBPATTERN:
        _group, add_flags, del_flags, body = av
        if add_flags or del_flags:
            raise _Unsafe
        return _seq(body)
    if op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT) or op is getattr(_sre, "POSSESSIVE_REPEAT", None):
        low, _high, body = av
        body_nullable, body_first = _seq(body)
        return body_nullable or low == 0, body_first
    if op is getattr(_sre, "ATOMIC_GROUP", None):
        return _seq(av)
    raise _Unsafe  # ".", a negated literal, lookaround, anchors, back references…


def _anchored_spans(linkify_filter: Any, text: str, parse_email: bool, anchors: Anchors) -> list[RawLink]:
    """:func:`bleach_spans` from the tokens of ``text`` that hold an anchor, with the same result.

    A token runs from just after white space (``\\s``) to just after the next; the regexes
    are run on the whole text with ``pos`` and ``endpos`` (so look-behinds, ``\\b`` and
    ``^`` see the text before a token), and no match holds white space, so each match of
    one pass lies in a token that holds its anchor and is found there.  The one exception,
    an ``email_re`` quoted local part (``^"a b"@…``, at the start of a line, white space
    allowed), is looked for in the whole text when a line starts with ``"``.
    """
    first = anchors.any.search(text)
    if first is None:
        return []
    n = len(text)
    out: list[RawLink] = []
    pieces: list[tuple[int, int]] | None = None
    if parse_email and "@" in text:
        email_re = linkify_filter.email_re
        matches: Iterable[re.Match[str]]
        if text.startswith('"') or '\n"' in text:
            matches = email_re.finditer(text)
        else:
            matches = [m for lo, hi in anchored_windows(text, _AT, window=n) for m in email_re.finditer(text, lo, hi)]
        pos = 0
        for m in matches:
            if m.end() > m.start():
                start = m.start()
                if start - 7 >= pos and text[start - 7 : start].lower() == "mailto:":
                    start -= 7  # as bleach_spans
                out.append(RawLink(start, m.end(), "email"))
                if pieces is None:
                    pieces = []
                pieces.append((pos, start))
                pos = m.end()
        if pieces is not None:
            pieces.append((pos, n))
    # ``search`` from the end of each match: what ``finditer`` does (no match is empty), without
    # its iterator (a third of the time on link-dense text).  A window ends after white space
    # (or at the end): one character left cannot start a match, which needs at least ``x.``.
    search = linkify_filter.url_re.search
    strip = linkify_filter.strip_non_url_bits
    if pieces is None:
        # One text node: the URLs come sorted, windows and matches being in order and disjoint.
        url_first = first if anchors.any is anchors.url or first.group() != "@" else anchors.url.search(text)
        for wlo, whi in anchored_windows(text, anchors.url, gap=GAP, window=n, first=url_first) if url_first else ():
            u = search(text, wlo, whi)
            while u is not None:
                url, prefix, _suffix = strip(u.group())
                if url:
                    start = u.start() + len(prefix)
                    out.append(RawLink(start, start + len(url), "url"))
                u = None if u.end() + 1 >= whi else search(text, u.end(), whi)
        return out
    for lo, hi in pieces:
        piece = text[lo:hi]  # bleach's separate nodes between emails
        for wlo, whi in anchored_windows(piece, anchors.url, gap=GAP, window=len(piece)):
            u = search(piece, wlo, whi)
            while u is not None:
                url, prefix, _suffix = strip(u.group())
                if url:
                    start = lo + u.start() + len(prefix)
                    out.append(RawLink(start, start + len(url), "url"))
                u = None if u.end() + 1 >= whi else search(piece, u.end(), whi)
    out.sort(key=lambda r: (r.start, r.end))
    return out


class BleachBackend:
    """bleach's linkifier behind the :class:`~uts58_adapt.backends.base.Backend` protocol."""

    name = "bleach"

    def __init__(self) -> None:
        from bleach.linkifier import LinkifyFilter, build_email_re

        tlds = [tld_pattern()]
        self._filter = LinkifyFilter(
            source=iter(()),
            parse_email=True,
            url_re=build_url_re(tlds),
            email_re=build_email_re(tlds=tlds),
        )

    def plain(self, text: str) -> list[RawLink]:
        """The links bleach finds in ``text`` with its regexes over all of it: the reference
        that :meth:`find` is tested against (tests/test_fast_path_bleach.py)."""
        return bleach_find(self._filter, text, True, fast=False)

    def find(self, text: str) -> list[RawLink]:
        """The links bleach finds in ``text`` (as one text node), sorted by start, from the
        tokens that hold an anchor (:func:`linker_anchors`): those of :meth:`plain`."""
        return bleach_find(self._filter, text, True)
