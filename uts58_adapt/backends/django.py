"""The Django backend: ``django.utils.html.Urlizer`` (the ``urlize`` template filter).

Django links ``http(s)://`` URLs, ``www.`` hosts, bare domains ending in ``.com``,
``.edu``, ``.gov``, ``.int``, ``.mil``, ``.net`` or ``.org``, and emails.  It returns
HTML, so the spans are recovered from its output (``_html_spans.anchor_spans``);
Django's own word splitting and punctuation trimming decide them.

Django splits its input into words at white space, ``<``, ``>``, ``"`` and ``'``, and
links a word only when, with its punctuation trimmed, ``simple_url_re`` (``http://``,
``https://``), ``simple_url_2_re`` (``www.``, a dot and one of its TLDs) or the email
rule (``@``) accepts it.  So a word without ``http(s)://`` at its start, ``www.``, ``@``
or a dot before one of those TLDs is never linked: :func:`django_anchor` is that
pattern, read from the urlizer's own patterns, and Django is given only the
white-space-delimited tokens that hold it (``_html_spans.windowed_markup``), with the
spans of one call.
"""

from __future__ import annotations

import contextlib
import html
import itertools
import operator
import os
import re
import sys
from collections.abc import Callable, Hashable
from typing import Any, Literal, NamedTuple

from ..link import LinkKind
from ._html_spans import (
    LibraryLink,
    anchor_markup,
    anchor_spans,
    first_character_pattern,
    joined_markup,
    windowed_markup,
    without_surrogates,
)
from ._windows import ANY_SPACE, anchored_windows
from .base import RawLink

__all__ = [
    "DJANGO_SEPARATORS",
    "DjangoBackend",
    "DjangoConfig",
    "django_anchor",
    "django_config",
    "django_configuration",
    "django_markup",
    "django_spans",
]

#: Anchored tokens at most this far apart are read as one window (the windows go to Django in one call).
GAP = 0
_WORD_SPLIT = r"""([\s<>"']+)"""
#: A character that separates Django's words (its ``word_split_re``, when :func:`django_anchor` is not None).
DJANGO_SEPARATORS = re.compile(r"""[\s<>"']""")
_SIMPLE_URL = r"^https?://\[?\w"
#: The TLDs and the end of ``simple_url_2_re``: ``\.(com|edu|…)($|/.*)$`` after the host part.
_SIMPLE_URL_2_TLDS = re.compile(r"\(((?:[a-z]+\|)*[a-z]+)\)\(\$\|/\.\*\)\$")
#: ``simple_url_2_re`` up to its TLDs, as Django 5 ships it (``\w[^@]+`` before the dot).
_SIMPLE_URL_2_HEAD = r"^www\.|^(?!http)\w[^@]+\."
_SIMPLE_URL_2 = re.compile(re.escape(_SIMPLE_URL_2_HEAD) + _SIMPLE_URL_2_TLDS.pattern)
_TRAILING = ".,:;!"
_WRAPPING = [("(", ")"), ("[", "]")]
#: After the first character of an anchor (``h`` of ``http``, ``w`` of ``www.``): it starts a word, or follows
#: one to three of the opening brackets Django trims from the start of a word ("([") that start a word, or
#: more of them (a necessary condition, as every anchor: ``[x](https://…`` is not a link to Django).
_WORD_START = "".join(r"""(?<![^\s<>"'(\[]""" + r"[(\[]" * depth + ".)" for depth in range(3))
_URL_TEMPLATE = '<a href="{href}"{attrs}>{url}</a>'
#: EmailValidator.user_regex as Django ships it, and the class of the last character of its dot-atom.
_USER_REGEX = (
    r"(^[-!#$%&'*+/=?^_`{}|~0-9A-Z]+(\.[-!#$%&'*+/=?^_`{}|~0-9A-Z]+)*\Z"
    r'|^"([\001-\010\013\014\016-\037!#-\[\]-\177]|\\[\001-\011\013\014\016-\177])'
    r'*"\Z)'
)
_USER_END = "[-!#$%&'*+/=?^_`{}|~0-9A-Z]"
#: The email rule's ``@``: the user part before it is the validator's dot-atom (its characters and "."), from
#: the start of the word or its opening brackets: none of the four characters before it is another character.
_LOCAL_PART = "".join(
    # (The run before "@" holds no "'": a separator, which ends Django's word: "рф'a@b.com" holds "a@b.com".)
    r"""(?<!(?!(?i:[-!#$%&'*+/=?^_`{}|~0-9A-Z.]))(?![\s<>"'(\[]).(?i:[-!#$%&*+/=?^_`{}|~0-9A-Z.])"""
    + "{"
    + str(depth)
    + "}@)"
    for depth in range(1, 4)
)
_MAILTO_TEMPLATE = "mailto:{local}@{domain}"
#: What Django's trim_punctuation may take from the end of a word, and what ends a word (or is unescaped).
_TRIMMED = ".,:;!)]"
_NOT_IN_WORD = re.compile(r"""[\s<>"'&]""")
_SURROGATE = re.compile("[\ud800-\udfff]")
#: An ASCII character other than letters, digits, "_", "." and "-".
_OTHER_ASCII = re.compile(r"[^\x80-\U0010ffffA-Za-z0-9_.\-]")
#: Hosts up to this long are probed as at most _LONGEST_PROBE characters (ten per character, punycode included).
_LONGEST_HOST = 100
_LONGEST_PROBE = 1100
_METHODS = ("__call__", "handle_word", "trim_punctuation", "trim_url", "is_email_simple")
#: id()s of a configuration's objects -> (the objects, what is read from them).
_CONFIGS: dict[tuple[int, ...], tuple[tuple[Any, ...], DjangoConfig]] = {}
_SERIAL = itertools.count()
#: ``(objects, wrapping_punctuation read, configuration)`` of the last call of :func:`django_configuration`.
_LAST: list[tuple[tuple[Any, ...], str, DjangoConfig]] = []


