"""A run without the official data says so at its start, and counts the tests skipped because of it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import REPO, require_data


def _pytest(data_dir: Path, *args: str, require: bool = False) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("UTS58_") and k != "PYTEST_ADDOPTS"}
    env["UTS58_DATA_DIR"] = str(data_dir)
    if require:
        env["UTS58_REQUIRE_CONFORMANCE"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


MISSING = (
    "UTS #58 conformance data MISSING (no 17.0.0/linkification/ in UTS58_DATA_DIR={}): 457 official cases "
    "not tested (344 detection lines, 110 formatting cases, 3 property files); tests that need them {}"
)


def test_missing_data_is_announced_first_and_counted(tmp_path: Path) -> None:
    # A fixed selection, so that tests added to the file do not change the count:
    # test_line_count, test_detection_line (an empty parameter set for each of the two
    # backends) and test_all_lines_pass (two backends).
    selection = "line_count or detection_line or all_lines_pass"
    proc = _pytest(tmp_path, "tests/test_detection_conformance.py", "-k", selection)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == MISSING.format(tmp_path, "are SKIPPED")
    assert (
        "5 tests skipped because the UTS #58 conformance data is missing "
        "(set UTS58_DATA_DIR; UTS58_REQUIRE_CONFORMANCE=1 makes them fail)"
    ) in lines
    assert re.fullmatch(r"5 skipped(, \d+ deselected)? in [\d.]+s", lines[-1]), lines[-1]


def test_required_data_missing_fails(tmp_path: Path) -> None:
    proc = _pytest(tmp_path, "tests/test_detection_conformance.py", "-k", "line_count", require=True)
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[0] == MISSING.format(tmp_path, "FAIL")


def test_no_line_when_the_data_is_there(tmp_path: Path) -> None:
    data = require_data("17.0.0", "linkification", "LinkDetectionTest.txt").parents[2]
    proc = _pytest(data, "tests/test_detection_conformance.py", "-k", "line_count")
    assert "MISSING" not in proc.stdout and "skipped because" not in proc.stdout, proc.stdout


def test_required_data_missing_fails_an_empty_parametrization_too(tmp_path: Path) -> None:
    # test_detection_line parametrizes over the official lines: without the data pytest skips
    # it on its own ("got empty parameter set"), which UTS58_REQUIRE_CONFORMANCE=1 must fail too.
    proc = _pytest(tmp_path, "tests/test_detection_conformance.py", "-k", "detection_line", require=True)
    assert proc.returncode == 1, proc.stdout
    assert re.fullmatch(r"2 skipped(, \d+ deselected)? in [\d.]+s", proc.stdout.splitlines()[-1])
