"""§3.5.1 termination: official LinkDetectionTest.txt lines and the examples of §3."""

from __future__ import annotations

import re

import pytest

from uts58_adapt import terminate

from conftest import CLOSE_MARK, OPEN_MARK, detection_cases, require_data

# A link that starts with an optional scheme and a plain ASCII host (and port): the
# host end is found by this independent pattern, then ``terminate`` must find the end.
ASCII_HOST = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+\.?(?::[0-9]+)?")
MARKED = re.compile(f"{OPEN_MARK}([^{CLOSE_MARK}]*){CLOSE_MARK}")


def _url_links():
    """(id, plain text, host end, expected end) for every marked URL link with an ASCII host."""
    out = []
    for lineno, line in detection_cases():
        for m in MARKED.finditer(line):
            link = m.group(1)
            host = ASCII_HOST.match(link)
            if not host or "@" in link[: host.end() + 1]:
                continue  # emails, non-ASCII hosts: not a termination-only case
            # A host match that stops inside a label is not a plain ASCII host.
            if host.end() < len(link) and link[host.end()] not in "/?#":
                continue
            start = len(line[: m.start()].replace(OPEN_MARK, "").replace(CLOSE_MARK, ""))
            plain = line.replace(OPEN_MARK, "").replace(CLOSE_MARK, "")
            out.append((f"line{lineno}:{link[:40]}", plain, start + host.end(), start + len(link)))
    return out


CASES = _url_links()


def test_official_cases_found():
    require_data("17.0.0", "linkification", "LinkDetectionTest.txt")
    assert len(CASES) >= 250, f"only {len(CASES)} URL links with an ASCII host found"


