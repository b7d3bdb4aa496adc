"""The docs site (mkdocs.yml, docs/): every page in the nav, links that resolve, a CLI
reference generated from the parser.  The strict build itself (``mkdocs build --strict``)
runs in .ci/run; the examples of every page run in tests/test_readme.py."""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys

import pytest

from uts58_adapt.cli import build_parser

from conftest import REPO

DOCS = REPO / "docs"
MKDOCS = (REPO / "mkdocs.yml").read_text(encoding="utf-8")


def _hooks():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("mkdocs_hooks", REPO / "tools" / "mkdocs_hooks.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_page_is_in_the_nav_and_every_nav_entry_exists() -> None:
    nav = MKDOCS[MKDOCS.index("\nnav:") :]
    listed = set(re.findall(r"([\w./-]+\.md)\s*$", nav, re.M))
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.glob("**/*.md")}
    assert listed == pages


@pytest.mark.parametrize("page", ["architecture.md", "security.md", "hostile-input.md", "audit-at-scale.md"])
def test_pages_written_by_other_work_exist(page: str) -> None:
    assert (DOCS / page).read_text(encoding="utf-8").startswith("# ")


def test_relative_links_resolve() -> None:
    """Links between pages, and from README.md into docs/ (GitHub renders those)."""
    sources = [REPO / "README.md", *DOCS.glob("**/*.md")]
    for source in sources:
        text = re.sub(r"^```.*?^```", "", source.read_text(encoding="utf-8"), flags=re.M | re.S)
        text = re.sub(r"(`+).*?\1", "", text)  # code spans: `http://x](…)` is no link
        for target in re.findall(r"\]\(([^)\s#]+)(?:#[\w-]+)?\)", text):
            if re.match(r"https?://", target):
                continue
            assert (source.parent / target).exists(), f"{source.relative_to(REPO)}: broken link {target}"


def test_cli_reference_is_generated_from_the_parser() -> None:
    reference = _hooks().cli_reference()
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert [f"## `uts58-adapt {name}`" in reference for name in sub.choices] == [True] * len(sub.choices)
    for name, subparser in sub.choices.items():
        for action in subparser._actions:
            for option in action.option_strings:
                assert option in reference, f"{name} {option}"
    assert "<!-- cli-reference -->" in (DOCS / "cli.md").read_text(encoding="utf-8")
    assert "<!-- cli-reference -->" not in _hooks().on_page_markdown("x <!-- cli-reference -->", page=None)


def test_the_cli_reference_probe_can_fail() -> None:
    reference = _hooks().cli_reference()
    assert "--no-such-option" not in reference


def test_the_changelog_page_includes_the_changelog() -> None:
    assert (DOCS / "changelog.md").read_text(encoding="utf-8").strip() == '--8<-- "CHANGELOG.md"'


def test_shell_completion_knows_every_subcommand() -> None:
    shtab = pytest.importorskip("shtab")  # the completion extra (in the test extra)
    script = shtab.complete(build_parser(), shell="bash")
    (line,) = [ln for ln in script.splitlines() if ln.startswith("_shtab_uts58_adapt_subparsers=")]
    assert line == "_shtab_uts58_adapt_subparsers=(detect report escape conformance)"
    assert "--backend" in script and sys.modules["shtab"] is shtab


def test_ci_builds_the_docs_strictly() -> None:
    """`mkdocs build --strict --quiet` neither shows nor counts warnings: it passes with a broken link."""
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    (line,) = [ln for ln in ci.splitlines() if "mkdocs build" in ln and not ln.lstrip().startswith("#")]
    assert "--strict" in line and "--quiet" not in line and " -q " not in line
    assert "strict: true" in MKDOCS


def test_sphinx_roles_are_dropped_from_the_api_page() -> None:
    hooks = _hooks()
    html = "An :class:<code>ImportError</code>, see :func:<code>detect</code> and a:b:<code>x</code>"
    assert (
        hooks.on_page_content(html, page=None)
        == "An <code>ImportError</code>, see <code>detect</code> and a:b:<code>x</code>"
    )
