"""Recover link spans from the HTML a linkifier produced for a plain text (Django and Jinja2 urlize).

Such linkifiers return HTML, not offsets.  Given the input ``text`` and the library's
output for it (with escaping on), the output's text content (entities decoded) is the
input again, and every ``<a>`` element covers the span the library linked.  The
library's own rules decide the spans; nothing of them is re-implemented here.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Callable, Sequence
from html.parser import HTMLParser
from typing import Literal, NamedTuple

from ._windows import ANY_SPACE, anchored_windows
from .base import RawLink

__all__ = [
    "LibraryLink",
    "anchor_hrefs",
    "anchor_markup",
    "anchor_spans",
    "first_character_pattern",
    "joined_markup",
    "windowed_markup",
    "without_surrogates",
]


class LibraryLink(NamedTuple):
    """A link in the library's HTML: its span in the input, its href, and its anchor.

    ``markup`` is the anchor as the library wrote it (None when the HTML was read by the
    HTML parser); ``escaped``: whether the library escaped the text (its display text of
    ``a&b`` is then ``a&amp;b``).
    """

    link: RawLink
    href: str
    markup: str | None
    escaped: bool


_SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD (same length, so the same offsets).

    Django's urlize encodes words to UTF-8 and raises on a lone surrogate; a surrogate is
    Link_Term=Hard, so no link crosses one either way.
    """
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub("\ufffd", text)


def first_character_pattern(alternatives: Sequence[tuple[str, str]]) -> re.Pattern[str]:
    """The pattern ``A1|A2|…``, each alternative ``(first, rest)`` being a character of the
    class ``[first]`` followed by ``rest``, written so that a search skips in C to a
    character of one of the classes.

    ``first`` is the content of a character class holding every character the alternative
    may start with (``"hH"`` for a case-insensitive ``h``); ``rest`` may look behind at
    that character and before it.  Python's ``re`` scans for a character-set prefix only
    when the whole pattern starts with one, without ``IGNORECASE`` (which makes an
    alternation of case-insensitive alternatives try each one at every position):
    ``[first1first2…](?:(?<=[first1])rest1|…)``, whose matches are those of the alternation
    (tests/test_fast_path_urlize.py compares them).
    """
    chars = "".join(first for first, _ in alternatives)
    branches = "|".join(f"(?<=[{first}]){rest}" for first, rest in alternatives)
    return re.compile(f"[{chars}](?:{branches})")


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


def _fast_parse(
    rendered: str, escaped: bool = True, content: str | None = None
) -> list[tuple[int, int, str, str | None, str]] | None:
    """:class:`_AnchorCollector`'s reading of ``rendered`` when it is escaped text and library anchors.

    For each anchor: its start and end in the text content, its href, its markup and its
    text.  None when ``rendered`` holds any other markup (then the HTML parser reads it).
    Each piece of text is decoded with ``html.unescape``, as the parser decodes the text
    between two tags; with ``escaped`` false (a text rendered with escaping off) it is taken
    as it is.  ``content``: the text content ``rendered`` must have (its input, rendered with
    escaping off), checked instead of the count of ``<``: the input may hold ``<`` and even
    text that looks like an anchor, which would then be missing from the content.
    """
    anchors: list[tuple[int, int, str, str | None, str]] = []
    pieces: list[str] = []
    length = pos = 0
    unescape = html.unescape
    for m in _LIBRARY_ANCHOR.finditer(rendered):
        found_at, end = m.span()
        whole, href, shown = m.group(0, 1, 2)
        before = rendered[pos:found_at]
        if escaped:
            # html.unescape of a piece without "&" is the piece (tested first: no call).
            if "&" in before:
                before = unescape(before)
            if "&" in shown:
                shown = unescape(shown)
        elif content is not None:
            pieces += (before, shown)
        start = length + len(before)
        length = start + len(shown)
        anchors.append((start, length, unescape(href) if "&" in href else href, whole, shown))
        pos = end
    if content is not None and not escaped:
        pieces.append(rendered[pos:])
        return anchors if "".join(pieces) == content else None
    if len(anchors) * 2 != rendered.count("<"):
        return None
    return anchors


def anchor_spans(text: str, rendered: str) -> list[RawLink]:
    """The spans of ``text`` that ``rendered`` made into links (see :func:`anchor_hrefs`)."""
    return [found.link for found in anchor_markup(text, rendered)]


def anchor_hrefs(text: str, rendered: str) -> list[tuple[RawLink, str]]:
    """The spans of ``text`` that ``rendered`` (the library's HTML for ``text``) made into links, with their hrefs.

    See :func:`anchor_markup`.
    """
    return [(found.link, found.href) for found in anchor_markup(text, rendered)]


