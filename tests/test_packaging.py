"""Packaging metadata: license, version in one place, package data that exists, changelog,
extras, what the sdist holds (built and tested from its unpacked form by .ci/run)."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib

import uts58_adapt

from conftest import REPO

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def test_license_is_an_spdx_string_with_its_file() -> None:
    project = PYPROJECT["project"]
    # The code is MIT; the official Unicode files the wheel carries (data/unicode/) are Unicode-3.0.
    assert project["license"] == "MIT AND Unicode-3.0"
    assert project["license-files"] == ["LICENSE", "data/unicode/LICENSE"]
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text
    unicode = (REPO / "data" / "unicode" / "LICENSE").read_text(encoding="utf-8")
    assert unicode.startswith("UNICODE LICENSE V3\n") and unicode.endswith("SPDX-License-Identifier: Unicode-3.0\n")


def test_version_is_set_in_one_place() -> None:
    assert "version" not in PYPROJECT["project"]
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "uts58_adapt.__version__"}
    # A release X.Y.Z, or X.Y.Z.devN between releases (docs/development.md).
    assert re.fullmatch(r"\d+\.\d+\.\d+(\.dev\d+)?", uts58_adapt.__version__)
    # The installed metadata was built from it (an editable install reads the same file).
    assert importlib.metadata.version("uts58_adapt") == uts58_adapt.__version__


def test_every_package_data_glob_matches_a_file() -> None:
    package = REPO / "uts58_adapt"
    for pattern in PYPROJECT["tool"]["setuptools"]["package-data"]["uts58_adapt"]:
        assert list(package.glob(pattern)), f"package-data glob {pattern!r} matches nothing"


def test_changelog_has_the_current_version() -> None:
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n")
    assert "## [Unreleased]" in text
    versions = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", text, re.M)
    assert versions
    release, _, dev = uts58_adapt.__version__.partition(".dev")
    if dev:  # between releases: the next release, not yet in the changelog
        assert _key(release) > _key(versions[0]), (release, versions[0])
    else:  # a release: its section is the newest
        assert versions[0] == release


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def test_runtime_dependencies_are_used_at_run_time() -> None:
    """tldextract only feeds tools/generate_tlds.py (tests/test_optional_imports.py checks no import)."""
    names = [re.split(r"[<>=!~ ;\[]", d, maxsplit=1)[0].lower() for d in PYPROJECT["project"]["dependencies"]]
    assert names == ["linkify-it-py", "urlextract", "idna", "tqdm"]
    assert any(d.startswith("tldextract") for d in PYPROJECT["project"]["optional-dependencies"]["test"])


def test_extras() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    integrations = {
        "bleach",
        "django",
        "jinja2",
        "mistune",
        "magiclink",
        "markdown-it",
        "marko",
        "nh3",
        "docutils",
        "sphinx",
    }
    integrations |= {"cmarkgfm"}
    assert integrations <= set(extras)
    (all_,) = extras["all"]
    assert set(re.fullmatch(r"uts58_adapt\[(.*)\]", all_).group(1).split(",")) == integrations  # type: ignore[union-attr]
    assert extras["dask"] == ["dask[distributed]>=2024.1"]  # separate, not in [all]
    assert extras["markdown-it"] == ["markdown-it-py>=3"]
    assert extras["marko"] == ["marko>=2"]
    assert any("marko" in d.split("[", 1)[-1] for d in extras["test"] if d.startswith("uts58_adapt["))  # CI tests it
    for extra in ("docs", "release", "completion"):
        assert extras[extra]


def test_metadata_for_the_index() -> None:
    project = PYPROJECT["project"]
    classifiers = project["classifiers"]
    assert "Typing :: Typed" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")]  # PEP 639: the SPDX `license` instead
    minimum = re.fullmatch(r">=3\.(\d+)", project["requires-python"]).group(1)  # type: ignore[union-attr]
    pythons = sorted(
        int(c.rsplit(".", 1)[1]) for c in classifiers if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    )
    assert pythons[0] == int(minimum) and pythons == list(range(pythons[0], pythons[-1] + 1))
    assert {"Source", "Documentation", "Changelog", "Issues"} <= set(project["urls"])
    assert project["authors"] and project["keywords"]
    assert (REPO / "uts58_adapt" / "py.typed").is_file()


def test_the_sdist_holds_what_its_tests_need() -> None:
    """MANIFEST.in: the tests (with conftest.py), the official data, the tools and reports they read, docs, CHANGELOG, .ci/run."""
    manifest = (REPO / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    for line in (
        "graft tests", "graft data", "graft tools", "graft compat_reports", "graft docs", "graft benchmarks", "graft .github",
    ):  # fmt: skip
        assert line in manifest
    included = " ".join(line for line in manifest if line.startswith("include "))
    for name in ("CHANGELOG.md", "LICENSE", "README.md", "mkdocs.yml", ".ci/run", ".gitignore"):
        assert name in included.split(), name
        assert (REPO / name).is_file()


def test_idna_has_no_upper_bound() -> None:
    (idna,) = [d for d in PYPROJECT["project"]["dependencies"] if d.startswith("idna")]
    assert "<" not in idna and ">=" in idna
