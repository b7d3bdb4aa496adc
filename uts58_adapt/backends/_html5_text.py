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

Where the text is in the tree (§13.2.6 tree construction) decides whether it is in a
skipped element: an ``</a>`` that is not in scope (a ``table``, ``td``, ``object``… opened
after the ``a`` and still open) is ignored, an ``a`` closed by the end tag of an element
around it is reconstructed for the text after it, and the adoption agency leaves a clone
open after eight special elements (:class:`_Tree`, which holds at least what the tree holds
open).  Every ``a`` is skipped, whatever ``skip`` says: an anchor is never put in another.

Foreign content (``svg``, ``math``) is followed while it is foreign content only (its own
CDATA sections, end tags of its open elements); a breakout tag, an integration point or an
end tag the HTML rules handle stops the scan.  ``select`` is followed only through
``option``, ``optgroup`` and ``hr`` (its content parsing changed in the Standard in 2025).
``noscript`` is read as html5lib and bleach read it, with scripting off: its content is
markup; with scripting on (a browser) it is raw text up to ``</noscript``, so in its
content nothing closes, and both readings must meet at that end tag.  Text in foreign
content or a ``select`` is not returned; where the readings could differ, nothing from
there on is: every byte after it is copied as it is.  Nothing is inserted where one
reading of the fragment sees text and another does not.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Collection
from functools import lru_cache
from html.entities import html5 as _NAMED

__all__ = ["RAW_TEXT_ELEMENTS", "decode_text", "text_runs"]

