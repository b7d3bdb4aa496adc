"""Upgrade an already configured linkifier in place of use: ``linkifier = wrap(linkifier)``.

``wrap`` returns an instance of a subclass of the wrapped object's own class
(``isinstance(wrap(x), type(x))``), which holds the wrapped ``linkify_it.LinkifyIt``
or ``urlextract.URLExtract`` instance and keeps no state of its own: every attribute
the wrapper classes do not define — options, schemas, TLD lists, stop characters,
properties, the library's other methods — is read from and written to the wrapped
instance (``__getattribute__`` and ``__setattr__`` delegate).  The detection methods
keep their signatures and result types, but the spans come out refined to UTS #58
(§10.1 Migration: Link Detection): the wrapped instance's own matches are the raw
spans, and ``refine_links`` does the refinement.

§10.1 keeps "the recognition of the Scheme and Host" of the library, so the wrapped
instance's configuration decides them:

- a ``scheme://`` is linked when the backend's own span starts with it, or, when the
  host stage finds it before a host the backend reported, when the backend links that
  scheme before that host (asked with a probe ``scheme://host/``): a schema the
  instance does not know or has disabled (``add("ftp:", None)``) is never linked;
- hosts are only rejected when invalid (``strict_hosts=False``, the default of
  ``wrap``); ``wrap(x, strict_hosts=True)`` adds §1.4's registrable-domain rule, as
  ``detect()`` applies it;
- emails the backend did not report (a non-ASCII local part, say) are added by the
  refinement and kept only when the backend accepts the same address with the local
  part ``a`` (the same ``mailto:`` prefix, the same domain), so switching emails off
  (``set({"fuzzy_email": False})``, ``extract_email=False``) or restricting TLDs
  still applies;
- urlextract's own narrowing stays: a stop character added with
  ``set_stop_chars_left``/``set_stop_chars_right`` ends a link as a Hard character
  would, and ``ignore_list``/``permit_list`` are applied to the refined hosts.

Typical use with markdown-it-py::

    md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    md.linkify = uts58_adapt.wrap(md.linkify)
"""

from __future__ import annotations

import bisect
import re
import string
import sys
import weakref
from collections.abc import Callable, Generator, Iterator, Sequence
from types import FrameType
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast, overload

from linkify_it.main import LinkifyIt, Match
from urlextract.urlextract_core import URLExtract, URLExtractError

from .backends._windows import ANY_SPACE, ASCII_SPACE, LINKIFY_IT_CUT, WINDOW, anchored_windows, windows
from .backends.base import RawLink
from .backends.linkify_it import GAP as LINKIFY_IT_GAP
from .backends.linkify_it import anchored_matches, instance_anchor
from .backends.urlextract import instance_gen_urls, instance_state, not_on_empty_label
from .html import BIDI_CONTROLS, _escape_bidi
from .link import Link
from .properties import FLAGS, HARD, TERM_MASK
from .refine.acceptance import WORD_CONTEXT, EmailInWord, ascii_host, ascii_local, never_host, scheme_check
from .refine.email import mailto_href
from .refine.hosts import SEPARATORS
from .refine.migration import candidate_text, refine_links
from .refine.risk_profile import RejectRisky, profile_of, reject_risky_value

if TYPE_CHECKING:
    from bleach.linkifier import Linker

__all__ = ["LinkifyItWrapper", "URLExtractWrapper", "wrap"]

_MAILTO = "mailto:"
_SEP_TABLE = str.maketrans(dict.fromkeys(SEPARATORS[1:], "."))


