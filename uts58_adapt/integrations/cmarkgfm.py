"""cmark-gfm (``cmarkgfm``) with UTS #58 autolinks: drop-ins for its two rendering functions.

Use ``github_flavored_markdown_to_html(text, options=0)`` and
``markdown_to_html_with_extensions(text, options=0, extensions=None)`` from this module in
place of cmarkgfm's own (same signatures and defaults; two keyword-only options of ours,
``strict_hosts`` and ``reject_risky``, default False).

cmark-gfm is C and its binding exposes no node API, so its link spans cannot be reached.
The HTML it returns is refined (docs/decisions.md, "cmark-gfm: refine the HTML"):

1. cmark-gfm renders the text as it always does.  Each anchor that its autolink extension
   can have made is a candidate: ``<a href="H">T</a>`` whose href ``H`` is ``T`` (its text,
   decoded) escaped as cmark-gfm escapes an href, after an added ``http://`` (a ``www.``
   link) or ``mailto:`` (an email), or none.
2. Each candidate is refined (``integrations._common.refined_span``, §3.5.1 for URLs, §5.2
   for emails) in its text followed by the text after the anchor up to the next tag or
   white space: cmark-gfm decided the start and the scheme; the refinement decides where
   the link ends and whether the host is valid.  An email's end is cmark-gfm's, its local
   part §5.2's: scanned back from the "@" through the text before the anchor, up to the
   last tag or white space (cmark-gfm stops at the first character outside
   ``[A-Za-z0-9.+_-]`` and links ``ller@example.de`` in ``jürgen.müller@example.de``).
   A Bidi_Control character in a link's text is shown percent-escaped (§8).
3. When no candidate changes, cmark-gfm's output is returned as it is (byte for byte).
   Otherwise the text is rendered again without the autolink extension, and the two
   outputs are aligned: an anchor found at the same place in both is an explicit link
   (``<https://…>``, ``[…](…)``, raw HTML) and is never changed.  Only the anchors the
   extension made are rewritten: the link's new end (the characters it drops go back to
   the text after it, those it takes come out of it), or no anchor for an invalid host;
   text is escaped as cmark-gfm escapes text, the href as it escapes an href.

4. An email cmark-gfm does not link because it is not ASCII (``José@example.com``: no ASCII
   letter right before the "@"; ``bug@例え.jp``: a non-ASCII domain) is found by §5.2 in
   its word (between white space and tags) of the text outside code, ``<pre>`` and
   anchors, and linked where
   cmark-gfm links the probe (§10.1, as ``wrap()`` asks linkify-it): the address in its
   run of Link_Term=Include characters (``refine.acceptance.email_word_probe``: the local
   part's non-ASCII characters written ``a``, ``。`` as ``.``), its domain in the ``xn--``
   form, rendered alone by cmark-gfm's autolink extension, which must link an email over
   the address.  With ``CMARK_OPT_UNSAFE`` the text is also rendered without it (raw HTML
   omitted): the "@"s are taken in order there, so none in raw HTML is linked; when raw
   HTML holds an "@" itself, no email is added in that document.

Code spans, code blocks and raw HTML are never linked (cmark-gfm's extension made no
anchor there, and step 4 looks only where cmark-gfm's text is).
``strict_hosts=True`` adds §1.4's registrable-domain rule, ``reject_risky=True`` §8's
checks (a link with a risk stays text), as in the other integrations.
``cmarkgfm`` is imported when this module is, never by ``import uts58_adapt``.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Sequence

import cmarkgfm as _cmarkgfm
from cmarkgfm import _cmark
from cmarkgfm.cmark import Options

from ..backends._html5_text import decode_text
from ..html import BIDI_CONTROLS
from ..link import RawLink
from ..refine.acceptance import EmailInWord, ascii_host
from ..refine.host_chars import normalize_separators
from ..refine.migration import refine_links, refine_span
from ..refine.risk_profile import RejectRisky, reject_risky_value
from ._common import _SCHEME_OK, WINDOW, escape_bidi, refined_span, risk_filter

__all__ = ["github_flavored_markdown_to_html", "markdown_to_html_with_extensions", "readme_gfm", "render"]

#: The extensions ``cmarkgfm.github_flavored_markdown_to_html`` attaches, in its order.
GFM_EXTENSIONS = ("table", "autolink", "tagfilter", "strikethrough", "tasklist")

#: An anchor cmark-gfm's autolink extension writes: an href, no title, a text without markup.
_CANDIDATE = re.compile(r'<a href="([^"]*)">([^<]*)</a>')
#: The opening tag of any anchor cmark-gfm writes (an explicit link may have a title).
_OPEN = re.compile(r'<a href="[^"]*"(?: title="[^"]*")?>')
#: Where the text after an anchor stops being a possible part of the link (decoded text).
#: The same in cmark-gfm's markup of the text: white space, a tag, or a "<" escaped.
_STOP_MARKUP = re.compile(r"[\s<]|&lt;")
#: How far before an email's anchor its local part is looked for (markup characters; RFC 5321
#: allows 64 octets in a local part, each written at most as a 6-character reference).
_LOCAL_MARKUP = 1024
_LAST_SPACE = re.compile(r".*\s", re.DOTALL)


def escape_href(url: str) -> str:
    """``url`` escaped as cmark-gfm escapes an href (``houdini_escape_href``).

    Letters, digits and ``-_.+!*(),%#@?=;:/$~`` stay; ``&`` is written ``&amp;`` and ``'``
    ``&#x27;``; every other byte of the UTF-8 form is ``%XX`` (upper-case hex).
    """
    if _HREF_PLAIN.match(url):
        return url
    # houdini escapes byte by byte: one table over the UTF-8 bytes (read as Latin-1 code points)
    return url.encode("utf-8").decode("latin-1").translate(_HREF_TABLE)


#: A URL that ``houdini_escape_href`` leaves as it is.
_HREF_PLAIN = re.compile(r"[A-Za-z0-9\-_.+!*(),%#@?=;:/$~]*\Z")
#: ``houdini_escape_href`` byte by byte: what each byte (a Latin-1 code point) is written as.
_HREF_TABLE = {
    b: chr(b) if chr(b).isascii() and (chr(b).isalnum() or chr(b) in "-_.+!*(),%#@?=;:/$~") else f"%{b:02X}"
    for b in range(256)
}
#: The characters ``houdini_escape_href`` writes as they are.
_HREF_KEPT = frozenset(c for c in map(chr, range(128)) if _HREF_TABLE[ord(c)] == c)
_HREF_TABLE[ord("&")] = "&amp;"
_HREF_TABLE[ord("'")] = "&#x27;"


def escape_text(text: str) -> str:
    """``text`` escaped as cmark-gfm escapes text (``houdini_escape_html0``, not secure):
    ``& < > "`` only."""
    return html.escape(text, quote=False).replace('"', "&quot;") if _NEEDS_ESCAPE.search(text) else text


