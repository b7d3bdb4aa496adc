"""Bad input: wrong argument types, unreadable or undecodable files, huge lines, interrupted writes.

- Every public function (``uts58_adapt.__all__``) raises TypeError naming the argument
  when a str (or int) argument has another type.
- The CLI reports each bad input by name (invalid UTF-8, binary, unreadable, missing,
  inside a directory), still processes the rest of the batch, and exits non-zero.
- ``--encoding`` and ``--errors`` work; a 10 MB line is handled in linear time.
- The report file is replaced atomically: an interrupted run leaves the previous file
  intact and no temporary file behind.
"""

from __future__ import annotations

import gzip
import inspect
import json
import os
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import uts58_adapt
from uts58_adapt.cli import main

# ---------------------------------------------------------------------------
# TypeError naming the argument
# ---------------------------------------------------------------------------
NOT_STR = [b"bytes", bytearray(b"x"), 42, 1.5, ["x"], object()]
NOT_INT = ["1", 1.5, None, b"1", True]

#: function name -> (valid keyword arguments, {argument: the wrong values to try})
TYPE_CASES: dict[str, tuple[dict[str, Any], dict[str, list[Any]]]] = {
    "detect": ({"text": "see x.com"}, {"text": [*NOT_STR, None], "max_length": ["1", 1.5, b"1"]}),
    "linkify": (
        {"text": "see x.com"},
        {
            "text": [*NOT_STR, None],
            "backend": [*NOT_STR, None],
            "max_length": NOT_INT,
            "schemes": [42, None, b"http"],
            "escape_bidi": [1, "yes", None],
        },
    ),
    "email_start": ({"text": "a@x.com", "at": 1}, {"text": [*NOT_STR, None], "at": NOT_INT}),
    "terminate": ({"text": "x.com/a", "start": 5}, {"text": [*NOT_STR, None], "start": NOT_INT}),
    "minimal_escape": ({"url": "https://x.com/a"}, {"url": [*NOT_STR, None]}),
    "format_url": (
        {"scheme": "https", "host": "example.com"},
        {
            "scheme": [*NOT_STR, None],
            "host": [*NOT_STR, None],
            "path": [42, b"a/b", [42], ["a", b"b"]],
            "query": [42, [("a", 42)], [(42, "b")], ["a=b"]],
            "fragment": NOT_STR,
            "directives": [42, [42], "text=x"],
        },
    ),
    "link_term": ({"ch": "a"}, {"ch": [*NOT_STR, None]}),
    "link_bracket": ({"ch": ")"}, {"ch": [*NOT_STR, None]}),
    "is_link_email": ({"ch": "a"}, {"ch": [*NOT_STR, None]}),
    "quote_local_part": ({"local": "john"}, {"local": [*NOT_STR, None]}),
    "wrap": ({}, {"obj": ["not a linkifier", 42, None, object()]}),
    "link_risks": ({"link": "example.com"}, {"link": [*NOT_STR, None]}),
    "data_versions": ({}, {}),
    "linkify_html": (
        {"fragment": "<b>see x.com</b>"},
        {
            "fragment": [*NOT_STR, None],
            "backend": [*NOT_STR, None],
            "max_length": NOT_INT,
            "schemes": [42, None, b"http"],
            "skip_tags": [42, None, "pre", b"pre", [42]],
        },
    ),
}

TYPE_CASES["detect"][1]["backend"] = [42, None, b"linkify-it", ["linkify-it"]]


def _public_functions() -> list[str]:
    return sorted(name for name in uts58_adapt.__all__ if inspect.isfunction(getattr(uts58_adapt, name)))


def test_every_public_function_is_covered() -> None:
    assert _public_functions() == sorted(TYPE_CASES)


def _type_params() -> list[Any]:
    params = []
    for func, (_, bad) in TYPE_CASES.items():
        for arg in bad:
            params.append(pytest.param(func, arg, id=f"{func}-{arg}"))
    return params


@pytest.mark.parametrize(("func", "arg"), _type_params())
def test_wrong_type_raises_type_error_naming_the_argument(func: str, arg: str) -> None:
    fn: Callable[..., Any] = getattr(uts58_adapt, func)
    valid, bad = TYPE_CASES[func]
    fn(**valid) if func != "wrap" else None  # the valid call works
    for value in bad[arg]:
        kwargs = {**valid, arg: value}
        with pytest.raises(TypeError) as info:
            fn(**kwargs)
        assert arg in str(info.value), f"{func}({arg}={value!r}): {info.value}"


