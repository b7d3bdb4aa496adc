"""The CLI side of issue 22 and issue 24.3: ``detect --reject-risky``, risks in ``--format json``,
and a hint on stderr when ``detect`` or ``escape`` would wait for a terminal."""

from __future__ import annotations

import io
import json
import sys

import pytest

from uts58_adapt.cli import main

TEXT = "Visit pаypal.com or ウェブサイトはexample.com です。\n"


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str, tty: bool = False) -> None:
    stream = io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8")
    if tty:
        stream.isatty = lambda: True  # type: ignore[method-assign]
    monkeypatch.setattr(sys, "stdin", stream)


def test_detect_reject_risky(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _stdin(monkeypatch, TEXT)
    assert main(["detect"]) == 0
    assert capsys.readouterr().out == "Visit ⸠pаypal.com⸡ or ⸠ウェブサイトはexample.com⸡ です。\n"
    _stdin(monkeypatch, TEXT)
    assert main(["detect", "--reject-risky"]) == 0
    assert capsys.readouterr().out == "Visit pаypal.com or ウェブサイトは⸠example.com⸡ です。\n"


def test_detect_json_lists_each_links_risks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, TEXT + "see example.com/αβ(γ)\n")
    assert main(["detect", "--format", "json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [[(link["text"], link["risks"]) for link in row["links"]] for row in rows] == [
        [("pаypal.com", ["mixed-script"]), ("ウェブサイトはexample.com", ["ideographic-boundary"])],
        [("example.com/αβ(γ)", [])],
    ]
    _stdin(monkeypatch, TEXT)
    assert main(["detect", "--format", "json", "--reject-risky"]) == 0
    (row,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(link["text"], link["start"], link["risks"]) for link in row["links"]] == [("example.com", 27, [])]


def test_detect_on_a_terminal_says_it_reads_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, "see example.com\n", tty=True)
    assert main(["detect"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "see ⸠example.com⸡\n"
    assert captured.err == (
        "uts58-adapt detect: reading text from the terminal; end with Ctrl-D (Ctrl-Z Enter on Windows), "
        "or pass files (uts58-adapt detect --help)\n"
    )


def test_escape_on_a_terminal_says_it_reads_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, "https://x.com/%CE%B1\n", tty=True)
    assert main(["escape"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "https://x.com/α\n"
    assert captured.err.startswith("uts58-adapt escape: reading URLs, one per line, from the terminal; end with Ctrl-D")


@pytest.mark.parametrize("args", [["detect"], ["escape"], ["detect", "-"]])
def test_no_hint_from_a_pipe(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, "example.com\n")
    assert main(args) == 0
    assert capsys.readouterr().err == ""


def test_no_hint_when_files_are_given(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pathlib import Path

    f = Path(str(tmp_path)) / "a.txt"
    f.write_text("example.com\n", encoding="utf-8")
    _stdin(monkeypatch, "", tty=True)
    assert main(["detect", str(f)]) == 0
    assert main(["escape", "example.com"]) == 0
    assert capsys.readouterr().err == ""


def test_detect_risk_profile_browser(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 37: ``--risk-profile browser`` is ``reject_risky="browser"`` and the browser codes in json."""
    text = "see https://οτ.com/x and https://pay一pal.com/\n"
    _stdin(monkeypatch, text)
    assert main(["detect", "--reject-risky"]) == 0
    assert capsys.readouterr().out == "see ⸠https://οτ.com/x⸡ and https://pay一pal.com/\n"
    _stdin(monkeypatch, text)
    assert main(["detect", "--reject-risky", "--risk-profile", "browser"]) == 0
    assert capsys.readouterr().out == text
    _stdin(monkeypatch, text)
    assert main(["detect", "--format", "json", "--risk-profile", "browser"]) == 0
    (row,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [link["risks"] for link in row["links"]] == [
        ["whole-script-lookalike"],
        ["cjk-lookalike", "dangerous-pattern"],
    ]