_NEEDS_ESCAPE = re.compile(r'[&<>"]')


def _decoded(markup: str) -> str:
    """Text cmark-gfm escaped (``escape_text``) decoded again, as a browser reads it."""
    return decode_text(markup) if "&" in markup else markup


def _prefix(href: str, text: str) -> str | None:
    """What cmark-gfm's autolink extension put before ``text`` to make ``href``: ``""``,
    ``"http://"`` (a ``www.`` link) or ``"mailto:"`` (an email); None when ``href`` is no
    such link's (an explicit link whose text is not its href, an ``xmpp:`` address)."""
    if text[:5].lower() == "xmpp:":
        return None
    # houdini_escape_href escapes byte by byte: escape_href(p + t) == p + escape_href(t)
    escaped = escape_href(text)
    if href == escaped:
        return ""
    if text[:4] == "www." and href[:7] == "http://" and href[7:] == escaped:
        return "http://"
    if href[:7] == "mailto:" and href[7:] == escaped and "@" in text:
        return "mailto:"
    return None


#: The fast path (issue 35: at most cmarkgfm's time); False refines every candidate anchor and
#: renders a second time whenever one changes (tests/test_cmarkgfm.py compares the two).
_FAST = True

# An anchor whose refinement provably changes nothing, recognized by one regex (C speed): a
# document whose anchors all have this shape costs one render, one count and one search.
# Each condition keeps the shape inside what refine_span returns unchanged:
# - ASCII only, no "&" (so no character reference: the text is its decoded text) and no "'"
#   (houdini escapes it): the href is the text (a backreference), after "http://" for
#   ``www.`` and "mailto:" for an email, as _prefix requires;
# - the host: dot-separated labels of ASCII letters and digits with single hyphens inside
#   (no hyphen at either end, no "xn--": no Punycode to decode), at least two, the last one
#   starting with a letter (no IPv4 number), at most 253 characters in all (MAX_HOST), then
#   no port and no userinfo: refine.domains.lenient_domain accepts it as it is;
# - a URL: a lower-case http, https or ftp scheme (those _SCHEME_OK takes), or "www."; its
#   path, query and fragment are Include and Soft characters only (no bracket, no "@", no
#   Hard one), the last one Include, and the text after the anchor starts with white space
#   or a tag or ends (the window the refinement reads ends with the anchor): §10.1 keeps
#   the library's end (refine.migration._path_end, its first case);
# - an email: a local part of dot-separated runs of [A-Za-z0-9+_-] (at most 64 characters)
#   right after white space or a tag (the text the local part is scanned back through is
#   empty, so §5.2's local part is cmark-gfm's), and the domain above.
_LABEL = r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*"
# (Atomic groups and possessive runs: a failed backreference costs no backtracking.)
_HOST = rf'(?=[A-Za-z0-9.-]{{1,253}}[/?#"])(?>(?:{_LABEL}\.)+[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)'
_PATH = r"(?:[/?#][A-Za-z0-9\-_.+!*%#?=;:/$~,]*+(?<=[A-Za-z0-9\-_+*%#=/$~]))?"
_LOCAL = r"(?=[A-Za-z0-9+_.-]{1,64}@)[A-Za-z0-9+_-]+(?:\.[A-Za-z0-9+_-]+)*"
_UNCHANGED = re.compile(
    rf'<a href="(?:(?P<url>(?:https?|ftp)://{_HOST}{_PATH})">(?P=url)</a>(?=[\s<]|\Z)'
    rf'|http://(?P<www>www\.{_HOST}{_PATH})">(?P=www)</a>(?=[\s<]|\Z)'
    rf'|mailto:(?<![^\s>]<a href="mailto:)(?P<email>{_LOCAL}@{_HOST})">(?P=email)</a>)'
)


