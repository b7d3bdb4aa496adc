"""conftest.find_chromium: which browser the browser tests launch, and when its absence is a failure."""

from __future__ import annotations

from pathlib import Path

import pytest

import conftest
from conftest import BrowserUnavailable, browser_unavailable, find_chromium


def _executable(path: Path) -> Path:
    path.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    path.chmod(0o755)
    return path


@pytest.fixture
def no_browser(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty PATH, no UTS58_CHROMIUM, no Playwright browser; returns the PATH directory."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.delenv("UTS58_CHROMIUM", raising=False)
    monkeypatch.setattr(conftest, "_playwright_chromium", lambda: None)
    return bin_dir


def test_explicit_path_wins(no_browser: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _executable(no_browser / "chromium")
    mine = _executable(tmp_path / "my-chrome")
    monkeypatch.setenv("UTS58_CHROMIUM", str(mine))
    assert find_chromium() == str(mine)


def test_explicit_name_on_path(no_browser: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _executable(no_browser / "google-chrome")
    monkeypatch.setenv("UTS58_CHROMIUM", "google-chrome")
    assert find_chromium() == str(no_browser / "google-chrome")


def test_explicit_but_missing_is_an_error(no_browser: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _executable(no_browser / "chromium")  # not used instead: the setting was explicit
    monkeypatch.setenv("UTS58_CHROMIUM", "/nonexistent/chrome")
    with pytest.raises(BrowserUnavailable, match=r"^UTS58_CHROMIUM=/nonexistent/chrome is not an executable file"):
        find_chromium()


def test_first_name_found_on_path(no_browser: Path) -> None:
    _executable(no_browser / "google-chrome")
    _executable(no_browser / "chromium-browser")
    assert find_chromium() == str(no_browser / "chromium-browser")


def test_a_non_executable_file_is_not_a_browser(no_browser: Path) -> None:
    (no_browser / "chromium").write_text("", encoding="utf-8")
    with pytest.raises(BrowserUnavailable):
        find_chromium()


def test_playwright_browser_when_none_on_path(no_browser: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conftest, "_playwright_chromium", lambda: "/root/.cache/ms-playwright/chromium/chrome")
    assert find_chromium() is None  # launch() without executable_path uses Playwright's own


def test_none_at_all(no_browser: Path) -> None:
    with pytest.raises(BrowserUnavailable, match=r"^no Chromium found: none of chromium, chromium-browser, "):
        find_chromium()


def test_missing_browser_skips_unless_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("UTS58_REQUIRE_BROWSER", raising=False)
    monkeypatch.setenv("CI", "true")  # GitHub Actions sets it: no longer a reason to fail
    with pytest.raises(pytest.skip.Exception, match=r"^no browser$"):
        browser_unavailable("no browser")
    monkeypatch.setenv("UTS58_REQUIRE_BROWSER", "1")
    with pytest.raises(pytest.fail.Exception, match=r"^no browser; UTS58_REQUIRE_BROWSER=1 requires a browser$"):
        browser_unavailable("no browser")


def test_ci_requires_the_browser() -> None:
    ci = (conftest.REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "export UTS58_REQUIRE_BROWSER=1" in ci
