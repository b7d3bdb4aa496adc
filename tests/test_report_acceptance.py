"""Acceptance: the audit of the official LinkDetectionTest.txt lines, read as plain text."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from uts58_adapt.cli import main

from conftest import CLOSE_MARK, OPEN_MARK, require_data

CASE_LINE = "See example.com/αβ(γ/δ)ρς?α=θ&β=κ#λμν:~:text=φχψ on…"


@pytest.fixture(scope="module")
def plain_lines(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = require_data("17.0.0", "linkification", "LinkDetectionTest.txt")
    lines = []
    for line in source.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            lines.append(line.replace(OPEN_MARK, "").replace(CLOSE_MARK, ""))
    assert len(lines) > 300
    path = tmp_path_factory.mktemp("ldt") / "LinkDetectionTest-plain.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("backend", ["linkify-it", "urlextract"])
def test_official_lines_report(plain_lines: Path, tmp_path: Path, backend: str) -> None:
    out = tmp_path / "report.json"
    assert main(["report", str(plain_lines), "--backend", backend, "--quiet", "-o", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    s = report["summary"]
    changes = report["changes"]

    assert report["backend"] == backend
    assert report["unicode_version"] == "17.0.0"
    assert s["documents"] == 1
    # The summary is consistent with the change list.
    assert s["changed"] == len(changes)
    assert sum(s["by_kind"].values()) == s["changed"] == sum(s["by_reason"].values())
    assert s["by_kind"] == dict(Counter(c["kind"] for c in changes))
    assert s["by_reason"] == dict(Counter(c["reason"] for c in changes))
    assert s["links_before"] == s["unchanged"] + sum(c["before"] is not None for c in changes)
    assert s["links_after"] == s["unchanged"] + sum(c["after"] is not None for c in changes)
    assert "unchanged" not in s["by_kind"]

    # The bracket that crosses a '/' is trimmed (the backends take the whole line's URL).
    (case,) = [c for c in changes if c["line_text"] == CASE_LINE]
    assert case["kind"] == "trimmed"
    assert case["after_text"] == "example.com/αβ(γ/δ"
    assert case["after"] == [4, 22]
    assert case["before_text"] == "example.com/αβ(γ/δ)ρς?α=θ&β=κ#λμν:~:text=φχψ"
    assert case["reason"] == "bracket-across-separator"
    assert case["column"] == 5


def test_official_lines_same_in_worker_processes(plain_lines: Path, tmp_path: Path) -> None:
    """Small chunks over two worker processes give the CLI's bytes."""
    from uts58_adapt.report import merge, render
    from uts58_adapt.report.core import PROVENANCE
    from uts58_adapt.report.runner import iter_tasks, map_local

    cli_out = tmp_path / "cli.json"
    assert main(["report", str(plain_lines), "--quiet", "-o", str(cli_out)]) == 0
    problems: list[str] = []
    tasks = iter_tasks(
        [(str(plain_lines), str(plain_lines))], "linkify-it", problems=problems, chunk_lines=40, preview=""
    )
    results = map_local(tasks, jobs=2)
    assert len(results) == 9 and not problems
    meta = {key: json.loads(cli_out.read_bytes())[key] for key in PROVENANCE}
    assert render(merge(results, meta=meta), "json").encode("utf-8") == cli_out.read_bytes()
