"""Issue 23.4 with Dask: a refused connection, the --jobs cap, and a cluster whose workers all die."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from uts58_adapt.cli import main
from uts58_adapt.report.runner import max_workers

from conftest import REPO, SAMPLE, child_processes, dask_cli_cluster, repo_env, run_report, stop_group

pytest.importorskip("distributed", reason="the dask extra is not installed: pip install 'uts58_adapt[dask]'")


def _report(*args: str) -> subprocess.CompletedProcess[bytes]:
    return run_report("-q", *args)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_refused_connection_fails_at_once(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    out.write_text("previous\n", encoding="utf-8")
    address = f"tcp://127.0.0.1:{_closed_port()}"
    t0 = time.monotonic()
    proc = _report("--sample", "--engine", "dask", "--scheduler", address, "--connect-timeout", "30", "-o", str(out))
    elapsed = time.monotonic() - t0
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert err.count("\n") == 1 and address in err and "refused" in err, err
    assert elapsed < 15, f"{elapsed:.1f} s: the connect timeout was waited for"
    assert out.read_text(encoding="utf-8") == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


def test_jobs_are_capped_for_the_local_cluster_as_for_the_local_engine(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: list[int | None] = []

    def iter_work(tasks, work, scheduler=None, connect_timeout=30.0, workers=None, stall_timeout=300.0):  # type: ignore[no-untyped-def]
        seen.append(workers)
        return iter([work(t) for t in tasks])

    fake = types.ModuleType("uts58_adapt.report.dask_engine")
    fake.iter_work = iter_work  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "uts58_adapt.report.dask_engine", fake)
    args = ["report", "--sample", "-q", "--format", "json", "--engine", "dask"]
    assert main([*args, "--jobs", "1000", "-o", str(tmp_path / "a.json")]) == 0
    assert main([*args, "--jobs", "1", "-o", str(tmp_path / "b.json")]) == 0
    assert seen == [max_workers(), 1]


@pytest.fixture(params=[1])
def cluster(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``dask scheduler`` and ``dask worker`` (``request.param`` worker processes, default 1) on
    127.0.0.1: ``(address, the dask worker process)``."""
    with dask_cli_cluster(tmp_path, request.param, env=repo_env()) as cluster:
        yield cluster


def test_a_cluster_whose_workers_all_die_fails_after_the_stall_timeout(
    cluster: tuple[str, subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    address, worker = cluster
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(SAMPLE.read_text(encoding="utf-8") * 2000, encoding="utf-8")  # 100,000 lines: a minute or more
    out = tmp_path / "r.json"
    out.write_text("previous\n", encoding="utf-8")
    args = [sys.executable, "-m", "uts58_adapt.cli", "report", "-q", str(corpus), "-o", str(out)]
    proc = subprocess.Popen(
        [*args, "--engine", "dask", "--scheduler", address, "--stall-timeout", "4"],
        env=repo_env(),
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        time.sleep(6)  # connected, tasks running
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        stop_group(worker, signal.SIGKILL)  # every worker of the cluster
        t0 = time.monotonic()
        _, err = proc.communicate(timeout=120)
        elapsed = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    message = err.decode()
    assert proc.returncode == 2, message
    assert "--stall-timeout" in message and message.count("\n") == 1, message
    assert elapsed < 60
    assert out.read_text(encoding="utf-8") == "previous\n"  # the previous output is kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus.txt", "r.json", "scheduler.json"]


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read()
    except OSError:
        return b""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("cluster", [2], indirect=True)
def test_one_of_two_workers_killed_gives_the_same_report(
    cluster: tuple[str, subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    address, worker = cluster
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(SAMPLE.read_text(encoding="utf-8") * 2000, encoding="utf-8")
    local, remote = tmp_path / "local.json", tmp_path / "remote.json"
    assert _report(str(corpus), "--jobs", "1", "-o", str(local)).returncode == 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "uts58_adapt.cli", "report", "-q", str(corpus), "-o", str(remote)]
        + ["--engine", "dask", "--scheduler", address],
        env=repo_env(),
        cwd=REPO,
        stderr=subprocess.PIPE,
    )
    try:
        time.sleep(4)
        # the dask worker command holds the nannies; each starts its worker process (spawn_main)
        workers = [child for child in child_processes(worker.pid) if b"spawn_main" in _cmdline(child)]
        assert len(workers) == 2, workers
        assert proc.poll() is None  # still at work
        os.kill(workers[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err.decode()
    assert remote.read_bytes() == local.read_bytes()
