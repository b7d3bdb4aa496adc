"""The audit's building blocks: classification, pairing, chunks and merging.

Everything here runs on hand-made links or a stub ``detect``, so the expected values
do not depend on what the backends or the refinement happen to do today.
"""

from __future__ import annotations

import pickle
from collections import Counter

import pytest

from uts58_adapt.link import Link
from uts58_adapt.report import core
from uts58_adapt.report.classify import KINDS, REASONS, classify, explain_end
from uts58_adapt.report.core import ChunkResult, ChunkTask, audit_chunk, merge, pair_links

from conftest import detection_cases, plain_text, sample_lines


def url(line: str, start: int, end: int, original: tuple[int, int] | str | None = "self") -> Link:
    """A URL link on ``line``; ``original`` defaults to its own span (a backend link)."""
    orig = (start, end) if original == "self" else original
    return Link(start, end, line[start:end], "url", "https://" + line[start:end], orig)


def email(line: str, start: int, end: int, original: tuple[int, int] | str | None = "self") -> Link:
    orig = (start, end) if original == "self" else original
    return Link(start, end, line[start:end], "email", "mailto:" + line[start:end], orig)


def span(line: str, text: str) -> tuple[int, int]:
    i = line.index(text)
    return i, i + len(text)


# --- classify: URL end changes ------------------------------------------------------------


@pytest.mark.parametrize(
    "line, before_text, after_text, reason",
    [
        # Trailing Soft runs, in several scripts.
        ("Voir exemple.fr/été. Merci", "exemple.fr/été.", "exemple.fr/été", "soft-trailing"),
        ("देखें example.in/पृष्ठ। धन्यवाद", "example.in/पृष्ठ।", "example.in/पृष्ठ", "soft-trailing"),
        ("انظر example.com/صفحة، ثم", "example.com/صفحة،", "example.com/صفحة", "soft-trailing"),
        ("见 example.cn/页。", "example.cn/页。", "example.cn/页", "soft-trailing"),
        ("wow example.com/x?!?! ok", "example.com/x?!?!", "example.com/x?", "soft-trailing"),
        # A Close with no Open at all.
        ("(see example.com/a) ok", "example.com/a)", "example.com/a", "unmatched-close"),
        ("x example.com/a(b]c) ok", "example.com/a(b]c)", "example.com/a(b", "unmatched-close"),
        # Soft run, then an unmatched Close: the Close decides.
        ("(see example.com/a.) ok", "example.com/a.)", "example.com/a", "unmatched-close"),
        # The Open is before a separator that empties the stack: / in a path, = and & in a query.
        ("x example.com/αβ(γ/δ)ρς ok", "example.com/αβ(γ/δ)ρς", "example.com/αβ(γ/δ", "bracket-across-separator"),
        ("x example.com/p?a(=)b ok", "example.com/p?a(=)b", "example.com/p?a(=", "bracket-across-separator"),
        (
            "x example.com/p?a=(1&b=2) ok",
            "example.com/p?a=(1&b=2)",
            "example.com/p?a=(1&b=2",
            "bracket-across-separator",
        ),
        # ... or a new part: the path's ( does not match the query's ).
        ("x example.com/a(b?c) ok", "example.com/a(b?c)", "example.com/a(b?c", "bracket-across-separator"),
        # Fragment directive: , empties the stack inside a directive, and :~: starts one.
        (
            "x example.com/#:~:text=(a,b) ok",
            "example.com/#:~:text=(a,b)",
            "example.com/#:~:text=(a,b",
            "fragment-directive",
        ),
        (
            "x example.com/#f(g:~:text=h) ok",
            "example.com/#f(g:~:text=h)",
            "example.com/#f(g:~:text=h",
            "fragment-directive",
        ),
        # Hard characters a backend may take in: deprecated ŉ, private use, NBSP.
        ("x example.com/a/ŉ-b ok", "example.com/a/ŉ-b", "example.com/a/", "hard-char"),
        ("x example.com/a/\ue000b ok", "example.com/a/\ue000b", "example.com/a/", "hard-char"),
        ("x example.com/a\u00a0b ok", "example.com/a\u00a0b", "example.com/a", "hard-char"),
        # 126 open brackets: the 126th ends the link.
        (
            "x example.com/" + "(" * 126 + "z",
            "example.com/" + "(" * 126 + "z",
            "example.com/" + "(" * 125,
            "bracket-limit",
        ),
        # A port the host stage refuses: the link ends after the host.
        ("x http://example.com:99999/p ok", "http://example.com:99999/p", "http://example.com", "host-end"),
    ],
)
def test_trimmed_reasons(line: str, before_text: str, after_text: str, reason: str) -> None:
    b = url(line, *span(line, before_text))
    a = url(line, b.start, b.start + len(after_text), original=(b.start, b.end))
    assert a.text == after_text
    assert classify(line, b, a) == ("trimmed", reason)


