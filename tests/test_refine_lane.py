"""The lane of the refinement stage (issue 20) gives exactly what the plain path gives.

``authority.host_fields`` takes the common shapes in ``_lane_fields`` (``LANE``) and
``migration._path_end`` resumes §3.5.1 at the backend's end (a text with one URL span and no
``@`` takes ``migration._one_url``, step 1 alone); ``migration._LANE = False``
and ``host_fields(..., lane=None)`` run the plain path alone (the code before issue 20).
Here both run on the official LinkDetectionTest.txt, the sample corpus, the dense
benchmark corpus and generated text around the lane's boundaries, with every installed
backend, with ``strict_hosts`` on and off and with several ``scheme_ok``; the links, and
the calls made to ``scheme_ok``, must be the same.  The host stage is also compared at
every offset of the texts, not only where a backend starts a span.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uts58_adapt.backends import BACKENDS, BackendUnavailable, get_backend
from uts58_adapt.link import Link, RawLink
from uts58_adapt.properties import FLAGS
from uts58_adapt.refine import authority, migration
from uts58_adapt.refine.authority import LANE, default_scheme_ok, host_fields
from uts58_adapt.refine.termination import terminate
from uts58_adapt.refine.whatwg import SCHEME_AT, USERINFO_END, _ends_userinfo

from conftest import dense_paragraphs, detection_cases, plain_text, require_data, sample_lines


def _available_backends() -> list[str]:
    names = []
    for name in BACKENDS:
        try:
            get_backend(name)
        except BackendUnavailable:
            continue
        names.append(name)
    return names


AVAILABLE = _available_backends()


def _spans(name: str, text: str) -> list[RawLink]:
    backend = get_backend(name)
    find = getattr(backend, "candidates", None) or backend.find  # urlextract: its candidates too
    return list(find(text))


@contextlib.contextmanager
def _plain() -> Iterator[None]:
    saved = migration._LANE
    migration._LANE = False
    try:
        yield
    finally:
        migration._LANE = saved


Recorder = Callable[[str, str, bool], bool]


def _scheme_checks() -> list[tuple[str, Callable[[list[tuple[str, str, bool]]], Recorder]]]:
    """``scheme_ok`` variants, each recording its calls in the list it is given."""

    def recording(decide: Callable[[str, str, bool], bool]) -> Callable[[list[tuple[str, str, bool]]], Recorder]:
        def make(calls: list[tuple[str, str, bool]]) -> Recorder:
            def ok(scheme: str, host: str, reported: bool) -> bool:
                calls.append((scheme, host, reported))
                return decide(scheme, host, reported)

            return ok

        return make

    return [
        ("default", recording(default_scheme_ok)),
        ("any", recording(lambda scheme, host, reported: True)),
        ("reported-only", recording(lambda scheme, host, reported: reported)),
        ("no-https", recording(lambda scheme, host, reported: scheme != "https:" and host[:1] != "x")),
    ]


SCHEME_CHECKS = _scheme_checks()


def _refine_both(
    text: str, raw: Sequence[RawLink], strict: bool, make: Callable[[list[tuple[str, str, bool]]], Recorder]
) -> tuple[list[Link], list[Link]]:
    lane_calls: list[tuple[str, str, bool]] = []
    plain_calls: list[tuple[str, str, bool]] = []
    lane = migration.refine_links(text, raw, strict_hosts=strict, scheme_ok=make(lane_calls))
    with _plain():
        plain = migration.refine_links(text, raw, strict_hosts=strict, scheme_ok=make(plain_calls))
    assert lane_calls == plain_calls, (text, raw, strict)
    return lane, plain


def _check_refinement(texts: Sequence[str], backends: Sequence[str] = AVAILABLE, checks: int = 4) -> int:
    """Compare lane and plain on every text with every backend; return the number of links compared."""
    links = 0
    for name in backends:
        for text in texts:
            raw = _spans(name, text)
            for strict in (True, False):
                for _label, make in SCHEME_CHECKS[:checks]:
                    lane, plain = _refine_both(text, raw, strict, make)
                    assert lane == plain, (name, text, strict, _label)
                    links += len(lane)
    return links


def _host_fields_both(text: str, start: int, end: int, strict: bool, scheme_length: int) -> None:
    for _label, make in SCHEME_CHECKS[:2]:
        lane_calls: list[tuple[str, str, bool]] = []
        plain_calls: list[tuple[str, str, bool]] = []
        lane = host_fields(text, start, end, strict, make(lane_calls), scheme_length, LANE.get(text))
        plain = host_fields(text, start, end, strict, make(plain_calls), scheme_length, None)
        assert lane == plain, (text, start, end, strict, scheme_length)
        assert lane_calls == plain_calls, (text, start, end, strict, scheme_length)


def _check_host_stage(text: str, step: int = 1) -> None:
    """``host_fields`` with and without the lane at every offset (every ``step``-th), for a
    few ends and backend scheme lengths."""
    n = len(text)
    for start in range(0, n, step):
        m = SCHEME_AT.match(text, start)
        lengths = {0, 3} | ({m.end(1) + 1 - start} if m else set())
        for end in {start, min(n, start + 1), min(n, start + 12), n}:
            for strict in (True, False):
                for scheme_length in lengths:
                    _host_fields_both(text, start, end, strict, scheme_length)


def _check_path_end(text: str) -> None:
    """``_path_end`` with the lane is §3.5.1 from the end of the host, wherever the backend ended."""
    safe = migration._SAFE_RUN.get(text)
    for start in range(len(text) + 1):
        expected = terminate(text, start)
        for raw_end in range(start, len(text) + 1):
            assert migration._path_end(text, start, raw_end, safe, True) == expected, (text, start, raw_end)


# --- The official file, the sample corpus, the dense benchmark corpus -------------------------


def test_lane_is_plain_on_the_official_file() -> None:
    require_data("17.0.0", "linkification", "LinkDetectionTest.txt")
    texts = [plain_text(line) for _lineno, line in detection_cases()]
    assert texts
    failures = []
    for (lineno, _line), text in zip(detection_cases(), texts):
        try:
            _check_refinement([text])
            _check_host_stage(text)
        except AssertionError as exc:
            failures.append(f"LinkDetectionTest.txt line {lineno}: {exc}")
    assert not failures, "\n".join(failures[:20])


def test_lane_is_plain_on_the_sample_corpus() -> None:
    lines = [line for line in sample_lines() if line]
    assert len(lines) >= 50
    assert _check_refinement(lines) > 50
    for line in lines:
        _check_host_stage(line)


def test_lane_is_plain_on_the_dense_corpus() -> None:
    paragraphs = dense_paragraphs()
    assert len(paragraphs) > 20
    assert _check_refinement(paragraphs, checks=2) > 300
    for paragraph in paragraphs[:12]:
        _check_host_stage(paragraph, step=3)


def test_the_lane_takes_the_common_shapes() -> None:
    """The lane is not a no-op: the dense corpus's spans mostly take it (and are decided there)."""
    taken = total = 0
    for paragraph in dense_paragraphs()[:40]:
        lane = LANE.get(paragraph)
        for raw in _spans("linkify-it", paragraph):
            if raw.kind != "url":
                continue
            total += 1
            m = lane.match(paragraph, raw.start)
            if m is not None:
                found = authority._lane_fields(
                    paragraph, m, raw.start, raw.end, True, default_scheme_ok, raw.scheme_length
                )
                taken += found is not authority._MISS
    assert total > 100
    assert taken > 0.9 * total