class _Change:
    """One candidate anchor that the refinement changes: where it is and what replaces it."""

    __slots__ = ("anchor", "end", "markup", "start")

    def __init__(self, anchor: int, start: int, end: int, markup: str) -> None:
        self.anchor = anchor  # the anchor's "<" in cmark-gfm's output
        self.start = start  # where the replaced markup starts: the anchor, or the local part before it
        self.end = end  # past the anchor and the text after it that the link takes
        self.markup = markup


def _changes(rendered: str, strict_hosts: bool, reject_risky: RejectRisky, fast: bool = False) -> list[_Change]:
    """The candidate anchors of ``rendered`` that the refinement changes, in order
    (``fast``: an anchor of the ``_UNCHANGED`` shape is unchanged without a refinement)."""
    changes: list[_Change] = []
    pos = floor = 0  # floor: where the text before the next anchor may start (past the last change)
    while True:
        at = rendered.find('<a href="', pos)
        if at == -1:
            return changes
        m = _CANDIDATE.match(rendered, at)
        if m is None:
            pos = at + 3
            continue
        if fast and m.group(2).isascii():
            same = _UNCHANGED.match(rendered, at)
            if same is not None:
                pos = floor = same.end()
                continue
        pos = m.end()
        href, text = m.group(1), _decoded(m.group(2))
        if not text:
            continue
        first = text[0]  # written first in escape_href(text): itself, "&" (&amp; &#x27;) or "%"
        first = first if first in _HREF_KEPT else "&" if first in "&'" else "%"
        if first != href[:1] and first != href[7:8] and text[:4] != "www.":
            continue  # (_prefix is None: the href is no escaped text, nor "mailto:" before it, nor a www. link's)
        # What _prefix tells for an anchor it takes (an email: "mailto:" added, or in the text);
        # _prefix itself is asked only where the refinement changes the anchor.
        kind = "email" if "@" in text and (href[:7] == "mailto:" or text[:7].lower() == "mailto:") else "url"
        before = before_markup = after = ""
        if kind == "url":
            # cmark-gfm's text escapes only & < > " (as &amp; &lt; &gt; &quot;): white space and
            # "<" in the text are white space and "&lt;" in the markup (tagfilter leaves a ">")
            stop = _STOP_MARKUP.search(rendered, pos, pos + WINDOW)
            after = _decoded(rendered[pos : stop.start() if stop is not None else min(len(rendered), pos + WINDOW)])
        elif text[:7].lower() != "mailto:":
            # §5.2 scans the local part back from the "@" over Link_Email characters: cmark-gfm
            # stops at the first one outside [A-Za-z0-9.+_-] ("aσb@example.gr" links "b@…").
            # The text before the anchor, back to the last tag or white space, is the same text
            # node (cmark-gfm finds emails in whole text nodes).
            before_markup = _text_before(rendered, floor, at)
            before = _decoded(before_markup)
        window = before + text + after
        lead = len(before)
        if lead:
            found = _refine_email(window, lead, lead + len(text), strict_hosts, reject_risky)
        else:
            found = refined_span(window, 0, len(text), kind, len(window), strict_hosts, reject_risky)
        if found is None:
            if _prefix(href, text) is not None:  # (else not an anchor of the extension's shape)
                changes.append(_Change(at, at, m.end(), escape_text(text)))
                floor = pos
            continue
        start, end, link_text, _href = found
        shown = link_text
        if not shown.isascii() and not BIDI_CONTROLS.isdisjoint(shown):
            shown = escape_bidi(shown)  # §8: a Bidi_Control character is shown percent-escaped
        if start == lead and end == lead + len(text) and shown == link_text:
            floor = pos
            continue
        prefix = _prefix(href, text)
        if prefix is None:  # not an anchor of the extension's shape: left as it is
            continue
        if start >= lead:  # the text before the anchor stays as it is
            before_markup, window, end, start, lead = "", window[lead:], end - lead, start - lead, 0
        taken = window[lead + len(text) : end] if end > lead + len(text) else ""
        if prefix == "mailto:" and link_text[:7].lower() == "mailto:":  # the local part took a "mailto:"
            prefix = ""
        anchor = f'<a href="{escape_href(prefix + link_text)}">{escape_text(shown)}</a>'
        markup = escape_text(window[:start]) + anchor + escape_text(window[end : lead + len(text)])
        pos = m.end() + len(escape_text(taken))
        changes.append(_Change(at, at - len(before_markup), pos, markup))
        floor = pos


