r"""mistune's ``url`` plugin with UTS #58 links: ``create_markdown(plugins=[uts58_adapt.integrations.mistune.url])``.

The plugin registers the same inline rule as ``mistune.plugins.url`` (its pattern finds
``http(s)://`` URLs), and refines each match (``integrations._common.refined_span``) before
making the link token, exactly as mistune's own plugin makes it (``escape_url`` href,
no link inside a link, cut at ``]`` inside link text).

The refined link may end before mistune's match, never past the run its pattern's body
takes (``[^\s<]``): after mistune's match there are only the trailing characters the
pattern leaves out (``.,:;"')]``), never a ``<`` that mistune goes on to parse as inline
HTML, a comment or the ``<`` of link syntax.  A Bidi_Control character in the link text
is shown percent-escaped (UTS #58 §8), as is one that a character reference in it would
decode to where mistune decodes them (``escape=False``).

mistune decides scheme and host (``http://localhost:8000/`` stays linked) and only
invalid hosts are dropped; ``url_plugin(strict_hosts=True)`` is the plugin with §1.4's
registrable-domain rule, as ``detect()`` applies it, and ``url_plugin(reject_risky=True)``
the one with its §8 checks (a link with a risk stays text).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from re import Match
from typing import TYPE_CHECKING, Any

from mistune.plugins.url import URL_LINK_PATTERN
from mistune.util import escape_url, unescape

from ..html import BIDI_CONTROLS
from ..refine.risk_profile import RejectRisky, reject_risky_value
from ._common import WINDOW, completes_reference, escape_bidi, escape_bidi_references, refined_span

if TYPE_CHECKING:
    from mistune.core import InlineState
    from mistune.inline_parser import InlineParser
    from mistune.markdown import Markdown

__all__ = ["url", "url_plugin"]

#: Where mistune's pattern (``URL_LINK_PATTERN``) can start a link.
_URL_START = re.compile(r"https?://")
#: Where the run of mistune's pattern body (``[^\s<]+``) ends: a refined link never goes past it.
_BODY_END = re.compile(r"[\s<]")
#: The last character of mistune's pattern (``URL_LINK_PATTERN``): a match needs one, after at least
#: one character of the body, past ``https?://``.
_LAST = re.compile(r"[^<.,:;\"')\]\s]")


def parse_url_link(
    inline: InlineParser,
    m: Match[str],
    state: InlineState,
    strict_hosts: bool = False,
    reject_risky: RejectRisky = False,
    decodes_references: bool = False,
    inert_tokens: bool = False,
) -> int:
    """mistune's ``parse_url_link`` on the refined spans of the match ``m``.

    mistune's pattern runs to the next white space or ``<``; a refined link may end
    before that (a Hard character, an unbalanced bracket).  The rest of the match is then
    handled here, up to its end, linking the next ``http(s)://`` in it the same way:
    handing the rest back to mistune would make it search that run again after every
    link, time quadratic in a run such as ``http://`` * n (issue 21).  Each span given
    to the refinement is at most ``WINDOW`` long, and its text ends where the run of
    mistune's pattern body does (``_BODY_END``): past mistune's match a link may take
    the trailing characters the pattern leaves out, never a ``<`` (issue 32).
    ``decodes_references``: the renderer decodes character references in text (``escape=False``).
    ``inert_tokens``: the text left out is appended as ``_INERT`` tokens, which the plugin's
    ``finalize_tokens`` makes text after mistune's emphasis (mistune 3.4 and later).
    """
    if state.in_link or state.depth >= inline.max_nested_level:
        # No link is made here (inside a link, or too deep): the text is mistune's own match, so
        # that markup after it, such as the ``</a>`` of an inline HTML link, stays markup.
        text = m.group(0)
        pos = m.end()
        if state.brackets and "]" in text:
            pos = m.start() + text.index("]")
            text = text[: text.index("]")]
        inline.process_text(text, state)
        return pos
    src = state.src
    end = m.end()
    pos = start = m.start()
    if state.brackets:  # in link text mistune's own rule stops at "]", which closes the link text
        close = src.find("]", start, end)
        if close != -1:
            end = close
    # mistune's match holds no white space and no "<": the text each refinement needs ends at
    # the first of them after the match, found once (not once per link of a long match).
    # Past it mistune parses on (inline HTML, a comment, "<[" before link syntax): a link
    # running over it would swallow markup into its text, or let it come alive (issue 32).
    space = _BODY_END.search(src, end, min(len(src), end + WINDOW))
    space_at = space.start() if space else min(len(src), end + WINDOW)
    while True:
        span_end = min(end, start + WINDOW)
        window_end = min(space_at, span_end + WINDOW)
        link = refined_span(src, start, span_end, "url", window_end, strict_hosts, reject_risky)
        if link is None:
            _inert_text(inline, src[pos:span_end], state, inert_tokens)
            pos = span_end
        else:
            link_start, link_end, text, _href = link
            if link_end < end and completes_reference(src, link_end, text):
                # "…&amp" then ";": the reference stays whole, in the link as in mistune's
                link_end, text = link_end + 1, text + ";"
            elif (
                decodes_references
                and link_end > end > link_start
                and completes_reference(src, end, src[link_start:end])
            ):
                # past mistune's match, a ";" completing the reference the match ends with: the renderer
                # would decode it in the link's text, where mistune shows "&#xb" and ";" apart (fuzz seed 24)
                link_end, text = end, src[link_start:end]
            if link_start > pos:
                _inert_text(inline, src[pos:link_start], state, inert_tokens)
            if state.brackets and "]" in text:  # as mistune's own: the link text ends at "]"
                close = text.index("]")
                text = text[:close]
                if text:
                    _append_link(state, text, decodes_references)
                return link_start + close
            _append_link(state, text, decodes_references)
            pos = link_end
        if pos >= end:
            return pos
        nxt = _next_start(src, pos, end)
        if nxt == -1:
            _inert_text(inline, src[pos:end], state, inert_tokens)
            return end
        start = nxt


def _next_start(src: str, pos: int, end: int) -> int:
    """Where mistune's pattern would next match in ``src[pos:end]`` (the rest of its own match),
    or -1: at an ``http(s)://`` with a body character and a last character after it before
    ``end``.  mistune links no ``http://x``; nor does the rest of a refined link (fuzz campaign)."""
    while True:
        nxt = _URL_START.search(src, pos, end)
        if nxt is None:
            return -1
        if _LAST.search(src, nxt.end() + 1, end):
            return nxt.start()
        pos = nxt.end()


