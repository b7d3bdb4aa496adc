"""UTS #58 §4.1 URL Minimal Escaping Algorithm (placeholder until implemented)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["format_url", "minimal_escape"]


def minimal_escape(url: str) -> str:
    raise NotImplementedError


def format_url(
    scheme: str,
    host: str,
    path: Sequence[str] = (),
    query: Sequence[tuple[str, str | None]] = (),
    fragment: str | None = None,
    directives: Sequence[str] = (),
) -> str:
    raise NotImplementedError
