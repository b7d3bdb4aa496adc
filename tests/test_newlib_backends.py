"""The backends of the libraries added in issue 10: bleach, django, jinja2, mistune, magiclink.

On LinkDetectionTest.txt every link a backend reports after refinement is exactly an
expected link; bleach (full ICANN TLD list) gets every line right.  The recall figures
are the ones README gives.
"""

from __future__ import annotations

import pytest

from uts58_adapt.backends import BACKENDS, get_backend
from uts58_adapt.backends.base import RawLink
from uts58_adapt.detection import detect

from conftest import CLOSE_MARK, OPEN_MARK, detection_cases

NEW = ("bleach", "django", "jinja2", "mistune", "magiclink")
CASES = detection_cases()
#: Links found (of 323 expected in 344 lines), as README's recall table gives them.
RECALL = {"bleach": 323, "django": 278, "jinja2": 277, "mistune": 217, "magiclink": 232}


def _expected(line: str) -> tuple[str, set[tuple[int, int]]]:
    spans, text, start = set(), [], 0
    for ch in line:
        if ch == OPEN_MARK:
            start = len(text)
        elif ch == CLOSE_MARK:
            spans.add((start, len(text)))
        else:
            text.append(ch)
    return "".join(text), spans


def _links(text: str, backend: str) -> list[tuple[str, str]]:
    return [(link.text, link.kind) for link in detect(text, backend)]


@pytest.mark.parametrize("backend", NEW)
def test_every_reported_link_is_expected(backend: str, detection_test_file: object) -> None:
    found = 0
    wrong = []
    for n, line in CASES:
        text, expected = _expected(line)
        got = {(link.start, link.end) for link in detect(text, backend)}
        found += len(got & expected)
        if got - expected:
            wrong.append(f"line {n}: {line}")
    assert not wrong, "\n".join(wrong)
    assert found == RECALL[backend]


def test_bleach_gets_every_line(detection_test_file: object) -> None:
    bad = []
    for n, line in CASES:
        text, expected = _expected(line)
        if {(link.start, link.end) for link in detect(text, "bleach")} != expected:
            bad.append(n)
    assert len(CASES) == 344
    assert bad == []


def test_registered() -> None:
    for name in NEW:
        assert name in BACKENDS
        assert get_backend(name).name == name


@pytest.mark.parametrize("backend", NEW)
def test_acceptance_url(backend: str) -> None:
    assert _links("see https://example.com/αβ(γ/δ)ρς.", backend) == [("https://example.com/αβ(γ/δ", "url")]


@pytest.mark.parametrize("backend", NEW)
def test_apostrophe_in_path_kept(backend: str) -> None:
    assert _links("read https://example.com/it's-here now", backend) == [("https://example.com/it's-here", "url")]


@pytest.mark.parametrize("backend", ["bleach", "django", "jinja2", "magiclink"])
def test_non_ascii_email(backend: str) -> None:
    assert _links("write to σωκράτης@example.com.", backend) == [("σωκράτης@example.com", "email")]


def test_mistune_links_no_email() -> None:
    assert _links("write to σωκράτης@example.com or jane@example.com", "mistune") == []


def test_raw_spans_are_the_librarys() -> None:
    # The libraries' own views (before refinement) differ, as each library decides.
    text = "(see http://example.com/a_(b)), www.example.org. foo.accountants x@example.com"
    raw = {name: [text[r.start : r.end] for r in get_backend(name).find(text)] for name in NEW}
    # bleach keeps a ")" once the link has a "(" (one of the bugs UTS #58 refinement fixes).
    assert raw["bleach"] == ["http://example.com/a_(b))", "www.example.org", "foo.accountants", "x@example.com"]
    assert raw["django"] == ["http://example.com/a_(b)", "www.example.org", "x@example.com"]
    assert raw["jinja2"] == ["http://example.com/a_(b)", "www.example.org", "x@example.com"]
    assert raw["mistune"] == ["http://example.com/a_(b"]  # its pattern never ends on ")"
    assert next(link.text for link in detect(text, "bleach")) == "http://example.com/a_(b)"
    assert raw["magiclink"] == ["http://example.com/a_(b)", "www.example.org", "x@example.com"]


def test_html_span_recovery_with_entities() -> None:
    from uts58_adapt.backends._html_spans import anchor_spans

    text = 'a <b> & "x" http://e.com/?a=1&b=2 z'
    rendered = 'a &lt;b&gt; &amp; &quot;x&quot; <a href="http://e.com/?a=1&amp;b=2">http://e.com/?a=1&amp;b=2</a> z'
    assert anchor_spans(text, rendered) == [RawLink(12, 33, "url")]
    # A shortened display text is looked up in the input.
    assert anchor_spans("x http://e.com/abcdef", '<a href="http://e.com/abcdef">http://e.com/a…</a>') == []
    assert anchor_spans("mail a@b.org", 'mail <a href="mailto:a@b.org">a@b.org</a>') == [RawLink(5, 12, "email")]


@pytest.mark.parametrize("backend", NEW)
def test_cli_detect_and_report(backend: str, tmp_path, capsys) -> None:
    from uts58_adapt.cli import main

    src = tmp_path / "in.txt"
    src.write_text("see https://example.com/αβ(γ/δ)ρς.\n", encoding="utf-8")
    assert main(["detect", str(src), "--backend", backend, "--format", "marked"]) == 0
    assert "⸠https://example.com/αβ(γ/δ⸡)ρς." in capsys.readouterr().out
    out = tmp_path / "r.json"
    assert main(["report", str(src), "--backend", backend, "--format", "json", "--quiet", "-o", str(out)]) == 0
    assert f'"backend": "{backend}"' in out.read_text(encoding="utf-8")


def test_bleach_is_given_bounded_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    """bleach's regexes are quadratic on a run without white space: it never sees more than a window."""
    from uts58_adapt.backends import bleach as bleach_backend

    seen: list[int] = []
    real = bleach_backend.bleach_spans

    def spy(linkify_filter: object, text: str, parse_email: bool) -> list[RawLink]:
        seen.append(len(text))
        return real(linkify_filter, text, parse_email)

    monkeypatch.setattr(bleach_backend, "bleach_spans", spy)
    text = "a" * 5000 + " see https://example.com/αβ(γ/δ)ρς. " + "b." * 3000
    assert _links(text, "bleach") == [("https://example.com/αβ(γ/δ", "url")]
    assert max(seen) <= 1024 and sum(seen) < 2 * len(text)


@pytest.mark.parametrize("backend", ["django", "jinja2"])
def test_lone_surrogates(backend: str) -> None:
    # Django's urlize raises on a lone surrogate; the backends hand it U+FFFD instead (a Hard character either way)
    assert _links("a\ud800 see example.com/a\ud800x", backend) == [("example.com/a", "url")]
