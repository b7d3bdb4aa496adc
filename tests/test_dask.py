"""The Dask engine: a real ``distributed.LocalCluster`` on loopback, worker processes.

``uts58-adapt report --engine dask --scheduler ADDRESS`` must write the same JSON,
byte for byte, as the local engine, on the bundled sample and on a directory of
several files (some longer than one chunk, so files are cut into several tasks).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the dask extra is not installed: pip install 'uts58_adapt[dask]'")

from uts58_adapt.report.core import ChunkTask
from uts58_adapt.report.runner import CHUNK_LINES

from conftest import REPO, SAMPLE, repo_env, run_report


@pytest.fixture(scope="module")
def scheduler_address() -> Iterator[str]:
    from distributed import LocalCluster

    # Worker processes must import uts58_adapt even from a checkout that is not installed.
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = repo_env()["PYTHONPATH"]
    try:
        with LocalCluster(
            n_workers=2,
            processes=True,
            threads_per_worker=1,
            dashboard_address=None,
            host="127.0.0.1",
        ) as cluster:
            yield cluster.scheduler_address
    finally:
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved


def report(*args: str) -> subprocess.CompletedProcess[bytes]:
    return run_report("--format", "json", "-q", *args)


@pytest.fixture(scope="module")
def corpus_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Several files; two are longer than one chunk, one has no link, one is empty."""
    root = tmp_path_factory.mktemp("corpus")
    sample = SAMPLE.read_text(encoding="utf-8").splitlines()
    (root / "a.txt").write_text("\n".join(sample) + "\n", encoding="utf-8")
    long_lines = [f"{k}: {line}" for k in range(3) for line in sample] * (2 * CHUNK_LINES // (3 * len(sample)) + 2)
    (root / "b_long.txt").write_text("\n".join(long_lines), encoding="utf-8")
    (root / "sub").mkdir()
    (root / "sub" / "c.md").write_text(
        "See x.com/a(b)c. and https://example.org/path?q=(1)#frag:~:text=a,b.\n"
        "Mail mailto:john.doe@example.com, or <jane@example.co.uk>.\n"
        "Edge: example.com/" + "(" * 130 + "x\n",
        encoding="utf-8",
    )
    (root / "sub" / "d_plain.txt").write_text("no links here\njust words\n" * 300, encoding="utf-8")
    (root / "sub" / "e_empty.txt").write_text("", encoding="utf-8")
    return root


def test_sample_report_is_identical_on_a_cluster(scheduler_address: str) -> None:
    local = report("--sample", "--engine", "local")
    remote = report("--sample", "--engine", "dask", "--scheduler", scheduler_address)
    assert local.returncode == 0, local.stderr.decode()
    assert remote.returncode == 0, remote.stderr.decode()
    assert b'"changes"' in local.stdout
    assert remote.stdout == local.stdout
    # The chunks really ran in the worker processes: they imported the audit code.
    from distributed import Client

    with Client(scheduler_address, set_as_default=False) as client:
        imported = client.run(lambda: "uts58_adapt.report.core" in sys.modules)
    assert len(imported) == 2 and any(imported.values()), imported


def test_directory_report_is_identical_on_a_cluster(scheduler_address: str, corpus_dir: Path) -> None:
    local = report(str(corpus_dir), "--engine", "local", "--jobs", "1")
    remote = report(str(corpus_dir), "--engine", "dask", "--scheduler", scheduler_address)
    assert local.returncode == 0, local.stderr.decode()
    assert remote.returncode == 0, remote.stderr.decode()
    assert remote.stdout == local.stdout
    import json

    summary = json.loads(local.stdout)["summary"]
    assert summary["documents"] == 5
    assert summary["lines"] > 2 * CHUNK_LINES


def test_default_local_scheduler_gives_the_same_report(corpus_dir: Path) -> None:
    local = report(str(corpus_dir), "--engine", "local", "--jobs", "1")
    threaded = report(str(corpus_dir), "--engine", "dask")
    assert threaded.returncode == 0, threaded.stderr.decode()
    assert threaded.stdout == local.stdout


def test_without_scheduler_a_process_cluster_runs_the_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 11.4: no scheduler means a LocalCluster of worker processes (not Dask's threads)."""
    import distributed

    from uts58_adapt.report.core import audit_chunk
    from uts58_adapt.report.dask_engine import map_chunks

    seen: list[dict[str, object]] = []
    real = distributed.LocalCluster

    def spy(*args: object, **kwargs: object) -> object:
        import dask

        config = {
            key: dask.config.get(key)
            for key in ("distributed.worker.multiprocessing-method", "distributed.worker.profile.enabled")
        }
        seen.append({**kwargs, **config})
        return real(*args, **kwargs)

    monkeypatch.setattr(distributed, "LocalCluster", spy)
    tasks = _tasks()
    assert map_chunks(iter(tasks), None, workers=2) == [audit_chunk(t) for t in tasks]
    assert len(seen) == 1
    assert seen[0]["processes"] is True and seen[0]["n_workers"] == 2 and seen[0]["threads_per_worker"] == 1
    assert seen[0]["host"] == "127.0.0.1"
    # Workers forked from a fork server (never from this threaded process), no profiler.
    assert seen[0]["distributed.worker.multiprocessing-method"] in ("forkserver", "spawn")
    assert seen[0]["distributed.worker.profile.enabled"] is False
    assert map_chunks([], None) == [] and len(seen) == 1  # nothing to do: no cluster


def test_jobs_with_a_scheduler_is_a_usage_error() -> None:
    proc = report("--sample", "--engine", "dask", "--scheduler", "tcp://127.0.0.1:9", "--jobs", "2")
    assert proc.returncode == 2
    assert b"--jobs" in proc.stderr and b"Traceback" not in proc.stderr


def _tasks() -> list[ChunkTask]:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    return [ChunkTask(f"doc{k}", 1 + 7 * k, lines[k : k + 7], "linkify-it") for k in range(0, 40, 2)]


@pytest.mark.parametrize("where", ["cluster", "default"])
def test_map_chunks_keeps_task_order(where: str, request: pytest.FixtureRequest) -> None:
    from uts58_adapt.report.core import audit_chunk
    from uts58_adapt.report.dask_engine import map_chunks

    address = request.getfixturevalue("scheduler_address") if where == "cluster" else None
    tasks = _tasks()
    results = map_chunks(iter(tasks), address)
    assert results == [audit_chunk(task) for task in tasks]
    assert map_chunks([], address) == []


def test_unreachable_scheduler_is_reported_by_address(monkeypatch: pytest.MonkeyPatch) -> None:
    from uts58_adapt.report import dask_engine
    from uts58_adapt.report.runner import DaskUnavailable

    with pytest.raises(DaskUnavailable, match=r"tcp://127\.0\.0\.1:9"):
        dask_engine.map_chunks(_tasks(), "tcp://127.0.0.1:9", connect_timeout=2)


@pytest.fixture
def fake_server(request: pytest.FixtureRequest) -> Iterator[int]:
    """A loopback TCP server that accepts; it never answers ("silent") or sends HTTP ("http")."""
    import socket
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    srv.settimeout(0.2)
    stop = threading.Event()
    conns: list[socket.socket] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            conns.append(conn)
            if request.param == "http":
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield srv.getsockname()[1]
    finally:
        stop.set()
        thread.join(5)
        for conn in conns:
            conn.close()
        srv.close()


@pytest.mark.parametrize(
    ("fake_server", "message"),
    [("silent", "no answer within 2 s"), ("http", "does not answer as a Dask scheduler")],
    indirect=["fake_server"],
)
def test_scheduler_that_is_no_scheduler_fails_in_time(fake_server: int, message: str, tmp_path: Path) -> None:
    """Issue 13.7: a peer that accepts and never answers hung for over 600 s; one that is not
    Dask gave a MemoryError or hung 60 s in Client.__del__.  Now: exit 2 with a message."""
    import time

    address = f"tcp://127.0.0.1:{fake_server}"
    out = tmp_path / "r.json"
    t0 = time.monotonic()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "uts58_adapt.cli",
            "report",
            "--sample",
            "-q",
            "--engine",
            "dask",
            "--scheduler",
            address,
            "--connect-timeout",
            "2",
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        env=repo_env(),
        cwd=REPO,
        timeout=90,
    )
    elapsed = time.monotonic() - t0
    assert proc.returncode == 2, proc.stderr
    assert address in proc.stderr and message in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    assert elapsed < 30, elapsed
    assert not out.exists()


def test_connect_timeout_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    from uts58_adapt.cli import main

    for bad in ("0", "-1", "nan", "soon"):
        with pytest.raises(SystemExit) as exc:
            main(["report", "--sample", "--engine", "dask", "--connect-timeout", bad])
        assert exc.value.code == 2
        assert "--connect-timeout" in capsys.readouterr().err


def test_uts58_adapt_does_not_import_dask() -> None:
    code = "import sys, uts58_adapt, uts58_adapt.detection, uts58_adapt.report.runner; print('dask' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, env=repo_env(), cwd=REPO, timeout=120)
    assert out.stdout.strip() == b"False", out.stderr.decode()


def test_asyncio_reports_of_allexit_are_filtered() -> None:
    """A result awaited when the client closes ends in ``AllExit``; asyncio's "Task exception was never
    retrieved" for it (a traceback after the one-line --stall-timeout error) is dropped, nothing else."""
    import logging

    from distributed.client import AllExit

    from uts58_adapt.report.dask_engine import _not_all_exit

    def record(exc: BaseException | None) -> logging.LogRecord:
        info = (type(exc), exc, None) if exc is not None else None
        return logging.LogRecord("asyncio", logging.ERROR, __file__, 1, "Task exception was never retrieved", (), info)

    assert _not_all_exit(record(AllExit())) is False
    assert _not_all_exit(record(ValueError("x"))) is True
    assert _not_all_exit(record(None)) is True
