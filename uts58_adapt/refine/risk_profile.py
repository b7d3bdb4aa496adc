"""The values of ``reject_risky`` and the §8 profiles of ``link_risks`` (no tables: cheap to import).

``reject_risky`` is ``False`` (off), ``True`` (the default profile: UTS #39 and §8) or
``"browser"`` (the default profile and Chromium's IDN display policy); every entry point
that takes it reads it with :func:`reject_risky_value` and hands the result to
:func:`uts58_adapt.refine.risks.reject_risky_links`, the one place it is evaluated.
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

__all__ = ["BROWSER", "DEFAULT", "PROFILES", "RejectRisky", "profile_of", "reject_risky_value"]

DEFAULT: Final = "default"
BROWSER: Final = "browser"
#: The profiles of ``link_risks(..., profile=...)``.
PROFILES = (DEFAULT, BROWSER)

#: What ``reject_risky`` accepts.
RejectRisky: TypeAlias = bool | Literal["browser"]


def reject_risky_value(reject_risky: object) -> RejectRisky:
    """``reject_risky`` as stored: ``"browser"``, else its truth value (``True``/``False``).

    Any other string raises ValueError, so a misspelt profile never turns into the default one.
    """
    if isinstance(reject_risky, str):
        if reject_risky == BROWSER:
            return BROWSER
        raise ValueError(f"reject_risky must be True, False or 'browser', not {reject_risky!r}")
    return bool(reject_risky)


def profile_of(reject_risky: object) -> str:
    """The ``link_risks`` profile a true ``reject_risky`` stands for: ``"browser"`` or ``"default"``."""
    return BROWSER if reject_risky_value(reject_risky) == BROWSER else DEFAULT
