"""The Jinja2 backend: ``jinja2.utils.urlize`` (the ``urlize`` filter).

Jinja2 links ``http(s)://`` URLs, ``www.`` hosts, bare domains ending in ``.com``,
``.net``, ``.int``, ``.edu``, ``.gov``, ``.org``, ``.info`` or ``.mil``, ``mailto:`` and
emails, and URLs that start with one of the ``extra_schemes``.  It returns HTML, so the
spans are recovered from its output (``_html_spans.anchor_spans``); Jinja2's own rules
decide them.

Jinja2 splits its (escaped) input into words at white space and links each word on its
own, only when it starts with ``http(s)://`` or holds ``www.``, a dot before one of its
TLDs, ``@``, ``mailto:`` or an extra scheme: :func:`jinja2_anchor` is that pattern, read from
Jinja2's own ``_http_re``, and Jinja2 is given only the white-space-delimited tokens
that hold it (``_html_spans.windowed_markup``), with the spans of one call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from ..refine.acceptance import ascii_host
from ._html_spans import LibraryLink, anchor_markup, first_character_pattern, windowed_markup, without_surrogates
from .base import RawLink

__all__ = [
    "JINJA2_SEPARATORS",
    "Jinja2Backend",
    "jinja2_anchor",
    "jinja2_links_url",
    "jinja2_markup",
    "jinja2_render_word",
    "jinja2_spans",
]

#: Anchored tokens at most this far apart are read as one window (the windows go to Jinja2 in one call).
GAP = 0
#: ``jinja2.utils._http_re`` as Jinja2 3.1 ships it, its list of bare-domain TLDs left out.
_HTTP_RE = r"""
    ^
    (
        (https?://|www\.)  # scheme or www
        (([\w%-]+\.)+)?  # subdomain
        (
            [a-z]{2,63}  # basic tld
        |
            xn--[\w%]{2,59}  # idna tld
        )
    |
        ([\w%-]{2,63}\.)+  # basic domain
        (TLDS)  # basic tld
    |
        (https?://)  # scheme
        (
            (([\d]{1,3})(\.[\d]{1,3}){3})  # IPv4
        |
            (\[([\da-f]{0,4}:){2}([\da-f]{0,4}:?){1,6}])  # IPv6
        )
    )
    (?::[\d]{1,5})?  # port
    (?:[/?#]\S*)?  # path, query, and fragment
    $
    """
_BASIC_TLDS = re.compile(r"\(([a-z]+(?:\|[a-z]+)*)\)  # basic tld\n")
_WORD_SPLIT = r"(\s+)"
#: A character that separates Jinja2's words (when :func:`jinja2_anchor` is not None).
JINJA2_SEPARATORS = re.compile(r"\s")
_ANCHORS: dict[tuple[Any, ...], re.Pattern[str] | None] = {}
_MAILTO = re.compile("mailto:", re.IGNORECASE)


def jinja2_anchor(extra_schemes: Iterable[str] | None = None) -> re.Pattern[str] | None:
    """A pattern that every word ``jinja2.utils.urlize`` links contains, or None (then Jinja2 reads the whole text).

    ``http://`` or ``https://`` at the start of a word or after its opening ``(`` and
    ``<``, ``www.``, a dot before one of the bare-domain TLDs of its ``_http_re`` (read
    from it) followed by ``:``, ``/``, ``?``, ``#``, the end of the word or the punctuation
    Jinja2 trims from it, ``@``, ``mailto:`` (without regard to case, as Jinja2 matches),
    and each of the ``extra_schemes`` as it is.  None when Jinja2's ``urlize`` does not split words at
    ``(\\s+)`` or its ``_http_re`` is not the one Jinja2 3.1 ships (its TLD list aside),
    or when an extra scheme is empty or holds white space or ``&`` (Jinja2 matches the
    schemes on the escaped text, white space included).
    """
    import jinja2.utils

    schemes = tuple(extra_schemes) if extra_schemes is not None else ()
    urlize = jinja2.utils.urlize
    http_re = getattr(jinja2.utils, "_http_re", None)
    key = (urlize, http_re, schemes)
    try:
        if key in _ANCHORS:
            return _ANCHORS[key]
    except TypeError:  # a scheme that is not hashable
        return None
    anchor = _anchor(urlize, http_re, schemes)
    if len(_ANCHORS) > 64:
        _ANCHORS.clear()
    _ANCHORS[key] = anchor
    return anchor


def _anchor(urlize: Any, http_re: Any, schemes: tuple[Any, ...]) -> re.Pattern[str] | None:
    code = getattr(urlize, "__code__", None)
    if code is None or _WORD_SPLIT not in code.co_consts or not isinstance(http_re, re.Pattern):
        return None
    m = _BASIC_TLDS.search(http_re.pattern)
    if m is None or http_re.pattern != _HTTP_RE.replace("TLDS", m.group(1)):
        return None
    # ``https?://`` starts the word (after the opening "(" and "<" Jinja2 moves to its head); a
    # bare-domain TLD ends the word (before the punctuation Jinja2 moves to its tail) or a port,
    # path, query or fragment follows it.  Without regard to case, as Jinja2's _http_re.
    parts = [
        ("hH", r"(?<![^\s(<].)(?i:ttps?://)"),
        ("wW", r"(?i:ww\.)"),
        ("@", ""),
        ("mM", r"(?i:ailto:)"),
        (r"\.", "(?i:" + m.group(1) + r")(?=[:/?#)>.,\s]|\Z)"),
    ]
    for scheme in schemes:
        if not isinstance(scheme, str) or not scheme or "&" in scheme or any(ch.isspace() for ch in scheme):
            return None
        parts.append((re.escape(scheme[0]), re.escape(scheme[1:])))
    return first_character_pattern(parts)


def jinja2_spans(text: str, extra_schemes: Iterable[str] | None = None) -> list[RawLink]:
    """The spans ``jinja2.utils.urlize`` links in the plain ``text``."""
    return [found.link for found in jinja2_markup(text, extra_schemes)]


def jinja2_plain_spans(text: str, extra_schemes: Iterable[str] | None = None) -> list[RawLink]:
    """:func:`jinja2_spans` from one call on the whole text (the reference of the fast path)."""
    from jinja2.utils import urlize

    clean = without_surrogates(text)
    found = anchor_markup(clean, urlize(clean, extra_schemes=extra_schemes))
    return [one.link for one in _with_mailto(clean, found)]


def jinja2_markup(
    text: str, extra_schemes: Iterable[str] | None = None, render: Callable[[str], str] | None = None
) -> list[LibraryLink]:
    """The spans Jinja2 links in the plain ``text``, with each link's href and Jinja2's anchor for it.

    ``render(s)`` is Jinja2's HTML for the plain ``s`` (default ``jinja2.utils.urlize``
    with ``extra_schemes``; the ``urlize`` filter with the caller's ``rel`` and ``target``
    gives anchors that can be reused).  With :func:`jinja2_anchor`, Jinja2 reads only the
    anchored windows of the text; without it, the whole text.
    """
    schemes = tuple(extra_schemes) if extra_schemes is not None else None
    if render is None:
        from jinja2.utils import urlize

        def render(s: str) -> str:
            return urlize(s, extra_schemes=schemes)

    anchor = jinja2_anchor(schemes)
    if anchor is None:
        clean = without_surrogates(text)
        found = anchor_markup(clean, render(clean))
    else:
        found = windowed_markup(text, anchor, render, GAP)
    return _with_mailto(text, found)


def _with_mailto(clean: str, found: list[LibraryLink]) -> list[LibraryLink]:
    # Jinja2 links ``mailto:a@b.com`` and shows only ``a@b.com``: the span it linked starts at ``mailto:``.
    if _MAILTO.search(clean) is None:
        return found
    return [
        one._replace(link=RawLink(one.link.start - 7, one.link.end, one.link.kind, one.link.scheme_length))
        if one.link.kind == "email" and clean[max(0, one.link.start - 7) : one.link.start].lower() == "mailto:"
        else one
        for one in found
    ]


_HEAD = re.compile(r"[(<]|&lt;")
_TAIL = (")", ">", ".", ",", "\n", "&gt;")
_ANY_SPACE = re.compile(r"\s")


def jinja2_render_word(word: str, attrs: str, trim_url_limit: int | None, markup: bool) -> str | None:
    """What ``jinja2.utils.urlize`` returns for the one word ``word``, with its parts, or None (ask Jinja2).

    Jinja2 escapes the text (not ``Markup``: ``markup``), and for a word it trims nothing from
    (no leading ``(``, ``<``, ``&lt;``; no trailing ``)>.,``, newline or ``&gt;``) writes
    ``<a href="WORD"ATTRS>WORD</a>`` when ``_http_re`` accepts it (``https://`` before a
    schemeless one; the display text cut after ``trim_url_limit`` characters and ``...``),
    ``<a href="mailto:…">…</a>`` for ``mailto:`` and an email (``_email_re``, not after
    ``www.`` or ``@``, no ``:``), else the escaped word.  ``attrs``: the ``rel`` and ``target``
    attributes Jinja2 writes after the href of a URL (read from its anchor for a probe).
    None for a word Jinja2 may trim, one with white space, or one Jinja2 could link with an
    extra scheme: the caller asks Jinja2 (it checks the answers against Jinja2 first).
    """
    import markupsafe
    from jinja2 import utils

    if not word or _ANY_SPACE.search(word) is not None:
        return None
    middle = word if markup else str(markupsafe.escape(word))
    if _HEAD.match(middle) or middle.endswith(_TAIL):
        return None
    if utils._http_re.match(middle):
        shown = middle
        if trim_url_limit is not None and len(middle) > trim_url_limit:
            shown = f"{middle[:trim_url_limit]}..."
        href = middle if middle.startswith(("https://", "http://")) else f"https://{middle}"
        return f'<a href="{href}"{attrs}>{shown}</a>'
    if middle.startswith("mailto:") and utils._email_re.match(middle[7:]):
        return f'<a href="{middle}">{middle[7:]}</a>'
    if (
        "@" in middle
        and not middle.startswith("www.")
        and not middle.startswith("@")
        and ":" not in middle
        and utils._email_re.match(middle)
    ):
        return f'<a href="mailto:{middle}">{middle}</a>'
    if ":" in middle:
        return None  # an extra scheme may link it
    return middle


_ESCAPED = re.compile("[&<>\"']")


def jinja2_links_url(scheme: str, host: str) -> bool:
    """True when ``jinja2.utils.urlize`` (as :func:`jinja2_anchor` finds it) links the probe
    ``scheme//host/`` whole, with that scheme in its href; False: not known (then Jinja2 is asked).

    A word starting ``http://`` or ``https://`` (lowercase: Jinja2 puts ``https://`` before
    any other) that Jinja2 neither escapes nor trims is linked as it is when its ``_http_re``
    matches it.  ``host``: the host as the refinement found it (its ``xn--`` form is asked).
    """
    from jinja2 import utils

    if scheme != "http:" and scheme != "https:":
        return False
    try:
        probe = f"{scheme}//{ascii_host(host)}/"
    except (UnicodeError, ValueError):
        return False
    return (
        _ANY_SPACE.search(probe) is None and _ESCAPED.search(probe) is None and utils._http_re.match(probe) is not None
    )


class Jinja2Backend:
    """Jinja2's urlize behind the :class:`~uts58_adapt.backends.base.Backend` protocol."""

    name = "jinja2"

    def __init__(self, extra_schemes: Iterable[str] | None = None) -> None:
        self._extra_schemes = tuple(extra_schemes) if extra_schemes else None

    def find(self, text: str) -> list[RawLink]:
        """The links Jinja2's urlize finds in ``text``, sorted by start."""
        return jinja2_spans(text, self._extra_schemes)
