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