_ATTRIBUTES_NAMES = (
    "word_split_re",
    "simple_url_re",
    "simple_url_2_re",
    "trailing_punctuation_chars",
    "wrapping_punctuation",
    "url_template",
    "mailto_template",
)
_CLASS_METHODS = operator.attrgetter(*_METHODS)
_ATTRIBUTES = operator.attrgetter(*_ATTRIBUTES_NAMES)
_NO_METHODS = (None,) * len(_METHODS)


def _objects(urlizer: Any) -> tuple[Any, ...]:
    """What decides :func:`django_anchor`: the class, its methods, the instance's own ones, the attributes it reads."""
    cls = type(urlizer)
    own = getattr(urlizer, "__dict__", None)
    try:
        methods, attributes = _CLASS_METHODS(cls), _ATTRIBUTES(urlizer)
    except AttributeError:  # not a Urlizer: what it has
        methods = tuple(getattr(cls, name, None) for name in _METHODS)
        attributes = tuple(getattr(urlizer, name, None) for name in _ATTRIBUTES_NAMES)
    return (
        urlizer,
        cls,
        *methods,
        *(tuple(own.get(name) for name in _METHODS) if own else _NO_METHODS),
        *_module_objects(),
        *attributes,
    )


def _module_objects() -> tuple[Any, ...]:
    """What ``handle_word`` reads from its module, and the email user-part pattern (:func:`_anchor`, :func:`_known`)."""
    module = sys.modules.get("django.utils.html")
    validator = getattr(module, "EmailValidator", None)
    return (
        getattr(module, "smart_urlquote", None),
        getattr(module, "MAX_URL_LENGTH", None),
        validator,
        getattr(validator, "user_regex", None),
    )


class DjangoConfig(NamedTuple):
    """What the integration reads from a Urlizer's configuration (:func:`django_configuration`).

    ``anchor``: :func:`django_anchor`; ``key``: names the configuration (None without an
    anchor); ``links_url(scheme, host)``, ``links_email(probe)`` and ``links_word(word)``:
    Django's answers that its configuration decides (:func:`_known`), or None; ``words``:
    :class:`DjangoWords` (Django's own ``Urlizer``), or None.
    """

    anchor: re.Pattern[str] | None
    key: Hashable | None
    links_url: Callable[[str, str], bool] | None
    links_email: Callable[[str], bool | None] | None
    links_word: Callable[[str], bool | None] | None
    words: DjangoWords | None = None