@pytest.mark.parametrize(
    "line, before_text, after_text, reason",
    [
        ("x example.com/a!b ok", "example.com/a", "example.com/a!b", "soft-inside"),
        ("x example.vn/chủ-đề? ok", "example.vn/chủ-đề", "example.vn/chủ-đề?", "part-initiator"),
        ("x example.com/?a=1&amp;b=2 ok", "example.com/?a=1&amp", "example.com/?a=1&amp;b=2", "soft-inside"),
        ("x example.com/a|b ok", "example.com/a", "example.com/a|b", "include-char"),
        ("x example.com/a<b>c ok", "example.com/a", "example.com/a<b>c", "bracket-kept"),
        ("x example.com/A_(B_(C))_(D) ok", "example.com/A_(B_(C)", "example.com/A_(B_(C))_(D)", "bracket-kept"),
        ("x example.com/#:~:text=a ok", "example.com/#", "example.com/#:~:text=a", "fragment-directive"),
        ("x example.com/#:~: ok", "example.com/#:~", "example.com/#:~:", "fragment-directive"),
    ],
)
def test_extended_reasons(line: str, before_text: str, after_text: str, reason: str) -> None:
    b = url(line, *span(line, before_text))
    a = url(line, b.start, b.start + len(after_text), original=(b.start, b.end))
    assert a.text == after_text
    assert classify(line, b, a) == ("extended", reason)


def test_unchanged_has_no_reason() -> None:
    line = "x example.com/a ok"
    b = url(line, 2, 15)
    assert classify(line, b, b) == ("unchanged", None)


# --- classify: whole links and emails -------------------------------------------------------


@pytest.mark.parametrize(
    "line, text, kind, reason",
    [
        ("x http://ana@example.com/p ok", "http://ana@example.com/p", "url", "userinfo"),
        ("x ftp://anon:guest@files.example.com/ ok", "ftp://anon:guest@files.example.com/", "url", "userinfo"),
        ("x http://foo..example.com/y ok", "http://foo..example.com/y", "url", "invalid-host"),
        ("x http://-foo.example-.com/y ok", "http://-foo.example-.com/y", "url", "invalid-host"),
        ("x john..doe@example.com ok", "john..doe@example.com", "email", "email-local-part"),
        ("x anna.@example.com ok", "anna.@example.com", "email", "email-local-part"),
        # A backend that skipped the leading dot: the local part still starts with one.
        ("x .anna@example.com ok", "anna@example.com", "email", "email-local-part"),
        # A valid link removed for no reason the classifier knows.
        ("x example.com/a ok", "example.com/a", "url", "other"),
        # The host stage reads the host from before the backend's start (urlextract, Debian docs).
        ("(@aminabedi68)-www.fontamin.com", "www.fontamin.com", "url", "invalid-host"),
        # urlextract's TLD hit inside an email's domain, with emails off (no email linked instead).
        ("schreib an anna@bücher.de oder", "cher.de", "url", "inside-email"),
    ],
)
def test_removed_reasons(line: str, text: str, kind: str, reason: str) -> None:
    make = url if kind == "url" else email
    b = make(line, *span(line, text))
    assert classify(line, b, None) == ("removed", reason)


