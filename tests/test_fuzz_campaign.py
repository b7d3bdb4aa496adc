"""A short run of the fuzz campaign in tools/fuzz.py (issue 13): every target, no failure.

The long run (``python tools/fuzz.py --examples 100000``) is measured by hand; this keeps
the campaign itself working and finds regressions on a few hundred inputs per target.
"""

from __future__ import annotations

import pytest

from conftest import REPO, load_module

FUZZ = load_module("uts58_fuzz", REPO / "tools" / "fuzz.py")


@pytest.mark.parametrize("target", list(FUZZ.TARGETS))
def test_short_campaign(target: str) -> None:
    assert FUZZ.run_target(target, 150) == 150


def test_the_checks_can_fail() -> None:
    """The invariants are real: a javascript: anchor or a bidi control in a link is caught."""
    with pytest.raises(AssertionError):
        FUZZ._check_anchors('<a href="javascript:alert(1)">x</a>')
    with pytest.raises(AssertionError):
        FUZZ._check_anchors('<a href="https://a.com/\u202e">a.com/\u202e</a>')
    with pytest.raises(AssertionError):
        FUZZ._check_anchors_md('<a href="ms-msdt://x">x</a>')
