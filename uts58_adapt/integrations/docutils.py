r"""docutils' reStructuredText parser with UTS #58 standalone links.

Use: ``docutils.core.publish_parts(text, writer_name="html5", parser=Parser())``, or
``parser=Parser()`` with any ``docutils.core`` front end (``publish_string``,
``publish_doctree``...).

The parser is docutils' own (``docutils.parsers.rst.Parser``); only its ``Inliner``'s
implicit inline markup, :meth:`Inliner.implicit_inline`, changes:

- docutils' own pattern (``Inliner.patterns.uri``) finds each standalone URI and email,
  in docutils' order and with its start rules (a start-string prefix, the scheme in
  ``docutils.utils.urischemes``); docutils' PEP and RFC references are untouched;
- the link then ends where UTS #58 §3.5.1 ends it (``integrations._common.refined_span``):
  past the ASCII characters docutils' pattern stops at (``https://例え.jp/テスト``), and
  before a Soft character or an unbalanced bracket; the part of docutils' match left out
  stays plain text.  A URL whose host is invalid (§3.4) stays text;
- an email follows §5.2 (``bug@例え.jp``, ``σωκράτης@example.com``), linked as docutils
  links one (``mailto:`` href); one docutils did not see is kept only when docutils'
  own email pattern accepts the address with the local part ``a`` (the domain in its
  ``xn--`` form, as docutils reads only ASCII), and where docutils starts and ends inline
  markup (after white space, an opening bracket or a delimiter; before white space, a
  closing bracket or a delimiter);
- a Bidi_Control character in a link is shown percent-escaped (§8), as in the other
  integrations;
- URIs without a host (``news:comp.lang.python``, ``urn:isbn:…``, ``file:///…``) are
  outside UTS #58 and stay docutils' own links.

A backslash escape (``\_``) inside a URL is part of the URL, as in docutils; an escaped
``@`` makes no email.  The reference node is built as docutils builds it
(``refuri`` is the link's text, ``mailto:`` added for emails).  ``Parser(strict_hosts=True)``
adds §1.4's registrable-domain rule and ``Parser(reject_risky=True)`` §8's checks (a link
with a risk stays text), as ``detect()`` applies them.
"""

from __future__ import annotations

import functools
import re
from types import SimpleNamespace as Struct
from typing import Any, TypeAlias

import docutils.parsers.rst
import docutils.statemachine
from docutils import nodes
from docutils.parsers.rst import roles, states
from docutils.utils import unescape

from ..html import BIDI_CONTROLS
from ..refine.acceptance import ascii_host, ascii_local
from ..refine.email import MAILTO
from ..refine.migration import refine_links
from ..refine.risk_profile import RejectRisky, reject_risky_value
from ._common import WINDOW, escape_bidi, refined_span, risk_filter

__all__ = ["Inliner", "Parser"]

_SPACE = re.compile(r"\s")
_LAST_SPACE = re.compile(r".*\s", re.DOTALL)
#: ``scheme:`` followed by ``//`` and a host: the URIs UTS #58 governs.
_HIERARCHICAL = re.compile(r"[A-Za-z][A-Za-z0-9.+\-]*://(?!/)")
#: How far before an "@" a local part is looked for (RFC 5321 allows 64 octets).
_LOCAL_MAX = 256

#: The fast path (issue 35: at most docutils' time); False refines every match of docutils'
#: (tests/test_docutils.py compares the two).
_FAST = True