def _text_before(rendered: str, floor: int, at: int) -> str:
    """The markup of the text right before ``at`` back to the last tag, white space or
    ``floor`` (the end of the last anchor refined), at most ``_LOCAL_MARKUP`` characters:
    empty when neither is found in them (the text may start inside a reference)."""
    lo = max(floor, at - _LOCAL_MARKUP)
    piece = rendered[lo:at]
    cut = max(piece.rfind(">"), piece.rfind("<"))
    space = _LAST_SPACE.match(piece, cut + 1)
    if space is not None:
        cut = space.end() - 1
    elif cut == -1 and lo > floor:
        return ""
    return piece[cut + 1 :]


def _refine_email(
    window: str, start: int, end: int, strict_hosts: bool, reject_risky: RejectRisky
) -> tuple[int, int, str, str] | None:
    """The email the span ``window[start:end]`` (cmark-gfm's) becomes, its local part found
    back from the "@" in all of ``window`` (§5.2): ``(start, end, text, href)``, or None."""
    if not reject_risky:
        return refine_span(window, start, end, "email", strict_hosts=strict_hosts, scheme_ok=_SCHEME_OK)
    links = refine_links(window, [RawLink(start, end, "email")], strict_hosts=strict_hosts, scheme_ok=_SCHEME_OK)
    for link in risk_filter(window, links, strict_hosts=strict_hosts, reject_risky=reject_risky):
        if link.kind == "email" and link.original == (start, end):
            return link.start, link.end, link.text, link.href
    return None


#: What in a text can make an anchor of its author's: an autolink or raw HTML ("<"), an inline
#: link, a full or collapsed reference ("](", "]["), a link reference or footnote definition ("]:").
_AUTHORED = re.compile(r"<|\]\(|\]\[|\]:")
#: What in the text of an extension's anchor renders otherwise without the extension: emphasis,
#: strikethrough, a code span, an escape, a character reference (``&`` is ``&amp;`` in markup).
_MARKUP = re.compile(r"<a href=\"[^\"]*\">[^<]*[*_~`\\&]")