class _Wrapper:
    """Attribute delegation shared by both wrappers (the refinement is ``refine_links``).

    Only the names defined by the wrapper classes (and dunders) are the wrapper's own;
    any other attribute is looked up on, and set on, the wrapped instance.
    """

    _OWN = frozenset({"_wrapped", "_pending", "_strict_hosts", "_reject_risky"})
    _local_names: frozenset[str] = _OWN
    _wrapped: Any
    _strict_hosts: bool

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = set(_Wrapper._OWN)
        for klass in cls.__mro__:
            if issubclass(klass, _Wrapper):
                names.update(vars(klass))
        cls._local_names = frozenset(names)

    def __init__(self, wrapped: Any, strict_hosts: bool = False, reject_risky: RejectRisky = False) -> None:
        object.__setattr__(self, "_wrapped", wrapped)
        object.__setattr__(self, "_pending", None)
        object.__setattr__(self, "_strict_hosts", bool(strict_hosts))
        object.__setattr__(self, "_reject_risky", reject_risky_value(reject_risky))

    def __getattribute__(self, name: str) -> Any:
        if name in type(self)._local_names or (name[:2] == "__" and name[-2:] == "__"):
            return object.__getattribute__(self, name)
        return getattr(object.__getattribute__(self, "_wrapped"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        # Properties and options set on the wrapper configure the wrapped instance
        # (e.g. ``wrapper.extract_email = True`` for urlextract).
        if name in _Wrapper._OWN:
            object.__setattr__(self, name, value)
        else:
            object.__setattr__(self, "_pending", None)
            setattr(self._wrapped, name, value)

    def __delattr__(self, name: str) -> None:
        object.__setattr__(self, "_pending", None)
        delattr(self._wrapped, name)

    @property
    def wrapped(self) -> Any:
        """The backend instance this wrapper refines (its configuration is the one in use)."""
        return self._wrapped

    @property
    def strict_hosts(self) -> bool:
        """Whether hosts must be registrable domains (§1.4), as in ``detect()``; see ``wrap``."""
        return self._strict_hosts

    def _risk_filter(self, text: str, links: list[Link]) -> list[Link]:
        """``wrap(..., reject_risky=True)``: the §8 checks of ``detect()`` (:mod:`.refine.risks`)."""
        if not self._reject_risky:
            return links
        from .refine.risks import reject_risky_links

        return reject_risky_links(text, links, strict_hosts=self._strict_hosts, profile=profile_of(self._reject_risky))

    def __dir__(self) -> list[str]:
        return sorted(set(dir(type(self))) | set(dir(self._wrapped)))

    def __repr__(self) -> str:
        return f"wrap({self._wrapped!r})"


#: How far past the backend's end ``_window_end`` looks for a Hard character (code points).
_WINDOW_REACH = 4096
_NOT_HARD_RUN: re.Pattern[str] | None = None


def _window_end(text: str, pos: int) -> int:
    """Return the offset of the first Link_Term=Hard character at or after ``pos``, looking at
    most ``_WINDOW_REACH`` code points ahead (else ``min(len(text), pos + _WINDOW_REACH)``).

    No link crosses a Hard character (§3.5.1), so refining a link that ends at or
    before ``pos`` only needs the text up to there; ``match_at_start`` uses this to
    avoid rescanning the rest of a long paragraph for every link in it.  The reach is
    bounded because markdown-it calls ``match_at_start`` with the rest of the paragraph
    at every ``://``: an unbounded search (even at C speed) would make a paragraph
    without Hard characters (``http://a.co/x>http://a.co/x>…``) cost quadratic time.
    Only a link running on for more than ``_WINDOW_REACH`` code points past the backend's
    end, with no Hard character, is cut at the reach.
    """
    global _NOT_HARD_RUN
    if _NOT_HARD_RUN is None:  # built on first use (a class of every non-Hard range)
        from .properties import class_body, flag_runs, largest_astral

        ranges = largest_astral(flag_runs(lambda b: b & TERM_MASK != HARD), 32)
        _NOT_HARD_RUN = re.compile(f"[{class_body(ranges)}]*")
    n = min(len(text), pos + _WINDOW_REACH)
    while pos < n:
        pos = _NOT_HARD_RUN.match(text, pos, n).end()  # type: ignore[union-attr]  # ``*`` always matches
        if pos == n or FLAGS[ord(text[pos])] & TERM_MASK == HARD:
            return pos
        pos += 1  # a non-Hard astral code point the class leaves out
    return n


_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*:)//")
#: The characters of markdown-it's text rule's terminators (``rules_inline/text.py``) where
#: one of its inline rules may start markup: inline HTML and autolinks, emphasis and
#: strikethrough (a run of ``* _ ~``, see :func:`_markdown_stop`), links and images, code
#: spans, backslash escapes, character references.
_MARKDOWN_STOP = re.compile(r"[<*_~\[\]!`\\&]")
#: A ``&`` or ``\\`` that markdown-it parses as markup (markdown-it-py's ``entity`` and ``escape``
#: rules: a character reference's form, a backslash before ASCII punctuation or a line break).
_MARKDOWN_REFERENCE = re.compile(
    r"&(?:#[xX][0-9a-fA-F]{1,6};|#[0-9]{1,7};|[A-Za-z][A-Za-z0-9]{1,31};)|\\[!-/:-@\[-`{-~\n]"
)
_ASCII_PUNCTUATION = frozenset(string.punctuation)
#: How far after an emphasis opener :func:`_markdown_stop` looks for a closer (then it assumes one).
_CLOSER_REACH = 1024
#: The runs of ``_``, ``*``, ``~`` that may close emphasis and more (CommonMark §6.2: a closer is
#: not after white space; a ``_`` one is not before a letter or digit either).
_CLOSER_CANDIDATE = {
    "_": re.compile(r"(?<![\s_])_+(?![A-Za-z0-9_])"),
    "*": re.compile(r"(?<![\s*])\*+"),
    "~": re.compile(r"(?<![\s~])~+"),
}


def _flanking(text: str, start: int, end: int) -> tuple[bool, bool] | None:
    """Whether the delimiter run ``text[start:end]`` is left-flanking and right-flanking
    (CommonMark 0.31 §6.2), or None when a neighbour is not ASCII (then it is taken as both)."""
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    if not (before.isascii() and after.isascii()):
        return None
    before_space, after_space = before.isspace(), after.isspace()
    before_punct, after_punct = before in _ASCII_PUNCTUATION, after in _ASCII_PUNCTUATION
    left = not after_space and (not after_punct or before_space or before_punct)
    right = not before_space and (not before_punct or after_space or after_punct)
    return left, right


def _may_open_close(text: str, start: int, end: int) -> tuple[bool, bool]:
    """Whether a run of ``*``, ``_`` or ``~`` may open and may close emphasis (CommonMark §6.2:
    ``_`` not inside a word); a run next to a non-ASCII character may do both."""
    flanking = _flanking(text, start, end)
    if flanking is None:
        return True, True
    left, right = flanking
    if text[start] != "_":
        return left, right
    after = text[end] if end < len(text) else " "
    before = text[start - 1] if start else " "
    return left and (not right or before in _ASCII_PUNCTUATION), right and (not left or after in _ASCII_PUNCTUATION)


def _markdown_stop(text: str, start: int, end: int) -> int:
    """Where in ``text[start:end]`` (past the library's match) a link must stop so that markdown-it
    still parses the markup there, or ``end``.

    At a ``<``, ``[``, ``]``, ``!`` or a backtick (:data:`_MARKDOWN_STOP`); at a ``&`` or ``\\`` that
    starts a character reference or an escape (:data:`_MARKDOWN_REFERENCE`: ``&t`` is text); at a run
    of ``*``, ``_`` or ``~`` only where it may close emphasis, or may open it and a run of the
    same character after it may close it (within :data:`_CLOSER_REACH`): a ``_`` inside a word,
    as in ``…/Lista_ta'_artikli_li``, is text to markdown-it, and stays in the link.
    """
    pos = start
    while True:
        m = _MARKDOWN_STOP.search(text, pos, end)
        if m is None:
            return end
        at = m.start()
        char = text[at]
        if char == "&" or char == "\\":
            if _MARKDOWN_REFERENCE.match(text, at) is not None:
                return at
            pos = at + 1  # (text to markdown-it: ``&t``, ``\\a``)
            continue
        if char not in "*_~":
            return at
        run_end = at + 1
        while run_end < len(text) and text[run_end] == char:
            run_end += 1
        opens, closes = _may_open_close(text, at, run_end)
        if closes or (opens and _closer_after(text, char, run_end)):
            return at
        pos = run_end


def _closer_after(text: str, char: str, pos: int) -> bool:
    """Whether a run of ``char`` after ``pos`` may close emphasis (True past :data:`_CLOSER_REACH`).

    The runs are found by :data:`_CLOSER_CANDIDATE` (a superset of those that may close, in C),
    each checked by :func:`_may_open_close`: a ``_`` inside every word after it costs no call."""
    reach = min(len(text), pos + _CLOSER_REACH)
    candidate = _CLOSER_CANDIDATE[char]
    m = candidate.search(text, pos, reach)
    while m is not None:
        if _may_open_close(text, m.start(), m.end())[1]:
            return True
        m = candidate.search(text, m.end(), reach)
    return reach < len(text)


def _refinable(text: str, m: Match) -> bool:
    """Whether UTS #58 covers a linkify-it match: an email, or a URL with a host.

    That is a fuzzy ``x.com``, a ``//x.com``, a ``s://x.com`` or a ``mailto:``.

    Other schemas an instance may define (``skype:``, ``@`` mentions …) have no host
    and no path for the standard to refine; they are kept as the backend found them.
    """
    return m.schema in ("", "//", _MAILTO) or text.startswith("//", m.index + len(m.schema))


def _schema_of(link: Link) -> str:
    """The linkify-it schema of a refined link: ``mailto:``, ``s:`` (``s://…``), ``//`` or ``""``."""
    if link.kind == "email":
        return _MAILTO
    m = _SCHEME.match(link.text)
    if m:
        return m.group(1).lower()
    return "//" if link.text.startswith("//") else ""


def _merge_unrefined(refined: list[Match], others: Sequence[Match]) -> list[Match]:
    """Add the matches left as they are, except those overlapping a refined one; keep the order by index."""
    starts = [m.index for m in refined]
    out = list(refined)
    for m in others:
        i = bisect.bisect_right(starts, m.index)
        if i and refined[i - 1].last_index > m.index:
            continue
        if i < len(refined) and refined[i].index < m.last_index:
            continue
        out.append(m)
    out.sort(key=lambda m: m.index)
    return out


#: A Bidi_Control character percent-encoded in UTF-8 (U+061C, U+200E-200F, U+202A-202E, U+2066-2069).
_BIDI_ENCODED = re.compile(r"%D8%9C|%E2%80%(?:8[EF]|A[A-E])|%E2%81%A[6-9]", re.IGNORECASE)


def _shown_encoded(match: Match) -> Match:
    """``match`` whose display text shows each Bidi_Control character percent-encoded (UTS #58 §8).

    markdown-it shows a link's ``text`` through ``normalizeLinkText``, which decodes
    percent-escapes (``%E2%80%AE`` would show as a live U+202E) but never ``%25``: so in
    ``text`` (the display text; ``raw`` and ``url`` are left alone) a Bidi_Control
    character written as it is is percent-escaped (``html.linkify``'s ``escape_bidi``), and
    the ``%`` of each such escape is written ``%25``: it shows as ``%25E2%2580%25AE``.
    """
    text = match.text
    if not text.isascii():
        text = _escape_bidi(text)
    if "%" in text:
        text = _BIDI_ENCODED.sub(lambda m: m.group().replace("%", "%25"), text)
    match.text = text
    return match


def _mailto_encoded(match: Match) -> Match:
    """``match`` whose ``mailto:`` url has its local part percent-encoded as RFC 6068 §2 requires
    (``refine.email.mailto_href``): linkify-it's normalizer only puts ``mailto:`` before it."""
    url = match.url
    if url[:7].lower() == _MAILTO and "@" in url:
        local, _, domain = url.rpartition("@")
        match.url = mailto_href(local, domain)
    return match


#: Where a host ends in a refined link's href (``scheme://host``, then a port, path, query or fragment).
_HOST_END = re.compile(r"[:/?#]|\Z")
_LABEL_SEPARATOR = re.compile(f"[{re.escape(SEPARATORS)}]")
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _mapped_host_url(match: Match, link: Link) -> str:
    """``match.url`` with the link's host as UTS #46 maps it, where markdown-it would resolve another.

    markdown-it's ``normalizeLink`` encodes each non-ASCII label of the host with Punycode
    as it is written: ``ｅｘａｍｐｌｅ.ｃｏｍ`` becomes ``xn--mi7chab1aes7c.xn--oi7cuaf``,
    not the ``example.com`` a browser resolves (UTS #46 §4 maps the label first).  The
    refined link's href holds the mapped host (§1.4): the url takes it when a label differs
    from it other than in ASCII case (which a browser folds); otherwise the url is unchanged.
    """
    text, href, url = link.text, link.href, str(match.url)
    if text.isascii() or not url.endswith(text):
        return url
    if link.kind == "email":
        host_start = text.rfind("@") + 1
        mapped, tail = href[href.rfind("@") + 1 :], ""
    else:
        schema = match.schema or ""
        host_start = 0 if not schema else 2 if schema == "//" else len(schema) + 2
        after_scheme = href.find("://") + 3
        if after_scheme < 3 or href.startswith("[", after_scheme):
            return url
        host_end = _HOST_END.search(href, after_scheme).start()  # type: ignore[union-attr]  # \Z matches
        mapped, tail = href[after_scheme:host_end], href[host_end:]
    host = text[host_start : len(text) - len(tail)]
    if host.isascii() or "@" in host or not text.endswith(tail):
        return url
    if ".".join(label.translate(_ASCII_LOWER) for label in _LABEL_SEPARATOR.split(host)) == mapped:
        return url
    return url[: len(url) - len(text)] + text[:host_start] + mapped + tail


def _rule_locals(module_name: str, skip: int = 2) -> dict[str, Any] | None:
    """The local variables of markdown-it-py's ``linkify`` rule in ``module_name``, when that
    rule is among the ``_RULE_DEPTH`` frames above the caller of the caller (``skip``: the
    frames below that one, this function's included); else None."""
    code = getattr(getattr(sys.modules.get(module_name), "linkify", None), "__code__", None)
    if code is None:
        return None
    frame: FrameType | None = sys._getframe(skip)
    for _ in range(_RULE_DEPTH):
        if frame is None:
            return None
        if frame.f_code is code:
            return frame.f_locals
        frame = frame.f_back
    return None


def _core_tokens(text: str) -> tuple[Any, int] | None:
    """The ``tokens`` and ``i`` of markdown-it-py's core linkify rule, read from its frame, when it
    is asking about ``text`` (``tokens[i]``, a text token); else None (another caller asks)."""
    found = _rule_locals("markdown_it.rules_core.linkify", 3)  # (the frames as its callers' own)
    tokens, i = (None, None) if found is None else (found.get("tokens"), found.get("i"))
    if tokens is None or not isinstance(i, int):
        return None
    try:
        return (tokens, i) if tokens[i].content == text else None
    except (AttributeError, IndexError, TypeError):
        return None


def _after_text_special(text: str) -> bool:
    """Whether markdown-it-py's core linkify rule is asking about ``text``, a text token right
    after a ``text_special`` token (a backslash escape or a character reference).

    That rule drops linkify-it's first match when it starts such a token (``http\\://x.com``
    links nothing); the wrapper is only given the token's text, so it reads the rule's own
    ``tokens`` and ``i`` from its frame (a few calls up: ``test`` or ``match``, then ``_match``).
    False where markdown-it-py is not imported or another caller asks.
    """
    found = _core_tokens(text)
    if found is None:
        return False
    tokens, i = found
    try:
        return bool(i > 0 and tokens[i - 1].type == "text_special")
    except (AttributeError, IndexError, TypeError):
        return False


def _after_inline_link(text: str) -> str | None:
    """The text of the link markdown-it-py's inline rule made right before ``text``, when its core
    linkify rule is asking about ``text``, the text token after that link; else None.

    The core rule scans a paragraph's tokens from the end: a ``linkify`` link before the token it
    is at is the inline rule's (read from the rule's frame, as in :func:`_after_text_special`).
    """
    found = _core_tokens(text)
    if found is None:
        return None
    tokens, i = found
    try:
        if i < 3:
            return None
        # (and the emphasis that opens right after the link, its delimiters written as in the source:
        # "http://t/" then "**" then "l·l.om", fuzz seed 29)
        k, between = i - 1, ""
        while k > 2 and tokens[k].type in _EMPHASIS_OPEN and len(between) < _INLINE_CONTEXT:
            between = tokens[k].markup + between
            k -= 1
        if tokens[k].type == "link_close":
            close, shown = tokens[k], tokens[k - 1]
            if close.markup == "linkify" and shown.type == "text" and isinstance(shown.content, str):
                return shown.content + between
    except (AttributeError, IndexError, TypeError):
        pass
    return None


#: The tokens of markdown-it-py's emphasis (and strikethrough) that open it.
_EMPHASIS_OPEN = frozenset({"em_open", "strong_open", "s_open"})
#: The inline tokens, other than text, whose source is their ``markup``: a character reference or an
#: escape, an emphasis delimiter that opens.
_SOURCE_MARKUP = _EMPHASIS_OPEN | {"text_special"}


def _source_before(text: str) -> str | None:
    """The Markdown source of the text tokens before ``text`` back to the last token of another
    kind (at most :data:`_INLINE_CONTEXT` code points, a character reference, an escape or an
    emphasis delimiter written as in the source), when markdown-it-py's core linkify rule is asking
    about ``text``, a text token right after a ``text_special`` token or an emphasis that opens
    (``http://t/**l·l.om**``, fuzz seed 29); else None.

    The core rule scans a paragraph's tokens from the end, so the tokens before ``text`` are the
    inline rules' own still (read from its frame, as in :func:`_after_text_special`).
    """
    found = _core_tokens(text)
    if found is None:
        return None
    tokens, i = found
    try:
        if not (i > 0 and tokens[i - 1].type in _SOURCE_MARKUP):
            return None
        parts: list[str] = []
        size, j = 0, i - 1
        while j >= 0 and size < _INLINE_CONTEXT and (tokens[j].type == "text" or tokens[j].type in _SOURCE_MARKUP):
            token = tokens[j]
            part = token.content if token.type == "text" or not token.markup else token.markup
            if not isinstance(part, str):
                return None
            parts.append(part)
            size += len(part)
            j -= 1
    except (AttributeError, IndexError, TypeError):
        return None
    return "".join(reversed(parts))


def _inline_before() -> str | None:
    """The Markdown source before the ``:`` that markdown-it-py's inline linkify rule is at (the
    last ``_INLINE_CONTEXT`` code points of ``state.src``, ending with the scheme), read from its
    frame as in :func:`_after_text_special`; None where another caller asks.

    The source, not ``state.pending``: an emphasis delimiter that closes nothing (``_``) is
    joined back into the text token the core rule reads (``fragments_join``).
    """
    found = _rule_locals("markdown_it.rules_inline.linkify")
    state = None if found is None else found.get("state")
    src, pos = getattr(state, "src", None), getattr(state, "pos", None)
    if not isinstance(src, str) or not isinstance(pos, int):
        return None
    return src[max(0, pos - _INLINE_CONTEXT) : pos]


#: How much source before a scheme :func:`_inline_before` reads.
_INLINE_CONTEXT = 64

#: How many frames up :func:`_rule_locals` looks for markdown-it-py's linkify rules.
_RULE_DEPTH = 6
#: The characters of linkify-it's email local part (``src_email_name``).
_LINKIFY_IT_LOCAL = re.compile(r'[\-;:&=+$,."a-zA-Z0-9_]*')

_State = tuple[tuple[str, ...], tuple[object, ...], object]
#: ``LinkifyItWrapper._accepts_scheme``'s answers per wrapped instance: its state, then probe -> answer.
_SCHEME_ANSWERS: weakref.WeakKeyDictionary[LinkifyIt, tuple[_State, dict[str, bool]]] = weakref.WeakKeyDictionary()
_MAX_ANSWERS = 1024


#: What linkify-it's ``test`` looks for apart from its links (its ``host_fuzzy_test`` pattern:
#: ``localhost``, ``www.``, a ``.`` then digits, a ``.`` then a TLD), added to an instance's anchor.
_TEST_ANCHOR_EXTRA = r"localhost|www\.|\.\d"
_TEST_ANCHORS: weakref.WeakKeyDictionary[re.Pattern[str], re.Pattern[str]] = weakref.WeakKeyDictionary()


def _test_anchor(anchor: re.Pattern[str]) -> re.Pattern[str]:
    """``anchor`` (an ``instance_anchor``) widened with :data:`_TEST_ANCHOR_EXTRA`, kept per anchor."""
    wide = _TEST_ANCHORS.get(anchor)
    if wide is None:
        wide = re.compile(f"{anchor.pattern}|{_TEST_ANCHOR_EXTRA}", re.IGNORECASE)
        _TEST_ANCHORS[anchor] = wide
    return wide


def _same_state(a: _State, b: _State) -> bool:
    """Whether two :meth:`LinkifyItWrapper._state` snapshots are of an unchanged instance."""
    return a[0] == b[0] and a[2] == b[2] and all(x is y for x, y in zip(a[1], b[1]))


class LinkifyItWrapper(_Wrapper, LinkifyIt):
    """A ``linkify_it.LinkifyIt`` whose matches are refined to UTS #58.

    ``match``, ``match_at_start``, ``test``, ``pretest`` and ``test_schema_at``
    return what the originals return (``Match`` objects with consistent
    ``index``/``last_index``/``raw``/``text``/``url``/``schema``, booleans,
    lengths); ``add``, ``set`` and ``tlds`` configure the wrapped instance and
    return the wrapper, so chaining keeps the upgrade.
    """

    _wrapped: LinkifyIt
    _pending: tuple[str, list[Match], _State] | None

    # -- configuration: delegated, chainable -----------------------------------------

    def add(self, schema: str, definition: Any) -> LinkifyItWrapper:
        """Add (or, with ``None``, remove) a schema on the wrapped instance; return the wrapper."""
        self._pending = None
        self._wrapped.add(schema, definition)
        return self

    def set(self, options: dict[str, Any]) -> LinkifyItWrapper:
        """Update the wrapped instance's options (``fuzzy_link``, ``fuzzy_email``…); return the wrapper."""
        self._pending = None
        self._wrapped.set(options)
        return self

    def tlds(self, list_tlds: str | list[str], keep_old: bool = False) -> LinkifyItWrapper:
        """Replace (or, with ``keep_old``, extend) the wrapped instance's TLD list; return the wrapper."""
        self._pending = None
        self._wrapped.tlds(list_tlds, keep_old)
        return self

    # -- detection ---------------------------------------------------------------------

    def pretest(self, text: str) -> bool:
        """Quick check that may give false positives, like the original.

        Refinement only moves the ends of the backend's links and adds emails, which
        need an ``@``, so the backend's pretest (asked on the text's ``.`` form, for the
        domains written with ``。 ． ｡``) or an ``@`` covers every refined link.  With
        anchors derived from the instance's configuration (``instance_anchor``), a text
        without one is answered False without asking the backend.  The backend's own answer
        is kept where an anchor is found: markdown-it-py's core rule gates an inline token's
        content with it, and links nothing where it is False.
        """
        backend_text = candidate_text(text)
        if "@" in text:
            return True
        anchor = instance_anchor(self._wrapped)
        if anchor is not None and backend_text is text and anchor.search(text) is None:
            return False
        # The library's own pretest where an anchor is found: markdown-it-py links nothing in an
        # inline token whose content fails it (``_//e.c/<_``: a schema after "_"), though its text
        # token alone ("//e.c/<") passes ``test`` (issue 32, fuzz seed 18).  A domain written with
        # "。" is asked in its "." form.
        return bool(self._wrapped.pretest(backend_text))

    def test(self, text: str) -> bool:
        """Return whether ``match(text)`` finds at least one link and the library's own ``test``
        is True on the text (markdown-it-py's core rule links a text token only then).

        linkify-it's ``test`` is False on some text where its ``match`` finds a link (a fuzzy host
        before ``<``: ``x.com<``); markdown-it alone links nothing there, and neither does the
        upgrade (issue 32).  The library is asked as :meth:`_library_test` says, in bounded
        windows; an email the refinement adds (a local part UTS #58 allows, §3.6) is one the
        library links in its probe form, where its ``test`` finds it with the same pattern.

        The result is kept for an immediately following ``match`` on the same text
        (markdown-it-py calls ``test`` then ``match``), so the text is scanned once;
        it is dropped when the wrapped instance changed in between (``_state``).
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        backend_text = candidate_text(text)
        matches = self._windowed_matches(backend_text)
        found = self._match(text, backend_text, matches)
        self._pending = (text, found, self._state())
        if not found or any(m.schema == _MAILTO for m in found):
            return bool(found)
        # linkify-it's test() runs the checks its match() runs for a schema (test_schema_at) or an
        # email (one pattern): a match of either makes it True; a fuzzy link alone does not.
        if type(self._wrapped).test is LinkifyIt.test and any(m.schema for m in matches):
            return True
        if matches and self._library_test_in_token(backend_text, int(matches[0].index), int(matches[0].last_index)):
            return True  # (most often: the host of the first link, in its own word)
        return self._library_test(backend_text)

    def _library_test_in_token(self, text: str, start: int, end: int) -> bool:
        """The wrapped instance's ``test`` on the white-space-delimited token holding ``text[start:end]``
        (with the white space after it), when that token is at most ``WINDOW`` long, else False.

        A True there is the whole text's answer: what ``test`` finds in a token it finds in the text
        around it, white space being to its patterns what the ends of the text are.
        """
        lo = max(0, start - WINDOW)
        last = ANY_SPACE.last.match(text, lo, start)
        if last is not None:
            lo = last.end()
        elif lo:
            return False
        after = ANY_SPACE.search.search(text, end, lo + WINDOW + 1)
        hi = len(text) if after is None and len(text) - lo <= WINDOW else (after.end() if after else -1)
        return hi > lo and bool(self._wrapped.test(text[lo:hi]))

    def _library_test(self, text: str) -> bool:
        """The wrapped instance's ``test(text)``, asked in bounded windows.

        The windows are those of :meth:`_windowed_matches` (``anchored_matches``), with a
        wider anchor: linkify-it's ``test`` also looks, anywhere in the text, for a host
        (``localhost``, ``www.``, a ``.`` before a digit) apart from the link it finds.
        Windows cut at white space are given to it joined (each token keeps the white
        space after it), which gives the answer of one call on the whole text: the tokens
        left out hold nothing its patterns look for.  Only a run of over ``WINDOW // 2``
        code points without white space, cut inside at a character linkify-it's host
        matching cannot run across (issue 32 item 1: never inside a host, where it may take
        exponential time), is asked window by window, and there the answer may differ.
        """
        anchor = instance_anchor(self._wrapped)
        if anchor is None:
            pieces: Iterator[tuple[int, int]] = windows(text, cut=LINKIFY_IT_CUT)
        else:
            anchor = _test_anchor(anchor)
            first = anchor.search(text)
            if first is None:
                return False
            pieces = anchored_windows(text, anchor, gap=LINKIFY_IT_GAP, first=first, cut=LINKIFY_IT_CUT)
        joined: list[str] = []
        end = 0
        for lo, hi in pieces:
            if lo < end and joined:  # a window cut inside a run: ask what was gathered so far
                if self._wrapped.test("".join(joined)):
                    return True
                joined = []
            joined.append(text[lo:hi])
            end = hi
        return bool(joined) and bool(self._wrapped.test("".join(joined)))

    def match(self, text: str) -> list[Match] | None:
        """Return the refined ``Match`` list of ``text`` (sorted, non-overlapping), or None when empty."""
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        pending, self._pending = self._pending, None
        if pending is not None and pending[0] == text and _same_state(pending[2], self._state()):
            found = pending[1]
        else:
            found = self._match(text)
        return found or None

    def match_at_start(self, text: str) -> Match | None:
        """Return the refined link with a schema starting at ``text[0]``, or None.

        markdown-it-py's inline rule calls it with the rest of the paragraph (Markdown
        source): past the library's match the refined link never takes a character that
        starts markup there (``_MARKDOWN_STOP``: a ``<``, emphasis, link syntax …).  That rule
        shows the url as the link's text: a link whose ``url`` and ``text`` differ (a
        Bidi_Control character shown percent-escaped, a host UTS #46 maps) gives None, and
        markdown-it's core rule links it from ``match()``, showing ``text``.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        backend_text = candidate_text(text)
        raw = self._wrapped.match_at_start(backend_text)
        if raw is None:
            return None
        # Only the text up to the next Hard character matters; it is a prefix, so the
        # offsets are the same.
        end = _window_end(text, raw.last_index)
        # The text is Markdown source, which markdown-it parses on after the link: past the
        # library's match the link may take what linkify-it left out at its end, but not a
        # character that starts markup there ("<" inline HTML or an autolink, issue 21.5;
        # "*" "_" "~" emphasis, "[" "]" "!" link syntax, "`" code, "\" and "&", issue 32).
        # markdown-it links linkify-it's match without its trailing "*" (``url.rstrip("*")``).
        library_end = raw.last_index
        while library_end > raw.index and text[library_end - 1] == "*":
            library_end -= 1
        end = _markdown_stop(text, library_end, end)
        if end < raw.last_index:
            # (the stop is in the "*" run markdown-it leaves out: the library's link as markdown-it makes it)
            raw = self._make_match(backend_text, str(raw.schema), int(raw.index), end)
        for m in self._refined_matches(text[:end], [raw], backend_text[:end], same_length=True):
            if m.index == raw.index:
                # The inline rule shows the url (``normalizeLinkText(url)``, percent-escapes decoded),
                # which is also the href: where the link's text must show otherwise (a Bidi_Control
                # character percent-escaped, UTS #58 §8; the host as written where the url holds it
                # mapped, UTS #46), the rule is declined and markdown-it's core rule links the text,
                # showing ``text`` and linking ``url`` (issue 32).
                if self._relinks_inside(backend_text, int(m.last_index), int(raw.last_index)):
                    return None
                if m.url != m.text:
                    return self._cut_before_bidi(text, raw, m)
                return m
        return None

    def _cut_before_bidi(self, text: str, raw: Match, declined: Match) -> Match | None:
        """The link of markdown-it's inline rule ended before its first Bidi_Control character,
        where the core rule would not link ``declined`` from its start; None otherwise (declined).

        After ``_`` the inline rule links ``http://c#//e.\u202d`` where linkify-it's ``match()``
        (the core rule) links no scheme, only ``//e.\u202d`` inside it: declined, the refined
        link would start inside the library's (issue 32).  The inline rule shows the url, so a
        Bidi_Control character would show live (UTS #58 §8): the link ends before it, at the
        library's start, and the character stays outside any link.
        """
        before = _inline_before()
        scheme_end = text.find(":")
        if before is None or scheme_end <= 0 or not before.endswith(text[:scheme_end]):
            return None
        prefix = before[: len(before) - scheme_end]
        if any(int(f.index) == len(prefix) for f in self.match(prefix + text[: int(declined.last_index)]) or []):
            return None  # the core rule links it, showing its text
        cut = next((i for i in range(int(declined.last_index)) if text[i] in BIDI_CONTROLS), -1)
        if cut <= scheme_end + 3:
            return None
        backend_text = candidate_text(text)
        shorter = self._make_match(backend_text, str(raw.schema), 0, cut)
        for m in self._refined_matches(text[:cut], [shorter], backend_text[:cut], same_length=True):
            if m.index == 0 and m.url == m.text and int(m.last_index) > scheme_end + 3:
                if self._relinks_inside(backend_text, int(m.last_index), int(raw.last_index)):
                    return None
                return m
        return None

    def _relinks_inside(self, backend_text: str, end: int, library_end: int) -> bool:
        """Whether the library links, in the rest of the text after a refined link that ends at
        ``end`` before its own match's ``library_end``, a span starting before ``library_end``.

        markdown-it's core rule reads that rest as a text token of its own, where the library would
        start a link inside the one it made (``http://e\u200el.io``: ``l.io`` after the U+200E that
        ends the refined link, issue 32 item 5); declined, the core rule links the whole text
        through ``match()``, which makes no link inside the library's.  Not where the library's
        match (``backend_text`` starts with it) holds a ``&`` or ``\\``: the core rule reads a
        character reference or an escape there as a token of its own, so never the whole match
        (``ftp://t/[&#0;]l·l.co``: ``l·l.co`` in the text token after ``&#0;``); the refined link
        is made, and the core rule makes no link in the library's match after it
        (:meth:`_inline_overhang`).
        """
        if end >= library_end or "&" in backend_text[:library_end] or "\\" in backend_text[:library_end]:
            return False
        rest = backend_text[end : _window_end(backend_text, library_end)]
        return any(f.index < library_end - end for f in self._wrapped.match(rest) or [])

    def test_schema_at(self, text: str, name: str, position: int) -> int:
        """Return the length of the refined link tail after schema ``name`` ending at ``position``, or 0.

        When ``name`` does not end at ``position`` the backend's own length is returned.
        """
        length = int(self._wrapped.test_schema_at(text, name, position))
        start = position - len(name)
        if not length or start < 0 or text[start:position].lower() != name.lower():
            return length
        raw = self._make_match(text, name.lower(), start, position + length)
        end = _window_end(text, raw.last_index)
        for m in self._refined_matches(text[:end], [raw], text[:end]):
            if m.index == start:
                return max(0, int(m.last_index) - position)
        return 0

    # -- internals ---------------------------------------------------------------------

    def _state(self) -> _State:
        """A snapshot of the wrapped instance: its attributes (by identity) and its options (by value).

        ``set`` updates the options dict in place; ``add`` and ``tlds`` recompile, which
        replaces the compiled attributes.
        """
        attrs = vars(self._wrapped)
        opts = attrs.get("_opts")
        return tuple(attrs), tuple(attrs.values()), tuple(opts.items()) if isinstance(opts, dict) else None

    def _match(self, text: str, backend_text: str | None = None, matches: Sequence[Match] | None = None) -> list[Match]:
        """The refined links of ``text``, from the library's ``matches`` in ``backend_text`` (computed when not given)."""
        if backend_text is None:
            backend_text = candidate_text(text)
        if matches is None:
            matches = self._windowed_matches(backend_text)
        out = self._refined_matches(text, matches, backend_text)
        if out and out[0].index:
            # markdown-it's core rule drops linkify-it's first match where it starts a text
            # token right after an escape: so is a refined link starting later in it.
            dropped = self._first_library_end(text, backend_text, matches, out[0])
            if dropped > out[0].index and _after_text_special(text):
                out = [m for m in out if m.index >= dropped]
        if out:
            inside = self._inline_overhang(text) or self._special_overhang(text)
            if inside > out[0].index:
                out = [m for m in out if m.index >= inside]
        return out

    def _special_overhang(self, text: str) -> int:
        """How far into ``text`` a match of the library runs that starts in the source before it,
        where markdown-it-py's core rule asks about ``text`` right after a character reference, an
        escape or an emphasis that opens (:func:`_source_before`); else 0.

        markdown-it's inline rule may decline the library's link (one that must show otherwise than
        its url: ``http://例/%E2%80%AE&#0;:l·l.om``), and the core rule reads it in pieces, split
        at ``&#0;``: no link starts in the piece after it inside the library's match, which
        ``match()`` on the whole source would not start (issue 32, fuzz seed 23).
        """
        before = _source_before(text)
        if not before or ANY_SPACE.search.match(text) is not None:
            return 0
        whole = candidate_text(before + text[:_WINDOW_REACH])
        ends = [int(m.last_index) for m in self._wrapped.match(whole) or [] if m.index < len(before) < m.last_index]
        return max(ends, default=len(before)) - len(before)

    def _inline_overhang(self, text: str) -> int:
        """How far into ``text`` the library's match runs, where markdown-it-py's core rule asks about
        ``text`` right after a link of its inline rule (:func:`_after_inline_link`); else 0.

        The inline rule's refined link may end before the library's (at a Bidi_Control character,
        ``http://w\u202bl``); the core rule then reads the rest as a text token of its own, where
        the refined host moved back before the library's would start inside the library's link
        (``l·l.co`` over the ``l`` of ``http://w\u202bl``, §1.4).  No link starts there, as in
        ``match()`` on the whole text (:meth:`_started_as_library`).  The library is asked as the
        inline rule asks it (``match_at_start``, the text in its ``.`` form), on the link's shown
        text, which is its source unless markdown-it decoded a percent-escape in it.
        """
        link = _after_inline_link(text)
        if not link or ANY_SPACE.search.match(text) is not None:
            return 0  # (white space ends every link of linkify-it's: most text after a link)
        rest = text[:_WINDOW_REACH]
        raw = self._wrapped.match_at_start(candidate_text(link + rest))
        if raw is None or raw.index != 0:
            return 0
        end = int(raw.last_index)
        while end > len(link) and rest[end - len(link) - 1] == "*":  # (markdown-it's ``url.rstrip("*")``)
            end -= 1
        return max(0, end - len(link))

    def _first_library_end(self, text: str, backend_text: str, matches: Sequence[Match], first: Match) -> int:
        """Where the library's match ends that starts ``text`` and takes in ``first`` (a refined
        link that starts later: an email whose local part UTS #58 starts later, §3.6), or 0.

        The library is asked about an email of a non-ASCII local part (which it does not link)
        with that local part written ``a``, as :func:`.refine.acceptance.email_word_probe` asks it,
        where what comes before it can be the start of linkify-it's local part (at most
        ``WORD_CONTEXT`` of its characters: one bounded call).
        """
        if matches and matches[0].index == 0:
            return int(matches[0].last_index)
        start, end = int(first.index), int(first.last_index)
        local_end = text.rfind("@", start, end)
        if (
            first.schema != _MAILTO
            or local_end < 0
            or start > WORD_CONTEXT
            or text[start:local_end].isascii()
            or _LINKIFY_IT_LOCAL.fullmatch(text, 0, start) is None
        ):
            return 0
        local = ascii_local(backend_text[start:local_end])
        probe = backend_text[:start] + local + backend_text[local_end:end]
        found = self._wrapped.match(probe) or []
        return int(found[0].last_index) if found and found[0].index == 0 else 0

    def _windowed_matches(self, text: str) -> list[Match]:
        """The wrapped instance's matches in ``text``, given to it in bounded windows.

        linkify-it-py's path regex rescans the rest of a run without white space for every
        fuzzy link in it, so one call on ``x.co/(x.co/(…`` costs time quadratic in the run
        (markdown-it's core rule hands the wrapper whole paragraphs).  The windows are cut
        after white space (``backends._windows.windows``), which linkify-it treats like the
        ends of the text, so the matches are those of one call; only inside a run of over
        ``WINDOW // 2`` code points without white space do the windows overlap, cut only
        where linkify-it's host matching cannot run across (``backends.linkify_it.anchored_matches``),
        and there a match may differ.

        With anchors derived from the instance's own configuration
        (``backends.linkify_it.instance_anchor``: its schemas, fuzzy options and TLDs), only
        the white-space-delimited tokens that hold one are given to it, as ``detect()`` does;
        an instance with a validator of its own has none and takes every window.
        """
        anchor = instance_anchor(self._wrapped)
        if anchor is not None or len(text) <= WINDOW:
            return anchored_matches(self._wrapped, text, anchor)
        out: list[Match] = []
        for m in anchored_matches(self._wrapped, text, None):
            # (a custom validator may read the text around a match: rebuilt from the whole text)
            out.append(self._make_match(text, m.schema, m.index, m.last_index) if m.index else m)
        return out

    def _refined_matches(
        self, text: str, matches: Sequence[Match], backend_text: str, same_length: bool = False
    ) -> list[Match]:
        """Refine the URL and email matches the backend found in ``backend_text``; keep the others.

        ``backend_text`` is ``text`` as given to the backend (same length, see
        ``candidate_text``).  Matches of schemas UTS #58 does not cover (custom ones
        without a host) are kept unless a refined link overlaps them.  ``same_length``:
        each ``url`` keeps the length of the link in the text (see :meth:`_upgraded_match`).
        """
        refinable = [m for m in matches if _refinable(backend_text, m)]
        raw = [
            RawLink(m.index, m.last_index, "email" if m.schema == _MAILTO else "url", len(m.schema.rstrip("/")))
            for m in refinable
        ]
        opts = getattr(self._wrapped, "_opts", None)
        # The "---" option: a run of three hyphens ends a link, as a Hard character would.
        refine_text = text.replace("---", "   ") if isinstance(opts, dict) and opts.get("---") else text
        out = [
            self._upgraded_match(text, link, same_length)
            for link in self._risk_filter(
                refine_text,
                self._started_as_library(
                    refine_text,
                    raw,
                    _not_cut_forward(
                        refine_links(
                            refine_text,
                            raw,
                            strict_hosts=self._strict_hosts,
                            scheme_ok=scheme_check(self._scheme_probe(refinable, backend_text)),
                            accepts_email=EmailInWord(self._accepts_email_in),
                            accepts_host=never_host,  # (the instance was given the text in its "." form)
                        )
                    ),
                ),
            )
        ]
        if len(refinable) < len(matches):
            others = [
                m if backend_text is text else self._make_match(text, m.schema, m.index, m.last_index)
                for m in matches
                if not _refinable(backend_text, m)
            ]
            out = _merge_unrefined(out, others)
        return out

    def _upgraded_match(self, text: str, link: Link, same_length: bool) -> Match:
        """The ``Match`` of a refined link: its display text with Bidi_Control characters shown
        percent-encoded (:func:`_shown_encoded`), its url with the mapped host (:func:`_mapped_host_url`).

        ``same_length``: for markdown-it's inline rule, which shows the url (not the text) and
        moves on by the url's length: a mapped host of another length is not taken.
        """
        match = _shown_encoded(_mailto_encoded(self._make_match(text, _schema_of(link), link.start, link.end)))
        url = _mapped_host_url(match, link)
        if url != match.url and (not same_length or len(url) == len(match.url)):
            match.url = url
        return match

    def _make_match(self, text: str, schema: str, start: int, end: int) -> Match:
        """Build a ``Match`` normalised by the wrapped instance's own normaliser for ``schema``."""
        create = getattr(self._wrapped, "_create_match", None)
        if create is not None:
            try:
                match: Match = create(text, schema, start, end)
                return match
            except KeyError:  # schema no longer compiled on the instance
                pass
        match = Match(text, schema, start, end)
        self._wrapped.normalize(match)
        return match

    def _accepts_email_in(self, word: str, start: int, end: int) -> bool:
        """Whether the wrapped instance links an email over ``word[start:end]`` (``refine.acceptance.EmailInWord``).

        The library's email must not start before the address: the refined link would then start
        inside it (``/.emailto:a@e.om``: asked about ``emailto:a@e.om`` linkify-it links an email
        from ``e``, and nothing in the whole text; issue 32).  It may start later, where UTS #58's
        local part is longer than the library's (§5.2).
        """
        found = self._wrapped.match(candidate_text(word)) or []
        return any(m.schema == _MAILTO and start <= m.index < end for m in found)

    def _started_as_library(self, text: str, raw: Sequence[RawLink], links: list[Link]) -> list[Link]:
        """``links`` without the URLs whose start, moved back before linkify-it's span, is one linkify-it
        never starts: inside another of its spans, or a scheme where it starts no link of it.

        The refined host starts earlier than linkify-it's (``l·l.om``, where linkify-it links ``l.om``
        after the middle dot, §1.4); a refined link never starts inside linkify-it's own link
        (``hTtP://\u200fl·l.om``: ``l·l.om`` inside the library's ``hTtP://\u200fl``, which is rejected).
        The ``scheme://`` before the host is taken in where the library links that scheme
        (``scheme_check``), and only where it starts a link of it after the character before
        (``1http://l·l.om``: never after a letter or a digit).  Such a link is not made, as where
        the scheme is one the library does not link (``xhttp://l·l.om``).
        """
        if not any(link.original is not None and link.start < link.original[0] for link in links):
            return links
        starts = [r.start for r in raw]
        out = []
        for link in links:
            if link.kind == "url" and link.original is not None and link.start < link.original[0]:
                i = bisect.bisect_left(starts, link.start)  # the spans starting before the link
                if i and raw[i - 1].end > link.start:
                    continue  # inside the library's span before it
                m = _SCHEME.match(link.text) if link.start else None
                if m is not None and not self._starts_scheme_after(text[link.start - 1], m.group(1).lower()):
                    continue
            out.append(link)
        return out

    def _scheme_probe(self, matches: Sequence[Match], backend_text: str) -> Callable[[str, str], bool]:
        """:meth:`_accepts_scheme`, answered without asking the library where one of its ``matches``
        in ``backend_text`` is the probe's URL in context (:func:`_linked_probes`), where every
        schema is validated by linkify-it's own validators (``instance_anchor``: a validator of
        the user's may read the text around a match)."""
        linked: set[str] | None = None

        def probe(scheme: str, url: str) -> bool:
            nonlocal linked
            if linked is None:  # (on the first probe only: most texts ask none)
                own = instance_anchor(self._wrapped) is not None
                linked = _linked_probes(matches, backend_text) if own else set()
            return url in linked or self._accepts_scheme(scheme, url)

        return probe

    def _starts_scheme_after(self, before: str, scheme: str) -> bool:
        """Whether the wrapped instance links ``scheme//example.com/`` right after the character ``before``
        (kept with ``_accepts_scheme``'s answers, under a key no probe of its has)."""
        return self._accepts_scheme(scheme, f"{scheme}//example.com/", before)

    def _accepts_scheme(self, scheme: str, probe: str, before: str = "") -> bool:
        """Whether the wrapped instance links ``probe`` with the schema ``scheme`` (``refine.acceptance``),
        right after the character ``before`` when one is given (:meth:`_starts_scheme_after`).

        The answers are kept per wrapped instance while its configuration is unchanged
        (``_state``): markdown-it asks at every ``://`` of a document, mostly the same hosts.
        """
        state = self._state()
        entry = _SCHEME_ANSWERS.get(self._wrapped)
        if entry is None or not _same_state(entry[0], state) or len(entry[1]) >= _MAX_ANSWERS:
            entry = (state, {})
            _SCHEME_ANSWERS[self._wrapped] = entry
        key = f"{before}\x00{probe}" if before else probe
        answer = entry[1].get(key)
        if answer is None:
            found = self._wrapped.match(before + probe) or []
            answer = any(m.index == len(before) and str(m.schema).lower() == scheme for m in found[:2])
            entry[1][key] = answer
        return answer