@pytest.mark.parametrize(("plain", "host_end", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_official_termination(plain, host_end, expected):
    got = terminate(plain, host_end)
    assert got == expected, (
        f"ends at {got} ({plain[host_end:got]!r}), expected {expected} ({plain[host_end:expected]!r})"
    )


def _end(text: str, link_prefix: str) -> str:
    """Run terminate on ``text`` from the end of ``link_prefix`` (scheme + host) and return the link."""
    start = text.index(link_prefix)
    return text[start : terminate(text, start + len(link_prefix))]


@pytest.mark.parametrize(
    ("text", "host", "link"),
    [
        # §3 Soft characters
        ("See abc.com?def!", "abc.com", "abc.com?def"),
        ("See abc.com?def!ghi", "abc.com", "abc.com?def!ghi"),
        ("x.com/wiki/Einstein!! abc", "x.com", "x.com/wiki/Einstein"),
        ("x.com/wiki/Einstein?? abc", "x.com", "x.com/wiki/Einstein?"),  # the first ? starts a query
        ("x.com/wiki/Einstein??abc", "x.com", "x.com/wiki/Einstein??abc"),
        ("x.com/path。", "x.com", "x.com/path"),
        # a part initiator is included (NOTES.md)
        ("x.com/abc? yes", "x.com", "x.com/abc?"),
        # §3 closing brackets
        ("(See abc.com?def=a). And", "abc.com", "abc.com?def=a"),
        ("See abc.com?def=(a). And", "abc.com", "abc.com?def=(a)"),
        (
            "ja.wikipedia.org/wiki/(アルベルト)アインシュタイン)",
            "ja.wikipedia.org",
            "ja.wikipedia.org/wiki/(アルベルト)アインシュタイン",
        ),
        ("(ja.wikipedia.org/wiki/アルベルト)アイン", "ja.wikipedia.org", "ja.wikipedia.org/wiki/アルベルト"),
        ("x.com/a[b)c", "x.com", "x.com/a[b"),
        ("x.com/«a»", "x.com", "x.com/«a"),  # « » are Soft quotation marks, not brackets
        ("x.com/「a」", "x.com", "x.com/「a」"),
        # ClearStackOpen: a bracket never matches across a separator
        ("example.com/αβ(γ/δ)ρς", "example.com", "example.com/αβ(γ/δ"),
        ("example.com?a(=)b", "example.com", "example.com?a(="),
        ("example.com?a=b(&)c", "example.com", "example.com?a=b(&"),
        # terminators: ? and # end a path, # ends a query, ? is ordinary text in a query/fragment
        ("x.com/a?b?c#d?e", "x.com", "x.com/a?b?c#d?e"),
        ("x.com/a#b#c", "x.com", "x.com/a#b#c"),
        # fragment directives
        ("x.com#a:~:text=(b)", "x.com", "x.com#a:~:text=(b)"),
        ("x.com#a(b:~:text=c)d", "x.com", "x.com#a(b:~:text=c"),
        ("x.com#:~:text=a(,b)", "x.com", "x.com#:~:text=a(,b"),
        ("x.com#:~:text=a&text=(b)", "x.com", "x.com#:~:text=a&text=(b)"),
        ("x.com/a:~:(b)", "x.com", "x.com/a:~:(b)"),  # :~: is plain text outside a fragment
        ("x.com:~:text", "x.com", "x.com"),  # no part: stop at the host
        # host only: last_safe starts at the host end
        ("example.com, and", "example.com", "example.com"),
        ("example.com.", "example.com", "example.com"),
        # Hard characters
        ("x.com/a\u00a0b", "x.com", "x.com/a"),
        ("x.com/a\nb", "x.com", "x.com/a"),
        ("x.com/a\ud800b", "x.com", "x.com/a"),
        # Include: format characters and Include punctuation
        ("x.com/a\u200db-c_d~e", "x.com", "x.com/a\u200db-c_d~e"),
    ],
)
def test_spec_examples(text, host, link):
    assert _end(text, host) == link


def test_stack_limit_125():
    ok = "x.com/" + "(" * 125 + ")" * 125
    assert terminate(ok, 5) == len(ok)
    over = "x.com/" + "(" * 126 + ")" * 126
    assert terminate(over, 5) == len("x.com/") + 125  # stops before the 126th open bracket


def test_end_of_text_drops_trailing_soft_run():
    text = "x.com/abc.,;:!"
    assert terminate(text, 5) == len("x.com/abc")
    text = "x.com/abc?d.,;:!?"
    assert terminate(text, 5) == len("x.com/abc?d")


def test_bounds_and_types():
    assert terminate("", 0) == 0
    assert terminate("abc", 3) == 3
    with pytest.raises(ValueError, match=r"start=4 is outside the text \(length 3\)"):
        terminate("abc", 4)
    with pytest.raises(ValueError, match=r"start=-1 is outside the text \(length 3\)"):
        terminate("abc", -1)
    with pytest.raises(TypeError, match="text"):
        terminate(b"x.com/a", 5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="start"):
        terminate("x.com/a", "5")  # type: ignore[arg-type]


# --- migration._url_end: the backend's end kept where §3.5.1 gives the same -------------------


_URL_PIECES = [
    "/",
    "?",
    "#",
    ":~:",
    "a",
    "é",
    "(",
    ")",
    "[",
    "]",
    "「",
    "」",
    ".",
    ",",
    "!",
    "'",
    '"',
    "。",
    "、",
    "»",
    "=",
    "&",
    ":",
    "~",
    " ",
    "\n",
    "\u3000",
    "\x00",
    "𝐀",
    "\U0001f600",
    "\U000e0001",
    "ـ",
]


def _url_end_check(text: str) -> None:
    from uts58_adapt.refine.hosts import HostMatch
    from uts58_adapt.refine.migration import _url_end

    for start in range(len(text) + 1):
        expected = terminate(text, start)
        hm = HostMatch(0, 0, start, start, "", "x")
        for raw_end in range(start, len(text) + 1):
            assert _url_end(text, hm, raw_end) == expected, (text, start, raw_end)


def test_url_end_is_terminate_on_generated_text() -> None:
    """Wherever the backend ended a URL, ``_url_end`` gives what §3.5.1 gives (hypothesis-free
    here: every start and backend end over seeded texts of the pieces that matter)."""
    import random

    for text in ("/x#y:~:z, w", "/x#y:~:z,」", "/a?b=c&d, e", "/a?b#c:~:d&e. f", "/p/q?r. s", "/p#f:~:", "/a.!) b"):
        _url_end_check(text)
    rng = random.Random(58)
    for _ in range(150):
        _url_end_check("".join(rng.choice(_URL_PIECES) for _ in range(rng.randint(1, 14))))


def test_url_end_is_terminate_on_the_dense_corpus() -> None:
    from uts58_adapt.backends import get_backend
    from uts58_adapt.refine.hosts import url_host
    from uts58_adapt.refine.migration import _url_end

    from conftest import dense_paragraphs

    backend = get_backend("linkify-it")
    checked = 0
    for text in dense_paragraphs(30_000):
        for raw in backend.find(text):
            hm = url_host(text, raw.start, raw.end, scheme_length=raw.scheme_length)
            if hm is not None:
                assert _url_end(text, hm, raw.end) == terminate(text, hm.end), (text, raw)
                checked += 1
    assert checked > 100
