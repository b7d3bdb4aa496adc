"""mistune's ``url`` plugin with UTS #58 links: ``create_markdown(plugins=[uts58_adapt.integrations.mistune.url])``.

The plugin registers the same inline rule as ``mistune.plugins.url`` (its pattern finds
``http(s)://`` URLs), and refines each match (``integrations._common.refine_at``) before
making the link token, exactly as mistune's own plugin makes it (``escape_url`` href,
no link inside a link, cut at ``]`` inside link text).

mistune decides scheme and host (``http://localhost:8000/`` stays linked) and only
invalid hosts are dropped; ``url_plugin(strict_hosts=True)`` is the plugin with §1.4's
registrable-domain rule, as ``detect()`` applies it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from re import Match
from typing import TYPE_CHECKING

from mistune.plugins.url import URL_LINK_PATTERN
from mistune.util import escape_url

from ._common import refine_at

if TYPE_CHECKING:
    from mistune.core import InlineState
    from mistune.inline_parser import InlineParser
    from mistune.markdown import Markdown

__all__ = ["url", "url_plugin"]


def parse_url_link(inline: InlineParser, m: Match[str], state: InlineState, strict_hosts: bool = False) -> int:
    """mistune's ``parse_url_link`` on the refined span of the match ``m``."""
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
    link = refine_at(state.src, m.start(), m.end(), "url", strict_hosts=strict_hosts)
    if link is None:
        inline.process_text(m.group(0), state)
        return m.end()
    if link.start > m.start():
        inline.process_text(state.src[m.start() : link.start], state)
    text = link.text
    pos = link.end
    if state.brackets:
        close = text.find("]")
        if close >= 0:
            text = text[:close]
            pos = link.start + close
    if state.in_link or state.depth >= inline.max_nested_level:
        inline.process_text(text, state)
        return pos
    state.append_token(
        {
            "type": "link",
            "children": [{"type": "text", "raw": text}],
            "attrs": {"url": escape_url(text)},
            "_autolink": text,
        }
    )
    return pos


def url_plugin(*, strict_hosts: bool = False) -> Callable[[Markdown], None]:
    """The mistune plugin, with §1.4's registrable-domain rule on hosts when ``strict_hosts``."""

    def plugin(md: Markdown) -> None:
        md.inline.register("url_link", URL_LINK_PATTERN, partial(parse_url_link, strict_hosts=strict_hosts))

    return plugin


#: The mistune plugin (``plugins=[url]``): register the refined ``url_link`` rule.
url = url_plugin()