# A match of docutils' whose refinement provably changes nothing, told by two regexes (C speed),
# as in integrations.cmarkgfm (``_UNCHANGED``, where each condition is explained): ASCII only,
# no backslash escape; a host of letters, digits and inner single hyphens in two labels or
# more, the last one starting with a letter, at most 252 characters (a "." after it stays within MAX_HOST), no port, no userinfo;
# a URL with a lower-case http, https or ftp scheme and a path, query and fragment of Include
# and Soft characters, the last one Include; an email with a local part of dot-separated
# runs of [A-Za-z0-9+_-] (at most 64 characters).  What is around the match decides too:
# - the text the refinement reads around the match (from the white space before an email,
#   to the white space after) holds no other "@": no other email to weigh against it;
# - a URL ends where docutils ends it (§10.1, refine.migration._path_end) when the text
#   after it is Soft characters other than "?" and ":" then nothing, white space or a Close
#   one (a closing bracket, with none open in the URL);
# - an email's local part is docutils' when the character before it is white space, "<",
#   "(", "[" or '"' (no Link_Email character, §5.2), and its domain docutils' when the
#   character after it is white space, the end, or one of )>]},;!?'" (no domain character).
_LABEL = r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*"
_HOST = (
    r"(?=[A-Za-z0-9.-]{1,252}(?![A-Za-z0-9.-]))"
    rf"(?>(?:{_LABEL}\.)+[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)"
)
_URL_SHAPE = re.compile(rf"(?:https?|ftp)://{_HOST}(?:[/?#][A-Za-z0-9\-_.+!*%#?=;:/$~,]*+(?<=[A-Za-z0-9\-_+*%#=/$~]))?")
_EMAIL_SHAPE = re.compile(rf"(?=[A-Za-z0-9+_.-]{{1,64}}@)[A-Za-z0-9+_-]+(?:\.[A-Za-z0-9+_-]+)*@{_HOST}")
_URL_AFTER = re.compile(r"""[.,;!'"]*(?:[)>\]}][^\s@]*)?(?:\s|\Z)""")
_EMAIL_AFTER = re.compile(r"""(?:[)>\]},;!?'"][^\s@]*)?(?:\s|\Z)""")
_EMAIL_BEFORE = re.compile(r"""[\s<(\["]""")

#: One piece of :meth:`Inliner._implicit`'s result: a node, or text (``True``: emails may be looked for in it).
_Piece: TypeAlias = "nodes.Node | tuple[str, bool]"


def _last_word(text: str) -> str:
    """The last word (no white space, as ``\\s`` reads it: ``str.isspace``) of ``text``, possibly empty."""
    return "" if not text or text[-1].isspace() else text.rsplit(None, 1)[-1]


def _cut(pieces: list[_Piece], taken: int) -> list[_Piece]:
    """``pieces`` (of a text) without their first ``taken`` characters of source text, which a
    refined link took: a node there is dropped (its part past ``taken`` stays text)."""
    out: list[_Piece] = []
    pos = 0
    for piece in pieces:
        if pos >= taken:
            out.append(piece)
            continue
        if isinstance(piece, tuple):
            source, scan = piece
        else:
            source, scan = piece.rawsource or piece.astext(), False
        if pos + len(source) > taken:
            out.append((source[taken - pos :], scan))
        pos += len(source)
    return out


