"""Issue 13.6: inputs are read in bounded pieces.

- a line longer than ``--max-line`` (default 16 MiB) is reported with the input named and
  the input is not read further: ``report /dev/zero`` ends, in bounded memory;
- in a walked directory, anything that is not a regular file (a FIFO, a device) is
  skipped and named: a FIFO no longer blocks the run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from uts58_adapt._io import MAX_LINE, parse_size
from uts58_adapt.cli import main

REPO = Path(__file__).resolve().parent.parent


def test_parse_size() -> None:
    assert MAX_LINE == 16 * 1024 * 1024
    assert parse_size("16M") == parse_size("16MiB") == parse_size("16mb") == MAX_LINE
    assert parse_size("512k") == 512 * 1024
    assert parse_size("100") == 100
    assert parse_size("1G") == 1024**3
    for bad in ("", "0", "-1", "1.5M", "M", "16X", "ten"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_size(bad)


@pytest.mark.parametrize("command", ["detect", "report"])
def test_bad_max_line_is_a_usage_error(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([command, "x.txt", "--max-line", "lots"])
    assert exc.value.code == 2
    assert "--max-line" in capsys.readouterr().err


def _files(tmp_path: Path) -> tuple[Path, Path]:
    long = tmp_path / "long.txt"
    long.write_text("see x.com/a. ok\n" + "y" * 2000 + " z.com\nlast line w.com\n", encoding="utf-8")
    good = tmp_path / "good.txt"
    good.write_text("mail john@example.org\n", encoding="utf-8")
    return long, good


def test_detect_long_line_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long, good = _files(tmp_path)
    assert main(["detect", str(long), str(good), "--max-line", "1K"]) == 1
    out, err = capsys.readouterr()
    assert err == f"uts58-adapt detect: {long}: line 2 is longer than 1 KiB (--max-line); not read further\n"
    assert out == f"{long}:1:see ⸠x.com/a⸡. ok\n{good}:1:mail ⸠john@example.org⸡\n"  # several files: named


def test_report_long_line_skips_that_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long, good = _files(tmp_path)
    assert main(["report", str(long), str(good), "-q", "--format", "json", "--max-line", "1024"]) == 1
    out, err = capsys.readouterr()
    assert f"{long}: line 2 is longer than 1 KiB (--max-line); not read further" in err
    summary = json.loads(out)["summary"]
    assert (summary["documents"], summary["lines"]) == (1, 1)  # only good.txt: nothing half read


def test_line_of_exactly_max_line_bytes_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "exact.txt"
    src.write_bytes(b"x.com/" + b"a" * 1018 + b"\n" + b"b.com\n")  # 1024 bytes + newline
    assert main(["detect", str(src), "--max-line", "1K"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "⸠b.com⸡"
    src.write_bytes(b"x" * 1025)  # no newline at all: one byte too many
    assert main(["detect", str(src), "--max-line", "1K"]) == 1


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
def test_limit_holds_for_every_encoding(encoding: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "wide.txt"
    src.write_text("ok x.com\n" + "é" * 3000 + "\n", encoding=encoding)
    assert main(["detect", str(src), "--encoding", encoding, "--max-line", "2K"]) == 1
    out, err = capsys.readouterr()
    assert out == "ok ⸠x.com⸡\n"
    assert "line 2 is longer than 2 KiB" in err


def _limit_memory() -> None:  # in the child: a run away read fails at 1 GiB instead of filling the machine
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_report_dev_zero_ends_in_bounded_memory() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "uts58_adapt.cli", "report", "/dev/zero", "-q", "--format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        preexec_fn=_limit_memory,
    )
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # No document was read: exit 2, nothing written (issue 33.5).
    assert proc.returncode == 2, err.decode()
    assert err.decode() == (
        "uts58-adapt report: /dev/zero: line 1 is longer than 16 MiB (--max-line); not read further\n"
        "uts58-adapt report: no document was read (1 problem above); nothing written\n"
    )
    assert out == b""  # no report of nothing (issue 24.3)


def test_fifo_and_device_in_a_walked_directory_are_skipped(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text("see example.com/αβ(γ/δ)ρς now\n", encoding="utf-8")
    os.mkfifo(docs / "pipe")
    (docs / "zero").symlink_to("/dev/zero")
    t0 = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "uts58_adapt.cli", "report", str(docs), "-q", "--format", "json", "-j", "1"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert time.monotonic() - t0 < 100
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.splitlines() == [
        f"uts58-adapt report: {docs / 'pipe'}: skipped: not a regular file (a FIFO)",
        f"uts58-adapt report: {docs / 'zero'}: skipped: not a regular file (a character device)",
    ]
    report = json.loads(proc.stdout)
    assert report["summary"]["documents"] == 1
    assert {c["source"] for c in report["changes"]} == {str(docs / "a.txt")}