_PLAIN = DjangoConfig(None, None, None, None, None)


def django_configuration(urlizer: Any) -> DjangoConfig:
    """:func:`django_config` of ``urlizer`` with the probe answers its configuration decides (:func:`_known`)."""
    objects = _objects(urlizer)
    wrapping = repr(objects[-3])
    # The configuration read last: the same objects (held there, so not collected meanwhile).
    try:
        last = _LAST[0]  # one tuple, read at once (another thread may replace it)
    except IndexError:
        pass
    else:
        if last[1] == wrapping and all(map(operator.is_, objects, last[0])):
            return last[2]
    ids = tuple(map(id, objects))
    known = _CONFIGS.get(ids)
    # Equal ids are the same objects: the entry holds them, so none of their ids is reused meanwhile.
    if known is None or known[0][-1] != wrapping:
        if len(_CONFIGS) > 64:
            _CONFIGS.clear()
        anchor = _anchor(urlizer)
        config = (
            _PLAIN
            if anchor is None
            else DjangoConfig(anchor, ("django", next(_SERIAL)), *_known(urlizer), _words(urlizer))
        )
        known = ((*objects, wrapping), config)
        _CONFIGS[ids] = known
    _LAST[:] = [(objects, wrapping, known[1])]
    return known[1]


def django_config(urlizer: Any) -> tuple[re.Pattern[str] | None, Hashable | None]:
    """:func:`django_anchor` of ``urlizer``, and a key naming its configuration (None without an anchor).

    Two calls with the same key render every text alike: the integration keeps Django's
    answers to its probes under it across calls.  The configuration is read again at each
    call (a changed pattern or method gives a new key); the list ``wrapping_punctuation``
    is compared by value.
    """
    config = django_configuration(urlizer)
    return config.anchor, config.key


def django_anchor(urlizer: Any) -> re.Pattern[str] | None:
    """A pattern that every word ``urlizer`` links contains, or None (then Django reads the whole text).

    Only for Django's own ``Urlizer`` (a subclass that overrides how words are split,
    trimmed or linked, or that changes ``word_split_re``, the punctuation it trims or
    ``url_template``, gets None), with patterns of the shape Django ships:
    ``simple_url_re`` ``^https?://\\[?\\w`` (``http://`` or ``https://`` at the start
    of a word or after its opening ``(`` and ``[``), ``simple_url_2_re``
    ``^www\\.|^(?!http)\\w[^@]+\\.(TLDs)($|/.*)$`` (``www.`` placed alike, and a dot before one of
    its TLDs, which are read from it, followed by ``/``, the end of the word or the
    punctuation Django trims from it), and for emails ``@`` (after a character that may
    end the user part of Django's ``EmailValidator``, when it is the one Django ships, with
    none of the four characters before it outside that user part's characters and ".",
    the separators and "([");
    matched without regard to case, as Django matches.
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
    m = _simple_url_2_tlds(url_2)
    if m is None:
        return None
    tlds = m.group(1)
    return first_character_pattern(
        [
            # simple_url_re: the word (trimmed of its opening brackets "([") starts with the scheme.
            ("hH", _WORD_START + r"(?i:ttps?://)"),
            # The email rule: Django's EmailValidator, whose user part ends with a character of its class.
            ("@", "(?<=(?i:" + _USER_END + ")@)" + _LOCAL_PART if _stock_email_validator(cls) else ""),
            # simple_url_2_re's "^www\.": the same.
            ("wW", _WORD_START + r"(?i:ww\.)"),
            # simple_url_2_re: the TLD ends the word trimmed of its trailing punctuation, or a "/" follows it.
            (r"\.", "(?i:" + tlds + r""")(?=[/)\].,:;!\s<>"']|\Z)"""),
        ]
    )


