"""``uts58-adapt report`` on a terminal: a readable summary (report/render_text.py), Markdown otherwise."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

from uts58_adapt.report.render_text import HINT, render_text, truncate, width_of

REPO = Path(__file__).resolve().parent.parent

LINE1 = "See example.com/p. and more text here"
LINE2 = "mail 東京@例え.jp ok"
REPORT = {
    "backend": "urlextract",
    "unicode_version": "17.0.0",
    "summary": {
        "documents": 2,
        "lines": 10,
        "links_before": 4,
        "links_after": 4,
        "unchanged": 2,
        "changed": 3,
        "by_kind": {"trimmed": 2, "added": 1},
        "by_reason": {"soft-trailing": 1, "unmatched-close": 1, "missed-email": 1},
    },
    "changes": [
        {
            "source": "a.txt", "line": 1, "column": 5, "before": [4, 18], "after": [4, 17],
            "before_text": "example.com/p.", "after_text": "example.com/p",
            "kind": "trimmed", "reason": "soft-trailing", "line_text": LINE1,
        },
        {
            "source": "a.txt", "line": 2, "column": 6, "before": None, "after": [5, 13],
            "before_text": None, "after_text": "東京@例え.jp",
            "kind": "added", "reason": "missed-email", "line_text": LINE2,
        },
        {
            "source": "b.txt", "line": 7, "column": 1, "before": [0, 6], "after": [0, 5],
            "before_text": "x.co/)", "after_text": "x.co/",
            "kind": "trimmed", "reason": "unmatched-close", "line_text": "x.co/)",
        },
    ],
}  # fmt: skip


def test_summary_written_by_hand() -> None:
    assert render_text(REPORT, width=200, changes=2, reasons=2) == (
        "urlextract on 2 documents, 10 lines: 4 links before UTS #58 refinement, 4 after\n"
        "2 unchanged, 2 changed (2 trimmed), 1 added, 0 removed\n"
        "\n"
        "Top reasons:\n"
        "  1  soft-trailing    §3.5.1: a trailing run of Link_Term=Soft characters (. ! ? , 。 ، । …) is not part "
        "of the link\n"
        "  1  unmatched-close  §3.5.1: a Link_Term=Close character with no matching Open ends the link\n"
        "  (1 more)\n"
        "\n"
        "First 2 of 3 changes:\n"
        "  a.txt:1:5  trimmed, soft-trailing\n"
        "    before  See ⸠example.com/p.⸡ and more text here\n"
        "    after   See ⸠example.com/p⸡. and more text here\n"
        "  a.txt:2:6  added, missed-email\n"
        "    before  mail 東京@例え.jp ok  (no link)\n"
        "    after   mail ⸠東京@例え.jp⸡ ok\n"
        "\n"
        f"{HINT}\n"
    )


def test_every_line_fits_the_width() -> None:
    for width in (40, 57, 80):
        out = render_text(REPORT, width=width)
        assert all(width_of(line) <= width for line in out.splitlines()), out
        assert "…" in out  # some lines were cut
        assert out.endswith(HINT[: width - 1] + "…\n" if len(HINT) > width else HINT + "\n")


def test_truncate_counts_wide_characters_as_two_columns() -> None:
    assert truncate("東京東京", 8) == "東京東京"
    assert truncate("東京東京", 7) == "東京東…"
    assert truncate("abcdef", 4) == "abc…"
    assert width_of("e\u0301") == 1


def test_no_changes() -> None:
    report = {**REPORT, "changes": [], "summary": {**REPORT["summary"], "changed": 0, "by_kind": {}, "by_reason": {}}}
    assert render_text(report) == (
        "urlextract on 2 documents, 10 lines: 4 links before UTS #58 refinement, 4 after\n"
        "2 unchanged, 0 changed, 0 added, 0 removed\n"
        "\n"
        f"{HINT}\n"
    )


def _run_in_pty(*args: str, columns: int = 70) -> tuple[int, str]:
    """Run the CLI with stdout (and stderr) on a pseudo-terminal of ``columns`` columns."""
    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": str(columns), "LINES": "40"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "uts58_adapt.cli", "report", *args],
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        env=env,
        cwd=REPO,
    )
    os.close(follower)
    chunks: list[bytes] = []
    while True:
        ready, _, _ = select.select([leader], [], [], 120)
        if not ready:
            proc.kill()
            pytest.fail("no output from the CLI within 120 s")
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the terminal's other side is closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    status = proc.wait(timeout=60)
    return status, b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


def test_terminal_gets_the_summary() -> None:
    status, out = _run_in_pty("--sample", "--quiet", columns=70)
    assert status == 0, out
    lines = out.splitlines()
    s = json.loads(_pipe("--sample", "--quiet", "--format", "json").stdout)["summary"]
    full = f"linkify-it on 1 document, 50 lines: {s['links_before']} links before UTS #58 refinement, {s['links_after']} after"
    assert lines[0] == full[:69] + "…"
    assert "Top reasons:" in lines and f"First 5 of {s['changed']} changes:" in lines
    assert lines[2] == "Before: LinkifyIt().match(line); after: wrap(LinkifyIt()).match(line)"
    assert all(width_of(line) <= 70 for line in lines), out
    assert HINT == "Whole report: add -o audit.html (a page with filters), or --format md|json"
    assert lines[-1] == "Whole report: add -o audit.html (a page with filters), or --format md…"
    assert "|" not in out  # no Markdown table


def test_terminal_with_format_md_still_gets_markdown() -> None:
    status, out = _run_in_pty("--sample", "--quiet", "--format", "md", columns=70)
    assert status == 0, out
    assert out.startswith("# ")
    assert "| --- |" in out or "|---|" in out or "| ---" in out
    assert "Top reasons:" not in out


def _pipe(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "uts58_adapt.cli", "report", *args],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=REPO,
        timeout=120,
        check=False,
    )


def test_a_pipe_gets_markdown() -> None:
    proc = _pipe("--sample", "--quiet")
    assert proc.returncode == 0
    assert proc.stdout == _pipe("--sample", "--quiet", "--format", "md").stdout
    assert proc.stdout.startswith(b"# UTS #58 link audit: linkify-it\n")


def test_the_counts_add_up_on_the_sample() -> None:
    """Issue 24.5: unchanged + changed + removed = links before, unchanged + changed + added = links after."""
    import re

    from uts58_adapt.report import merge
    from uts58_adapt.report.runner import iter_tasks, map_local, sample_inputs

    report = merge(map_local(iter_tasks(sample_inputs(), "linkify-it", problems=[])))
    s = report["summary"]
    line = render_text(report, width=500).splitlines()[1]
    m = re.fullmatch(r"(\d+) unchanged, (\d+) changed \((.*)\), (\d+) added, (\d+) removed", line)
    assert m, line
    unchanged, changed, added, removed = (int(m.group(k)) for k in (1, 2, 4, 5))
    assert unchanged + changed + removed == s["links_before"]
    assert unchanged + changed + added == s["links_after"]
    assert sum(int(part.split()[0]) for part in m.group(3).split(", ")) == changed
