"""The report as one standalone HTML page, for an auditor.

Everything is inline (CSS, inline SVG charts, a little JavaScript); a
Content-Security-Policy forbids any load from the network.  All text from the input is
escaped (in the markup) or written through ``textContent`` (by the script), and the data
block is JSON with ``<``, ``>`` and ``&`` escaped, so no input can become markup.

The page holds:

- the summary: the counts, bar charts of the kinds and the reasons, and a per-file
  breakdown (the files with most changes, each bar split by kind);
- the changes, one row each: where (source:line:column), kind, reason, and the line
  around the change twice, the backend's link ("before") and the refined one ("after")
  highlighted, the characters refinement drops struck through and those it adds
  underlined, and under each its href;
- with ``--reject-risky`` (the summary has ``risky``), a risks column (the §8 risks of
  each change's refined link), the count of risky links by code, and a risk filter;
- sorting (click a column head), a search box (file names, link texts and hrefs), the
  kind and reason filters, and pages of 100 rows (or 50, 500, 1000), so that a report of
  100,000 changes and more stays responsive: the rows are data (a JSON block) and only
  the current page is in the document.

Without JavaScript, the first :data:`STATIC_ROWS` rows are in the page as markup (all of
them in a smaller report) and a note says how to see the rest.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from html import escape
from importlib import resources
from itertools import chain, islice
from typing import Any

from .classify import KINDS, REASONS, RISKS
from .display import RowText, excerpt, provenance, row_text, visible_pieces, visible_text, window

__all__ = ["PAGE_ROWS", "STATIC_ROWS", "file_counts", "html_chunks", "render_html"]

_MARKER = re.compile(r"@@([A-Z_]+)@@")

#: Rows per page in the browser (the reader can choose 50, 500 or 1000).
PAGE_ROWS = 100
#: Rows written as markup, readable without JavaScript.
STATIC_ROWS = 1000
#: Files shown in the per-file chart (the ones with most changes).
TOP_FILES = 15

# Flags of a piece of a cell (the script reads the same numbers).
CODE = 1  # an invisible or Hard code point, shown as a U+XXXX badge
MARK = 2  # inside the highlighted link
DEL = 4  # a character of the backend's link that the refined one drops
INS = 8  # a character the refined link adds
CUT = 16  # "…": the line goes on
NOLINK = 32  # the side has no link

#: Bar colours by kind (the per-file chart); reasons and kinds charts use one colour each.
_KIND_COLOURS = {
    "extended": "#2da44e",
    "trimmed": "#bf8700",
    "start-moved": "#8250df",
    "added": "#0969da",
    "removed": "#cf222e",
}

Piece = tuple[str, int]


def _template() -> str:
    return (resources.files(__package__) / "template.html").read_text(encoding="utf-8")


def _visible(text: str, flags: int) -> list[Piece]:
    return [(piece, flags | CODE) if code else (piece, flags) for piece, code in visible_pieces(text) if piece]


def cell_pieces(row: RowText, side: str, lo: int, hi: int) -> list[Piece]:
    """The pieces of the ``side`` ("before" or "after") cell of a row: ``(text, flags)``.

    The link of that side is marked; within it, what the other side does not cover is
    flagged :data:`DEL` (before) or :data:`INS` (after): the characters refinement drops or adds.
    """
    span, other = (row.before, row.after) if side == "before" else (row.after, row.before)
    changed = DEL if side == "before" else INS
    ex = excerpt(row.text, span, lo, hi, row.cut_left, row.cut_right)
    out: list[Piece] = []
    if span is None:
        out.append(("no link", NOLINK))
    if ex.cut_left:
        out.append(("…", CUT))
    out += _visible(ex.head, 0)
    if span is not None:
        s, e = span
        o0, o1 = other if other is not None else (e, e)
        inner = [(s, min(e, max(s, o0)), changed), (max(s, o0), min(e, o1), 0), (max(s, min(e, o1)), e, changed)]
        for a, b, flag in inner:
            if a < b:
                out += _visible(row.text[a:b], MARK | flag)
        out += _visible(ex.tail, 0)
    if ex.cut_right:
        out.append(("…", CUT))
    return out


def _pieces_html(pieces: Iterable[Piece], side: str) -> str:
    out: list[str] = []
    in_mark = False
    for text, flags in pieces:
        if flags & MARK and not in_mark:
            out.append(f'<mark class="{side}">')
            in_mark = True
        elif not flags & MARK and in_mark:
            out.append("</mark>")
            in_mark = False
        if flags & NOLINK:
            out.append('<span class="nolink">no link</span>\n')
            continue
        if flags & CUT:
            out.append('<span class="cut">…</span>')
            continue
        html = f'<span class="cp">{escape(text)}</span>' if flags & CODE else escape(text)
        if flags & DEL:
            html = f"<del>{html}</del>"
        elif flags & INS:
            html = f"<ins>{html}</ins>"
        out.append(html)
    if in_mark:
        out.append("</mark>")
    return "".join(out)


def _href_html(pieces: list[Piece] | None) -> str:
    if pieces is None:
        return ""
    return f'<div class="href">{_pieces_html(pieces, "")}</div>'


def _row_data(c: Mapping[str, Any]) -> list[Any]:
    """One change as the script gets it: ``[source, line, column, kind, reason, before pieces,
    after pieces, before href, after href]``, then ``risks`` (a list of codes) when the row has them."""
    row = row_text(c)
    lo, hi = window(row.text, [row.before, row.after])
    return [
        c["source"],
        c["line"],
        c["column"],
        c["kind"],
        c["reason"],
        cell_pieces(row, "before", lo, hi),
        cell_pieces(row, "after", lo, hi),
        _href_pieces(c.get("before_href")),
        _href_pieces(c.get("after_href")),
        *([list(c["risks"])] if "risks" in c else []),
    ]


def _href_pieces(href: str | None) -> list[Piece] | None:
    return None if href is None else _visible(href, 0)


def _row_html(data: list[Any]) -> str:
    source, line, column, kind, reason, before, after, before_href, after_href = data[:9]
    return (
        f'<tr class="change" data-kind="{escape(kind)}" data-reason="{escape(reason)}">'
        f'<td class="where">{escape(source)}:{line}:{column}</td>'
        f'<td class="kind">{escape(kind)}</td><td class="reason" title="{escape(REASONS.get(reason, ""))}">'
        f"{escape(reason)}</td>"
        f'<td class="text before" dir="auto">{_pieces_html(before, "before")}{_href_html(before_href)}</td>'
        f'<td class="text after" dir="auto">{_pieces_html(after, "after")}{_href_html(after_href)}</td>'
        + (f'<td class="risks">{escape(", ".join(data[9]))}</td>' if len(data) > 9 else "")
        + "</tr>"
    )


def _json_for_script(value: Any) -> str:
    """JSON that cannot end the ``<script>`` element it sits in, nor start markup."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for ch, code in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(ch, code)
    # Lone surrogates (input read with --errors surrogateescape) cannot be written as UTF-8.
    return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text)


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


