"""The urlextract backend's fast paths give exactly what plain passes give.

``UrlExtractBackend.find`` gives urlextract only the tokens (cut at ASCII white space)
that hold an anchor, and checks each window's run against what one run on the whole
text would do there (``_TrackedURLExtract._window_is_exact``), else makes that one run.
The reference is ``plain``: one ``URLExtract.gen_urls`` call on the whole text.
``candidates`` does the same with the candidates' extractor (reference: one call on a
text of at most ``WINDOW`` code points, the windows of ``_windowed_candidates`` beyond),
and ``find_and_candidates`` reads urlextract's own links off the candidates' run.

The texts: the official test lines, the bundled sample corpus, and generated text dense
in what urlextract and the anchors care about (TLD hits, digits and dotted quads, ``@``,
``localhost`` in any case, enclosures after spaces, white space of every kind).
"""

from __future__ import annotations

import random
import re
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from urlextract.urlextract_core import URLExtract

from uts58_adapt.backends import get_backend
from uts58_adapt.backends._tlds import icann_tlds
from uts58_adapt.backends._windows import GAP, WINDOW
from uts58_adapt.backends.urlextract import (
    _ANCHORS,
    _LONG_RUN,
    _TLD_START,
    UrlExtractBackend,
    _anchor,
    _CandidateURLExtract,
    _EmailCandidate,
)

from conftest import (
    BRACKETS,
    LINK_WORDS,
    URLEXTRACT_ANCHOR_PIECES,
    URLEXTRACT_PUNCTUATION,
    CorpusChecks,
    dense_paragraphs,
    long_texts,
    piece_texts,
    sample_lines,
)


def _backend() -> UrlExtractBackend:
    backend = get_backend("urlextract")
    assert isinstance(backend, UrlExtractBackend)
    return backend


def _check(text: str) -> None:
    backend = _backend()
    # A run of over WINDOW // 2 code points without white space is given to urlextract in
    # windows (issue 21: one call costs time quadratic in the run).
    plain = backend._windowed_plain(text) if _LONG_RUN.search(text) else backend.plain(text)
    windowed = backend._windowed_candidates(text)
    assert backend.find(text) == plain, text
    assert backend.candidates(text) == windowed, text
    assert backend.find_and_candidates(text) == (plain, windowed), text


class TestCorpora(CorpusChecks):
    check = staticmethod(_check)


PIECES = [
    *LINK_WORDS,
    "x",
    "com",
    "comx",
    "org9",
    "in-",
    "Debian",
    "org",
    "co",
    "py",
    "xn--p1ai",
    *URLEXTRACT_ANCHOR_PIECES,
    "LOCALHOST",
    "localhoſt",
    "1.2.3.4",
    "10.0.0.1",
    "2.38.50.20220101",
    "3.9.0.0.",
    "255",
    "256",
    "0",
    "7",
    ".1",
    ".50",
    "-",
    "_",
    "~",
    *BRACKETS,
    *URLEXTRACT_PUNCTUATION,
    "%",
    "](",
    "é",
    "ſ",
    "K",
]
SEPARATORS = [" ", " ", "  ", "\n", "\t", "\r", "\x0b", "\x0c", "\u00a0", "\u3000", "\x85"]

