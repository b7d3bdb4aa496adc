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
from html.entities import html5 as _NAMED

__all__ = ["RAW_TEXT_ELEMENTS", "STOP_ELEMENTS", "decode_text", "text_runs"]

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


#: §13.2.5.80 numeric character reference end state: the references replaced by another character.
_NUMERIC_REPLACEMENTS = {
    0x80: "\u20ac",
    0x82: "\u201a",
    0x83: "\u0192",
    0x84: "\u201e",
    0x85: "\u2026",
    0x86: "\u2020",
    0x87: "\u2021",
    0x88: "\u02c6",
    0x89: "\u2030",
    0x8A: "\u0160",
    0x8B: "\u2039",
    0x8C: "\u0152",
    0x8E: "\u017d",
    0x91: "\u2018",
    0x92: "\u2019",
    0x93: "\u201c",
    0x94: "\u201d",
    0x95: "\u2022",
    0x96: "\u2013",
    0x97: "\u2014",
    0x98: "\u02dc",
    0x99: "\u2122",
    0x9A: "\u0161",
    0x9B: "\u203a",
    0x9C: "\u0153",
    0x9E: "\u017e",
    0x9F: "\u0178",
}
#: A character reference in text (§13.2.5.72): numeric, or a name (the longest known prefix counts).
_CHARREF = re.compile(r"&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)")


def _charref(m: re.Match[str]) -> str:
    s = m.group(1)
    if s[0] == "#":
        digits = s[2:] if s[1] in "xX" else s[1:]
        digits = digits.rstrip(";").lstrip("0") or "0"
        # more than 8 digits is past U+10FFFF in either base (and int() refuses 4,300 decimal digits)
        code = int(digits, 16 if s[1] in "xX" else 10) if len(digits) <= 8 else 0x110000
        # §13.2.5.80: null, surrogates and past U+10FFFF are U+FFFD; the table replaces some C1
        # controls; every other control and noncharacter is kept (a parse error, not a loss)
        if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            return "\ufffd"
        return _NUMERIC_REPLACEMENTS.get(code) or chr(code)
    if s in _NAMED:
        return _NAMED[s]
    for end in range(len(s) - 1, 1, -1):  # a legacy name without ";" followed by more (&notit;)
        if s[:end] in _NAMED:
            return _NAMED[s[:end]] + s[end:]
    return "&" + s


def decode_text(raw: str) -> str:
    """The characters an HTML5 parser reads from the text ``raw``: newlines normalized, character references decoded.

    §13.2.3.5 (CR LF and CR are LF), §13.2.5.72-80, in the data state: named references (the longest name that matches,
    legacy names without ``;``), numeric references with the replacement table; a
    reference to a control or a noncharacter is that character (``&#6;`` is U+0006, not
    nothing as ``html.unescape`` makes it).
    """
    if "\r" in raw:  # §13.2.3.5: the input stream's CR LF and CR are LF
        raw = raw.replace("\r\n", "\n").replace("\r", "\n")
    return _CHARREF.sub(_charref, raw) if "&" in raw else raw
