"""An upgraded ``urlize`` for linkifiers whose output is HTML (Django's and Jinja2's).

The library finds its spans (``backends._html_spans``), they are refined (§10.1), and
each refined link is rendered by the library itself, on the link's text alone, so its
href normalization and its options (``nofollow``, ``rel``, ``target``, trimming of long
display texts) still apply.  When the library would not link that text on its own (or
the link holds a Bidi_Control character, in markup also one written as a character
reference), the anchor the library renders for a plain ``http://example.com/`` (or
``a@example.com``) is reused with the link's own escaped href and text (an email's href
from ``refine.email.mailto_href``; in markup the link's references read once, issue 32).
Text between links is escaped as the library escapes it.

Fast path (issue 20): with the library's own configuration (``backends.django.django_anchor``,
``backends.jinja2.jinja2_anchor``) the spans come from the library reading only the words
that can hold one of its links, rendered with the caller's options, and a refined link that
is the library's own span takes the anchor the library wrote for it there: the string
``render_one`` would return (:func:`urlize_refined`).  The library's answers to probes are
kept across calls, per configuration.

Input that is already markup (marked safe, or Django's ``autoescape=False``) is linkified
only where an HTML5 parser sees text (:func:`in_text`, as ``linkify_html`` does): never
inside a tag, an attribute value, a comment or a raw text element (issue 21.2).
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ..backends._html5_text import decode_text, text_runs
from ..backends._html_spans import LibraryLink, anchor_hrefs, anchor_spans
from ..backends.base import RawLink
from ..html import BIDI_CONTROLS, _references
from ..link import Link
from ..refine.acceptance import HostProbe, ascii_host, ascii_local, overlaps_any
from ..refine.email import mailto_href
from ..refine.hosts import normalize_separators
from ..refine.migration import MAX_WORD
from ..refine.risk_profile import RejectRisky
from ._common import escape_bidi, refine, safe_scheme, with_entity_end

__all__ = ["clear_memo", "in_text", "urlize_refined"]

_PROBE_URL = "http://example.com/"
_PROBE_EMAIL = "@example.com"
#: An anchor as the libraries write one: attributes separated by one space, double-quoted values.
_ANCHOR = re.compile(r'\A<a((?: [A-Za-z][A-Za-z0-9-]*="[^"<>]*")+)>[^<>]*</a>\Z')
_ATTR_NAME = re.compile(r' ([A-Za-z][A-Za-z0-9-]*)="')
_PROBE_ANCHOR = re.compile(r"(<a\s[^<>]*>)([^<>]*)</a>")
_HREF = re.compile(r'\shref="[^"]*"')
_SCHEME_START = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://")
#: A scheme not followed by ``//`` (``tel:``), or a host and a port to a library (``x.com:80``).
_HOSTLESS = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:(?!//)")
#: Characters an escaping linkifier changes: a link without them is rendered alike, escaped or not.
_ESCAPED = re.compile("[&<>\"']")
_BIDI = re.compile("[" + "".join(sorted(BIDI_CONTROLS)) + "]")
#: Lone surrogates, replaced by U+FFFD before the library reads the text (``_html_spans.without_surrogates``).
#: Controls and noncharacters a link's text may hold once its references are read (``&#xf``): in an href,
#: percent-encoded (WHATWG URL's C0 control percent-encode set, and the noncharacters UTS #58 §4.1 escapes).
_UNWRITABLE = re.compile("[\x00-\x1f\x7f\ufdd0-\ufdef\ufffe\uffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_OR_BIDI = re.compile("[\ud800-\udfff" + "".join(sorted(BIDI_CONTROLS)) + "]")
#: Starts of a link whose scheme is safe (``_common.safe_scheme``).
_HTTP = ("http://", "https://")

#: The library's answers to probes, across calls: ``(key, question, probe) -> answer``, where
#: ``key`` names the library and its configuration (the caller's ``probe_key`` or ``render_key``).
_MEMO: dict[tuple[Hashable, str, str], Any] = {}
_MEMO_SIZE = 4096
#: Per ``render_key``: the attributes after the href of a library anchor -> whether their names are
#: among those of its anchor for a plain URL (see ``urlize_refined``), kept across calls.
_TAILS: dict[Hashable, dict[str, bool]] = {}


#: Per ``probe_key``: ``links_url``, ``links_email`` and the probes made with them (:func:`_probes`).
_PROBES: dict[Hashable, tuple[Any, Any, Callable[[str], bool], HostProbe]] = {}


def clear_memo() -> None:
    """Forget the libraries' answers kept across calls (a benchmark round that must not reuse them)."""
    _MEMO.clear()
    _TAILS.clear()
    _PROBES.clear()