_texts = piece_texts(PIECES, SEPARATORS, max_size=60)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_texts)
def test_generated_text(text: str) -> None:
    _check(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(long_texts(_texts, SEPARATORS, max_parts=40, max_filler=2 * GAP))
def test_generated_long_text(text: str) -> None:
    _check(text)


def test_words_over_many_windows() -> None:
    rng = random.Random(58)
    words = [*LINK_WORDS, "1.2.3", "10.0.0.1", "a@b.1", "e.g.", "foo.py", "( x.org)", "localhost:8080/x"]
    text = " ".join(rng.choice(words) for _ in range(3000))
    assert len(text) > 10 * WINDOW
    _check(text)


# urlextract relocates each hit with str.find from a cursor that its own arithmetic can
# put after the end of a URL (``_get_tld_pos`` finds the host in the local part of
# ``a.com@a.com``), or that reports a URL twice with indices before the text (``3.9.0.0.``).
DRIFT = [
    "a.com@a.com" + " " * 40 + "b.com",
    "example.com@example.com" + " " * (2 * GAP) + "see b.org and c.net",
    "3.9.0.0." + " " * 40 + "x.org 3.9.0.0.",
    "see x.org " + "3.9.0.0. " * 5,
    "a.com/b.co" + " " * 40 + "c.co",
    "a.com/x.org/.co" + " " * 40 + ".co.uk b.co",
    "x@y.1 " + " " * 40 + "z@w.1.2",
    "( " * 30 + "example.com)",
    "x" * 40 + " (  'a.org')" + " " * 40 + "[b.org](c.org)",
]


@pytest.mark.parametrize("text", DRIFT)
def test_drifting_cursor(text: str) -> None:
    _check(text)
    _check(text + "\n" + text)
    _check((text + " ") * (WINDOW // len(text) + 2))


def test_fast_path_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """On ordinary text urlextract reads a fraction of it, and the whole text never."""
    text = "\n".join(sample_lines()) + "\n" + "version 1.2.3 of the package, see the changelog. " * 200
    backend = UrlExtractBackend()
    seen: list[int] = []
    gen_urls = URLExtract.gen_urls

    def spy(self: URLExtract, chunk: str, *args: object, **kwargs: object) -> object:
        seen.append(len(chunk))
        return gen_urls(self, chunk, *args, **kwargs)

    monkeypatch.setattr(URLExtract, "gen_urls", spy)
    for run in (backend.find, backend.candidates, backend.find_and_candidates):
        seen.clear()
        run(text)
        assert seen and sum(seen) < len(text) / 2, run


def test_tld_hits_are_anchors() -> None:
    """Every TLD (both forms, any case) after a dot is an anchor, as urlextract's pattern finds it."""
    for tld in sorted(icann_tlds()):
        for form in {tld, tld.upper(), tld.title()}:
            text = f"x.{form} "
            for pattern in _ANCHORS.values():
                m = pattern.search(text)
                assert m is not None and m.start() == 1, form


def test_tld_start_lookahead_takes_every_first_character() -> None:
    """``_TLD_START`` (a class under IGNORECASE) takes every code point with which the TLD
    trie (an alternation of literals under IGNORECASE) can begin: ``re`` may fold the two
    differently (``K``, U+212A, is ``k``), so both are matched on every code point."""
    firsts = sorted({tld[0] for tld in icann_tlds()})
    alternation = re.compile("(?:" + "|".join(map(re.escape, firsts)) + ")", re.IGNORECASE)
    lookahead = re.compile(_TLD_START + ".", re.IGNORECASE | re.DOTALL)
    every = "".join(map(chr, range(0x110000)))
    starts = [m.start() for m in alternation.finditer(every)]
    assert starts == [m.start() for m in lookahead.finditer(every)]
    assert "\u212a" in "".join(every[i] for i in starts)  # the Kelvin sign, folded to "k"


# After a TLD: ASCII label characters, characters urlextract takes after a TLD, and
# non-ASCII ones (host characters or not; "K" and "ı" match [a-z] under IGNORECASE).
_AFTER_TLD = ["a", "Z", "7", "-", "_", " ", ".", "/", ":", ",", ")", ">", "K", "ı", "é", "。", "\u200b", ""]


def test_every_hit_either_extractor_accepts_is_an_anchor() -> None:
    """A token goes to urlextract only when it holds an anchor: every hit of urlextract's
    TLD pattern that urlextract or the candidates' extractor accepts must be one."""
    backend = _backend()
    pattern = backend._extractor._tlds_re
    assert pattern is not None
    candidates = backend._candidates_extractor()
    for tld in sorted(icann_tlds()):
        for after in _AFTER_TLD:
            text = f"x.{tld}{after}y"
            hits = [(m.group(), m.start()) for m in pattern.finditer(text)]
            accepted = [
                (hit, pos)
                for hit, pos in hits
                if URLExtract._validate_tld_match(backend._extractor, text, hit, pos)
                or candidates._accepts_candidate(text, hit, pos)
            ]
            if accepted:
                for anchor in _ANCHORS.values():
                    assert anchor.search(text) is not None, (text, accepted)
    # and a hit followed by a letter, a digit or "-" is none
    for text in ("x.comx", "x.org9", "Makefile.in-1", "README.Debian"):
        assert all(anchor.search(text) is None for anchor in _ANCHORS.values()), text


def test_localhost_test_is_a_superset() -> None:
    """``_anchor`` looks for ``localhost`` in a text whose case folding holds it: every
    character that urlextract's IGNORECASE pattern takes for one of its letters folds to it."""
    everything = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
    for letter in set("localhost"):
        matched = re.findall(letter, everything, re.IGNORECASE)
        assert matched and all(ch.casefold() == letter for ch in matched), letter
    assert _anchor("LocalHoſt", False).search("LocalHoſt")
    assert _anchor("see", True).search("localhost") is None


@pytest.mark.parametrize(
    "text", ["a@b.1", "see a@b.1 and x.com", "x.com and 1.2.3.4", "no anchor", "a@b", "LOCALHOST@x.9"]
)
def test_candidates_anchor_is_the_full_pattern_where_it_can_differ(text: str) -> None:
    """``_anchor`` leaves the ``@`` alternative out of the search of a text without ``@``:
    there the two patterns match alike, and where an ``@`` is, the full pattern is used
    (``a@b.1`` is an anchor only through that alternative)."""
    full = _ANCHORS[True, "localhost" in text.casefold()]
    assert [m.span() for m in _anchor(text, True).finditer(text)] == [m.span() for m in full.finditer(text)]
    assert _anchor("a@b.1", True).search("a@b.1") is not None


@pytest.mark.parametrize(
    "text",
    ["1.2.3.4", "http://10.0.0.1:80/", "x@1.2.3.4", "(192.168.0.1)", "<1.2.3.4>", "1.2.3.255."],
)
def test_ipv4_tokens_are_anchored(text: str) -> None:
    backend = _backend()
    assert backend.plain(text), text  # urlextract links it...
    assert _anchor(text, False).search(text), text  # ...so the token is given to it
    assert backend.find(text) == backend.plain(text)


@pytest.mark.parametrize("text", ["1.2.3", "2.38.50.20220101", "version 1.2.3-4", "x.1 y.255"])
def test_version_numbers_are_not_anchors(text: str) -> None:
    """Tokens whose only hits are urlextract's ".0"-".255" entries and no IPv4 address give nothing."""
    backend = _backend()
    assert backend.plain(text) == []
    assert _anchor(text, True).search(text) is None


@settings(max_examples=800, deadline=None)
@given(
    st.text("ab.-_~+!#$%&*?^" + "@", min_size=1, max_size=12),
    st.text("ab0-.", min_size=1, max_size=10),
    st.sampled_from(["com", "org", "co", "uk", "рф", "1", "255"]),
    st.sampled_from(["", ".", ",", "!", ";", ")", "/", ">", " x", "\n", "'", ":"]),
    st.sampled_from(["", " ", "<", "(", "=", "x", "]", '"', "'"]),
)
def test_email_candidate_is_urlextracts_completion(local: str, domain: str, tld: str, after: str, before: str) -> None:
    """``_follow_email``'s premise: where the shortcut applies, urlextract's completion is
    the candidate's span when its validity check passes, else nothing."""
    extractor = _CandidateURLExtract(extract_email=True, cache_dns=False, limit=None)
    text = f"{before}{local}@{domain}.{tld}{after}"
    tld_pos = len(before) + len(local) + 1 + len(domain)
    email = extractor._email_candidate(text, tld_pos, "." + tld)
    if email is None:
        return
    assert type(email) is _EmailCandidate
    try:
        completed = URLExtract._complete_url(extractor, text, tld_pos, "." + tld)
    except ValueError as exc:  # then in its validity check of the same span
        with pytest.raises(type(exc), match=re.escape(str(exc))):
            extractor._is_domain_valid(str(email), "." + tld)
        return
    valid = extractor._is_domain_valid(str(email), "." + tld)
    assert completed == (email if valid else ""), (text, completed, email)


_LOCALS = ["jane", "a.b", "x?y", "x#y", "a%41", "example.com", "EXAMPLE.COM", "q+r", "~t", "a/b"]
_DOMAINS = ["example.com", "Example.COM", "example.co", "ex-ample.org", "1.2.3.4", "x.1", "-x.com", "a..com"]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(_LOCALS), st.sampled_from(_DOMAINS), st.sampled_from(["", ".", ">", ";"])), max_size=8
    )
)
def test_email_verdicts_shared_by_domain(emails: list[tuple[str, str, str]]) -> None:
    """The dual run keeps urlextract's verdict on an email per domain where the local part
    cannot change it: addresses of one domain with every kind of local part, one backend."""
    backend = UrlExtractBackend()
    for local, domain, after in emails:
        text = f"<{local}@{domain}{after}> and {local}@{domain}{after}"
        assert backend.find_and_candidates(text) == (backend.plain(text), backend._windowed_candidates(text)), text


