"""Issue 9.5: ``wrap(x)`` is typed as ``type(x)`` (overloads mypy --strict accepts).

``typing.assert_type`` is a no-op when the test runs; the second test runs mypy on
this file, where it checks the static types.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import assert_type

import pytest
from linkify_it.main import LinkifyIt
from urlextract.urlextract_core import URLExtract

from uts58_adapt.wrapping import wrap


class MyExtract(URLExtract):
    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]


def test_wrap_keeps_the_static_and_runtime_type() -> None:
    lk = wrap(LinkifyIt())
    ux = wrap(URLExtract())
    mine = wrap(MyExtract(), strict_hosts=True)
    assert_type(lk, LinkifyIt)
    assert_type(ux, URLExtract)
    assert_type(mine, MyExtract)
    assert isinstance(lk, LinkifyIt)
    assert isinstance(ux, URLExtract)
    assert isinstance(mine, MyExtract)


def test_mypy_strict_accepts_the_overloads(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    root = Path(__file__).resolve().parent.parent
    out, err, status = api.run(
        [
            "--config-file",
            str(root / "pyproject.toml"),
            "--strict",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--python-version",
            f"{sys.version_info.major}.{sys.version_info.minor}",
            "--follow-imports=silent",
            str(Path(__file__).resolve()),
            str(root / "uts58_adapt" / "wrapping.py"),
        ]
    )
    assert status == 0, out + err


#: A user's module, checked with mypy's defaults (docs/migration/index.md, "type checkers").
APP = """\
from linkify_it import LinkifyIt
from urlextract import URLExtract

import uts58_adapt

reveal_type(uts58_adapt.wrap(LinkifyIt()))
reveal_type(uts58_adapt.wrap(URLExtract()))
"""


#: What docs/migration/index.md tells a user to add to their pyproject.toml (read from the page).
def _documented_setting() -> str:
    page = (Path(__file__).resolve().parent.parent / "docs" / "migration" / "index.md").read_text(encoding="utf-8")
    block = page.split("```toml\n", 1)[1].split("```", 1)[0]
    assert "follow_untyped_imports = true" in block
    return block


@pytest.mark.parametrize("configured", [False, True], ids=["plain-mypy", "with-the-documented-setting"])
def test_a_users_plain_mypy_run(configured: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    api = pytest.importorskip("mypy.api")
    (tmp_path / "app.py").write_text(APP, encoding="utf-8")
    if configured:
        (tmp_path / "pyproject.toml").write_text(_documented_setting(), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    # uts58_adapt from this checkout (an editable install's import hook is invisible to mypy).
    monkeypatch.setenv("MYPYPATH", str(Path(__file__).resolve().parent.parent))
    out, _err, _status = api.run(["--cache-dir", str(tmp_path / "cache"), "app.py"])
    if configured:
        assert 'Revealed type is "linkify_it.main.LinkifyIt"' in out, out
        assert 'Revealed type is "urlextract.urlextract_core.URLExtract"' in out, out
        assert "error" not in out, out
    else:
        # What the docs say a plain run gives: the two libraries untyped, the wrapped objects Any.
        assert out.count("[import-untyped]") == 2, out
        assert out.count('Revealed type is "Any"') == 2, out
