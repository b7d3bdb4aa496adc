"""``detect_pair``: one backend pass gives exactly what two ``detect`` calls give, so the audit is unchanged."""

from __future__ import annotations

import random
from importlib import resources

import pytest

from uts58_adapt.detection import detect
from uts58_adapt.report import core, merge, render
from uts58_adapt.report.core import detect_pair
from uts58_adapt.report.runner import iter_tasks, map_local

from conftest import detection_cases

BACKENDS = ["linkify-it", "urlextract"]


def _sample_lines() -> list[str]:
    return (resources.files("uts58_adapt") / "corpora" / "sample.txt").read_text(encoding="utf-8").splitlines()


def _official_lines() -> list[str]:
    return [line for _, line in detection_cases()]


def _generated_lines(n: int = 300) -> list[str]:
    rng = random.Random(58)
    parts = [
        "see",
        "https://example.com/a_(b)",
        "www.example.org.",
        "x@y.org",
        "(http://a.b/c)",
        "deΩ.uk",
        "example.com!",
        "普遍适用测试。我爱你",
        "mailto:a@b.c",
        "a.com,b.com",
        "user@host.com/path",
        "http://[::1]/",
        "é",
        "¿",
        "»",
        "https://例子.测试/路径?q=1#f",
        ":~:text=a",
        "ftp://x.y/z?",
        "\u00a0",
        "\u200b",
        "…",
        "foo.bar.baz",
    ]
    return [" ".join(rng.choice(parts) for _ in range(rng.randint(0, 12))) for _ in range(n)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("lines", [_sample_lines, _official_lines, _generated_lines], ids=["sample", "official", "gen"])
def test_pair_equals_two_detect_calls(backend: str, lines) -> None:
    texts = lines()
    if not texts:
        pytest.skip("LinkDetectionTest.txt not available (UTS58_DATA_DIR)")
    for text in texts:
        assert detect_pair(text, backend) == (
            detect(text, backend, refine=False),
            detect(text, backend, refine=True),
        ), text


def test_pair_max_length_and_empty() -> None:
    text = "see https://example.com/" + "a" * 50 + " and www.example.org"
    assert detect_pair(text, "linkify-it", max_length=30) == (
        detect(text, "linkify-it", refine=False, max_length=30),
        detect(text, "linkify-it", refine=True, max_length=30),
    )
    assert detect_pair("", "urlextract") == ([], [])
    with pytest.raises(TypeError):
        detect_pair(b"x", "linkify-it")  # type: ignore[arg-type]
    # The checks of detect(), on the fast path (three type() tests) and off it.
    for bad in ({"max_length": True}, {"max_length": 1.5}):
        with pytest.raises(TypeError, match="max_length"):
            detect_pair("x", "linkify-it", **bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="backend"):
        detect_pair("x", 3)  # type: ignore[arg-type]
    assert detect_pair("see example.com", "linkify-it", max_length=None) == (
        detect("see example.com", "linkify-it", refine=False, max_length=None),
        detect("see example.com", "linkify-it", refine=True, max_length=None),
    )
    with pytest.raises(ValueError, match="linkify-it"):
        detect_pair("x", "no-such-backend")


@pytest.mark.parametrize("backend", BACKENDS)
def test_report_same_with_two_passes(backend: str, tmp_path, monkeypatch) -> None:
    """The shared-pass audit writes the same JSON as the audit that calls detect twice per line."""
    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(_sample_lines() + _official_lines() + _generated_lines()) + "\n", encoding="utf-8")

    def run() -> bytes:
        problems: list[str] = []
        tasks = iter_tasks([("c.txt", str(corpus))], backend, problems=problems, chunk_lines=97)
        return render(merge(map_local(tasks, 1), backend=backend), "json").encode("utf-8")

    shared = run()
    calls: list[bool] = []

    def two_passes(text: str, b: str, refine: bool = True, **kw: object) -> list:
        calls.append(refine)
        return detect(text, b, refine=refine)

    monkeypatch.setattr(core, "get_detect", lambda: two_passes)
    assert run() == shared
    assert calls.count(False) == calls.count(True) > 100