def _probes(
    render_escaped: Callable[[str], str],
    key: Hashable | None,
    links_url: Callable[[str, str], bool] | None,
    links_email: Callable[[str], bool | None] | None,
) -> tuple[Any, Any, Callable[[str], bool], HostProbe]:
    """The email and scheme probes of :func:`urlize_refined`, made once per ``key`` (which names the
    library's configuration for ``render_escaped``) and the same ``links_url`` and ``links_email``."""
    if key is not None:
        try:
            kept = _PROBES.get(key)
        except TypeError:  # a configuration that cannot be a key
            kept = key = None
        if kept is not None and kept[0] is links_url and kept[1] is links_email:
            return kept
    made = (
        links_url,
        links_email,
        _library_accepts_email(render_escaped, key, links_email),
        _library_accepts_scheme(render_escaped, key, links_url),
    )
    if key is not None:
        if len(_PROBES) >= 64:
            _PROBES.clear()
        _PROBES[key] = made
    return made


def _remember(key: Hashable | None, question: str, probe: str, compute: Callable[[], Any]) -> Any:
    """``compute()``, kept across calls under ``(key, question, probe)`` unless ``key`` is None."""
    if key is None:
        return compute()
    entry = (key, question, probe)
    try:
        return _MEMO[entry]
    except KeyError:
        pass
    except TypeError:  # a configuration that cannot be a key (an option that is a list, say)
        return compute()
    value = compute()
    if len(_MEMO) >= _MEMO_SIZE:
        _MEMO.clear()
    _MEMO[entry] = value
    return value