def _simple_url_2_tlds(url_2: str) -> re.Match[str] | None:
    r"""``simple_url_2_re``'s TLDs (group 1), when the pattern has a shape Django ships, else None.

    Django 5: ``^www\.|^(?!http)\w[^@]+\.(TLDs)($|/.*)$``; Django 6 writes the host part
    with ``DomainNameValidator``'s ``hostname_re`` and ``domain_re``.  Either way the word
    starts with ``www.`` or a ``.`` and one of the TLDs ends it, or a ``/`` follows them,
    which is what the anchor asks.
    """
    m = _SIMPLE_URL_2.fullmatch(url_2)
    if m is not None:
        return m
    validator = getattr(sys.modules.get("django.core.validators"), "DomainNameValidator", None)
    try:
        head = rf"^www\.|^(?!http)(?:{validator.hostname_re})(?:{validator.domain_re})\."  # type: ignore[union-attr]
    except AttributeError:  # Django before 5.1
        return None
    return _SIMPLE_URL_2_TLDS.fullmatch(url_2, len(head)) if url_2.startswith(head) else None


def _stock_email_validator(cls: Any) -> bool:
    """Whether ``cls.is_email_simple`` is Django's ``EmailValidator`` with the user part pattern Django ships."""
    module = sys.modules.get("django.utils.html")
    validator = getattr(module, "EmailValidator", None)
    code = getattr(getattr(cls, "is_email_simple", None), "__code__", None)
    try:
        regex = validator.user_regex  # type: ignore[union-attr]
        pattern, flags = regex.pattern, regex.flags
    except AttributeError:
        return False
    return (
        code is not None
        and "EmailValidator" in code.co_names
        and getattr(validator, "__module__", None) == "django.core.validators"
        and getattr(validator, "__qualname__", None) == "EmailValidator"
        and pattern == _USER_REGEX
        and flags == re.IGNORECASE | re.UNICODE
    )


def _known(
    urlizer: Any,
) -> tuple[Callable[[str, str], bool] | None, Callable[[str], bool | None] | None, Callable[[str], bool | None] | None]:
    """Django's answers to the integration's probes that the configuration decides (an anchor's one).

    ``links_url(scheme, host)`` is True when Django links ``scheme//host/`` (the host
    written with ``xn--`` labels, ``refine.acceptance.ascii_host``) from its start with that
    scheme in its href: for ``http:`` and ``https:`` and a host of ASCII letters, digits,
    ``_``, ``.`` and ``-`` (and non-ASCII labels) that does not start with ``.`` or ``-``,
    ``simple_url_re`` (``^https?://\\[?\\w``) links the whole word, which Django's
    ``trim_punctuation`` leaves whole (it ends with ``/``).  False: ask Django.
    ``links_email(probe)`` answers for ``a@domain`` and ``mailto:a@domain``: Django never
    links a word with ``:`` as an email nor one starting ``mailto:`` as a URL; a word
    ``a@domain`` that trimming leaves whole (no ``&``, ``:``, white space or ``<>"'``, no
    trailing punctuation) is linked whole as an email exactly when ``is_email_simple``
    accepts it.  None: ask Django.  ``links_word(word)`` is False when Django links nothing
    in ``word`` alone (then the integration does not render it): a word trimming leaves
    whole, without ``:``, that neither ``simple_url_2_re`` nor ``is_email_simple``
    accepts; None: ask Django.  tests/test_urlize_probes.py compares them with Django's answers.
    """
    module = sys.modules.get("django.utils.html")
    limit = getattr(module, "MAX_URL_LENGTH", None)
    quote = getattr(module, "smart_urlquote", None)
    links_url = None
    if isinstance(limit, int) and limit >= _LONGEST_PROBE and getattr(quote, "__module__", None) == "django.utils.html":
        links_url = _links_url
    links_email = None
    if getattr(urlizer, "mailto_template", None) == _MAILTO_TEMPLATE:
        is_email_simple = urlizer.is_email_simple

        def links_email(probe: str) -> bool | None:
            if probe[:7].lower() == "mailto:":
                return False
            domain = probe.rpartition("@")[2]
            if not domain or ":" in domain or domain[-1] in _TRIMMED or _NOT_IN_WORD.search(domain):
                return None
            return bool(is_email_simple(probe))

    links_word = None
    if isinstance(limit, int):
        url_2 = urlizer.simple_url_2_re
        is_simple = urlizer.is_email_simple

        def links_word(word: str) -> bool | None:
            if (
                not word
                or ":" in word
                or word[0] in "(["
                or word[-1] in _TRIMMED
                or _NOT_IN_WORD.search(word)
                or (len(word) <= limit and url_2.match(word))
                or is_simple(word)
            ):
                return None
            return False

    return links_url, links_email, links_word


