"""The report as Markdown (CommonMark with GitHub tables), readable raw or rendered.

Every change is one table row: where it is, its kind and reason, and the line around it
twice, with ``⸠…⸡`` around the backend's link ("before") and around the refined one
("after").  Line text and file names are put in code spans, so nothing in them is taken
as Markdown or HTML, and no renderer turns them into a link of their own; ``|`` is
escaped for the table.  Line breaks and other Hard or invisible characters in them are
written ``⟨U+XXXX⟩`` first, so a code span can never be cut short by a newline in a file
name or line (issue 13.3: a name holding ``\n<img src=x onerror=…>`` stays text).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from .classify import KINDS, REASONS, RISKS
from .display import RowText, excerpt, provenance, row_text, visible_text, window

__all__ = ["code_span", "md_chunks", "md_escape", "render_md"]

OPEN_MARK, CLOSE_MARK = "\u2e20", "\u2e21"
_MD_SPECIAL = set("\\`*_[]<>|&~")


def md_escape(text: str) -> str:
    """Backslash-escape the characters Markdown or HTML would interpret in running text."""
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in text)


def code_span(text: str, in_table: bool = True) -> str:
    """``text`` as a code span: literal in every CommonMark renderer.

    The backtick fence is longer than any run of backticks inside; a space pads text
    that starts or ends with a backtick or a space (CommonMark strips one each side).
    In a table, ``|`` is written ``\\|`` (GitHub-flavoured tables split cells first).
    """
    longest = run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    if text[:1] in ("`", " ") or text[-1:] in ("`", " "):
        text = f" {text} "
    if in_table:
        text = text.replace("|", "\\|")
    return f"{fence}{text}{fence}"


def _marked(row: RowText, span: tuple[int, int] | None, lo: int, hi: int) -> str:
    ex = excerpt(row.text, span, lo, hi, row.cut_left, row.cut_right)
    body = visible_text(ex.head)
    if ex.span is not None:
        body += OPEN_MARK + visible_text(ex.span) + CLOSE_MARK + visible_text(ex.tail)
    out = ("…" if ex.cut_left else "") + code_span(body) + ("…" if ex.cut_right else "")
    return "no link: " + out if ex.span is None else out


def render_md(report: dict[str, Any]) -> str:
    """Return ``report`` (from :func:`~uts58_adapt.report.core.merge`) as a Markdown document."""
    return "".join(md_chunks(report, report["changes"]))


def md_chunks(head: Mapping[str, Any], changes: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    """The Markdown document of a report in pieces: ``head`` is the report without its changes
    (``backend``, ``unicode_version``, ``summary``), ``changes`` its rows in report order,
    read one at a time (a report of millions of changes is never held whole)."""
    first = True
    for line in _md_lines(head, changes):
        yield line if first else "\n" + line
        first = False


def _md_lines(report: Mapping[str, Any], changes: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    s = report["summary"]
    yield from [
        f"# UTS #58 link audit: {md_escape(str(report['backend']))}",
        "",
        f"Unicode {md_escape(str(report['unicode_version']))}. *Before* is the backend's own link, "
        "*after* the same link refined to UTS #58; `⸠…⸡` marks the link in its line. "
        "Invisible and Link\\_Term=Hard characters are shown as `⟨U+XXXX⟩`, "
        "columns count code points from 1. Unchanged links are counted, not listed.",
        "",
        "## Summary",
        "",
        "| | count |",
        "| --- | ---: |",
    ]
    for key in ("documents", "lines", "links_before", "links_after", "unchanged", "changed"):
        if key in s:
            yield f"| {key.replace('_', ' ')} | {s[key]} |"
    risky = s.get("risky")  # an audit with --reject-risky
    if risky is not None:
        yield f"| links with a §8 risk | {risky['links']} |"
    yield from ["", "| change | count | meaning |", "| --- | ---: | --- |"]
    for kind, count in s["by_kind"].items():
        yield f"| {md_escape(kind)} | {count} | {md_escape(KINDS.get(kind, ''))} |"
    if not s["by_kind"]:
        yield "| (none) | 0 | |"
    yield from ["", "| reason | count | rule |", "| --- | ---: | --- |"]
    for reason, count in s["by_reason"].items():
        yield f"| {md_escape(reason)} | {count} | {md_escape(REASONS.get(reason, ''))} |"
    if not s["by_reason"]:
        yield "| (none) | 0 | |"
    if risky is not None:
        yield from ["", "| §8 risk | links | meaning |", "| --- | ---: | --- |"]
        for code, count in risky["by_code"].items():
            yield f"| {md_escape(code)} | {count} | {md_escape(RISKS.get(code, ''))} |"
        if not risky["by_code"]:
            yield "| (none) | 0 | |"
    shown = provenance(report)
    if shown:
        yield from ["", "## Provenance", "", "| | |", "| --- | --- |"]
        for label, text in shown:
            yield f"| {label} | {code_span(visible_text(text))} |"
    yield from ["", "## Changes", ""]
    source = None
    for c in changes:
        if c["source"] != source:
            if source is not None:
                yield ""
            source = c["source"]
            yield from [
                f"### {code_span(visible_text(source), in_table=False)}",
                "",
                "| line:col | change | reason | before | after |" + (" risks |" if risky is not None else ""),
                "| --- | --- | --- | --- | --- |" + (" --- |" if risky is not None else ""),
            ]
        row = row_text(c)
        lo, hi = window(row.text, [row.before, row.after])
        risks = f" {md_escape(', '.join(c.get('risks') or ()))} |" if risky is not None else ""
        yield (
            f"| {c['line']}:{c['column']} | {md_escape(c['kind'])} | {md_escape(c['reason'])} "
            f"| {_marked(row, row.before, lo, hi)} | {_marked(row, row.after, lo, hi)} |{risks}"
        )
    if source is None:
        yield from ["No changes: every link the backend found is a UTS #58 link as it is.", ""]
    else:
        yield ""