class Inliner(states.Inliner):  # type: ignore[misc]
    """docutils' ``Inliner`` whose standalone URIs and emails follow UTS #58 (see the module)."""

    def __init__(self, *, strict_hosts: bool = False, reject_risky: RejectRisky = False) -> None:
        super().__init__()
        self.strict_hosts = bool(strict_hosts)
        self.reject_risky = reject_risky_value(reject_risky)
        self.fast = _FAST and not self.strict_hosts and not self.reject_risky

    def init_customizations(self, settings: Any) -> None:
        """docutils' ``init_customizations`` (its inline patterns, built for each document), its
        result kept for the next document with the same settings (the fast path).

        What docutils' method reads of ``settings`` is recorded (``character_level_inline_markup``,
        ``pep_references``, ``rfc_references`` in docutils 0.22); a document whose settings have
        the same values for those gets the same attributes (the same compiled patterns, the
        dispatch list bound to this inliner), as docutils would build them again.
        """
        if not self.fast:
            super().init_customizations(settings)
            return
        names = _READ_SETTINGS.get(type(self))
        if names is not None:
            key: tuple[Any, ...] | None = _settings_key(type(self), names, settings)
            kept = _CUSTOMIZATIONS.get(key) if key is not None else None
            if kept is not None:
                attributes, dispatch = kept
                for name, value in attributes.items():
                    # ``patterns`` (a namespace) copied: each document's inliner has its own
                    setattr(self, name, Struct(**vars(value)) if isinstance(value, Struct) else value)
                self.implicit_dispatch = [(pattern, getattr(self, method)) for pattern, method in dispatch]
                return
        before = set(vars(self))
        recorder = _Recorder(settings)
        super().init_customizations(recorder)
        names = _READ_SETTINGS.setdefault(type(self), tuple(dict.fromkeys(recorder.names)))
        key = _settings_key(type(self), names, settings)
        if key is None or tuple(dict.fromkeys(recorder.names)) != names:
            return
        dispatch = [(pattern, method.__name__) for pattern, method in self.implicit_dispatch]
        if any(
            getattr(self, name, None) != method for (_p, name), (_q, method) in zip(dispatch, self.implicit_dispatch)
        ):
            return  # not methods of this inliner: nothing kept
        attributes = {
            name: value for name, value in vars(self).items() if name not in before and name != "implicit_dispatch"
        }
        if len(_CUSTOMIZATIONS) < 64:
            _CUSTOMIZATIONS[key] = (attributes, dispatch)

    def implicit_inline(self, text: str, lineno: int) -> list[nodes.Node]:
        """docutils' ``implicit_inline`` (the same recursion over ``implicit_dispatch``), each
        standalone URI or email refined, then §5.2's emails in the text between the links."""
        out: list[nodes.Node] = []
        pending: list[str] = []  # text in which emails are looked for, joined before the search
        before = ""  # the text shown just before ``pending`` (docutils reads across it: ``HTTP:/`` + ``/σ@e.m``)

        for piece in self._implicit(text, lineno):
            if isinstance(piece, tuple):
                if piece[1]:
                    pending.append(piece[0])
                    continue
                self._flush(pending, out, before)
                out.append(nodes.Text(piece[0]))
                before = piece[0]
            else:
                self._flush(pending, out, before)
                out.append(piece)
                before = piece.astext()
        self._flush(pending, out, before)
        return out

    def _implicit(self, text: str, lineno: int, uri_free: bool = False) -> list[_Piece]:
        """docutils' ``implicit_inline`` with :meth:`_standalone` for its URI pattern.

        ``uri_free``: docutils' URI pattern is known to find nothing in ``text``, which is not
        searched again (:func:`_uri_free_before`).  Under the fast path, a text without ":" or "@"
        is not searched either: each match of the pattern holds a ``scheme:`` or an ``@``.
        """
        if not text:
            return []
        uri = self.patterns.uri
        scanned = True
        for pattern, method in self.implicit_dispatch:
            if pattern is uri and (uri_free or (self.fast and ":" not in text and "@" not in text)):
                continue  # what docutils' search would give: no match
            match = pattern.search(text)
            if match:
                if pattern is uri:
                    found = self._standalone(text, match)
                    if found is None:
                        # docutils' MarkupMismatch (an unknown scheme first): docutils links no
                        # URI nor email in this text, and no §5.2 email is looked for in it either
                        scanned = False
                        continue
                    start, pieces, end = found
                    if match.end("whole") < end:
                        # The link took text after docutils' match: the rest is read as docutils
                        # reads it, from the match's end (``mailto:a@b`` + ``.c=@d``: no email in
                        # ``=@d``), then what the link took is cut from it.
                        after = match.end("whole")
                        rest = _cut(self._implicit(text[after:], lineno), end - after)
                    else:
                        rest = self._implicit(text[end:], lineno)
                    return (
                        self._implicit(text[:start], lineno, self.fast and _uri_free_before(text, start))
                        + pieces
                        + rest
                    )
                try:
                    made: list[nodes.Node] = method(match, lineno)
                    return (
                        self._implicit(text[: match.start()], lineno)
                        + made
                        + self._implicit(text[match.end() :], lineno)
                    )
                except states.MarkupMismatch:
                    pass
        return [(text, scanned)]

    def _standalone(self, text: str, match: re.Match[str]) -> tuple[int, list[_Piece], int] | None:
        """docutils' match of a standalone URI or email refined: (where the text before it ends,
        the pieces, where the text after it starts), or None where docutils links nothing."""
        scheme = match.group("scheme")
        if scheme and scheme.lower() not in states.urischemes.schemes:
            return None
        start, end = match.start("whole"), match.end("whole")
        is_email = bool(match.group("email")) or (scheme is not None and scheme.lower() == "mailto")
        if not is_email and not _HIERARCHICAL.match(text, start):
            # no host (news:, urn:, file:///): outside UTS #58, docutils' own link
            return start, [self._reference(text[start:end], False)], end
        if self.fast:
            if is_email:
                at = text.rfind("@", max(0, start - _LOCAL_MAX), start)
                same = (
                    _EMAIL_SHAPE.fullmatch(text, start, end) is not None
                    and (start == 0 or _EMAIL_BEFORE.match(text, start - 1) is not None)
                    and _EMAIL_AFTER.match(text, end) is not None
                    and (at == -1 or _SPACE.search(text, at, start) is not None)
                )
            else:
                same = _URL_SHAPE.fullmatch(text, start, end) is not None and _URL_AFTER.match(text, end) is not None
            if same:  # the refinement would give docutils' span back
                return start, [self._reference(text[start:end], is_email)], end
        found = self._refine(text, start, end, is_email)
        if found is None:  # an invalid host, or an email §5.2 rejects: docutils' span stays text
            return start, [(text[start:end], False)], end
        link_start, link_end = found
        pieces: list[_Piece] = [self._reference(text[link_start:link_end], is_email)]
        if link_end < end:  # the rest of docutils' span stays text (no link starts inside it)
            pieces.append((text[link_end:end], False))
        return link_start, pieces, max(end, link_end)

    def _refine(self, text: str, start: int, end: int, is_email: bool) -> tuple[int, int] | None:
        """The refined link of docutils' span ``text[start:end]``, as offsets in ``text``.

        The link is looked for up to the next white space (at most ``WINDOW`` past docutils'
        match), an email's local part back to the white space before it.  Backslash escapes
        (``\\x00`` before the escaped character) are left out of the text the refinement
        reads and put back in the link.
        """
        hi = min(len(text), end + WINDOW)
        space = _SPACE.search(text, end, hi)
        if space is not None:
            hi = space.start()
        lo = start
        if is_email:
            last = _LAST_SPACE.match(text, max(0, start - _LOCAL_MAX), start)
            lo = last.end() if last is not None else max(0, start - _LOCAL_MAX)
        window = text[lo:hi]
        positions: list[int] | None = None
        if "\x00" in window:
            positions = [i for i, c in enumerate(window) if c != "\x00"]
            window = window.replace("\x00", "")
        span_start = start - lo
        span_end = end - lo
        if positions is not None:
            span_start = _clean_offset(positions, span_start)
            span_end = _clean_offset(positions, span_end)
        kind = "email" if is_email else "url"
        link = refined_span(window, span_start, span_end, kind, len(window), self.strict_hosts, self.reject_risky)
        if link is None:
            return None
        link_start, link_end = link[0], link[1]
        if positions is not None:
            link_start, link_end = positions[link_start], positions[link_end - 1] + 1
        return lo + link_start, lo + link_end

    def _reference(self, text: str, is_email: bool) -> nodes.reference:
        """The reference node docutils' ``standalone_uri`` makes for the link ``text``."""
        addscheme = MAILTO if is_email and text[: len(MAILTO)].lower() != MAILTO else ""
        href = addscheme + unescape(text)
        source = text  # the rawsource: the text as written (its length is the link's, for _cut)
        if not text.isascii() and not BIDI_CONTROLS.isdisjoint(text):
            # Bidi_Control characters shown percent-escaped (UTS #58 §8), in the text and the href
            text, href = escape_bidi(text), escape_bidi(href)
        return nodes.reference(unescape(source, True), text, refuri=href)

    # -- §5.2 emails docutils' pattern did not see -------------------------------------------

    def _flush(self, pending: list[str], out: list[nodes.Node], before: str = "") -> None:
        """The text of ``pending`` as nodes, with the emails in it linked; ``pending`` emptied
        (``before``: the text shown just before it, which docutils reads with it)."""
        if not pending:
            return
        text = "".join(pending)
        pending.clear()
        if "@" not in text:
            out.append(nodes.Text(text))
            return
        pos = 0
        for start, end in self._emails(text, before):
            if start > pos:
                out.append(nodes.Text(text[pos:start]))
            out.append(self._reference(text[start:end], True))
            pos = end
        if pos < len(text):
            out.append(nodes.Text(text[pos:]))

    def _emails(self, text: str, before: str = "") -> list[tuple[int, int]]:
        """The §5.2 emails in ``text`` that docutils accepts with the local part ``a``, and where
        it reads no URL over the "@" with that local part (``before``: the text shown before ``text``).

        Each ``@`` is looked at in the text between the ``@``s or white space around it:
        an email holds one ``@`` and no white space, so each costs a bounded time.
        """
        found: list[tuple[int, int]] = []
        # where docutils starts and ends inline markup (its standalone URIs and emails among them)
        starts, ends = _compiled(self.start_string_prefix), _compiled(self.end_string_suffix)
        at = text.find("@")
        while at != -1:
            lo = max(0, at - _LOCAL_MAX, text.rfind("@", max(0, at - _LOCAL_MAX), at) + 1)
            last = _LAST_SPACE.match(text, lo, at)
            if last is not None:
                lo = last.end()
            if found and lo < found[-1][1]:
                lo = found[-1][1]
            hi = min(len(text), at + WINDOW)
            next_at = text.find("@", at + 1, hi)
            if next_at != -1:
                hi = next_at
            space = _SPACE.search(text, at, hi)
            if space is not None:
                hi = space.start()
            window = text[lo:hi]
            links = refine_links(window, [], strict_hosts=self.strict_hosts, accepts_email=self._accepts_email)
            if self.reject_risky:
                links = risk_filter(window, links, strict_hosts=self.strict_hosts, reject_risky=self.reject_risky)
            for link in links:
                if link.kind == "email" and link.start <= at - lo < link.end:
                    # (the start read after the text shown before: "&@c.o" after the link "t@le.a"
                    # starts after a letter, where docutils starts no inline markup; fuzz seed 27)
                    lead = before[-_START_CONTEXT:] if lo + link.start < _START_CONTEXT else ""
                    if starts.match(lead + text, len(lead) + lo + link.start) and ends.match(text, lo + link.end):
                        # what docutils reads before the window, in the same word: the text before it here, or before ``text``
                        lead = _last_word(before[-_LOCAL_MAX:] if lo == 0 else text[max(0, lo - _LOCAL_MAX) : lo])
                        if self._url_over(lead + window, len(lead) + link.start, len(lead) + at - lo):
                            break
                        found.append((lo + link.start, lo + link.end))
                    break
            at = text.find("@", at + 1)
        return found

    def _url_over(self, window: str, start: int, at: int) -> bool:
        """Whether docutils reads a URL over the "@" at ``window[at]`` when the local part before it
        (from ``start``) is written in ASCII (``HTTP://σ@e.m`` as ``HTTP://a@e.m``: userinfo, no email)."""
        if ":" not in window[:at]:
            return False  # a URL docutils reads starts with its scheme and ":", before the "@"
        probe = window[:start] + ascii_local(window[start:at]) + window[at:]
        return any(m.start() <= at < m.end() and not m.group("email") for m in self.patterns.uri.finditer(probe))

    def _accepts_email(self, probe: str) -> bool:
        """Whether docutils' email pattern links ``probe`` (``a@domain``, the domain in ASCII)."""
        if probe[: len(MAILTO)].lower() == MAILTO:
            probe = probe[len(MAILTO) :]
        local, _, domain = probe.rpartition("@")
        if not domain.isascii() and self.fast:
            domain = _ascii_shape(domain)
        else:
            domain = ascii_host(domain)
        return self.patterns.email.match(f"{local}@{domain}") is not None


