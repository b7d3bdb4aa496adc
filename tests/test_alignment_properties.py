"""Property tests: the §4 alignment promise between minimal escaping (§4.1) and detection (§3.5.1).

"The minimally escaped result ... is completely link-detected when isolated": for
any URL produced by ``format_url`` or ``minimal_escape``, the termination
algorithm started right after the host (and port) ends exactly at the end of the
URL, whether the URL is followed by a space or by the end of the text.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uts58_adapt.refine.escaping import format_url, minimal_escape
from uts58_adapt.refine.termination import terminate

SETTINGS = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# (scheme as given, as displayed) and (host as given, as displayed); the displayed
# forms are written out here, not computed by the library.
SCHEMES = [("https://", "https://"), ("https", "https://"), ("HTTP://", "http://"), ("", ""), ("mailto:", "mailto:")]
HOSTS = [
    ("example.com", "example.com"),
    ("xn--bcher-kva.de", "bücher.de"),
    ("XN--BCHER-KVA.de:8080", "bücher.de:8080"),
    ("localhost:8080", "localhost:8080"),
    ("user@x.org", "user@x.org"),
    ("[::1]", "[::1]"),
]

# Characters that matter to §3.5.1 / §4.1, mixed with arbitrary code points of every
# plane (surrogates included).
SPECIAL = list(".,:;!?'\"()[]{}<>/#&=+%~ \t\n\\") + [
    "%2F",
    "%41",
    "%4",
    "%C2",
    "%CE%B1",
    "%ff",
    "%25",
    "%3A",
    "%7E",
    ":~:",
    "「",
    "」",
    "«",
    "»",
    "\u0f0d",
    "\uff1f",
    "\u00a0",
    "\u200b",
    "\u202e",
    "\ufffd",
    "\U0001f600",
    "\U000e0001",
    "\U0010ffff",
    "\ud800",
    "\udcff",
    "\u0378",
    "(" * 130,
    ")" * 3,
]
any_char = st.characters(blacklist_categories=())
chunk = st.one_of(st.text(any_char, max_size=6), st.sampled_from(SPECIAL))
data_text = st.lists(chunk, max_size=5).map("".join)


def _check_aligned(url: str, prefix_and_host: str) -> None:
    for before, after in (("See ", " now"), ("See ", ""), ("", "\n")):
        text = before + url + after
        host_end = len(before) + len(prefix_and_host)
        assert url.startswith(prefix_and_host)
        end = terminate(text, host_end)
        assert end == len(before) + len(url), (url, text[end:])


@SETTINGS
@given(
    scheme=st.sampled_from(SCHEMES),
    host=st.sampled_from(HOSTS),
    path=st.lists(data_text, max_size=3),
    query=st.lists(st.tuples(data_text, st.none() | data_text), max_size=2),
    fragment=st.none() | data_text,
    directives=st.lists(data_text, max_size=2),
)
def test_format_url_is_detected_completely(scheme, host, path, query, fragment, directives) -> None:
    url = format_url(scheme[0], host[0], path, query, fragment, directives)
    _check_aligned(url, scheme[1] + host[1])
    url.encode("utf-8")  # no lone surrogates left
    # Both entry points agree: a formatted URL is already minimal.
    assert minimal_escape(url) == url


initiator = st.sampled_from(["/", "?", "#", "#:~:", "/a?", "?a#"])


# As written at the start of a URL string (no bare "https").
RAW_SCHEMES = [("https://", "https://"), ("HTTP://", "http://"), ("", ""), ("//", "//"), ("mailto:", "mailto:")]


@SETTINGS
@given(scheme=st.sampled_from(RAW_SCHEMES), host=st.sampled_from(HOSTS), start=initiator, rest=data_text)
def test_minimal_escape_is_detected_completely(scheme, host, start, rest) -> None:
    url = scheme[0] + host[0] + start + rest
    out = minimal_escape(url)
    _check_aligned(out, scheme[1] + host[1])
    assert minimal_escape(out) == out


@SETTINGS
@given(text=st.text(any_char, max_size=40), data=st.data())
def test_terminate_stays_in_range(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(min_value=0, max_value=len(text)))
    end = terminate(text, start)
    assert start <= end <= len(text)


url_like = st.lists(
    st.one_of(st.text(any_char, max_size=5), st.sampled_from(SPECIAL + ["https://", "xn--bcher-kva", "@", "8080"])),
    max_size=12,
).map("".join)


@SETTINGS
@given(text=st.one_of(st.text(any_char), url_like))
def test_minimal_escape_total_and_idempotent(text: str) -> None:
    once = minimal_escape(text)
    assert isinstance(once, str)
    once.encode("utf-8")  # never returns lone surrogates
    assert minimal_escape(once) == once
