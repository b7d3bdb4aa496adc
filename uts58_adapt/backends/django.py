"""The Django backend: ``django.utils.html.Urlizer`` (the ``urlize`` template filter).

Django links ``http(s)://`` URLs, ``www.`` hosts, bare domains ending in ``.com``,
``.edu``, ``.gov``, ``.int``, ``.mil``, ``.net`` or ``.org``, and emails.  It returns
HTML, so the spans are recovered from its output (``_html_spans.anchor_spans``);
Django's own word splitting and punctuation trimming decide them.

Django splits its input into words at white space, ``<``, ``>``, ``"`` and ``'``, and
links a word only when, with its punctuation trimmed, ``simple_url_re`` (``http://``,
``https://``), ``simple_url_2_re`` (``www.``, a dot and one of its TLDs) or the email
rule (``@``) accepts it.  So a word without ``://``, ``www.``, ``@`` or a dot before one
of those TLDs is never linked: :func:`django_anchor` is that pattern, read from the
urlizer's own ``simple_url_2_re``, and Django is given only the white-space-delimited
tokens that hold it (``_html_spans.windowed_markup``), with the spans of one call.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Hashable
from typing import Any

from ._html_spans import LibraryLink, anchor_markup, anchor_spans, windowed_markup, without_surrogates
from .base import RawLink

__all__ = ["DJANGO_SEPARATORS", "DjangoBackend", "django_anchor", "django_config", "django_markup", "django_spans"]

#: Anchored tokens at most this far apart are read as one window (the windows go to Django in one call).
GAP = 0
_WORD_SPLIT = r"""([\s<>"']+)"""
#: A character that separates Django's words (its ``word_split_re``, when :func:`django_anchor` is not None).
DJANGO_SEPARATORS = re.compile(r"""[\s<>"']""")
_SIMPLE_URL = r"^https?://\[?\w"
_SIMPLE_URL_2 = re.compile(r"\^www\\\.\|\^\(\?!http\)\\w\[\^@\]\+\\\.\(((?:[a-z]+\|)*[a-z]+)\)\(\$\|/\.\*\)\$")
_TRAILING = ".,:;!"
_WRAPPING = [("(", ")"), ("[", "]")]
_URL_TEMPLATE = '<a href="{href}"{attrs}>{url}</a>'
_METHODS = ("__call__", "handle_word", "trim_punctuation", "trim_url", "is_email_simple")
#: id()s of a configuration's objects -> (the objects, its anchor, its serial number).
_CONFIGS: dict[tuple[int, ...], tuple[tuple[Any, ...], re.Pattern[str] | None, int]] = {}
_SERIAL = itertools.count()


def _objects(urlizer: Any) -> tuple[Any, ...]:
    """What decides :func:`django_anchor`: the class, its methods, the instance's own ones, the attributes it reads."""
    cls = type(urlizer)
    own = getattr(urlizer, "__dict__", {})
    return (
        urlizer,
        cls,
        *(getattr(cls, name, None) for name in _METHODS),
        *(own.get(name) for name in _METHODS),
        getattr(urlizer, "word_split_re", None),
        getattr(urlizer, "simple_url_re", None),
        getattr(urlizer, "simple_url_2_re", None),
        getattr(urlizer, "trailing_punctuation_chars", None),
        getattr(urlizer, "wrapping_punctuation", None),
        getattr(urlizer, "url_template", None),
        getattr(urlizer, "mailto_template", None),
    )


def django_config(urlizer: Any) -> tuple[re.Pattern[str] | None, Hashable | None]:
    """:func:`django_anchor` of ``urlizer``, and a key naming its configuration (None without an anchor).

    Two calls with the same key render every text alike: the integration keeps Django's
    answers to its probes under it across calls.  The configuration is read again at each
    call (a changed pattern or method gives a new key); the list ``wrapping_punctuation``
    is compared by value.
    """
    objects = _objects(urlizer)
    ids = tuple(map(id, objects))
    wrapping = repr(objects[-3])
    known = _CONFIGS.get(ids)
    if known is None or known[0][-1] != wrapping or any(a is not b for a, b in zip(known[0], objects)):
        if len(_CONFIGS) > 64:
            _CONFIGS.clear()
        known = ((*objects, wrapping), _anchor(urlizer), next(_SERIAL))
        _CONFIGS[ids] = known
    anchor = known[1]
    return anchor, (None if anchor is None else ("django", known[2]))


def django_anchor(urlizer: Any) -> re.Pattern[str] | None:
    """A pattern that every word ``urlizer`` links contains, or None (then Django reads the whole text).

    Only for Django's own ``Urlizer`` (a subclass that overrides how words are split,
    trimmed or linked, or that changes ``word_split_re``, the punctuation it trims or
    ``url_template``, gets None), with patterns of the shape Django ships:
    ``simple_url_re`` ``^https?://\\[?\\w`` (``://``), ``simple_url_2_re``
    ``^www\\.|^(?!http)\\w[^@]+\\.(TLDs)($|/.*)$`` (``www.`` and a dot before one of its
    TLDs, which are read from it), and ``@`` for emails; matched without regard to case.
    """
    return django_config(urlizer)[0]


def _anchor(urlizer: Any) -> re.Pattern[str] | None:
    try:
        from django.utils.html import Urlizer
    except ImportError:  # pragma: no cover - the backend needs Django
        return None
    cls = type(urlizer)
    own = getattr(urlizer, "__dict__", {})
    if any(getattr(cls, name, None) is not getattr(Urlizer, name) or name in own for name in _METHODS):
        return None
    try:
        split = urlizer.word_split_re.pattern
        url = urlizer.simple_url_re.pattern
        url_2 = urlizer.simple_url_2_re.pattern
    except AttributeError:
        return None
    if (
        split != _WORD_SPLIT
        or urlizer.trailing_punctuation_chars != _TRAILING
        or list(urlizer.wrapping_punctuation) != _WRAPPING
        or urlizer.url_template != _URL_TEMPLATE
        or not isinstance(url, str)
        or not isinstance(url_2, str)
        or url != _SIMPLE_URL
    ):
        return None
    m = _SIMPLE_URL_2.fullmatch(url_2)
    if m is None:
        return None
    return re.compile(r"://|@|www\.|\.(?:" + m.group(1) + ")", re.IGNORECASE)


def django_spans(urlizer: Any, text: str) -> list[RawLink]:
    """The spans ``urlizer`` (a ``django.utils.html.Urlizer``) links in the plain ``text``."""
    return [found.link for found in django_markup(urlizer, text)]


def django_plain_spans(urlizer: Any, text: str) -> list[RawLink]:
    """:func:`django_spans` from one call on the whole text (the reference of the fast path)."""
    clean = without_surrogates(text)
    return anchor_spans(clean, str(urlizer(clean, autoescape=True)))


def django_markup(
    urlizer: Any,
    text: str,
    nofollow: bool = False,
    config: tuple[re.Pattern[str] | None, Hashable | None] | None = None,
) -> list[LibraryLink]:
    """The spans ``urlizer`` links in the plain ``text``, with each link's href and Django's anchor for it.

    The anchors are rendered with ``nofollow`` and escaping on (``_html_spans.anchor_markup``).
    With :func:`django_anchor`, Django reads only the anchored windows of the text; without
    it (a configuration it cannot read), the whole text, and no anchor is given (None).
    ``config``: :func:`django_config` of ``urlizer`` when the caller has it.
    """
    anchor = (config or django_config(urlizer))[0]
    if anchor is None:
        clean = without_surrogates(text)
        found = anchor_markup(clean, str(urlizer(clean, nofollow=nofollow, autoescape=True)))
        return [found_link._replace(markup=None) for found_link in found]

    def render(window: str) -> str:
        return str(urlizer(window, nofollow=nofollow, autoescape=True))

    def render_raw(window: str) -> str:
        # Escaping off: the same anchors for a link without ``&`` (Django's words hold no ``<>"'``);
        # text and anchors are told apart by the text content, which must be the window's.
        return str(urlizer(window, nofollow=nofollow))

    return windowed_markup(text, anchor, render, GAP, render_raw)


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
