"""Markup-aware input (``uts58-adapt report --markup``): audit HTML and Markdown where a markup linkifier links.

A CMS export or a docs tree is rendered through a markup linkifier, which links only in the
document's text: auditing its source as plain text reports links running into ``<br></span``.
:func:`mask` returns the source with everything that is not such text replaced by spaces,
code point for code point (line breaks kept), so the audit's lines, columns and spans still
point into the source file:

- ``html`` (as ``linkify_html`` reads a document): tags with their attributes, comments,
  doctypes and processing instructions, the content of ``script``, ``style``, ``textarea``,
  ``title`` and other raw-text elements, and existing ``a`` elements with their text;
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


_HTML_MASK = re.compile(
    r"<!--.*?(?:-->|\Z)"  # a comment (an unclosed one runs to the end)
    r"|<(script|style|textarea|title|xmp|iframe|noembed|noframes|noscript)\b[^>]*>.*?(?:</\1\s*>|\Z)"
    r"|<a\b[^>]*>.*?(?:</a\s*>|\Z)"  # an existing link: linkify_html leaves its text alone
    r"|<[!?/]?[A-Za-z][^>]*>?"  # any other tag, doctype or processing instruction, with its attributes
    r"|<[!?][^>]*>?",
    re.IGNORECASE | re.DOTALL,
)

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
        return _HTML_MASK.sub(_blank, text)
    if markup == "markdown":
        return _mask_markdown(text)
    if markup == "text":
        return text
    raise ValueError(f"unknown markup {markup!r}; expected one of {', '.join(MARKUPS)}")