#: A host as linkify-it's match writes it after ``scheme://``: up to its port, path, query or fragment
#: (no userinfo, no IP literal: ``@`` and ``[`` are not taken).
_LINKED_HOST = re.compile(r"[^/?#:@\[\]]+(?=[/?#:]|\Z)")
#: Where the authority ends (its userinfo, host and port).
_AUTHORITY_END = re.compile(r"[/?#]|\Z")


def _linked_probes(matches: Sequence[Match], text: str) -> set[str]:
    """The probe URLs (``scheme//host/``, the host's ``xn--`` form) that linkify-it links, told by its
    own ``matches`` in ``text``: a match with that scheme whose span is ``scheme://host`` then a port,
    path, query or fragment.  linkify-it validates the ``//host`` after a scheme by the same pattern
    alone as in context (the probe's path ``/`` is one it takes), so it links the probe: the
    refinement's scheme check (issue 21.1) is answered without asking it again."""
    out = set()
    for m in matches:
        schema = str(m.schema).lower()
        start = int(m.index) + len(schema)
        if schema[-1:] != ":" or schema == _MAILTO or text[start : start + 2] != "//":
            continue
        end = int(m.last_index)  # (searched up to it: no copy of the text per match)
        found = _LINKED_HOST.match(text, start + 2, end)
        if found is None or "@" in text[start + 2 : _AUTHORITY_END.search(text, start + 2, end).start()]:  # type: ignore[union-attr]
            continue  # (no host there, or userinfo before it)
        host = found.group().lower()
        # (only a host of letter-or-digit labels with inner hyphens: the form a validated host has)
        if all(
            label and label.replace("-", "").isalnum() and label[0] != "-" != label[-1] for label in host.split(".")
        ):
            out.add(f"{schema}//{ascii_host(host)}/")
    return out


