"""Errors shared by the audit runner and its Dask engine (here, so neither imports the other)."""

from __future__ import annotations

__all__ = ["DaskUnavailable"]


class DaskUnavailable(RuntimeError):
    """The Dask engine cannot be loaded; the message says what to install."""
