"""UTS #58 LinkDetectionTest.txt (Unicode 17.0.0): every line, with every backend, refined.

Format: remove ⸠ and ⸡ from a line, detect, re-insert the marks, compare.
"""

from __future__ import annotations

import pytest

from conftest import CLOSE_MARK, OPEN_MARK, detection_cases, require_data
from uts58_adapt.detection import detect

BACKENDS = ("linkify-it", "urlextract")
CASES = detection_cases()
EXPECTED_LINES = 344


def mark(text: str, links) -> str:
    parts, pos = [], 0
    for link in links:
        parts += [text[pos : link.start], OPEN_MARK, text[link.start : link.end], CLOSE_MARK]
        pos = link.end
    parts.append(text[pos:])
    return "".join(parts)


def unmark(line: str) -> str:
    return line.replace(OPEN_MARK, "").replace(CLOSE_MARK, "")


def run_line(line: str, backend: str, refine: bool = True) -> str:
    text = unmark(line)
    return mark(text, detect(text, backend, refine))


def test_line_count(detection_test_file):
    require_data("17.0.0", "linkification", "LinkDetectionTest.txt")
    assert len(CASES) == EXPECTED_LINES


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("lineno", "line"), CASES, ids=[f"L{n}:{line[:60]}" for n, line in CASES])
def test_detection_line(backend, lineno, line, detection_test_file):
    got = run_line(line, backend)
    assert got == line, f"LinkDetectionTest.txt line {lineno} ({backend}):\n  expected {line}\n  got      {got}"


@pytest.mark.parametrize("backend", BACKENDS)
def test_all_lines_pass(backend, detection_test_file):
    failures = [(n, line) for n, line in CASES if run_line(line, backend) != line]
    assert len(CASES) == EXPECTED_LINES
    assert not failures, "\n".join(f"line {n}: {line}" for n, line in failures)


@pytest.mark.parametrize("backend", BACKENDS)
def test_refinement_never_breaks_a_line_the_backend_had_right(backend, detection_test_file):
    raw_right = [(n, line) for n, line in CASES if run_line(line, backend, refine=False) == line]
    broken = [(n, line) for n, line in raw_right if run_line(line, backend) != line]
    assert not broken, "\n".join(f"line {n}: {line}" for n, line in broken)
    # The refinement is worth something: it fixes lines the raw backend got wrong.
    assert len(raw_right) < len(CASES)