def _not_cut_forward(links: list[Link]) -> list[Link]:
    """``links`` without the URLs refined to start after the start of linkify-it's span.

    linkify-it decides where a link starts: its span whose host starts with a character
    UTS #46 rejects (``~x.co``, its host ``~x``) is rejected, as ``a~x.co`` is, not cut to
    ``x.co`` (issue 32; Django's ``｡e.org`` in ``integrations._urlize``).
    """
    if not any(link.original is not None and link.original[0] < link.start for link in links):
        return links
    return [
        link
        for link in links
        if not (link.kind == "url" and link.original is not None and link.original[0] < link.start < link.original[1])
    ]


#: urlextract's default stop characters (``URLExtract.__init__``); only the ones a user
#: adds with ``set_stop_chars_left``/``set_stop_chars_right`` are applied on top of UTS #58.
#: urlextract's ``(url, (start, end))`` results.
_Found = Sequence[tuple[str, tuple[int, int]]]

_GENERAL_STOP_CHARS = frozenset(string.whitespace) | {'"', "<", ">", ";", "|"}
_DEFAULT_STOP_LEFT = _GENERAL_STOP_CHARS | {"=", "]", ")", "}"}
_DEFAULT_STOP_RIGHT = _GENERAL_STOP_CHARS


#: ``URLExtractWrapper._probe_answers`` per wrapped instance: its state, then (without, with
#: ``with_schema_only``) probe -> answer.
_PROBE_ANSWERS: weakref.WeakKeyDictionary[
    URLExtract, tuple[tuple[Any, ...], tuple[dict[str, bool], dict[str, bool]]]
] = weakref.WeakKeyDictionary()


