"""tools/check_unicode_version.py, the scheduled workflow's check (.github/workflows/unicode-check.yml),
against a stub of unicode.org: no network here."""

from __future__ import annotations

import pytest

from uts58_adapt import _unicode_version

from conftest import REPO, load_module

WORKFLOW = REPO / ".github" / "workflows" / "unicode-check.yml"


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any connection the checker would open fails the test: only the workflow uses the network."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("tests/test_unicode_check.py opened a connection")

    monkeypatch.setattr("http.client.HTTPSConnection", refuse)


def _checker():  # type: ignore[no-untyped-def]
    return load_module("check_unicode_version", REPO / "tools" / "check_unicode_version.py")


def _site(latest_ucd: str, published: set[str], redirected: frozenset[str] = frozenset()):  # type: ignore[no-untyped-def]
    """A stub of unicode.org: the UCD's latest version, and the versions with UTS #58 data."""
    asked: list[tuple[str, str]] = []

    def get(path: str, method: str) -> tuple[int, bytes]:
        asked.append((method, path))
        if path == "/Public/UCD/latest/ucd/DerivedAge.txt":
            return 200, f"# DerivedAge-{latest_ucd}.txt\n# Date: 2026-08-01\n".encode()
        version = path.split("/")[2]
        if path.endswith("/linkification/LinkTerm.txt") and version in published:
            return 200, b""
        return (302 if version in redirected else 404), b""

    return get, asked


def test_it_reads_the_packages_versions_without_importing_it() -> None:
    checker = _checker()
    assert checker.shipped() == {v: directory for v, (_, directory) in _unicode_version.SHIPPED.items()}
    assert checker.newest_final(checker.shipped()) == "17.0.0"  # 18.0.0 is a draft


def test_current_when_nothing_newer_is_published() -> None:
    get, asked = _site("17.0.0", {"17.0.0"}, redirected=frozenset({"18.0.0"}))
    status, message = _checker().check(get)
    assert (status, message) == (0, "UTS #58 data is current: the package ships 17.0.0; latest Unicode (UCD) 17.0.0")
    assert ("HEAD", "/Public/18.0.0/linkification/LinkTerm.txt") in asked  # a redirect is not a release


def test_fails_when_the_final_18_data_is_published() -> None:
    get, _ = _site("18.0.0", {"17.0.0", "18.0.0"})
    status, message = _checker().check(get)
    assert status == 1
    assert message == (
        "::error::UTS #58 data for Unicode 18.0.0 is published at "
        "https://www.unicode.org/Public/18.0.0/linkification/LinkTerm.txt; the package ships 17.0.0 "
        "(it carries the 18.0.0 draft: compare it with the final files). See docs/data.md, 'Another Unicode version'."
    )


def test_fails_for_data_published_before_the_ucd_latest_moves() -> None:
    get, _ = _site("17.0.0", {"17.0.0", "18.0.0"})
    assert _checker().check(get)[0] == 1
    get, _ = _site("19.0.0", {"19.0.0"})
    status, message = _checker().check(get, {"17.0.0": "17.0.0", "18.0.0": "18.0.0"})
    assert status == 1 and "Unicode 19.0.0 is published" in message and "ships 18.0.0." in message


def test_no_answer_is_its_own_status() -> None:
    def get(path: str, method: str) -> tuple[int, bytes]:
        return 503, b""

    status, message = _checker().check(get)
    assert status == 2 and message.startswith("::error::could not read the latest Unicode version")


@pytest.mark.parametrize("needle", ["schedule:", "cron:", "python tools/check_unicode_version.py"])
def test_the_workflow_is_scheduled_and_runs_the_check(needle: str) -> None:
    assert needle in WORKFLOW.read_text(encoding="utf-8")
