"""``uts58-adapt report`` end to end: inputs, errors, output, formats, engines, progress."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import types
from collections import Counter
from pathlib import Path

import pytest

from uts58_adapt.cli import main
from uts58_adapt.report import merge, render
from uts58_adapt.report.runner import iter_tasks, map_local, resolve_inputs

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = "See example.com/αβ(γ/δ)ρς?α=θ&β=κ#λμν:~:text=φχψ on…"


def run_cli(*args: str, input: bytes | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "uts58_adapt.cli", "report", *args],
        input=input if input is not None else b"",
        capture_output=True,
        env=full_env,
        cwd=REPO,
        timeout=300,
    )


def assert_consistent(report: dict) -> None:
    """The summary agrees with the change list."""
    s = report["summary"]
    changes = report["changes"]
    assert s["changed"] == len(changes)
    assert sum(s["by_kind"].values()) == s["changed"]
    assert sum(s["by_reason"].values()) == s["changed"]
    assert s["by_kind"] == dict(Counter(c["kind"] for c in changes))
    assert s["by_reason"] == dict(Counter(c["reason"] for c in changes))
    assert s["links_before"] == s["unchanged"] + sum(c["before"] is not None for c in changes)
    assert s["links_after"] == s["unchanged"] + sum(c["after"] is not None for c in changes)
    for c in changes:
        line, offset = c["line_text"], c.get("line_text_start", 0)  # a long line's rows: its context
        for side in ("before", "after"):
            if c[side] is not None:
                start, end = c[side]
                assert line[start - offset : end - offset] == c[f"{side}_text"]
        assert c["column"] == 1 + min(c[s][0] for s in ("before", "after") if c[s] is not None)
    keys = [(c["source"], c["line"], c["column"]) for c in changes]
    assert keys == sorted(keys)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text(EXAMPLE + "\nplain text\n", encoding="utf-8")
    (root / "sub" / "b.txt").write_text(
        "देखें example.in/पृष्ठ/मुख्य। धन्यवाद\nVoir https://exemple.fr/été. Merci\n", encoding="utf-8"
    )
    (root / "image.bin").write_bytes(b"\x89PNG\0\0\0example.com/x.")  # binary: skipped silently
    (root / ".hidden.txt").write_text("example.com/hidden.\n", encoding="utf-8")
    return root


def test_stdin_json() -> None:
    proc = run_cli("-", "--format", "json", input=(EXAMPLE + "\nnothing here\n").encode())
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stderr == b""
    report = json.loads(proc.stdout)
    assert_consistent(report)
    assert report["backend"] == "linkify-it"
    assert report["summary"]["documents"] == 1 and report["summary"]["lines"] == 2
    (change,) = report["changes"]
    assert change["source"] == "<stdin>"
    assert (change["line"], change["column"]) == (1, 5)
    assert change["before"] == [4, 48] and change["after"] == [4, 22]
    assert (change["kind"], change["reason"]) == ("trimmed", "bracket-across-separator")


def test_directory_with_bad_inputs(corpus: Path, tmp_path: Path) -> None:
    bad = corpus / "latin1.txt"
    bad.write_bytes("café example.com/x.\n".encode("latin-1"))
    missing = tmp_path / "missing.txt"
    out = tmp_path / "out.json"
    proc = run_cli(str(corpus), str(missing), "--jobs", "1", "-o", str(out))
    assert proc.returncode == 1
    err = proc.stderr.decode()
    assert f"{bad}: cannot decode line 1" in err
    assert f"{missing}: no such file or directory" in err
    assert "Traceback" not in err
    report = json.loads(out.read_text(encoding="utf-8"))
    assert_consistent(report)
    sources = {c["source"] for c in report["changes"]}
    assert sources == {str(corpus / "a.txt"), str(corpus / "sub" / "b.txt")}
    assert report["summary"]["documents"] == 2  # a.txt and sub/b.txt; the binary, hidden and bad files are not


def test_encoding_and_errors_options(corpus: Path) -> None:
    bad = corpus / "latin1.txt"
    bad.write_bytes("café example.com/x. y\n".encode("latin-1"))
    proc = run_cli(str(bad), "--encoding", "latin-1", "--format", "json")
    assert proc.returncode == 0
    report = json.loads(proc.stdout)
    assert report["summary"]["documents"] == 1 and report["summary"]["lines"] == 1
    proc = run_cli(str(bad), "--errors", "replace", "--format", "json")
    assert proc.returncode == 0
    assert "caf\ufffd" in proc.stdout.decode() or json.loads(proc.stdout)["summary"]["lines"] == 1
    proc = run_cli(str(bad), "--encoding", "no-such-codec")
    assert proc.returncode == 2 and b"unknown encoding: no-such-codec" in proc.stderr
    proc = run_cli(str(bad), "--errors", "no-such-handler")
    assert proc.returncode == 2 and b"unknown --errors handler" in proc.stderr


def test_surrogateescape_input_gives_valid_output(tmp_path: Path) -> None:
    f = tmp_path / "raw.txt"
    f.write_bytes(b"see example.com/a\xff. ok\n")
    for fmt in ("json", "md", "html"):
        proc = run_cli(str(f), "--errors", "surrogateescape", "--format", fmt)
        assert proc.returncode == 0, proc.stderr.decode()
        proc.stdout.decode("utf-8")  # strict: valid UTF-8
    report = json.loads(run_cli(str(f), "--errors", "surrogateescape", "--format", "json").stdout)
    assert report["summary"]["lines"] == 1


def test_output_is_atomic_and_keeps_permissions(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.md"
    out.write_text("old", encoding="utf-8")
    out.chmod(0o640)
    proc = run_cli(str(corpus / "a.txt"), "-o", str(out))
    assert proc.returncode == 0, proc.stderr.decode()
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# UTS #58 link audit: linkify-it")
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus", "report.md"]  # no temp file left
    # A new file gets the usual permissions, not mkstemp's 0600.
    new = tmp_path / "new.md"
    assert run_cli(str(corpus / "a.txt"), "-o", str(new)).returncode == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o666 & ~umask


def test_output_errors(corpus: Path, tmp_path: Path) -> None:
    proc = run_cli(str(corpus / "a.txt"), "-o", str(tmp_path / "nodir" / "r.json"))
    assert proc.returncode == 2 and b"cannot write" in proc.stderr
    proc = run_cli(str(corpus / "a.txt"), "-o", str(tmp_path))
    assert proc.returncode == 2 and b"is a directory" in proc.stderr


def test_format_from_output_suffix(corpus: Path, tmp_path: Path) -> None:
    for name, start in (("r.json", "{"), ("r.html", "<!DOCTYPE html>"), ("r.md", "# UTS #58"), ("r.txt", "# UTS #58")):
        out = tmp_path / name
        assert run_cli(str(corpus / "a.txt"), "-o", str(out)).returncode == 0
        assert out.read_text(encoding="utf-8").startswith(start), name
    # --format wins over the suffix; '-' is stdout.
    proc = run_cli(str(corpus / "a.txt"), "--format", "json", "-o", "-")
    assert json.loads(proc.stdout)["summary"]["documents"] == 1


def test_jobs_and_chunks_do_not_change_the_report(corpus: Path) -> None:
    def build(jobs: int, chunk_lines: int) -> str:
        problems: list[str] = []
        tasks = iter_tasks(
            resolve_inputs([str(corpus)], True, problems), "urlextract", problems=problems, chunk_lines=chunk_lines
        )
        return render(merge(map_local(tasks, jobs), backend="urlextract"), "json")

    reference = build(1, 10_000)
    assert build(2, 1) == reference
    assert build(1, 3) == reference
    assert json.loads(reference)["summary"]["documents"] == 3  # the sample, a.txt, sub/b.txt


def test_cli_jobs_byte_identical(corpus: Path) -> None:
    one = run_cli(str(corpus), "--sample", "--jobs", "1", "--format", "json")
    two = run_cli(str(corpus), "--sample", "--jobs", "2", "--format", "json")
    default = run_cli(str(corpus), "--sample", "--format", "json")
    assert one.returncode == two.returncode == default.returncode == 0
    assert one.stdout == two.stdout == default.stdout


def test_sample_corpus_report() -> None:
    proc = run_cli("--sample", "--format", "json", "--backend", "urlextract")
    assert proc.returncode == 0, proc.stderr.decode()
    report = json.loads(proc.stdout)
    assert_consistent(report)
    assert report["backend"] == "urlextract"
    assert {c["source"] for c in report["changes"]} <= {"corpora/sample.txt"}
    assert report["summary"]["changed"] > 20


def test_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["report", "--sample", "--jobs", "0"])
    assert exc.value.code == 2
    assert "--jobs: must be from 1 to 1024, not 0" in capsys.readouterr().err
    assert main(["report", "--sample", "--scheduler", "tcp://127.0.0.1:8786"]) == 2
    assert "--scheduler needs --engine dask" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["report", "--sample", "--backend", "nope"])


def test_dask_engine_missing(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "uts58_adapt.report.dask_engine", None)  # import fails
    assert main(["report", "--sample", "--engine", "dask", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'uts58_adapt[dask]'" in err
    assert "Traceback" not in err


def test_dask_engine_is_called_and_gives_the_same_report(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls = []

    def iter_work(tasks, work, scheduler, connect_timeout=30.0, workers=None, stall_timeout=300.0):
        tasks = list(tasks)
        calls.append((len(tasks), scheduler))
        return iter([work(t) for t in reversed(tasks)][::-1])

    fake = types.ModuleType("uts58_adapt.report.dask_engine")
    fake.iter_work = iter_work
    monkeypatch.setitem(sys.modules, "uts58_adapt.report.dask_engine", fake)
    dask_out, local_out = tmp_path / "dask.json", tmp_path / "local.json"
    args = ["report", "--sample", "--quiet", "--backend", "urlextract"]
    assert main([*args, "--engine", "dask", "--scheduler", "tcp://127.0.0.1:8786", "-o", str(dask_out)]) == 0
    assert main([*args, "-o", str(local_out)]) == 0
    assert calls == [(1, "tcp://127.0.0.1:8786")]
    assert dask_out.read_bytes() == local_out.read_bytes()


def test_no_progress_when_not_a_terminal(corpus: Path) -> None:
    proc = run_cli(str(corpus / "a.txt"))
    assert proc.returncode == 0 and proc.stderr == b""


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("quiet", [False, True])
def test_progress_bar_on_a_terminal(corpus: Path, tmp_path: Path, quiet: bool) -> None:
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    # A real terminal has a size (a fresh pty is 0x0, where tqdm draws nothing).
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    out = tmp_path / "r.json"
    args = [sys.executable, "-m", "uts58_adapt.cli", "report", str(corpus), "--sample", "-o", str(out)]
    if quiet:
        args.append("--quiet")
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "100"}
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave, env=env, cwd=REPO)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert proc.wait(timeout=300) == 0
    err = b"".join(chunks).decode("utf-8", "replace")
    summary = json.loads(out.read_text(encoding="utf-8"))["summary"]
    assert summary["documents"] == 3
    if quiet:
        assert err == ""
    else:
        # every input is a file: the bar counts bytes against their total, with an ETA (issue 24.5)
        assert "auditing" in err and "lines" in err
        assert re.search(r"\| \d+(\.\d+)?k?/\d+(\.\d+)?k \[\d\d:\d\d<\d\d:\d\d, ", err), err
        lines = [line for line in err.replace("\r", "\n").splitlines() if line.strip() and "auditing" not in line]
        assert lines[-1].strip() == (
            f"wrote {out}: {summary['changed']} changes in {summary['lines']} lines of 3 documents"
        ), err


def test_an_input_named_twice_is_audited_once(corpus: Path) -> None:
    a = str(corpus / "a.txt")
    once = json.loads(run_cli(a, "--format", "json").stdout)
    twice = json.loads(run_cli(a, a, "--format", "json").stdout)
    assert twice["options"]["paths"] == [a, a]
    del twice["options"], once["options"]
    assert twice == once
    assert once["summary"]["lines"] == 2


def test_detect_failure_is_named_and_exit_status_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], corpus: Path, tmp_path: Path
) -> None:
    from uts58_adapt.detection import detect
    from uts58_adapt.report import core

    def flaky(text, backend="linkify-it", refine=True, **kw):
        if text == "plain text":
            raise ValueError("no good")
        return detect(text, backend, refine, **kw)

    monkeypatch.setattr(core, "get_detect", lambda: flaky)
    out = tmp_path / "r.json"
    assert main(["report", str(corpus / "a.txt"), "--detect", "--quiet", "-o", str(out)]) == 1
    assert f"{corpus / 'a.txt'}:2: detect failed: ValueError: no good" in capsys.readouterr().err
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["summary"]["changed"] == 1  # line 1 is still audited
