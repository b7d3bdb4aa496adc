"""Issues 13.7 and 12.9: the local engine's process pool.

- no more workers than chunks, nor than ``max_workers()``; absurd ``--jobs`` is a usage error;
- workers are started with ``forkserver`` or ``spawn``, never ``fork`` (forking a process
  with threads can deadlock; Python 3.12+ warns);
- SIGTERM to ``report -j 2`` leaves no worker process behind.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import warnings
from concurrent.futures import Future
from pathlib import Path
from typing import Any, ClassVar

import pytest

from uts58_adapt.cli import main
from uts58_adapt.report import runner
from uts58_adapt.report.core import ChunkResult, ChunkTask, audit_chunk

from conftest import descendant_processes, process_alive, processes_left

REPO = Path(__file__).resolve().parent.parent


def _tasks(n: int) -> list[ChunkTask]:
    return [ChunkTask("t.txt", i + 1, [f"see example.com/{i}. ok"], "linkify-it") for i in range(n)]


class FakePool:
    """Runs tasks in this process and records how it was built."""

    made: ClassVar[list[dict[str, Any]]] = []

    def __init__(self, **kwargs: Any) -> None:
        FakePool.made.append(kwargs)

    def submit(self, fn: Any, task: ChunkTask) -> Future[ChunkResult]:
        future: Future[ChunkResult] = Future()
        future.set_result(fn(task))
        return future

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        pass


@pytest.fixture
def fake_pool(monkeypatch: pytest.MonkeyPatch) -> type[FakePool]:
    FakePool.made = []
    monkeypatch.setattr(runner, "ProcessPoolExecutor", FakePool)
    return FakePool


def test_workers_capped_at_the_number_of_chunks(fake_pool: type[FakePool]) -> None:
    tasks = _tasks(3)
    assert runner.map_local(tasks, 150) == [audit_chunk(t) for t in tasks]
    assert [kw["max_workers"] for kw in fake_pool.made] == [3]


def test_workers_capped_at_a_sane_maximum(fake_pool: type[FakePool], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert runner.max_workers() == 8
    assert len(runner.map_local(_tasks(40), 1000)) == 40
    assert [kw["max_workers"] for kw in fake_pool.made] == [8]


def test_one_chunk_runs_in_process(fake_pool: type[FakePool]) -> None:
    assert len(runner.map_local(_tasks(1), 8)) == 1
    assert fake_pool.made == []


def test_pool_never_forks(fake_pool: type[FakePool]) -> None:
    runner.map_local(_tasks(4), 2)
    method = fake_pool.made[0]["mp_context"].get_start_method()
    assert method in ("forkserver", "spawn")


def test_real_pool_from_a_threaded_process() -> None:
    """A real pool, started while another thread runs: same results as in-process, and
    no "use of fork() may lead to deadlocks" DeprecationWarning (Python 3.12+)."""
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    try:
        tasks = _tasks(6)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert runner.map_local(tasks, 2) == runner.map_local(tasks, 1)
        assert [str(w.message) for w in caught if "fork" in str(w.message)] == []
    finally:
        stop.set()
        thread.join()


@pytest.mark.parametrize("value", ["99999999999999999999", "1025", "0", "-3", "two"])
def test_absurd_jobs_is_a_usage_error(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["report", "--sample", "-q", "--jobs", value])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--jobs" in err and "Traceback" not in err


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to find the workers")
def test_sigterm_leaves_no_worker_alive(tmp_path: Path) -> None:
    corpus = tmp_path / "docs"
    corpus.mkdir()
    (corpus / "big.txt").write_text("see example.com/αβ(γ/δ)ρς and x.com/a. or b@example.org.\n" * 60_000)
    proc = subprocess.Popen(
        [sys.executable, "-m", "uts58_adapt.cli", "report", str(corpus), "-q", "-j", "2", "-o", str(tmp_path / "r.md")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            # The workers (and, with forkserver, the fork server) are descendants of the CLI.
            workers = descendant_processes(proc.pid)
            if len(workers) >= 3:
                break
            time.sleep(0.1)
        assert proc.poll() is None and len(workers) >= 2, "the run ended before its workers were seen"
        time.sleep(0.5)
        workers |= descendant_processes(proc.pid)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        left = processes_left(workers, timeout=15, step=0.1)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in workers:  # never leave our own strays behind, even when the test fails
            if process_alive(pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
    assert proc.returncode == 143, proc.stderr.read() if proc.stderr else ""
    assert left == []
    assert not (tmp_path / "r.md").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["docs"]
