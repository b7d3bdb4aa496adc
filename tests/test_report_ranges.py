"""Issue 11.4: the CLI's workers read byte ranges of each file themselves (:class:`RangeTask`)
and return rendered rows (:class:`Rows`); the report and the messages are those of reading
the lines in the main process (:func:`iter_tasks`), whatever the engine and the cut."""

from __future__ import annotations

import itertools
import json
from importlib import resources
from pathlib import Path

import pytest

from uts58_adapt._io import InputError, read_lines
from uts58_adapt.cli import main
from uts58_adapt.report import merge, render
from uts58_adapt.report.core import PROVENANCE, ChunkTask, audit_chunk
from uts58_adapt.report.runner import (
    Notice,
    RangeTask,
    _ranges,
    audit_rows,
    iter_report_tasks,
    iter_rows,
    iter_tasks,
    read_range,
)
from uts58_adapt.report.stream import StreamingMerge, to_rows


def _sample_bytes() -> bytes:
    text = (resources.files("uts58_adapt") / "corpora" / "sample.txt").read_text(encoding="utf-8")
    return text.encode("utf-8")


def _cut(path: Path, chunk_lines: int, range_bytes: int, max_line: int = 1 << 24) -> list[tuple[int, int, int]]:
    return list(_ranges(path.name, str(path), chunk_lines, max_line, range_bytes))


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"one line, no newline see example.com/a.",
        b"a\nb\n",
        b"\n\n\n",
        b"x\r\ny.com/(a)\r\n\rz\n" * 7 + b"tail",
        b"short\n" + b"L" * 300 + b" example.com/long.\n" + b"s\n" * 5,
    ],
)
@pytest.mark.parametrize(("chunk_lines", "range_bytes"), [(1, 1 << 20), (3, 1 << 20), (500, 50), (2, 10)])
def test_ranges_hold_the_lines_of_read_lines(tmp_path: Path, data: bytes, chunk_lines: int, range_bytes: int) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    ranges = _cut(path, chunk_lines, range_bytes)
    # Contiguous, covering the file, numbered by line; an empty file is one empty range.
    assert ranges[0][0] == 0 and sum(r[1] for r in ranges) == len(data)
    assert all(a[0] + a[1] == b[0] for a, b in itertools.pairwise(ranges))
    lines: list[str] = []
    for offset, length, first in ranges:
        assert first == len(lines) + 1
        assert length > 0 or len(ranges) == 1
        chunk = read_range(
            RangeTask("f.txt", str(path), offset, length, first, "linkify-it", "utf-8", "strict", 1 << 24)
        )
        assert len(chunk.lines) <= chunk_lines
        lines += chunk.lines
    assert lines == list(read_lines(str(path)))


def test_a_line_without_newline_longer_than_max_line_ends_the_cut(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"ok\n" * 3 + b"z" * 3_000_000)  # more than a read block, no newline
    ranges = _cut(path, 500, 1 << 22, max_line=1000)
    assert ranges[-1][0] == 0 and ranges[-1][1] > 1000  # the cut stopped: bounded memory
    task = RangeTask("f.txt", str(path), *ranges[-1], "linkify-it", "utf-8", "strict", 1000)
    with pytest.raises(InputError, match=r"^f\.txt: line 4 is longer than 1000 bytes \(--max-line\)"):
        read_range(task)


@pytest.mark.parametrize(
    ("data", "errors"),
    [
        (b"see example.com\n" * 25 + b"\xff\n" + b"x\n" * 5, "strict"),
        (b"a\n" * 9 + b"caf\xc3\n" + b"b\xe2\x82\n", "strict"),  # the reason differs with and without the newline
        (b"a\n" * 9 + b"caf\xc3\n" + b"b\xe2\x82", "strict"),
        (b"ok\n" + b"w" * 200 + b"\nafter\n", "strict"),  # longer than --max-line 100
        (b"caf\xc3\n\xff example.com/\xe2\x82\n", "surrogateescape"),
        (b"caf\xc3\n\xff example.com/\xe2\x82\n", "replace"),
    ],
)
@pytest.mark.parametrize("chunk_lines", [1, 4, 500])
def test_range_tasks_fail_and_succeed_as_reading_lines_does(
    tmp_path: Path, data: bytes, errors: str, chunk_lines: int
) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    problems: list[str] = []
    expected = [
        audit_chunk(t)
        for t in iter_tasks([("f.txt", str(path))], "linkify-it", errors=errors, problems=problems, max_line=100)
    ]
    got = []
    messages = []
    for task in iter_report_tasks(
        [str(path)], False, "linkify-it", errors=errors, max_line=100, chunk_lines=chunk_lines
    ):
        assert isinstance(task, RangeTask)
        rows = audit_rows(task)
        if rows.problem is not None:
            messages.append(rows.problem.replace(str(path), "f.txt", 1))
        else:
            got.append(rows)
    if problems:
        assert messages[:1] == problems  # the first failing range says what read_lines says
    else:
        assert messages == []
        with StreamingMerge("linkify-it") as merged:
            for rows in got:
                merged.add(rows)
            assert b"".join(merged.json_chunks()).replace(str(path).encode(), b"f.txt") == render(
                merge(expected), "json"
            ).encode("utf-8")