class URLExtractWrapper(_Wrapper, URLExtract):
    """A ``urlextract.URLExtract`` whose results are refined to UTS #58.

    ``find_urls``, ``gen_urls`` and ``has_urls`` take the original arguments and
    return strings, or ``(url, (start, end))`` tuples with ``get_indices=True``.
    Setters and properties (``extract_email``, ``set_stop_chars_right`` …) are
    the wrapped instance's.
    """

    _wrapped: URLExtract

    def find_urls(
        self,
        text: str,
        only_unique: bool = False,
        check_dns: bool = False,
        get_indices: bool = False,
        with_schema_only: bool = False,
    ) -> list[str | tuple[str, tuple[int, int]]]:
        """Return the refined URLs (and emails, if enabled) of ``text`` like ``URLExtract.find_urls``.

        The instance's ``limit`` applies to the backend's own results; when it is
        reached, ``URLExtractError`` is raised with the refined partial results as
        ``data``, like the original.
        """
        self._check_text(text)
        error = None
        raw = self._library_found(text, check_dns, with_schema_only)
        limit = self._wrapped._limit
        if limit is not None and len(raw) > limit:
            message = f"Limit for extracting URLs was reached. [{limit} URLs]"
            raw, error = raw[:limit], URLExtractError(message, data=raw[:limit])
        items = list(self._items(text, raw, check_dns, get_indices, with_schema_only))
        if error is not None:
            raise URLExtractError(error.message, data=items) from error
        if only_unique:
            items = list(dict.fromkeys(items))
        return items

    def gen_urls(
        self, text: str, check_dns: bool = False, get_indices: bool = False, with_schema_only: bool = False
    ) -> Generator[str | tuple[str, tuple[int, int]], None, None]:
        """Yield the refined URLs of ``text`` like ``URLExtract.gen_urls``.

        The whole text is scanned and refined before the first item is yielded.
        """
        self._check_text(text)
        raw = self._library_found(text, check_dns, with_schema_only)
        yield from self._items(text, raw, check_dns, get_indices, with_schema_only)

    def has_urls(self, text: str, check_dns: bool = False, with_schema_only: bool = False) -> bool:
        """Return whether ``text`` has at least one refined URL."""
        return any(True for _ in self.gen_urls(text, check_dns=check_dns, with_schema_only=with_schema_only))

    def _library_found(self, text: str, check_dns: bool, with_schema_only: bool) -> list[tuple[str, tuple[int, int]]]:
        """The wrapped instance's ``(url, (start, end))`` results on ``text``, given to it in bounded windows.

        urlextract walks from every TLD hit to the ends of its run of non-stop characters,
        so one call on ``a.com,a.com,…`` costs time quadratic in the run (issue 21).  As
        for ``detect()`` (``backends._windows.windows``), a long text is cut after ASCII
        white space (urlextract's stop characters: no span crosses one), so the results are
        those of one call; only inside a run of over ``WINDOW // 2`` code points without
        white space do the windows overlap, and there a span may differ (the refinement
        resolves overlaps).

        Where the instance's configuration allows it, only its anchored tokens are given to it
        (``backends.urlextract.instance_gen_urls``), with the same results.
        """
        backend_text = candidate_text(text)
        wrapped = self._wrapped
        if not check_dns:  # (a DNS lookup per URL: no call is worth saving there)
            fast = instance_gen_urls(wrapped, backend_text, with_schema_only)
            if fast is not None:
                if len(backend_text) <= WINDOW:
                    return fast
                unique = dict.fromkeys((start, end, url) for url, (start, end) in fast)
                return [(url, (start, end)) for start, end, url in sorted(unique, key=lambda k: (k[0], -k[1]))]

        def run(chunk: str) -> list[tuple[str, tuple[int, int]]]:
            found = wrapped.gen_urls(chunk, check_dns=check_dns, get_indices=True, with_schema_only=with_schema_only)
            return list(cast(_Found, found))

        if len(backend_text) <= WINDOW:
            return run(backend_text)
        seen: dict[tuple[int, int, str], None] = {}
        for lo, hi in windows(backend_text, space=ASCII_SPACE):
            for url, (start, end) in run(backend_text[lo:hi]):
                seen.setdefault((start + lo, end + lo, url))
        return [(url, (start, end)) for start, end, url in sorted(seen, key=lambda k: (k[0], -k[1]))]

    def _probe_answers(self, check_dns: bool, with_schema_only: bool) -> dict[str, bool]:
        """The wrapped instance's answers to the probes of ``_items`` (an email ``a@domain``, a
        ``scheme://host/``), kept per instance while its configuration is unchanged
        (``backends.urlextract.instance_state``; at most ``_MAX_ANSWERS``): the same domains
        and hosts recur from text to text.  None are kept with ``check_dns`` (DNS answers change)."""
        if check_dns:
            return {}
        state = instance_state(self._wrapped)
        entry = _PROBE_ANSWERS.get(self._wrapped)
        if entry is None or entry[0] != state or len(entry[1]) >= _MAX_ANSWERS:
            entry = (state, ({}, {}))
            _PROBE_ANSWERS[self._wrapped] = entry
        return entry[1][with_schema_only]

    @staticmethod
    def _check_text(text: object) -> None:
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")

    def _user_stops(self) -> dict[int, str]:
        """The stop characters the user added to urlextract's defaults, mapped to a space."""
        wrapped = self._wrapped
        added: set[object] = (set(wrapped.get_stop_chars_left()) - _DEFAULT_STOP_LEFT) | (
            set(wrapped.get_stop_chars_right()) - _DEFAULT_STOP_RIGHT
        )
        return {ord(ch): " " for ch in added if isinstance(ch, str) and len(ch) == 1}

    def _host_allowed(self, link: Link) -> bool:
        """urlextract's ``permit_list`` and ``ignore_list`` (of hosts), applied to a refined link."""
        permit, ignore = self._wrapped.permit_list, self._wrapped.ignore_list
        if not permit and not ignore:
            return True
        if link.kind == "email":
            host = link.text.rpartition("@")[2]
        else:
            m = _SCHEME.match(link.text)
            rest = link.text[m.end() :] if m else link.text.removeprefix("//")
            host = re.split(r"[/?#:]", rest, maxsplit=1)[0]
        host = host.translate(_SEP_TABLE).rstrip(".").lower()
        if permit and host not in permit:
            return False
        return host not in ignore

    def _items(
        self,
        text: str,
        raw_found: _Found,
        check_dns: bool,
        get_indices: bool,
        with_schema_only: bool,
    ) -> Iterator[str | tuple[str, tuple[int, int]]]:
        backend_text = candidate_text(text)
        raw = []
        for url, (start, end) in raw_found:
            if backend_text[start:end] != url:  # the indices are urlextract's own arithmetic
                start = backend_text.find(url, max(0, start - len(url)))
                if start < 0:
                    continue
                end = start + len(url)
            # urlextract reports an email as a schemeless URL with userinfo: ``user@host``.
            kind: Literal["url", "email"] = "email" if "@" in url and "://" not in url and "/" not in url else "url"
            raw.append(RawLink(start, end, kind))

        answers = self._probe_answers(check_dns, with_schema_only)

        def accepts_email(probe: str) -> bool:
            probe = candidate_text(probe)
            answer = answers.get(probe)
            if answer is None:
                found = self._wrapped.gen_urls(probe, check_dns=check_dns, with_schema_only=with_schema_only)
                answer = answers[probe] = list(found) == [probe]
            return answer

        def accepts_scheme(scheme: str, probe: str) -> bool:
            key = scheme + " " + probe
            answer = answers.get(key)
            if answer is None:
                found = list(self._wrapped.gen_urls(probe, check_dns=check_dns, with_schema_only=with_schema_only))
                answer = answers[key] = bool(found) and str(found[0]).lower().startswith(scheme + "//")
            return answer

        stops = self._user_stops()
        # A stop character the user added ends a link as a Hard character does (same offsets).
        refine_text = text.translate(stops) if stops else text
        scheme_ok = scheme_check(accepts_scheme)
        links = refine_links(
            refine_text,
            raw,
            strict_hosts=self._strict_hosts,
            scheme_ok=scheme_ok,
            accepts_email=accepts_email,
            accepts_host=never_host,  # (the instance was given the text in its "." form)
        )
        for link in self._risk_filter(refine_text, not_on_empty_label(refine_text, links)):
            if not self._host_allowed(link):
                continue
            found = text[link.start : link.end]
            yield (found, (link.start, link.end)) if get_indices else found


