"""What a newcomer tripped on (issue 34.3): each answer checked here."""

from __future__ import annotations

import io
import itertools
import re
import sys
from pathlib import Path

import pytest

from uts58_adapt.cli import main

from conftest import REPO


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("markdown-it", "; markdown-it-py finds its links with linkify-it-py: use --backend linkify-it"),
        ("nh3", "; nh3 has no linkify of its own: use --backend linkify-it"),
    ],
)
@pytest.mark.parametrize("command", ["detect", "report", "conformance"])
def test_a_library_that_is_no_backend_gets_a_hint(
    command: str, name: str, hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main([command, "--backend", name])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"uts58-adapt {command}: error: argument --backend: invalid choice: '{name}'")
    assert hint in err and err.count("\n") == 1


def test_an_unknown_backend_gets_no_hint(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["detect", "--backend", "nope"])
    assert "use --backend" not in capsys.readouterr().err


def test_marked_output_over_several_files_names_each_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.txt").write_text("see x.com/a.\nnothing\n", encoding="utf-8")
    (tmp_path / "d" / "b.txt").write_text("mail anna@example.org\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["detect", "d/a.txt", "d/b.txt"]) == 0
    assert capsys.readouterr().out == "d/a.txt:1:see ⸠x.com/a⸡.\nd/a.txt:2:nothing\nd/b.txt:1:mail ⸠anna@example.org⸡\n"
    assert main(["detect", "d"]) == 0  # a directory is several files
    assert capsys.readouterr().out.startswith("d/a.txt:1:see ⸠x.com/a⸡.\n")
    assert main(["detect", "d/a.txt"]) == 0  # one file: the lines as they are
    assert capsys.readouterr().out == "see ⸠x.com/a⸡.\nnothing\n"


def test_an_undecodable_stdin_line_says_how_far_and_how_to_go_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a x.com\nb y.org\n\xff c\nz.com\n")))
    assert main(["detect", "--backend", "urlextract", "--errors", "strict"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "a ⸠x.com⸡\nb ⸠y.org⸡\n"
    assert captured.err.splitlines()[-1] == (
        "uts58-adapt detect: <stdin>: 2 lines done, the rest not read; to go on past undecodable bytes "
        "(with the same input): uts58-adapt detect --errors replace --backend urlextract"
    )


def test_the_command_that_goes_on_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "it's.txt"
    bad.write_bytes(b"a x.com\n\xff c\nz.com\n")
    assert main(["detect", str(bad)]) == 1
    command = capsys.readouterr().err.splitlines()[-1].split("to go on past undecodable bytes: ", 1)[1]
    import shlex

    words = shlex.split(command)
    assert words[:2] == ["uts58-adapt", "detect"]
    assert main(words[1:]) == 0
    assert capsys.readouterr().out == "a ⸠x.com⸡\n\ufffd c\n⸠z.com⸡\n"


def _paragraphs(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]


@pytest.mark.parametrize("page", sorted(p.relative_to(REPO).as_posix() for p in REPO.glob("docs/**/*.md")))
def test_no_paragraph_is_repeated_at_once(page: str) -> None:
    paragraphs = _paragraphs((REPO / page).read_text(encoding="utf-8"))
    # a paragraph said twice, or the end of one said again as the next (docs/migration/index.md had "never starts.")
    repeated = [b for a, b in itertools.pairwise(paragraphs) if a.endswith(b) and not b.startswith(("```", "|", "---"))]
    assert not repeated


def test_the_standards_cited_are_the_ones_used() -> None:
    cited = set()
    for path in [*(REPO / "uts58_adapt").rglob("*.py"), *(REPO / "docs").rglob("*.md"), REPO / "README.md"]:
        cited |= set(re.findall(r"\b(UTS|UAX) ?#(\d+)", path.read_text(encoding="utf-8")))
    assert cited <= {("UTS", "58"), ("UTS", "46"), ("UTS", "39"), ("UAX", "9"), ("UAX", "14")}, cited


def test_the_docs_build_is_ignored_by_git() -> None:
    assert "site/" in (REPO / ".gitignore").read_text(encoding="utf-8").splitlines()
