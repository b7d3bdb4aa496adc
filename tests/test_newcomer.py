"""What a newcomer tripped on (issue 34.3): each answer checked here."""

from __future__ import annotations

import io
import itertools
import json
import re
import sys
import tomllib
from pathlib import Path

import pytest

from uts58_adapt.cli import main

from conftest import REPO, load_module


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


SITE = "https://uts58-adapt.github.io/uts58_adapt/"
BLOB = "https://github.com/uts58-adapt/uts58_adapt/blob/main/"


def test_the_long_description_links_work_on_a_package_index() -> None:
    # The long description is README.md (pyproject.toml): a package index resolves no relative link.
    assert tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["readme"] == "README.md"
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", readme) + re.findall(r'(?:href|src)="([^"]+)"', readme)
    assert len(targets) > 20
    for target in targets:
        assert target.startswith(("https://", "http://", "mailto:", "#")), f"relative link in README.md: {target}"
        url = target.split("#", 1)[0]
        if url.startswith(SITE):  # a page of the docs site: docs/PAGE.md or docs/PAGE/index.md
            page = url[len(SITE) :].rstrip("/") or "index"
            assert (REPO / "docs" / f"{page}.md").is_file() or (REPO / "docs" / page / "index.md").is_file(), target
        elif url.startswith(BLOB):
            assert (REPO / url[len(BLOB) :]).exists(), target


def test_the_api_page_puts_the_main_functions_first_and_documents_everything_public() -> None:
    import uts58_adapt

    page = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    listed = re.findall(r"^ +- (\w+)$|^::: uts58_adapt\.(\w+)$", page, flags=re.MULTILINE)
    names = [a or b for a, b in listed]
    assert names[:5] == ["detect", "linkify", "linkify_html", "wrap", "link_risks"]
    assert set(uts58_adapt.__all__) <= set(names), set(uts58_adapt.__all__) - set(names)
    assert "::: uts58_adapt.Link\n    options:\n      show_root_heading: true\n      members: true\n" in page


def test_every_field_of_link_has_a_docstring() -> None:
    import ast
    import dataclasses

    from uts58_adapt import Link

    tree = ast.parse((REPO / "uts58_adapt" / "link.py").read_text(encoding="utf-8"))
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Link").body
    documented = {
        field.target.id
        for field, after in itertools.pairwise(body)
        if isinstance(field, ast.AnnAssign)
        and isinstance(field.target, ast.Name)
        and isinstance(after, ast.Expr)
        and isinstance(after.value, ast.Constant)
    }
    assert documented == {f.name for f in dataclasses.fields(Link)}


def test_the_docs_extra_formats_the_signatures() -> None:
    # mkdocstrings formats a separate signature only with black or ruff installed.
    docs = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"][
        "docs"
    ]
    assert any(re.match(r"(ruff|black)\b", requirement) for requirement in docs)
    assert "separate_signature: true" in (REPO / "mkdocs.yml").read_text(encoding="utf-8")


def test_one_image_folder_and_the_screenshots_show_todays_report() -> None:
    tool = load_module("report_screenshots", REPO / "tools" / "report_screenshots.py")
    assert tool.OUT == REPO / "docs" / "img" and not (REPO / "docs" / "images").exists()
    shown = set()
    for page in (REPO / "docs").rglob("*.md"):
        for target in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page.read_text(encoding="utf-8")):
            image = (page.parent / target).resolve()
            assert image.parent == tool.OUT and image.is_file(), f"{page.name}: {target}"
            shown.add(image.name)
    assert shown == set(tool.IMAGES)
    # The counts the images show (written with them) are today's: else run tools/report_screenshots.py.
    recorded = json.loads((tool.OUT / tool.COUNTS).read_text(encoding="utf-8"))
    assert tool.sample_counts(recorded["backend"]) == recorded, "stale screenshots: run tools/report_screenshots.py"
