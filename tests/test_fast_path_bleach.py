"""bleach's fast path gives exactly the spans, links and HTML of the plain path.

``backends.bleach.linker_anchors`` derives anchors from a filter's own ``url_re`` and
``email_re`` when they have the shapes bleach's ``build_url_re``/``build_email_re`` build
(a ``.`` before the first character of one of its TLDs, ``@``); the regexes then read only
the white-space-delimited tokens that hold one.  The reference is the plain path: the
regexes over the whole text node (``bleach_find`` without anchors, ``BleachBackend.plain``,
and the wrapped Linker with ``linker_anchors`` returning None).  Checked on the official
test lines, the sample corpus, both benchmark corpora, generated text dense in anchor
characters and white space of every kind, and configured Linkers and filters.
"""

from __future__ import annotations

import gzip
import html
import sys
from functools import partial
from pathlib import Path

import pytest

bleach = pytest.importorskip("bleach")

from bleach.linkifier import EMAIL_RE, URL_RE, Linker, LinkifyFilter, build_email_re  # noqa: E402
from bleach.linkifier import build_url_re as bleach_build_url_re  # noqa: E402
from bleach.sanitizer import Cleaner  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import uts58_adapt  # noqa: E402
import uts58_adapt.backends.bleach as bleach_backend  # noqa: E402
import uts58_adapt.integrations.bleach as integration  # noqa: E402
from uts58_adapt import detect  # noqa: E402
from uts58_adapt.backends import get_backend  # noqa: E402
from uts58_adapt.backends.bleach import SPACES, bleach_find, build_url_re, linker_anchors  # noqa: E402

from conftest import dense_paragraphs, detection_cases, plain_text, sample_lines  # noqa: E402

# Filters: bleach's defaults, emails on and off, custom TLDs and protocols, the backend's own.
_BACKEND = get_backend("bleach")._filter  # type: ignore[attr-defined]
CUSTOM_URL = bleach_build_url_re(tlds=["com", "xyz", "рф", "ka"], protocols=["http", "https", "git", "ftp"])
CUSTOM_EMAIL = build_email_re(tlds=["com", "org", "рф", "ſe"])
FILTERS = [
    (URL_RE, EMAIL_RE, False),
    (URL_RE, EMAIL_RE, True),
    (CUSTOM_URL, CUSTOM_EMAIL, True),
    (build_url_re(["com", "org", "ind"]), EMAIL_RE, True),
    (_BACKEND.url_re, _BACKEND.email_re, True),
]


def _filters() -> list[LinkifyFilter]:
    return [LinkifyFilter(source=iter(()), url_re=u, email_re=e, parse_email=p) for u, e, p in FILTERS]


def _check_spans(text: str) -> None:
    for flt in _filters():
        assert linker_anchors(flt.url_re, flt.email_re if flt.parse_email else None) is not None
        plain = bleach_find(flt, text, flt.parse_email, fast=False)
        assert bleach_find(flt, text, flt.parse_email) == plain, (flt.url_re.pattern[:60], text)


def _check_detect(text: str) -> None:
    backend = get_backend("bleach")
    assert backend.find(text) == backend.plain(text), text  # type: ignore[attr-defined]


def _plain_linkify(linker: Linker, fragment: str, monkeypatch: pytest.MonkeyPatch) -> str:
    with monkeypatch.context() as m:
        m.setattr(bleach_backend, "linker_anchors", lambda url_re, email_re: None)
        return str(uts58_adapt.wrap(linker).linkify(fragment))


def test_spaces_are_every_white_space_character() -> None:
    assert set(SPACES) == {chr(cp) for cp in range(sys.maxunicode + 1) if chr(cp).isspace()}


def test_anchors_of_bleach_shapes() -> None:
    assert linker_anchors(URL_RE, None) is not None
    assert linker_anchors(URL_RE, EMAIL_RE) is not None
    anchors = linker_anchors(CUSTOM_URL, CUSTOM_EMAIL)
    assert anchors is not None
    assert anchors.url.search("a.xyz") and anchors.url.search("a.РФ") and not anchors.url.search("a.org")
    assert anchors.any.search("a@b")