#: Elements whose content an HTML5 parser never tokenizes as markup (RCDATA, RAWTEXT,
#: script data, PLAINTEXT): never linkified, whatever ``skip`` says.
RAW_TEXT_ELEMENTS = frozenset(
    {"title", "textarea", "style", "xmp", "iframe", "noembed", "noframes", "script", "plaintext"}
)
#: §13.2.4.3: the formatting elements (their end tag runs the adoption agency algorithm).
FORMATTING = frozenset(
    {"a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u"}
)
#: §13.2.4.2: the HTML elements that end a scope ("has an element in scope"); ``html`` is never opened
#: twice, and foreign content is not followed far enough to hold one.
SCOPE_BOUNDARIES = frozenset({"applet", "caption", "marquee", "object", "table", "td", "th", "template"})
#: §13.2.4.2: the special elements that a start tag opens, without the void, raw text and foreign ones,
#: ``html``, ``head``, ``body`` and ``frameset`` (which the tree never opens twice) and the table parts
#: (``tbody``, ``tr``…: always inside a ``table`` or ``template``, which already ends every scope).
SPECIAL = SCOPE_BOUNDARIES | frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "button",
        "center",
        "dd",
        "details",
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
        "li",
        "listing",
        "main",
        "menu",
        "nav",
        "noscript",
        "ol",
        "p",
        "pre",
        "search",
        "section",
        "summary",
        "ul",
    }
)
#: §13.2.6.4.7: end tags that close their element when it is in scope, whatever is above it.
SCOPED_END = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "button",
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
        "header",
        "hgroup",
        "listing",
        "main",
        "menu",
        "nav",
        "ol",
        "pre",
        "search",
        "section",
        "summary",
        "ul",
    }
)
#: §13.2.6.4.15, .11: start tags that close the current cell or caption.
_CELL_STARTS = frozenset({"caption", "col", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr"})
#: §13.2.6.4.7: start tags that close a ``p`` element in button scope.
_CLOSES_P = SCOPED_END - {"button", "dd", "dt"} | frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "form", "li", "p"})
#: §13.2.6.5: start tags that leave foreign content (``font`` only with some attributes: all of them here).
_BREAKOUT = frozenset(
    {"b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed", "font"}
    | {"h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol"}
    | {"p", "pre", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var"}
)
#: §13.2.6.5 and 13.2.4.2: foreign elements whose content follows the HTML rules (in any namespace here).
_INTEGRATION_POINTS = frozenset({"foreignobject", "desc", "title", "mi", "mo", "mn", "ms", "mtext", "annotation-xml"})
_HTML, _FOREIGN, _SELECT = 0, 1, 2
#: The start and end tags :class:`_Tree` acts on (besides the skipped ones).
_FOLLOWED = SPECIAL | _CELL_STARTS | _CLOSES_P | {"a"}
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
    """The end of the tag whose name starts at ``s[pos]`` (after ``<`` or ``</``), or -1 at the end of input."""
    return _tag(s, pos)[0]


def _tag(s: str, pos: int) -> tuple[int, bool]:
    """The end of the tag whose name starts at ``s[pos]`` (-1 at the end of input), and its self-closing flag.

    §13.2.5.8-13.2.5.40: tag name, attribute names and values (double-quoted,
    single-quoted, unquoted), self-closing flag (a ``/`` right before ``>``, not in a
    value).  A tag open at the end of the input is dropped by the parser (eof-in-tag), with
    all that follows.
    """
    n = len(s)
    pos = _TAG_NAME.match(s, pos).end()  # type: ignore[union-attr]  # ``*`` always matches
    while True:
        before = pos
        pos = _SPACE_SLASH.match(s, pos).end()  # type: ignore[union-attr]
        if pos >= n:
            return -1, False
        if s[pos] == ">":
            return pos + 1, pos > before and s[pos - 1] == "/"
        pos = _ATTR_NAME.match(s, pos).end()  # type: ignore[union-attr]  # s[pos] is a name character
        pos = _SPACE.match(s, pos).end()  # type: ignore[union-attr]
        if pos >= n:
            return -1, False
        if s[pos] != "=":
            continue  # "/", ">" or the next attribute's name
        pos = _SPACE.match(s, pos + 1).end()  # type: ignore[union-attr]
        if pos >= n:
            return -1, False
        quote = s[pos]
        if quote in "\"'":
            close = s.find(quote, pos + 1)
            if close == -1:
                return -1, False
            pos = close + 1
        elif quote == ">":
            return pos + 1, False
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


class _Tree:
    """What of the tree construction (§13.2.6) decides whether text is in a skipped element.

    ``open_skips``: per name, the serials (start tag order) of the skipped elements (and of
    every ``a``) that may still hold the text that follows; ``skipping``: how many.
    ``tracked`` and ``serials``: the special elements (§13.2.4.2) that may still be open, with
    their serials; ``boundaries``: the serials of the scope boundaries among them.  Both only
    ever hold more than the tree does: a special element leaves ``tracked`` only at the top
    (its end tag, or a start tag that closes it), and a skipped element leaves
    ``open_skips`` only when its end tag closes it in the tree, so an unsure case keeps text
    skipped, never the reverse.  ``quiet``: in ``noscript`` content (markup with scripting
    off, raw text with it on) nothing closes, only opens.
    """

    __slots__ = ("boundaries", "open_skips", "quiet", "serial", "serials", "skip", "skipping", "tables", "tracked")

    def __init__(self, skip: Collection[str]) -> None:
        self.skip = skip
        self.open_skips: dict[str, list[int]] = {}
        self.skipping = 0
        self.tracked: list[str] = []
        self.serials: list[int] = []
        self.boundaries: list[int] = []  # serials of the scope boundaries in ``tracked``
        self.serial = 0
        self.quiet = False
        self.tables = 0  # how many ``table`` and ``template`` elements ``tracked`` holds

    def _push(self, name: str) -> None:
        self.tracked.append(name)
        self.serials.append(self.serial)
        if name in SCOPE_BOUNDARIES:
            self.boundaries.append(self.serial)
            if name in ("table", "template"):
                self.tables += 1

    def _pop(self) -> None:
        if self.tracked.pop() in ("table", "template"):
            self.tables -= 1
        serial = self.serials.pop()
        if self.boundaries and self.boundaries[-1] == serial:
            self.boundaries.pop()

    def top(self, depth: int = 1) -> str:
        return self.tracked[-depth] if len(self.tracked) >= depth else ""

    def _closes(self, name: str, serial: int) -> bool:
        """Whether the end tag ``name`` closes the open element ``name`` started at ``serial`` (§13.2.6.4.7)."""
        if self.boundaries and self.boundaries[-1] > serial:
            return False  # not in scope ("has an element in scope"): the end tag is ignored
        if name in FORMATTING:
            # the adoption agency runs its outer loop 8 times: each special element above the
            # element takes one, so from 8 on a clone of it stays open (and holds what follows)
            return len(self.serials) - bisect.bisect_right(self.serials, serial) < 8
        if name in SCOPED_END:
            return True
        # "any other end tag": a special element above it makes the end tag ignored
        return not self.serials or self.serials[-1] <= serial

    def _close_skip(self, name: str) -> bool:
        """Close the innermost open skipped element ``name`` if the end tag does; whether it did."""
        serials = self.open_skips.get(name)
        if not serials or not self._closes(name, serials[-1]):
            return False
        serials.pop()  # only it: a formatting element above it is reconstructed later
        self.skipping -= 1
        return True

    def start(self, name: str) -> None:
        """A start tag (not void, not raw text, not self-closing foreign content)."""
        self.serial += 1
        if not self.quiet and self.tracked:
            top = self.tracked[-1]
            if (
                (name == "table" and top == "table")  # §13.2.6.4.9: a table in a table closes it
                or (name in _CELL_STARTS and top in ("td", "th", "caption"))  # §13.2.6.4.15, .11: the cell closes
                or (name in _CLOSES_P and top == "p")
                or (name == "li" and top == "li")
                or (name in ("dd", "dt") and top in ("dd", "dt"))
            ):
                self._pop()
        if name == "a" and not self.quiet:  # §13.2.6.4.7: a second "a" runs the adoption agency for the first
            self._close_skip("a")
        if name in SPECIAL:
            self._push(name)
        if name in self.skip or name == "a":
            self.open_skips.setdefault(name, []).append(self.serial)
            self.skipping += 1

    def end(self, name: str) -> None:
        """An end tag."""
        if self.quiet:
            return
        if name in self.skip or name == "a":
            self._close_skip(name)
        top = self.top()
        if top == name:
            self._pop()
        elif name in ("table", "tr") and top in ("td", "th", "caption") and self.top(2) == "table":
            self._pop()  # the cell (caption) closes, then the table (the row)
            if name == "table":
                self._pop()


def text_runs(source: str, skip: Collection[str] = (), in_table: list[bool] | None = None) -> list[tuple[int, int]]:
    """The ``(start, end)`` ranges of ``source`` that an HTML5 parser reads as text and that may be linkified.

    Text in the content of an ``a`` element or of an element named in ``skip`` (``pre``,
    ``code``…; lower case), as the tree construction decides it (:class:`_Tree`), or of a
    raw text element (:data:`RAW_TEXT_ELEMENTS`), foreign content or ``select`` is not
    returned, nor anything after a point where two readings of the markup differ (see the
    module docstring).  Runs are maximal: a ``<`` that starts no markup (``a < b``) is
    text.  Linear time: every search starts where the last one ended.

    ``in_table``: when given, gets for each run whether a ``table`` or ``template`` may be
    open around it.  Text right in a table is moved before it (foster parenting), except
    white space alone, which stays: a run may be cut only where no piece is white space alone.
    """
    n = len(source)
    runs: list[tuple[int, int]] = []
    tree = _Tree(skip)
    # the names the tree follows: any other start or end tag changes nothing there
    followed = _FOLLOWED.union(skip)
    text_start = 0
    pos = 0
    mode = _HTML
    foreign: list[str] = []  # the open foreign elements (an exact stack, else the scan stops)
    in_foreign: dict[str, int] = {}  # how many of each name ``foreign`` holds
    noscript_end = -1  # in noscript content: where its raw text ends for a parser with scripting on

    def text_until(end: int) -> None:
        # text right in a table (or a template's table parts) is "in table text" (§13.2.6.4.10): an
        # anchor would leave the white space before it in the table and move the rest out of it
        if (
            end > text_start
            and mode == _HTML
            and not tree.skipping
            and not (tree.tracked and tree.tracked[-1] in ("table", "template"))
        ):
            runs.append((text_start, end))
            if in_table is not None:
                in_table.append(tree.tables > 0)

    while True:
        m = _MARKUP.search(source, pos)
        if m is None:
            text_until(n)
            return runs
        lt = m.start()
        if lt == noscript_end:  # both readings are at the noscript end tag
            tree.quiet = False
            noscript_end = -1
        nxt = source[lt + 1 : lt + 2]
        end: int
        if _ALPHA.match(nxt):  # a start tag
            end, self_closing = _tag(source, lt + 1)
            text_until(lt)
            if end == -1:
                return runs
            name = _TAG_NAME.match(source, lt + 1).group().lower()  # type: ignore[union-attr]
            if mode == _FOREIGN:
                if name in _BREAKOUT or foreign[-1] in _INTEGRATION_POINTS:
                    return runs  # §13.2.6: a start tag read by the HTML rules: not followed
                if not self_closing:
                    foreign.append(name)
                    in_foreign[name] = in_foreign.get(name, 0) + 1
            elif mode == _SELECT:
                if name not in ("option", "optgroup", "hr"):
                    return runs  # select parsing differs between the Standard's versions
            elif name in ("svg", "math"):
                if not self_closing:
                    mode = _FOREIGN
                    foreign.append(name)
                    in_foreign[name] = 1
            elif name == "select":
                mode = _SELECT
            elif name == "plaintext":
                return runs
            elif name in RAW_TEXT_ELEMENTS:
                close = _script_end(source, end) if name == "script" else -1
                if name != "script":
                    cm = _end_tag(name).search(source, end)
                    close = cm.start() if cm else n
                if close >= n:
                    return runs
                end = _tag_end(source, close + 2)
                if end == -1:
                    return runs
            elif name not in VOID_ELEMENTS:
                if name == "noscript" and noscript_end == -1:
                    cm = _end_tag("noscript").search(source, end)
                    noscript_end = cm.start() if cm else n
                    tree.start(name)
                    tree.quiet = True
                elif name in followed:
                    tree.start(name)
        elif nxt == "/":
            after = source[lt + 2 : lt + 3]
            if _ALPHA.match(after):  # an end tag
                end = _tag(source, lt + 2)[0]
                text_until(lt)
                if end == -1:
                    return runs
                name = _TAG_NAME.match(source, lt + 2).group().lower()  # type: ignore[union-attr]
                if mode == _FOREIGN:
                    if name in ("p", "br") or not in_foreign.get(name):
                        return runs  # §13.2.6.5: handled by the HTML rules: not followed
                    while True:  # "any other end tag": up to the nearest element of that name
                        popped = foreign.pop()
                        in_foreign[popped] -= 1
                        if popped == name:
                            break
                    if not foreign:
                        mode = _HTML
                elif mode == _SELECT:
                    if name == "select":
                        mode = _HTML
                    elif name not in ("option", "optgroup"):
                        return runs
                elif name in followed:
                    tree.end(name)
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
            elif mode == _FOREIGN and source.startswith("[CDATA[", lt + 2):  # §13.2.5.69: a CDATA section
                close = source.find("]]>", lt + 9)
                if close == -1:
                    return runs
                end = close + 3
            elif mode == _SELECT:
                return runs
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
        if lt < noscript_end < end:
            return runs  # the noscript end tag is inside markup for one reading only
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