#: Words :class:`DjangoWords` is checked on against Django (each with every option set of ``_CHECKED_OPTIONS``).
_CHECK_WORDS = (
    "http://example.com/",
    "https://b\u00fccher.example/\u00e4/x_(y)?q=\u00fc&r=a+b#fr\u00e4g",
    "HTTPS://example.com/a%20b/&amp;c",
    "https://example.com/" + "x" * 40,
    "a.b@example.com",
    "\u00fc\u00e9@b\u00fccher.example",
    "x@y",
    "http:x.org",
    "x&y@z",
)
#: Schemeless words (``simple_url_2_re``), checked with a protocol (:meth:`DjangoWords.ready`).
_CHECK_SCHEMELESS = (
    "example.org/p\u00e4th?q=\u00fc&r=1",
    "www.example.com",
    "(www.example.com/a).",
    "b\u00fccher.net/x",
)
#: Words Django trims (:meth:`DjangoWords.decide` is checked on them too).
_CHECK_TRIMMED = ("(https://example.com/a_(b)).", "[a@example.com];", "https://example.com/?a=1&amp;", "http://x.org:")
_CHECKED_OPTIONS = (
    (None, False, False, False),
    (None, True, True, False),
    (12, True, True, False),
    (5, False, False, True),
)


#: :meth:`DjangoWords.decide`: Django decides the word only after trimming it (or it is schemeless): ask Django.
ASK: Literal["ask"] = "ask"