def test_removed_inside_email() -> None:
    line = "x anna@bücher.de ok"
    b = url(line, *span(line, "cher.de"))
    a = email(line, *span(line, "anna@bücher.de"), original=None)
    assert classify(line, b, None, [a]) == ("removed", "inside-email")


def test_added_and_start_moved_reasons() -> None:
    line = "x σωκράτης@example.gr and mailto:josé@example.es and BÜCHER.example.de/a ok"
    assert classify(line, None, email(line, *span(line, "σωκράτης@example.gr"), None)) == ("added", "missed-email")
    assert classify(line, None, url(line, *span(line, "BÜCHER.example.de/a"), None)) == ("added", "missed-url")
    # The backend started inside the local part / host.
    b = email(line, *span(line, "é@example.es"))
    a = email(line, *span(line, "mailto:josé@example.es"), original=(b.start, b.end))
    assert classify(line, b, a) == ("start-moved", "mailto")
    b = email(line, *span(line, "ράτης@example.gr"))
    a = email(line, *span(line, "σωκράτης@example.gr"), original=(b.start, b.end))
    assert classify(line, b, a) == ("start-moved", "email-local-part")
    b = url(line, *span(line, "CHER.example.de/a"))
    a = url(line, *span(line, "BÜCHER.example.de/a"), original=(b.start, b.end))
    assert classify(line, b, a) == ("start-moved", "host-start")


def test_email_end_change() -> None:
    line = "x anna@example.com:8080/inbox ok"
    b = email(line, *span(line, "anna@example.com:8080/inbox"))
    a = email(line, *span(line, "anna@example.com"), original=(b.start, b.end))
    assert classify(line, b, a) == ("trimmed", "email-domain")


def test_vocabularies_are_closed_and_documented() -> None:
    assert list(KINDS) == ["unchanged", "extended", "trimmed", "start-moved", "added", "removed"]
    assert "other" in REASONS and all(REASONS.values())
    assert len(REASONS) <= 25  # a small vocabulary


def test_explain_end_causes() -> None:
    # (text, start right after the host, expected end, expected cause)
    assert explain_end("a.com/x. y", 5) == (7, "hard", 8)
    assert explain_end("a.com/x.", 5) == (7, "end", 8)
    assert explain_end("a.com:x", 5) == (5, "no-part", 5)
    assert explain_end("a.com/(x/y)", 5) == (10, "across-separator", 10)
    assert explain_end("a.com/x)", 5) == (7, "unmatched-close", 7)
    assert explain_end("a.com/#:~:t=(a,b)", 5) == (16, "directive-separator", 16)


# --- pairing -------------------------------------------------------------------------------


def test_pair_links_by_original_then_overlap() -> None:
    line = "a example.com/x。 b example.org/y) c z@example.net d"
    b1 = url(line, *span(line, "example.com/x。"))
    b2 = url(line, *span(line, "example.org/y)"))
    b3 = url(line, *span(line, "example.net"))
    # a1: original differs from every backend span (the backend ran on normalised text).
    a1 = url(line, *span(line, "example.com/x"), original=(2, 15))
    a2 = url(line, *span(line, "example.org/y"), original=(b2.start, b2.end))
    a3 = email(line, *span(line, "z@example.net"), original=None)
    pairs = pair_links([b1, b2, b3], [a1, a2, a3])
    assert pairs == [(b1, a1), (b2, a2), (None, a3), (b3, None)]


