"""The benchmark's family of dense corpora (benchmarks/corpus_dense.py, issue 36.2) and the
worst-point summary of benchmarks/bench.py.

No timing here (performance lives in benchmarks/bench.py): these check that each point of
the family is the text its parameters say, counted by ``detect()`` and by patterns written
here, not by the generator's own counts, and that the default point is, text for text, the
corpus every earlier figure was measured on.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest

from uts58_adapt import detect

from conftest import REPO, load_module

corpus_dense = load_module("corpus_dense", REPO / "benchmarks" / "corpus_dense.py")
POINTS = corpus_dense.POINTS
SIZE = 20_000


def links(point: str, seed: int = 7) -> tuple[str, list[Any]]:
    """The point's text and its links, found by detect() paragraph by paragraph."""
    text = corpus_dense.dense_text(SIZE, seed, POINTS[point])
    return text, [link for para in text.split("\n\n") for link in detect(para)]


def after_links(point: str) -> list[str]:
    """The character after each link detect() finds (a newline at the end of a paragraph)."""
    text = corpus_dense.dense_text(SIZE, 7, POINTS[point])
    return [(para + "\n")[link.end] for para in text.split("\n\n") for link in detect(para)]


def test_default_point_is_the_corpus_of_issue_20() -> None:
    """Mix() gives the corpus the figures before issue 36 were measured on: the digests were
    taken from corpus_dense.py before it took parameters (commit d8daa8f)."""
    for size, seed, digest in (
        (150_000, 58, "e6fe634956a79bce"),
        (40_000, 58, "b9065f492183a19c"),
        (30_000, 7, "337199c0e5e66061"),
    ):
        text = "\n".join(corpus_dense.dense_lines(size, seed)[0])
        assert hashlib.sha256(text.encode()).hexdigest()[:16] == digest, (size, seed)
        assert corpus_dense.dense_text(size, seed, corpus_dense.Mix()) == text


def test_at_least_five_points() -> None:
    assert len(POINTS) >= 5
    assert POINTS["default"] == corpus_dense.Mix()


def test_seeds_give_other_text() -> None:
    """Each point is read on unseen text: another seed, another text (and other hosts)."""
    assert corpus_dense.dense_text(5_000, 1) != corpus_dense.dense_text(5_000, 2)


@pytest.mark.parametrize("point", list(POINTS))
def test_point_has_links(point: str) -> None:
    text, found = links(point)
    assert len(text) >= SIZE
    assert len(found) > len(text) / 1000


def _per_100(point: str) -> float:
    text, found = links(point)
    return 100 * len(found) / len(text)


def test_links_per_100_characters() -> None:
    """The very dense point has about three times the links per character of the default one,
    the sparse point about a quarter (detect() counts them)."""
    default = _per_100("default")
    assert _per_100("very-dense") > 2.2 * default
    assert _per_100("sparse") < 0.45 * default


def _share(point: str, kind: str) -> float:
    _text, found = links(point)
    return sum(link.kind == kind for link in found) / len(found)


def test_email_share() -> None:
    assert _share("email-heavy", "email") > _share("default", "email") + 0.15


_SCHEME = re.compile(r"https?://")


def test_scheme_share() -> None:
    def share(point: str) -> float:
        _text, found = links(point)
        urls = [link.text for link in found if link.kind == "url"]
        return sum(bool(_SCHEME.match(u)) for u in urls) / len(urls)

    assert share("scheme-idn") > share("email-heavy") + 0.1


_HOST = re.compile(r"(?:[a-z]+://)?([^/?#]+)")


def _non_ascii_hosts(point: str) -> float:
    """The share of URLs (Wikipedia's left out: their host is ASCII whatever the mix) whose
    host is not ASCII."""
    _text, found = links(point)
    hosts = [_HOST.match(link.text).group(1) for link in found if link.kind == "url"]  # type: ignore[union-attr]
    hosts = [h for h in hosts if not h.endswith("wikipedia.org")]
    return sum(not h.isascii() for h in hosts) / len(hosts)


