"""Helpers shared by the Markdown and HTML renderers: excerpts and visible code points."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any, NamedTuple

from ..properties import FLAGS, HARD, TERM_MASK

__all__ = [
    "CONTEXT",
    "Excerpt",
    "RowText",
    "excerpt",
    "provenance",
    "row_text",
    "terminal_safe",
    "visible_pieces",
    "visible_text",
    "window",
]

#: Code points of context kept on each side of a change.
CONTEXT = 40
#: Format characters shown as they are (they shape text in Arabic, Indic, emoji…).
_JOINERS = {"\u200c", "\u200d"}


def _shown_as_code(ch: str) -> bool:
    """Whether ``ch`` is shown as ``U+XXXX``: Hard characters other than the space,
    and format characters other than ZWJ/ZWNJ (they are invisible or misleading in place)."""
    if ch == " ":
        return False
    if FLAGS[ord(ch)] & TERM_MASK == HARD:
        return True
    return ch not in _JOINERS and unicodedata.category(ch) == "Cf"


#: The printable code points (``str.isprintable``) that are shown as code: the Deprecated ones,
#: which are Link_Term=Hard (tests/test_report_render.py checks the list against every code point).
PRINTABLE_HARD = frozenset("\u0149\u0673\u0f77\u0f79\u17a3\u17a4\u2329\u232a")


def visible_pieces(text: str) -> list[tuple[str, bool]]:
    """Split ``text`` into ``(piece, is_code)``: runs of ordinary text, and single
    invisible or Hard code points as ``"U+XXXX"`` (``is_code`` True)."""
    if text.isprintable() and PRINTABLE_HARD.isdisjoint(text):  # the common case, at C speed
        return [(text, False)] if text else []
    out: list[tuple[str, bool]] = []
    run: list[str] = []
    for ch in text:
        if _shown_as_code(ch):
            if run:
                out.append(("".join(run), False))
                run = []
            out.append((f"U+{ord(ch):04X}", True))
        else:
            run.append(ch)
    if run:
        out.append(("".join(run), False))
    return out


def visible_text(text: str) -> str:
    """``text`` with invisible and Hard code points written ``⟨U+XXXX⟩``."""
    return "".join(f"⟨{piece}⟩" if code else piece for piece, code in visible_pieces(text))


_CONTROL_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})


def terminal_safe(text: str) -> str:
    """``text`` with control and format characters (``ESC``, ``CR``, bidi controls, line and
    paragraph separators) written ``⟨U+XXXX⟩``: a file name printed on a terminal cannot
    clear the screen, change colours or reorder what follows (issue 23.5)."""
    if text.isprintable():
        return text
    return "".join(f"⟨U+{ord(ch):04X}⟩" if unicodedata.category(ch) in _CONTROL_CATEGORIES else ch for ch in text)


class Excerpt(NamedTuple):
    """A window of a line: text before the span, the span (None when there is no link), after."""

    cut_left: bool
    head: str
    span: str | None
    tail: str
    cut_right: bool


def window(line: str, spans: list[tuple[int, int] | None], context: int = CONTEXT) -> tuple[int, int]:
    """The part of ``line`` shown for a change: its spans plus ``context`` code points each side."""
    real = [s for s in spans if s is not None]
    first = min(s[0] for s in real) if real else 0
    last = max(s[1] for s in real) if real else len(line)
    lo, hi = max(0, first - context), min(len(line), last + context)
    # Do not start or end a cut excerpt on a space.
    while 0 < lo < first and line[lo] == " ":
        lo += 1
    while last < hi < len(line) and line[hi - 1] == " ":
        hi -= 1
    return lo, hi


def excerpt(
    line: str, span: tuple[int, int] | None, lo: int, hi: int, cut_left: bool = False, cut_right: bool = False
) -> Excerpt:
    """Cut ``line[lo:hi]`` around ``span`` (which lies inside the window); ``cut_left`` and
    ``cut_right``: ``line`` itself is only part of a longer line, cut there."""
    left, right = cut_left or lo > 0, cut_right or hi < len(line)
    if span is None:
        return Excerpt(left, line[lo:hi], None, "", right)
    s, e = span
    return Excerpt(left, line[lo:s], line[s:e], line[e:hi], right)


class RowText(NamedTuple):
    """The text a report row carries, with its spans within that text (see :func:`row_text`)."""

    text: str
    before: tuple[int, int] | None
    after: tuple[int, int] | None
    cut_left: bool  # the text is part of a longer line, cut on the left
    cut_right: bool


def row_text(change: Mapping[str, Any]) -> RowText:
    """The line text of a report row and its spans within it.

    A row of a long line carries only the part of it around the change (``line_text``
    starting at ``line_text_start`` in a line of ``line_length`` code points: see
    :func:`~uts58_adapt.report.core.change_row`); its spans count from the line's start.
    """
    text = str(change["line_text"])
    start = int(change.get("line_text_start", 0))
    length = int(change.get("line_length", start + len(text)))
    spans = [
        (int(span[0]) - start, int(span[1]) - start) if span else None for span in (change["before"], change["after"])
    ]
    return RowText(text, spans[0], spans[1], start > 0, start + len(text) < length)


def _compact(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))


def provenance(head: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The report's provenance as ``(label, text)`` lines, for the Markdown, HTML and text reports:
    what was audited, the tool, the libraries, the configuration, the data, the options, the inputs
    (each with its lines) and every problem with an input.  Empty for a report without it (the API's
    :func:`~.core.merge` without ``meta``)."""
    if "audit" not in head:
        return []
    audit = head["audit"]
    out = [
        ("before", str(audit.get("before"))),
        ("after", str(audit.get("after"))),
        ("tool", f"{head['tool']['name']} {head['tool']['version']}"),
        ("libraries", ", ".join(f"{name} {version}" for name, version in head["libraries"].items()) or "(none)"),
        ("configuration", _compact(head["configuration"])),
        ("data", ", ".join(f"{name} {version}" for name, version in head["data"].items())),
        ("options", _compact(head["options"])),
    ]
    inputs = head.get("inputs", [])
    out.append(("inputs", f"{len(inputs)} read"))
    out.extend(("input", f"{item['source']} ({item['lines']} lines)") for item in inputs)
    problems = head.get("problems", [])
    out.append(("problems", f"{len(problems)}"))
    out.extend(("problem", message) for message in problems)
    return out
