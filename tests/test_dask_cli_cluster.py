"""A real cluster as the README documents it: ``dask scheduler`` and ``dask worker`` processes.

Both are started on loopback (127.0.0.1 only, no dashboard), bounded in time and stopped
at the end; ``uts58-adapt report --engine dask --scheduler ADDRESS`` must write the same
JSON, byte for byte, as the local engine.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the dask extra is not installed: pip install 'uts58_adapt[dask]'")

from conftest import SAMPLE, dask_cli_cluster, repo_env, run_report

START_TIMEOUT = 120.0


def _env() -> dict[str, str]:
    return {**repo_env(), "DASK_DISTRIBUTED__WORKER__DAEMON": "True"}


@pytest.fixture(scope="module")
def cli_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``dask scheduler`` + ``dask worker`` (2 processes, 1 thread each) on 127.0.0.1; yields the address."""
    root = tmp_path_factory.mktemp("cluster")
    with dask_cli_cluster(root, 2, "--death-timeout", "60", env=_env(), logs=True, timeout=START_TIMEOUT) as cluster:
        yield cluster[0]


def _report(*args: str) -> subprocess.CompletedProcess[bytes]:
    return run_report("--format", "json", "-q", *args, env=_env())


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