_SCHEME_PREFIX = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:(?://)?\Z")


def _links_from_host(word: str, spans: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    """Whether one of the library's ``spans`` in ``word`` (a word in its ``.`` form) links the host
    ``word[start:end]`` from where it starts (or from a scheme right before it): the library decides
    where a link starts, and a span that starts earlier reads the host as part of another link
    (Django links ``p/.com/;ם.me`` whole, from the host ``p``: ``ם。me`` inside it is no link of its
    own; fuzz seed 16, issue 32)."""
    return any(
        s < end and start < e and (s == start or (s < start and _SCHEME_PREFIX.match(word, s, start) is not None))
        for s, e in spans
    )


def in_text(
    text: str,
    markup: bool,
    convert: Callable[[str], str],
    words_across_tags: bool = False,
    links_word: Callable[[str], bool] | None = None,
) -> str:
    """``convert(text)``, or for ``markup``, ``text`` with ``convert`` applied to each run an HTML5 parser reads as text.

    Tags, attribute values, comments and the content of ``a`` and of raw text elements
    are copied as they are (``backends._html5_text.text_runs``).

    ``words_across_tags``: the library reads words split at white space only, tags
    included (Jinja2), so it links no word that holds a tag.  The first word of a run
    that a browser shows joined to the text before it (``x<b>http://a.com``: one word,
    ``xhttp://a.com``), and the last one joined to the text after it, are copied as they
    are: no link starts or ends inside a visible word the library did not link (issue 32).

    ``links_word(word)`` (with ``words_across_tags``): whether the library links anything in
    ``word``, a white-space-delimited word of the markup, tags included, given to it alone.
    The first word of a run joined in the markup to what is before it (no white space
    between: ``a<p>me.com``, ``<e>ftp:&#7``) is also copied as it is: the library links a
    word from its start, so a link of that word starts before the run, if it makes one
    (Jinja2 links nothing in ``a<p>me.com``, though ``<p>`` ends the word a browser shows,
    and links ``2e.com/</p>le.org`` whole; issue 32).  The last word of a run joined to what
    follows is copied as it is unless the library links something in that whole word: the
    library decides where links start, reading its own words.  Each such word is asked
    about once per call.

    The parts of the runs given to ``convert`` go to it in one call, joined by a white-space
    character none of them holds (:func:`_convert_all`; issue 36).
    """
    if not markup:
        return convert(text)
    runs = text_runs(text, ("a",))
    gap = _shown_between(text[: runs[0][0]]) if words_across_tags and runs else None
    linked = _WordAnswers(text, links_word) if words_across_tags and links_word is not None and runs else None
    # Each run's part given to ``convert``: (run start, head, tail), run[head:tail]; the rest copied as it is.
    parts: list[tuple[int, int, int]] = []
    for i, (start, end) in enumerate(runs):
        head, tail = 0, end - start
        if words_across_tags:
            run = text[start:end]
            next_gap = _shown_between(text[end : runs[i + 1][0] if i + 1 < len(runs) else len(text)])
            # The visible text joined to the run's first and last words (None: a tag there ends a word).
            before = None if gap is None else (text[runs[i - 1][1] - 1] if i else "") + gap
            after = None if next_gap is None else next_gap + (text[runs[i + 1][0]] if i + 1 < len(runs) else "")
            head = _first_word_end(run) if before and not before[-1].isspace() else 0
            tail = _last_word_start(run) if after and not after[0].isspace() else len(run)
            if linked is not None:
                # The library's own words: joined in the markup, tags included.
                joined_before = start > 0 and not (text[start - 1].isspace() or text[start].isspace())
                if head == 0 and joined_before:
                    # (the library links a word from its start: a link it makes in this word starts
                    # before the run, at the tag's side; "2e.com/</p>le.org" is one link, fuzz seed 22)
                    head = _first_word_end(run)
                joined_after = end < len(text) and not (text[end].isspace() or text[end - 1].isspace())
                if tail == len(run) and joined_after and not linked.at(end - 1):
                    tail = _last_word_start(run)
            gap = next_gap
        if head < tail:
            parts.append((start, start + head, start + tail))
    converted = _convert_all(text, [text[lo:hi] for _, lo, hi in parts], convert)
    out: list[str] = []
    pos = 0
    for (_, lo, hi), piece in zip(parts, converted, strict=True):
        out.append(text[pos:lo])
        out.append(piece)
        pos = hi
    out.append(text[pos:])
    return "".join(out)


#: Characters that join the parts of one text for one call of ``convert`` (:func:`_convert_all`): white
#: space to Unicode (White_Space), to ``re``'s ``\s`` and to ``str.isspace`` (which split the libraries'
#: words), and Link_Term=Hard (UTS #58 §3.5.1: no link crosses one).
_JOINERS = ("\u2029", "\u2028", "\x85")


def _convert_all(text: str, pieces: list[str], convert: Callable[[str], str]) -> list[str]:
    """``[convert(piece) for piece in pieces]``, from one call where ``text`` (which holds the pieces)
    lacks one of :data:`_JOINERS`: ``convert`` of the pieces joined by it, cut there.

    The libraries (Django's and Jinja2's ``urlize``) split their input into words at white space
    and link each word on its own, copying the white space; the refinement ends every link
    before a Hard character and reads each email's word between white space: the pieces joined
    by a white-space character found in none of them give each piece's output, the joiner
    between (tests/test_integration_django.py, tests/test_integration_jinja2.py compare them).
    One call instead of one per text run (issue 36: the calls, not the text, cost in markup of
    short runs).
    """
    if len(pieces) > 1:
        for joiner in _JOINERS:
            if joiner not in text:
                converted = convert(joiner.join(pieces)).split(joiner)
                if len(converted) == len(pieces):
                    return converted
                break
    return [convert(piece) for piece in pieces]


_WHITE = re.compile(r"\s+")


class _WordAnswers:
    """Whether the library links anything in the white-space-delimited word of ``text`` around a
    position (``links_word``), asked once per word and per distinct word (``<p>Visit`` recurs): the
    word's bounds found by bisecting the white space runs, found once (linear time on a text of
    many tags and few spaces)."""

    def __init__(self, text: str, links_word: Callable[[str], bool]) -> None:
        self._text = text
        self._links_word = links_word
        self._spaces: list[int] | None = None  # the starts and ends of the white space runs, in order
        self._answers: dict[int, bool] = {}  # word start -> answer
        self._by_word: dict[str, bool] = {}  # word -> answer

    def at(self, position: int) -> bool:
        """The answer for the word holding ``text[position]`` (not white space)."""
        if self._spaces is None:
            self._spaces = [bound for m in _WHITE.finditer(self._text) for bound in m.span()]
        spaces = self._spaces
        i = bisect.bisect_right(spaces, position)  # even: position is in a word, after the i // 2 runs
        lo = spaces[i - 1] if i else 0
        answer = self._answers.get(lo)
        if answer is None:
            hi = spaces[i] if i < len(spaces) else len(self._text)
            word = self._text[lo:hi]
            answer = self._by_word.get(word)
            if answer is None:
                answer = self._by_word[word] = self._links_word(word)
            self._answers[lo] = answer
        return answer


#: Elements whose start tag, in a body, opens a box or a line break of its own (HTML Standard §15.3):
#: it ends a word.  Not the table parts, ignored outside a table, nor an end tag but ``</p>`` and
#: ``</br>`` (one of an element not open is ignored): a word they may not end is taken as one.
_WORD_ENDING = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "br",
        "center",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "legend",
        "li",
        "listing",
        "main",
        "menu",
        "nav",
        "ol",
        "p",
        "plaintext",
        "pre",
        "search",
        "section",
        "summary",
        "table",
        "ul",
        "xmp",
    ]
)
_WORD_ENDING_END_TAGS = frozenset(("p", "br"))
#: A tag or a comment (what a browser does not show), and a tag's name.
_NOT_SHOWN = re.compile(r"<!--.*?(?:-->|\Z)|<[A-Za-z/!?][^>]*(?:>|\Z)", re.S)
_TAG_NAME = re.compile(r"<(/?)([A-Za-z][^\s/>]*)")


