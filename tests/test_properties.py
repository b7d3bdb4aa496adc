"""Link_Term, Link_Bracket and Link_Email against the official Unicode 17.0.0 files, all code points.

The official files are parsed here, independently of the generator: ranges are
listed grouped by value (not sorted), and unlisted code points take the
``@missing`` default (Hard, <none>, No).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from uts58_adapt import UNICODE_VERSION, LinkTerm, is_link_email, link_bracket, link_term
from uts58_adapt.properties import is_letter

from conftest import REPO, require_data, ucd_data_lines

MAX = 0x110000


def _official(name: str) -> Path:
    return require_data("17.0.0", "linkification", name)


def _mismatches(expected, actual_fn) -> list[str]:
    bad = []
    for cp in range(MAX):
        got = actual_fn(chr(cp))
        if got != expected[cp]:
            bad.append(f"U+{cp:04X}: expected {expected[cp]!r}, got {got!r}")
    return bad


def test_link_term_all_code_points():
    expected = ["Hard"] * MAX
    for _lineno, first, last, fields in ucd_data_lines(_official("LinkTerm.txt")):
        expected[first : last + 1] = [fields[0]] * (last - first + 1)
    bad = _mismatches(expected, lambda ch: link_term(ch).value)
    assert not bad, f"{len(bad)} code points differ, first: {bad[:20]}"


def test_link_bracket_all_code_points():
    expected: list[str | None] = [None] * MAX
    count = 0
    for _lineno, first, last, fields in ucd_data_lines(_official("LinkBracket.txt")):
        for cp in range(first, last + 1):
            expected[cp] = chr(int(fields[0], 16))
            count += 1
    assert count == 64
    bad = _mismatches(expected, link_bracket)
    assert not bad, f"{len(bad)} code points differ, first: {bad[:20]}"


def test_link_email_all_code_points():
    expected = [False] * MAX
    for _lineno, first, last, _fields in ucd_data_lines(_official("LinkEmail.txt")):
        expected[first : last + 1] = [True] * (last - first + 1)
    bad = _mismatches(expected, is_link_email)
    assert not bad, f"{len(bad)} code points differ, first: {bad[:20]}"


def test_letters_all_code_points():
    """``is_letter`` (scheme initiation after a word) against DerivedGeneralCategory.txt: gc=L*, unlisted are Cn."""
    path = require_data("17.0.0", "ucd", "extracted", "DerivedGeneralCategory.txt")
    expected = [False] * MAX
    for _lineno, first, last, fields in ucd_data_lines(path):
        expected[first : last + 1] = [fields[0].startswith("L")] * (last - first + 1)
    bad = _mismatches(expected, is_letter)
    assert not bad, f"{len(bad)} code points differ, first: {bad[:20]}"


def test_spot_values():
    assert UNICODE_VERSION == "17.0.0"
    assert link_term("a") is LinkTerm.INCLUDE
    assert link_term(" ") is LinkTerm.HARD
    assert link_term(".") is LinkTerm.SOFT
    assert link_term("(") is LinkTerm.OPEN
    assert link_term(")") is LinkTerm.CLOSE
    assert link_term("<") is LinkTerm.OPEN and link_bracket(">") == "<"
    assert link_term("\u200d") is LinkTerm.INCLUDE  # ZWJ (Cf) is Include
    assert link_term("\ud800") is LinkTerm.HARD  # lone surrogate
    assert link_term("\U0010ffff") is LinkTerm.HARD  # noncharacter
    assert link_bracket("}") == "{" and link_bracket("a") is None
    assert is_link_email("σ") and is_link_email(".") and not is_link_email("@")
    assert LinkTerm("Soft") is LinkTerm.SOFT and LinkTerm.SOFT == "Soft"


@pytest.mark.parametrize("fn", [link_term, link_bracket, is_link_email])
@pytest.mark.parametrize("bad", ["", "ab", "\U0001f600x"])
def test_not_one_code_point(fn, bad):
    with pytest.raises(ValueError, match="one code point"):
        fn(bad)


@pytest.mark.parametrize("fn", [link_term, link_bracket, is_link_email])
def test_not_a_str(fn):
    with pytest.raises(TypeError, match="ch must be a str"):
        fn(65)


def test_generator_reproduces_tables_byte_for_byte(tmp_path):
    ucd = require_data("17.0.0", "ucd", "PropList.txt").parent
    out = tmp_path / "_tables.py"
    subprocess.run(
        [sys.executable, str(REPO / "tools" / "generate_tables.py"), "--ucd-dir", str(ucd), "--output", str(out)],
        check=True,
    )
    committed = (REPO / "uts58_adapt" / "_tables.py").read_bytes()
    assert out.read_bytes() == committed, "uts58_adapt/_tables.py is stale or hand-edited; regenerate it"
    assert b"Unicode 17.0.0" in committed.splitlines()[1]


def _flag_patterns():
    """Every FlagPattern of the refine modules, and §3.5.1's fast-path runs in their two forms."""
    from uts58_adapt.properties import FlagPattern
    from uts58_adapt.refine import hosts, migration, termination

    found = [
        (f"{module.__name__}.{name}", value.get("a"), value.get("é"))
        for module in (hosts, migration)
        for name, value in vars(module).items()
        if isinstance(value, FlagPattern)
    ]
    assert len(found) >= 5, found  # the host run and character, the userinfo end, the safe and local runs
    for part in (termination.PATH, termination.QUERY, termination.FRAGMENT, termination.DIRECTIVE):
        for stack_empty in (True, False):
            ascii_form = termination._skip_plain_run(part, stack_empty, True).__self__
            full_form = termination._skip_plain_run(part, stack_empty, False).__self__
            found.append((f"_skip_plain_run({part}, {stack_empty})", ascii_form, full_form))
    return found


# Short ASCII strings that reach every class edge: all pairs of the characters below,
# then every ASCII character at the start, end and middle of a longer run.
_SAMPLES = [a + b for a in "aZ09-._~!$&'()*+,;=:/?#[]@%\"<>\\^`{|} \t\n" for b in "aZ0.-/?#@)!' "]
_SAMPLES += [chr(c) + "ab.c/d" + chr(c) + "e" + chr(c) for c in range(0x80)]


@pytest.mark.parametrize(
    ("name", "ascii_form", "full_form"), _flag_patterns(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_ascii_form_matches_as_the_full_form_on_ascii_text(name, ascii_form, full_form):
    """The ASCII form of a FlagPattern (classes cut to ASCII) is used for ASCII text: there it
    must find what the full form finds, at every start (match) and as a search."""
    assert ascii_form is not full_form
    assert len(ascii_form.pattern) < len(full_form.pattern)
    for text in _SAMPLES:
        for pos in range(len(text)):
            a, f = ascii_form.match(text, pos), full_form.match(text, pos)
            assert (a and (a.span(), a.groups())) == (f and (f.span(), f.groups())), (name, text, pos)
        a, f = ascii_form.search(text), full_form.search(text)
        assert (a and a.span()) == (f and f.span()), (name, text)
