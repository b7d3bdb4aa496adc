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

Code spans, code blocks and raw HTML are never linked (cmark-gfm's extension made no
anchor there, and nothing else is linked).  Emails cmark-gfm does not link (a non-ASCII
domain, ``bug@例え.jp``) stay unlinked: cmark-gfm decides which "@" makes an email.
``strict_hosts=True`` adds §1.4's registrable-domain rule, ``reject_risky=True`` §8's
checks (a link with a risk stays text), as in the other integrations.
``cmarkgfm`` is imported when this module is, never by ``import uts58_adapt``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from urllib.parse import quote

import cmarkgfm as _cmarkgfm
from cmarkgfm import _cmark
from cmarkgfm.cmark import Options

from ..backends._html5_text import decode_text
from ..html import BIDI_CONTROLS
from ..link import RawLink
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
_STOP = re.compile(r"[\s<]")
#: How far before an email's anchor its local part is looked for (markup characters; RFC 5321
#: allows 64 octets in a local part, each written at most as a 6-character reference).
_LOCAL_MARKUP = 1024
_LAST_SPACE = re.compile(r".*\s", re.DOTALL)
#: What ``houdini_escape_href`` leaves as it is besides letters, digits and ``_.-~`` (HREF_SAFE).
_HREF_SAFE = "!#$%()*+,/:;=?@&'"


def escape_href(url: str) -> str:
    """``url`` escaped as cmark-gfm escapes an href (``houdini_escape_href``).

    Letters, digits and ``-_.+!*(),%#@?=;:/$~`` stay; ``&`` is written ``&amp;`` and ``'``
    ``&#x27;``; every other byte of the UTF-8 form is ``%XX`` (upper-case hex).
    """
    if _HREF_PLAIN.match(url):
        return url
    escaped = quote(url, safe=_HREF_SAFE)
    if "&" in escaped:
        escaped = escaped.replace("&", "&amp;")
    if "'" in escaped:
        escaped = escaped.replace("'", "&#x27;")
    return escaped


#: A URL that ``houdini_escape_href`` leaves as it is.
_HREF_PLAIN = re.compile(r"[A-Za-z0-9\-_.+!*(),%#@?=;:/$~]*\Z")


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


class _Change:
    """One candidate anchor that the refinement changes: where it is and what replaces it."""

    __slots__ = ("anchor", "end", "markup", "start")

    def __init__(self, anchor: int, start: int, end: int, markup: str) -> None:
        self.anchor = anchor  # the anchor's "<" in cmark-gfm's output
        self.start = start  # where the replaced markup starts: the anchor, or the local part before it
        self.end = end  # past the anchor and the text after it that the link takes
        self.markup = markup


def _changes(rendered: str, strict_hosts: bool, reject_risky: RejectRisky) -> list[_Change]:
    """The candidate anchors of ``rendered`` that the refinement changes, in order."""
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
        pos = m.end()
        href, text = m.group(1), _decoded(m.group(2))
        prefix = _prefix(href, text) if text else None
        if prefix is None:
            continue
        kind = "email" if prefix == "mailto:" or ("@" in text and text[:7].lower() == "mailto:") else "url"
        before = before_markup = after = ""
        if kind == "url":
            tag = rendered.find("<", pos, pos + WINDOW)
            after = _decoded(rendered[pos : tag if tag != -1 else min(len(rendered), pos + WINDOW)])
            stop = _STOP.search(after)
            if stop is not None:
                after = after[: stop.start()]
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


