"""docs/security.md: every example runs as shown (the README's conventions, tests/test_readme.py).

A ```python block is a doctest (``>>>`` lines and their output); in a ```sh block each
``$ `` line is run by bash with this checkout's ``uts58-adapt`` first on PATH, and the
lines after it are exactly its stdout.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

DOC = REPO / "docs" / "security.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = [
    (m.group(1), TEXT.count("\n", 0, m.start()) + 2, m.group(2))
    for m in re.finditer(r"^```(\w*)\n(.*?)^```[ \t]*$", TEXT, re.M | re.S)
]
PYTHON = [b for b in BLOCKS if b[0] == "python"]
SHELL = [b for b in BLOCKS if b[0] == "sh"]


def test_the_page_has_examples_of_each_kind() -> None:
    assert len(PYTHON) >= 6 and len(SHELL) >= 1
    assert TEXT.count("```") == 2 * len(BLOCKS)


@pytest.mark.parametrize("block", PYTHON, ids=[f"security.md:{b[1]}" for b in PYTHON])
def test_python_example(block: tuple[str, int, str]) -> None:
    _, lineno, text = block
    assert ">>> " in text
    test = doctest.DocTestParser().get_doctest(text, {}, f"security.md:{lineno}", str(DOC), lineno)
    output: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)
    assert runner.tries == len(test.examples) > 0


@pytest.mark.parametrize("block", SHELL, ids=[f"security.md:{b[1]}" for b in SHELL])
def test_cli_example(block: tuple[str, int, str], tmp_path: Path) -> None:
    _, lineno, text = block
    commands: list[tuple[int, str, str]] = []
    for offset, line in enumerate(text.splitlines()):
        if line.startswith("$ "):
            commands.append((lineno + offset, line[2:], ""))
        else:
            assert commands, f"security.md:{lineno + offset}: output before any '$ ' command"
            n, command, expected = commands[-1]
            commands[-1] = (n, command, expected + line + "\n")
    assert commands
    shim = tmp_path / "uts58-adapt"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m uts58_adapt.cli "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    env["PATH"] = f"{tmp_path}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(REPO)
    for n, command, expected in commands:
        proc = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, timeout=120)
        where = f"security.md:{n}: $ {command}"
        assert proc.returncode == 0, f"{where}\nexit status {proc.returncode}\n{proc.stderr.decode()}"
        assert proc.stdout.decode("utf-8") == expected, f"{where}\ngot:\n{proc.stdout.decode('utf-8')}"
