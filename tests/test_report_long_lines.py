"""Issue 23.1: a long line costs the report and the audit's memory in proportion to its length.

Rows of a line longer than ``core.WHOLE_LINE`` carry only the context of their change
(``line_text`` from ``line_text_start``, ``line_length``), and a long line is audited in
pieces cut after a space, which must give what the whole line gives.
"""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from uts58_adapt.report import core, render
from uts58_adapt.report.core import ChunkTask, Tally, iter_changes
from uts58_adapt.report.stream import audit_to_rows, to_rows

from conftest import plain_text, sample_lines

REPO = Path(__file__).resolve().parent.parent
#: The issue's line: every repetition has changes of two kinds.
PATTERN = "see example.com/αβ(γ/δ)ρς, or a@b.co x.co/( "


def long_line(size: int) -> str:
    """A line of about ``size`` bytes of UTF-8 repeating :data:`PATTERN`."""
    return PATTERN * (size // len(PATTERN.encode("utf-8")) + 1)


def changes_of(line: str, backend: str, piece: int) -> tuple[list[core.Change], tuple[int, int, int]]:
    tally = Tally()
    changes = list(iter_changes(ChunkTask("t", 1, [line], backend), tally, piece=piece))
    assert not tally.failures
    return changes, (tally.links_before, tally.links_after, tally.unchanged)


def mixed_lines(seed: int, count: int) -> list[str]:
    """Long lines made of the sample corpus's lines (every reason of the audit) and hostile
    fragments, shuffled and joined by one or more spaces."""
    rng = random.Random(seed)
    parts = [*sample_lines(), PATTERN, "x.co/(a) b", "a@b.co.", "mailto:ü@ß.de,", "http://e.org/:~:text=a,b"]
    return ["  ".join(rng.sample(parts, len(parts))) + " " * rng.randint(0, 2) for _ in range(count)]


@pytest.mark.parametrize("backend", ["linkify-it", "urlextract"])
@pytest.mark.parametrize("piece", [1, 7, 64, 300])
def test_pieces_give_what_the_whole_line_gives(backend: str, piece: int) -> None:
    found = 0
    for line in [*mixed_lines(piece, 3), long_line(3000), " leading  and trailing spaces x.co/( "]:
        whole = changes_of(line, backend, piece=len(line) + 1)
        found += len(whole[0])
        assert changes_of(line, backend, piece=piece) == whole
    assert found > 100


def test_detection_cases_in_pieces() -> None:
    from conftest import detection_cases

    lines = [plain_text(line) for _, line in detection_cases()]
    if not lines:
        pytest.skip("LinkDetectionTest.txt not found")
    line = " ".join(lines)
    assert changes_of(line, "linkify-it", piece=40) == changes_of(line, "linkify-it", piece=len(line) + 1)


def test_long_line_rows_carry_their_context() -> None:
    link = "example.com/αβ(γ/δ)ρς"
    line = "x" * 600 + f" see {link} " + "y" * 600
    (change,) = changes_of(line, "linkify-it", core.PIECE)[0]
    row = core.change_row(change)
    start = line.index("example.com")
    assert row["before"] == [start, start + len(link)]
    assert row["line_length"] == len(line)
    text, offset = row["line_text"], row["line_text_start"]
    assert line[offset : offset + len(text)] == text
    assert len(text) <= len(link) + 2 * core.CONTEXT
    assert text[row["before"][0] - offset : row["before"][1] - offset] == row["before_text"]
    # the Markdown and HTML views show that context, cut on both sides
    report = {
        "backend": "linkify-it",
        "unicode_version": "17.0.0",
        "summary": {"documents": 1, "lines": 1, "changed": 1, "by_kind": {}, "by_reason": {}},
        "changes": [row],
    }
    md = render(report, "md")
    assert "…`x" in md and f"⸠{link}⸡" in md and "⸠example.com/αβ(γ/δ⸡)ρς" in md and "y`…" in md
    html = render(report, "html")
    assert '<mark class="before">example.com/αβ(γ/δ<del>)ρς</del></mark>' in html
    assert html.count('<span class="cut">…</span>') == 4


def test_short_lines_keep_the_whole_line() -> None:
    line = "x" * (core.WHOLE_LINE - 30) + " example.com/αβ(γ/δ)ρς"
    (change,) = changes_of(line, "linkify-it", core.PIECE)[0]
    row = core.change_row(change)
    assert row["line_text"] == line and "line_text_start" not in row and "line_length" not in row


def test_report_of_a_100_kb_line_is_at_most_30_times_the_input(tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    path.write_text(long_line(100_000) + "\n", encoding="utf-8")
    out = tmp_path / "r.json"
    proc = subprocess.run(
        [sys.executable, "-m", "uts58_adapt.cli", "report", "-q", str(path), "-o", str(out)],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    size = out.stat().st_size
    assert size <= 30 * path.stat().st_size, size
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["summary"]["changed"] == len(report["changes"]) > 2000
    for c in report["changes"]:
        offset = c["line_text_start"]
        assert c["line_text"][c["before"][0] - offset : c["before"][1] - offset] == c["before_text"]


def test_audit_to_rows_spills_and_matches_to_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from uts58_adapt.report import stream

    task = ChunkTask("t", 3, ["a " + long_line(20_000), "x.co/( y", ""], "linkify-it")
    expected = to_rows(core.audit_chunk(task))
    assert audit_to_rows(task) == expected
    monkeypatch.setattr(stream, "ROWS_IN_MEMORY", 1000)
    spilled = audit_to_rows(task, str(tmp_path))
    assert spilled.rows_file is not None and spilled.rows == b""
    assert Path(spilled.rows_file).read_bytes() == expected.rows
    assert spilled._replace(rows=expected.rows, rows_file=None) == expected
    with stream.StreamingMerge("linkify-it") as merged:
        merged.add(spilled)
        assert not Path(spilled.rows_file).exists()  # taken
        assert b"".join(merged.json_chunks()).count(b'"kind"') == len(expected.rows.splitlines())


#: Runs the CLI, then prints the process's peak RSS in kB.  VmHWM belongs to the address space
#: made at exec; ru_maxrss (os.wait4, getrusage) would also count the pages the forked child
#: shared with the test process before exec, the whole pytest process late in a full run.
_PEAK_OF_CLI = """
import sys
from uts58_adapt.cli import main
status = main(sys.argv[1:])
with open("/proc/self/status") as f:
    print([line for line in f if line.startswith("VmHWM:")][0].split()[1])
sys.exit(status)
"""


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def test_a_2_mb_line_audits_in_bounded_memory(tmp_path: Path) -> None:
    """Peak RSS of the whole CLI run (one process) on a 2 MB line, its 40 MB report written:
    well under 200 MB (the old rows held the line each: terabytes).  The child's address
    space is capped at 1 GB so that a regression fails instead of exhausting the machine."""
    path = tmp_path / "long.txt"
    path.write_text(long_line(2 * 1024 * 1024) + "\n", encoding="utf-8")
    out = tmp_path / "r.json"
    proc = subprocess.run(
        [sys.executable, "-c", _PEAK_OF_CLI, "report", "-q", "--jobs", "1", str(path), "-o", str(out)],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        preexec_fn=_limit_memory,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    peak_mb = int(proc.stdout.split()[-1]) / 1024
    assert peak_mb < 200, peak_mb
    assert out.stat().st_size < 30 * path.stat().st_size