def _all_extensions(text: str, rendered: str, options: int) -> bool:
    """Whether every anchor in ``rendered`` is the extension's and :func:`_extension_anchors`
    would find them all, without the second render: the text has nothing that makes an anchor
    of its author's, and no anchor's text holds a character that renders otherwise without the
    extension (where the alignment could fail), nor is smart punctuation on."""
    return not options & Options.CMARK_OPT_SMART and _AUTHORED.search(text) is None and _MARKUP.search(rendered) is None


def _extension_anchors(rendered: str, without: str, authored: set[int] | None = None) -> set[int]:
    """Where in ``rendered`` (cmark-gfm's output) its autolink extension wrote an anchor.

    ``without`` is the same text rendered without the extension.  The two are aligned from
    the start: an anchor at the same place in both is the author's (an explicit link, raw
    HTML); one missing from ``without`` is the extension's.  After such an anchor the
    alignment resumes where the markup up to the next anchor (and that anchor's opening tag)
    is found in ``without``: the extension's link may have taken characters that render
    differently without it (``_x_`` as emphasis).  Where the alignment fails, no later anchor
    is counted as the extension's (it then stays as cmark-gfm made it).  ``authored``, when
    given, receives where the anchors found in both (the author's) start.
    """
    found: set[int] = set()
    i = j = 0
    resync = False
    for m in _OPEN.finditer(rendered):
        p = m.start()
        if p < i:
            continue
        key = rendered[i:p]
        if resync:
            k = without.find(key + m.group(), j)
            if k == -1:  # the next anchor is not in ``without``: it is the extension's too
                k = without.find(key, j)
                if k == -1:
                    return found
            j = k + len(key)
        elif without.startswith(key, j):
            j += len(key)
        else:
            return found
        candidate = _CANDIDATE.match(rendered, p)
        if without.startswith(m.group(), j) or candidate is None:
            # the same anchor in both: the author's; the texts go on the same
            if authored is not None:
                authored.add(p)
            i, j, resync = m.end(), j + len(m.group()), False
            continue
        found.add(p)
        i = candidate.end()
        shown = candidate.group(2)
        # The link's text rendered without the extension is the same text unless its
        # characters make markup there (emphasis, a code span, a reference): then resync.
        resync = not without.startswith(shown, j)
        if not resync:
            j += len(shown)
    return found


_lib = _cmark.lib
_ffi = _cmark.ffi
_NODE_NONE = _lib.CMARK_NODE_NONE
#: The syntax extensions attached for each list of names (cmark-gfm's registry is static once
#: its core extensions are registered): looked up once per process, not per call.
_attached: dict[tuple[str, ...], tuple[object, ...]] = {}


def _look_up(names: tuple[str, ...]) -> tuple[object, ...]:
    """The syntax extensions named ``names``, in order (cmarkgfm's ``ValueError`` for an unknown one)."""
    found = []
    _lib.cmark_gfm_core_extensions_ensure_registered()
    for name in names:
        extension = _lib.cmark_find_syntax_extension(name.encode("utf-8"))
        if extension == _ffi.NULL:
            raise ValueError(f"Unknown extension {name}")
        found.append(extension)
    _attached[names] = attached = tuple(found)
    return attached


def render(text: str, options: int = 0, extensions: Sequence[str] | None = None) -> str:
    """``cmarkgfm.markdown_to_html_with_extensions``: the same C calls in the same order (so the
    same bytes, and the same errors), each list of extensions looked up once per process."""
    if not extensions:
        return _cmarkgfm.markdown_to_html_with_extensions(text, options=options, extensions=extensions)  # type: ignore[no-any-return]
    names = extensions if type(extensions) is tuple else tuple(extensions)
    attached = _attached.get(names)
    if attached is None:
        attached = _look_up(names)
    encoded = text.encode("utf-8")
    lib = _lib
    parser = lib.cmark_parser_new(options)
    try:
        for extension in attached:
            lib.cmark_parser_attach_syntax_extension(parser, extension)
        lib.cmark_parser_feed(parser, encoded, len(encoded))
        root = lib.cmark_parser_finish(parser)
        if lib.cmark_node_get_type(root) == _NODE_NONE:
            raise ValueError("Error parsing markdown!")
        result = lib.cmark_render_html(root, options, lib.cmark_parser_get_syntax_extensions(parser))
    finally:
        lib.cmark_parser_free(parser)
    return _ffi.string(result).decode("utf-8")  # type: ignore[no-any-return]