# ---------------------------------------------------------------------------
# The CLI on a batch of good and bad inputs
# ---------------------------------------------------------------------------
GOOD_1 = "first good file: see x.com/a(b). ok\n"
GOOD_2 = "second good file: mail john@example.org\n"


@pytest.fixture
def batch(tmp_path: Path) -> dict[str, Path]:
    files = {
        "good1": tmp_path / "good1.txt",
        "bad_utf8": tmp_path / "bad_utf8.txt",
        "binary": tmp_path / "binary.gz",
        "missing": tmp_path / "missing.txt",
        "dir": tmp_path / "dir",
        "good2": tmp_path / "good2.txt",
    }
    files["good1"].write_text(GOOD_1, encoding="utf-8")
    files["bad_utf8"].write_bytes(b"line one x.com\nline two caf\xe9 y.com\n")
    files["binary"].write_bytes(gzip.compress(os.urandom(2048) + b"example.com" * 50))
    files["dir"].mkdir()
    (files["dir"] / "inner_good.txt").write_text("inner: https://example.net/x\n", encoding="utf-8")
    (files["dir"] / "inner_bad.txt").write_bytes(b"\xff\xfe\xfa not utf-8 at all x.com\n")
    files["good2"].write_text(GOOD_2, encoding="utf-8")
    return files


def _order(batch: dict[str, Path]) -> list[str]:
    return [str(batch[k]) for k in ("good1", "bad_utf8", "binary", "missing", "dir", "good2")]


def test_detect_cli_reports_bad_inputs_and_finishes_the_batch(
    batch: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["detect", *_order(batch)])
    out, err = capsys.readouterr()
    assert status != 0
    for bad in ("bad_utf8", "binary", "missing"):
        assert str(batch[bad]) in err, (bad, err)
    assert str(batch["dir"] / "inner_bad.txt") in err
    # The rest of the batch, including what comes after the bad inputs, was processed.
    assert "first good file: see ⸠x.com/a(b)⸡. ok" in out
    assert "inner: ⸠https://example.net/x⸡" in out
    assert "second good file: mail ⸠john@example.org⸡" in out


def test_decode_error_names_the_right_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok x.com\n" * 2000 + b"caf\xe9 y.com\n")  # the bad byte is on line 2001
    assert main(["detect", str(bad)]) == 1
    out, err = capsys.readouterr()
    assert "line 2001" in err, err
    assert out.count("x.com") == 2000  # every line before the bad one was processed


def test_report_cli_reports_bad_inputs_and_still_writes_the_report(
    batch: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "report.json"
    status = main(["report", *_order(batch), "--format", "json", "-q", "-o", str(out_file)])
    err = capsys.readouterr().err
    assert status == 1
    for bad in ("bad_utf8", "binary", "missing"):
        assert str(batch[bad]) in err, (bad, err)
    assert str(batch["dir"] / "inner_bad.txt") in err
    report = json.loads(out_file.read_text(encoding="utf-8"))
    # good1, good2 and dir/inner_good.txt; a file that failed contributes nothing at all.
    assert report["summary"]["documents"] == 3
    assert report["summary"]["links_after"] == 3


def _unreadable_even_for_root(tmp_path: Path) -> Path:
    """A path that exists but cannot be opened, even by root: a UNIX socket."""
    path = tmp_path / "socket.txt"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(path))
    except OSError as exc:  # pragma: no cover - e.g. path too long
        pytest.skip(f"cannot create a UNIX socket file: {exc}")
    finally:
        sock.close()
    return path


