"""Packaging metadata: license, version in one place, package data that exists, changelog."""

from __future__ import annotations

import importlib.metadata
import re
import sys

import uts58_adapt

from conftest import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def test_license_is_an_spdx_string_with_its_file() -> None:
    project = PYPROJECT["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text


def test_version_is_set_in_one_place() -> None:
    assert "version" not in PYPROJECT["project"]
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "uts58_adapt.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", uts58_adapt.__version__)
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
    assert versions and versions[0] == uts58_adapt.__version__


def test_idna_has_no_upper_bound() -> None:
    (idna,) = [d for d in PYPROJECT["project"]["dependencies"] if d.startswith("idna")]
    assert "<" not in idna and ">=" in idna
