"""The result types of detection: a backend's raw span (:class:`RawLink`) and a refined :class:`Link`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Link", "LinkKind", "RawLink"]

LinkKind = Literal["url", "email"]


@dataclass(frozen=True, init=False)
class Link:
    """One detected link.  Offsets are Python ``str`` indices (code points) into the input text.

    ``original`` is the backend's own span before refinement, or None for a link the
    adapter added (an email the backend did not report, a domain written with ``。``).
    With refinement, a backend may be asked for candidates rather than its final links
    (urlextract also reports the hits it would discard, and an email's ASCII local part
    and domain without completing it), so ``original`` can be a span that
    ``detect(..., refine=False)`` does not return; audits pair such links by overlap.
    """

    start: int
    """Where the link starts in the input text (a code point index)."""
    end: int
    """Where it ends (exclusive): ``text == input[start:end]``."""
    text: str
    """The link as written in the input."""
    kind: LinkKind
    """``"url"`` or ``"email"``."""
    href: str
    """The target, for an ``href`` attribute: ``text``, with ``https://`` before a bare host and ``mailto:`` before an email."""
    original: tuple[int, int] | None = None
    """The backend's own ``(start, end)`` before refinement; None for a link the adapter added."""

    def __init__(
        self, start: int, end: int, text: str, kind: LinkKind, href: str, original: tuple[int, int] | None = None
    ) -> None:
        # What the generated __init__ does, less its object.__setattr__ call per field (a
        # frozen dataclass's), which made building a Link 2.5 times slower.
        fields = self.__dict__
        fields["start"] = start
        fields["end"] = end
        fields["text"] = text
        fields["kind"] = kind
        fields["href"] = href
        fields["original"] = original


@dataclass(frozen=True, init=False)
class RawLink:
    """A span as the backend reported it, before any UTS #58 refinement."""

    start: int
    end: int
    kind: LinkKind
    scheme_length: int = 0
    """Length of the scheme and its ``:`` the backend matched at ``start`` (0: none, or not known)."""

    def __init__(self, start: int, end: int, kind: LinkKind, scheme_length: int = 0) -> None:
        # As for Link: the generated __init__ of a frozen dataclass is 2 times slower.
        fields = self.__dict__
        fields["start"] = start
        fields["end"] = end
        fields["kind"] = kind
        fields["scheme_length"] = scheme_length