def test_pair_links_prefers_same_start() -> None:
    line = "xx example.com/abc yy"
    b_inner = url(line, 5, 14)
    b_same = url(line, 3, 10)
    a = url(line, 3, 18, original=None)
    assert pair_links([b_same, b_inner], [a]) == [(b_same, a), (b_inner, None)]


# --- chunks and merge -------------------------------------------------------------------------


def fake_detect(text: str, backend: str = "fake", refine: bool = True, *, max_length: int | None = 4096) -> list[Link]:
    """A stand-in for ``detect``: the "backend" links ``example.com/…`` up to a space, keeping
    a trailing ``.``; refinement drops the ``.`` and removes links to ``bad.com``."""
    links = []
    pos = text.find("example.com/")
    while pos != -1:
        end = text.find(" ", pos)
        end = len(text) if end == -1 else end
        links.append(url(text, pos, end))
        pos = text.find("example.com/", end)
    pos = text.find("bad.com")
    if pos != -1:
        links.append(url(text, pos, pos + 7))
    links.sort(key=lambda k: k.start)
    if not refine:
        return links
    out = []
    for link in links:
        if link.text == "bad.com":
            continue
        end = link.end
        while text[end - 1] == ".":
            end -= 1
        out.append(url(text, link.start, end, original=(link.start, link.end)))
    return out


LINES = [
    "see example.com/a. and example.com/b here",
    "nothing here",
    "bad.com and example.com/c.",
    "",
    "example.com/d... end",
]


@pytest.fixture
def stub_detect(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "get_detect", lambda: fake_detect)


def test_audit_chunk_counts_and_changes(stub_detect: None) -> None:
    result = audit_chunk(ChunkTask("doc.txt", 10, LINES, "fake"))
    assert (result.lines, result.links_before, result.links_after, result.unchanged) == (5, 5, 4, 1)
    got = [(c.line, c.column, c.before, c.after, c.kind, c.reason) for c in result.changes]
    assert got == [
        (10, 5, (4, 18), (4, 17), "trimmed", "soft-trailing"),
        (12, 1, (0, 7), None, "removed", "other"),
        (12, 13, (12, 26), (12, 25), "trimmed", "soft-trailing"),
        (14, 1, (0, 16), (0, 13), "trimmed", "soft-trailing"),
    ]
    assert result.changes[0].before_text == "example.com/a."
    assert result.changes[0].after_text == "example.com/a"
    assert result.changes[0].line_text == LINES[0]


def test_merge_is_independent_of_chunking_and_order(stub_detect: None) -> None:
    whole = merge([audit_chunk(ChunkTask("doc.txt", 1, LINES, "fake"))])
    parts = [audit_chunk(ChunkTask("doc.txt", 1 + k, LINES[k : k + 2], "fake")) for k in range(0, len(LINES), 2)]
    assert merge(parts) == whole
    assert merge(reversed(parts)) == whole
    s = whole["summary"]
    assert s == {
        "documents": 1,
        "lines": 5,
        "links_before": 5,
        "links_after": 4,
        "unchanged": 1,
        "changed": 4,
        "by_kind": {"trimmed": 3, "removed": 1},
        "by_reason": {"soft-trailing": 3, "other": 1},
    }
    assert whole["backend"] == "fake"
    assert whole["unicode_version"] == "17.0.0"
    first = whole["changes"][0]
    assert list(first) == [
        "source",
        "line",
        "column",
        "before",
        "after",
        "before_text",
        "after_text",
        "before_href",
        "after_href",
        "kind",
        "reason",
        "line_text",
    ]
    assert first["before_href"] == "https://example.com/a." and first["after_href"] == "https://example.com/a"
    assert first["before"] == [4, 18] and first["after"] == [4, 17]


def test_merge_sorts_sources_and_counts_documents(stub_detect: None) -> None:
    r_b = audit_chunk(ChunkTask("b.txt", 1, ["example.com/x."], "fake"))
    r_a = audit_chunk(ChunkTask("a.txt", 1, ["example.com/y."], "fake"))
    r_empty = audit_chunk(ChunkTask("empty.txt", 1, [], "fake"))
    report = merge([r_b, r_empty, r_a])
    assert [c["source"] for c in report["changes"]] == ["a.txt", "b.txt"]
    assert report["summary"]["documents"] == 3