def _refined(
    text: str,
    options: int,
    extensions: Sequence[str],
    rendered: str,
    strict_hosts: bool,
    reject_risky: RejectRisky,
    mine: frozenset[int] = frozenset(),
) -> str:
    """``rendered`` (cmark-gfm's output for ``text``) with the extension's autolinks refined
    (``mine``: where the anchors of step 4 start, left as they are)."""
    if '<a href="' not in rendered:
        return rendered
    fast = _FAST and not strict_hosts and not reject_risky
    if fast and rendered.isascii() and rendered.count('<a href="') == len(_UNCHANGED.findall(rendered)):
        # every anchor has the shape whose refinement changes nothing (looked for at once where
        # that is likely: an anchor of a non-ASCII text is looked at in _changes)
        return rendered
    changes = _changes(rendered, strict_hosts, reject_risky, fast)
    if not changes:
        return rendered
    made: set[int] | None = None  # None: every anchor is the extension's
    authored: set[int] = set()  # the anchors found in both renders: the author's
    if not (fast and _all_extensions(text, rendered, options)):
        without = render(text, options, [name for name in extensions if name != "autolink"])
        made = _extension_anchors(rendered, without, authored)
    parts: list[str] = []
    pos = 0
    for change in changes:
        if change.start < pos or change.anchor in mine:
            continue
        if made is not None and change.anchor not in made:
            # Not aligned (the text renders otherwise without the extension: ``_…_``, ``~~…~~``):
            # cmark-gfm's anchor is kept, but a Bidi_Control character in its text is shown
            # percent-escaped (§8), as in every anchor the refinement writes.
            kept = None if change.anchor in authored else _CANDIDATE.match(rendered, change.anchor)
            if kept is None or BIDI_CONTROLS.isdisjoint(kept.group(2)):
                continue
            parts.append(rendered[pos : change.anchor])
            parts.append(f'<a href="{kept.group(1)}">{escape_bidi(kept.group(2))}</a>')
            pos = kept.end()
            continue
        parts.append(rendered[pos : change.start])
        parts.append(change.markup)
        pos = change.end
    if pos == 0:
        return rendered
    parts.append(rendered[pos:])
    return "".join(parts)


#: A start tag of an anchor in the source (raw HTML, with ``CMARK_OPT_UNSAFE``).
_RAW_ANCHOR = re.compile(r"<a[\s/>]", re.IGNORECASE)


def _upgraded(
    text: str, options: int, extensions: Sequence[str], rendered: str, strict_hosts: bool, reject_risky: RejectRisky
) -> str:
    """``rendered`` (cmark-gfm's output for ``text``, its autolink extension on) upgraded: the
    non-ASCII emails it left as text added (step 4), then its autolinks refined."""
    email_text = "@" in rendered and not rendered.isascii()
    if email_text and options & _UNSAFE and _RAW_ANCHOR.search(text) is not None:
        # The author's raw <a> may stay open over later text (an "</a>" in <marquee> is ignored):
        # an email added there would nest in it, which cmark-gfm alone never does.
        email_text = False
    if '<a href="' not in rendered and not email_text:
        return rendered
    if reject_risky:
        reject_risky = reject_risky_value(reject_risky)
    mine: frozenset[int] = frozenset()
    try:
        upgraded = rendered
        if email_text:
            upgraded, mine = _with_emails(text, options, extensions, rendered, strict_hosts, reject_risky)
        return _refined(text, options, extensions, upgraded, strict_hosts, reject_risky, mine)
    except UnicodeDecodeError:
        # cmark-gfm writes "&#xfffe;" as bytes that are no UTF-8: a rendering without autolink
        # (where the extension took the reference as link text) fails where the library's did not.
        return rendered


#: A tag in cmark-gfm's output, and the elements whose text is never linked.
_TAG = re.compile(r"<[^>]*>")
_NEVER_IN = re.compile(r"<(/?)(?:a|code|pre)[\s>]")
_UNSAFE = Options.CMARK_OPT_UNSAFE
#: Where the word around an "@" ends in cmark-gfm's output: white space or a tag.
_WORD_END = re.compile(r"[\s<]")


