"""Markup-aware input (``uts58-adapt report --markup``): audit HTML and Markdown where a markup linkifier links.

A CMS export or a docs tree is rendered through a markup linkifier, which links only in the
document's text: auditing its source as plain text reports links running into ``<br></span``.
:func:`mask` returns the source with everything that is not such text replaced by spaces,
code point for code point (line breaks kept), so the audit's lines, columns and spans still
point into the source file:

- ``html``: everything but the text ``linkify_html`` would link, read by the same HTML5
  tokenizer and tree rules (``backends._html5_text.text_runs`` with ``linkify_html``'s
  default ``skip_tags``): tags with their attributes (a ``>`` inside a quoted value
  included), comments, CDATA sections, doctypes, the content of ``a``, ``pre``, ``code``,
  ``script``, ``style``, ``textarea``, ``title`` and other raw-text elements, foreign
  content (``svg``, ``math``) and ``select``, and whatever follows a point where two readings
  of the markup could differ;
- ``markdown`` (as markdown-it with ``linkify`` links it): fenced and indented code blocks,
  code spans, autolinks, inline HTML, links and images (text and destination), and link
  reference definitions.

Character references (``&amp;``) are left as they are in both: the audit reads them as text.
"""

from __future__ import annotations

import re

__all__ = ["MARKUPS", "markup_for", "mask"]

MARKUPS = ("text", "html", "markdown")
_SUFFIXES = {".html": "html", ".htm": "html", ".xhtml": "html", ".md": "markdown", ".markdown": "markdown"}


def markup_for(name: str, choice: str = "auto") -> str:
    """The markup of the input ``name``: ``choice`` unless ``auto``, else from its suffix
    (``.html``/``.htm``/``.xhtml``: html, ``.md``/``.markdown``: markdown, the rest: text)."""
    if choice != "auto":
        return choice
    dot = name.rfind(".")
    return _SUFFIXES.get(name[dot:].lower(), "text") if dot > name.rfind("/") else "text"


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group())


_NOT_NEWLINE = re.compile(r"[^\n]")


def _mask_html(text: str) -> str:
    from ..backends._html5_text import text_runs
    from ..html_fragment import DEFAULT_SKIP_TAGS

    out: list[str] = []
    pos = 0
    for start, end in text_runs(text, DEFAULT_SKIP_TAGS):
        out.append(_NOT_NEWLINE.sub(" ", text[pos:start]))
        out.append(text[start:end])
        pos = end
    out.append(_NOT_NEWLINE.sub(" ", text[pos:]))
    return "".join(out)


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_MD_INLINE = re.compile(
    r"(`+)(?:(?!\1).)+?\1"  # a code span (the same run of backticks closes it)
    r"|<[A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\s<>]*>"  # an autolink
    r"|<[^\s<>@]+@[^\s<>]+>"  # an email autolink
    r"|<!--.*?-->|</?[A-Za-z][^<>]*>"  # inline HTML
    r"|!?\[(?:[^\[\]]|\[[^\[\]]*\])*\](?:\([^()\s]*(?:\s+\"[^\"]*\")?\)|\[[^\[\]]*\])?",  # a link or image
)
_MD_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*\S.*$")


def _mask_markdown(text: str) -> str:
    out: list[str] = []
    fence: str | None = None
    previous_blank = True
    in_indented = False
    for line in text.split("\n"):
        stripped = line.strip()
        opening = _FENCE.match(line)
        if fence is not None:
            out.append(" " * len(line))
            closing = opening is not None and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence)
            if closing and opening is not None and not line[opening.end() :].strip():
                fence = None
            continue
        if opening is not None:
            fence = opening.group(1)
            out.append(" " * len(line))
            continue
        indented = line.startswith(("    ", "\t")) and bool(stripped)
        if indented and (previous_blank or in_indented):
            in_indented = True
            out.append(" " * len(line))
            continue
        in_indented = in_indented and not stripped  # a blank line may continue an indented block
        previous_blank = not stripped
        if _MD_DEFINITION.match(line):
            out.append(" " * len(line))
            continue
        out.append(_MD_INLINE.sub(_blank, line))
    return "\n".join(out)


def mask(text: str, markup: str) -> str:
    """``text`` with what ``markup``'s linkifier never links replaced by spaces (same length,
    line breaks kept): see the module's docstring.  ``text`` for ``markup="text"``."""
    if markup == "html":
        return _mask_html(text)
    if markup == "markdown":
        return _mask_markdown(text)
    if markup == "text":
        return text
    raise ValueError(f"unknown markup {markup!r}; expected one of {', '.join(MARKUPS)}")
