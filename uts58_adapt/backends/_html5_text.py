"""Where an HTML5 parser sees text in a fragment: the only places a link may be inserted.

``linkify_html`` and the urlize integrations on markup already marked safe copy a
fragment byte for byte and rewrite only its text.  Python's ``html.parser`` does not
tokenize as browsers do (``<p title="><b>…`` is one tag to a browser, text to it), so
this module follows the tokenizer of the HTML Standard (§13.2.5) for what decides where
text is: tags with their attributes (quoted values may hold ``>``; end tags have
attributes too; a tag still open at the end of the input is dropped, with everything
after it), comments (``<!-->``, ``--!>``), bogus comments (``<?…>``, ``</ …>``,
``<!…>``, ``<![CDATA[…>`` outside foreign content), and the elements whose content the
tree builder switches to another tokenizer state: RCDATA (``title``, ``textarea``),
RAWTEXT (``style``, ``xmp``, ``iframe``, ``noembed``, ``noframes``), script data with
its escape states (``script``) and PLAINTEXT (``plaintext``, to the end).

Where the tokenizer state depends on more than this (§13.2.6 tree construction):
foreign content (``svg``, ``math``: CDATA sections, breakout tags), ``noscript`` (raw
text only when scripting is on) and ``select`` (whose content parsing browsers have
changed), the fragment is not linkified from that start tag on: every byte after it is
copied as it is.  Nothing is inserted where one reading of the fragment sees text and
another does not.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache

__all__ = ["RAW_TEXT_ELEMENTS", "STOP_ELEMENTS", "text_runs"]

#: Elements whose content an HTML5 parser never tokenizes as markup (RCDATA, RAWTEXT,
#: script data, PLAINTEXT): never linkified, whatever ``skip`` says.
RAW_TEXT_ELEMENTS = frozenset(
    {"title", "textarea", "style", "xmp", "iframe", "noembed", "noframes", "script", "plaintext"}
)
#: Start tags after which the tokenizer state depends on the tree (see the module docstring).
STOP_ELEMENTS = frozenset({"svg", "math", "noscript", "select"})
#: Elements with no end tag (their start tag never opens a skipped element).
VOID_ELEMENTS = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "keygen",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    }
)

_WS = "\t\n\x0c\r "
_TAG_NAME = re.compile(r"[^\t\n\x0c\r />]*")
_SPACE_SLASH = re.compile(r"[\t\n\x0c\r /]*")
_SPACE = re.compile(r"[\t\n\x0c\r ]*")
_ATTR_NAME = re.compile(r"[^\t\n\x0c\r />][^\t\n\x0c\r />=]*")
_UNQUOTED = re.compile(r"[^\t\n\x0c\r >]*")
_COMMENT_END = re.compile(r"--!?>")
_MARKUP = re.compile(r"<")
_ALPHA = re.compile(r"[A-Za-z]")
_SCRIPT_DATA = re.compile(r"</script(?=[\t\n\x0c\r />])|<!--", re.IGNORECASE)
_SCRIPT_ESCAPED = re.compile(r"-->|</script(?=[\t\n\x0c\r />])|<script(?=[\t\n\x0c\r />])", re.IGNORECASE)
_SCRIPT_DOUBLE = re.compile(r"-->|</script(?=[\t\n\x0c\r />])", re.IGNORECASE)


@lru_cache(maxsize=16)
def _end_tag(name: str) -> re.Pattern[str]:
    """The appropriate end tag of an RCDATA or RAWTEXT element (§13.2.5.11): ``</name`` then space, ``/`` or ``>``."""
    return re.compile(rf"</{name}(?=[\t\n\x0c\r />])", re.IGNORECASE)


def _tag_end(s: str, pos: int) -> int:
    """The end of the tag whose name starts at ``s[pos]`` (after ``<`` or ``</``), or -1 at the end of input.

    §13.2.5.8-13.2.5.40: tag name, attribute names and values (double-quoted,
    single-quoted, unquoted), self-closing flag.  A tag open at the end of the input is
    dropped by the parser (eof-in-tag), with all that follows.
    """
    n = len(s)
    pos = _TAG_NAME.match(s, pos).end()  # type: ignore[union-attr]  # ``*`` always matches
    while True:
        pos = _SPACE_SLASH.match(s, pos).end()  # type: ignore[union-attr]
        if pos >= n:
            return -1
        if s[pos] == ">":
            return pos + 1
        pos = _ATTR_NAME.match(s, pos).end()  # type: ignore[union-attr]  # s[pos] is a name character
        pos = _SPACE.match(s, pos).end()  # type: ignore[union-attr]
        if pos >= n:
            return -1
        if s[pos] != "=":
            continue  # "/", ">" or the next attribute's name
        pos = _SPACE.match(s, pos + 1).end()  # type: ignore[union-attr]
        if pos >= n:
            return -1
        quote = s[pos]
        if quote in "\"'":
            close = s.find(quote, pos + 1)
            if close == -1:
                return -1
            pos = close + 1
        elif quote == ">":
            return pos + 1
        else:
            pos = _UNQUOTED.match(s, pos).end()  # type: ignore[union-attr]


def _script_end(s: str, pos: int) -> int:
    """Where the script data from ``pos`` ends: the ``<`` of its end tag, or ``len(s)`` (§13.2.5.4, .15-.30)."""
    state = 0  # 0: script data, 1: escaped (after "<!--"), 2: double escaped (after "<!--<script")
    while True:
        pattern = (_SCRIPT_DATA, _SCRIPT_ESCAPED, _SCRIPT_DOUBLE)[state]
        m = pattern.search(s, pos)
        if m is None:
            return len(s)
        token = m.group().lower()
        if token == "<!--":
            state, pos = 1, m.end() - 2  # "<!-->" leaves at once: its "--" counts for "-->"
        elif token == "-->":
            state, pos = 0, m.end()
        elif token == "<script":
            state, pos = 2, m.end()
        elif state == 2:  # "</script" in double escaped: back to escaped
            state, pos = 1, m.end()
        else:
            return m.start()


def text_runs(source: str, skip: Collection[str] = ()) -> list[tuple[int, int]]:
    """The ``(start, end)`` ranges of ``source`` that an HTML5 parser reads as text and that may be linkified.

    Text in the content of an element named in ``skip`` (``a``, ``pre``…; lower case)
    or of a raw text element (:data:`RAW_TEXT_ELEMENTS`) is not returned, nor anything
    after a start tag of :data:`STOP_ELEMENTS`.  Runs are maximal: a ``<`` that starts no
    markup (``a < b``) is text.  Linear time: every search starts where the last one ended.
    """
    n = len(source)
    runs: list[tuple[int, int]] = []
    open_skips: list[str] = []
    text_start = 0
    pos = 0

    def text_until(end: int) -> None:
        if end > text_start and not open_skips:
            runs.append((text_start, end))

    while True:
        m = _MARKUP.search(source, pos)
        if m is None:
            text_until(n)
            return runs
        lt = m.start()
        nxt = source[lt + 1 : lt + 2]
        end: int
        if _ALPHA.match(nxt):  # a start tag
            end = _tag_end(source, lt + 1)
            text_until(lt)
            if end == -1:
                return runs
            name = _TAG_NAME.match(source, lt + 1).group().lower()  # type: ignore[union-attr]
            if name in STOP_ELEMENTS:
                return runs
            if name == "plaintext":
                return runs
            if name in RAW_TEXT_ELEMENTS:
                close = _script_end(source, end) if name == "script" else -1
                if name != "script":
                    cm = _end_tag(name).search(source, end)
                    close = cm.start() if cm else n
                if close >= n:
                    return runs
                end = _tag_end(source, close + 2)
                if end == -1:
                    return runs
            elif name in skip and name not in VOID_ELEMENTS:
                open_skips.append(name)
        elif nxt == "/":
            after = source[lt + 2 : lt + 3]
            if _ALPHA.match(after):  # an end tag
                end = _tag_end(source, lt + 2)
                text_until(lt)
                if end == -1:
                    return runs
                name = _TAG_NAME.match(source, lt + 2).group().lower()  # type: ignore[union-attr]
                if name in open_skips:
                    while open_skips.pop() != name:
                        pass
            elif after == ">":  # "</>": nothing
                end = lt + 3
                text_until(lt)
            elif not after:  # "</" at the end: text
                text_until(n)
                return runs
            else:  # "</ …>": a bogus comment
                close = source.find(">", lt + 2)
                text_until(lt)
                if close == -1:
                    return runs
                end = close + 1
        elif nxt == "!":
            text_until(lt)
            if source.startswith("--", lt + 2):
                p = lt + 4
                if source.startswith(">", p):
                    end = p + 1
                elif source.startswith("->", p):
                    end = p + 2
                else:
                    cm = _COMMENT_END.search(source, p)
                    if cm is None:
                        return runs
                    end = cm.end()
            else:  # DOCTYPE, CDATA outside foreign content, other bogus comments: up to ">"
                close = source.find(">", lt + 2)
                if close == -1:
                    return runs
                end = close + 1
        elif nxt == "?":  # a bogus comment
            text_until(lt)
            close = source.find(">", lt + 2)
            if close == -1:
                return runs
            end = close + 1
        else:  # "<" followed by anything else (or nothing) is text
            pos = lt + 1
            continue
        text_start = pos = end