def _free_ats(markup: str) -> list[bool]:
    """For each "@" of ``markup`` (cmark-gfm's output), in order: whether it is in text that is
    inside no tag, no anchor, no ``<code>`` and no ``<pre>`` (one pass over the tags)."""
    free: list[bool] = []
    tags = _TAG.finditer(markup)
    tag = next(tags, None)
    depth = 0
    at = markup.find("@")
    while at != -1:
        while tag is not None and tag.end() <= at:
            name = _NEVER_IN.match(tag.group())
            if name is not None:
                depth = max(0, depth - 1) if name.group(1) else depth + 1
            tag = next(tags, None)
        free.append(depth == 0 and (tag is None or tag.start() > at))
        at = markup.find("@", at + 1)
    return free


def _with_emails(
    text: str, options: int, extensions: Sequence[str], rendered: str, strict_hosts: bool, reject_risky: RejectRisky
) -> tuple[str, frozenset[int]]:
    """``rendered`` with the non-ASCII emails cmark-gfm left as text linked where it links their
    probe (step 4 of the module docstring), and where the anchors added start."""
    free = _free_ats(rendered)
    structure: list[bool] | None = None  # the "@"s free in the render without raw HTML (UNSAFE only)
    parts: list[str] = []
    mine: list[int] = []  # where the anchors added start in the output
    pos = out_len = 0  # where the markup not yet copied to parts starts; the length of parts
    floor = 0  # where the last word looked at ends
    at = rendered.find("@")
    k = 0
    while at != -1:
        if not free[k]:
            at, k = rendered.find("@", at + 1), k + 1
            continue
        # The word around the "@": an email holds no white space and no markup (cmark-gfm's
        # text writes white space as it is); looked for from the last word on (linear).
        lo = max(floor, rendered.rfind(">", floor, at) + 1)
        space = _LAST_SPACE.match(rendered, lo, at)
        if space is not None:
            lo = space.end()
        stop = _WORD_END.search(rendered, at)
        hi = len(rendered) if stop is None else stop.start()
        first_k = k
        while at != -1 and at < hi:  # (the "@"s of this word: free, as the first one)
            at, k = rendered.find("@", at + 1), k + 1
        floor = hi
        markup = rendered[lo:hi]
        if markup.isascii():
            continue  # (cmark-gfm decides the ASCII emails)
        if options & _UNSAFE and structure is None:
            safe = render(text, options & ~_UNSAFE, extensions)
            structure = _free_ats(safe) if safe.count("@") == len(free) else []
        if structure is not None and not all(structure[first_k:k] if structure else [False]):
            continue  # raw HTML (or raw HTML that holds an "@": no email added in the document)
        found = _emails_in(markup, strict_hosts, reject_risky)
        if not found:
            continue
        parts.append(rendered[pos:lo])
        out_len += lo - pos
        last = 0
        for start, end, anchor in found:
            parts.append(markup[last:start])
            out_len += start - last
            mine.append(out_len)
            parts.append(anchor)
            out_len += len(anchor)
            last = end
        parts.append(markup[last:])
        out_len += len(markup) - last
        pos = hi
    if not parts:
        return rendered, frozenset()
    parts.append(rendered[pos:])
    return "".join(parts), frozenset(mine)


def _emails_in(markup: str, strict_hosts: bool, reject_risky: RejectRisky) -> list[tuple[int, int, str]]:
    """The non-ASCII emails to link in ``markup`` (a word of cmark-gfm's text, escaped as
    cmark-gfm escapes text): ``(start, end, anchor)``, offsets in ``markup``."""
    decoded = _decoded(markup)
    if escape_text(decoded) != markup:
        return []  # (not cmark-gfm's text: a raw tag's inside, say)
    links = refine_links(
        decoded, [], strict_hosts=strict_hosts, scheme_ok=_SCHEME_OK, accepts_email=EmailInWord(_probe_linked)
    )
    if reject_risky and links:
        links = risk_filter(decoded, links, strict_hosts=strict_hosts, reject_risky=reject_risky)
    found: list[tuple[int, int, str]] = []
    last = at = 0  # the last offset in decoded, and its offset in markup
    for link in links:
        if link.kind != "email" or link.original is not None or link.text.isascii():
            continue  # (cmark-gfm decides the ASCII emails; URLs are its own)
        local, _, domain = link.text.rpartition("@")
        href = link.text if local[: len(_MAILTO)].lower() == _MAILTO else _MAILTO + link.text
        href = href[: len(href) - len(domain)] + normalize_separators(domain)
        shown = link.text
        if not BIDI_CONTROLS.isdisjoint(shown):
            shown = escape_bidi(shown)  # §8: a Bidi_Control character is shown percent-escaped
        start = at + len(escape_text(decoded[last : link.start]))
        end = start + len(escape_text(link.text))
        found.append((start, end, f'<a href="{escape_href(href)}">{escape_text(shown)}</a>'))
        last, at = link.end, end
    return found


