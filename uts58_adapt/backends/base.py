"""The one protocol every backend implements.

:class:`RawLink` (what ``find`` returns) lives in :mod:`uts58_adapt.link`, below the refinement
stage that consumes it; it is re-exported here for backends.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..link import RawLink

__all__ = ["Backend", "RawLink"]


@runtime_checkable
class Backend(Protocol):
    """A linkifier that finds candidate links; the refinement stage does the rest (UTS #58 §10.1)."""

    name: str
    # Optional: ``links_emails = False`` on a backend whose library never links emails
    # (``detect`` then drops the emails the refinement finds on its own), and
    # ``keep_refined(text, links) -> links``, the refined links ``detect`` keeps (urlextract:
    # ``backends.urlextract.not_on_empty_label``, the rule its ``wrap()`` applies too).

    def find(self, text: str) -> list[RawLink]:
        """Return the backend's own links in ``text``, sorted by start."""
        ...
