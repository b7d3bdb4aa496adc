"""The magiclink backend: ``pymdownx.magiclink`` for Python-Markdown.

magiclink links ``http(s)://`` and ``ftp(s)://`` URLs, ``www.`` hosts and emails.  Its
inline processors are taken from a ``markdown.Markdown`` instance (``magiclink_spans``)
and run over the plain text the way Python-Markdown runs them: the link pattern first
(its ``handleMatch`` decides each span), then the email pattern on the text between links.
"""

from __future__ import annotations

from typing import Any

from .base import RawLink

__all__ = ["MagiclinkBackend", "magiclink_spans"]


def _pattern_spans(pattern: Any, text: str, lo: int, hi: int, kind: str, out: list[RawLink]) -> list[tuple[int, int]]:
    """Run an inline processor over ``text[lo:hi]``; append its links, return the gaps between them."""
    data = text[lo:hi]
    regex = pattern.getCompiledRegExp()
    gaps = []
    pos = 0
    while pos <= len(data):
        m = regex.search(data, pos)
        if m is None:
            break
        el, start, end = pattern.handleMatch(m, data)
        if el is None or start is None or end is None or end <= start:
            pos = m.end() if m.end() > pos else pos + 1
            continue
        out.append(RawLink(lo + start, lo + end, kind))  # type: ignore[arg-type]
        gaps.append((lo + pos, lo + start))
        pos = end
    gaps.append((lo + pos, hi))
    return gaps


def magiclink_spans(md: Any, text: str) -> list[RawLink]:
    """The spans the magiclink patterns registered in ``md`` (a ``markdown.Markdown``) link in ``text``."""
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


class MagiclinkBackend:
    """pymdownx.magiclink behind the :class:`~uts58_adapt.backends.base.Backend` protocol."""

    name = "magiclink"

    def __init__(self) -> None:
        import markdown

        self._md = markdown.Markdown(extensions=["pymdownx.magiclink"])
        # The patterns' unescape() reads the inline tree processor's stash, set per document.
        self._md.treeprocessors["inline"].stashed_nodes = {}

    def find(self, text: str) -> list[RawLink]:
        """The links magiclink finds in ``text``, sorted by start."""
        return magiclink_spans(self._md, text)
