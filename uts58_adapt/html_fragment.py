"""``linkify_html(html)``: add UTS #58 links to the text of an HTML fragment (bleach.linkify for nh3 users).

The fragment is tokenized with the standard library's ``html.parser`` (not regexes).
Every tag, comment, declaration and attribute is copied byte for byte; only text nodes
outside ``skip_tags`` (by default ``a``, ``pre``, ``code``, ``script``, ``style``,
``textarea`` and ``title``) that contain a link are rewritten: their text is decoded,
links are found with ``detect`` and the node is written back by ``html.render``
(everything escaped, attributes quoted, Bidi_Control characters percent-escaped, only
the allowed schemes linked).  A text node without a link is left exactly as it was.
Sanitize afterwards (``nh3.clean``) if the input is untrusted: this function adds
links, it does not sanitize.
"""

from __future__ import annotations

import html
from collections.abc import Collection
from html.parser import HTMLParser

from .detection import detect
from .html import _scheme_set, render

__all__ = ["DEFAULT_SKIP_TAGS", "linkify_html"]

#: Elements whose content is never linkified.
DEFAULT_SKIP_TAGS = frozenset({"a", "pre", "code", "script", "style", "textarea", "title"})
#: Elements that have no end tag.
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}
)


class _Events(HTMLParser):
    """Records, in order, the source offset of every token and whether it is text."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=False)
        self._line_starts = [0]
        for i, ch in enumerate(source):
            if ch == "\n":
                self._line_starts.append(i + 1)
        #: (offset, kind, tag): kind is "text", "start", "end" or "other".
        self.events: list[tuple[int, str, str]] = []

    def _offset(self) -> int:
        line, col = self.getpos()
        return self._line_starts[line - 1] + col

    def handle_data(self, data: str) -> None:
        self.events.append((self._offset(), "text", ""))

    def handle_entityref(self, name: str) -> None:
        self.events.append((self._offset(), "text", ""))

    def handle_charref(self, name: str) -> None:
        self.events.append((self._offset(), "text", ""))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.events.append((self._offset(), "other" if tag in _VOID else "start", tag))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.events.append((self._offset(), "other", tag))

    def handle_endtag(self, tag: str) -> None:
        self.events.append((self._offset(), "end", tag))

    def handle_comment(self, data: str) -> None:
        self.events.append((self._offset(), "other", ""))

    def handle_decl(self, decl: str) -> None:
        self.events.append((self._offset(), "other", ""))

    def handle_pi(self, data: str) -> None:
        self.events.append((self._offset(), "other", ""))

    def unknown_decl(self, data: str) -> None:
        self.events.append((self._offset(), "other", ""))


def linkify_html(
    fragment: str,
    backend: str = "linkify-it",
    *,
    schemes: Collection[str] = ("http", "https", "mailto"),
    skip_tags: Collection[str] = DEFAULT_SKIP_TAGS,
    max_length: int = 4096,
    strict_hosts: bool = True,
) -> str:
    """Return the HTML ``fragment`` with UTS #58 links added to its text nodes (see the module docstring).

    ``backend``, ``schemes`` and ``max_length`` are those of :func:`uts58_adapt.linkify`;
    ``skip_tags`` names the elements whose content stays as it is.  ``strict_hosts`` is
    :func:`uts58_adapt.detect`'s: ``backend`` names one of detect's own configured
    backends, not an instance of yours, so hosts must be registrable domains (§1.4) unless
    ``strict_hosts=False`` (then ``http://localhost:8000/`` links too).  Raises TypeError
    naming the argument when one has the wrong type.
    """
    if not isinstance(fragment, str):
        raise TypeError(f"fragment must be str, not {type(fragment).__name__}")
    if not isinstance(backend, str):
        raise TypeError(f"backend must be str, not {type(backend).__name__}")
    if not isinstance(max_length, int) or isinstance(max_length, bool):
        raise TypeError(f"max_length must be int, not {type(max_length).__name__}")
    if isinstance(skip_tags, (str, bytes)) or not isinstance(skip_tags, Collection):
        raise TypeError(f"skip_tags must be a collection of str, not {type(skip_tags).__name__}")
    if not all(isinstance(tag, str) for tag in skip_tags):
        raise TypeError("skip_tags must contain str only")
    _scheme_set(schemes)
    skip = frozenset(tag.lower() for tag in skip_tags)
    parser = _Events(fragment)
    parser.feed(fragment)
    parser.close()
    events = parser.events
    out: list[str] = []
    open_skips: list[str] = []
    run_start: int | None = None

    def flush(end: int) -> None:
        raw = fragment[run_start:end]
        text = html.unescape(raw)
        links = detect(text, backend, max_length=max_length, strict_hosts=strict_hosts) if not open_skips else []
        out.append(render(text, links, schemes=schemes) if links else raw)

    for i, (offset, kind, tag) in enumerate(events):
        end = events[i + 1][0] if i + 1 < len(events) else len(fragment)
        if kind == "text":
            if run_start is None:
                run_start = offset
            continue
        if run_start is not None:
            flush(offset)
            run_start = None
        out.append(fragment[offset:end])
        if kind == "start" and tag in skip:
            open_skips.append(tag)
        elif kind == "end" and tag in open_skips:
            while open_skips and open_skips.pop() != tag:
                pass
    if run_start is not None:
        flush(len(fragment))
    covered = events[0][0] if events else len(fragment)
    return fragment[:covered] + "".join(out)