# docutils' init_customizations formats its patterns with ``vars(self.__class__)``, the class's
# own attributes only: the subclass carries the pattern pieces (``uric``, ``simplename``...).
for _name, _value in vars(states.Inliner).items():
    if isinstance(_value, str) and not _name.startswith("__") and _name not in vars(Inliner):
        setattr(Inliner, _name, _value)


#: How much of the text shown before a text docutils' start-string prefix reads (a lookbehind).
_START_CONTEXT = 8


def _ascii_shape(domain: str) -> str:
    """``ascii_host(domain)`` as docutils' email pattern reads it, without Punycode's arithmetic.

    A non-ASCII label's ``xn--`` form is ``xn--``, the label's ASCII characters, ``-`` and at
    least one of ``[a-z0-9]`` (RFC 3492 §6.3); docutils' pattern (``emailc`` runs between dots,
    then ``urilast``) sees each character's class only, and these classes are those of the
    stand-in ``xn--`` + ASCII characters + ``-a`` (tests/test_docutils.py compares the answers).
    """
    return ".".join(
        label if label.isascii() else "xn--" + "".join(c for c in label if c.isascii()) + "-a"
        for label in domain.split(".")
    )


class _Recorder:
    """``settings`` as docutils' ``init_customizations`` reads it, each name read recorded."""

    def __init__(self, settings: Any) -> None:
        self._settings = settings
        self.names: list[str] = []

    def __getattr__(self, name: str) -> Any:
        self.names.append(name)
        return getattr(self._settings, name)


