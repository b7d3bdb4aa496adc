"""marko's GFM extended autolinks with UTS #58 links.

Use: ``marko.Markdown(extensions=["gfm", "uts58_adapt.integrations.marko"])`` (after ``"gfm"``:
marko keeps the last element registered under a name, and this one replaces GFM's ``Url``).

marko finds its autolinks as it does alone (``marko.ext.gfm.elements.Url.find``: the ``www.``,
``http(s)://``/``ftp://`` and email patterns, their start and scheme rules, the host shapes it
takes); each of its matches is then refined (``integrations._common.refined_span``):

- where a URL ends is decided by UTS #58 §3.5.1 (``Visit https://例え.jp/テスト」です`` links
  ``https://例え.jp/テスト``), in the run of marko's pattern (``[^<\\s]*``): a link never takes
  a ``<`` or white space that marko leaves out;
- an email's local part follows §5.2 (``a..b@x.com`` and ``.a@x.com`` are no email), and its
  href always gets ``mailto:`` (marko alone writes ``href="a@例え.jp"`` for a non-ASCII address);
- a span whose host is invalid (§3.3: ``http://a..b.com``) or that holds userinfo (§3.2, deprecated)
  stays text;
- a Bidi_Control character in the link text is shown percent-escaped (§8), as is one that a
  character reference in it decodes to;
- a ``;`` that completes a character reference the link ends with (``…&amp`` + ``;``) stays in
  the link: the shown text holds one ``&``, an Include character (§3.5.1).

marko builds the element and its href as it does alone (``http://`` before ``www.``, its
``escape_url``).  ``make_extension(strict_hosts=True)`` adds §1.4's registrable-domain rule, as
``detect()`` applies it, and ``make_extension(reject_risky=True)`` its §8 checks (a link with a
risk stays text); marko passes keyword arguments through: ``Markdown(extensions=[...])`` takes
the module name, ``marko.helpers.load_extension(name, strict_hosts=True)`` the options.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Iterator
from html.entities import html5 as _ENTITIES
from typing import Any

from marko.ext.gfm import elements
from marko.helpers import MarkoExtension
from marko.inline import InlineElement, RawText

from ..html import BIDI_CONTROLS
from ..properties import INCLUDE, SOFT, TERM_MASK, class_body, flag_runs
from ..refine.risk_profile import RejectRisky, reject_risky_value
from ._common import WINDOW, completes_reference, escape_bidi, escape_bidi_references, refined_span

__all__ = ["gfm_extension", "make_extension", "url_element"]

_MAILTO = "mailto:"
_RE_MATCH = re.Match


class _Span:
    """A refined link as the match object marko's inline parser reads: ``start`` and ``end`` of
    the token (marko's own span, and the link where it ends past it), ``group`` its text.

    ``link``: the link's start, end and text, None when the refinement links nothing there.
    """

    __slots__ = ("_end", "_start", "_text", "kind", "link")

    def __init__(self, start: int, end: int, text: str, kind: str, link: tuple[int, int, str] | None) -> None:
        self._start = start
        self._end = end
        self._text = text
        self.kind = kind
        self.link = link

    def start(self, n: int = 0) -> int:
        return self._start

    def end(self, n: int = 0) -> int:
        return self._end

    def group(self, n: int = 0) -> str:
        return self._text

    def span(self, n: int = 0) -> tuple[int, int]:
        return self._start, self._end


def _kind(link_text: str) -> str:
    """``url`` for marko's ``www.`` and ``scheme://`` matches, ``email`` for its email pattern's."""
    return "url" if "://" in link_text or link_text[:4].lower() == "www." else "email"


#: What marko trims off a link's end that its inline parser reads as a delimiter (emphasis,
#: strikethrough): a refined link never takes it back.
_DELIMITERS = "*_~"


#: The fast path (issue 35: at most marko's time); False refines every match of marko's
#: (tests/test_marko.py compares the two).
_FAST = True

# A match of marko's whose refinement provably changes nothing (it is then marko's own match,
# its element built as marko builds it), told by two regexes (C speed), as in
# integrations.cmarkgfm (``_UNCHANGED``, where each condition is explained): ASCII only (in a
# text that is not ASCII, ``_unchanged_full`` also takes non-ASCII path characters); an
# "&" only before a letter or digit (no "&#": no numeric reference, which decodes without its
# ";") and then no ";" in the span (no named reference ends in it: ``_shown`` shows the text
# as it is, and none completes at its end); a host of letters, digits and inner single hyphens in two labels or more, the last one
# starting with a letter, at most 252 characters (a "." after it stays within MAX_HOST), no port, no userinfo; a URL with a lower-case
# http, https or ftp scheme, or "www.", and a path, query and fragment of Include and Soft
# characters, the last one Include; an email with a local part of dot-separated runs of
# [A-Za-z0-9+_-] (at most 64 characters).  The text the refinement reads after the match (to
# the end of marko's run) holds no "@" and is, after a URL, Soft characters other than "?",
# then nothing or a Close one (§10.1 keeps the end, refine.migration._path_end);
# after an email, nothing or one of )>]},;!?'" first (no domain character).
_LABEL = r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*"
_HOST = (
    r"(?=[A-Za-z0-9.-]{1,252}(?![A-Za-z0-9.-]))"
    rf"(?>(?:{_LABEL}\.)+[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)"
)
_PATH = r"A-Za-z0-9\-_.+!*%#?=;:/$~,"  # the path's characters (a class body)
_LAST = r"A-Za-z0-9\-_+*%#=/$~"  # its last one


def _unchanged(path: str = _PATH, last: str = _LAST) -> re.Pattern[str]:
    return re.compile(
        rf"(?P<url>(?:(?:https?|ftp)://|www\.){_HOST}"
        rf"(?:[/?#](?:[{path}]|&(?=[A-Za-z0-9]))*+(?<=[{last}]))?)"
        rf"|(?=[A-Za-z0-9+_.-]{{1,64}}@)[A-Za-z0-9+_-]+(?:\.[A-Za-z0-9+_-]+)*@{_HOST}"
    )


_UNCHANGED = _unchanged()


@functools.cache
def _unchanged_full() -> re.Pattern[str]:
    """``_UNCHANGED`` for a text that is not ASCII (compiled on first use: a class over all of
    Unicode costs ``re`` some milliseconds): the same host (ASCII), and a URL's path, query and
    fragment may also hold non-ASCII Include and Soft characters (Link_Term, §3.5.1), the last
    one Include, other than a Bidi_Control (§8 shows it escaped) and ``。 ． ｡`` (a domain
    written with them makes the refinement read every link of its window)."""
    excluded = "".join(sorted(BIDI_CONTROLS)) + "\u3002\uff0e\uff61"

    def non_ascii(term: int) -> str:
        runs = flag_runs(lambda b: b & TERM_MASK == term)
        return class_body([(max(first, 0x80), last) for first, last in runs if last >= 0x80], excluded)

    include = non_ascii(INCLUDE)
    return _unchanged(_PATH + include + non_ascii(SOFT), _LAST + include)


_URL_AFTER = re.compile(r"""[.,;:!'"]*(?:[)>\]}][^@]*)?""")
_EMAIL_AFTER = re.compile(r"""(?:[)>\]},;!?'"][^@]*)?""")


def refined_matches(
    text: str, matches: Iterator[Any], strict_hosts: bool = False, reject_risky: RejectRisky = False
) -> Iterator[Any]:
    """marko's autolink ``matches`` in ``text``, each with its refined UTS #58 link (or None),
    or marko's own match where the refinement gives its span back (``_UNCHANGED``).

    A refinement sees the text from marko's start to the end of its pattern's run (before
    marko trims the trailing ``?!.,:*_~``, an unbalanced ``)`` or a character reference), at
    most ``WINDOW`` past marko's end: the link may end before marko's, or take what marko
    trimmed, but never a ``<`` or white space, nor a ``*`` ``_`` ``~`` marko leaves to emphasis.
    The token keeps marko's whole span: what the link leaves of it stays plain text, as it
    is in marko's link (no ``*x*`` in it comes alive that marko alone keeps in its link).
    """
    fast = _FAST and not strict_hosts and not reject_risky
    unchanged = (_UNCHANGED if text.isascii() else _unchanged_full()).fullmatch
    url_after, email_after = _URL_AFTER.fullmatch, _EMAIL_AFTER.fullmatch
    for match in matches:
        start, end = match.start(), match.end()
        # marko wraps a trimmed match (``_MatchObj``)
        raw = match if type(match) is _RE_MATCH else getattr(match, "_match", match)
        span_end = min(end, start + WINDOW)
        window_end = raw.end() if text[end : end + 1] not in _DELIMITERS else end
        window_end = min(window_end, span_end + WINDOW)
        if text.find("&", end, window_end) != -1:
            window_end = _before_decoded(text, end, window_end)
        shape = unchanged(text, start, end) if fast and span_end == end else None
        if (
            shape is not None
            and (url_after if shape.start("url") != -1 else email_after)(text, end, window_end) is not None
            and ("&" not in shape.group() or (";" not in shape.group() and text[end : end + 1] != ";"))
        ):
            yield match  # the refinement gives marko's span back: marko's own element
            continue
        kind = _kind(match.group())
        found = refined_span(text, start, span_end, kind, window_end, strict_hosts, reject_risky)
        if found is None:
            yield _Span(start, end, text[start:end], kind, None)
            continue
        link_start, link_end, link_text, _href = found
        if kind == "url" and _SHAPE.match(link_text) is None:
            # a link of a host shape marko never links (it cut "www.a..&" to "www.a", which marko's
            # www pattern does not take, nor write an "http://" href for; fuzz seed 26): text
            yield _Span(start, end, text[start:end], kind, None)
            continue
        if link_end < window_end and completes_reference(text, link_end, link_text):
            link_end, link_text = link_end + 1, link_text + ";"  # "…&amp" then ";": one "&" shown
        token_end = max(end, link_end)
        yield _Span(start, token_end, text[start:token_end], kind, (link_start, link_end, link_text))


#: The shape marko's GFM patterns give a URL (``Url.www_pattern``, ``Url.bare_pattern``): ``www.`` or
#: ``http(s)://``/``ftp://``, then a domain with a ``.`` in it.
_SHAPE = re.compile(r"(?:www\.|(?:https?|ftp)://)[\w.\-]*?\.[\w.\-]+")

#: A character reference as ``html.unescape`` finds one (named ones without ``;`` too: ``&lt`` in ``&lta;``).
_REFERENCE = re.compile(r"&(?:#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)")


def _before_decoded(text: str, end: int, window_end: int) -> int:
    """Where a link past marko's match (``end``) must stop, at most ``window_end``: before the first
    ``&`` that marko's text after its link decodes (``html.unescape``) other than as a whole reference
    the link may take (``&amp;``: one ``&``, :func:`completes_reference`), or to ``<`` or white space,
    which marko's links never hold.  marko alone shows ``http://t.e/&lta;`` as a link and ``<a;``: the
    refined link ends where marko's reading of the text ends it (fuzz campaign 3, issue 32)."""
    pos = text.find("&", end, window_end)
    while pos != -1:
        m = _REFERENCE.match(text, pos)
        if m is not None:
            written = m.group()
            decoded = html.unescape(written)
            if decoded != written:
                whole = written.endswith(";") and (written[1] == "#" or written[1:] in _ENTITIES)
                if not whole or decoded == "<" or decoded.isspace():
                    return pos
        pos = text.find("&", pos + 1, window_end)
    return window_end


#: How far before an "@" white space is looked for (``_Candidates``).
_LOOK_BACK = 256


class _Candidates:
    """One of GFM's ``Url`` patterns whose ``finditer`` starts each search near the next match:
    its matches, those of ``pattern.finditer(text)``, found without scanning the text between them.

    Every match holds one of ``needles`` (``www.``; ``://`` or ``@``) at most ``reach`` characters
    after its start, or (``run``) after a start with no white space between: the search for the
    next match starts at the nearest such bound before the next needle (no match starts before
    it, and a search from there finds what ``finditer`` finds; ``search(text, pos)`` reads the
    text before ``pos`` for the pattern's look-behind, as ``finditer`` does).  Anything else is
    the pattern's (``match``, ``pattern``...).
    """

    def __init__(self, pattern: re.Pattern[str], needles: tuple[str, ...], reach: dict[str, int]) -> None:
        self._pattern = pattern
        self.match = pattern.match  # (GFM's ``Url.__init__`` asks www_pattern about each link)
        self._needles = needles
        self._reach = reach  # needle -> how far before it a match may start (-1: to the white space before it)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pattern, name)

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> Iterator[re.Match[str]]:
        if not _FAST or endpos is not None:
            yield from self._pattern.finditer(text, pos, *(() if endpos is None else (endpos,)))
            return
        search = self._pattern.search
        # each needle's next occurrence, looked for again only once passed (linear time: a
        # needle absent from the rest of the text is never looked for again)
        found: dict[str, int | None] = dict.fromkeys(self._needles)
        while True:
            bound = -1
            for needle in self._needles:
                at = found[needle]
                if at is None or 0 <= at < pos:
                    at = found[needle] = text.find(needle, pos)
                if at == -1:
                    continue
                back = self._reach[needle]
                if back >= 0:
                    lo = at - back
                else:  # the match holds no white space from its start to the needle (looked for
                    # over a bounded stretch: none there, and the search starts at pos)
                    near = max(pos, at - _LOOK_BACK)
                    lo = max(text.rfind(" ", near, at), text.rfind("\n", near, at)) + 1
                    if lo == 0:
                        lo = pos
                lo = max(lo, pos)
                if bound == -1 or lo < bound:
                    bound = lo
            if bound == -1:
                return
            match = search(text, bound)
            if match is None:
                return
            yield match
            pos = match.end() if match.end() > match.start() else match.end() + 1


class UTS58AutolinkRun(InlineElement):
    """marko's autolink span whose refined link is shorter, or none: the link (an ``Url``
    element) between plain text.  No renderer has a method for it: each renders its children."""

    virtual = True

    def __init__(self, children: list[Any]) -> None:
        self.children = children

    def _syntax_spans(self, match: Any) -> None:
        return None


#: ``Element.get_type`` of the ``Url`` classes, by (class, snake_case).
_TYPE_NAMES: dict[tuple[type, bool], str] = {}


def url_element(*, strict_hosts: bool = False, reject_risky: RejectRisky = False) -> type[elements.Url]:
    """GFM's ``Url`` element (it replaces it: ``override``) with its matches refined to UTS #58."""
    risky = reject_risky_value(reject_risky)

    class Url(elements.Url):
        """GFM's extended autolinks, ending and validated by UTS #58 (module docstring)."""

        override = True
        # GFM's own patterns, searched from near each match (``_Candidates``): ``www.`` starts a
        # ``www_pattern`` match; a ``bare_pattern`` match starts with http, https or ftp just before
        # its "://", or is an email whose local part ([\w.+-], no white space) runs up to its "@".
        www_pattern = _Candidates(elements.Url.www_pattern, ("www.",), {"www.": 0})  # type: ignore[assignment]
        bare_pattern = _Candidates(elements.Url.bare_pattern, ("://", "@"), {"://": 5, "@": -1})  # type: ignore[assignment]

        def __new__(cls, match: Any) -> Any:
            if not isinstance(match, _Span):
                return super().__new__(cls)
            start, end, text = match.start(), match.end(), match.group()
            if match.link is None:
                return UTS58AutolinkRun([RawText(text)])
            link_start, link_end, link_text = match.link
            if link_start == start and link_end == end:
                return super().__new__(cls)
            # the link alone: a span that is all link, built as above (``__init__`` runs)
            children: list[Any] = [cls(_Span(link_start, link_end, link_text, match.kind, match.link))]
            if link_start > start:
                children.insert(0, RawText(text[: link_start - start]))
            if link_end < end:
                children.append(RawText(text[link_end - start :]))
            return UTS58AutolinkRun(children)

        def __init__(self, match: Any) -> None:
            super().__init__(match)  # type: ignore[no-untyped-call]
            if isinstance(match, _Span):
                if match.kind == "email" and self.dest[: len(_MAILTO)].lower() != _MAILTO:
                    self.dest = _MAILTO + self.dest  # marko adds it only to an ASCII address
                shown = _shown(match.group())
                if shown != match.group():
                    self.children = [RawText(shown)]

        @classmethod
        def get_type(cls, snake_case: bool = False) -> str:
            """marko's answer (it reads only the class), kept: its renderer asks it for each link."""
            key = (cls, snake_case)
            name = _TYPE_NAMES.get(key)
            if name is None:
                name = _TYPE_NAMES[key] = super().get_type(snake_case)
            return name

        @classmethod
        def find(cls, text: str, *, source: Any) -> Iterator[Any]:
            matches = super().find(text, source=source)  # type: ignore[no-untyped-call]  # GFM's own
            return refined_matches(text, matches, strict_hosts, risky)

    return Url


def _shown(text: str) -> str:
    """The link text with its Bidi_Control characters percent-escaped (UTS #58 §8), those a
    character reference in it decodes to included (marko's renderer decodes them)."""
    if not text.isascii() and not BIDI_CONTROLS.isdisjoint(text):
        text = escape_bidi(text)
    if "&" in text:
        text = escape_bidi_references(text, _decoded_in_link)
    return text


def _decoded_in_link(reference: str) -> str:
    """A character reference as marko shows it in an autolink's text: decoded when it ends with
    ``;`` (``&#x202e;``), as written otherwise (``&#x202e`` shows ``&#x202e``; fuzz seed 26)."""
    return html.unescape(reference) if reference.endswith(";") else reference


#: GFM's ``Url`` element refined to UTS #58, with the default options.
Url = url_element()


def make_extension(*, strict_hosts: bool = False, reject_risky: RejectRisky = False) -> MarkoExtension:
    """The marko extension (marko's entry point for ``extensions=[module name]``): GFM's ``Url``
    element refined to UTS #58; ``strict_hosts`` and ``reject_risky`` as in ``detect()``."""
    if not strict_hosts and not reject_risky:
        return MarkoExtension(elements=[Url])
    return MarkoExtension(elements=[url_element(strict_hosts=strict_hosts, reject_risky=reject_risky)])


def gfm_extension(*, strict_hosts: bool = False, reject_risky: RejectRisky = False) -> MarkoExtension:
    """marko's GFM extension with its ``Url`` element refined, as one extension: what
    ``extensions=["gfm", "uts58_adapt.integrations.marko"]`` gives (tools/upstream_compat.py
    puts it in place of ``marko.ext.gfm.make_extension``)."""
    from marko.ext.gfm import GFM

    url = make_extension(strict_hosts=strict_hosts, reject_risky=reject_risky).elements
    return MarkoExtension(
        parser_mixins=list(GFM.parser_mixins),
        renderer_mixins=list(GFM.renderer_mixins),
        elements=[*GFM.elements, *url],
    )
