"""Recover link spans from the HTML a linkifier produced for a plain text (Django and Jinja2 urlize).

Such linkifiers return HTML, not offsets.  Given the input ``text`` and the library's
output for it (with escaping on), the output's text content (entities decoded) is the
input again, and every ``<a>`` element covers the span the library linked.  The
library's own rules decide the spans; nothing of them is re-implemented here.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Literal

from ._windows import ANY_SPACE, anchored_windows
from .base import RawLink

__all__ = ["anchor_hrefs", "anchor_markup", "anchor_spans", "windowed_markup", "without_surrogates"]

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


#: The anchors linkifiers write: ``href`` first, double-quoted values, a text without markup.
_LIBRARY_ANCHOR = re.compile(r'<a href="([^"<>]*)"(?: [A-Za-z][A-Za-z0-9-]*="[^"<>]*")*>([^<>]*)</a>')


def _fast_parse(rendered: str) -> tuple[list[str], list[tuple[int, int, str, str]]] | None:
    """:class:`_AnchorCollector`'s reading of ``rendered`` when it is escaped text and library anchors.

    ``(parts, anchors)``: the text content in pieces, and for each anchor its start and
    end in the content, its href and its markup.  None when ``rendered`` holds any other
    markup (then the HTML parser reads it).  Each piece of text is decoded with
    ``html.unescape``, as the parser decodes the text between two tags.
    """
    if rendered.count("<") != 2 * rendered.count("<a "):
        return None
    parts: list[str] = []
    anchors: list[tuple[int, int, str, str]] = []
    length = pos = 0
    for m in _LIBRARY_ANCHOR.finditer(rendered):
        before = html.unescape(rendered[pos : m.start()])
        shown = html.unescape(m.group(2))
        parts += (before, shown)
        start = length + len(before)
        length = start + len(shown)
        anchors.append((start, length, html.unescape(m.group(1)), m.group()))
        pos = m.end()
    if len(anchors) * 2 != rendered.count("<"):
        return None
    parts.append(html.unescape(rendered[pos:]))
    return parts, anchors


def anchor_spans(text: str, rendered: str) -> list[RawLink]:
    """The spans of ``text`` that ``rendered`` made into links (see :func:`anchor_hrefs`)."""
    return [link for link, _, _ in anchor_markup(text, rendered)]


def anchor_hrefs(text: str, rendered: str) -> list[tuple[RawLink, str]]:
    """The spans of ``text`` that ``rendered`` (the library's HTML for ``text``) made into links, with their hrefs.

    See :func:`anchor_markup`.
    """
    return [(link, href) for link, href, _ in anchor_markup(text, rendered)]


def anchor_markup(text: str, rendered: str) -> list[tuple[RawLink, str, str | None]]:
    """The spans of ``text`` that ``rendered`` (the library's HTML for ``text``) made into links,
    with their hrefs and, when ``rendered`` is escaped text and plain anchors, each anchor's markup.

    An anchor whose href starts with ``mailto:`` is an email.  The text outside the anchors
    is the input's; when an anchor's text is not the input's at that place (Jinja2 shows
    ``mailto:a@b.org`` as ``a@b.org``, a display text may be shortened), it is looked up
    in ``text`` from there, and an anchor not found there is left out.
    """
    fast = _fast_parse(rendered)
    if fast is None:
        collector = _AnchorCollector()
        collector.feed(rendered)
        collector.close()
        parts = collector.parts
        found_anchors: list[tuple[int, int, str, str | None]] = [(a, b, h, None) for a, b, h in collector.anchors]
    else:
        parts, anchors = fast
        found_anchors = list(anchors)
    content = "".join(parts)
    out: list[tuple[RawLink, str, str | None]] = []
    shift = 0  # text offset minus content offset, after the last anchor placed
    same = content == text
    for start, end, href, markup in found_anchors:
        if start == end:
            continue
        kind: Literal["url", "email"] = "email" if href[:7].lower() == "mailto:" else "url"
        if not same:
            shown = content[start:end]
            at = start + shift
            found = at if text.startswith(shown, at) else text.find(shown, at)
            if found == -1:
                continue
            shift = found - start
            start, end = found, found + (end - start)
        out.append((RawLink(start, end, kind), href, markup))
    return out


def windowed_markup(
    text: str, anchor: re.Pattern[str], render: Callable[[str], str], gap: int
) -> list[tuple[RawLink, str, str | None]]:
    """:func:`anchor_markup` of ``render(text)``, from ``render`` of the anchored windows of ``text`` only.

    For a linkifier that splits its input into words at white space (a white-space
    character is part of no word) and links each word on its own, with ``anchor`` a
    pattern found in every word it links: the words outside the windows
    (``_windows.anchored_windows``, white-space-delimited tokens that hold an anchor,
    joined when at most ``gap`` apart, never cut inside a token) are not linked, so the
    spans are those of one call on the whole text (tests/test_fast_path_urlize.py).
    """
    out: list[tuple[RawLink, str, str | None]] = []
    first = anchor.search(text)
    if first is None:
        return out
    for lo, hi in anchored_windows(text, anchor, ANY_SPACE, gap, len(text) + 1, first):
        window = text[lo:hi] if hi - lo < len(text) else text
        for link, href, markup in anchor_markup(window, render(window)):
            if lo:
                link = RawLink(link.start + lo, link.end + lo, link.kind)
            out.append((link, href, markup))
    return out
