"""The magiclink backend: ``pymdownx.magiclink`` for Python-Markdown.

magiclink links ``http(s)://`` and ``ftp(s)://`` URLs, ``www.`` hosts and emails.  Its
inline processors are taken from a ``markdown.Markdown`` instance (``magiclink_spans``)
and run over the plain text the way Python-Markdown runs them: the link pattern first
(its ``handleMatch`` decides each span), then the email pattern on the text between links.

``find`` gives the processors only the white-space-delimited tokens that can hold one of
their links (:func:`anchored_spans`): the same spans, from less text.
"""

from __future__ import annotations

import re
from typing import Any

from ._windows import anchored_windows
from .base import RawLink

__all__ = ["MagiclinkBackend", "anchored_spans", "magiclink_anchor", "magiclink_spans"]


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

    The processors are given only the white-space-delimited tokens that hold an anchor,
    joined into windows when close (``_windows.anchored_windows``, never cut inside a run:
    the spans are exactly those of one pass).  The email processor's spans are its
    pattern's matches: magiclink's ``handleMatch`` for emails takes every match whole
    (it only builds the element, which ``find`` does not need).
    """
    first = anchor.search(text)
    if first is None:
        return []
    patterns = md.inlinePatterns
    link = mail = None  # (markdown's Registry has no get())
    if "magic-link" in patterns:
        link = patterns["magic-link"]
    if "magic-mail" in patterns:
        mail = patterns["magic-mail"].getCompiledRegExp()
    out: list[RawLink] = []
    n = len(text)
    for lo, hi in anchored_windows(text, anchor, window=n + 1, first=first):
        gaps = [(lo, hi)] if link is None else _pattern_spans(link, text, lo, hi, "url", out)
        if mail is None:
            continue
        for glo, ghi in gaps:
            if ghi - glo > 2:
                data = text[glo:ghi]
                if "@" in data:
                    out += [RawLink(glo + m.start(), glo + m.end(), "email") for m in mail.finditer(data)]
    if len(out) > 1:
        out.sort(key=lambda r: (r.start, r.end))
    return out


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
