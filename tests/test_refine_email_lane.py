"""The email lane of the refinement stage (issue 20) gives exactly what the plain path gives.

``migration._EMAIL_LANE`` takes the common shape of an email (an ASCII local part starting
where the backend's span starts, or after its ``mailto:``, and an ASCII domain of two or
more labels that no host character continues); ``migration._LANE = False`` runs the plain
path alone.  Here both run on the official LinkDetectionTest.txt, the sample corpus, the
dense benchmark corpus and generated text full of emails and near misses (``mailto:``,
quoted local parts, dots and ``..``, non-ASCII local parts, IDN domains, ``@`` in URL paths
and userinfo, local parts longer than 256), with every installed backend, with
``strict_hosts`` on and off; the links must be the same.  Arbitrary spans (any start, so
any hint) are compared too.
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_refine_lane import AVAILABLE, SCHEME_CHECKS, _check_refinement, _refine_both, _spans

from uts58_adapt.link import RawLink
from uts58_adapt.refine import migration

from conftest import dense_paragraphs, detection_cases, plain_text, require_data, sample_lines


def test_email_lane_is_plain_on_the_official_file() -> None:
    require_data("17.0.0", "linkification", "LinkDetectionTest.txt")
    failures = []
    for lineno, line in detection_cases():
        text = plain_text(line)
        if "@" not in text:
            continue
        try:
            _check_refinement([text], checks=2)
        except AssertionError as exc:
            failures.append(f"LinkDetectionTest.txt line {lineno}: {exc}")
    assert not failures, "\n".join(failures[:20])


def test_email_lane_is_plain_on_the_sample_corpus() -> None:
    lines = [line for line in sample_lines() if "@" in line]
    assert len(lines) >= 5
    _check_refinement(lines, checks=2)


def test_email_lane_is_plain_on_the_dense_corpus() -> None:
    paragraphs = [p for p in dense_paragraphs() if "@" in p]
    assert len(paragraphs) > 20
    assert _check_refinement(paragraphs, checks=1) > 100


def test_the_email_lane_takes_the_common_shapes() -> None:
    """The lane is not a no-op: most emails of the dense corpus match it where the backends start them."""
    taken = total = 0
    for paragraph, name in itertools.product(dense_paragraphs(), ("linkify-it", "urlextract", "bleach")):
        lane = migration._EMAIL_LANE.get(paragraph)
        for raw in _spans(name, paragraph) if name in AVAILABLE else ():
            if raw.kind != "email":
                continue
            total += 1
            start = raw.start + (7 if paragraph[raw.start : raw.start + 7].lower() == "mailto:" else 0)
            m = lane.match(paragraph, start)
            taken += m is not None
    assert total > 20
    assert taken > 0.5 * total


# --- Generated text full of emails and near misses --------------------------------------------

# fmt: off
PIECES = [
    # local parts
    "a", "john", "j.doe", "x+tag", "o'neil", "a_b", "1", "-", "!#$%&'*+/=?^`{|}~", ".", "..", "用户", "ñ", "ö",
    '"', '"quoted local"', "\\", "mailto:", "MAILTO:", "MaIlTo:", "mailto", "ma", "ılto:", "\u0130",
    # the at sign, domains and separators
    "@", "@", "@@", "example", "com", "de", "example.com", "debian.org", "a.b.c", "xn--bcher-kva", "bücher",
    "例え", "テスト", "-", "。", "．", "｡", "com.", "localhost", "1.2.3.4", "org-", "_",
    # URLs around emails: paths, userinfo, schemes
    "http://", "https://", "ftp://", "//", "/", "/p@x.com", "?q=a@b.com", "#f", ":", ":80", "user:pw@",
    # what may come before or after an email
    " ", "\n", "<", ">", "(", ")", "「", "」", "、", ",", ";", "!", "*", "|", "~",
    # astral characters
    "𝔞", "😀", "\U00010a50", "\U0002070e",
]
# fmt: on
_TEXTS = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXTS)
def test_email_lane_is_plain_on_generated_text(text: str) -> None:
    _check_refinement([text], checks=2)


@settings(max_examples=300, deadline=None)
@given(_TEXTS, st.lists(st.tuples(st.integers(0, 60), st.integers(1, 40), st.booleans()), max_size=6))
def test_email_lane_is_plain_on_arbitrary_spans(text: str, spans: list[tuple[int, int, bool]]) -> None:
    """Spans a backend might report anywhere (so any hint for the lane), not only real ones."""
    n = len(text)
    if not n:
        return
    raw = [RawLink(s % n, min(n, s % n + length), "email" if email else "url") for s, length, email in spans]
    for strict in (True, False):
        for _label, make in SCHEME_CHECKS[:2]:
            lane, plain = _refine_both(text, raw, strict, make)
            assert lane == plain


def _long_texts() -> list[str]:
    texts = []
    for length in (250, 255, 256, 257, 258, 262, 263, 264, 270):
        local = "a" * length
        for before in ("", " ", "mailto:", "x mailto:", "<", "b" * 10):
            texts.append(f"{before}{local}@example.com")
            texts.append(f"{before}{local[:-3]}.aa@example.com and more")
        texts.append("x" * 300 + " " + "a" * length + "@example.com")
    domain = ".".join(["abcdefghi"] * 26) + ".com"  # 264 characters: longer than MAX_HOST
    texts += [f"a@{domain}", f"a@{domain[: 253 - 4]}.com", f"a@{domain[: 252 - 4]}.com x", f"a@{domain[-253:]}"]
    return texts


def test_email_lane_is_plain_on_long_local_parts_and_domains() -> None:
    texts = _long_texts()
    _check_refinement(texts, checks=1)
    for text in texts:  # a hint at every start of a run before the "@"
        at = text.rfind("@")
        for start in {0, max(0, at - 300), text.rfind(" ", 0, at) + 1, text.rfind(":", 0, at) + 1}:
            raw = [RawLink(start, len(text), "email")]
            for strict in (True, False):
                lane, plain = _refine_both(text, raw, strict, SCHEME_CHECKS[0][1])
                assert lane == plain, (text, start)


def test_email_lane_is_plain_on_examples() -> None:
    texts = [
        " -- Matthias Klose <doko@debian.org>  Tue, 04 Oct 2022 12:14:31 +0200",
        "mailto:a@example.com MAILTO:b.c@example.com xmailto:d@example.com mailto:.e@example.com",
        "a..b@example.com .a@example.com a.@example.com a@example.com. a@example.com.x a@example.com。",
        'ñandú@example.com 用户@例え.jp "quoted"@example.com \u0130a@example.com',
        "a@bücher.de a@example.com例 a@example.co_m a@localhost a@1.2.3.4 a@-x.com a@x-.com",
        "http://user@example.com/ http://example.com/p@x.com https://ex.com/?q=a@b.com ftp://u:p@e.com",
        "𝔞a@example.com 😀a@example.com a@example.com😀 a@example.com𝔞 \U00010a50a@example.com",
        "a@b@example.com a@@example.com @example.com a@ x@y.z",
        "http://u@example.com a+b@example.com mailto:a+b@example.com mailto:ab@example.com x.y-z@example.com",
        "http://example.com/a@example.com ftp://x.org/ a@example.com",
    ]
    _check_refinement(texts)
    for text in texts:
        for start in range(len(text)):
            for end in {start + 1, text.find(" ", start) % (len(text) + 1), len(text)}:
                both = [RawLink(start, end, "email"), RawLink(start, min(len(text), start + 5), "url")]
                for raw in [RawLink(start, end, "email")], both:  # one span: migration._lone_email
                    for strict in (True, False):
                        lane, plain = _refine_both(text, raw, strict, SCHEME_CHECKS[0][1])
                        assert lane == plain, (text, raw)
        for piece in text.split():  # one "@" per text, one span
            for start in range(len(piece)):
                if piece.count("@") == 1:
                    lane, plain = _refine_both(piece, [RawLink(start, len(piece), "email")], True, SCHEME_CHECKS[0][1])
                    assert lane == plain, (piece, start)


def test_email_lane_follows_the_switch() -> None:
    assert migration._LANE
    text = "write to doko@debian.org"
    saved = migration._LANE
    migration._LANE = False
    try:
        plain = migration.refine_links(text, [RawLink(9, 24, "email")])
    finally:
        migration._LANE = saved
    assert [link.href for link in plain] == ["mailto:doko@debian.org"]
    assert AVAILABLE
