"""Issue 37.3: SECURITY.md, as idna and bleach have one: private reporting, supported versions,
what counts as a vulnerability; shipped in the sdist and linked from docs/security.md."""

from __future__ import annotations

import re
import tomllib

from conftest import REPO

POLICY = REPO / "SECURITY.md"


def test_private_reporting_goes_to_the_repositorys_security_advisories() -> None:
    text = POLICY.read_text(encoding="utf-8")
    source = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]["Source"]
    assert f"{source}/security/advisories/new" in text
    assert "privately" in text and "Do not open a public issue" in text


def test_supported_versions_name_the_latest_release() -> None:
    text = POLICY.read_text(encoding="utf-8")
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"^## \[(\d+)\.(\d+)\.\d+\]", changelog, re.M)
    major, minor = released[0]  # the newest release comes first
    assert "## Supported versions" in text
    assert f"the latest release ({major}.{minor}.x)" in text and "`main`" in text


def test_what_counts_as_a_vulnerability() -> None:
    text = POLICY.read_text(encoding="utf-8")
    section = text.split("## What counts as a vulnerability", 1)[1]
    for item in ("**a link**", "**an element or attribute**", "**a scheme**", "**a cost**", "`reject_risky` bypass"):
        assert item in section, item


def test_linked_from_the_docs_and_shipped_in_the_sdist() -> None:
    docs = (REPO / "docs" / "security.md").read_text(encoding="utf-8")
    assert "https://github.com/uts58-adapt/uts58_adapt/blob/main/SECURITY.md" in docs
    manifest = (REPO / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    assert any(line.startswith("include ") and "SECURITY.md" in line.split() for line in manifest)
    for target in re.findall(r"\]\(([^)#]+)", POLICY.read_text(encoding="utf-8")):
        if not target.startswith("http"):
            assert (REPO / target).is_file(), target