def test_idn_share() -> None:
    assert _non_ascii_hosts("cjk-arabic") > _non_ascii_hosts("default") + 0.1
    assert _non_ascii_hosts("sparse") < _non_ascii_hosts("default")


_CJK_ARABIC = re.compile(r"[\u0600-\u06ff\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3]")


def test_script_mix() -> None:
    def share(point: str) -> float:
        text = corpus_dense.dense_text(SIZE, 7, POINTS[point])
        return len(_CJK_ARABIC.findall(text)) / len(text)

    assert share("cjk-arabic") > 2 * share("default")
    assert share("sparse") < 0.05  # the Latin mix


def test_closers() -> None:
    """Links written against a closer: the share of links followed by a bracket, a quote or
    punctuation rather than a space, in the text the generator wrote."""

    def share(point: str) -> float:
        after = after_links(point)
        return sum(ch not in " \n" for ch in after) / len(after)

    assert share("cjk-arabic") > share("default") + 0.1


def test_summary_names_the_worst_point(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_module("bench", REPO / "benchmarks" / "bench.py")
    report = bench.Report()
    for corpus, ratio in (("debian", 0.5), ("dense/sparse", 0.9), ("dense/very-dense", 1.2), ("dense/default", 0.8)):
        report.corpus = corpus
        report.ratio("row", ratio, 1.0, 1.0)
        report.ratio("info", ratio * 2, 1.0, None)
    assert [(label, corpus, ratio) for label, corpus, ratio, _t, _n in report.worst()] == [
        ("row", "dense/very-dense", 1.2),
        ("info", "dense/very-dense", 2.4),
    ]
    report.summary()
    out = capsys.readouterr().out
    assert re.search(r"\brow\s+dense/very-dense\s+1\.200x\s+<= 1x\s+NO", out), out
    assert report.failed == ["[dense/very-dense] row"]


def test_refinement_path_without_an_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = load_module("bench", REPO / "benchmarks" / "bench.py")
    import uts58_adapt

    monkeypatch.delenv("UTS58_ADAPT_PURE", raising=False)
    if getattr(uts58_adapt, "compiled", None) is None:
        assert bench.refinement_path().startswith("pure Python")
    monkeypatch.setattr(uts58_adapt, "compiled", False, raising=False)
    monkeypatch.setenv("UTS58_ADAPT_PURE", "1")
    assert bench.refinement_path() == "pure Python (UTS58_ADAPT_PURE=1)"
    monkeypatch.setattr(uts58_adapt, "compiled", "uts58_adapt._refine_c", raising=False)
    assert "compiled" in bench.refinement_path()


def test_forget_empties_the_wrappers_answers() -> None:
    """bench.py times text the process has not read before (issue 36): ``forget()`` empties every
    answer a wrapper keeps about the hosts of the text it read (the linkify-it wrapper's scheme
    probes were kept across rounds, so a repeated round timed them as memo hits)."""
    from linkify_it import LinkifyIt
    from urlextract import URLExtract

    from uts58_adapt import wrap, wrapping

    bench = load_module("bench", REPO / "benchmarks" / "bench.py")
    linkify, extract = wrap(LinkifyIt()), wrap(URLExtract())
    text = "see http://пример.рф/a and https://bücher.de/x, mail σ@example.com"
    assert linkify.match(text)
    extract.find_urls(text)
    # (a probe asked of the instance: one linkify-it's own match in the text does not answer)
    assert linkify._accepts_scheme("http:", "http://xn--e1afmkfd.xn--p1ai/")
    assert any(answers for _, answers in wrapping._SCHEME_ANSWERS.values())
    bench.forget()
    assert not any(answers for _, answers in wrapping._SCHEME_ANSWERS.values())
    assert not any(any(kept) for _, kept in wrapping._PROBE_ANSWERS.values())
