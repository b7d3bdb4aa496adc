"""A real cluster as the README documents it: ``dask scheduler`` and ``dask worker`` processes.

Both are started on loopback (127.0.0.1 only, no dashboard), bounded in time and stopped
at the end; ``uts58-adapt report --engine dask --scheduler ADDRESS`` must write the same
JSON, byte for byte, as the local engine.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the dask extra is not installed: pip install 'uts58_adapt[dask]'")

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "uts58_adapt" / "corpora" / "sample.txt"
START_TIMEOUT = 120.0


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    env["DASK_DISTRIBUTED__WORKER__DAEMON"] = "True"
    return env


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(20)


@pytest.fixture(scope="module")
def cli_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``dask scheduler`` + ``dask worker`` (2 processes, 1 thread each) on 127.0.0.1; yields the address."""
    root = tmp_path_factory.mktemp("cluster")
    info = root / "scheduler.json"
    common = ["--host", "127.0.0.1", "--no-dashboard"]
    procs: list[subprocess.Popen[bytes]] = []

    def start(*args: str, log: str) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "dask", *args],
            env=_env(),
            cwd=root,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=(root / log).open("wb"),
        )
        procs.append(proc)
        return proc

    try:
        start("scheduler", *common, "--port", "0", "--scheduler-file", str(info), log="scheduler.log")
        deadline = time.monotonic() + START_TIMEOUT
        while not info.exists() or not info.read_text():
            assert time.monotonic() < deadline, (root / "scheduler.log").read_text()
            time.sleep(0.2)
        time.sleep(0.2)  # the file is written whole, but give a partial write a moment
        address = json.loads(info.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:"), address
        start(
            "worker",
            "--scheduler-file",
            str(info),
            *common,
            "--nworkers",
            "2",
            "--nthreads",
            "1",
            "--death-timeout",
            "60",
            log="worker.log",
        )
        from distributed import Client

        with Client(address, timeout=60, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=START_TIMEOUT)
        yield address
    finally:
        for proc in reversed(procs):
            _stop(proc)


def _report(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "uts58_adapt.cli", "report", "--format", "json", "-q", *args],
        capture_output=True,
        env=_env(),
        cwd=REPO,
        timeout=300,
    )


def test_report_on_a_cli_started_cluster_is_identical(cli_cluster: str, tmp_path: Path) -> None:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    # Three files, one of several chunks (500 lines each), so tasks really spread over the workers.
    (tmp_path / "a.txt").write_text("\n".join(lines * 30) + "\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("\n".join(reversed(lines)) + "\n", encoding="utf-8")
    (tmp_path / "c.txt").write_text("", encoding="utf-8")
    for backend in ("linkify-it", "urlextract"):
        local = _report(str(tmp_path), "--backend", backend, "--jobs", "1")
        remote = _report(str(tmp_path), "--backend", backend, "--engine", "dask", "--scheduler", cli_cluster)
        assert local.returncode == 0, local.stderr.decode()
        assert remote.returncode == 0, remote.stderr.decode()
        assert json.loads(local.stdout)["summary"]["changed"] > 0
        assert remote.stdout == local.stdout