def _inert_text(inline: InlineParser, text: str, state: InlineState, inert_tokens: bool = False) -> None:
    """Text of mistune's own match that the refined link left out: it stays plain, as it is in
    mistune's link (no ``**b**`` comes alive that mistune alone keeps in the link, issue 21).
    With ``inert_tokens`` it also counts in emphasis as mistune's link token does, one
    non-text unit: ``*t**http://@*`` keeps mistune's ``<em>t</em>`` where the link is
    rejected (issue 32)."""
    if inert_tokens:
        # ("_autolink": in link text that a "](…)" closes, mistune makes its links text, this too)
        state.append_token({"type": _INERT, "raw": text, "_autolink": text})
        return
    try:
        inline.process_text(text, state, parse_emphasis=False)
    except TypeError:  # mistune before 3.1: emphasis is parsed by its own rule, not in text
        inline.process_text(text, state)


#: The type of the tokens ``_inert_text`` appends with ``inert_tokens``: mistune's emphasis reads
#: them as it reads the link token they stand for; ``_finalize_inert`` makes them text.
_INERT = "uts58_inert_text"

_Tokens = list[dict[str, Any]]


def _finalize_inert(finalize: Callable[[_Tokens, int], _Tokens]) -> Callable[[_Tokens, int], _Tokens]:
    """mistune's ``InlineParser.finalize_tokens`` (emphasis), then each ``_INERT`` token as a text
    token: the renderers and the AST see only mistune's types."""

    def finalize_tokens(tokens: _Tokens, depth: int) -> _Tokens:
        return _as_text(finalize(tokens, depth))

    return finalize_tokens


def _as_text(tokens: _Tokens) -> _Tokens:
    # (not joined to the text next to it: with escape=False the renderer decodes references in a
    # token, and "\\&" then "#60;" are two tokens so that "&#60;" is not one, fuzz seed 22)
    out: _Tokens = []
    for token in tokens:
        kind = token["type"]
        if kind == _INERT:
            token = {"type": "text", "raw": token["raw"]}
        elif kind in ("emphasis", "strong") and "children" in token:
            # children made from this call's tokens (a link's children were finalized in theirs)
            token["children"] = _as_text(token["children"])
        out.append(token)
    return out


def _append_link(state: InlineState, text: str, decodes_references: bool = False) -> None:
    """The link token mistune's own ``parse_url_link`` appends, its Bidi_Control characters
    shown percent-escaped (UTS #58 §8; the href is mistune's, which escapes them too)."""
    shown = text
    if not text.isascii() and not BIDI_CONTROLS.isdisjoint(text):
        shown = escape_bidi(text)
    if decodes_references:  # as the renderer decodes them (mistune's safe_entity)
        shown = escape_bidi_references(shown, unescape)
    state.append_token(
        {
            "type": "link",
            "children": [{"type": "text", "raw": shown}],
            "attrs": {"url": escape_url(text)},
            "_autolink": text,
        }
    )


def url_plugin(*, strict_hosts: bool = False, reject_risky: RejectRisky = False) -> Callable[[Markdown], None]:
    """The mistune plugin, with §1.4's registrable-domain rule on hosts when ``strict_hosts``,
    and §8's checks when ``reject_risky`` (a link with a risk stays text, as ``detect()`` drops it;
    ``"browser"``: the stricter profile)."""
    reject_risky = reject_risky_value(reject_risky)

    def plugin(md: Markdown) -> None:
        def parse(inline: InlineParser, m: Match[str], state: InlineState) -> int:
            # An HTML renderer with escape=False shows text decoded (mistune's safe_entity).
            renderer = md.renderer
            decodes = getattr(renderer, "escape_enabled", getattr(renderer, "_escape", True)) is False
            return parse_url_link(inline, m, state, strict_hosts, reject_risky, decodes, inert_tokens)

        # mistune 3.4 resolves emphasis over the tokens, after the inline rules, in finalize_tokens
        # (a token other than text counts as one U+FFFC there); before 3.4 its own rule parses
        # emphasis on the source, and inert text stays a text token that is not parsed again.
        inert_tokens = callable(getattr(md.inline, "finalize_tokens", None))
        if inert_tokens:
            md.inline.finalize_tokens = _finalize_inert(md.inline.finalize_tokens)  # type: ignore[method-assign,assignment]
        md.inline.register("url_link", URL_LINK_PATTERN, parse)

    return plugin


#: The mistune plugin (``plugins=[url]``): register the refined ``url_link`` rule.
url = url_plugin()