class DjangoWords:
    """Django's ``handle_word`` for the words trimming leaves whole, with Django's own parts (issue 36).

    For a word with no opening ``([``, no trailing ``.,:;!)]`` and no separator, Django's
    ``trim_punctuation`` changes nothing and ``handle_word`` links it whole or not at all:
    with ``smart_urlquote`` of the word when ``simple_url_re`` accepts it, of
    ``protocol://`` and the word when ``simple_url_2_re`` does, or ``mailto_template`` with
    both parts quoted when ``is_email_simple`` does (and the word has no ``:``); in
    ``url_template``, with ``rel="nofollow"`` for a URL when asked and the display text cut
    by ``trim_url`` and escaped when Django escapes.  :meth:`decide` tells which of them
    links a word (the spans), :meth:`render` writes the anchor (a refined link's, which is
    not Django's span, and a span's at the end: the href is computed once per link shown).

    Made only for Django's own ``Urlizer`` (an anchor: its methods, patterns, punctuation and
    templates are the ones Django ships); at first use both are compared with Django on
    :data:`_CHECK_WORDS` with several option sets (:meth:`ready`), and a Django that differs
    is asked for every word.
    """

    def __init__(self, urlizer: Any, limit: int, quote_url: Callable[[str], str]) -> None:
        from urllib.parse import quote

        self._urlizer = urlizer
        self._limit = limit
        self._quote_url = quote_url
        self._quote = quote
        self._simple_url = urlizer.simple_url_re.match
        self._simple_url_2 = urlizer.simple_url_2_re.match
        self._is_email_simple = urlizer.is_email_simple
        self._trim_url = urlizer.trim_url
        self._trim_punctuation = urlizer.trim_punctuation
        self._split = urlizer.word_split_re.split
        code = getattr(getattr(type(urlizer), "handle_word", None), "__code__", None)
        #: Django 6 reads its setting for a schemeless word's protocol (and warns when it is not True).
        self._reads_setting = code is None or "URLIZE_ASSUME_HTTPS" in code.co_names
        self._verified: dict[str | None, bool] = {}

    def protocol(self) -> str | None:
        """What Django puts before a schemeless word now (``http`` before Django 6, ``https`` in Django 6
        with ``URLIZE_ASSUME_HTTPS`` True), or None when only Django can tell (it warns then)."""
        if not self._reads_setting:
            return "http"
        settings = getattr(sys.modules.get("django.conf"), "settings", None)  # (handle_word's module imports it)
        try:
            return "https" if settings is not None and settings.URLIZE_ASSUME_HTTPS is True else None
        except Exception:  # no settings
            return None

    def ready(self, protocol: str | None = None) -> bool:
        """Whether :meth:`decide` and :meth:`render` answer as Django does (checked once, and once more
        on schemeless words for a ``protocol``; False while Django cannot render here, with no settings)."""
        verified = self._verified.get(protocol)
        if verified is None:
            if protocol is not None and not self.ready():
                return False
            try:
                verified = self._verified[protocol] = self._renders_as_django(protocol)
            except Exception:  # Django cannot render without settings: ask it this time
                return False
        return verified

    def decide(self, word: str, protocol: str | None = None) -> tuple[LinkKind, int, int] | Literal["ask"] | None:
        """``(kind, start, end)`` when Django links ``word[start:end]`` (one of its words: no separator,
        no lone surrogate), ``kind`` ``"url"`` or ``"email"``; None when it links none of it;
        :data:`ASK` when only Django can tell (a schemeless link without ``protocol``, :meth:`protocol`,
        checked by :meth:`ready`).  The word is trimmed by Django's own ``trim_punctuation``."""
        if "." not in word and "@" not in word and ":" not in word:
            return None
        if word[0] in "([" or word[-1] in _TRIMMED:
            lead, middle, _ = self._trim_punctuation(word)
        else:
            lead, middle = "", word  # what trimming gives: nothing to trim
        if len(middle) <= self._limit:
            if self._simple_url(middle):
                return "url", len(lead), len(lead) + len(middle)
            if self._simple_url_2(middle):
                return ASK if protocol is None else ("url", len(lead), len(lead) + len(middle))
        if ":" not in middle and self._is_email_simple(middle):
            return "email", len(lead), len(lead) + len(middle)
        return None

    def spans(self, text: str, protocol: str | None) -> list[tuple[int, int]] | None:
        """The spans Django links in ``text`` (its words decided by :meth:`decide`), or None when one
        word is one only Django can tell (then the caller asks Django)."""
        out = []
        at = 0
        for i, piece in enumerate(self._split(without_surrogates(text))):
            if i % 2 == 0 and piece:
                decided = self.decide(piece, protocol)
                if isinstance(decided, str):
                    return None
                if decided is not None:
                    out.append((at + decided[1], at + decided[2]))
            at += len(piece)
        return out

    def render(
        self, word: str, span_href: str, safe_input: bool, trim_url_limit: int | None, nofollow: bool, autoescape: bool
    ) -> str | None:
        """``str(urlizer(word, trim_url_limit=…, nofollow=…, autoescape=…))`` (``word`` marked safe when
        ``safe_input``), or None when the word is not one trimming leaves whole.  ``span_href``:
        Django's href for the span ``word`` starts (its protocol, for a schemeless word), or ""
        (then :meth:`protocol`)."""
        if not word or word[0] in "([" or word[-1] in _TRIMMED or DJANGO_SEPARATORS.search(word) is not None:
            return None  # trimming or word splitting would cut it
        if not word.isascii() and _SURROGATE.search(word) is not None:
            return None
        escape = html.escape
        if "." in word or "@" in word or ":" in word:
            nofollow_attr = ' rel="nofollow"' if nofollow else ""
            if len(word) <= self._limit and self._simple_url(word):
                url = self._quote_url(html.unescape(word))
            elif len(word) <= self._limit and self._simple_url_2(word):
                protocol: str | None = span_href[: span_href.find("://")].lower()
                if protocol != "http" and protocol != "https":
                    protocol = self.protocol()
                    if protocol is None or not self.ready(protocol):
                        return None
                url = self._quote_url(f"{protocol}://{html.unescape(word)}")
            elif ":" not in word and self._is_email_simple(word):
                local, domain = word.rsplit("@", 1)
                url = f"mailto:{self._quote(local, safe='')}@{self._quote(domain, safe='')}"
                nofollow_attr = ""
            else:
                url = ""
            if url:
                trimmed = self._trim_url(word, limit=trim_url_limit)
                if autoescape and not safe_input:
                    trimmed = escape(trimmed)
                return f'<a href="{escape(url)}"{nofollow_attr}>{trimmed}</a>'
        if safe_input or not autoescape:
            return word
        return escape(word)

    def _renders_as_django(self, protocol: str | None) -> bool:
        """Whether :meth:`render` and :meth:`decide` give Django's answers for :data:`_CHECK_WORDS`,
        and with a ``protocol`` for :data:`_CHECK_SCHEMELESS` (not without: Django 6 warns for each)."""
        from django.utils.safestring import mark_safe

        urlizer = self._urlizer
        words = _CHECK_WORDS if protocol is None else _CHECK_SCHEMELESS
        for word in words + (_CHECK_TRIMMED if protocol is None else ()):
            spans = anchor_spans(word, str(urlizer(word, autoescape=True)))
            decided = self.decide(word, protocol)
            if isinstance(decided, str) or spans != ([] if decided is None else [RawLink(*decided[1:], decided[0])]):
                return False
        for trim_url_limit, nofollow, autoescape, safe_input in _CHECKED_OPTIONS:
            for word in words:
                if word[0] in "([" or word[-1] in _TRIMMED:
                    continue  # rendered by Django (trimmed)
                piece = mark_safe(word) if safe_input else word
                expected = str(urlizer(piece, trim_url_limit=trim_url_limit, nofollow=nofollow, autoescape=autoescape))
                span_href = "" if protocol is None else protocol + "://"
                if self.render(word, span_href, safe_input, trim_url_limit, nofollow, autoescape) != expected:
                    return False
        return True


