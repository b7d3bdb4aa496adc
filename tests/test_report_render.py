"""The three renderers, on hand-made reports: JSON bytes, Markdown escaping, HTML escaping."""

from __future__ import annotations

import json
import re

import pytest

from uts58_adapt.report import render
from uts58_adapt.report.render_html import render_html
from uts58_adapt.report.render_json import render_json
from uts58_adapt.report.render_md import code_span, render_md

NASTY = '<i>&amp;</i> example.com/p. <script>alert("x")</script>|`t`*s*[l](u)'


def change(
    line_text: str,
    before: tuple[int, int] | None,
    after: tuple[int, int] | None,
    kind: str,
    reason: str,
    source: str = "docs/a.txt",
    line: int = 1,
) -> dict:
    starts = [s[0] for s in (before, after) if s]
    return {
        "source": source,
        "line": line,
        "column": min(starts) + 1,
        "before": list(before) if before else None,
        "after": list(after) if after else None,
        "before_text": line_text[before[0] : before[1]] if before else None,
        "after_text": line_text[after[0] : after[1]] if after else None,
        "kind": kind,
        "reason": reason,
        "line_text": line_text,
    }


def report_with(changes: list[dict]) -> dict:
    by_kind: dict[str, int] = {}
    by_reason: dict[str, int] = {}
    for c in changes:
        by_kind[c["kind"]] = by_kind.get(c["kind"], 0) + 1
        by_reason[c["reason"]] = by_reason.get(c["reason"], 0) + 1
    return {
        "backend": "linkify-it",
        "unicode_version": "17.0.0",
        "summary": {
            "documents": 1,
            "lines": 3,
            "links_before": 3,
            "links_after": 3,
            "unchanged": 1,
            "changed": len(changes),
            "by_kind": by_kind,
            "by_reason": by_reason,
        },
        "changes": changes,
    }


P = NASTY.index("example.com/p.")
REPORT = report_with(
    [
        change(NASTY, (P, P + 14), (P, P + 13), "trimmed", "soft-trailing"),
        change("Voir exemple.fr/été\u00a0x", (5, 21), (5, 19), "trimmed", "hard-char", line=2),
        change("mail σωκράτης@example.gr", None, (5, 24), "added", "missed-email", source="b.txt"),
    ]
)


# --- JSON ------------------------------------------------------------------------------------


def test_json_layout_is_exact() -> None:
    small = report_with([change("a example.com/x. b", (2, 16), (2, 15), "trimmed", "soft-trailing")])
    expected = (
        "{\n"
        '  "backend": "linkify-it",\n'
        '  "unicode_version": "17.0.0",\n'
        '  "summary": {\n'
        '    "documents": 1,\n'
        '    "lines": 3,\n'
        '    "links_before": 3,\n'
        '    "links_after": 3,\n'
        '    "unchanged": 1,\n'
        '    "changed": 1,\n'
        '    "by_kind": {\n'
        '      "trimmed": 1\n'
        "    },\n"
        '    "by_reason": {\n'
        '      "soft-trailing": 1\n'
        "    }\n"
        "  },\n"
        '  "changes": [\n'
        '    {"source": "docs/a.txt", "line": 1, "column": 3, "before": [2, 16], "after": [2, 15], '
        '"before_text": "example.com/x.", "after_text": "example.com/x", "kind": "trimmed", '
        '"reason": "soft-trailing", "line_text": "a example.com/x. b"}\n'
        "  ]\n"
        "}\n"
    )
    assert render_json(small) == expected
    assert json.loads(expected) == small


def test_json_round_trips_and_is_utf8() -> None:
    text = render_json(REPORT)
    assert json.loads(text) == REPORT
    assert "σωκράτης" in text  # not \u-escaped
    assert text.endswith("}\n")
    empty = report_with([])
    assert json.loads(render_json(empty))["changes"] == []
    assert '"changes": []' in render_json(empty)


def test_json_escapes_lone_surrogates() -> None:
    line = "a example.com/\udcff. b"
    text = render_json(report_with([change(line, (2, 17), (2, 16), "trimmed", "soft-trailing")]))
    text.encode("utf-8")  # no lone surrogate left
    assert "\\udcff" in text
    assert json.loads(text)["changes"][0]["line_text"] == line


# --- Markdown ----------------------------------------------------------------------------------


def test_code_span_fences_and_pipes() -> None:
    assert code_span("plain") == "`plain`"
    assert code_span("a`b") == "``a`b``"
    assert code_span("`a") == "`` `a ``"
    assert code_span("a|b") == "`a\\|b`"
    assert code_span("a|b", in_table=False) == "`a|b`"


