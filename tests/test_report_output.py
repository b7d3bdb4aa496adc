"""Issue 13.4: ``report -o`` on special files, and no temporary file left after a signal.

- A regular file or a new path is replaced atomically (tests/test_bad_input.py);
- a symbolic link is followed: its target gets the report, the link stays a link;
- a FIFO or a character device is written through, never replaced by a regular file;
- SIGTERM or SIGINT while the report is being written leaves the previous report and
  no ``.tmp`` file (the CLI turns SIGTERM into an exception, so cleanup runs).

The device case uses a copy of /dev/null made with mknod in a temporary directory, so a
failing run cannot replace the machine's real /dev/null.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from uts58_adapt.cli import main

ARGS = ["report", "--sample", "-q", "--format", "json"]
REPO = Path(__file__).resolve().parent.parent


def test_symlink_is_followed(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert main([*ARGS, "-o", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert json.loads(target.read_text(encoding="utf-8"))["backend"] == "linkify-it"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]


def test_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "new.json")
    assert main([*ARGS, "-o", str(link)]) == 0
    assert link.is_symlink()
    assert json.loads((tmp_path / "new.json").read_text(encoding="utf-8"))["backend"] == "linkify-it"


def test_fifo_is_written_through(tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def reader() -> None:
        with open(fifo, "rb") as fh:
            got.append(fh.read())

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    assert main([*ARGS, "-o", str(fifo)]) == 0
    thread.join(30)
    assert not thread.is_alive()
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert json.loads(got[0].decode("utf-8"))["backend"] == "linkify-it"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.fifo"]


def test_character_device_is_not_replaced(tmp_path: Path) -> None:
    null = tmp_path / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        null.open("wb").close()
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot make a device node here: {exc}")
    assert main([*ARGS, "--format", "md", "-o", str(null)]) == 0
    st = os.lstat(null)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]


@pytest.mark.skipif(not os.path.exists("/proc/self/fd/1"), reason="needs /proc")
@pytest.mark.parametrize("stdout_kind", ["pipe", "file"])
def test_dev_stdout(tmp_path: Path, stdout_kind: str) -> None:
    """``-o /dev/stdout`` writes to the standard output, a pipe or a file, and leaves the link.

    /dev/stdout is a link to /proc/self/fd/1.  The test uses its own such link in
    tmp_path: code that replaced the link by a file (as before issue 13.4, which did
    turn this machine's /dev/stdout into a regular file) then only breaks the copy.
    """
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    cmd = [sys.executable, "-m", "uts58_adapt.cli", *ARGS, "-o", str(link)]
    if stdout_kind == "pipe":
        proc = subprocess.run(cmd, capture_output=True, timeout=120, cwd=REPO)
        written = proc.stdout
    else:
        out = tmp_path / "captured.json"
        with out.open("wb") as fh:
            inode = os.fstat(fh.fileno()).st_ino
            proc = subprocess.run(cmd, stdout=fh, stderr=subprocess.PIPE, timeout=120, cwd=REPO)
        assert os.stat(out).st_ino == inode  # written through the descriptor, not renamed over
        written = out.read_bytes()
    assert proc.returncode == 0, proc.stderr
    assert json.loads(written.decode("utf-8"))["backend"] == "linkify-it"
    assert link.is_symlink() and os.readlink(link) == "/proc/self/fd/1"


# The report is written with os.fsync slowed down: the child says "ready" once the
# temporary file holds the new report, then waits to be signalled.  SIGINT is given
# Python's own handler first: a shell starts a background job (``cmd &`` without job
# control, as a CI script may) with SIGINT ignored, and children inherit that.
CHILD = """
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
def slow_fsync(fd):
    print("ready", flush=True)
    time.sleep(60)
os.fsync = slow_fsync
from uts58_adapt.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize(("sig", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_signal_during_write_leaves_no_temp_file(tmp_path: Path, sig: signal.Signals, status: int) -> None:
    out = tmp_path / "report.json"
    out.write_text("previous\n", encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, *ARGS, "-o", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        assert any(p.name.endswith(".tmp") for p in tmp_path.iterdir())  # the write is under way
        proc.send_signal(sig)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == status, proc.stderr.read() if proc.stderr else ""
    assert out.read_text(encoding="utf-8") == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]
    time.sleep(0)
