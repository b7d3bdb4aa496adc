"""The link audit behind ``uts58-adapt report``: what UTS #58 refinement changes in a backend's links.

- :mod:`.core`: :class:`ChunkTask`, :func:`audit_chunk` (pure, picklable) and :func:`merge`
- :mod:`.classify`: the change kinds, the reason vocabulary and the §8 risk codes' meanings
- :mod:`.runner`: inputs to tasks, the local engine, the Dask hand-off
- :mod:`.render_json`, :mod:`.render_md`, :mod:`.render_html`: the three output formats
"""

from __future__ import annotations

from typing import Any

from .classify import KINDS, REASONS, RISKS, classify
from .core import Change, ChunkResult, ChunkTask, audit_chunk, merge

__all__ = [
    "KINDS",
    "REASONS",
    "RISKS",
    "Change",
    "ChunkResult",
    "ChunkTask",
    "audit_chunk",
    "classify",
    "merge",
    "render",
]

FORMATS = ("json", "md", "html")


def render(report: dict[str, Any], fmt: str) -> str:
    """Render a merged report as ``json``, ``md`` or ``html``."""
    if fmt == "json":
        from .render_json import render_json

        return render_json(report)
    if fmt == "md":
        from .render_md import render_md

        return render_md(report)
    if fmt == "html":
        from .render_html import render_html

        return render_html(report)
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