@pytest.mark.parametrize(
    ("url_re", "email_re"),
    [
        (bleach_build_url_re(tlds=[r"c\som"]), None),  # a TLD that matches white space
        (bleach_build_url_re(tlds=["c.m"]), None),  # "." matches anything
        (bleach_build_url_re(tlds=["(?=x)x"]), None),  # lookaround
        (bleach_build_url_re(protocols=[r"h\s"]), None),
        (bleach_build_url_re(tlds=["(?-i:COM)"]), None),  # a flag change
        (__import__("re").compile(r"\S+\.com"), None),  # not bleach's shape
        (URL_RE, __import__("re").compile(r"\S+@\S+")),
        (URL_RE, build_email_re(tlds=[r"[^a]"])),
    ],
)
def test_no_anchors_where_the_shape_is_unknown(url_re: object, email_re: object) -> None:
    assert linker_anchors(url_re, email_re) is None


def test_unknown_shape_takes_the_plain_path() -> None:
    import re

    flt = LinkifyFilter(source=iter(()), url_re=re.compile(r"\S+\.com"))
    assert linker_anchors(flt.url_re, None) is None
    assert str(uts58_adapt.wrap(Linker(url_re=flt.url_re)).linkify("see x y.com z")).count("<a ") == 1


@pytest.mark.parametrize("lineno", [n for n, _ in detection_cases()] or [0])
def test_official_lines(lineno: int, detection_test_file: object) -> None:
    text = plain_text(dict(detection_cases())[lineno])
    _check_spans(text)
    _check_detect(text)


def test_official_file_as_one_text(detection_test_file: object) -> None:
    text = "\n".join(plain_text(line) for _, line in detection_cases())
    _check_spans(text)
    _check_detect(text)


def test_sample_corpus() -> None:
    lines = sample_lines()
    for line in lines:
        _check_spans(line)
    _check_spans("\n".join(lines))
    _check_detect("\n".join(lines))


def _debian_paragraphs(limit: int = 120_000) -> list[str]:
    doc = Path("/usr/share/doc")
    texts: list[str] = []
    total = 0
    for path in sorted(doc.glob("*/changelog*.gz")) + sorted(doc.glob("*/copyright")):
        try:
            raw = path.read_bytes()
            text = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf-8", "replace")[:20_000]
        except (OSError, EOFError, gzip.BadGzipFile):
            continue
        texts += [p for p in text.split("\n\n") if p.strip()]
        total += len(text)
        if total >= limit:
            break
    return texts


@pytest.mark.parametrize("corpus", ["dense", "debian"])
def test_benchmark_corpora(corpus: str, monkeypatch: pytest.MonkeyPatch) -> None:
    paras = dense_paragraphs() if corpus == "dense" else _debian_paragraphs()
    if not paras:
        pytest.skip("no Debian documentation in /usr/share/doc on this machine")
    for p in paras:
        _check_spans(p)
        _check_detect(p)
    for linker in (Linker(), Linker(parse_email=True)):
        for p in paras[:150]:
            fragment = "<p>" + html.escape(p, quote=False) + "</p>"
            fast = uts58_adapt.wrap(linker).linkify(fragment)
            assert fast == _plain_linkify(linker, fragment, monkeypatch), p


# Pieces the regexes and the anchors care about, and white space of every kind.
PIECES = [
    "x", "com", "co", "org", "xyz", "ka", "рф", "РФ", "ind", "COM", "xn--p1ai", "香港",
    ".", "..", "@", "//", ":", "http:", "https:", "git:", "mailto:", "www.", "localhost",
    "-", "_", "(", ")", "<", ">", "'", '"', "\\", "?", "#", "!", ",", ";", "%", "&", "&amp;",
    "=", "+", "~", "a.b", ":8080", "/p", "。", "K", "ſ", "İ", "ı", "\u0301", "é", "0", "user",
]  # fmt: skip
SEPARATORS = [" ", "\n", "\t", "\r", "\u00a0", "\u3000", "\u2028", "\x1c", "\x1f", "\x85", "\u200a", "\x0b", "\x0c"]
_texts = st.lists(st.sampled_from(PIECES + SEPARATORS), max_size=50).map("".join)


