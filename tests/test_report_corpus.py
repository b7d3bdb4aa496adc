"""The bundled sample corpus: many scripts, every rule, small, and our own."""

from __future__ import annotations

import unicodedata
from importlib import resources

import pytest

from uts58_adapt.report import merge
from uts58_adapt.report.runner import iter_tasks, map_local, sample_inputs

from conftest import CLOSE_MARK, OPEN_MARK, _find_data_dir


def sample_lines() -> list[str]:
    text = (resources.files("uts58_adapt") / "corpora" / "sample.txt").read_text(encoding="utf-8")
    return text.splitlines()


def test_sample_is_listed_and_small() -> None:
    names = [name for name, _ in sample_inputs()]
    assert "corpora/sample.txt" in names
    lines = sample_lines()
    assert 20 <= len(lines) <= 100
    assert all(line.strip() for line in lines)


# Script of a letter, from the first word(s) of its character name.
SCRIPTS = {
    "LATIN": "Latin",
    "GREEK": "Greek",
    "CYRILLIC": "Cyrillic",
    "ARMENIAN": "Armenian",
    "GEORGIAN": "Georgian",
    "HEBREW": "Hebrew",
    "ARABIC": "Arabic",
    "DEVANAGARI": "Devanagari",
    "BENGALI": "Bengali",
    "TAMIL": "Tamil",
    "THAI": "Thai",
    "LAO": "Lao",
    "TIBETAN": "Tibetan",
    "MYANMAR": "Myanmar",
    "KHMER": "Khmer",
    "ETHIOPIC": "Ethiopic",
    "CJK": "Han",
    "HIRAGANA": "Hiragana",
    "KATAKANA": "Katakana",
    "HANGUL": "Hangul",
    "SINHALA": "Sinhala",
}


def test_sample_covers_twenty_scripts() -> None:
    found = set()
    for ch in "".join(sample_lines()):
        if ch.isascii() or not unicodedata.category(ch).startswith("L"):
            continue
        first = unicodedata.name(ch, "").split(" ")[0]
        if first in SCRIPTS:
            found.add(SCRIPTS[first])
    # Latin with diacritics counts as Latin (its letters are outside ASCII).
    assert set(SCRIPTS.values()) <= found, set(SCRIPTS.values()) - found
    assert len(found) >= 20


@pytest.mark.parametrize(
    "needle",
    [
        "。",
        "،",
        "।",
        "#:~:text=",
        "&amp;",
        "…",
        "mailto:",
        "MAILTO:",
        "(planet/moon)",
        "(=open)",
        "(name&x=1)",
        ":~:text=(start,end)",
        "ŉ",
        "\ue000",
        "http://-foo.example-.com",
        "foo..example.com",
        "anonymous:guest@",
        "σωκράτης@",
        "用户@例子.中国",
        "john..doe@",
        ".anna@",
        "anna.@",
        "(" * 126,
    ],
)
def test_sample_exercises(needle: str) -> None:
    assert any(needle in line for line in sample_lines())


def test_sample_is_not_the_official_test_file() -> None:
    base = _find_data_dir()
    if base is None:
        pytest.skip("official data not available")
    official = base / "17.0.0" / "linkification" / "LinkDetectionTest.txt"
    theirs = {
        line.replace(OPEN_MARK, "").replace(CLOSE_MARK, "").strip()
        for line in official.read_text(encoding="utf-8").splitlines()
    }
    assert not theirs & {line.strip() for line in sample_lines()}


def test_sample_triggers_every_common_reason() -> None:
    reasons: set[str] = set()
    for backend in ("linkify-it", "urlextract"):
        problems: list[str] = []
        report = merge(map_local(iter_tasks(sample_inputs(), backend, problems=problems)), backend=backend)
        assert not problems
        reasons |= set(report["summary"]["by_reason"])
    expected = {
        "soft-trailing",
        "soft-inside",
        "part-initiator",
        "include-char",
        "bracket-kept",
        "unmatched-close",
        "bracket-across-separator",
        "fragment-directive",
        "hard-char",
        "bracket-limit",
        # "host-end": the sample's case was a port above 65535, now "invalid-port" (issue 21.6);
        # tests/test_report_core.py classifies host-end.
        "host-start",
        "missed-url",
        "invalid-host",
        "invalid-port",
        "userinfo",
        "inside-email",
        "email-local-part",
        "missed-email",
        "mailto",
    }
    assert expected <= reasons, expected - reasons
    assert "other" not in reasons