def test_repeated_windows_are_run_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A window seen before is not given to urlextract again, whatever its offset; after
    ``clear_memo`` it is; the links are the same every time."""
    backend = UrlExtractBackend()
    calls: list[str] = []
    gen_urls = URLExtract.gen_urls

    def spy(self: URLExtract, chunk: str, *args: object, **kwargs: object) -> object:
        calls.append(chunk)
        return gen_urls(self, chunk, *args, **kwargs)

    monkeypatch.setattr(URLExtract, "gen_urls", spy)
    line = " -- Jane Doe <jane@example.org>  Mon, 01 Jan 2024, see https://example.com/a"
    text = "\n".join([line, "filler " * 20, line, "x " + line])
    for run in (backend.find, backend.candidates, backend.find_and_candidates):
        calls.clear()
        first = run(text)
        distinct = len(set(calls))
        assert calls and len(calls) == distinct, run  # each window once, the repeats from the memo
        calls.clear()
        assert run(text) == first and not calls, run
        backend.clear_memo()
        assert run(text) == first and len(calls) == distinct, run
    reference = UrlExtractBackend()
    assert backend.find(text) == reference.plain(text)
    assert backend.candidates(text) == reference._windowed_candidates(text)


def test_window_memo_is_bounded() -> None:
    """At most ``_RUNS`` windows are kept per extractor, none longer than ``_RUN_CHARS``."""
    from uts58_adapt.backends import urlextract

    backend = UrlExtractBackend()
    text = (" " * (GAP + 8)).join(f"a{i}.com" for i in range(urlextract._RUNS + 10))  # one window each
    backend.candidates(text)
    extractor = backend._candidates_extractor()
    assert len(extractor._runs) == 10  # full after _RUNS windows: emptied, then 10 more
    backend.clear_memo()
    long_token = "x" * urlextract._RUN_CHARS + ".com"
    assert backend.candidates(long_token) == backend._windowed_candidates(long_token)
    assert not extractor._runs


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "普", ".", " ", "\n", "\t", "\u3000", "x" * 100, "普" * 200]), max_size=30).map(
        "".join
    )
)
def test_long_run_is_any_run_over_half_a_window(text: str) -> None:
    """``_LONG_RUN`` (tried only where a run starts) finds a text's run of over ``WINDOW // 2``
    code points without ASCII white space exactly when there is one."""
    runs = re.split("[ \t\n\r\x0b\x0c]", text)
    assert (_LONG_RUN.search(text) is not None) == any(len(run) > WINDOW // 2 for run in runs)


DOMAIN_PIECES = [
    "a@",
    "σωκράτης@",
    "x.y@",
    "@",
    "δοκιμή.ελ",
    "пример.рф",
    "example.com",
    "b.co.uk",
    "例え.テスト",
    "l·l.cat",
    "a·b.com",
    "x·пример.рф",
    "·",
    "http://",
    "//",
    "mailto:",
    ".",
    "。",
    "/",
    ":",
    ":8080",
    "/path",
    "(",
    ")",
    "«",
    "»",
    " ",
    "\n",
    "x" * 250,
]


def _detect_both(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from uts58_adapt import detect

    backend = _backend()
    backend.clear_memo()
    skipped = [detect(text, backend, strict_hosts=strict) for strict in (True, False)]
    with monkeypatch.context() as m:
        m.setattr(_CandidateURLExtract, "_skip_domains_after_at", False)
        backend.clear_memo()
        kept = [detect(text, backend, strict_hosts=strict) for strict in (True, False)]
    backend.clear_memo()
    assert skipped == kept, text


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(text=st.lists(st.sampled_from(DOMAIN_PIECES), max_size=14).map("".join))
def test_domains_after_at_are_no_candidates(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A TLD hit left out because its host follows an ``@`` (``_domain_after_at``) gives no link:
    the refined links are those of the candidates with it, on generated text."""
    _detect_both(text, monkeypatch)


def test_domains_after_at_on_the_corpora(monkeypatch: pytest.MonkeyPatch) -> None:
    for text in ["\n".join(sample_lines()), "\n\n".join(dense_paragraphs(20_000))]:
        _detect_both(text, monkeypatch)
