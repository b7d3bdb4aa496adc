"""Property-based tests (hypothesis).

1. ``terminate`` (which skips runs of code points with a regular expression) gives exactly
   the result of a literal transcription of UTS #58 §3.5.1 written here.
2. The public functions never raise on arbitrary text (all planes, lone surrogates,
   NUL, controls), and ``detect`` returns spans in bounds, sorted and non-overlapping.
3. A URL written by ``format_url``/``minimal_escape`` is detected whole when isolated
   between spaces (the goal of §4: "completely link-detected when isolated").
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from uts58_adapt import LinkTerm, email_start, link_bracket, link_term, terminate

# ---------------------------------------------------------------------------
# A straightforward reference for §3.5.1, transcribed from the text of the standard
# (with lastSafe starting at ``start``, see NOTES.md), using only the public
# property functions.  Part -> (initiator, terminators, ClearStackOpen), Table 3-3.
# ---------------------------------------------------------------------------
REF_PARTS = {
    "path": ("/", ("?", "#"), ("/",)),
    "query": ("?", ("#",), ("=", "&")),
    "fragment": ("#", (":~:",), ()),
    "directive": (":~:", (), ("&", ",", ":~:")),
}
REF_LIMIT = 125


def reference_terminate(text: str, start: int) -> int:
    n = len(text)
    last_safe = start
    part: str | None = None
    previous_part: str | None = None
    open_stack: list[str] = []
    i = start
    while i < n:
        if part is not None and any(text.startswith(t, i) for t in REF_PARTS[part][1]):
            previous_part, part = part, None
        if part is None:
            for name, (initiator, _, _) in REF_PARTS.items():
                if text.startswith(initiator, i):
                    part = name
                    break
            else:
                return last_safe
            if part == "directive" and previous_part not in ("fragment", "directive"):
                return last_safe
            i += len(REF_PARTS[part][0])
            last_safe = i
            open_stack.clear()
            continue
        clear = next((s for s in REF_PARTS[part][2] if text.startswith(s, i)), None)
        if clear is not None:
            i += len(clear)
            last_safe = i
            open_stack.clear()
            continue
        lt = link_term(text[i])
        if lt is LinkTerm.INCLUDE:
            last_safe = i + 1
        elif lt is LinkTerm.SOFT:
            pass
        elif lt is LinkTerm.HARD:
            return last_safe
        elif lt is LinkTerm.OPEN:
            if len(open_stack) == REF_LIMIT:
                return last_safe
            open_stack.append(text[i])
            last_safe = i + 1
        else:  # Close
            if not open_stack:
                return last_safe
            if link_bracket(text[i]) != open_stack.pop():
                return last_safe
            last_safe = i + 1
        i += 1
    return last_safe


# ---------------------------------------------------------------------------
# Text strategies
# ---------------------------------------------------------------------------
STRUCTURAL = ["/", "?", "#", "=", "&", ",", ":", "~", ":~:", "#:~:", ":~", "~:"]
BRACKETS = list("()[]{}<>") + ["（", "）", "「", "」", "⟨", "⟩", "«", "»", "\u0f3a", "\u0f3b", "⸢", "⸣"]
SOFT = list(".!\"';?,:") + ["。", "、", "‼", "\u2019", "\u201d", "\u00bb", "\U00011047"]  # last: astral Soft
HARD = [
    " ",
    "\t",
    "\n",
    "\r",
    "\x00",
    "\x1f",
    "\x7f",
    "\x85",
    "\u00a0",
    "\u2028",
    "\u3000",
    "\ufffe",
    "\uffff",
    "\U0010ffff",
    "\u0378",
    "\U000e0000",
]  # last three: noncharacter, unassigned, unassigned astral
INCLUDE = list("aZ09-_%@+$*|\\^`") + ["é", "ß", "д", "漢", "\u200d", "\u200e", "\ufeff", "\uf8ff"]
ASTRAL = [
    "\U0001f600",
    "\U00020000",
    "\U0002a6df",
    "\U00010000",
    "\U0001d400",
    "\U00013000",
    "\U000e0100",
    "\U00016fe4",
    "\U0001f3fb",
]
SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"]
TOKENS = (
    STRUCTURAL
    + BRACKETS
    + SOFT
    + HARD
    + INCLUDE
    + ASTRAL
    + SURROGATES
    + [
        "http://",
        "x.com",
        "%2E",
        "(" * 124,
        "(" * 125,
        ")" * 125,
        "a" * 40,
        "." * 20,
    ]
)

any_char = st.characters(min_codepoint=0, max_codepoint=0x10FFFF)  # includes surrogates, NUL, controls
link_text = st.lists(st.one_of(st.sampled_from(TOKENS), any_char), max_size=40).map("".join)
any_text = st.one_of(st.text(any_char, max_size=60), link_text)


@st.composite
def text_and_start(draw: st.DrawFn) -> tuple[str, int]:
    text = draw(link_text)
    return text, draw(st.integers(0, len(text)))


# ---------------------------------------------------------------------------
# 1. terminate == the reference
# ---------------------------------------------------------------------------
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text_and_start())
@example(("x.com/a(b)c.", 5))
@example(("x.com/" + "(" * 125 + "a", 5))
@example(("x.com/" + "(" * 126 + "a", 5))
@example(("x.com#a:~:text=x(y,z)&w.", 5))
@example(("x.com?a:~:b", 5))
@example(("x.com/a\U00010000\U00010000.\U0001f600", 5))
@example(("x.com/a\ud800b", 5))
@example(("x.com/(a/b)", 5))
@example(("x.com#:~:(a,b)", 5))
@example(("x.com/a.b..c?d.,e=(f&g)#h/?#i:~:j,k&l:~:m(:~:)", 5))
def test_terminate_matches_reference(case: tuple[str, int]) -> None:
    text, start = case
    end = terminate(text, start)
    assert end == reference_terminate(text, start)
    assert start <= end <= len(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=30).map("".join))
def test_terminate_matches_reference_after_a_host(tail: str) -> None:
    text = "see https://example.com" + tail
    assert terminate(text, 23) == reference_terminate(text, 23)


def test_terminate_matches_reference_on_detection_test_file() -> None:
    """Every '/', '?' and '#' of the official test lines, taken as the end of a host."""
    from conftest import detection_cases

    cases = detection_cases()
    if not cases:
        pytest.skip("LinkDetectionTest.txt not found")
    checked = 0
    for _, line in cases:
        text = line.replace("\u2e20", "").replace("\u2e21", "")
        for i, ch in enumerate(text):
            if ch in "/?#":
                assert terminate(text, i) == reference_terminate(text, i), (text, i)
                checked += 1
    assert checked > 100


# ---------------------------------------------------------------------------
# 2. Never raise on arbitrary text
# ---------------------------------------------------------------------------
@settings(max_examples=500, deadline=None)
@given(any_text)
def test_email_start_never_raises(text: str) -> None:
    for at, ch in enumerate(text):
        if ch == "@":
            result = email_start(text, at)
            assert result is None or 0 <= result < at


@settings(max_examples=500, deadline=None)
@given(any_text)
def test_minimal_escape_never_raises(text: str) -> None:
    from uts58_adapt import minimal_escape

    out = minimal_escape(text)
    assert isinstance(out, str)
    out.encode("utf-8")  # no lone surrogates left


def _check_spans(text: str, links: list) -> None:  # type: ignore[type-arg]
    previous_end = 0
    for link in links:
        assert 0 <= link.start < link.end <= len(text), link
        assert link.start >= previous_end, f"overlapping or unsorted: {links}"
        assert link.text == text[link.start : link.end]
        assert link.kind in ("url", "email")
        previous_end = link.end


@pytest.mark.parametrize("backend", ["linkify-it", "urlextract"])
@pytest.mark.parametrize("refine", [True, False], ids=["refined", "raw"])
def test_detect_never_raises_and_spans_are_sane(backend: str, refine: bool) -> None:
    from uts58_adapt import detect

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.one_of(any_text, st.lists(st.sampled_from(DETECT_TOKENS), max_size=25).map("".join)))
    @example("a@b.co x.com/(a) mailto:c@d.org,\ud800e.com\x00f.net/\U0001f600.")
    def run(text: str) -> None:
        _check_spans(text, detect(text, backend=backend, refine=refine))

    run()


# Pieces of link-like text for detect: hosts, schemes, emails and the TOKENS above.
DETECT_TOKENS = TOKENS + [
    "example.com",
    "www.example.org",
    "https://",
    "mailto:",
    "a.b@c.io",
    "@",
    ".",
    "xn--p1ai",
    "例え.jp",
    "user@",
    ":8080",
    "192.168.0.1",
    "[::1]",
    "ftp://",
    "//",
    "。",
    "ｅｘａｍｐｌｅ．ｃｏｍ",
]

# ---------------------------------------------------------------------------
# 3. Minimal escaping round trip: the formatted URL alone is detected whole
# ---------------------------------------------------------------------------
data_text = st.one_of(
    st.text(any_char, max_size=12),
    st.lists(st.sampled_from(TOKENS + ["%", "%2", "%41", "%zz", "+", " "]), max_size=8).map("".join),
)


@st.composite
def formatted_urls(draw: st.DrawFn) -> str:
    from uts58_adapt import format_url

    return format_url(
        draw(st.sampled_from(["https", "http://", ""])),
        draw(st.sampled_from(["example.com", "www.example.org", "example.com:8080", "xn--r8jz45g.jp"])),
        path=draw(st.lists(data_text, max_size=4)),
        query=draw(st.lists(st.tuples(data_text, st.one_of(st.none(), data_text)), max_size=3)),
        fragment=draw(st.one_of(st.none(), data_text)),
        directives=draw(st.lists(data_text, max_size=2)),
    )


def full_escape(url: str) -> str:
    """Percent-encode the path, query and fragment but their ASCII structure, as in a browser's href.

    The scheme and host are left alone (hosts are not percent-decoded, §4.1 "as is customary").
    """
    from urllib.parse import quote

    authority = url.find("://") + 3 if "://" in url else 0
    end = min((i for i in (url.find(c, authority) for c in "/?#") if i >= 0), default=len(url))
    return url[:end] + quote(url[end:], safe="%/:?#[]@!$&'()*+,;=~", errors="surrogatepass")


@pytest.mark.parametrize("backend", ["linkify-it", "urlextract"])
def test_formatted_url_is_detected_whole(backend: str) -> None:
    from uts58_adapt import detect, format_url, minimal_escape

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(formatted_urls())
    @example(format_url("https", "example.com", path=["a."]))
    @example(format_url("", "example.com", path=["(a]", "b)"], query=[("c", "[d")], fragment="e:~:f"))
    @example(format_url("https", "example.com", query=[("a", "b?")], directives=["text=x,y", "&"]))
    def run(url: str) -> None:
        for candidate in (url, minimal_escape(url), minimal_escape(full_escape(url))):
            text = " " + candidate + " "
            links = detect(text, backend=backend, max_length=None)  # no length limit here
            assert [(link.start, link.end) for link in links] == [(1, 1 + len(candidate))], (candidate, links)

    run()
