"""The bleach backend: ``bleach.linkifier.Linker``, built with every ICANN TLD, offline.

bleach's default ``url_re`` and ``email_re`` know a short TLD list; here both are
rebuilt with ``build_url_re`` / ``build_email_re`` from the bundled Public Suffix List
snapshot (one trie-shaped pattern, which bleach joins into its regexes unescaped, as
linkify-it does), and emails are on (``parse_email=True``).

``bleach_spans`` is the span logic of bleach's ``LinkifyFilter`` for one text node:
emails first (when ``parse_email``), then ``url_re`` on the text between them, each
match trimmed by the filter's own ``strip_non_url_bits``.  The ``wrap()`` integration
(``integrations/bleach.py``) uses it on every text node.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import lru_cache
from typing import Any

from ._tlds import tld_pattern
from ._windows import WINDOW as _WINDOW
from ._windows import windows as _windows
from .base import RawLink

__all__ = ["BleachBackend", "bleach_find", "bleach_spans", "build_url_re"]


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


def bleach_spans(linkify_filter: Any, text: str, parse_email: bool) -> list[RawLink]:
    """The spans a ``bleach.linkifier.LinkifyFilter`` links in one text node ``text``, sorted."""
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


def bleach_find(linkify_filter: Any, text: str, parse_email: bool) -> list[RawLink]:
    """``bleach_spans`` on ``text``, given in bounded windows when it is long.

    bleach's ``email_re`` (and its ``url_re`` on some input) takes time quadratic in
    the length of a run without white space, so a long text is given to it in the
    windows urlextract's backend uses (``urlextract._windows``: cut after white space,
    which no bleach span crosses, else overlapping by more than a host and scheme).
    """
    if len(text) <= _WINDOW:
        return bleach_spans(linkify_filter, text, parse_email)
    seen: set[RawLink] = set()
    for lo, hi in _windows(text):
        for r in bleach_spans(linkify_filter, text[lo:hi], parse_email):
            seen.add(RawLink(r.start + lo, r.end + lo, r.kind))
    return sorted(seen, key=lambda r: (r.start, r.end))


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

    def find(self, text: str) -> list[RawLink]:
        """The links bleach finds in ``text`` (as one text node), sorted by start."""
        return bleach_find(self._filter, text, True)