def test_md_marks_both_spans() -> None:
    md = render_md(REPORT)
    assert "| line:col | change | reason | before | after |" in md
    row = next(line for line in md.splitlines() if line.startswith("| 1:"))
    assert "⸠example.com/p.⸡" in row and "⸠example.com/p⸡." in row
    assert "| trimmed | soft-trailing |" in row
    # Hard characters are made visible; added links say "no link" before.
    row2 = next(line for line in md.splitlines() if line.startswith("| 2:"))
    assert "⸠exemple.fr/été⟨U+00A0⟩x⸡" in row2 and "⸠exemple.fr/été⸡⟨U+00A0⟩x" in row2
    row3 = next(line for line in md.splitlines() if "σωκράτης" in line)
    assert row3.count("no link:") == 1 and "⸠σωκράτης@example.gr⸡" in row3
    # One section per source, in report order; the summary table has the counts.
    assert md.index("### `b.txt`") > md.index("### `docs/a.txt`")
    assert "| changed | 3 |" in md and "| soft-trailing | 1 |" in md.replace("\\", "")


def test_md_renders_literally() -> None:
    markdown_it = pytest.importorskip("markdown_it")
    html = markdown_it.MarkdownIt("commonmark").enable("table").render(render_md(REPORT))
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "&amp;amp;" in html  # the text's "&amp;" is shown as typed
    cells = re.findall(r"<td>(?:no link: )?…?<code>(.*?)</code>", html)
    assert any("&lt;/script&gt;|`t`*s*[l](u" in cell for cell in cells)
    assert "&lt;i&gt;" in html
    changes = html.split("<h2>Changes</h2>")[1]
    assert "<em>" not in changes and "<a " not in changes and "<strong>" not in changes


def test_md_long_lines_are_cut_around_the_change() -> None:
    line = "word " * 40 + "example.com/x. " + "tail " * 40
    start = line.index("example.com")
    md = render_md(report_with([change(line, (start, start + 14), (start, start + 13), "trimmed", "soft-trailing")]))
    row = next(r for r in md.splitlines() if r.startswith("| 1:"))
    assert "…`" in row and "`…" in row
    assert len(row) < 300


def test_md_no_changes() -> None:
    md = render_md(report_with([]))
    assert "No changes" in md


# --- HTML ------------------------------------------------------------------------------------


def test_html_escapes_everything_and_loads_nothing() -> None:
    page = render_html(REPORT)
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert "&lt;i&gt;&amp;amp;&lt;/i&gt;" in page
    # Standalone: no external resource of any kind.
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", page)
    assert "@import" not in page and "url(" not in page
    assert "Content-Security-Policy" in page
    assert page.count('<tr class="change"') == 3
    assert '<mark class="before">example.com/p<del>.</del></mark>' in page  # the dropped "." struck through
    assert '<mark class="after">example.com/p</mark>.' in page
    assert '<span class="cp">U+00A0</span>' in page
    assert 'data-kind="added" data-reason="missed-email"' in page
    assert '<option value="trimmed">trimmed (2)</option>' in page


def test_html_markers_in_text_are_not_expanded() -> None:
    line = "x @@ROWS@@ example.com/a. y"
    s = line.index("example.com")
    page = render_html(report_with([change(line, (s, s + 14), (s, s + 13), "trimmed", "soft-trailing")]))
    assert page.count("@@ROWS@@") == 4  # the row's two cells, and the same in the script's data
    assert "@@" not in page.replace("@@ROWS@@", "")


def test_render_dispatch() -> None:
    assert render(REPORT, "json") == render_json(REPORT)
    assert render(REPORT, "md") == render_md(REPORT)
    with pytest.raises(ValueError, match="unknown format 'pdf'; expected one of json, md, html"):
        render(REPORT, "pdf")


def test_printable_hard_is_complete() -> None:
    """visible_pieces' fast path: a printable code point is shown as code only if it is in PRINTABLE_HARD."""
    from uts58_adapt.report import display

    found = {
        chr(cp)
        for cp in range(0x110000)
        if not 0xD800 <= cp <= 0xDFFF and chr(cp).isprintable() and display._shown_as_code(chr(cp))
    }
    assert found == display.PRINTABLE_HARD
    assert display.visible_pieces("a\u0149b") == [("a", False), ("U+0149", True), ("b", False)]
    assert display.visible_pieces("") == []