#: What docutils' ``init_customizations`` reads of the settings, per inliner class.
_READ_SETTINGS: dict[type, tuple[str, ...]] = {}
#: Its result per inliner class and values of those settings: (attributes, dispatch by method name).
_CUSTOMIZATIONS: dict[tuple[Any, ...], tuple[dict[str, Any], list[tuple[re.Pattern[str], str]]]] = {}
_UNSET = object()


def _settings_key(cls: type, names: tuple[str, ...], settings: Any) -> tuple[Any, ...] | None:
    """The key of ``_CUSTOMIZATIONS`` for ``settings``, or None when a value is not hashable."""
    key = (cls, *(getattr(settings, name, _UNSET) for name in names))
    try:
        hash(key)
    except TypeError:
        return None
    return key


@functools.lru_cache(maxsize=16)
def _compiled(pattern: str) -> re.Pattern[str]:
    """``re.compile(pattern)``, kept here (docutils' start and end strings)."""
    return re.compile(pattern)


def _uri_free_before(text: str, end: int) -> bool:
    """Whether docutils' URI pattern finds nothing in ``text[:end]``, where ``end`` is at most the
    start of its first match in ``text`` (the fast path; docutils searches ``text[:end]`` again).

    A match in ``text[:end]`` that does not reach its end would be one in ``text`` too (the
    pattern reads no further than a match's end and the character after it), starting before
    docutils' first one: there is none.  One that reaches the end ends with ``text[end - 1]``:
    not when that character is white space or not ASCII (every character of a match is in one
    of the pattern's ASCII classes, ``uric``, ``emailc``, the scheme's, none with white space).
    """
    if end == 0:
        return True
    last = text[end - 1]
    return last.isspace() or not last.isascii()


