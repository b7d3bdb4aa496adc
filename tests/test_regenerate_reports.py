"""tools/regenerate_reports.py stops on any failure, names it and leaves the committed reports alone."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
TOOL_PATH = REPO / "tools" / "regenerate_reports.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("regenerate_reports_t", TOOL_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL: Any = _tool()
OLD = {"linkify-it.md": b"old md\n", "linkify-it.json": b"old json\n"}


@pytest.fixture
def old_reports(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[Path, bytes]:
    """Two committed reports in a temporary directory, which the tool is pointed at."""
    files = {tmp_path / name: data for name, data in OLD.items()}
    for path, data in files.items():
        path.write_bytes(data)
    monkeypatch.setattr(TOOL, "OUT_DIR", tmp_path)
    monkeypatch.setattr(
        TOOL,
        "report_files",
        lambda: [
            ("linkify-it", "md", tmp_path / "linkify-it.md"),
            ("linkify-it", "json", tmp_path / "linkify-it.json"),
        ],
    )
    return files


def _unchanged(files: dict[Path, bytes]) -> bool:
    return all(path.read_bytes() == data for path, data in files.items())


def test_a_missing_dependency_stops_it(
    old_reports: dict[Path, bytes], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(TOOL.REQUIRED_MODULES, "uts58_no_such_module", "uts58-no-such-dist")
    for argv in ([], ["--check"]):
        assert TOOL.main(argv) == 2
        err = capsys.readouterr().err
        assert "lacks dependencies of uts58_adapt: uts58_no_such_module (pip install uts58-no-such-dist" in err
        assert err.startswith(
            "regenerate_reports: no report written" if not argv else "regenerate_reports: cannot check"
        )
    assert _unchanged(old_reports)


def test_a_failing_chunk_stops_it(
    old_reports: dict[Path, bytes], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from uts58_adapt.report.preview import Preview

    real: Callable[..., object] = Preview.pair

    def failing_pair(self: Preview, text: str) -> object:
        if "@" in text:
            raise ValueError("boom on an email line")
        return real(self, text)

    monkeypatch.setattr(Preview, "pair", failing_pair)  # the audit previews wrap(LinkifyIt()) (issue 33)
    assert TOOL.main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("regenerate_reports: no report written: linkify-it: detection failed on ")
    assert "ValueError: boom on an email line" in err
    assert _unchanged(old_reports)


def test_no_link_at_all_stops_it(
    old_reports: dict[Path, bytes], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from uts58_adapt.report.preview import Preview

    monkeypatch.setattr(Preview, "pair", lambda self, text: ([], []))
    assert TOOL.main([]) == 2
    assert "the sample corpus gave no link at all" in capsys.readouterr().err
    assert _unchanged(old_reports)


def test_check_names_what_differs(old_reports: dict[Path, bytes], capsys: pytest.CaptureFixture[str]) -> None:
    md = next(p for p in old_reports if p.suffix == ".md")
    fresh = TOOL.build("linkify-it", "md")
    md.write_bytes(fresh.replace(b"\n", b"\nextra line\n", 1))
    (md.parent / "linkify-it.json").unlink()
    assert TOOL.main(["--check"]) == 1
    err = capsys.readouterr().err
    first = fresh.decode().splitlines()[1]
    assert f"stale: {md}: line 2 differs:\n    committed: extra line\n    fresh:     {first[:100]}\n" in err
    assert f"stale: {md.parent / 'linkify-it.json'}: missing\n" in err
    assert err.endswith("run: python tools/regenerate_reports.py\n")


def test_difference() -> None:
    assert TOOL.difference(None, b"a") == "missing"
    assert TOOL.difference(b"a\nb\n", b"a\nc\n") == "line 2 differs:\n    committed: b\n    fresh:     c"
    assert TOOL.difference(b"a\n", b"a\nb\n") == "1 lines committed, 2 in a fresh build"
    assert TOOL.difference(b"a\r\n", b"a\n") == "line endings or the final newline differ"


def test_a_python_without_the_dependencies(tmp_path: Path) -> None:
    """The reported bug: run by a Python without site-packages, the tool wrote empty reports and exited 0."""
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "regenerate_reports.py").write_bytes(TOOL_PATH.read_bytes())
    os.symlink(REPO / "uts58_adapt", tmp_path / "uts58_adapt")
    out = tmp_path / "compat_reports"
    out.mkdir()
    files = {out / name: data for name, data in OLD.items()}
    for path, data in files.items():
        path.write_bytes(data)
    proc = subprocess.run(
        [sys.executable, "-I", "-S", str(tmp_path / "tools" / "regenerate_reports.py")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    assert "lacks dependencies of uts58_adapt: " in proc.stderr
    assert "linkify_it (pip install linkify-it-py" in proc.stderr
    assert _unchanged(files)
    assert sorted(p.name for p in out.iterdir()) == sorted(OLD)
