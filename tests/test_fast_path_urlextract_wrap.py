"""``wrap(URLExtract())`` gives its instance only the anchored tokens, with the plain path's links.

``backends.urlextract.instance_gen_urls`` derives the anchors of a configured instance from
its own TLD pattern and after-TLD characters and runs a tracked copy of it on the anchored
tokens; it must give exactly ``list(gen_urls(text, get_indices=True))`` of one call (or
None, and then the wrapper makes that call).  The reference is the wrapper's plain path
(``instance_gen_urls`` patched to give None).  Texts: the official test lines, the sample
corpus, the benchmark's dense corpus, generated text; instances: the stock configuration
and configured ones (emails, localhost, stop characters, after-TLD characters, lists,
subclasses).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_urlextract_fast_path import DRIFT
from urlextract.urlextract_core import URLExtract

import uts58_adapt
import uts58_adapt.wrapping as wrapping
from uts58_adapt.backends import urlextract as ux
from uts58_adapt.backends._windows import WINDOW

from conftest import (
    BRACKETS,
    LINK_WORDS,
    URLEXTRACT_ANCHOR_PIECES,
    URLEXTRACT_PUNCTUATION,
    dense_paragraphs,
    detection_cases,
    piece_texts,
    plain_text,
    sample_lines,
)

# One stock instance for all tests (loading urlextract's TLD file takes a while).
_STOCK = URLExtract()


class _Domains(URLExtract):
    """A subclass that only changes the validity check (the fast path still applies)."""

    def _is_domain_valid(self, url: str, tld: str, check_dns: bool = False, with_schema_only: bool = False) -> bool:
        return "bad" not in url and bool(super()._is_domain_valid(url, tld, check_dns, with_schema_only))


class _Completing(URLExtract):
    """A subclass that changes a step gen_urls takes: the plain path."""

    def _complete_url(
        self, text: str, tld_pos: int, tld: str, check_dns: bool = False, with_schema_only: bool = False
    ) -> str:
        return str(super()._complete_url(text, tld_pos, tld, check_dns, with_schema_only))


def _configured() -> Iterator[tuple[str, URLExtract, bool]]:
    """``(name, instance, whether it takes the fast path)``."""
    yield "stock", _STOCK, True
    emails = URLExtract(extract_email=True, extract_localhost=False, limit=None)
    yield "emails, no localhost", emails, True
    stops = URLExtract(extract_email=True)
    stops.set_stop_chars_right(stops.get_stop_chars_right() | {"!", "。"})
    stops.set_stop_chars_left(stops.get_stop_chars_left() | {"x"})
    yield "more stop characters", stops, True
    after = URLExtract()
    after.set_after_tld_chars(set(after.get_after_tld_chars()) | {"!", "x", "é"})
    yield "after-TLD characters", after, True
    lists = URLExtract(allow_mixed_case_hostname=False)
    lists.ignore_list = {"example.com"}
    yield "ignore list, no mixed case", lists, True
    yield "subclass (validity)", _Domains(extract_email=True), True  # type: ignore[no-untyped-call]
    yield "subclass (completion)", _Completing(), False  # type: ignore[no-untyped-call]
    spaces = URLExtract()
    spaces.set_stop_chars_right(spaces.get_stop_chars_right() - {"\n"})
    yield "a newline is no stop character", spaces, False


CONFIGURED = list(_configured())


def _plain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wrapping, "instance_gen_urls", lambda *args, **kw: None)


def _found(extractor: URLExtract, texts: list[str]) -> list[object]:
    wrapper = uts58_adapt.wrap(extractor)
    return [(wrapper.find_urls(t, get_indices=True), wrapper.find_urls(t, with_schema_only=True)) for t in texts]


def _texts() -> list[str]:
    official = [plain_text(line) for _, line in detection_cases()]
    dense = dense_paragraphs(12_000)
    # urlextract's cursor can drift past a URL's end or before the text (test_urlextract_fast_path.DRIFT).
    drift = [form for text in DRIFT for form in (text, text + "\n" + text, (text + " ") * (WINDOW // len(text) + 2))]
    return [
        *official,
        "\n".join(official),
        *sample_lines(),
        "\n".join(sample_lines()),
        *dense,
        "\n\n".join(dense),
        *drift,
        "( " * 30 + "x " * 40 + "example.com)",
        "see (  'a.org') and [b.org](c.org) " + "w " * 30 + "( {x.org})",
        # urlextract looks left over spaces and enclosures when the URL holds a right one.
        "see ( example.com/a)b and (  x.org/(a)) or { [ x.org/a]} w ( x.org/a)",
    ]


_TEXTS = _texts()


def _raw_check(extractor: URLExtract, text: str) -> None:
    """The fast path's raw results are one call's (a text of at most a window; beyond, the
    wrapper's plain path is windows, compared through the refined results)."""
    fast = ux.instance_gen_urls(extractor, text)
    if fast is not None and len(text) <= WINDOW:
        assert fast == list(extractor.gen_urls(text, get_indices=True)), text


@pytest.mark.parametrize(("name", "extractor", "fast"), CONFIGURED, ids=[c[0] for c in CONFIGURED])
def test_wrapped_instance_gives_the_plain_paths_links(
    name: str, extractor: URLExtract, fast: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (ux.instance_plan(extractor) is not None) is fast, name
    for text in _TEXTS:
        _raw_check(extractor, text)
    upgraded = _found(extractor, _TEXTS)
    _plain(monkeypatch)
    assert upgraded == _found(extractor, _TEXTS)


PIECES = [
    *LINK_WORDS,
    "com",
    "comx",
    "org",
    "co",
    *URLEXTRACT_ANCHOR_PIECES,
    "1.2.3.4",
    "3.9.0.0.",
    "255",
    ".1",
    "-",
    *BRACKETS,
    *URLEXTRACT_PUNCTUATION,
    "x",
    "x.org/a)",
    "](",
    "é",
    "。",
]
SEPARATORS = [" ", "  ", "\n", "\t", "\r", "\x0b", "\x0c", "\u00a0", "\u3000"]
_generated = piece_texts(PIECES, SEPARATORS, max_size=40)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_generated, st.sampled_from([c for c in CONFIGURED if c[2]]))
def test_generated_text(text: str, config: tuple[str, URLExtract, bool]) -> None:
    _name, extractor, _ = config
    _raw_check(extractor, text)
    _raw_check(extractor, (text + " ") * 3)


def test_configuration_changes_are_followed() -> None:
    """A plan is kept per instance until its configuration changes, in place or not."""
    extractor = URLExtract()
    wrapper = uts58_adapt.wrap(extractor)
    assert wrapper.find_urls("see x.com! and y.org") == ["y.org"]
    extractor._after_tld_chars.add("!")  # in place
    assert wrapper.find_urls("see x.com! and y.org") == ["x.com", "y.org"]
    extractor.get_stop_chars_right().discard("\n")  # in place: no windows any more
    assert ux.instance_plan(extractor) is None
    extractor.get_stop_chars_right().add("\n")
    assert ux.instance_plan(extractor) is not None
    extractor.extract_localhost = False  # reloads the TLD pattern
    assert wrapper.find_urls("localhost:8080/x and y.org") == ["y.org"]


def test_fast_path_reads_only_the_anchored_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wrapped instance is given the tokens that hold an anchor, not the whole text."""
    seen: list[str] = []
    plan = ux.instance_plan(_STOCK)
    assert plan is not None
    original: Callable[..., object] = type(plan.clone).gen_urls  # type: ignore[attr-defined]

    def spy(self: object, text: str, *args: object, **kw: object) -> object:
        seen.append(text)
        return original(self, text, *args, **kw)

    monkeypatch.setattr(type(plan.clone), "gen_urls", spy)
    text = "words " * 200 + "see example.com now " + "more words " * 200
    assert uts58_adapt.wrap(_STOCK).find_urls(text) == ["example.com"]
    assert sum(map(len, seen)) < 40


def test_no_anchor_no_call() -> None:
    assert ux.instance_gen_urls(_STOCK, string.ascii_letters * 50) == []