def _shown_between(markup: str) -> str | None:
    """The text a browser shows in ``markup`` (between two runs), or None when a tag there ends a word."""
    if "<" not in markup:
        return markup
    shown = []
    pos = 0
    for m in _NOT_SHOWN.finditer(markup):
        shown.append(markup[pos : m.start()])
        pos = m.end()
        tag = _TAG_NAME.match(m.group())
        if tag is not None and tag.group(2).lower() in (_WORD_ENDING_END_TAGS if tag.group(1) else _WORD_ENDING):
            return None
    shown.append(markup[pos:])
    return "".join(shown)


def _first_word_end(run: str) -> int:
    """Where the first white space of ``run`` is (Jinja2 splits words at ``\\s``), or its length."""
    for i, ch in enumerate(run):
        if ch.isspace():
            return i
    return len(run)


def _last_word_start(run: str) -> int:
    """Where the last word of ``run`` starts: after its last white space, or 0."""
    i = len(run)
    while i > 0 and not run[i - 1].isspace():
        i -= 1
    return i


def _percent_escape(m: re.Match[str]) -> str:
    return "".join(f"%{byte:02X}" for byte in m.group().encode("utf-8"))


def _decoded(text: str) -> str:
    """``text``, a piece of HTML text, as a browser shows it: its character references read."""
    # Not ``html.unescape``, which makes "&#xf" nothing: a reference to a control is that control (§13.2.5.80).
    return decode_text(text) if "&" in text else text


def _library_links_with(text: str, render_escaped: Callable[[str], str], prefix: str) -> bool:
    """Whether the library links ``text`` (``scheme:…``, no ``//``) from its start, one link, its href
    starting with ``prefix`` (any case).

    Jinja2 links ``tel:+1`` with ``extra_schemes=["tel:"]`` and the href ``tel:+1``; Django
    links ``tel:x.com`` as a bare ``.com`` domain, with the href ``http://tel:x.com``.
    """
    found = anchor_hrefs(text, render_escaped(text))
    return len(found) == 1 and found[0][0].start == 0 and found[0][1][: len(prefix)].lower() == prefix.lower()


def _library_accepts_email(
    render_escaped: Callable[[str], str], key: Hashable | None, known: Callable[[str], bool | None] | None = None
) -> Callable[[str], bool]:
    """Whether the library links the probe ``a@domain`` (or ``mailto:a@domain``) whole, as an email.

    ``known(probe)``: the answer the library's configuration decides, or None (then the
    library is asked); either answer is kept under ``(key, probe)``.
    """

    def accepts(probe: str) -> bool:
        # Kept either way: the configuration's answer calls the library's email validator (~5 us).
        return bool(_remember(key, "email", probe, lambda: ask(probe)))

    def ask(probe: str) -> bool:
        if known is not None:
            answer = known(probe)
            if answer is not None:
                return answer
        return anchor_spans(probe, render_escaped(probe)) == [RawLink(0, len(probe), "email")]

    return accepts


def _library_accepts_scheme(
    render_escaped: Callable[[str], str], key: Hashable | None, known: Callable[[str, str], bool] | None = None
) -> HostProbe:
    """Whether the library links ``scheme//host/`` from its scheme on, with that scheme in its href.

    Django links ``ms-msdt://example.com/`` as a bare ``.com`` domain, with the href
    ``http://ms-msdt://example.com/``: that is not linking the scheme (``refine.acceptance``).
    ``known(scheme, host)``: True when the library's configuration decides that it links
    it (then it is not asked).  Answers are kept under ``(key, scheme, host)``; the probe
    (the host with ``xn--`` labels) is written only when the library is asked.
    """

    def accepts(scheme: str, host: str) -> bool:
        if known is not None and known(scheme, host):
            return True
        return bool(_remember(key, scheme, host, lambda: ask(scheme, host)))

    def ask(scheme: str, host: str) -> bool:
        probe = f"{scheme}//{ascii_host(host)}/"
        found = anchor_hrefs(probe, render_escaped(probe))
        if len(found) != 1:
            return False
        span, href = found[0]
        return (
            span.start == 0 and span.kind == "url" and span.end > len(scheme) and href[: len(scheme)].lower() == scheme
        )

    return HostProbe(accepts)