def _clean_offset(positions: list[int], offset: int) -> int:
    """The offset in the text without ``\\x00`` of the raw ``offset`` (``positions``: each kept
    character's raw offset)."""
    import bisect

    return bisect.bisect_left(positions, offset)


class Parser(docutils.parsers.rst.Parser):  # type: ignore[misc]
    """docutils' reStructuredText parser with a UTS #58 :class:`Inliner` (a new one per document).

    ``strict_hosts``: §1.4's registrable-domain rule on hosts; ``reject_risky``: §8's checks
    (``"browser"``: the stricter profile).  Other arguments are docutils' own.
    """

    def __init__(
        self, rfc2822: bool = False, *, strict_hosts: bool = False, reject_risky: RejectRisky = False, **kwargs: Any
    ) -> None:
        super().__init__(rfc2822=rfc2822, **kwargs)
        self.strict_hosts = bool(strict_hosts)
        self.reject_risky = reject_risky_value(reject_risky)

    def parse(self, inputstring: str, document: nodes.document) -> None:
        # docutils' init_customizations appends to the inliner's dispatch list: one inliner per document
        self.inliner = Inliner(strict_hosts=self.strict_hosts, reject_risky=self.reject_risky)
        if not self.inliner.fast or not _SAME_PARSE:
            super().parse(inputstring, document)
            return
        # docutils' Parser.parse (the same code, _PARSE_NAMES), with a state machine kept from an
        # earlier document: building one (its states and their transitions) costs docutils about
        # 0.3 ms a document.  A machine is kept only after a run that ended normally (its run()
        # then leaves no observer, node or memo), and used by one document at a time.
        self.setup_parse(inputstring, document)
        self.document.settings.setdefault("tab_width", 8)
        self.document.settings.setdefault("syntax_highlight", "long")
        key = (tuple(self.state_classes), self.initial_state, document.reporter.debug_flag)
        try:
            machine = _MACHINES[key].pop()  # (atomic: another thread's document never gets the same one)
        except (KeyError, IndexError):
            machine = None
        if machine is None:
            machine = states.RSTStateMachine(
                state_classes=self.state_classes, initial_state=self.initial_state, debug=document.reporter.debug_flag
            )
        self.statemachine = machine
        inputlines = docutils.statemachine.string2lines(
            inputstring, tab_width=document.settings.tab_width, convert_whitespace=True
        )
        for i, line in enumerate(inputlines):
            if len(line) > self.document.settings.line_length_limit:
                error = self.document.reporter.error(f"Line {i + 1} exceeds the line-length-limit.")
                self.document.append(error)
                break
        else:
            machine.run(inputlines, document, inliner=self.inliner)
            if len(_MACHINES.setdefault(key, [])) < 4:
                _release(machine)
                _MACHINES[key].append(machine)
        # restore the "default" default role after parsing a document
        if "" in roles._roles:
            del roles._roles[""]
        self.finish_parse()


