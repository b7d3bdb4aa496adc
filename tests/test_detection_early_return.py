"""``detect()`` and ``detect_pair()`` skip the refinement of a text with no backend span only
when it would give no link (issue 20): ``detection._nothing_to_refine``.

The reference is the refinement itself, built here from ``refine_links`` and
``refine.initiation.schemes_after_letters`` (not from ``detection``'s own helpers): every text
is checked against it with backends that report nothing, with and without emails, so a
skipped text that held an email, a domain written with ``。 ． ｡`` or a scheme after a
non-ASCII letter fails here.
"""

from __future__ import annotations

import inspect

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uts58_adapt import detect
from uts58_adapt.backends import BACKENDS, get_backend
from uts58_adapt.backends.base import RawLink
from uts58_adapt.detection import _OTHER_FULL_STOPS, _scheme_after_non_ascii, detect_pair, with_schemes_after_letters
from uts58_adapt.link import Link
from uts58_adapt.refine import migration
from uts58_adapt.refine.host_chars import SEPARATORS
from uts58_adapt.refine.initiation import schemes_after_letters
from uts58_adapt.refine.migration import refine_links

from conftest import dense_paragraphs, detection_cases, plain_text, sample_lines


class Silent:
    """A backend whose library finds nothing (and links emails, or not)."""

    def __init__(self, links_emails: bool) -> None:
        self.name = "silent"
        self.links_emails = links_emails

    def find(self, text: str) -> list[RawLink]:
        return []


def _reference(text: str, raw: list[RawLink], links_emails: bool) -> list[Link]:
    """What ``detect`` must give: the refinement of ``raw`` and of every scheme after a non-ASCII letter."""
    extra = [RawLink(start, end, "url", end - start - 2) for start, end in schemes_after_letters(text)]
    links = refine_links(text, [*raw, *extra])
    if not links_emails:
        links = [link for link in links if link.kind != "email"]
    return [link for link in links if link.end - link.start <= 4096]


def _check(text: str) -> None:
    for links_emails in (True, False):
        backend = Silent(links_emails)
        expected = _reference(text, [], links_emails)
        assert detect(text, backend=backend) == expected, (links_emails, text)
        assert detect_pair(text, backend=backend) == ([], expected), (links_emails, text)


@pytest.mark.parametrize(
    ("text", "links_emails", "expected"),
    [
        # ASCII: only an "@" can give a link, and only to a backend that links emails.
        ("write to someone@example.com today", True, ["someone@example.com"]),
        ("write to someone@example.com today", False, []),
        # Non-ASCII local part, no "@" elsewhere.
        ("メール 田中@example.jp まで", True, ["田中@example.jp"]),
        ("メール 田中@example.jp まで", False, []),
        # Domains written with the other full stops: URLs, whatever the backend links.
        ("サイト example。com です", False, ["example。com"]),
        ("サイト example．com です", False, ["example．com"]),
        ("サイト example｡com です", True, ["example｡com"]),
        # A scheme right after a non-ASCII letter (refine.initiation), in ASCII case or not.
        ("詳しくはhttps://example.com/ページ", False, ["https://example.com/ページ"]),
        ("詳しくはHTTP://example.com", False, ["HTTP://example.com"]),
        ("詳しくはftp://example.com", True, ["ftp://example.com"]),
        # An email next to a URL written with 。, for a backend without emails: the email wins.
        ("a@example。com", False, []),
        # Nothing at all.
        ("plain text, no link: a.b, 1.2, x://y", True, []),
        ("日本語のテキスト、リンクなし：https：//example。", True, []),
    ],
)
def test_texts_with_no_backend_span(text: str, links_emails: bool, expected: list[str]) -> None:
    links = detect(text, backend=Silent(links_emails))
    assert [link.text for link in links] == expected
    assert links == _reference(text, [], links_emails)