def _short(label: str, size: int) -> str:
    return label if len(label) <= size else "…" + label[-(size - 1) :]


def bar_chart(
    title: str, bars: list[tuple[str, list[tuple[str, int]], str]], width: int = 480, attribute: str = ""
) -> str:
    """An inline SVG chart of horizontal bars: ``bars`` is ``[(label, [(part, count), …], tooltip), …]``;
    each bar is the sum of its parts, coloured by part (a kind) or in one colour (one part).
    With an ``attribute`` name, each bar's group has it set to the bar's label (the script
    filters the changes by it when the bar is clicked)."""
    row_height, count_width = 22, 60
    label_width = max(60, min(200, 7 * max((len(_short(label, 26)) for label, _, _ in bars), default=0) + 12))
    plot = width - label_width - count_width
    top = max((sum(n for _, n in parts) for _, parts, _ in bars), default=0) or 1
    height = row_height * max(1, len(bars)) + 8
    out = [
        f'<svg class="chart" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
        f"<title>{escape(title)}</title>"
    ]
    for i, (label, parts, tooltip) in enumerate(bars):
        y = 4 + i * row_height
        total = sum(n for _, n in parts)
        data = f' class="bar" {attribute}="{escape(label)}"' if attribute else ""
        out.append(f"<g{data}><title>{escape(tooltip)}</title>")
        out.append(
            f'<text x="{label_width - 8}" y="{y + 15}" text-anchor="end" class="label">{escape(_short(label, 26))}</text>'
        )
        x = float(label_width)
        for part, n in parts:
            w = plot * n / top
            colour = _KIND_COLOURS.get(part, "#0969da")
            out.append(
                f'<rect x="{x:.1f}" y="{y + 3}" width="{max(w, 1.0):.1f}" height="{row_height - 6}" fill="{colour}">'
                f"<title>{escape(f'{part}: {n}')}</title></rect>"
            )
            x += w
        out.append(f'<text x="{x + 6:.1f}" y="{y + 15}" class="count">{total}</text></g>')
    out.append("</svg>")
    return "".join(out)


