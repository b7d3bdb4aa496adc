"""Where the official Unicode data files are: ``$UTS58_DATA_DIR``, else the copy this package carries.

The repository holds them in ``data/unicode/`` (``17.0.0/``, ``dev/``, ``18.0.0-draft/``: the
layout of unicode.org's directories; ``tools/refresh_data.py`` refreshes them).  A wheel carries
the linkification files of that directory as package data (``uts58_adapt/_unicode_data/``),
which is all ``uts58-adapt conformance`` reads.  A data directory is one that holds the
linkification files of the Unicode version in use (``_unicode_version.DATA_DIRECTORY``:
``17.0.0``, or ``18.0.0-draft`` when ``$UTS58_UNICODE_VERSION=18.0.0``).
"""

from __future__ import annotations

import os
from pathlib import Path

from ._unicode_version import DATA_DIRECTORY

__all__ = ["bundled_data_dir", "data_dir"]

#: The data directory of a source checkout (an editable install too): ``data/unicode`` beside the package.
CHECKOUT_DATA = Path(__file__).resolve().parent.parent / "data" / "unicode"
#: The linkification files an installed wheel carries ([tool.setuptools.package-dir] in pyproject.toml).
PACKAGE_DATA = Path(__file__).resolve().parent / "_unicode_data"


def _has_data(path: Path) -> bool:
    return (path / DATA_DIRECTORY / "linkification").is_dir()


def bundled_data_dir() -> Path | None:
    """The data directory that comes with this copy of the package: the checkout's ``data/unicode``,
    else the wheel's package data; None when neither is there."""
    for path in (CHECKOUT_DATA, PACKAGE_DATA):
        if _has_data(path):
            return path
    return None


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """Return the directory holding ``17.0.0/linkification/`` (the version in use's), or None when none is found.

    Looked up in order: ``explicit``, ``$UTS58_DATA_DIR`` (either one, when given, is the
    only candidate: a wrong override is reported, not replaced), then :func:`bundled_data_dir`.
    """
    override = explicit or os.environ.get("UTS58_DATA_DIR")
    if override:
        path = Path(override)
        return path.resolve() if _has_data(path) else None
    return bundled_data_dir()