def _words(urlizer: Any) -> DjangoWords | None:
    """:class:`DjangoWords` of a Urlizer with an anchor, when its module has what ``handle_word`` reads."""
    module = sys.modules.get("django.utils.html")
    limit = getattr(module, "MAX_URL_LENGTH", None)
    quote_url = getattr(module, "smart_urlquote", None)
    if not isinstance(limit, int) or quote_url is None or getattr(urlizer, "mailto_template", None) != _MAILTO_TEMPLATE:
        return None
    return DjangoWords(urlizer, limit, quote_url)


def _links_url(scheme: str, host: str) -> bool:
    return (
        (scheme == "http:" or scheme == "https:")
        and 0 < len(host) <= _LONGEST_HOST
        and host[0] not in ".-"
        and _OTHER_ASCII.search(host) is None
    )


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
    config: DjangoConfig | None = None,
) -> list[LibraryLink]:
    """The spans ``urlizer`` links in the plain ``text``, with each link's href and Django's anchor for it.

    The anchors are rendered with ``nofollow`` and escaping on (``_html_spans.anchor_markup``).
    With :func:`django_anchor`, Django reads only the anchored windows of the text; without
    it (a configuration it cannot read), the whole text, and no anchor is given (None).
    ``config``: :func:`django_configuration` of ``urlizer`` when the caller has it.
    """
    anchor = (config or django_configuration(urlizer)).anchor
    if anchor is None:
        clean = without_surrogates(text)
        found = anchor_markup(clean, str(urlizer(clean, nofollow=nofollow, autoescape=True)))
        return [found_link._replace(markup=None) for found_link in found]

    def render(window: str) -> str:
        return str(urlizer(window, nofollow=nofollow, autoescape=True))

    words = config.words if config is not None else None
    if words is not None and words.ready():
        protocol = words.protocol()
        if protocol is not None and not words.ready(protocol):
            protocol = None
        return _decided_markup(urlizer, text, anchor, words, render, nofollow, protocol)

    def render_raw(window: str) -> str:
        # Escaping off: the same anchors for a link without ``&`` (Django's words hold no ``<>"'``);
        # text and anchors are told apart by the text content, which must be the window's.
        return str(urlizer(window, nofollow=nofollow))

    return windowed_markup(text, anchor, render, GAP, render_raw)