def file_counts(changes: Iterable[Mapping[str, Any]]) -> dict[str, Counter[str]]:
    """The changes of each source by kind (what the per-file chart shows)."""
    per_file: dict[str, Counter[str]] = {}
    for c in changes:
        per_file.setdefault(c["source"], Counter())[c["kind"]] += 1
    return per_file


def _charts(summary: Mapping[str, Any], per_file: Mapping[str, Mapping[str, int]]) -> tuple[str, str]:
    """The bar charts of the kinds and the reasons, and the per-file chart."""
    kinds = [(k, [(k, n)], f"{k}: {n} ({KINDS.get(k, '')})") for k, n in summary["by_kind"].items()]
    reasons = [(r, [(r, n)], f"{r}: {n} ({REASONS.get(r, '')})") for r, n in summary["by_reason"].items()]
    ranked = sorted(
        ((name, counts) for name, counts in per_file.items() if sum(counts.values())),
        key=lambda item: (-sum(item[1].values()), item[0]),
    )
    files = [
        (
            name,
            [(k, counts.get(k, 0)) for k in KINDS if counts.get(k, 0)],
            f"{name}: {sum(counts.values())} changes ("
            + ", ".join(f"{counts.get(k, 0)} {k}" for k in KINDS if counts.get(k, 0))
            + ")",
        )
        for name, counts in ranked[:TOP_FILES]
    ]
    parts = [
        "<figure><figcaption>Changes by kind</figcaption>"
        + bar_chart("Changes by kind", kinds, attribute="data-kind")
        + "</figure>",
        "<figure><figcaption>Changes by reason</figcaption>"
        + bar_chart("Changes by reason", reasons, attribute="data-reason")
        + "</figure>",
    ]
    more = f" (the {TOP_FILES} with most changes of {len(ranked)})" if len(ranked) > TOP_FILES else ""
    legend = "".join(
        f'<span class="key"><span class="swatch" style="background:{colour}"></span>{escape(kind)}</span>'
        for kind, colour in _KIND_COLOURS.items()
    )
    files_chart = (
        f'<figure class="files"><figcaption>Changes by file{escape(more)} <span class="legend">{legend}</span>'
        f"</figcaption>{bar_chart('Changes by file', files, 680, 'data-source')}</figure>"
    )
    return "\n".join(parts), files_chart


def render_html(report: dict[str, Any]) -> str:
    """Return ``report`` (from :func:`~uts58_adapt.report.core.merge`) as a standalone HTML page."""
    return "".join(html_chunks(report, report["changes"], file_counts(report["changes"])))