def test_official_lines_and_corpora() -> None:
    n = 0
    for text in [
        *(plain_text(line) for _, line in detection_cases()),
        *sample_lines(),
        *dense_paragraphs(20_000),
    ]:
        _check(text)
        n += 1
    assert n > 300


PIECES = [
    "@",
    "a",
    "é",
    "例",
    "ſ",
    ".",
    "。",
    "．",
    "｡",
    "example",
    "com",
    "jp",
    "://",
    "http",
    "https",
    "HTTPſ",
    "ftp",
    "mailto:",
    "/",
    "-",
    "：",
    "Ω",
    "\U0001f600",
    "\ud800",
]
_text = st.lists(st.sampled_from([*PIECES, " ", "\n", "\u3000"]), max_size=30).map("".join)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_text)
def test_generated_text(text: str) -> None:
    _check(text)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_text)
def test_scheme_prefilter_misses_no_scheme(text: str) -> None:
    """``_scheme_after_non_ascii`` is False only where ``schemes_after_letters`` finds nothing,
    and ``with_schemes_after_letters`` adds exactly what that function finds."""
    found = schemes_after_letters(text)
    if found:
        assert _scheme_after_non_ascii(text), text
    assert with_schemes_after_letters(text, []) == [RawLink(s, e, "url", e - s - 2) for s, e in found]


@pytest.mark.parametrize("prefix", ["例", "ſ", "é", "\U0001d400"])
@pytest.mark.parametrize("scheme", ["http", "https", "HTTPS", "httpſ", "ftp", "FTP"])
def test_scheme_prefilter_every_scheme(prefix: str, scheme: str) -> None:
    text = f"{prefix}{scheme}://example.com"
    assert _scheme_after_non_ascii(text)
    assert schemes_after_letters(text) == [(len(prefix), len(prefix) + len(scheme) + 3)]
    # A scheme of ASCII letters after white space: nothing to look for.  (A non-ASCII letter in
    # the scheme, "httpſ", makes the prefilter answer "maybe".)
    assert _scheme_after_non_ascii(f"{prefix}xyz {scheme}://example.com") == (not scheme.isascii())


def test_other_full_stops_are_the_refinements() -> None:
    """The early return's separators are those the refinement looks for on its own."""
    others = set(SEPARATORS) - {"."}
    assert {ch for ch in map(chr, range(0x110000)) if _OTHER_FULL_STOPS.fullmatch(ch)} == others
    # The refinement's own tests for them (refine_links, refine_span, _refine) name the same three.
    source = inspect.getsource(migration)
    assert all(f'"\\u{ord(ch):04x}" in text' in source for ch in others)


@pytest.mark.parametrize("name", list(BACKENDS))
def test_every_backend_on_lines_without_spans(name: str) -> None:
    """The real backends, on texts where most have no span: ``detect`` is their refinement."""
    try:
        backend = get_backend(name)
    except ImportError:
        pytest.skip(f"{name} is not installed")
    find = getattr(backend, "candidates", None) or backend.find
    texts = [
        "write to someone@example.com today",
        "メールは田中@example.jp まで、サイトはexample。com",
        "詳しくはhttps://example.com/ページ",
        "nothing here",
        "日本語だけ",
        *sample_lines()[:200],
    ]
    for text in texts:
        expected = _reference(text, find(text), getattr(backend, "links_emails", True))
        assert detect(text, backend=name) == expected, (name, text)


@pytest.mark.parametrize(
    "text",
    [
        "例http://例https://x.com",
        "éftp://ftp://x.com",
        "例ftp://://https://x",
        "例https:///例ftp://",
        "ſhttps://例httpſ://例HTTPS://",
        "例://例x://例https",
        "ab例https://x" * 3,
        "例" + "https://" * 5,
    ],
)
def test_schemes_after_letters_close_together(text: str) -> None:
    found = schemes_after_letters(text)
    assert with_schemes_after_letters(text, []) == [RawLink(s, e, "url", e - s - 2) for s, e in found]
    _check(text)