def _decided_markup(
    urlizer: Any,
    text: str,
    anchor: re.Pattern[str],
    words: DjangoWords,
    render: Callable[[str], str],
    nofollow: bool,
    protocol: str | None,
) -> list[LibraryLink]:
    """:func:`django_markup` of the anchored windows of ``text``, Django's words decided by ``words``
    (:meth:`DjangoWords.decide`): the spans of the words it links whole, without their anchors
    (``markup`` None, ``href`` ""; the integration renders the anchor of the link it shows), and
    Django's spans and anchors for the words only Django can tell, read in one call.

    The windows put end to end hold the words Django reads in ``text`` (``windowed_markup``),
    split as Django splits them (``word_split_re``); each word is linked on its own.
    """
    first = anchor.search(text)
    if first is None:
        return []
    out: list[LibraryLink] = []
    asked: list[str] = []  # the words only Django can tell, with their places in ``text``
    asked_at: list[int] = []
    split = urlizer.word_split_re.split
    decided_words: dict[str, tuple[LinkKind, int, int] | Literal["ask"] | None] = {}  # as Django's own cache per call
    for lo, hi in anchored_windows(text, anchor, ANY_SPACE, GAP, len(text) + 1, first):
        window = without_surrogates(text[lo:hi])
        at = lo
        for i, piece in enumerate(split(window)):
            if i % 2 == 0 and piece:
                try:
                    decided = decided_words[piece]
                except KeyError:
                    decided = decided_words[piece] = words.decide(piece, protocol)
                if isinstance(decided, str):  # ASK
                    asked.append(piece)
                    asked_at.append(at)
                elif decided is not None:
                    kind, start, end = decided
                    out.append(LibraryLink(RawLink(at + start, at + end, kind), "", None, True))
            at += len(piece)
    if asked:
        out += _asked_markup(urlizer, asked, asked_at, render, nofollow)
        out.sort(key=lambda one: one.link.start)
    return out


def _asked_markup(
    urlizer: Any, asked: list[str], asked_at: list[int], render: Callable[[str], str], nofollow: bool
) -> list[LibraryLink]:
    """Django's spans and anchors for the words ``asked`` (at ``asked_at`` in the text), from one call
    on the words joined by spaces (Django links each word on its own)."""
    joined = " ".join(asked)
    starts: list[int] = []
    moves: list[int] = []
    length = 0
    for word, at in zip(asked, asked_at):
        starts.append(length)
        moves.append(at - length)
        length += len(word) + 1
    return joined_markup(joined, str(urlizer(joined, nofollow=nofollow)), render, starts, moves)


class DjangoBackend:
    """Django's urlize behind the :class:`~uts58_adapt.backends.base.Backend` protocol."""

    name = "django"

    def __init__(self, urlizer: Any = None) -> None:
        if urlizer is None:
            from django.utils.html import urlizer as default_urlizer

            urlizer = default_urlizer
        self._urlizer = urlizer

    def find(self, text: str) -> list[RawLink]:
        """The links Django's urlize finds in ``text``, sorted by start.

        Django 6's urlize reads the setting ``URLIZE_ASSUME_HTTPS`` (for the href of a bare
        domain, which the spans do not depend on), so it raises ``ImproperlyConfigured`` in a
        process without Django settings.  There, and only there (no ``DJANGO_SETTINGS_MODULE``,
        ``settings.configure()`` not called), the backend configures Django with that one
        setting, ``True`` (Django's coming default), and asks again: ``detect(backend="django")``
        works in any program, as with Django 5.  A program that configures Django itself
        does so before its first ``detect()`` with this backend.
        """
        try:
            return django_spans(self._urlizer, text)
        except Exception as exc:
            from django.core.exceptions import ImproperlyConfigured

            if not isinstance(exc, ImproperlyConfigured) or not standalone_settings():
                raise
        return django_spans(self._urlizer, text)


def standalone_settings() -> bool:
    """Configure Django with ``URLIZE_ASSUME_HTTPS=True`` when the process has no settings
    (see :meth:`DjangoBackend.find`); whether the settings may now be read."""
    from django.conf import settings

    if settings.configured or os.environ.get("DJANGO_SETTINGS_MODULE"):
        return False
    with contextlib.suppress(RuntimeError):  # another thread configured them first
        settings.configure(URLIZE_ASSUME_HTTPS=True)
    return True