def html_chunks(
    head: Mapping[str, Any], changes: Iterable[Mapping[str, Any]], per_file: Mapping[str, Mapping[str, int]]
) -> Iterator[str]:
    """The HTML page of a report in pieces: ``head`` is the report without its changes,
    ``changes`` its rows in report order (read once, one at a time: only the first
    :data:`STATIC_ROWS` are held), ``per_file`` each source's changes by kind."""
    s = head["summary"]
    total = int(s["changed"])
    shown = min(total, STATIC_ROWS)
    counts = [
        (key.replace("_", " "), s[key], "")
        for key in ("documents", "lines", "links_before", "links_after", "unchanged", "changed")
        if key in s
    ]
    risky = s.get("risky")  # an audit with --reject-risky
    tables = [
        _table("change", [(k, n, KINDS.get(k, "")) for k, n in s["by_kind"].items()], True),
        _table("reason", [(r, n, REASONS.get(r, "")) for r, n in s["by_reason"].items()], True),
    ]
    if risky is not None:
        counts.append(("links with a §8 risk", risky["links"], ""))
        tables.append(_table("§8 risk", [(k, n, RISKS.get(k, "")) for k, n in risky["by_code"].items()], True))
    recorded = provenance(head)
    if recorded:
        body = "".join(
            f"<tr><td>{escape(label)}</td><td><code>{escape(visible_text(text))}</code></td></tr>"
            for label, text in recorded
        )
        tables.append(f"<table><thead><tr><th>provenance</th><th></th></tr></thead><tbody>{body}</tbody></table>")
    meanings = "\n".join(tables)
    charts, files = _charts(s, per_file)
    rows = iter(changes)
    static = [_row_data(c) for c in islice(rows, STATIC_ROWS)]
    title = f"UTS #58 link audit: {head['backend']}"
    intro = (
        f"Unicode {head['unicode_version']}. Before is the backend's own link, after the same link "
        "refined to UTS #58 (highlighted): struck-through characters are dropped by refinement, underlined "
        "ones added. Invisible and Link_Term=Hard characters are shown as U+XXXX; columns count code points "
        "from 1; a long line is shown around its change (…). Unchanged links are counted, not listed."
    )
    note = (
        f"This report has {total} changes: without JavaScript only the first {shown} are shown "
        "(the JSON report has them all)."
        if total > shown
        else ""
    )
    values = {
        "TITLE": escape(title),
        "INTRO": escape(intro),
        "SUMMARY": _table("", counts, False),
        "CHARTS": charts,
        "FILES": files,
        "MEANINGS": meanings,
        "KIND_OPTIONS": "".join(
            f'<option value="{escape(k)}">{escape(k)} ({n})</option>' for k, n in s["by_kind"].items()
        ),
        "REASON_OPTIONS": "".join(
            f'<option value="{escape(r)}">{escape(r)} ({n})</option>' for r, n in s["by_reason"].items()
        ),
        "TOTAL": str(total),
        "SHOWN": str(shown),
        "NOSCRIPT": f'<p class="note">{escape(note)}</p>' if note else "",
        "ROWS": "\n".join(_row_html(row) for row in static),
        "RISK_COL": '<col class="risks">' if risky is not None else "",
        "RISK_HEAD": "<th>Risks (§8)</th>" if risky is not None else "",
        "RISK_FILTER": (
            '\n<label>Risk <select id="risk-filter"><option value="">all</option><option value="*">any risk</option>'
            + "".join(f'<option value="{escape(k)}">{escape(k)}</option>' for k in RISKS)
            + "</select></label>"
            if risky is not None
            else ""
        ),
    }
    rest = {
        "kinds": list(KINDS),
        "reasons": list(REASONS),
        "meanings": REASONS,
        **({"risks": RISKS} if risky is not None else {}),
        "page": PAGE_ROWS,
        "flags": {"code": CODE, "mark": MARK, "del": DEL, "ins": INS, "cut": CUT, "nolink": NOLINK},
    }
    # The template's text and its markers in turn; text inserted for a marker is never searched again.
    for k, part in enumerate(_MARKER.split(_template())):
        if k % 2 == 0:
            yield part
        elif part != "DATA":
            yield values[part]
        else:  # {"rows": [...], ...}: the rows one at a time
            yield '{"rows":['
            for n, data in enumerate(chain(static, (_row_data(c) for c in rows))):
                yield ("," if n else "") + _json_for_script(data)
            yield "]," + _json_for_script(rest)[1:]
