"""UTS #58 LinkDetectionTest.txt (Unicode 17.0.0): every line, with every backend, refined.

Format: remove ⸠ and ⸡ from a line, detect, re-insert the marks, compare.
"""

from __future__ import annotations

import pytest

from uts58_adapt.detection import detect

from conftest import CLOSE_MARK, OPEN_MARK, detection_cases, require_data

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


@pytest.mark.parametrize("strict_hosts", [True, False])
def test_wrapped_linkify_it_with_strict_hosts(strict_hosts, detection_test_file):
    """wrap() of a LinkifyIt configured as the linkify-it backend: 344/344 with strict_hosts.

    Without it the instance's own TLD rule decides, and linkify-it takes any ``xn--``
    label as a TLD: line 414 (``موريتانيا.xn-----ctdbabcfhu9c2b9l1acccr4c``, whose last
    label is no ICANN TLD) is then linked, the one line that differs.
    """
    from linkify_it import LinkifyIt

    from uts58_adapt.backends._tlds import tld_pattern
    from uts58_adapt.wrapping import wrap

    linkify = LinkifyIt(options={"fuzzy_link": True, "fuzzy_email": True, "fuzzy_ip": False})
    linkify.tlds([tld_pattern()], False)
    wrapped = wrap(linkify, strict_hosts=strict_hosts)
    failures = []
    for n, line in CASES:
        text = unmark(line)
        spans = [(m.index, m.last_index) for m in wrapped.match(text) or []]
        parts, pos = [], 0
        for start, end in spans:
            parts += [text[pos:start], OPEN_MARK, text[start:end], CLOSE_MARK]
            pos = end
        parts.append(text[pos:])
        if "".join(parts) != line:
            failures.append(n)
    assert failures == ([] if strict_hosts else [414])