@pytest.mark.parametrize("how", ["chmod-000", "socket"])
@pytest.mark.parametrize("command", ["detect", "report"])
def test_unreadable_input_is_reported(
    how: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if how == "socket":
        bad = _unreadable_even_for_root(tmp_path)
    else:
        bad = tmp_path / "secret.txt"
        bad.write_text("x.com\n", encoding="utf-8")
        bad.chmod(0)
        try:
            bad.open().close()
        except OSError:
            pass
        else:
            pytest.skip("running as root: a mode-000 file is still readable")
    good = tmp_path / "good.txt"
    good.write_text(GOOD_2, encoding="utf-8")
    args = [command, str(bad), str(good)] + (["--format", "json", "-q"] if command == "report" else [])
    status = main(args)
    out, err = capsys.readouterr()
    assert status == 1
    assert str(bad) in err
    if command == "detect":
        assert "⸠john@example.org⸡" in out
    else:
        assert json.loads(out)["summary"]["documents"] == 1  # the good file, audited


@pytest.mark.parametrize("command", ["detect", "report"])
def test_encoding_and_errors_options(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    latin = tmp_path / "latin1.txt"
    latin.write_bytes("café: see x.com/é ok\n".encode("latin-1"))
    extra = ["--format", "json", "-q"] if command == "report" else []

    if command == "detect":
        assert main([command, str(latin), *extra]) == 1  # not UTF-8
    else:
        # The report's only input failed: no document read, nothing written (exit status 2);
        # beside a good input, the failed one is named and the rest audited (exit status 1).
        assert main([command, str(latin), *extra]) == 2
        good = tmp_path / "good.txt"
        good.write_text("see x.com/a ok\n", encoding="utf-8")
        assert main([command, str(latin), str(good), *extra]) == 1
        assert json.loads(capsys.readouterr().out)["summary"]["links_after"] == 1
    capsys.readouterr()

    assert main([command, str(latin), "--encoding", "latin-1", *extra]) == 0
    out = capsys.readouterr().out
    if command == "detect":
        assert out == "café: see ⸠x.com/é⸡ ok\n"
    else:
        assert json.loads(out)["summary"]["links_after"] == 1

    assert main([command, str(latin), "--errors", "replace", *extra]) == 0
    out = capsys.readouterr().out
    if command == "detect":
        assert out == "caf\ufffd: see ⸠x.com/\ufffd⸡ ok\n" or out == "caf\ufffd: see ⸠x.com⸡/\ufffd ok\n"
    else:
        assert json.loads(out)["summary"]["lines"] == 1


@pytest.mark.parametrize("command", ["detect", "report"])
def test_unknown_encoding_is_a_usage_error(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.txt"
    good.write_text(GOOD_1, encoding="utf-8")
    extra = ["-q"] if command == "report" else []
    status = main([command, str(good), str(good), "--encoding", "no-such-codec", "--errors", "nope", *extra])
    captured = capsys.readouterr()
    assert status == 2  # a usage error, found before any input is read (issue 24.3)
    assert captured.err.count("\n") == 1 and "no-such-codec" in captured.err  # one message, not one per file
    assert captured.out == ""


# ---------------------------------------------------------------------------
# A 10 MB line: linear time (a ratio against 5 MB, CPU time, not an absolute limit)
# ---------------------------------------------------------------------------
# Words and links; linkify-it-py itself needs about 1.2 s of CPU per MB of such text.
LINE_UNIT = "lorem ipsum dolor sit amet consectetur " * 50 + (
    "See https://example.com/path/a(b)c?q=1#frag. or www.example.net/x, mail a.b@example.org. "
)


def _cpu_time_of_detect_cli(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[float, str]:
    t0 = time.process_time()
    status = main(["detect", str(path)])
    elapsed = time.process_time() - t0
    out = capsys.readouterr().out
    assert status == 0
    return elapsed, out


def test_ten_megabyte_line_in_linear_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = {}
    for mb in (5, 10):
        line = LINE_UNIT * (mb * 1_000_000 // len(LINE_UNIT))
        files[mb] = tmp_path / f"line{mb}.txt"
        files[mb].write_text(line + "\n", encoding="utf-8")
    # CPU time on a shared virtual machine varies up to 2x between identical runs: each
    # size is measured in two interleaved rounds (three if still over), the best kept.
    t5, _out5 = _cpu_time_of_detect_cli(files[5], capsys)
    t10, out10 = _cpu_time_of_detect_cli(files[10], capsys)
    for extra_round in range(2):
        if extra_round and t10 / t5 < 2.6:
            break
        t5 = min(t5, _cpu_time_of_detect_cli(files[5], capsys)[0])
        t10 = min(t10, _cpu_time_of_detect_cli(files[10], capsys)[0])
    units = 10_000_000 // len(LINE_UNIT)
    assert out10.count("⸠") == 3 * units  # every link of every repetition, none lost
    assert out10.count("⸠https://example.com/path/a(b)c?q=1#frag⸡. or ⸠www.example.net/x⸡, mail ⸠a.b@") == units
    assert t10 / t5 < 2.6, f"10 MB: {t10:.1f}s, 5 MB: {t5:.1f}s CPU (linear ~2, quadratic ~4)"


# ---------------------------------------------------------------------------
# Atomic report writing
# ---------------------------------------------------------------------------
PREVIOUS = '{"previous": "report"}\n'


def _leftovers(directory: Path, keep: set[str]) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name not in keep)


@pytest.fixture
def previous_report(tmp_path: Path) -> Path:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    path = out_dir / "report.json"
    path.write_text(PREVIOUS, encoding="utf-8")
    return path


def test_renderer_failure_leaves_previous_report(previous_report: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Markdown report is written in pieces too: a failure midway leaves the old report."""
    from uts58_adapt.report import render_md

    real = render_md.md_chunks

    def broken(head: dict, changes: Iterator[dict]) -> Iterator[str]:
        for k, piece in enumerate(real(head, changes)):
            if k == 40:  # into the changes
                raise RuntimeError("renderer crashed midway")
            yield piece

    monkeypatch.setattr(render_md, "md_chunks", broken)
    with pytest.raises(RuntimeError, match="midway"):
        main(["report", "--sample", "-q", "--format", "md", "-o", str(previous_report)])
    assert previous_report.read_text(encoding="utf-8") == PREVIOUS
    assert _leftovers(previous_report.parent, {"report.json"}) == []


def test_streamed_json_failure_leaves_previous_report(previous_report: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The JSON report is written in pieces: a failure after the first pieces leaves the old report."""
    from uts58_adapt.report.stream import StreamingMerge

    real = StreamingMerge.json_chunks
    written: list[bytes] = []

    def broken(self: StreamingMerge, exclude: object = ()) -> Iterator[bytes]:
        for k, piece in enumerate(real(self, exclude)):  # type: ignore[arg-type]
            if k == 2:  # after the head and the first chunk of rows, before the end
                raise RuntimeError("renderer crashed midway")
            written.append(piece)
            yield piece

    monkeypatch.setattr(StreamingMerge, "json_chunks", broken)
    with pytest.raises(RuntimeError, match="midway"):
        main(["report", "--sample", "-q", "--format", "json", "-o", str(previous_report)])
    assert len(written) == 2 and b'"changes": ' in written[0] and written[1].startswith(b"[")
    assert previous_report.read_text(encoding="utf-8") == PREVIOUS
    assert _leftovers(previous_report.parent, {"report.json"}) == []


@pytest.mark.parametrize("exc", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_interrupted_write_leaves_previous_report_and_no_temp_file(
    exc: BaseException, previous_report: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The data is half written to the temporary file when the failure strikes (at fsync)."""
    real_fsync = os.fsync
    seen: list[int] = []

    def failing_fsync(fd: int) -> None:
        seen.append(os.fstat(fd).st_size)  # the temporary file already holds the new data
        raise exc

    monkeypatch.setattr(os, "fsync", failing_fsync)
    args = ["report", "--sample", "-q", "--format", "json", "-o", str(previous_report)]
    if isinstance(exc, KeyboardInterrupt):
        assert main(args) == 130
    else:
        assert main(args) == 2
        assert "report.json" in capsys.readouterr().err
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert seen and seen[0] > len(PREVIOUS)
    assert previous_report.read_text(encoding="utf-8") == PREVIOUS
    assert _leftovers(previous_report.parent, {"report.json"}) == []


def test_successful_write_replaces_report(previous_report: Path) -> None:
    assert main(["report", "--sample", "-q", "--format", "json", "-o", str(previous_report)]) == 0
    assert json.loads(previous_report.read_text(encoding="utf-8"))["summary"]["documents"] == 1
    assert _leftovers(previous_report.parent, {"report.json"}) == []


# ---------------------------------------------------------------------------
# Issue 13.8: clear errors naming the input, never a traceback; the batch completes
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["detect", "report"])
def test_utf16_without_bom_is_named(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    no_bom = tmp_path / "no_bom.txt"
    no_bom.write_bytes(b"abc\n")  # Python's utf-16 decoder refuses this: "does not start with BOM"
    good = tmp_path / "good.txt"
    good.write_text("see x.com/a(b). ok\n", encoding="utf-16")
    extra = ["-q", "--format", "json"] if command == "report" else []
    status = main([command, str(no_bom), str(good), "--encoding", "utf-16", *extra])
    out, err = capsys.readouterr()
    assert status == 1
    assert f"{no_bom}: cannot decode as utf-16: UTF-16 stream does not start with BOM" in err, err
    assert "Traceback" not in err
    if command == "detect":
        assert out == f"{good}:1:see ⸠x.com/a(b)⸡. ok\n"  # several files: each line named
    else:
        assert json.loads(out)["summary"]["documents"] == 1


@pytest.mark.parametrize("codec", ["rot13", "base64", "hex", "zlib", "bz2", "uu"])
@pytest.mark.parametrize("command", ["detect", "report"])
def test_non_text_codecs_are_usage_errors(
    command: str, codec: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.txt"
    good.write_text(GOOD_1, encoding="utf-8")
    extra = ["-q"] if command == "report" else []
    assert main([command, str(good), "--encoding", codec, *extra]) == 2
    out, err = capsys.readouterr()
    assert err == (
        f"uts58-adapt {command}: --encoding {codec}: not a text encoding (it maps bytes to bytes or str to str)\n"
    )
    assert out == ""


def test_urlextract_undecodable_escape_does_not_raise() -> None:
    assert uts58_adapt.detect("x@example.com/%FF", "urlextract", refine=False) == []
    assert uts58_adapt.detect("a@b.com?q=%FE#%FF", "urlextract", refine=False) == []
    links = uts58_adapt.detect("x@example.com/%FF and see example.org/%FF", "urlextract", refine=False)
    assert [(link.text, link.kind) for link in links] == [("example.org/%FF", "url")]


@pytest.mark.parametrize("text", ["0.0.\ud800@", "x 1.2.3.\ud800@a y", "0.0.0.\ud800@0.0"])
def test_urlextract_lone_surrogate_in_a_domain_does_not_raise(text: str) -> None:
    """uritools encodes a domain as UTF-8, which a lone surrogate cannot be (found by tests/test_fuzz.py)."""
    from uts58_adapt.backends import get_backend

    backend = get_backend("urlextract")
    assert backend.plain(text) == []  # type: ignore[attr-defined]
    assert backend.find(text) == []
    assert uts58_adapt.detect(text, "urlextract", refine=False) == []
    assert uts58_adapt.detect(text, "urlextract") == []


def test_urlextract_no_refine_cli_finishes_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "mail.txt"
    src.write_text("x@example.com/%FF\nthen example.org/a\n", encoding="utf-8")
    assert main(["detect", str(src), "--backend", "urlextract", "--no-refine"]) == 0
    assert capsys.readouterr().out == "x@example.com/%FF\nthen ⸠example.org/a⸡\n"


@pytest.mark.parametrize("command", ["detect", "report"])
def test_symlink_loop_is_eloop(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    good = tmp_path / "good.txt"
    good.write_text(GOOD_1, encoding="utf-8")
    extra = ["-q", "--format", "json"] if command == "report" else []
    status = main([command, str(tmp_path / "a"), str(good), *extra])
    out, err = capsys.readouterr()
    assert status == 1
    assert f"{tmp_path / 'a'}: too many levels of symbolic links" in err, err
    assert "no such file" not in err
    if command == "detect":
        assert out == f"{good}:1:first good file: see ⸠x.com/a(b)⸡. ok\n"  # several files: each line named
    else:
        assert json.loads(out)["summary"]["documents"] == 1


def test_detect_cli_survives_a_backend_error_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import uts58_adapt.detection as detection

    real = detection.detect

    def flaky(text: str, *args: Any, **kwargs: Any) -> Any:
        if "boom" in text:
            raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
        return real(text, *args, **kwargs)

    monkeypatch.setattr(detection, "detect", flaky)
    src = tmp_path / "a.txt"
    src.write_text("see x.com\nboom y.com\nlast z.com\n", encoding="utf-8")
    assert main(["detect", str(src)]) == 1
    out, err = capsys.readouterr()
    assert out == "see ⸠x.com⸡\nlast ⸠z.com⸡\n"
    assert err == (
        f"uts58-adapt detect: {src}:2: detect failed (UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff"
        " in position 0: invalid start byte); line not shown\n"
    )