def test_ends_authority_is_userinfo_end() -> None:
    """Rule 5's premise: ``_ends_authority`` (inlined in ``_lane_fields``) takes exactly the code
    points but ``@`` at which ``has_userinfo_after``'s search stops."""
    full = USERINFO_END.get("\u0100")
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        ch = chr(cp)
        stops = full.fullmatch(ch) is not None and (cp <= 0xFFFF or _ends_userinfo(FLAGS[cp]))
        assert authority._ends_authority(ch) == (stops and ch != "@"), hex(cp)
    assert not authority._ends_authority("@")


# --- Generated text around the lane's boundaries ---------------------------------------------

# fmt: off
PIECES = [
    # schemes, in any case, reported or not, and near misses
    "http://", "HTTPS://", "hTtP://", "ftp://", "Foo+bar.v2://", "mailto:", "//", "://", "http:/", "1http://",
    # hosts and labels
    "example", "com", "de", "xn--bcher-kva", "www.", "a", "1", "-", "a-b", "ex_ample", "bücher", "例え",
    "ÖBB", "ατ", "рф", "ישראל", "مثال", "l·l", "a·b", "·", "・", "\u0375", "\u05f3", "ŉ", "\u0f77", "\u17a3",
    # separators, trailing dots
    ".", "。", "．", "｡", "..",
    # ports and userinfo
    ":", ":80", ":0080", ":99999", ":80x", "user@", "u:p@", "@", "[::1]", "[", "]",
    # paths, queries, fragments, directives
    "/", "/p", "?", "?q=1&r", "#", "#f", ":~:", ":~:text=a,b", "&", ",", "=", "~",
    # what may follow a host
    " ", "\n", "\t", "(", ")", "「", "」", "（", "）", "、", "，", "！", "'", '"', "!", ";", "<", ">", "«", "»", "|", "\\",
    "^", "`", "_", "✪", "★",
    # astral characters
    "𝔞", "😀", "\U00010a50", "\U0002070e",
]
# fmt: on
_TEXTS = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXTS)
def test_lane_is_plain_on_generated_text(text: str) -> None:
    _check_refinement([text], backends=[b for b in AVAILABLE if b in ("linkify-it", "urlextract", "bleach")])
    _check_host_stage(text)