_L = TypeVar("_L", bound=LinkifyIt)
_U = TypeVar("_U", bound=URLExtract)


@overload
def wrap(obj: _L, *, strict_hosts: bool = False, reject_risky: RejectRisky = False) -> _L: ...
@overload
def wrap(obj: _U, *, strict_hosts: bool = False, reject_risky: RejectRisky = False) -> _U: ...
@overload
def wrap(obj: Linker, *, strict_hosts: bool = False, reject_risky: RejectRisky = False) -> Linker: ...


def wrap(obj: Any, *, strict_hosts: bool = False, reject_risky: RejectRisky = False) -> Any:
    """Return ``obj`` upgraded to UTS #58: same methods, same result types, refined spans.

    ``obj`` is an already configured ``linkify_it.LinkifyIt`` or ``urlextract.URLExtract``
    instance (or an instance of a subclass); the result is an instance of a subclass of
    ``type(obj)`` that holds ``obj`` (``.wrapped``) and delegates its state to it, so its
    configuration stays in effect and can still be changed, through the wrapper or
    directly.  Its configuration decides scheme and host (§10.1); ``strict_hosts=True``
    adds the registrable-domain rule of §1.4 that ``detect()`` applies by default.
    Wrapping a wrapper returns it unchanged (or, with another ``strict_hosts``, a new
    wrapper of the same instance).
    ``reject_risky=True`` applies ``detect()``'s §8 checks (``link_risks``) to the refined links
    (``reject_risky="browser"``: those of ``link_risks(..., profile="browser")``).

    bleach: ``wrap(Linker(...))`` gives a Linker whose ``linkify`` is upgraded, and
    ``wrap(LinkifyFilter)`` (or ``wrap(partial(LinkifyFilter, ...))``) the upgraded filter
    class for ``Cleaner(filters=[...])``.  Raises TypeError for anything else, saying what
    to wrap for a MarkdownIt instance (``md.linkify``) or ``bleach.linkify`` (a Linker).
    """
    if isinstance(obj, _Wrapper):
        if obj.strict_hosts == bool(strict_hosts) and obj._reject_risky == reject_risky_value(reject_risky):
            return obj
        obj = obj.wrapped
    base: type[_Wrapper]
    if isinstance(obj, LinkifyIt):
        base = LinkifyItWrapper
    elif isinstance(obj, URLExtract):
        base = URLExtractWrapper
    else:
        return _wrap_other(obj, strict_hosts, reject_risky)
    return _wrapper_class(base, type(obj))(obj, strict_hosts, reject_risky)


