"""Issue 13.3: the Markdown report cannot be turned into HTML by what it quotes.

File names (newlines included), line text and spans come from the input.  The report
is rendered with markdown-it-py with raw HTML *on* (as GitHub and many viewers would
treat it), and no tag may come out but the ones the report itself writes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from uts58_adapt.cli import main
from uts58_adapt.report.render_md import render_md

#: The tags a rendered report may contain (headings, paragraphs, tables, code spans, emphasis).
ALLOWED = {"h1", "h2", "h3", "p", "em", "code", "table", "thead", "tbody", "tr", "th", "td"}
TAG = re.compile(r"<\s*/?\s*([A-Za-z][A-Za-z0-9-]*)")
EVIL_NAME = "docs/a`\n<img src=x onerror=alert(1)>\n`b.txt"
EVIL_LINE = 'see <script>alert(1)</script> example.com/αβ(γ/δ)ρς <img src=x onerror="a()"> `x` | y'


def _md() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True}).enable("table")


def _tags(html: str) -> set[str]:
    return {m.group(1).lower() for m in TAG.finditer(html)}


def _report(source: str, line: str, before: tuple[int, int], after: tuple[int, int]) -> dict:
    return {
        "backend": "linkify-it",
        "unicode_version": "17.0.0",
        "summary": {
            "documents": 1,
            "lines": 1,
            "links_before": 1,
            "links_after": 1,
            "unchanged": 0,
            "changed": 1,
            "by_kind": {"trimmed": 1},
            "by_reason": {"other": 1},
        },
        "changes": [
            {
                "source": source,
                "line": 1,
                "column": min(before[0], after[0]) + 1,
                "before": list(before),
                "after": list(after),
                "before_text": line[before[0] : before[1]],
                "after_text": line[after[0] : after[1]],
                "kind": "trimmed",
                "reason": "other",
                "line_text": line,
            }
        ],
    }


def test_file_name_with_newline_and_tag_stays_text() -> None:
    start = EVIL_LINE.index("example.com")
    html = _md().render(render_md(_report(EVIL_NAME, EVIL_LINE, (start, start + 21), (start, start + 18))))
    assert _tags(html) <= ALLOWED, html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html  # shown, as text, in the heading
    assert "&lt;script&gt;" in html
    # One heading for the file, and the table is still one table with a single change row of 5 cells.
    assert html.count("<h3>") == 1 and html.count("<table>") == 4
    last = html.rsplit("<table>", 1)[1]
    assert last.count("<tr>") == 2 and last.split("<tbody>")[1].count("<td>") == 5, last


PIECES = st.sampled_from(
    [
        "<",
        ">",
        "`",
        "``",
        "|",
        "\\",
        "\n",
        "\r",
        "&",
        "*",
        "_",
        "[",
        "](",
        "!",
        "#",
        " ",
        "<img src=x>",
        "<script>",
        "\u2028",
        "\\|",
        "a",
        "x.com/",
        "<!--",
        "-->",
        "<![CDATA[",
        "<?",
        "&lt;",
    ]
)
TEXT = st.lists(PIECES, max_size=20).map("".join)


@settings(max_examples=300, deadline=None)
@given(name=TEXT, head=TEXT, span=TEXT, tail=TEXT)
def test_no_tag_survives(name: str, head: str, span: str, tail: str) -> None:
    line = head + "x.com/" + span + tail
    s = len(head)
    report = _report(name or "n", line, (s, s + 6 + len(span)), (s, s + 6))
    html = _md().render(render_md(report))
    assert _tags(html) <= ALLOWED, (render_md(report), html)
    assert html.count("<h3>") == 1
    last = html.rsplit("<table>", 1)[1]
    assert last.split("<tbody>")[1].count("<td>") == 5, html


def test_cli_report_on_a_hostile_file_name(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    directory = tmp_path / "in"
    directory.mkdir()
    (directory / "a`\n<img src=x onerror=alert(1)>\nb.txt").write_text(
        "see example.com/αβ(γ/δ)ρς now\n", encoding="utf-8"
    )
    assert main(["report", str(directory), "--format", "md", "-q", "-j", "1"]) == 0
    html = _md().render(capsysbinary.readouterr().out.decode("utf-8"))
    assert _tags(html) <= ALLOWED, html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
