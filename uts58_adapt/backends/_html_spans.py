"""Recover link spans from the HTML a linkifier produced for a plain text (Django and Jinja2 urlize).

Such linkifiers return HTML, not offsets.  Given the input ``text`` and the library's
output for it (with escaping on), the output's text content (entities decoded) is the
input again, and every ``<a>`` element covers the span the library linked.  The
library's own rules decide the spans; nothing of them is re-implemented here.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Literal

from .base import RawLink

__all__ = ["anchor_hrefs", "anchor_spans", "without_surrogates"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD (same length, so the same offsets).

    Django's urlize encodes words to UTF-8 and raises on a lone surrogate; a surrogate is
    Link_Term=Hard, so no link crosses one either way.
    """
    return _SURROGATE.sub("\ufffd", text)


class _AnchorCollector(HTMLParser):
    """Text content of an HTML fragment with the offsets and hrefs of its ``<a>`` elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.length = 0
        self.anchors: list[tuple[int, int, str]] = []
        self._open: tuple[int, str] | None = None

    def handle_data(self, data: str) -> None:
        self.parts.append(data)
        self.length += len(data)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a" and self._open is None:
            self._open = (self.length, dict(attrs).get("href") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._open is not None:
            start, href = self._open
            self.anchors.append((start, self.length, href))
            self._open = None


def anchor_spans(text: str, rendered: str) -> list[RawLink]:
    """The spans of ``text`` that ``rendered`` made into links (see :func:`anchor_hrefs`)."""
    return [link for link, _ in anchor_hrefs(text, rendered)]


def anchor_hrefs(text: str, rendered: str) -> list[tuple[RawLink, str]]:
    """The spans of ``text`` that ``rendered`` (the library's HTML for ``text``) made into links, with their hrefs.

    An anchor whose href starts with ``mailto:`` is an email.  When the output's text
    content differs from ``text`` (a shortened display text, say), each anchor's text is
    looked up in ``text`` from the end of the previous one, and anchors not found there
    are left out.
    """
    collector = _AnchorCollector()
    collector.feed(rendered)
    collector.close()
    content = "".join(collector.parts)
    out: list[tuple[RawLink, str]] = []
    pos = 0
    for start, end, href in collector.anchors:
        if start == end:
            continue
        kind: Literal["url", "email"] = "email" if href[:7].lower() == "mailto:" else "url"
        if content != text:
            found = text.find(content[start:end], pos)
            if found == -1:
                continue
            start, end = found, found + (end - start)
        out.append((RawLink(start, end, kind), href))
        pos = end
    return out
