"""The report as one standalone HTML page.

Everything is inline (CSS, a few lines of JavaScript for the filters); a
Content-Security-Policy forbids any load from the network.  All text from the input
is escaped.  Each change is a table row with the line around it twice, side by side:
the backend's link highlighted ("before") and the refined one ("after").  Without
JavaScript every row is shown.
"""

from __future__ import annotations

import re
from html import escape
from importlib import resources
from typing import Any

from .classify import KINDS, REASONS
from .display import RowText, excerpt, row_text, visible_pieces, window

__all__ = ["render_html"]

_MARKER = re.compile(r"@@([A-Z_]+)@@")


def _template() -> str:
    return (resources.files(__package__) / "template.html").read_text(encoding="utf-8")


def _text(text: str) -> str:
    """Escaped ``text``, invisible and Hard code points shown as ``U+XXXX`` badges."""
    out = []
    for piece, code in visible_pieces(text):
        out.append(f'<span class="cp">{piece}</span>' if code else escape(piece))
    return "".join(out)


def _cell(row: RowText, span: tuple[int, int] | None, lo: int, hi: int, side: str) -> str:
    ex = excerpt(row.text, span, lo, hi, row.cut_left, row.cut_right)
    parts = []
    if ex.span is None:
        parts.append('<span class="nolink">no link</span>\n')
    if ex.cut_left:
        parts.append('<span class="cut">…</span>')
    parts.append(_text(ex.head))
    if ex.span is not None:
        parts.append(f'<mark class="{side}">{_text(ex.span)}</mark>{_text(ex.tail)}')
    if ex.cut_right:
        parts.append('<span class="cut">…</span>')
    return f'<td class="text {side}" dir="auto">{"".join(parts)}</td>'


def _table(caption: str, rows: list[tuple[str, int, str]], with_meaning: bool) -> str:
    head = f"<tr><th>{escape(caption)}</th><th>count</th>" + ("<th>meaning</th>" if with_meaning else "") + "</tr>"
    body = []
    for name, count, meaning in rows:
        cells = f'<td>{escape(name)}</td><td class="num">{count}</td>'
        if with_meaning:
            cells += f"<td>{escape(meaning)}</td>"
        body.append(f"<tr>{cells}</tr>")
    if not rows:
        body.append(f'<tr><td>(none)</td><td class="num">0</td>{"<td></td>" if with_meaning else ""}</tr>')
    return f"<table><thead>{head}</thead><tbody>{''.join(body)}</tbody></table>"


def render_html(report: dict[str, Any]) -> str:
    """Return ``report`` (from :func:`~uts58_adapt.report.core.merge`) as a standalone HTML page."""
    s = report["summary"]
    counts = [
        (key.replace("_", " "), s[key], "")
        for key in ("documents", "lines", "links_before", "links_after", "unchanged", "changed")
        if key in s
    ]
    summary = "\n".join(
        [
            _table("", counts, False),
            _table("change", [(k, n, KINDS.get(k, "")) for k, n in s["by_kind"].items()], True),
            _table("reason", [(r, n, REASONS.get(r, "")) for r, n in s["by_reason"].items()], True),
        ]
    )
    rows = []
    for c in report["changes"]:
        row = row_text(c)
        lo, hi = window(row.text, [row.before, row.after])
        rows.append(
            f'<tr class="change" data-kind="{escape(c["kind"])}" data-reason="{escape(c["reason"])}">'
            f'<td class="where">{escape(c["source"])}:{c["line"]}:{c["column"]}</td>'
            f'<td class="kind">{escape(c["kind"])}</td><td class="reason" title="{escape(REASONS.get(c["reason"], ""))}">'
            f"{escape(c['reason'])}</td>"
            f"{_cell(row, row.before, lo, hi, 'before')}{_cell(row, row.after, lo, hi, 'after')}</tr>"
        )
    title = f"UTS #58 link audit: {report['backend']}"
    intro = (
        f"Unicode {report['unicode_version']}. Before is the backend's own link, after the same link "
        "refined to UTS #58 (highlighted). Invisible and Link_Term=Hard characters are shown as U+XXXX; "
        "columns count code points from 1. Unchanged links are counted, not listed."
    )
    values = {
        "TITLE": escape(title),
        "INTRO": escape(intro),
        "SUMMARY": summary,
        "KIND_OPTIONS": "".join(
            f'<option value="{escape(k)}">{escape(k)} ({n})</option>' for k, n in s["by_kind"].items()
        ),
        "REASON_OPTIONS": "".join(
            f'<option value="{escape(r)}">{escape(r)} ({n})</option>' for r, n in s["by_reason"].items()
        ),
        "TOTAL": str(len(report["changes"])),
        "ROWS": "\n".join(rows),
    }
    # One pass, so text inserted for one marker is never searched for another.
    return _MARKER.sub(lambda m: values[m.group(1)], _template())
