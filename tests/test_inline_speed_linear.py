"""``detect()`` with the mistune and magiclink backends stays linear on the shapes its
shortcuts loop over (issue 20): the look for schemes after a letter (one step per ``://``),
the magiclink backend's anchors (one bounded search per ``://`` or ``www.``) and its email
tokens (each white-space-delimited token read once, however many ``@`` a text between two
links holds).  The magiclink library alone is quadratic on some runs without white space
(its link processor reads each match's path to the end of the run); these shapes are not
among them.
"""

from __future__ import annotations

import pytest
from test_linear_time import DETECT_SHAPES, Builder, check_linear, repeated

from uts58_adapt import detect

SHAPES: dict[str, Builder] = {
    **DETECT_SHAPES,
    **repeated("例://", "例https://a.jp/", "例 https://a.jp ", "a@ ", "a@b.com x@y ", "http://_"),
    "www.www. * n": lambda n: "www." * n,
    **repeated("http://a_b.c_d ", "see https://a.com/x a@b.de "),
}


@pytest.mark.parametrize("backend", ["mistune", "magiclink"])
@pytest.mark.parametrize("shape", list(SHAPES))
def test_detect_linear(backend: str, shape: str) -> None:
    pytest.importorskip("mistune" if backend == "mistune" else "pymdownx")
    check_linear(lambda text: detect(text, backend=backend), SHAPES[shape])