@settings(max_examples=200, deadline=None)
@given(_TEXTS, st.lists(st.tuples(st.integers(0, 60), st.integers(1, 40), st.integers(0, 8)), max_size=6))
def test_lane_is_plain_on_arbitrary_spans(text: str, spans: list[tuple[int, int, int]]) -> None:
    """Spans a backend might report anywhere (with any scheme length), not only real ones."""
    n = len(text)
    if not n:
        return
    raw = [RawLink(s % n, min(n, s % n + length), "url", scheme) for s, length, scheme in spans]
    for strict in (True, False):
        for _label, make in SCHEME_CHECKS:
            lane, plain = _refine_both(text, raw, strict, make)
            assert lane == plain


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(["/", "?", "#", ":", "~", ":~:", "a", ".", ",", "&", "=", "(", ")", " ", "、", "😀"]),
        max_size=12,
    ).map("".join)
)
def test_path_end_is_termination(text: str) -> None:
    _check_path_end(text)


@pytest.mark.parametrize(
    "text",
    [
        "see http://example.com/x y",
        "(example.com)",
        "日本 example.com。次",
        "https://bücher.de/x",
        "x@example.com and http://user@example.com",
        "http://example.com:8080/a http://example.com:99999/b http://example.com:/c",
        "ftp://a.example.com.:21/ http://example.com./ example.com.. end",
        "l·l.cat a·b.com ex・ample.jp",
        "FOO.VERMÖGEN.com",
        "https://xn--bcher-kva.de/ http://1.2.3.4/ http://[::1]/",
        "src/libthai.map: and https://ex.com' and https://ex.com, then",
        "𝔞example.com example.com😀 \U00010a50example.com",
        "http://ŉuser@ http://exŉample.com@x.com",  # a Hard host character stops the userinfo search
        "user@//http://",  # a backend scheme length before "//" (the plain path's first branch)
    ],
)
def test_lane_is_plain_on_examples(text: str) -> None:
    _check_refinement([text])
    _check_host_stage(text)
    _check_path_end(text[text.find("/") :] if "/" in text else text)