def _release(machine: Any) -> None:
    """What a kept state machine's states hold of the document just parsed, dropped (their
    ``runtime_init`` sets it again for the next one): a kept machine keeps no document alive.
    (docutils itself keeps the nested machines of ``RSTState.nested_sm_cache``, a class
    attribute, from one document to the next.)"""
    for state in machine.states.values():
        for name in ("memo", "document", "reporter", "inliner"):
            if name in vars(state):
                setattr(state, name, None)


#: What docutils' Parser.parse (0.20 to 0.22) reads: :meth:`Parser.parse` does the same only
#: where the installed docutils' method reads exactly these names (else it calls docutils').
_PARSE_NAMES = frozenset(
    [
        "RSTStateMachine",
        "_roles",
        "append",
        "debug_flag",
        "document",
        "docutils",
        "enumerate",
        "error",
        "finish_parse",
        "initial_state",
        "inliner",
        "len",
        "line_length_limit",
        "reporter",
        "roles",
        "run",
        "setdefault",
        "settings",
        "setup_parse",
        "state_classes",
        "statemachine",
        "states",
        "string2lines",
        "tab_width",
    ]
)
_SAME_PARSE = frozenset(docutils.parsers.rst.Parser.parse.__code__.co_names) == _PARSE_NAMES
#: State machines kept for the next document, by (state classes, initial state, debug).
_MACHINES: dict[tuple[Any, ...], list[Any]] = {}
