"""docs/audit-at-scale.md: every example runs as shown (the README's conventions).

A ```sh block's ``$ `` lines are commands run by bash, in order, in one directory holding
``notes.txt``, with this checkout's ``uts58-adapt`` first on PATH; the lines after each
command are exactly what it prints on stdout, and it must exit with status 0.  A ```python
block is a doctest.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "docs" / "audit-at-scale.md"
TEXT = PAGE.read_text(encoding="utf-8")
NOTES = "Read example.com/αβγ. Or mail anna@example.org\nNothing to link here.\n"


def _blocks(lang: str) -> list[tuple[int, str]]:
    return [
        (TEXT.count("\n", 0, m.start()) + 2, m.group(2))
        for m in re.finditer(r"^```(\w*)\n(.*?)^```[ \t]*$", TEXT, re.M | re.S)
        if m.group(1) == lang
    ]


SHELL = [b for b in _blocks("sh") if re.search(r"^\$ ", b[1], re.M)]
PYTHON = _blocks("python")


def test_the_page_describes_notes_txt() -> None:
    for line in NOTES.splitlines():
        assert f"`{line}`" in TEXT


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    (work / "notes.txt").write_text(NOTES, encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "uts58-adapt"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m uts58_adapt.cli "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    return work


@pytest.mark.parametrize("block", SHELL, ids=[f"line {b[0]}" for b in SHELL])
def test_shell_example(block: tuple[int, str], workdir: Path) -> None:
    first, text = block
    commands: list[tuple[int, str, str]] = []
    for offset, line in enumerate(text.splitlines()):
        if line.startswith("$ "):
            commands.append((first + offset, line[2:], ""))
        else:
            assert commands, f"line {first + offset}: output before any command"
            lineno, command, expected = commands[-1]
            commands[-1] = (lineno, command, expected + line + "\n")
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    env["PATH"] = f"{workdir.parent / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(REPO)
    for lineno, command, expected in commands:
        proc = subprocess.run(["bash", "-c", command], cwd=workdir, env=env, capture_output=True, timeout=300)
        where = f"docs/audit-at-scale.md:{lineno}: $ {command}"
        assert proc.returncode == 0, f"{where}\nexit status {proc.returncode}\n{proc.stderr.decode()}"
        assert proc.stdout.decode("utf-8") == expected, f"{where}\ngot:\n{proc.stdout.decode('utf-8')}"


@pytest.mark.parametrize("block", PYTHON, ids=[f"line {b[0]}" for b in PYTHON])
def test_python_example(block: tuple[int, str], workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(workdir)
    first, text = block
    test = doctest.DocTestParser().get_doctest(text, {}, f"line {first}", str(PAGE), first)
    output: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)
    assert runner.tries == len(test.examples) > 0
