"""The Django backend: ``django.utils.html.Urlizer`` (the ``urlize`` template filter).

Django links ``http(s)://`` URLs, ``www.`` hosts, bare domains ending in ``.com``,
``.edu``, ``.gov``, ``.int``, ``.mil``, ``.net`` or ``.org``, and emails.  It returns
HTML, so the spans are recovered from its output (``_html_spans.anchor_spans``);
Django's own word splitting and punctuation trimming decide them.
"""

from __future__ import annotations

from typing import Any

from ._html_spans import anchor_spans, without_surrogates
from .base import RawLink

__all__ = ["DjangoBackend", "django_spans"]


def django_spans(urlizer: Any, text: str) -> list[RawLink]:
    """The spans ``urlizer`` (a ``django.utils.html.Urlizer``) links in the plain ``text``."""
    clean = without_surrogates(text)
    return anchor_spans(clean, str(urlizer(clean, autoescape=True)))


class DjangoBackend:
    """Django's urlize behind the :class:`~uts58_adapt.backends.base.Backend` protocol."""

    name = "django"

    def __init__(self, urlizer: Any = None) -> None:
        if urlizer is None:
            from django.utils.html import urlizer as default_urlizer

            urlizer = default_urlizer
        self._urlizer = urlizer

    def find(self, text: str) -> list[RawLink]:
        """The links Django's urlize finds in ``text``, sorted by start."""
        return django_spans(self._urlizer, text)
