"""The one protocol every backend implements."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

__all__ = ["Backend", "RawLink"]


@dataclass(frozen=True, init=False)
class RawLink:
    """A span as the backend reported it, before any UTS #58 refinement."""

    start: int
    end: int
    kind: Literal["url", "email"]
    scheme_length: int = 0
    """Length of the scheme and its ``:`` the backend matched at ``start`` (0: none, or not known)."""

    def __init__(self, start: int, end: int, kind: Literal["url", "email"], scheme_length: int = 0) -> None:
        # As for Link: the generated __init__ of a frozen dataclass is 2 times slower.
        fields = self.__dict__
        fields["start"] = start
        fields["end"] = end
        fields["kind"] = kind
        fields["scheme_length"] = scheme_length


@runtime_checkable
class Backend(Protocol):
    """A linkifier that finds candidate links; the refinement stage does the rest (UTS #58 §10.1)."""

    name: str
    # Optional: ``links_emails = False`` on a backend whose library never links emails
    # (``detect`` then drops the emails the refinement finds on its own).

    def find(self, text: str) -> list[RawLink]:
        """Return the backend's own links in ``text``, sorted by start."""
        ...
