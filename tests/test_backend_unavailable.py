"""A backend whose extra is not installed raises one BackendUnavailable naming the extra.

The missing library is simulated in a fresh interpreter with ``sys.modules[name] = None``
(what Python does for a module that cannot be imported), so the installed one is not used.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import uts58_adapt
from uts58_adapt.backends import BACKENDS, EXTRAS, BackendUnavailable

from conftest import REPO


def _run(code: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=REPO, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


PROBE = """
import sys
from pathlib import Path
for module in {missing!r}:
    sys.modules[module] = None
import uts58_adapt
{setup}
try:
    uts58_adapt.detect("see example.com/x", backend={backend!r})
except uts58_adapt.BackendUnavailable as exc:
    print(type(exc).__name__, isinstance(exc, ImportError), exc.backend, exc.extra, exc.name)
    print(exc)
else:
    print("no error")
"""


@pytest.mark.parametrize("backend", sorted(EXTRAS))
def test_missing_library_names_the_extra(backend: str) -> None:
    extra, modules = EXTRAS[backend]
    out = _run(PROBE.format(missing=modules, setup="", backend=backend)).splitlines()
    assert out[0] == f"BackendUnavailable True {backend} {extra} {modules[0]}"
    assert f"pip install 'uts58_adapt[{extra}]'" in out[1]
    assert len(out) == 2  # one line, no traceback


def test_a_module_missing_inside_the_library_is_reported_too() -> None:
    """pymdownx installed without markdown: the import fails inside the backend's constructor."""
    setup = "import uts58_adapt.backends as b\nb._missing_module = lambda name: None"
    out = _run(PROBE.format(missing=("markdown",), setup=setup, backend="magiclink")).splitlines()
    assert out[0] == "BackendUnavailable True magiclink magiclink markdown"


def test_the_probe_can_fail() -> None:
    """With nothing hidden, the backend loads (the extras are installed in the test environment)."""
    out = _run(PROBE.format(missing=(), setup="", backend="django"))
    assert out == "no error\n"


def test_core_backends_need_no_extra() -> None:
    assert set(EXTRAS) | {"linkify-it", "urlextract"} == set(BACKENDS)


def test_it_is_public_and_an_import_error() -> None:
    assert uts58_adapt.BackendUnavailable is BackendUnavailable
    assert "BackendUnavailable" in uts58_adapt.__all__
    exc = BackendUnavailable("django", "django", "django")
    assert isinstance(exc, ImportError) and exc.name == "django"
    assert str(exc).startswith("the 'django' backend needs django, which is not installed: ")


CLI = """
import sys
from pathlib import Path
for module in {missing!r}:
    sys.modules[module] = None
from uts58_adapt.cli import main
sys.exit(main(["detect", "--backend", {backend!r}, {path!r}]))
"""


@pytest.mark.parametrize("backend", sorted(EXTRAS))
def test_detect_command_says_it_once_and_exits_2(backend: str, tmp_path: Path) -> None:
    """``uts58-adapt detect --backend X`` without X's extra: one line naming the extra, exit 2,
    nothing on stdout (not one error per input line)."""
    extra, modules = EXTRAS[backend]
    path = tmp_path / "in.txt"
    path.write_text("see example.com/x\nand example.org/y\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", CLI.format(missing=modules, backend=backend, path=str(path))],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and f"pip install 'uts58_adapt[{extra}]'" in proc.stderr
