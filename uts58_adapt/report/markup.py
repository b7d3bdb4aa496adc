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
  HTML blocks (CommonMark's seven kinds, to their end), code spans, autolinks, inline HTML,
  links and images (text and destination; read over the whole paragraph, so a code span or a
  link may run across lines), and link reference definitions.

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
    re.DOTALL,  # (read over a whole paragraph: a code span or a link may run across its lines)
)
_MD_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*\S.*$")

#: CommonMark's HTML blocks (§4.6): the start condition of kinds 1 to 7 and, for 1 to 5, the
#: text that ends the block (on the same line or a later one); 6 and 7 end at a blank line, and
#: 7 cannot interrupt a paragraph.  markdown-it passes their content through: no link in them.
_HTML_BLOCK_TAGS = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|"
    "div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|h6|head|header|hr|html|"
    "iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|"
    "table|tbody|td|tfoot|th|thead|title|tr|track|ul"
)
#: The end of kinds 6 and 7: a blank line (which is not in the block).
_UNTIL_BLANK = re.compile(r"(?!)")
_HTML_BLOCK_STARTS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (
        re.compile(r" {0,3}<(?:script|pre|style|textarea)(?:[\s>]|$)", re.I),
        re.compile(r"</(?:script|pre|style|textarea)>", re.I),
    ),
    (re.compile(r" {0,3}<!--"), re.compile(r"-->")),
    (re.compile(r" {0,3}<\?"), re.compile(r"\?>")),
    (re.compile(r" {0,3}<![A-Za-z]"), re.compile(r">")),
    (re.compile(r" {0,3}<!\[CDATA\["), re.compile(r"\]\]>")),
    (re.compile(rf" {{0,3}}</?(?:{_HTML_BLOCK_TAGS})(?:\s|/?>|$)", re.I), _UNTIL_BLANK),
)
_HTML_BLOCK_7 = re.compile(
    r" {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)*\s*/?>"
    r"|</[A-Za-z][A-Za-z0-9-]*\s*>)\s*$"
)


def _html_block_start(line: str, in_paragraph: bool) -> re.Pattern[str] | None:
    """The end of the HTML block ``line`` starts (:data:`_UNTIL_BLANK` for kinds 6 and 7), or None."""
    for start, end in _HTML_BLOCK_STARTS:
        if start.match(line):
            return end
    if not in_paragraph and _HTML_BLOCK_7.match(line):
        return _UNTIL_BLANK
    return None


def _mask_markdown(text: str) -> str:
    out: list[str] = []
    paragraph: list[str] = []  # the lines of the paragraph being read (inline syntax may span them)
    fence: str | None = None
    html_end: re.Pattern[str] | None = None  # in an HTML block: its end
    previous_blank = True
    in_indented = False

    def flush() -> None:
        if paragraph:
            out.extend(_MD_INLINE.sub(_blank, "\n".join(paragraph)).split("\n"))
            paragraph.clear()

    for line in text.split("\n"):
        stripped = line.strip()
        if html_end is not None:
            if html_end is _UNTIL_BLANK and not stripped:
                html_end = None  # the blank line is the block's end, and is not in it
            else:
                out.append(" " * len(line))
                if html_end.search(line):
                    html_end = None
                continue
        opening = _FENCE.match(line)
        if fence is not None:
            out.append(" " * len(line))
            closing = opening is not None and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence)
            if closing and opening is not None and not line[opening.end() :].strip():
                fence = None
            continue
        if opening is not None:
            flush()
            fence = opening.group(1)
            out.append(" " * len(line))
            continue
        indented = line.startswith(("    ", "\t")) and bool(stripped)
        if indented and (previous_blank or in_indented):
            in_indented = True
            out.append(" " * len(line))
            continue
        in_indented = in_indented and not stripped  # a blank line may continue an indented block
        block = None if indented else _html_block_start(line, bool(paragraph))
        if block is not None:
            flush()
            out.append(" " * len(line))
            # a block of kinds 1 to 5 may end on its first line
            html_end = None if block.search(line, line.find("<") + 2) else block
            previous_blank = False
            continue
        previous_blank = not stripped
        if not stripped:
            flush()
            out.append(line)
            continue
        if _MD_DEFINITION.match(line) and not paragraph:
            out.append(" " * len(line))
            continue
        paragraph.append(line)
    flush()
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