def test_rows_are_the_chunk_results_rendered() -> None:
    result = audit_chunk(ChunkTask("a.txt", 3, _sample_bytes().decode("utf-8").splitlines(), "linkify-it"))
    rows = to_rows(result)
    assert rows.rows.count(b"\n") == len(result.changes) > 0
    assert [json.loads(line) for line in rows.rows.splitlines()] == merge([result])["changes"]
    assert sum(n for _, n in rows.by_kind) == sum(n for _, n in rows.by_reason) == len(result.changes)
    with StreamingMerge("linkify-it") as a, StreamingMerge("linkify-it") as b:
        a.add(result)
        b.add(rows)
        assert b"".join(a.json_chunks()) == b"".join(b.json_chunks())
        with pytest.raises(ValueError, match="not a result"):
            b.add(audit_rows(Notice(None, "x: no such file", "linkify-it")))


def test_utf16_and_stdin_are_read_here_as_lines(tmp_path: Path) -> None:
    path = tmp_path / "u.txt"
    path.write_text("see example.com/a.\n" * 3, encoding="utf-16")
    tasks = list(iter_report_tasks([str(path)], False, "linkify-it", encoding="utf-16"))
    assert [type(t) for t in tasks] == [ChunkTask] and len(tasks[0].lines) == 3
    tasks = list(iter_report_tasks([str(path)], False, "linkify-it", encoding="utf-8", ranges=False))
    assert [type(t) for t in tasks] == [Notice]  # not UTF-8: read here, and the message is a Notice


@pytest.mark.parametrize("jobs", [1, 2])
def test_messages_come_in_input_order_whatever_the_jobs(tmp_path: Path, jobs: int) -> None:
    (tmp_path / "a_bad.txt").write_bytes(b"x.com\n" * 40 + b"\xff\n")
    (tmp_path / "b_good.txt").write_bytes(b"y.com\n" * 40)
    paths = [str(tmp_path / "a_bad.txt"), str(tmp_path / "missing.txt"), str(tmp_path / "b_good.txt")]
    tasks = iter_report_tasks(paths, False, "linkify-it", chunk_lines=5)
    problems = [r.problem for r in iter_rows(tasks, jobs) if r.problem is not None]
    assert len(problems) == 2
    assert problems[0].startswith(f"{paths[0]}: cannot decode line 41")
    assert problems[1] == f"{paths[1]}: no such file or directory"


@pytest.mark.parametrize("fmt", ["json", "md"])
def test_cli_report_is_the_same_for_one_and_two_jobs_and_for_lines(tmp_path: Path, fmt: str) -> None:
    corpus = tmp_path / "in"
    corpus.mkdir()
    sample = _sample_bytes()
    (corpus / "big.txt").write_bytes(b"".join(b"%d " % k + sample for k in range(6)))  # > 500 lines: several ranges
    (corpus / "crlf.txt").write_bytes(sample.replace(b"\n", b"\r\n"))
    (corpus / "empty.txt").write_bytes(b"")
    outs = {}
    for label, extra in (("j1", ["-j", "1"]), ("j2", ["-j", "2"])):
        out = tmp_path / f"{label}.{fmt}"
        assert main(["report", str(corpus), "-q", *extra, "--format", fmt, "-o", str(out)]) == 0
        outs[label] = out.read_bytes()
    problems: list[str] = []
    inputs = [(str(p), str(p)) for p in sorted(corpus.iterdir())]
    tasks = iter_tasks(inputs, "linkify-it", problems=problems, preview="")
    json_out = tmp_path / "meta.json"
    assert main(["report", str(corpus), "-q", "--format", "json", "-o", str(json_out)]) == 0
    meta = {key: json.loads(json_out.read_bytes())[key] for key in PROVENANCE}
    report = merge(map(audit_chunk, tasks), backend="linkify-it", meta=meta)
    assert report["summary"]["documents"] == 3 and report["summary"]["changed"] > 0
    assert outs["j1"] == outs["j2"] == render(report, fmt).encode("utf-8", "replace")


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="needs /dev/fd")
def test_a_path_through_a_file_descriptor_is_read_by_the_main_process(tmp_path: Path) -> None:
    """``report /dev/stdin < FILE`` names a regular file, but /dev/stdin (/dev/fd/N) opened
    in a worker is the worker's own descriptor: such paths are read here and sent as lines."""
    corpus = tmp_path / "in.txt"
    corpus.write_bytes(_sample_bytes() * 20)  # several chunks
    with corpus.open("rb") as fh:
        tasks = list(iter_report_tasks([f"/dev/fd/{fh.fileno()}"], False, "linkify-it"))
    assert len(tasks) > 1 and all(type(t) is ChunkTask for t in tasks)
    assert [type(t) for t in iter_report_tasks([str(corpus)], False, "linkify-it")] == [RangeTask] * len(tasks)
