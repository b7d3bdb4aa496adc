"""Shared fixtures: the official Unicode data directory.

Tests that need the official files use ``unicode_data``.  It is ``$UTS58_DATA_DIR``
or ``../shared/unicode`` beside the repository.  When neither exists the tests skip
with the reason, unless ``UTS58_REQUIRE_CONFORMANCE=1`` (set by ``.ci/run``), in
which case they fail.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
OPEN_MARK, CLOSE_MARK = "\u2e20", "\u2e21"


def _find_data_dir() -> Path | None:
    env = os.environ.get("UTS58_DATA_DIR")
    candidates = [Path(env)] if env else []
    candidates.append(REPO.parent / "shared" / "unicode")
    for path in candidates:
        if (path / "17.0.0" / "linkification").is_dir():
            return path
    return None


def require_data(*relative: str) -> Path:
    """Return the path of an official file under the data directory, or skip/fail."""
    base = _find_data_dir()
    path = base.joinpath(*relative) if base else None
    if path is None or not path.is_file():
        reason = (
            f"official Unicode data file {'/'.join(relative)} not found "
            "(set UTS58_DATA_DIR or put ../shared/unicode beside the repository)"
        )
        if os.environ.get("UTS58_REQUIRE_CONFORMANCE") == "1":
            pytest.fail(reason + "; UTS58_REQUIRE_CONFORMANCE=1 forbids skipping")
        pytest.skip(reason)
    return path


def detection_cases() -> list[tuple[int, str]]:
    """(line number, line) for every test line of LinkDetectionTest.txt (read at collection)."""
    base = _find_data_dir()
    if base is None:
        return []
    path = base / "17.0.0" / "linkification" / "LinkDetectionTest.txt"
    out = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if line.strip() and not line.startswith("#"):
                out.append((lineno, line))
    return out


@pytest.fixture(scope="session")
def detection_test_file() -> Path:
    return require_data("17.0.0", "linkification", "LinkDetectionTest.txt")