def _wrap_other(obj: Any, strict_hosts: bool, reject_risky: RejectRisky) -> Any:
    """``wrap`` for bleach's objects (its Linker, its LinkifyFilter class); a TypeError saying what to wrap otherwise.

    The libraries are looked up in ``sys.modules``: an object of theirs means they are imported.
    """
    import sys

    bleach_linkifier = sys.modules.get("bleach.linkifier")
    if bleach_linkifier is not None:
        from functools import partial

        if isinstance(obj, bleach_linkifier.Linker):
            from .integrations.bleach import wrap_linker

            return wrap_linker(obj, strict_hosts, reject_risky)
        target = obj.func if isinstance(obj, partial) else obj
        if isinstance(target, type) and issubclass(target, bleach_linkifier.LinkifyFilter):
            from .integrations.bleach import wrap_filter

            upgraded = wrap_filter(target, strict_hosts, reject_risky)
            return partial(upgraded, *obj.args, **obj.keywords) if isinstance(obj, partial) else upgraded
        if target is bleach_linkifier.Linker:
            raise TypeError(
                "wrap() takes a Linker instance, not the class: linker = uts58_adapt.wrap(Linker()), "
                "then linker.linkify(text)"
            )
        bleach = sys.modules.get("bleach")
        if target is bleach_linkifier.Linker.linkify or (bleach is not None and target is bleach.linkify):
            raise TypeError(
                "wrap() takes a bleach.linkifier.Linker, not the linkify function: "
                "linker = uts58_adapt.wrap(bleach.linkifier.Linker(...)), then linker.linkify(text)"
            )
    markdown_it = sys.modules.get("markdown_it")
    if markdown_it is not None and isinstance(obj, markdown_it.MarkdownIt):
        raise TypeError(
            "wrap() takes the linkifier of a MarkdownIt instance, not the instance: "
            "md.linkify = uts58_adapt.wrap(md.linkify)"
        )
    raise TypeError(
        "obj must be a linkify_it.LinkifyIt, urlextract.URLExtract or bleach.linkifier.Linker instance "
        f"(or bleach's LinkifyFilter class), not {type(obj).__name__}"
    )


_SUBCLASSES: dict[tuple[type[_Wrapper], type[object]], type[_Wrapper]] = {}


def _wrapper_class(base: type[_Wrapper], cls: type[object]) -> type[_Wrapper]:
    """``base`` itself for the library's own class; for a subclass, a class deriving from both."""
    if cls in (LinkifyIt, URLExtract):
        return base
    key = (base, cls)
    made = _SUBCLASSES.get(key)
    if made is None:
        name = f"UTS58{cls.__name__}"
        made = _SUBCLASSES.setdefault(key, type(name, (base, cls), {"__module__": __name__, "__qualname__": name}))
    return made
