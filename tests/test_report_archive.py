"""Issue 23.2-23.5: the audit at archive scale: duplicate paths, output checked before any
input is read, workers that die, names that reach the terminal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from uts58_adapt.cli import main

from conftest import descendant_processes, processes_left

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(REPO)}


def run_cli(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "uts58_adapt.cli", "report", *args],
        input=b"",
        capture_output=True,
        env=ENV,
        cwd=cwd or REPO,
        timeout=timeout,
    )


@pytest.fixture
def big(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "big"
    root.mkdir()
    (root / "f0.txt").write_text("see x.co/( and a.co/b.\n" * 3, encoding="utf-8")
    (root / "f1.txt").write_text("mail ü@example.de\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return root


def _summary(*paths: str, out: Path) -> dict:
    assert main(["report", "-q", "--format", "json", "-o", str(out), *paths]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "again", ["./big/f0.txt", "big/../big/f0.txt", "ABSOLUTE", "link.txt", "hard.txt", "big/f0.txt", "big"]
)
def test_a_file_named_twice_is_audited_once(big: Path, again: str) -> None:
    (big.parent / "link.txt").symlink_to(big / "f0.txt")
    os.link(big / "f0.txt", big.parent / "hard.txt")
    once = _summary("big", out=big.parent / "once.json")
    assert once["summary"]["lines"] == 4 and once["summary"]["documents"] == 2
    twice = _summary("big", again.replace("ABSOLUTE", str(big / "f0.txt")), out=big.parent / "twice.json")
    del twice["options"], once["options"]  # (the options record the paths as given)
    assert twice == once  # the name in the report is the first one given
    name = again.replace("ABSOLUTE", str(big / "f0.txt"))
    first = _summary(name, "big", out=big.parent / "first.json")
    assert first["summary"] == once["summary"]
    sources = {c["source"] for c in first["changes"]}
    assert sources == ({"big/f0.txt", "big/f1.txt"} if again == "big" else {name, "big/f1.txt"})


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_exit_when_the_cli_is_killed(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for k in range(4):
        (corpus / f"f{k}.txt").write_text("see x.co/( and a.co/b. ü@example.de\n" * 60_000, encoding="utf-8")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uts58_adapt.cli",
            "report",
            "-q",
            "--jobs",
            "2",
            str(corpus),
            "-o",
            str(tmp_path / "r.json"),
        ],
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        family: set[int] = set()
        while time.monotonic() < deadline and len(family) < 4:  # fork server, 2 workers, resource tracker
            time.sleep(0.2)
            family |= descendant_processes(proc.pid)
        assert len(family) >= 3, family
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        left = processes_left(family, timeout=15, step=0.2)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, "still running after the CLI was killed"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_an_output_that_cannot_be_written_fails_before_any_input_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "input.fifo"
    os.mkfifo(fifo)  # reading it would wait for a writer for ever: the check must come first
    for out, reason in (
        ("/proc/audit.json", "cannot create a file in /proc"),
        (str(tmp_path / "no/r.json"), "no such"),
    ):
        t0 = time.monotonic()
        proc = run_cli(str(fifo), "-o", out, timeout=60)
        err = proc.stderr.decode()
        assert proc.returncode == 2 and err.count("\n") == 1, err
        assert f"{out}: cannot write: {reason}" in err
        assert time.monotonic() - t0 < 30


def test_a_long_output_name_is_written(tmp_path: Path) -> None:
    """A valid 245-byte name: the temporary file's name, with its prefix and suffix, stays within the limit."""
    for name in ("r" * 240 + ".json", "é" * 120 + ".json"):  # 245 and 245 bytes
        out = tmp_path / name
        assert len(os.fsencode(name)) == 245
        assert main(["report", "--sample", "-q", "-o", str(out)]) == 0
        assert json.loads(out.read_text(encoding="utf-8"))["summary"]["changed"] > 0
    assert len(list(tmp_path.iterdir())) == 2  # no temporary file left


NASTY = "x\x1b[2J\x1b[31mred\u202e\r.txt"


def test_names_reach_the_terminal_escaped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from uts58_adapt.report.render_text import render_text

    monkeypatch.chdir(tmp_path)
    Path(NASTY).write_text("see x.co/(\n", encoding="utf-8")
    out = tmp_path / "r.json"
    assert main(["report", "-q", NASTY, "-o", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["changes"][0]["source"] == NASTY  # the report keeps the name as it is
    text = render_text(report, width=200)
    assert "\x1b" not in text and "\u202e" not in text and "\r" not in text
    assert "x⟨U+001B⟩[2J⟨U+001B⟩[31mred⟨U+202E⟩⟨U+000D⟩.txt:1:5" in text
    # ... and so do the messages on stderr
    proc = run_cli(NASTY + "missing", "-o", str(out), cwd=tmp_path)
    err = proc.stderr.decode()
    assert "\x1b" not in err and "x⟨U+001B⟩[2J" in err


def test_a_backend_whose_extra_is_missing_is_one_line_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from uts58_adapt import backends

    for name in [k for k in sys.modules if k.startswith(("django.", "uts58_adapt.backends.django"))]:
        monkeypatch.delitem(sys.modules, name)  # (restored after the test)
    monkeypatch.setitem(sys.modules, "django", None)  # import django fails
    monkeypatch.delitem(backends._instances, "django", raising=False)
    out = tmp_path / "r.html"
    assert main(["report", "--sample", "--backend", "django", "-o", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "pip install 'uts58_adapt[django]'" in captured.err, captured.err
    assert list(tmp_path.iterdir()) == []


def test_no_input_read_writes_nothing_and_keeps_the_output(tmp_path: Path) -> None:
    keep = tmp_path / "keep.html"
    keep.write_text("<p>47 changes</p>\n", encoding="utf-8")
    proc = run_cli(str(tmp_path / "typo_dir/"), "-o", str(keep))
    err = proc.stderr.decode()
    assert proc.returncode == 2, err  # no document read (issue 33.5)
    assert "typo_dir: no such file or directory" in err and "nothing written" in err
    assert keep.read_text(encoding="utf-8") == "<p>47 changes</p>\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.html"]
    proc = run_cli(str(tmp_path / "typo_dir/"))  # nor on stdout
    assert proc.returncode == 2 and proc.stdout == b""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-o", "audit.pdf"], "unknown report format '.pdf'; name the file .json, .md or .html, or give --format"),
        (["--encoding", "nope"], "unknown encoding: nope"),
        (["--encoding", "rot13"], "not a text encoding"),
        (["--errors", "nope"], "unknown --errors handler"),
        (["--jobs", "0"], "must be from 1 to"),
        (["--stall-timeout", "-1"], "must be more than 0"),
        (["--backend", "nope"], "invalid choice"),
    ],
)
def test_every_bad_argument_is_one_message_and_status_2(tmp_path: Path, args: list[str], message: str) -> None:
    files = []
    for k in range(3):
        files.append(tmp_path / f"f{k}.txt")
        files[-1].write_text("x.co/(\n", encoding="utf-8")
    proc = run_cli(*map(str, files), *args, cwd=tmp_path)
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert message in err
    assert len([line for line in err.splitlines() if "error" in line or "report:" in line]) == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f0.txt", "f1.txt", "f2.txt"]