def anchor_markup(text: str, rendered: str) -> list[LibraryLink]:
    """The spans of ``text`` that ``rendered`` (the library's HTML for ``text``) made into links,
    with their hrefs and, when ``rendered`` is escaped text and plain anchors, each anchor's markup.

    An anchor whose href starts with ``mailto:`` is an email.  The text outside the anchors
    is the input's; when an anchor's text is not the input's at that place (Jinja2 shows
    ``mailto:a@b.org`` as ``a@b.org``, a display text may be shortened), it is looked up
    in ``text`` from there, and an anchor not found there is left out.
    """
    fast = _fast_parse(rendered)
    if fast is not None:
        return _place(text, fast, True)
    collector = _AnchorCollector()
    collector.feed(rendered)
    collector.close()
    content = "".join(collector.parts)
    return _place(text, [(a, b, h, None, content[a:b]) for a, b, h in collector.anchors], True)


def _place(
    text: str,
    found_anchors: Sequence[tuple[int, int, str, str | None, str]],
    escaped: bool,
    starts: Sequence[int] = (0,),
    moves: Sequence[int] = (0,),
) -> list[LibraryLink]:
    """The anchors ``(start, end, href, markup, text)``, offsets in the HTML's text content, placed
    in ``text`` (see :func:`anchor_markup`): the text outside the anchors is the input's.

    ``text`` may be pieces of a longer text put end to end: piece ``k`` starts at
    ``starts[k]`` and moves by ``moves[k]`` to its place there (offsets in the longer text).
    """
    out: list[LibraryLink] = []
    shift = 0  # text offset minus content offset, after the last anchor placed
    k = 0
    last = len(starts) - 1
    for start, end, href, markup, shown in found_anchors:
        if start == end:
            continue
        kind: Literal["url", "email"] = "email" if href[:7].lower() == "mailto:" else "url"
        at = start + shift
        if not text.startswith(shown, at):
            at = text.find(shown, at)
            if at == -1:
                continue
            shift = at - start
        while k < last and starts[k + 1] <= at:
            k += 1
        at += moves[k]
        out.append(LibraryLink(RawLink(at, at + end - start, kind), href, markup, escaped))
    return out


def windowed_markup(
    text: str,
    anchor: re.Pattern[str],
    render: Callable[[str], str],
    gap: int,
    render_raw: Callable[[str], str] | None = None,
) -> list[LibraryLink]:
    """:func:`anchor_markup` of ``render(text)``, from ``render`` of the anchored windows of ``text`` only.

    For a linkifier that splits its input into words at white space (a white-space
    character is part of no word) and links each word on its own, with ``anchor`` a
    pattern found in every word it links: the words outside the windows
    (``_windows.anchored_windows``, white-space-delimited tokens that hold an anchor,
    joined when at most ``gap`` apart, never cut inside a token) are not linked.  Every
    window but the last of the text ends with white space, so the windows put end to end
    hold the same words: the library reads them in one call, and the spans (moved back to
    their places in ``text``) are those of one call on the whole text
    (tests/test_fast_path_urlize.py).

    ``render_raw``: the same rendering with escaping off, cheaper, used first: its output
    must be the windows with the library's anchors in them (:func:`_fast_parse`), else
    ``render`` is used.  The
    windows are given with their lone surrogates replaced (:func:`without_surrogates`).
    """
    first = anchor.search(text)
    if first is None:
        return []
    pieces: list[str] = []
    starts: list[int] = []  # where each window starts in the joined text
    moves: list[int] = []  # what moves an offset of that window back to ``text``
    length = 0
    for lo, hi in anchored_windows(text, anchor, ANY_SPACE, gap, len(text) + 1, first):
        pieces.append(text[lo:hi])
        starts.append(length)
        moves.append(lo - length)
        length += hi - lo
    joined = without_surrogates(pieces[0] if len(pieces) == 1 else "".join(pieces))
    return joined_markup(joined, None if render_raw is None else render_raw(joined), render, starts, moves)


def joined_markup(
    joined: str, raw: str | None, render: Callable[[str], str], starts: Sequence[int], moves: Sequence[int]
) -> list[LibraryLink]:
    """:func:`anchor_markup` of pieces of a text put end to end (``joined``: piece *k* starts at
    ``starts[k]``, and ``moves[k]`` moves its offsets back to the text), the spans moved back.

    ``raw``: the library's rendering of ``joined`` with escaping off, read first when it is
    the pieces with the library's anchors in them (:func:`_fast_parse`); else ``render(joined)``.
    """
    if raw is not None:
        fast = _fast_parse(raw, False, joined if "<" in joined else None)
        if fast is not None:
            return _place(joined, fast, False, starts, moves)
    rendered = render(joined)
    fast = _fast_parse(rendered)
    if fast is not None:
        return _place(joined, fast, True, starts, moves)
    return [
        one._replace(link=RawLink(*_moved(one.link.start, one.link.end, starts, moves), one.link.kind))
        for one in anchor_markup(joined, rendered)
    ]


def _moved(start: int, end: int, starts: Sequence[int], moves: Sequence[int]) -> tuple[int, int]:
    """``(start, end)`` in pieces put end to end (see :func:`_place`), moved to the longer text."""
    shift = moves[bisect.bisect_right(starts, start) - 1]
    return start + shift, end + shift
