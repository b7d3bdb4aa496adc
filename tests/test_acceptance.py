"""``refine.acceptance``: the library's own answers decide schemes and emails (shared by wrap() and integrations)."""

from __future__ import annotations

from uts58_adapt.backends.base import RawLink
from uts58_adapt.refine.acceptance import (
    WORD_CONTEXT,
    EmailInWord,
    ascii_host,
    email_probe,
    email_word_probe,
    scheme_check,
)
from uts58_adapt.refine.hosts import default_scheme_ok
from uts58_adapt.refine.migration import refine_links


def test_scheme_check_reported_probe_and_fallback() -> None:
    asked: list[tuple[str, str]] = []

    def probe(scheme: str, url: str) -> bool:
        asked.append((scheme, url))
        return scheme == "git:"

    ok = scheme_check(probe)
    # A span that starts with the scheme is no proof the library links the scheme (Django
    # links ms-msdt://x.com as the bare domain http://ms-msdt://x.com): the probe decides.
    assert not ok("myapp:", "intranet", True)
    assert ok("git:", "bücher.de", False)
    assert not ok("ftp:", "bücher.de", False)
    assert ok("git:", "bücher.de", False)  # cached
    assert asked == [
        ("myapp:", "myapp://intranet/"),
        ("git:", "git://xn--bcher-kva.de/"),
        ("ftp:", "ftp://xn--bcher-kva.de/"),
    ]
    # Without a probe (mistune, magiclink: their pattern names their schemes) the span is trusted.
    assert scheme_check(None)("myapp:", "intranet", True)
    assert not scheme_check(None)("http:", "x.com", False)
    assert scheme_check(None, default_scheme_ok)("http:", "x.com", False)
    assert not scheme_check(None, default_scheme_ok)("gopher:", "x.com", False)


def test_email_probe_and_ascii_host() -> None:
    assert email_probe("σωκράτης@example.com") == "a@example.com"
    assert email_probe("MailTo:σ@bücher.de") == "mailto:a@bücher.de"
    # the domain in its "." form: the library decides the host in that form (issue 32 item 4)
    assert email_probe("σ@c.c．m") == email_probe("σ@c｡c。m") == "a@c.c.m"
    assert ascii_host("bücher.de") == "xn--bcher-kva.de"
    assert ascii_host("example.com") == "example.com"


def test_refine_links_accepts_email() -> None:
    text = "σωκράτης@example.com and bob@example.org and ζ@example.org"
    asked: list[str] = []

    def accepts(address: str) -> bool:
        asked.append(address)
        return address.endswith(".org")

    links = refine_links(text, [RawLink(25, 40, "email")], accepts_email=accepts)
    assert [link.text for link in links] == ["bob@example.org", "ζ@example.org"]
    # bob@example.org is the library's own span: not asked; one question per domain
    assert asked == ["a@example.com", "a@example.org"]
    everything = ["σωκράτης@example.com", "bob@example.org", "ζ@example.org"]
    assert [link.text for link in refine_links(text, [])] == everything


def test_library_hosts_without_strict_hosts() -> None:
    text = "see http://localhost:8000/x and gopher://intranet/αβ(γ/δ)ρς."
    raw = [RawLink(4, 27, "url"), RawLink(32, 60, "url")]
    assert refine_links(text, raw) == []  # detect()'s defaults: registrable domains, http/https/ftp
    links = refine_links(text, raw, strict_hosts=False, scheme_ok=scheme_check(None))
    assert [link.text for link in links] == ["http://localhost:8000/x", "gopher://intranet/αβ(γ/δ"]


def test_email_word_probe() -> None:
    """The runs of Link_Term=Include characters around the address, non-ASCII local-part characters
    written "a", "。" written "."; a Soft, Open, Close or Hard character ends the run."""
    text = "voir «jürgen@bücher。de» ok"
    start = text.index("j")
    end = text.index("»")
    assert email_word_probe(text, start, end) == ("jargen@bücher.de", 0, 16)
    text = "see @c@b.jec ok"
    assert email_word_probe(text, 5, 12) == ("@c@b.jec", 1, 8)
    text = "see x/y&σ@e.co_z, ok"
    assert email_word_probe(text, 8, 14) == ("x/y&a@e.co_z", 4, 10)
    # bounded on both sides: a word of thousands of characters gives the library a short one
    text = "x" * 1000 + "σ@e.co" + "y" * 1000
    word, s, e = email_word_probe(text, 1000, 1006)
    assert word == "x" * WORD_CONTEXT + "a@e.co" + "y" * WORD_CONTEXT and (s, e) == (WORD_CONTEXT, WORD_CONTEXT + 6)


def test_email_in_word_check() -> None:
    """An EmailInWord check is asked with the word, once per word; the library's own span is not asked."""
    asked: list[tuple[str, int, int]] = []

    def answer(word: str, start: int, end: int) -> bool:
        asked.append((word, start, end))
        return not word.startswith("@")

    text = "σ@example.org @ζ@example.org bob@example.org σ@example.org"
    links = refine_links(text, [RawLink(29, 44, "email")], accepts_email=EmailInWord(answer))
    assert [link.text for link in links] == ["σ@example.org", "bob@example.org", "σ@example.org"]
    assert asked == [("a@example.org", 0, 13), ("@a@example.org", 1, 14)]
    # Called as a plain EmailCheck (an address alone): that address is its own word.
    assert EmailInWord(answer)("a@b.co") and asked[-1] == ("a@b.co", 0, 6)


def test_email_in_word_is_asked_from_the_librarys_start_over_the_address() -> None:
    """The span asked about starts at the address, or where the library's own span over the
    address's start starts (clamped to the word): the check may refuse a library email that
    starts before it (issue 32: ``/.emailto:a@e.om``), and ``x.emailto:a@e.om``, which the library
    links whole, keeps its refined ``mailto:a@e.om``."""
    asked: list[tuple[str, int, int]] = []

    def answer(word: str, start: int, end: int) -> bool:
        asked.append((word, start, end))
        return True

    refine_links("/.emailto:a@e.om", [], accepts_email=EmailInWord(answer))
    assert asked == [("emailto:a@e.om", 1, 14)]
    asked.clear()
    text = "x.emailto:a@e.om"
    links = refine_links(text, [RawLink(0, 16, "email")], accepts_email=EmailInWord(answer))
    assert [link.text for link in links] == ["mailto:a@e.om"]
    assert asked == [("emailto:a@e.om", 0, 14)]