_MAILTO = "mailto:"
_PROBE_ANCHOR = re.compile(r'<a href="([^"]*)">([^<]*)</a>')


#: (an lru_cache above 4096 entries: bench.py's forget() empties it, so each figure is a first reading)
@functools.lru_cache(maxsize=8192)
def _probe_linked(word: str, start: int, end: int) -> bool:
    """Whether cmark-gfm's autolink extension, given ``word`` (``email_word_probe``'s: the local
    part's non-ASCII characters written ``a``) with the domain of ``word[start:end]`` in its
    ``xn--`` form, links an email over the address: ``word`` must render as one paragraph of
    its own text (no other markup), one of its anchors a ``mailto:`` overlapping the address."""
    local, _, domain = word[start:end].rpartition("@")
    try:
        domain = ascii_host(domain)
    except (UnicodeError, ValueError):
        return False
    probe = word[:start] + local + "@" + domain + word[end:]
    end = start + len(local) + 1 + len(domain)
    rendered = render(probe, 0, ("autolink",))
    if not (rendered.startswith("<p>") and rendered.endswith("</p>\n")):
        return False
    inner = rendered[3:-5]
    shown: list[str] = []
    overlaps = False
    pos = length = 0
    for m in _PROBE_ANCHOR.finditer(inner):
        shown.append(_decoded(inner[pos : m.start()]))
        length += len(shown[-1])
        text = _decoded(m.group(2))
        if m.group(1)[:7].lower() == _MAILTO and length < end and start < length + len(text):
            overlaps = True
        shown.append(text)
        length += len(text)
        pos = m.end()
    shown.append(_decoded(inner[pos:]))
    return overlaps and "<" not in inner[pos:] and "".join(shown) == probe


def markdown_to_html_with_extensions(
    text: str,
    options: int = 0,
    extensions: Sequence[str] | None = None,
    *,
    strict_hosts: bool = False,
    reject_risky: RejectRisky = False,
) -> str:
    """``cmarkgfm.markdown_to_html_with_extensions`` whose autolinks (the ``autolink``
    extension's) end where UTS #58 ends them (§3.5.1, §5.2), invalid hosts left as text.

    ``strict_hosts``: §1.4's registrable-domain rule on hosts, as ``detect()`` applies it;
    ``reject_risky``: §8's checks (a link with a risk stays text; ``"browser"``: the
    stricter profile).
    """
    if extensions is not None and not isinstance(extensions, (list, tuple)):
        extensions = list(extensions)  # read twice: rendered with, then looked in
    rendered = render(text, options, extensions)
    if not extensions or "autolink" not in extensions:
        return rendered
    return _upgraded(text, options, list(extensions), rendered, strict_hosts, reject_risky)


def github_flavored_markdown_to_html(
    text: str, options: int = 0, *, strict_hosts: bool = False, reject_risky: RejectRisky = False
) -> str:
    """``cmarkgfm.github_flavored_markdown_to_html`` with UTS #58 autolinks
    (:func:`markdown_to_html_with_extensions` with the GitHub extensions and
    ``CMARK_OPT_GITHUB_PRE_LANG``, as cmarkgfm's own)."""
    options |= _PRE_LANG
    rendered = render(text, options, GFM_EXTENSIONS)
    return _upgraded(text, options, GFM_EXTENSIONS, rendered, strict_hosts, reject_risky)


_PRE_LANG = Options.CMARK_OPT_GITHUB_PRE_LANG


def readme_gfm(raw: str) -> str:
    """readme_renderer's GFM variant (up to readme_renderer 44, which renders with cmarkgfm)
    with UTS #58 autolinks: ``github_flavored_markdown_to_html(raw, options=CMARK_OPT_UNSAFE)``.

    Use: ``readme_renderer.markdown.variants["GFM"] = readme_gfm`` (or scoped,
    ``unittest.mock.patch.dict(readme_renderer.markdown.variants, GFM=readme_gfm)``).
    """
    return github_flavored_markdown_to_html(raw, options=Options.CMARK_OPT_UNSAFE)
