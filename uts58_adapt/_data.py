"""Where the official Unicode data files are: ``$UTS58_DATA_DIR``, else ``../shared/unicode``."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["data_dir"]


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """Return the directory holding ``17.0.0/linkification/``, or None when none is found.

    Looked up in order: ``explicit``, ``$UTS58_DATA_DIR``, ``../shared/unicode`` from the
    current directory, and ``../shared/unicode`` beside a source checkout of this package.
    """
    candidates: list[Path] = []
    if explicit:
        candidates.append(Path(explicit))
    if os.environ.get("UTS58_DATA_DIR"):
        candidates.append(Path(os.environ["UTS58_DATA_DIR"]))
    candidates.append(Path.cwd() / ".." / "shared" / "unicode")
    candidates.append(Path(__file__).resolve().parent.parent.parent / "shared" / "unicode")
    for path in candidates:
        if (path / "17.0.0" / "linkification").is_dir():
            return path.resolve()
    return None
