"""§5.2 email detection (Table 5-1) and §5.3 minimal quoting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uts58_adapt import email_start, quote_local_part
from uts58_adapt.refine.migration import MAX_LOCAL_PART, _email_start


def _start(text: str):
    return email_start(text, text.index("@"))


@pytest.mark.parametrize(
    ("text", "link_start"),
    [
        # Table 5-1
        ("Contact abcd@example.com", "abcd@"),
        ("Contact x.abcd@example.com", "x.abcd@"),
        ("Contact アルベルト.アルベルト@example.com", "アルベルト.アルベルト@"),
        ("Contact σωκράτης@example.com", "σωκράτης@"),
        # mailto: is included
        ("See mailto:αβγ.δεζ@example.com on", "mailto:αβγ.δεζ@"),
        ("See MAILTO:a@example.com", "MAILTO:a@"),
        # ASCII specials of RFC 5322 atext
        ("(x!#$%&'*+/=?^_`{|}~-y@example.com)", "x!#$%&'*+/=?^_`{|}~-y@"),
        # scanning stops at the first non-Link_Email character
        ('"john\\ doe"x@example.com', "x@"),
        ("name:bob@example.com", "bob@"),
    ],
)
def test_detected(text, link_start):
    start = _start(text)
    assert start is not None
    assert text[start:].startswith(link_start)
    assert start == text.index(link_start)


@pytest.mark.parametrize(
    "text",
    [
        "Contact @example.com",  # no local part
        "@example.com",  # @ at the start
        "Contact john.@example.com",  # ends with .
        "Contact john..doe@example.com",  # contains ..
        "Contact .john.doe@example.com",  # starts with .
        "See mailto:.αβγ@example.com",
        'See "john\\ doe"@example.com',  # quoted local parts are out of scope
        "a b@example.com".replace("b", " "),
    ],
)
def test_fails(text):
    assert _start(text) is None


def test_argument_errors():
    with pytest.raises(ValueError, match=r"text\[1\] is not an '@'"):
        email_start("abc", 1)
    with pytest.raises(ValueError, match=r"text\[5\] is not an '@'"):
        email_start("a@b", 5)
    with pytest.raises(TypeError, match="text"):
        email_start(None, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="at"):
        email_start("a@b", 1.0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("local", "quoted"),
    [
        ("john.doe", "john.doe"),
        ("σωκράτης", "σωκράτης"),
        ("x!#$%&'*+/=?^_`{|}~-y", "x!#$%&'*+/=?^_`{|}~-y"),
        ("john doe", '"john doe"'),
        ('say"hi', '"say\\"hi"'),
        ("back\\slash", '"back\\\\slash"'),
        ("john..doe", '"john..doe"'),
        (".john", '".john"'),
        ("john.", '"john."'),
        ("", '""'),
        ("a@b", '"a@b"'),
    ],
)
def test_quote_local_part(local, quoted):
    assert quote_local_part(local) == quoted


def test_quote_rejects_controls():
    with pytest.raises(ValueError, match="U\\+000A"):
        quote_local_part("a\nb")
    with pytest.raises(TypeError, match="local"):
        quote_local_part(3)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# refine_links' windowed email_start (a regex on the reversed window) against email_start
# ---------------------------------------------------------------------------
_PIECES = st.sampled_from(
    [
        "a",
        "Z",
        "7",
        ".",
        "..",
        "-",
        "+",
        "σ",
        "ア",
        "\U00020000",
        "\U0001f600",
        " ",
        ":",
        "<",
        "mailto:",
        "MAILTO:",
        "MaIlTo:",
        "maılto:",
        "mailto",
        "@",
        "\u00a0",
        "\ud800",
    ]
)


def _check_windowed(text: str) -> None:
    for at, ch in enumerate(text):
        if ch != "@":
            continue
        got = _email_start(text, at)
        want = email_start(text, at)
        if want is not None and at - want <= MAX_LOCAL_PART:
            assert got == want, (text, at)
        elif want is None or at - want > MAX_LOCAL_PART + len("mailto:"):
            assert got is None, (text, at)
        else:  # a local part at the limit: either answer, but only email_start's
            assert got in (None, want), (text, at)


@settings(max_examples=600, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_windowed_email_start_matches_email_start(text: str) -> None:
    _check_windowed(text + "@x")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_PIECES, max_size=12).map("".join),
    st.integers(MAX_LOCAL_PART - 12, MAX_LOCAL_PART + 12),
    st.sampled_from(["a", "σ", "\U00020000", "a."]),
)
def test_windowed_email_start_at_the_window_edge(prefix: str, length: int, unit: str) -> None:
    local = (unit * length)[:length].lstrip(".") or "a"
    _check_windowed(prefix + local + "@x")


# --- magiclink: an "@" whose domain can only be one label is no email (issue 32, timing screen) ---

_AT_PIECES = ["a", "b", "1", "0x", "@", ".", "\u3002", "\uff61", " ", "\n", "*", "_", "-", "é", "σ", "co", "mailto:"]


def _magiclink(shortcut: bool, strict_hosts: bool = False) -> Callable[[str], str]:
    markdown = pytest.importorskip("markdown")
    pytest.importorskip("pymdownx")
    from uts58_adapt.integrations import magiclink

    class Always(magiclink.RefinedMailPattern):  # type: ignore[misc]
        def _one_label_domain(self, data: str, at: int) -> bool:
            return False

    md = markdown.Markdown(extensions=[magiclink.UTS58MagiclinkExtension(strict_hosts=strict_hosts)])
    if not shortcut:
        old = md.inlinePatterns["magic-mail"]
        new = Always("@", md)
        new.config = old.config
        md.inlinePatterns.register(new, "magic-mail", 84.9)
    return lambda text: str(md.reset().convert(text))


@pytest.mark.parametrize("strict_hosts", [False, True])
@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(st.sampled_from(_AT_PIECES), max_size=30))
def test_magiclink_one_label_shortcut_changes_nothing(strict_hosts: bool, pieces: list[str]) -> None:
    text = "".join(pieces)
    assert _magiclink(True, strict_hosts)(text) == _magiclink(False, strict_hosts)(text)


@pytest.mark.parametrize(
    "text",
    ["a@b.co a@1 a@0x1f a@b。co a@b｡co a@b", "x@127 y@b.c@d.e *a@b.co* mailto:a@b.co a@b.co.", "a@" * 40 + "b.co"],
)
def test_magiclink_one_label_shortcut_cases(text: str) -> None:
    assert _magiclink(True)(text) == _magiclink(False)(text)


def test_magiclink_skips_one_label_domains_without_refining(monkeypatch: pytest.MonkeyPatch) -> None:
    convert = _magiclink(True)
    from uts58_adapt.integrations import magiclink

    calls: list[int] = []
    original = magiclink.RefinedMailPattern._email_at

    def counted(self: Any, data: str, lo: int, hi: int, at: int) -> Any:
        calls.append(at)
        return original(self, data, lo, hi, at)

    monkeypatch.setattr(magiclink.RefinedMailPattern, "_email_at", counted)
    convert("a@" * 200 + " x@y z@1.2 q@1 w@b.co")
    # z@1.2 and w@b.co, and q@1 (one label, but an IPv4 number): the others have one label
    assert len(calls) == 3
