"""README.md: its two opening commands are CI's, and every example in it and in docs/ runs as shown.

The examples are found by parsing README.md and every ``docs/**/*.md`` page as a whole (any
section, in any order), so a new example is tested as soon as it is written.  Conventions
for the examples of README.md and the docs pages:

- A ```python block is a doctest: ``>>> `` and ``... `` lines, each followed by the
  output it prints (a ``>>> # comment`` line prints nothing).  Whitespace differences are
  ignored (``NORMALIZE_WHITESPACE``), so a long result may be wrapped over several lines.
  Each block runs in a fresh namespace.  A python block without ``>>>`` is an error.
- In a ```sh block, a line starting with ``$ `` is a command, run by bash; the lines after
  it, up to the next ``$ `` line or the end of the block, are exactly what it must print on
  stdout (no lines: nothing), and it must exit with status 0.  Use ``| head -n N`` or
  ``| tail -n N`` to show part of a long output.  The commands of one block run in order,
  in one directory.
- A ```sh block without ``$ `` lines is a listing (installing, benchmarks, development
  commands) and is not run; but every ``uts58-adapt`` command outside the opening block
  (the README's two commands, checked against .ci/run) must be on a ``$ `` line.
- Commands and doctests run in a temporary directory holding :data:`FILES`, the input files
  the examples name, with this checkout's ``uts58-adapt`` first on PATH, and no
  ``UTS58_DATA_DIR``: ``uts58-adapt conformance`` reads the checkout's ``data/unicode``, as
  on a fresh clone.  Nothing uses the network.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")
CI = (REPO / ".ci" / "run").read_text(encoding="utf-8")
#: The pages whose examples are run: README.md, then the docs site's pages.
PAGES = {"README.md": README} | {
    path.relative_to(REPO).as_posix(): path.read_text(encoding="utf-8") for path in sorted(REPO.glob("docs/**/*.md"))
}

#: Input files named by the README's examples (the README describes notes.txt and example.txt).
FILES = {
    "notes.txt": "Read example.com/αβγ. Or mail anna@example.org\nNothing to link here.\n",
    "example.txt": "See example.com/αβ(γ/δ)ρς?α=θ&β=κ#λμν:~:text=φχψ on…\nSee example.com/αβγ. More at anna@example.com\n",
    "mail.txt": "Write to σωκράτης@example.com (or to info@example.gr).\n",
    "docs/guide.md": "# Guide\n\nThe spec is at www.unicode.org/reports/tr58/. Questions: jane.doe@example.org!\n",
}


class Block(NamedTuple):
    lang: str
    lineno: int  # of the first line inside the fence
    text: str
    page: str = "README.md"

    @property
    def where(self) -> str:
        return f"{self.page}:{self.lineno}"


def _blocks(page: str = "README.md") -> list[Block]:
    text = PAGES[page]
    out = []
    for m in re.finditer(r"^```(\w*)\n(.*?)^```[ \t]*$", text, re.M | re.S):
        out.append(Block(m.group(1), text.count("\n", 0, m.start()) + 2, m.group(2), page))
    return out


BLOCKS = _blocks()
PYTHON = [b for b in BLOCKS if b.lang == "python"]
SHELL = [b for b in BLOCKS if b.lang == "sh"]
RUN = [b for b in SHELL if re.search(r"^\$ ", b.text, re.M)]
#: Every page's blocks (README.md's first).
ALL_BLOCKS = [b for page in PAGES for b in _blocks(page)]
ALL_PYTHON = [b for b in ALL_BLOCKS if b.lang == "python"]
ALL_SHELL = [b for b in ALL_BLOCKS if b.lang == "sh"]
ALL_RUN = [b for b in ALL_SHELL if re.search(r"^\$ ", b.text, re.M)]


def _first_block_commands() -> list[str]:
    block = re.search(r"```sh\n(.*?)```", README, re.S)
    assert block, "README.md must open with a sh code block"
    return [line for line in block.group(1).splitlines() if line and not line.startswith("#")]


def test_readme_opens_with_exactly_two_commands() -> None:
    commands = _first_block_commands()
    assert len(commands) == 2, commands
    main_job, tests = commands
    assert "uts58-adapt report --sample" in main_job
    # No --format: on a terminal it prints the readable summary (tests/test_report_text.py).
    assert "--format" not in main_job and " -o " not in main_job
    assert "pytest" in tests and "[test]" in tests


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    tests = _first_block_commands()[1]
    assert tests in CI, "the test command in README.md and in .ci/run differ"
    assert "UTS58_REQUIRE_CONFORMANCE=1" in CI


def test_the_readme_has_examples_of_each_kind() -> None:
    """The parser finds them (a broken fence would silently drop examples)."""
    assert len(PYTHON) >= 4 and len(RUN) >= 1
    assert len(ALL_PYTHON) >= 20 and len(ALL_RUN) >= 4
    for page, text in PAGES.items():
        assert text.count("```") == 2 * len(_blocks(page)), f"{page}: an unbalanced code fence"
    assert len(PAGES) >= 20  # README.md and the docs site's pages


def test_every_cli_example_is_run() -> None:
    first = SHELL[0]
    for block in ALL_SHELL:
        if block == first:
            continue
        for offset, line in enumerate(block.text.splitlines()):
            if line.startswith("$ "):
                continue
            invoked = re.match(r"\s*(\S*/)?uts58-adapt\b", line) or re.search(r"\|\s*uts58-adapt\b", line)
            in_listing = block not in ALL_RUN
            assert not (invoked and (in_listing or offset == 0)), (
                f"{block.page}:{block.lineno + offset}: a uts58-adapt command not on a '$ ' line is not tested: {line}"
            )
    assert first.lineno < 12


def test_readme_describes_the_input_files() -> None:
    """The pages whose examples read notes.txt and example.txt say what they hold."""
    everything = "\n".join(PAGES.values())
    for name in ("notes.txt", "example.txt"):
        for line in FILES[name].splitlines():
            assert f"`{line}`" in everything, f"no page describes {name} as it is: {line!r} missing"


#: The forms of ``pip install`` that work today (the package is not on the index yet): a
#: checkout (``.``, ``-e .``, with extras), a built wheel, a named third-party package.
_PIP_OK = re.compile(
    r"""pip install (-q |-e |--upgrade )*(?:'\.(\[[\w,-]+\])?'|\.(\[[\w,-]+\])?(?=[\s`]|$)|"\$\(ls dist/uts58_adapt-\*\.whl\)(\[[\w,-]+\])?"|'?(?!uts58)[a-z][\w.-]*\b)"""
)


def test_every_install_line_works_today() -> None:
    """No ``pip install 'uts58_adapt[...]'`` unless the sentence says it is for once it is published."""
    extras = set(re.findall(r"^([\w-]+) = \[", (REPO / "pyproject.toml").read_text(encoding="utf-8"), re.M))
    for page, text in PAGES.items():
        for lineno, line in enumerate(text.splitlines(), 1):
            for m in re.finditer(r"pip install [^`\n]*", line):
                if m.group().startswith("pip install 'uts58_adapt["):
                    context = "\n".join(text.splitlines()[max(0, lineno - 3) : lineno])
                    assert "published" in context or "from a checkout: pip install" in line, (
                        f"{page}:{lineno}: the package is not on the index yet: {m.group()}"
                    )
                    continue
                assert _PIP_OK.match(m.group()), (
                    f"{page}:{lineno}: an install line that does not work today: {m.group()}"
                )
            for named in re.findall(r"'\.\[([\w,-]+)\]'|\.whl\)\[([\w,-]+)\]", line):
                for extra in ",".join(named).split(","):
                    assert not extra or extra in extras, f"{page}:{lineno}: no extra {extra!r} in pyproject.toml"


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp/work`` holding FILES, and ``tmp/bin/uts58-adapt``."""
    work = tmp_path / "work"
    for name, text in FILES.items():
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_text(text, encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "uts58-adapt"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m uts58_adapt.cli "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    # docs/cli.md: the completion script, generated by shtab (the completion extra) from the parser.
    shtab = bin_dir / "shtab"
    shtab.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m shtab "$@"\n', encoding="utf-8")
    shtab.chmod(0o755)
    monkeypatch.chdir(work)
    return work


@pytest.mark.parametrize("block", ALL_PYTHON, ids=[b.where for b in ALL_PYTHON])
def test_python_example(block: Block, workdir: Path) -> None:
    assert ">>> " in block.text, f"{block.where}: a python example must be written as a doctest (>>>)"
    test = doctest.DocTestParser().get_doctest(block.text, {}, block.where, block.page, block.lineno)
    output: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)
    assert runner.tries == len(test.examples) > 0


def _commands(block: Block) -> list[tuple[int, str, str]]:
    """``(line number, command, expected stdout)`` of each ``$ `` line of a block."""
    out: list[tuple[int, str, str]] = []
    for offset, line in enumerate(block.text.splitlines()):
        if line.startswith("$ "):
            out.append((block.lineno + offset, line[2:], ""))
        else:
            assert out, f"{block.page}:{block.lineno + offset}: output before any '$ ' command"
            lineno, command, expected = out[-1]
            out[-1] = (lineno, command, expected + line + "\n")
    return out


@pytest.mark.parametrize("block", ALL_RUN, ids=[b.where for b in ALL_RUN])
def test_cli_example(block: Block, workdir: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "UTS58_DATA_DIR")}
    env["PATH"] = f"{workdir.parent / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(REPO)
    for lineno, command, expected in _commands(block):
        proc = subprocess.run(
            ["bash", "-c", command], cwd=workdir, env=env, capture_output=True, timeout=300, check=False
        )
        stdout = proc.stdout.decode("utf-8")
        where = f"{block.page}:{lineno}: $ {command}"
        assert proc.returncode == 0, f"{where}\nexit status {proc.returncode}\n{proc.stderr.decode()}"
        assert stdout == expected, f"{where}\nexpected:\n{expected}\ngot:\n{stdout}"


def test_cli_example_parser() -> None:
    block = Block("sh", 10, "$ echo a   # comment\na\n$ true\n$ printf 'x\\ny\\n'\nx\ny\n")
    assert _commands(block) == [
        (10, "echo a   # comment", "a\n"),
        (12, "true", ""),
        (13, "printf 'x\\ny\\n'", "x\ny\n"),
    ]