def _probe_anchor(rendered: str) -> tuple[str, str | None, str] | None:
    """The first anchor in ``rendered`` (the library's HTML for a probe): its start tag before and after its
    href attribute (None: it has none), and its text unescaped; None when there is no anchor."""
    m = _PROBE_ANCHOR.search(rendered)
    if m is None:
        return None
    tag = m.group(1)
    href = _HREF.search(tag)
    if href is None:
        return tag, None, html.unescape(m.group(2))
    return tag[: href.start()], tag[href.end() :], html.unescape(m.group(2))


def _render_link(
    link: Link,
    render_one: Callable[[str], str],
    default_scheme: str,
    names: Callable[[], frozenset[str]],
    rendered: str | None = None,
    render_key: Hashable | None = None,
    untrimmed: bool = False,
    markup: bool = False,
    render_escaped: Callable[[str], str] | None = None,
) -> str | None:
    """The library's anchor for ``link``, or None when no safe anchor can be made.

    The library's own rendering of the link's text is used only when it is one anchor
    with no attribute but those of its anchor for a plain URL (``names()``): on markup
    marked safe, Jinja2 puts a ``"`` of the text into the href unescaped, which would end
    the attribute (issue 21).  Otherwise the anchor is built from the library's anchor for
    a probe, with the link's own escaped href and text.  ``rendered``: ``render_one(link.text)``
    when the caller has it; ``render_key``: the library's rendering of the probe is kept
    across calls under it (see :func:`urlize_refined`).  ``untrimmed``: the library shows
    every link whole and renders a probe's anchor alike whatever its length (its own
    ``urlize`` without ``trim_url_limit``): one probe of each kind serves every link.
    ``markup``: the text is HTML (input marked safe): the anchor built from a probe takes the
    link's text with its character references read (:func:`_decoded`), escaped once, and a
    Bidi_Control character written as a reference (``&#x202e;``) is percent-escaped as a literal one.
    ``render_escaped`` (see :func:`urlize_refined`): asked whether a link ``scheme:…`` without ``//``
    is linked with that scheme in its href (:func:`_library_links_with`); otherwise, and without it,
    such a link is a bare domain to the library (Django's ``http://tel:x.com``).
    """
    if not safe_scheme(link.text):
        return None
    text = _decoded(link.text) if markup else link.text
    if text.isascii() or _BIDI.search(text) is None:
        own = render_one(link.text) if rendered is None else rendered
        m = _ANCHOR.match(own)
        if m and set(_ATTR_NAME.findall(m.group(1))) <= names():
            return own
    email = link.kind == "email"
    # The scheme as the refinement and the library read it: in the link as written, not with its
    # references read (``ms-msdt:&#x2f/.org/`` is a bare ``.org`` domain to Django, href
    # ``http://ms-msdt://.org/``; read, it would start with a scheme the library never linked).
    if email:
        local, _, domain = text.rpartition("@")
        href = mailto_href(local, domain)
    elif _SCHEME_START.match(link.text) or link.text[:7].lower() == "mailto:":
        href = text  # a scheme the library links (refine.acceptance)
    elif render_escaped is not None and _HOSTLESS.match(link.text):
        scheme = link.text[: link.text.index(":") + 1]
        if link.href == link.text and _library_links_with(text, render_escaped, scheme):
            # (the library's span kept whole, no host found: ``_common.refine``)
            href = text  # the library's link with a scheme and no host (Jinja2's ``extra_schemes``: ``tel:+1``)
        elif _library_links_with(text, render_escaped, default_scheme + scheme):
            href = default_scheme + text  # a bare domain to the library (Django's ``http://tel:x.com``)
        else:
            # Linked with neither: the href would point elsewhere than the text shows (Jinja2's
            # ``tel:>&#10`` in markup, read ``tel:>`` and a line feed; fuzz seed 27).
            return None
    else:
        href = default_scheme + text
    if not safe_scheme(href):
        return None
    # A probe the library links, as long as the link, shows how it renders (and trims) it.
    shown = escape_bidi(text)
    length = 0 if untrimmed else len(shown)
    if email:
        probe = "a" * max(1, length - len(_PROBE_EMAIL)) + _PROBE_EMAIL
    else:
        probe = _PROBE_URL + "x" * max(0, length - len(_PROBE_URL))
    parts = _remember(render_key, "anchor", probe, lambda: _probe_anchor(render_one(probe)))
    if parts is None:
        return None
    before_href, after_href, probe_shown = parts
    if after_href is None:  # no href to replace
        start = before_href
    else:
        href = escape_bidi(href)
        if markup and _UNWRITABLE.search(href) is not None:
            href = _UNWRITABLE.sub(_percent_escape, href)  # "&#xf" read once: U+000F, percent-encoded
        start = f'{before_href} href="{html.escape(href, quote=True)}"{after_href}'
    if probe_shown != probe:  # the library shortened it: shorten the link's text the same way
        common = 0
        while common < min(len(probe), len(probe_shown)) and probe[common] == probe_shown[common]:
            common += 1
        shown = shown[:common] + probe_shown[common:]
    escaped = html.escape(shown, quote=True)
    # In markup, a character read from a reference that would not read back as itself is written as one.
    return f"{start}{_references(escaped) if markup else escaped}</a>"