def test_merge_empty_and_mixed_backends() -> None:
    report = merge([], backend="linkify-it")
    assert report["backend"] == "linkify-it"
    assert report["summary"]["changed"] == 0 and report["changes"] == []
    r1 = ChunkResult("a", 1, "linkify-it", 0, 0, 0, 0, ())
    r2 = ChunkResult("b", 1, "urlextract", 0, 0, 0, 0, ())
    with pytest.raises(ValueError, match="several backends"):
        merge([r1, r2])


def test_tasks_and_results_pickle(stub_detect: None) -> None:
    task = ChunkTask("doc.txt", 1, LINES, "fake")
    result = audit_chunk(task)
    assert pickle.loads(pickle.dumps(task)) == task
    assert pickle.loads(pickle.dumps(result)) == result
    assert pickle.loads(pickle.dumps(audit_chunk)) is audit_chunk


def test_real_detect_audit_chunk() -> None:
    """With the real detect: the issue's example is trimmed at the bracket across the '/'."""
    line = "See example.com/αβ(γ/δ)ρς?α=θ&β=κ#λμν:~:text=φχψ on…"
    result = audit_chunk(ChunkTask("t", 1, [line], "linkify-it"))
    (change,) = result.changes
    assert change.kind == "trimmed"
    assert change.reason == "bracket-across-separator"
    assert change.after == (4, 22) and change.after_text == "example.com/αβ(γ/δ"
    assert Counter(c.kind for c in result.changes) == Counter({"trimmed": 1})


@pytest.mark.parametrize("backend", ["linkify-it", "urlextract"])
def test_audit_line_shortcut_gives_what_pairing_gives(backend: str) -> None:
    """audit_line counts a line whose links all stay as they were without pairing them;
    that must be what pairing and classifying them gives, on lines where links change or not."""
    from uts58_adapt.detection import detect, detect_pair

    lines = [*sample_lines(), *(plain_text(line) for _, line in detection_cases())]
    lines += ["mail jane@example.org and see x.org", " -- A B <a.b@debian.org>  Tue, 1 Jan 2022", "no link"]
    kept = 0
    for line in lines:
        before, after = detect_pair(line, backend)
        expected = core._audited(line, before, after) if before or after else (0, 0, 0, [])
        assert core.audit_line(line, backend, detect) == expected, line
        kept += bool(before) and expected[2] == len(before) == len(after)
    assert kept > 10  # the shortcut was taken


def test_a_failing_line_is_reported_not_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    def flaky(text: str, backend: str = "fake", refine: bool = True, **kw):
        if "boom" in text:
            raise RuntimeError("kaput")
        return fake_detect(text, backend, refine)

    monkeypatch.setattr(core, "get_detect", lambda: flaky)
    result = audit_chunk(ChunkTask("doc.txt", 1, ["example.com/a.", "boom example.com/b.", "x"], "fake"))
    assert result.failures == ("doc.txt:2: detect failed: RuntimeError: kaput",)
    assert result.lines == 3 and result.links_before == 1 and len(result.changes) == 1


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("Xem tại example.vn/trang/chủ-đề? Cảm ơn bạn.", "part-initiator"),  # issue 24.5: not soft-inside
        ("see x.com/a.? then", "part-initiator"),
        ("see example.com/αβ(γ/δ)ρς", "bracket-across-separator"),
    ],
)
def test_a_question_mark_kept_before_a_space_has_its_own_reason(line: str, reason: str) -> None:
    (change,) = audit_chunk(ChunkTask("t", 1, [line], "linkify-it")).changes
    assert change.reason == reason
    assert reason in core.REASONS
