"""The magiclink backend: ``pymdownx.magiclink`` for Python-Markdown.

magiclink links ``http(s)://`` and ``ftp(s)://`` URLs, ``www.`` hosts and emails.  Its
inline processors are taken from a ``markdown.Markdown`` instance (``magiclink_spans``)
and run over the plain text the way Python-Markdown runs them: the link pattern first
(its ``handleMatch`` decides each span), then the email pattern on the text between links.

``find`` runs the link processor's pattern only where one of its anchors (``://``,
``www.``) is, and the email processor only on the white-space-delimited tokens that hold an
``@`` (:func:`anchored_spans`): the same spans, from less text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ._windows import ANY_SPACE
from .base import RawLink

__all__ = ["MagiclinkBackend", "anchored_spans", "link_matches", "magiclink_anchor", "magiclink_spans"]


def _pattern_spans(pattern: Any, text: str, lo: int, hi: int, kind: str, out: list[RawLink]) -> list[tuple[int, int]]:
    """Run an inline processor over ``text[lo:hi]``; append its links, return the gaps between them."""
    data = text[lo:hi]
    regex = pattern.getCompiledRegExp()
    gaps = []
    pos = last = 0  # where the next search starts; the end of the last link
    while pos <= len(data):
        m = regex.search(data, pos)
        if m is None:
            break
        el, start, end = pattern.handleMatch(m, data)
        if el is None or start is None or end is None or end <= start:
            # Rejected: the text stays in the gap, as in Python-Markdown, where the next
            # processor sees all of it (``w@b.com http://`` links the email).
            pos = m.end() if m.end() > pos else pos + 1
            continue
        out.append(RawLink(lo + start, lo + end, kind))  # type: ignore[arg-type]
        gaps.append((lo + last, lo + start))
        pos = last = end
    gaps.append((lo + last, hi))
    return gaps


def magiclink_spans(md: Any, text: str) -> list[RawLink]:
    """The spans the magiclink patterns registered in ``md`` (a ``markdown.Markdown``) link in ``text``.

    The reference (one pass of each processor over the whole text) that :func:`anchored_spans`
    is tested against, and the benchmark's "library alone".
    """
    out: list[RawLink] = []
    gaps = [(0, len(text))]
    patterns = md.inlinePatterns
    if "magic-link" in patterns:
        gaps = [g for lo, hi in gaps for g in _pattern_spans(patterns["magic-link"], text, lo, hi, "url", out)]
    if "magic-mail" in patterns:
        for lo, hi in gaps:
            _pattern_spans(patterns["magic-mail"], text, lo, hi, "email", out)
    out.sort(key=lambda r: (r.start, r.end))
    return out


#: Where the link processor's ``RE_LINK`` can match: every match holds ``://`` or is ``www.``
#: (without regard to case, where only ``W`` and ``w`` match ``w``).  Where its look-behind
#: also holds is left to the processor.  A character class first: one cheap scan of the text.
_LINK_ANCHOR = (":wW", r"(?<=:)//|(?<=[wW])[wW][wW]\.")
#: Every match of the email processor's ``RE_MAIL`` holds an ``@``.
_MAIL_ANCHOR = ("@", r"(?<=@)")


def magiclink_anchor(md: Any) -> re.Pattern[str] | None:
    """A pattern that every link of the magiclink processors registered in ``md`` contains, or None.

    From magiclink's own patterns: the ``://`` or ``www.`` that every match of the link
    processor's ``RE_LINK`` holds (``http://``, ``ftps://``, ``www.``) and, for the email
    processor, the ``@`` that ``RE_MAIL`` requires.  Both processors' spans hold no white
    space (``RE_LINK_PATH`` stops at it, as the email pattern does) and their look-arounds
    treat white space like the ends of the text, so the spans found in the tokens that
    hold an anchor are those of one pass (tests/test_fast_path_inline.py).  magiclink's
    options (``hide_protocol``, the shorteners and shorthands, ``custom`` providers) change
    the elements, not these spans or patterns.

    None when a processor is not magiclink's own (another class's ``handleMatch``, another
    pattern): its spans are not known to stay in one token, and ``find`` then makes one pass.
    """
    from pymdownx.magiclink import RE_LINK, RE_MAIL, MagiclinkMailPattern, MagiclinkPattern

    patterns = md.inlinePatterns
    parts = []
    if "magic-link" in patterns:
        link = patterns["magic-link"]
        if type(link).handleMatch is not MagiclinkPattern.handleMatch or link.compiled_re.pattern != RE_LINK:
            return None
        parts.append(_LINK_ANCHOR)
    if "magic-mail" in patterns:
        mail = patterns["magic-mail"]
        if type(mail).handleMatch is not MagiclinkMailPattern.handleMatch or mail.compiled_re.pattern != RE_MAIL:
            return None
        parts.append(_MAIL_ANCHOR)
    if not parts:
        return re.compile(r"(?!)")
    first = "".join(chars for chars, _ in parts)
    return re.compile(f"[{first}](?:{'|'.join(rest for _, rest in parts)})")


def anchored_spans(md: Any, text: str, anchor: re.Pattern[str]) -> list[RawLink]:
    """:func:`magiclink_spans` (``anchor`` is :func:`magiclink_anchor` of ``md``), from less text.

    The link processor's pattern is searched only at its anchors: a match of ``RE_LINK``
    is a scheme of at most five letters and its ``://``, or ``www.``, so it starts at most
    five characters before the ``:`` or at the first ``w`` that :data:`_LINK_ONLY` finds,
    and ends where that anchor ends.  Each anchor costs one search of a few characters, in
    C; the processor's ``handleMatch`` is given the whole text, as in one pass.  The email
    processor is given, in each text between links, only the white-space-delimited tokens
    that hold an ``@``: its matches hold an ``@`` and no white space, and its look-arounds
    treat white space like the ends of the text.  The spans are exactly those of one pass
    (tests/test_fast_path_inline.py).  The email processor's spans are its pattern's
    matches: magiclink's ``handleMatch`` for emails takes every match whole (it only builds
    the element, which ``find`` does not need).
    """
    if anchor.search(text) is None:
        return []
    patterns = md.inlinePatterns
    urls: list[RawLink] = []
    gaps = [(0, len(text))]
    if "magic-link" in patterns:  # (markdown's Registry has no get())
        gaps = _anchored_links(patterns["magic-link"], text, urls)
    if "magic-mail" not in patterns:
        return urls
    mail = patterns["magic-mail"].getCompiledRegExp()
    out: list[RawLink] = []  # in order: the emails of each gap, then the link after it (no sort)
    for i, (lo, hi) in enumerate(gaps):
        at = text.find("@", lo, hi)
        floor = lo  # where the token of the next "@" may start (linear: each token is read once)
        while at != -1:
            before = _SPACE.last.match(text, floor, at)
            start = before.end() if before is not None else floor
            after = _SPACE.search.search(text, at, hi)
            end = after.start() if after is not None else hi
            data = text[start:end]
            out += [RawLink(start + m.start(), start + m.end(), "email") for m in mail.finditer(data)]
            floor = end
            at = text.find("@", end, hi)
        if i < len(urls):
            out.append(urls[i])
    return out


#: Where a match of the link processor's ``RE_LINK`` ends: ``://`` (this match starts on its
#: ``:``) or ``www.`` in any case (it starts on the first ``w``).  ``_SCHEME_MAX``: the
#: longest scheme ``RE_LINK`` takes before ``://`` (``https``, ``ftps``; ``ſ`` matches ``s``).
_LINK_ONLY = re.compile(r"[:wW](?:(?<=:)//|(?<=[wW])[wW][wW]\.)")
_SCHEME_MAX = 5
_SPACE = ANY_SPACE


def link_matches(regex: re.Pattern[str], text: str, pos: int = 0) -> Iterator[re.Match[str]]:
    """``regex.finditer(text, pos)`` for the link processor's ``RE_LINK``, searched only from its anchors.

    Each match holds an anchor (``://`` or ``www.``, :data:`_LINK_ONLY`) and starts at most
    :data:`_SCHEME_MAX` characters before it: the pattern is searched from there to the
    anchor's end, a few characters, instead of at every position of the text.  The matches
    are finditer's, in its order (the next search starts where a match ends).
    """
    a = _LINK_ONLY.search(text, pos)
    while a is not None:
        at = a.start()
        # The leftmost match from pos that ends by this anchor's end (one that starts further
        # on holds a later anchor; none starting before at - _SCHEME_MAX can end here).
        m = regex.search(text, at - _SCHEME_MAX if at - _SCHEME_MAX > pos else pos, a.end())
        if m is not None:
            yield m
            pos = m.end()
        a = _LINK_ONLY.search(text, pos if pos > at + 1 else at + 1)


def _anchored_links(pattern: Any, text: str, out: list[RawLink]) -> list[tuple[int, int]]:
    """:func:`_pattern_spans` of the link processor over the whole text, its pattern searched
    only from each anchor (see :func:`anchored_spans`): same matches, same ``handleMatch`` calls.

    :func:`link_matches`' search, inlined: after a link the search goes on where the link
    ends, and a generator costs about 4% of ``find`` on the dense corpus."""
    regex = pattern.getCompiledRegExp()
    gaps = []
    pos = last = 0  # where the next match may start; the end of the last link
    a = _LINK_ONLY.search(text)
    while a is not None:
        at = a.start()
        # The leftmost match from pos that ends by this anchor's end (one that starts further
        # on holds a later anchor; none starting before at - _SCHEME_MAX can end here).
        m = regex.search(text, at - _SCHEME_MAX if at - _SCHEME_MAX > pos else pos, a.end())
        if m is not None:
            el, start, end = pattern.handleMatch(m, text)
            if el is None or start is None or end is None or end <= start:
                pos = m.end() if m.end() > pos else pos + 1  # rejected: as in _pattern_spans
            else:
                out.append(RawLink(start, end, "url"))
                gaps.append((last, start))
                pos = last = end
        a = _LINK_ONLY.search(text, pos if pos > at + 1 else at + 1)
    gaps.append((last, len(text)))
    return gaps


class MagiclinkBackend:
    """pymdownx.magiclink behind the :class:`~uts58_adapt.backends.base.Backend` protocol."""

    name = "magiclink"

    def __init__(self) -> None:
        import markdown

        self._md = markdown.Markdown(extensions=["pymdownx.magiclink"])
        # The patterns' unescape() reads the inline tree processor's stash, set per document.
        self._md.treeprocessors["inline"].stashed_nodes = {}
        self._anchor = magiclink_anchor(self._md)

    def plain(self, text: str) -> list[RawLink]:
        """The links of one pass of magiclink's processors over ``text`` (:func:`magiclink_spans`)."""
        return magiclink_spans(self._md, text)

    def find(self, text: str) -> list[RawLink]:
        """The links magiclink finds in ``text``, sorted by start (:meth:`plain`, from the anchored tokens)."""
        if self._anchor is None:
            return magiclink_spans(self._md, text)
        return anchored_spans(self._md, text, self._anchor)