def _starts_inside_its_span(text: str, link: Link) -> bool:
    """Whether the URL ``link`` starts after the start of the library's span it was refined from.

    The library decides where a link starts: a span whose host is invalid from its start
    (Django 6 links ``｡e.org``, its first label empty) is rejected, not cut to a link that
    starts inside it (``e.org``, issue 32).  Bidi_Control characters skipped are not text.
    """
    original = link.original
    return (
        link.kind == "url"
        and original is not None
        and original[0] < link.start < original[1]
        and not set(text[original[0] : link.start]) <= BIDI_CONTROLS
    )


#: Emails the library did not report asked about in one word at most (more in one word: not linked).
_ASKED_PER_WORD = 8
_SPACE = re.compile(r"\s")


def _emails_in_their_words(
    text: str, links: list[Link], word_spans: Callable[[str], list[tuple[int, int]]]
) -> list[Link]:
    """``links`` without the emails the library would not link in their word (issue 32, "new N1").

    An email that is not one of the library's spans is linked only when the library, given
    the white-space-delimited word around it (its domains in their ``.`` form) with each
    non-ASCII character of the local part written ``a``, links a span overlapping that
    address: ``@c@b.jec`` is a word Django rejects whole, so ``c@b.jec`` in it is not
    linked, nor ``www.ς@e.c`` in Jinja2 (it links no ``www.a@e.c``), while
    ``jürgen.müller@example.de`` is (Django links ``jargen.maller@example.de``): the non-ASCII
    local parts UTS #58 links and the libraries miss are linked where the library would
    link an ASCII one.  As hosts are asked (``refine.migration``): a word longer than
    ``MAX_WORD`` links no such email, and at most ``_ASKED_PER_WORD`` of them are asked about
    in one word (bounded time on a word of many ``@``).
    """
    asked: dict[int, int] = {}  # word start -> emails asked about in it
    out = []
    lo = hi = -1  # the last word found (emails come in order: the next one is often in it)
    for link in links:
        if link.kind != "email" or link.original == (link.start, link.end):
            out.append(link)
            continue
        if not lo <= link.start < hi:
            lo = link.start
            while lo > 0 and not text[lo - 1].isspace() and link.start - lo <= MAX_WORD:
                lo -= 1  # (str.isspace is re's \s)
            after = _SPACE.search(text, link.start)
            hi = len(text) if after is None else after.start()
        if hi - lo > MAX_WORD or link.end > hi:
            continue
        count = asked.get(lo, 0)
        if count >= _ASKED_PER_WORD:
            continue
        asked[lo] = count + 1
        local, _, domain = link.text.rpartition("@")
        probe = f"{ascii_local(local)}@{domain}"
        word = _SURROGATE.sub("\ufffd", normalize_separators(text[lo : link.start] + probe + text[link.end : hi]))
        at = link.start - lo
        if overlaps_any(word_spans(word), at, at + len(probe)):
            out.append(link)
    return out


