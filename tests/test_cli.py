"""The command line front door: help, conformance counts, options honoured in every format."""

from __future__ import annotations

import io
import sys

import pytest

from uts58_adapt.cli import main

from conftest import require_data


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for command in ("detect", "report", "escape", "conformance"):
        assert command in out


def test_no_command_prints_help(capsys):
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().out


def test_conformance_counts(capsys):
    base = require_data("17.0.0", "linkification", "LinkDetectionTest.txt").parents[2]
    assert main(["conformance", "--data-dir", str(base), "--backend", "urlextract"]) == 0
    lines = capsys.readouterr().out.splitlines()
    scores = {line.split(None, 1)[1].strip(): line.split()[0] for line in lines if "/" in line.split()[0]}
    assert scores["LinkTerm.txt (code points)"] == "1114112/1114112"
    assert scores["LinkBracket.txt (code points)"] == "1114112/1114112"
    assert scores["LinkEmail.txt (code points)"] == "1114112/1114112"
    assert scores["dev/linkification/LinkFormattingTest.txt via format_url"] == "55/55"
    assert scores["17.0.0/linkification/LinkFormattingTest.txt via format_url"] == "45/55"
    assert scores["LinkDetectionTest.txt with backend urlextract"] == "344/344"


def test_conformance_without_data_dir(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("UTS58_DATA_DIR", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("uts58_adapt._data.__file__", str(tmp_path / "a" / "b" / "_data.py"))
    assert main(["conformance"]) == 2
    assert "no data directory" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["marked", "json", "html"])
def test_detect_max_length_applies_to_every_format(fmt, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"see example.com/abcdef and x.co\n")))
    assert main(["detect", "--format", fmt, "--max-length", "10"]) == 0
    out = capsys.readouterr().out
    if fmt == "marked":
        assert out == "see example.com/abcdef and ⸠x.co⸡\n"
    elif fmt == "html":
        assert out == 'see example.com/abcdef and <a href="https://x.co" dir="ltr">x.co</a>\n'
    else:
        assert '"example.com/abcdef"' not in out and '"text": "x.co"' in out