def _extension_anchors(rendered: str, without: str) -> set[int]:
    """Where in ``rendered`` (cmark-gfm's output) its autolink extension wrote an anchor.

    ``without`` is the same text rendered without the extension.  The two are aligned from
    the start: an anchor at the same place in both is the author's (an explicit link, raw
    HTML); one missing from ``without`` is the extension's.  After such an anchor the
    alignment resumes where the markup up to the next anchor (and that anchor's opening tag)
    is found in ``without``: the extension's link may have taken characters that render
    differently without it (``_x_`` as emphasis).  Where the alignment fails, no later anchor
    is counted as the extension's (it then stays as cmark-gfm made it).
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
#: The syntax extensions by name (cmark-gfm's registry is static once its core extensions are registered).
_extensions: dict[str, object] = {}


def render(text: str, options: int = 0, extensions: Sequence[str] | None = None) -> str:
    """``cmarkgfm.markdown_to_html_with_extensions``: the same C calls in the same order (so the
    same bytes, and the same errors), each extension looked up once per process, not per call."""
    if not extensions:
        return _cmarkgfm.markdown_to_html_with_extensions(text, options=options, extensions=extensions)  # type: ignore[no-any-return]
    attached = []
    for name in extensions:
        extension = _extensions.get(name)
        if extension is None:
            _lib.cmark_gfm_core_extensions_ensure_registered()
            extension = _lib.cmark_find_syntax_extension(name.encode("utf-8"))
            if extension == _ffi.NULL:
                raise ValueError(f"Unknown extension {name}")
            _extensions[name] = extension
        attached.append(extension)
    encoded = text.encode("utf-8")
    parser = _lib.cmark_parser_new(options)
    try:
        for extension in attached:
            _lib.cmark_parser_attach_syntax_extension(parser, extension)
        _lib.cmark_parser_feed(parser, encoded, len(encoded))
        root = _lib.cmark_parser_finish(parser)
        if _lib.cmark_node_get_type(root) == _lib.CMARK_NODE_NONE:
            raise ValueError("Error parsing markdown!")
        result = _lib.cmark_render_html(root, options, _lib.cmark_parser_get_syntax_extensions(parser))
    finally:
        _lib.cmark_parser_free(parser)
    return _ffi.string(result).decode("utf-8")  # type: ignore[no-any-return]


def _refined(
    text: str, options: int, extensions: Sequence[str], rendered: str, strict_hosts: bool, reject_risky: RejectRisky
) -> str:
    """``rendered`` (cmark-gfm's output for ``text``) with the extension's autolinks refined."""
    if '<a href="' not in rendered:
        return rendered
    changes = _changes(rendered, strict_hosts, reject_risky)
    if not changes:
        return rendered
    without = render(text, options, [name for name in extensions if name != "autolink"])
    made = _extension_anchors(rendered, without)
    parts: list[str] = []
    pos = 0
    for change in changes:
        if change.anchor not in made or change.start < pos:
            continue
        parts.append(rendered[pos : change.start])
        parts.append(change.markup)
        pos = change.end
    if pos == 0:
        return rendered
    parts.append(rendered[pos:])
    return "".join(parts)


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
    if not extensions or "autolink" not in extensions or '<a href="' not in rendered:
        return rendered
    if reject_risky:
        reject_risky = reject_risky_value(reject_risky)
    return _refined(text, options, list(extensions), rendered, strict_hosts, reject_risky)


def github_flavored_markdown_to_html(
    text: str, options: int = 0, *, strict_hosts: bool = False, reject_risky: RejectRisky = False
) -> str:
    """``cmarkgfm.github_flavored_markdown_to_html`` with UTS #58 autolinks
    (:func:`markdown_to_html_with_extensions` with the GitHub extensions and
    ``CMARK_OPT_GITHUB_PRE_LANG``, as cmarkgfm's own)."""
    return markdown_to_html_with_extensions(
        text,
        options=options | Options.CMARK_OPT_GITHUB_PRE_LANG,
        extensions=GFM_EXTENSIONS,
        strict_hosts=strict_hosts,
        reject_risky=reject_risky,
    )


def readme_gfm(raw: str) -> str:
    """readme_renderer's GFM variant (up to readme_renderer 44, which renders with cmarkgfm)
    with UTS #58 autolinks: ``github_flavored_markdown_to_html(raw, options=CMARK_OPT_UNSAFE)``.

    Use: ``readme_renderer.markdown.variants["GFM"] = readme_gfm`` (or scoped,
    ``unittest.mock.patch.dict(readme_renderer.markdown.variants, GFM=readme_gfm)``).
    """
    return github_flavored_markdown_to_html(raw, options=Options.CMARK_OPT_UNSAFE)