def urlize_refined(
    text: str,
    raw: Sequence[RawLink],
    *,
    render_one: Callable[[str], str],
    render_escaped: Callable[[str], str],
    escape_text: Callable[[str], str] | None,
    default_scheme: str,
    strict_hosts: bool = False,
    html_entities: bool = False,
    reject_risky: RejectRisky = False,
    rendered: Sequence[LibraryLink] | None = None,
    escapes: bool = True,
    separators: re.Pattern[str] | None = None,
    trim_url_limit: int | None = None,
    probe_key: Hashable | None = None,
    render_key: Hashable | None = None,
    links_url: Callable[[str, str], bool] | None = None,
    links_email: Callable[[str], bool | None] | None = None,
    links_word: Callable[[str], bool | None] | None = None,
    markup: bool = False,
    render_word: Callable[[str, LibraryLink | None], str | None] | None = None,
    spans_of: Callable[[str], list[tuple[int, int]] | None] | None = None,
) -> str:
    """``text`` as the library's HTML, with the library's spans ``raw`` refined to UTS #58.

    ``render_one(word)`` is the library's output for one word with the caller's options;
    ``render_escaped(word)`` its output with escaping on and no other option (to ask
    whether it links an email on a domain); ``escape_text`` escapes text between links
    as the library does (None: the library copies it as it is); ``default_scheme`` is what the library puts before a schemeless
    link (``"http://"`` for Django, ``"https://"`` for Jinja2).  The library decides
    scheme and host (``_common.refine``); ``strict_hosts`` adds §1.4's registrable-domain rule,
    ``reject_risky`` the §8 checks of ``detect()`` (a link with a risk stays text).
    ``html_entities``: the text holds character references (``&amp;``), kept whole in a link.

    The fast path (issue 20): ``rendered`` is what the library made of the spans ``raw``,
    each anchor rendered with the caller's options except ``trim_url_limit``, by a library
    that links each word on its own as it links it alone (Django's and Jinja2's own
    ``urlize``).  A link that is such a span, not shortened (at most ``trim_url_limit``
    long), and rendered with the caller's escaping (``escapes``: ``render_one`` escapes
    the text) or holding nothing escaping changes (``&<>"'``), takes that anchor instead
    of a ``render_one`` call: the same string.  ``separators`` (with ``rendered``): a
    character that separates the library's words; a link that is a whole word holding
    nothing escaping changes, that the library did not link, is not linked by
    ``render_one`` either (as one anchor), nor is a link holding a separator and no ``<>``
    (several words, with text outside the anchors): ``render_one`` is then not called.  ``probe_key`` and
    ``render_key`` name the library's configuration for ``render_escaped`` and for
    ``render_one``: its answers to probes are then kept across calls (None: not kept).
    ``links_url(scheme, host)`` and ``links_email(probe)``: the answers to probes that
    the library's configuration decides (``backends.django.django_configuration``), used
    instead of asking ``render_escaped`` (True, or for emails a bool; otherwise it is asked).
    ``links_word(word)``: False when the library links nothing in ``word`` alone (then
    ``render_one`` is not called for it), else None.  ``markup``: ``text`` is HTML, not
    plain text (input marked safe, Django's ``autoescape=False``): a link's character
    references are text, as a browser reads them (``_render_link``).
    ``render_word(word, span)`` (with ``rendered``): ``render_one(word)`` computed without
    calling the library (the anchor for a link that ends before a CJK closer the library kept,
    issue 36), or None (then ``render_one`` is called); ``span``: the library's span the link
    starts, or None.  ``spans_of(word)``: the library's spans in ``word`` (what ``render_escaped``
    shows), computed without calling it, or None (then it is asked).
    """
    out: list[str] = []
    pos = 0
    known: list[frozenset[str]] = []

    def names() -> frozenset[str]:
        """The attribute names of the library's anchor for a plain URL (computed once)."""
        if not known:
            known.append(_remember(render_key, "names", _PROBE_URL, _probe_names))
        return known[0]

    def _probe_names() -> frozenset[str]:
        m = _PROBE_ANCHOR.search(render_one(_PROBE_URL))
        return frozenset(_ATTR_NAME.findall(m.group(1))) | {"href"} if m else frozenset({"href"})

    reusable: dict[tuple[int, int], LibraryLink] = {}
    by_start: dict[int, LibraryLink] = {}
    if rendered is not None:
        for one in rendered:
            reusable[one.link.start, one.link.end] = one
        if render_word is not None:
            by_start = {one.link.start: one for one in rendered}

    probes = _probes(render_escaped, probe_key, links_url, links_email)
    words: dict[str, list[tuple[int, int]]] = {}  # (several hosts in one word: the library reads it once)

    def word_spans(word: str) -> list[tuple[int, int]]:
        """The library's spans in ``word`` (a domain written with ``。`` in it, in its ``.`` form)."""
        found = words.get(word)
        if found is None and spans_of is not None:
            found = spans_of(word)
            if found is not None:
                words[word] = found
        if found is None:
            found = words[word] = _remember(
                probe_key,
                "word",
                word,
                lambda: [(r.start, r.end) for r in anchor_spans(word, render_escaped(word))],
            )
        return found

    links = refine(
        text,
        raw,
        probes[2],
        strict_hosts=strict_hosts,
        scheme_probe=probes[3],
        reject_risky=reject_risky,
        accepts_host=lambda word, start, end: _links_from_host(word, word_spans(word), start, end),
    )
    if any(link.kind == "email" and link.original != (link.start, link.end) for link in links):
        links = _emails_in_their_words(text, links, word_spans)
    if not reject_risky and any(_starts_inside_its_span(text, link) for link in links):
        links = [link for link in links if not _starts_inside_its_span(text, link)]
    #: The attributes after the href of a library anchor (``_html_spans.LibraryLink.markup``) -> whether
    #: their names are among ``names()`` (what ``_render_link`` checks of the whole anchor).
    tails: dict[str, bool] = {}
    if render_key is not None:
        try:
            tails = _TAILS[render_key]
        except KeyError:
            if len(_TAILS) >= 64:
                _TAILS.clear()
            _TAILS[render_key] = tails
        except TypeError:  # a configuration that cannot be a key
            pass

    def kept_as_rendered(own: str, link_text: str, odd: bool, bidi_reference: bool) -> bool:
        """Whether the anchor ``own`` (``<a href="…"TAIL>…</a>``) is written as it is: what ``_render_link``
        keeps (no Bidi_Control to escape, a safe scheme, attribute names among ``names()``), the
        names read once per set of attributes after the href."""
        if (odd and _BIDI.search(link_text) is not None) or bidi_reference:
            return False
        if not (link_text.startswith(_HTTP) or safe_scheme(link_text)):
            return False
        href_end = own.index('"', 9)
        tail = own[href_end + 1 : own.index(">", href_end)]
        fits = tails.get(tail)
        if fits is None:
            fits = tails[tail] = set(_ATTR_NAME.findall(tail)) | {"href"} <= names()
        return fits

    # The library's own urlize (its anchors reusable) shows links whole: one probe anchor for every length.
    untrimmed = rendered is not None and render_key is not None and trim_url_limit is None
    # Searched only in a link that is not ASCII (str.isascii() reads a flag).
    length = len(text)
    for link in links:
        if html_entities and text.startswith(";", link.end):
            link = with_entity_end(text, link)
        start, end, link_text = link.start, link.end, link.text
        own = None
        rendered_here = False  # own is render_word's
        # A lone surrogate or a Bidi_Control in the link (searched again to tell which).
        odd = not link_text.isascii() and _SURROGATE_OR_BIDI.search(link_text) is not None
        # In markup, a Bidi_Control written as a character reference (``&#x202e;``, ``&rlm;``).
        bidi_reference = (
            markup
            and "&" in link_text
            and ("&#" in link_text or "m;" in link_text)  # numeric, or &lrm; &rlm;
            and _BIDI.search(_decoded(link_text)) is not None
        )
        if rendered is not None and not (odd and _SURROGATE.search(link_text)):
            found = reusable.get((start, end))
            if found is None:
                if separators is not None and (
                    (
                        (start == 0 or separators.match(text, start - 1))
                        and (end == length or separators.match(text, end))
                        and _ESCAPED.search(link_text) is None
                    )
                    or (separators.search(link_text) is not None and "<" not in link_text and ">" not in link_text)
                ):
                    # A word the library did not link: not an anchor alone either.  Several words (without
                    # "<>", which only its anchors then write): the library writes text outside its anchors.
                    own = ""
                elif render_word is not None:
                    # The library's anchor for the link alone, not asked (with the span the link starts, if any).
                    span = by_start.get(start)
                    own = render_word(link_text, span if span is not None and end <= span.link.end else None)
                    rendered_here = True
            elif (
                found.markup is not None
                and (found.escaped == escapes or _ESCAPED.search(link_text) is None)
                and (
                    trim_url_limit is None
                    or (
                        len(link_text) <= trim_url_limit
                        # Jinja2 cuts the escaped text ("&amp;" is 5 characters): no longer either.
                        and (_ESCAPED.search(link_text) is None or len(html.escape(link_text)) <= trim_url_limit)
                    )
                )
            ):
                own = found.markup
                # The library's anchor ``<a href="…"TAIL>…</a>`` (no ``"<>`` in a value, no ``<>`` in its text).
                if kept_as_rendered(own, link_text, odd, bidi_reference):
                    piece = text[pos:start]
                    out.append(piece if escape_text is None else escape_text(piece))
                    out.append(own)
                    pos = end
                    continue
            elif render_word is not None:
                own = render_word(link_text, found)  # the span, with other options: rendered here
                rendered_here = True
        if own is None and links_word is not None and links_word(link_text) is False:
            own = ""  # not an anchor alone: _render_link builds one from a probe's
        elif (
            own
            and rendered_here
            and own.startswith('<a href="')
            and _ANCHOR.match(own) is not None
            and kept_as_rendered(own, link_text, odd, bidi_reference)
        ):
            # render_word's anchor (render_one's string), kept as the library's anchors are.
            piece = text[pos:start]
            out.append(piece if escape_text is None else escape_text(piece))
            out.append(own)
            pos = end
            continue
        anchor = _render_link(
            link, render_one, default_scheme, names, own, render_key, untrimmed, markup, render_escaped
        )
        if anchor is None:
            continue
        piece = text[pos:start]
        out.append(piece if escape_text is None else escape_text(piece))
        out.append(anchor)
        pos = end
    out.append(text[pos:] if escape_text is None else escape_text(text[pos:]))
    return "".join(out)
