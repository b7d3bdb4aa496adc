"""docs/hostile-input.md: every ``python`` example runs as shown (doctest, as the README's)."""

from __future__ import annotations

import doctest
import re

import pytest

from conftest import REPO

DOC = (REPO / "docs" / "hostile-input.md").read_text(encoding="utf-8")
BLOCKS = [
    (DOC.count("\n", 0, m.start()) + 2, m.group(1))
    for m in re.finditer(r"^```python\n(.*?)^```[ \t]*$", DOC, re.M | re.S)
]
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


@pytest.mark.parametrize(("lineno", "block"), BLOCKS, ids=[f"line {n}" for n, _ in BLOCKS])
def test_example(lineno: int, block: str) -> None:
    for library in ("django", "jinja2", "bleach", "mistune", "markdown", "html5lib"):
        if f"import {library}" in block or f"{library}." in block:
            pytest.importorskip(library)
    assert ">>>" in block, f"docs/hostile-input.md:{lineno}: a python block without >>>"
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block, {}, f"hostile-input.md:{lineno}", "docs/hostile-input.md", lineno)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    failures: list[str] = []
    runner.run(test, out=failures.append)
    assert runner.failures == 0, "".join(failures)
