"""The public result type of detection."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Link", "LinkKind"]

LinkKind = Literal["url", "email"]


@dataclass(frozen=True)
class Link:
    """One detected link.  Offsets are Python ``str`` indices (code points) into the input text.

    ``original`` is the backend's own span before refinement, or None for a link the
    adapter added (an email the backend did not report, for instance).
    """

    start: int
    end: int
    text: str
    kind: LinkKind
    href: str
    original: tuple[int, int] | None = None