@settings(max_examples=700, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_texts)
def test_generated_text(text: str) -> None:
    _check_spans(text)
    _check_detect(text)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_texts, min_size=30, max_size=60).map(" ".join))
def test_generated_long_text(text: str) -> None:
    # Longer than bleach_find's window: the fast path runs in each of its windows.
    _check_spans(text)


_MARKUP = ["<b>", "</b>", "<a href='x'>", "</a>", "<pre>", "</pre>", "<!-- c -->", "<br>", "&lt;", "&gt;", "<p>"]
_fragments = st.lists(st.sampled_from(PIECES + SEPARATORS + _MARKUP), max_size=40).map("".join)


def _no_follow_on_odd(attrs: dict, new: bool) -> dict | None:  # type: ignore[type-arg]
    href = attrs.get((None, "href"), "")
    return None if len(href) % 5 == 0 else {**attrs, (None, "rel"): "x"}


_LINKERS = [
    Linker(),
    Linker(parse_email=True),
    Linker(url_re=CUSTOM_URL, email_re=CUSTOM_EMAIL, parse_email=True),
    Linker(callbacks=[_no_follow_on_odd], skip_tags={"pre"}, parse_email=True),
    Linker(url_re=_BACKEND.url_re, email_re=_BACKEND.email_re, parse_email=True),
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_fragments)
def test_generated_fragments_through_linkers(fragment: str) -> None:
    monkeypatch = pytest.MonkeyPatch()
    try:
        for linker in _LINKERS:
            assert uts58_adapt.wrap(linker).linkify(fragment) == _plain_linkify(linker, fragment, monkeypatch)
            safe = uts58_adapt.wrap(linker, reject_risky=True, strict_hosts=True)
            with monkeypatch.context() as m:
                m.setattr(bleach_backend, "linker_anchors", lambda url_re, email_re: None)
                plain = safe.linkify(fragment)
            assert safe.linkify(fragment) == plain
    finally:
        monkeypatch.undo()


def test_linkify_filter_in_a_cleaner(monkeypatch: pytest.MonkeyPatch) -> None:
    fragments = [
        "<p>see example.com/a(b) and x.org. mail a@example.com</p><pre>in.pre.com</pre>",
        *("<div>" + html.escape(p, quote=False) + "</div>" for p in dense_paragraphs(8_000)),
    ]
    flt = partial(integration.LinkifyFilter, skip_tags=["pre"], parse_email=True, url_re=CUSTOM_URL)
    cleaner = Cleaner(tags={"p", "pre", "div", "a"}, filters=[flt])
    fast = [cleaner.clean(f) for f in fragments]
    monkeypatch.setattr(bleach_backend, "linker_anchors", lambda url_re, email_re: None)
    assert [cleaner.clean(f) for f in fragments] == fast
    assert detect("see example.com", backend="bleach")


@pytest.mark.parametrize(
    "text",
    [
        '"a\x0bb"@example.com',
        'x\n"a\\ b"@example.com and y.com',
        'x\n"a\x1cb c"@example.org\n"q\\\tr"@example.com "s\x0c"@example.com',
        'see\n"a\x0bb"@example.com, mailto:"c\x1fd"@example.org',
    ],
)
def test_quoted_local_parts_with_white_space(text: str) -> None:
    # bleach's email_re takes a quoted local part at the start of a line, white space in it.
    flt = LinkifyFilter(source=iter(()), parse_email=True)
    assert any(r.kind == "email" for r in bleach_find(flt, text, True))
    _check_spans(text)
    _check_detect(text)
