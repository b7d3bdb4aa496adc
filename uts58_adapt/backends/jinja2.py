"""The Jinja2 backend: ``jinja2.utils.urlize`` (the ``urlize`` filter).

Jinja2 links ``http(s)://`` URLs, ``www.`` hosts, bare domains ending in ``.com``,
``.net`` or ``.org``, ``mailto:`` and emails.  It returns HTML, so the spans are
recovered from its output (``_html_spans.anchor_spans``); Jinja2's own rules decide them.
"""

from __future__ import annotations

from collections.abc import Iterable

from ._html_spans import anchor_spans, without_surrogates
from .base import RawLink

__all__ = ["Jinja2Backend", "jinja2_spans"]


def jinja2_spans(text: str, extra_schemes: Iterable[str] | None = None) -> list[RawLink]:
    """The spans ``jinja2.utils.urlize`` links in the plain ``text``."""
    from jinja2.utils import urlize

    clean = without_surrogates(text)
    spans = anchor_spans(clean, urlize(clean, extra_schemes=extra_schemes))
    # Jinja2 links ``mailto:a@b.com`` and shows only ``a@b.com``: the span it linked starts at ``mailto:``.
    return [
        RawLink(link.start - 7, link.end, link.kind, link.scheme_length)
        if link.kind == "email" and clean[max(0, link.start - 7) : link.start].lower() == "mailto:"
        else link
        for link in spans
    ]


class Jinja2Backend:
    """Jinja2's urlize behind the :class:`~uts58_adapt.backends.base.Backend` protocol."""

    name = "jinja2"

    def __init__(self, extra_schemes: Iterable[str] | None = None) -> None:
        self._extra_schemes = tuple(extra_schemes) if extra_schemes else None

    def find(self, text: str) -> list[RawLink]:
        """The links Jinja2's urlize finds in ``text``, sorted by start."""
        return jinja2_spans(text, self._extra_schemes)
