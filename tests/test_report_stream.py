"""Bounded-memory audits (issue 11.3): streamed inputs, a spilled merge, the same bytes as ``merge``."""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path

import pytest

from uts58_adapt.cli import main
from uts58_adapt.report import merge, render
from uts58_adapt.report.core import ChunkTask, audit_chunk
from uts58_adapt.report.runner import iter_tasks
from uts58_adapt.report.stream import StreamingMerge


def _sample() -> list[str]:
    return (resources.files("uts58_adapt") / "corpora" / "sample.txt").read_text(encoding="utf-8").splitlines()


def _results(backend: str = "linkify-it") -> list:
    lines = _sample() + ["lone \udc80 surrogate https://example.com/\udcff).", ""]
    tasks = []
    for name in ("b.txt", "a/z.txt", "a.txt", "<stdin>"):
        for k in range(0, len(lines), 7):
            tasks.append(ChunkTask(name, k + 1, lines[k : k + 7], backend))
    tasks.append(ChunkTask("empty.txt", 1, [], backend))
    return [audit_chunk(t) for t in tasks]


@pytest.mark.parametrize("fmt", ["json", "md", "html"])
def test_streaming_merge_is_merge_byte_for_byte(fmt: str) -> None:
    results = _results()
    random.Random(11).shuffle(results)
    expected = render(merge(results), fmt).encode("utf-8", "replace")
    assert b"\\udc80" in expected or fmt != "json"
    with StreamingMerge("linkify-it") as merged:
        for result in results:
            merged.add(result)
        if fmt == "json":
            got = b"".join(merged.json_chunks())
        else:
            got = render(merged.report(), fmt).encode("utf-8", "replace")
    assert got == expected


def test_streaming_merge_excludes_failed_sources_and_checks_backend() -> None:
    results = _results()
    kept = [r for r in results if r.source != "a.txt"]
    with StreamingMerge("linkify-it") as merged:
        for result in results:
            merged.add(result)
        assert b"".join(merged.json_chunks(exclude={"a.txt"})) == render(merge(kept), "json").encode("utf-8")
        assert merged.head(exclude={"a.txt"})["summary"]["documents"] == 4
        with pytest.raises(ValueError, match="several backends"):
            merged.add(results[0]._replace(backend="urlextract"))


def test_streaming_merge_with_no_changes() -> None:
    empty = audit_chunk(ChunkTask("x.txt", 1, ["no links", ""], "urlextract"))
    with StreamingMerge("urlextract") as merged:
        merged.add(empty)
        assert b"".join(merged.json_chunks()) == render(merge([empty]), "json").encode("utf-8")
    with StreamingMerge("urlextract") as merged:
        assert b"".join(merged.json_chunks()) == render(merge([], backend="urlextract"), "json").encode("utf-8")


def test_iter_tasks_streams_and_names_failed_inputs(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"see example.com\n" * 25 + b"\xff\n" + b"x\n" * 5)
    good = tmp_path / "good.txt"
    good.write_text("a\n" * 21, encoding="utf-8")
    problems: list[str] = []
    failed: set[str] = set()
    inputs = [("bad.txt", str(bad)), ("good.txt", str(good))]
    tasks = list(iter_tasks(inputs, "linkify-it", problems=problems, chunk_lines=10, failed=failed))
    # bad.txt's first chunks were yielded before its line 26 failed; the caller drops them.
    assert [(t.source, t.first_line, len(t.lines)) for t in tasks] == [
        ("bad.txt", 1, 10),
        ("bad.txt", 11, 10),
        ("good.txt", 1, 10),
        ("good.txt", 11, 10),
        ("good.txt", 21, 1),
    ]
    assert failed == {"bad.txt"} and len(problems) == 1 and "bad.txt: cannot decode line 26" in problems[0]
    # Without ``failed``, an input is read whole first and a bad one yields nothing.
    problems.clear()
    tasks = list(iter_tasks(inputs, "linkify-it", problems=problems, chunk_lines=10))
    assert {t.source for t in tasks} == {"good.txt"} and len(problems) == 1


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_input_failing_after_many_chunks_contributes_nothing(tmp_path: Path, jobs: str, capsys) -> None:
    """A file that fails after more than a chunk (500 lines) was audited: none of it is in the report."""
    sample = "\n".join(_sample()).encode("utf-8") + b"\n"
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a_bad.txt").write_bytes(sample * 40 + b"\xc3(\n" + sample)
    (tmp_path / "in" / "b_good.txt").write_bytes(sample * 3)
    (tmp_path / "only").mkdir()
    (tmp_path / "only" / "b_good.txt").write_bytes(sample * 3)
    out, ref = tmp_path / "out.json", tmp_path / "ref.json"
    assert main(["report", str(tmp_path / "in"), "-q", "-j", jobs, "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "a_bad.txt: cannot decode line" in err
    assert main(["report", str(tmp_path / "only"), "-q", "-j", "1", "-o", str(ref)]) == 0
    report, expected = json.loads(out.read_bytes()), json.loads(ref.read_bytes())
    assert report["summary"] == expected["summary"] and report["summary"]["documents"] == 1
    assert len(report["changes"]) == len(expected["changes"]) > 0
    assert {c["source"] for c in report["changes"]} == {str(tmp_path / "in" / "b_good.txt")}


def test_spill_failure_is_a_clear_error(monkeypatch, tmp_path: Path, capsys) -> None:
    from uts58_adapt.report import stream

    def full(self: StreamingMerge, result: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(stream.StreamingMerge, "add", full)
    out = tmp_path / "r.json"
    assert main(["report", "--sample", "-q", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and "temporary file" in err and "Traceback" not in err
    assert not out.exists()
