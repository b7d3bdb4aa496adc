"""A short plain-text summary of a report, for a terminal (``uts58-adapt report`` with no ``--format``).

The Markdown report has lines of hundreds of characters; on a terminal the command prints
this instead: the counts, the most frequent reasons, the first changes with the link
marked ``⸠…⸡`` before and after, every line cut to the terminal width, and a hint to
write the whole report (``-o audit.html``).  The output is plain text (no colour, no
dependency), so it reads the same in a pager or a log.
"""

from __future__ import annotations

import shutil
import unicodedata
from collections.abc import Mapping
from typing import Any

from .classify import REASONS
from .display import RowText, excerpt, row_text, terminal_safe, visible_text, window

__all__ = ["HINT", "SHOWN", "render_text", "terminal_width", "truncate", "width_of"]

#: The last line: how to get the whole report.
HINT = "Whole report: add -o audit.html (a page with filters), or --format md|json"
#: How many changes the summary lists (the report need not hold more).
SHOWN = 5
#: Code points of context shown each side of a change.
_CONTEXT = 20
_MIN_WIDTH = 40


def terminal_width(default: int = 80) -> int:
    """The width of the terminal on stdout (``$COLUMNS`` first), at least 40 columns."""
    return max(_MIN_WIDTH, shutil.get_terminal_size((default, 24)).columns)


def _char_width(ch: str) -> int:
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def width_of(text: str) -> int:
    """Columns ``text`` takes on a terminal (wide East Asian characters 2, marks 0)."""
    return sum(_char_width(ch) for ch in text)


def truncate(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` columns, ending with ``…`` when it was cut."""
    if width_of(text) <= width:
        return text
    out: list[str] = []
    used = 0
    for ch in text:
        w = _char_width(ch)
        if used + w > width - 1:
            break
        out.append(ch)
        used += w
    return "".join(out) + "…"


def _marked(row: RowText, span: tuple[int, int] | None, lo: int, hi: int) -> str:
    if span is None:
        part = excerpt(row.text, None, lo, hi, row.cut_left, row.cut_right)
        body = visible_text(part.head) + "  (no link)"
    else:
        part = excerpt(row.text, span, lo, hi, row.cut_left, row.cut_right)
        body = visible_text(part.head) + "⸠" + visible_text(part.span or "") + "⸡" + visible_text(part.tail)
    return ("…" if part.cut_left else "") + body + ("…" if part.cut_right and span is not None else "")


def _change_lines(change: Mapping[str, Any]) -> list[str]:
    row = row_text(change)
    lo, hi = window(row.text, [row.before, row.after], _CONTEXT)
    risks = change.get("risks")
    shown = f" (risks: {terminal_safe(', '.join(risks))})" if risks else ""
    return [
        f"  {terminal_safe(str(change['source']))}:{change['line']}:{change['column']}  "
        f"{terminal_safe(str(change['kind']))}, {terminal_safe(str(change['reason']))}{shown}",
        f"    before  {_marked(row, row.before, lo, hi)}",
        f"    after   {_marked(row, row.after, lo, hi)}",
    ]


def _counts(unchanged: int, by_kind: Mapping[str, int]) -> str:
    """``31 unchanged, 29 changed (3 extended, 26 trimmed), 12 added, 6 removed``: counts that add
    up to the links before (unchanged + changed + removed) and after (unchanged + changed + added)."""
    moved = {kind: n for kind, n in by_kind.items() if kind not in ("added", "removed") and n}
    detail = f" ({', '.join(f'{n} {terminal_safe(kind)}' for kind, n in moved.items())})" if moved else ""
    return (
        f"{unchanged} unchanged, {sum(moved.values())} changed{detail}, "
        f"{by_kind.get('added', 0)} added, {by_kind.get('removed', 0)} removed"
    )


def render_text(report: Mapping[str, Any], width: int = 80, changes: int = SHOWN, reasons: int = 5) -> str:
    """The terminal summary of a merged report (see :func:`uts58_adapt.report.merge`).

    ``changes`` and ``reasons``: how many of the first changes and of the most frequent
    reasons to show.  Every line is at most ``width`` columns.
    """
    s = report["summary"]
    by_kind: Mapping[str, int] = s["by_kind"]
    by_reason: Mapping[str, int] = s["by_reason"]
    documents = f"{s['documents']} document{'s' if s['documents'] != 1 else ''}"
    lines = [
        f"{terminal_safe(str(report['backend']))} on {documents}, {s['lines']} lines: "
        f"{s['links_before']} links before UTS #58 refinement, {s['links_after']} after",
        _counts(s["unchanged"], by_kind),
    ]
    audit = report.get("audit")
    if audit is not None:  # what was audited: the command's choice, shown first of the provenance
        lines.append(f"Before: {terminal_safe(str(audit['before']))}; after: {terminal_safe(str(audit['after']))}")
        problems = report.get("problems") or []
        if problems:
            lines.append(f"{len(problems)} input problem{'s' if len(problems) != 1 else ''} (listed in the report)")
    risky = s.get("risky")  # an audit with --reject-risky
    if risky is not None:
        codes = ", ".join(f"{n} {terminal_safe(code)}" for code, n in risky["by_code"].items())
        lines.append(f"{risky['links']} links with a §8 risk" + (f" ({codes})" if codes else ""))
    if by_reason:
        # Most frequent first; ties in the vocabulary's order (the order of by_reason).
        top = sorted(by_reason.items(), key=lambda item: -item[1])[:reasons]
        name_width = max(len(name) for name, _ in top)
        count_width = len(str(top[0][1]))
        lines += ["", "Top reasons:"]
        for name, n in top:
            shown = terminal_safe(name)
            lines.append(f"  {n:>{count_width}}  {shown:<{name_width}}  {REASONS.get(name, '')}".rstrip())
        if len(by_reason) > len(top):
            lines.append(f"  ({len(by_reason) - len(top)} more)")
    listed: list[Mapping[str, Any]] = list(report["changes"])[:changes]
    if listed:
        lines += ["", f"First {len(listed)} of {s['changed']} changes:"]
        for change in listed:
            lines += _change_lines(change)
    lines += ["", HINT]
    return "".join(truncate(line, width) + "\n" for line in lines)
