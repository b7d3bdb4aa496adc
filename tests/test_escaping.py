"""UTS #58 §4 / §4.1 minimal escaping: examples from the standard and hand-checked cases.

Every expected value here is written out by hand from the text of §4 and §4.1
(and NOTES.md), not produced by the code under test.
"""

from __future__ import annotations

import argparse
import io
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uts58_adapt.commands import escape as escape_command
from uts58_adapt.refine.escaping import format_url, minimal_escape, minimal_escape_part, percent_escape
from uts58_adapt.refine.termination import DIRECTIVE, FRAGMENT, PATH, QUERY, STACK_LIMIT

# --- §4 examples -----------------------------------------------------------


def test_spec_example_trailing_soft() -> None:
    # §4: "abc.com/path1./path2." would serialize as "abc.com/path1./path2%2E".
    assert minimal_escape("abc.com/path1./path2.") == "abc.com/path1./path2%2E"
    assert format_url("", "abc.com", ["path1.", "path2."]) == "abc.com/path1./path2%2E"


def test_spec_example_bucher() -> None:
    # §4: bücher.de/bücher should appear, not xn--bcher-kva.de/b%C3%BCcher.
    assert minimal_escape("xn--bcher-kva.de/b%C3%BCcher") == "bücher.de/bücher"
    assert minimal_escape("https://xn--bcher-kva.de/b%C3%BCcher") == "https://bücher.de/bücher"
    assert minimal_escape("bücher.de/bücher") == "bücher.de/bücher"
    assert format_url("https", "xn--bcher-kva.de", ["bücher"]) == "https://bücher.de/bücher"


# --- percent-decoding and what stays escaped --------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://x.com/%41", "https://x.com/A"),
        ("https://x.com/%ce%b1", "https://x.com/α"),
        ("https://x.com/a%2Fb", "https://x.com/a%2Fb"),
        ("https://x.com/a%2fb", "https://x.com/a%2Fb"),
        ("https://x.com/a%3Fb%23c", "https://x.com/a%3Fb%23c"),
        ("https://x.com/a%5Cb", "https://x.com/a%5Cb"),
        ("https://x.com/a%26b%3D%2B", "https://x.com/a&b=+"),
        ("https://x.com?a%26b=c%3Dd%23e%2Bf", "https://x.com?a%26b=c%3Dd%23e%2Bf"),
        ("https://x.com?a%2Fb%3Fc", "https://x.com?a/b?c"),
        ("https://x.com#a%23b%3Fc", "https://x.com#a#b?c"),
        ("https://x.com#a%3A~%3Ab", "https://x.com#a%3A~:b"),
        ("https://x.com#a:%7E:b", "https://x.com#a:%7E:b"),
        ("https://x.com#f:~:text=a%2Cb%26c", "https://x.com#f:~:text=a%2Cb%26c"),
        ("https://x.com/a%20b", "https://x.com/a%20b"),
        ("https://x.com/a%0Ab%00", "https://x.com/a%0Ab%00"),
        ("https://x.com/a b", "https://x.com/a%20b"),
    ],
)
def test_decoding_keeps_syntax_escapes(url: str, expected: str) -> None:
    assert minimal_escape(url) == expected


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://x.com/%FF", "https://x.com/%FF"),
        ("https://x.com/%ff", "https://x.com/%FF"),
        ("https://x.com/%C2%C2", "https://x.com/%C2%C2"),
        ("https://x.com/%E2%82", "https://x.com/%E2%82"),
        ("https://x.com/%C2%C2%A0", "https://x.com/%C2%C2%A0"),  # invalid C2, then NBSP (Hard)
        ("https://x.com/%E2%82%AC%FF%CE%B1", "https://x.com/€%FFα"),
        ("https://x.com/%ED%A0%80", "https://x.com/%ED%A0%80"),  # encoded surrogate: not UTF-8
    ],
)
def test_invalid_utf8_stays_escaped(url: str, expected: str) -> None:
    assert minimal_escape(url) == expected


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://x.com/100%", "https://x.com/100%"),
        ("https://x.com/100%zz", "https://x.com/100%zz"),
        ("https://x.com/a%4", "https://x.com/a%4"),
        ("https://x.com/%2541", "https://x.com/%2541"),
        ("https://x.com/%25zz", "https://x.com/%zz"),
        ("https://x.com/%25", "https://x.com/%"),
        ("https://x.com/%%41%42", "https://x.com/%25AB"),  # the bare % would start %AB
        ("https://x.com/%25%41%42", "https://x.com/%25AB"),
        ("https://x.com/%%20", "https://x.com/%%20"),
    ],
)
def test_percent_sign(url: str, expected: str) -> None:
    assert minimal_escape(url) == expected


def test_format_url_percent_sign() -> None:
    # NOTES: '%' + two hex digits is data and becomes %25; any other '%' stays.
    assert format_url("https", "x.com", ["β%41γ%ε%"]) == "https://x.com/β%2541γ%ε%"
    assert format_url("https", "x.com", query=[("α%β", "γ%δ")]) == "https://x.com?α%β=γ%δ"
    assert format_url("https", "x.com", ["%", "41"]) == "https://x.com/%/41"


# --- syntax characters that are data (format_url) ---------------------------


def test_format_url_syntax_escapes() -> None:
    assert format_url("https://", "example.com", ["α", "β/γ"]) == "https://example.com/α/β%2Fγ"
    assert format_url("https://", "example.com", ["α?μπ"]) == "https://example.com/α%3Fμπ"
    assert format_url("https", "x.com", ["a#b", "c\\d"]) == "https://x.com/a%23b/c%5Cd"
    assert (
        format_url("https", "x.com", query=[("a&", "b"), ("c", "&d"), ("e=f", "g+h#")])
        == "https://x.com?a%26=b&c=%26d&e%3Df=g%2Bh%23"
    )
    assert format_url("https", "x.com", fragment="a:~:b") == "https://x.com#a%3A~:b"
    assert format_url("https", "x.com", fragment="a:~:~:b") == "https://x.com#a%3A~%3A~:b"
    assert format_url("https", "x.com", fragment="f", directives=["text=a,b&c"]) == "https://x.com#f:~:text=a%2Cb%26c"
    assert format_url("https", "x.com", fragment="f", directives=["a", "b"]) == "https://x.com#f:~:a:~:b"
    # A fragment ending in ':~' must not run into the ':~:' initiator.
    assert format_url("https", "x.com", fragment="a:~", directives=["b"]) == "https://x.com#a%3A~:~:b"
    # Literal '?' in a query and '#' in a fragment are not syntax there.
    assert format_url("https", "x.com", query=[("a?b", None)], fragment="c#d") == "https://x.com?a?b#c#d"


# --- Link_Term classes -------------------------------------------------------


def test_hard_characters_escaped() -> None:
    assert format_url("https", "x.com", ["a b"], [("c\td", None)], "e\u00a0f") == "https://x.com/a%20b?c%09d#e%C2%A0f"
    assert format_url("https", "x.com", ["\u0378"]) == "https://x.com/%CD%B8"  # unassigned: Hard


def test_soft_escaped_only_at_the_very_end() -> None:
    assert format_url("https", "x.com", ["a.", "b."], [("c.", "d.")], "e.") == "https://x.com/a./b.?c.=d.#e%2E"
    assert format_url("https", "x.com", ["a.."]) == "https://x.com/a.%2E"  # only the last one
    assert format_url("https", "x.com", ["a.b"]) == "https://x.com/a.b"
    assert minimal_escape("https://x.com/a.?b!") == "https://x.com/a.?b%21"
    assert minimal_escape("https://x.com/a.,b") == "https://x.com/a.,b"


def test_brackets() -> None:
    assert format_url("https", "x.com", ["a(b)"]) == "https://x.com/a(b)"
    assert format_url("https", "x.com", ["a(b))"]) == "https://x.com/a(b)%29"
    assert format_url("https", "x.com", ["a)b"]) == "https://x.com/a%29b"
    assert format_url("https", "x.com", ["a[b)c]"]) == "https://x.com/a[b%29c]"
    assert format_url("https", "x.com", ["(a", "b)"]) == "https://x.com/(a/b%29"  # '/' clears the stack
    assert format_url("https", "x.com", query=[("(a", "b)")]) == "https://x.com?(a=b%29"
    assert format_url("https", "x.com", ["「a」"]) == "https://x.com/「a」"
    assert format_url("https", "x.com", ["<a>"]) == "https://x.com/<a>"
    assert format_url("https", "x.com", ["a>"]) == "https://x.com/a%3E"
    # An unmatched Close does not pop: the ']' after it still matches the '['.
    assert format_url("https", "x.com", ["[(]]"]) == "https://x.com/[(%5D%5D"
    assert format_url("https", "x.com", ["(("]) == "https://x.com/(("  # Opens never wait for a Close


def test_open_stack_limit() -> None:
    assert STACK_LIMIT == 125
    assert format_url("https", "x.com", ["(" * 125]) == "https://x.com/" + "(" * 125
    assert format_url("https", "x.com", ["(" * 126]) == "https://x.com/" + "(" * 125 + "%28"
    assert format_url("https", "x.com", ["(" * 127 + ")" * 2]) == "https://x.com/" + "(" * 125 + "%28%28))"
    assert format_url("https", "x.com", ["(" * 125, "("]) == "https://x.com/" + "(" * 125 + "/("


def test_minimal_escape_part_directly() -> None:
    assert minimal_escape_part("a.", PATH, last=True) == "a%2E"
    assert minimal_escape_part("a.", PATH, last=False) == "a."
    assert minimal_escape_part("a?b#c", PATH) == "a%3Fb%23c"  # terminators are Hard
    assert minimal_escape_part("a#b", QUERY) == "a%23b"
    assert minimal_escape_part("a?b", QUERY) == "a?b"
    assert minimal_escape_part("a:~:b", FRAGMENT) == "a%3A~:b"
    assert minimal_escape_part("a:~:b,", DIRECTIVE, last=True) == "a:~:b,"  # structure
    assert minimal_escape_part("", PATH, last=True) == ""
    assert percent_escape("α") == "%CE%B1"
    assert percent_escape("\udcff") == "%FF"
    assert percent_escape("\ud800") == "%ED%A0%80"


# --- empty parts, scheme and host -------------------------------------------


def test_empty_parts() -> None:
    assert format_url("https", "x.com") == "https://x.com"
    assert format_url("https", "x.com", [""]) == "https://x.com"
    assert format_url("https", "x.com", ["", ""]) == "https://x.com//"
    assert format_url("https", "x.com", ["a."], [], "") == "https://x.com/a%2E"
    assert format_url("https", "x.com", query=[("", "γξο")]) == "https://x.com?=γξο"
    assert format_url("https", "x.com", query=[("k", "")]) == "https://x.com?k="
    assert format_url("https", "x.com", directives=["text=a"]) == "https://x.com#:~:text=a"
    # minimal_escape drops nothing; an initiator ends a link safely.
    assert minimal_escape("https://x.com/") == "https://x.com/"
    assert minimal_escape("https://x.com/a.?") == "https://x.com/a.?"
    assert minimal_escape("https://x.com/a.#") == "https://x.com/a.#"
    assert minimal_escape("https://x.com#:~:") == "https://x.com#:~:"


def test_scheme_and_host_forms() -> None:
    assert format_url("https://", "x.com", ["a"]) == "https://x.com/a"
    assert format_url("HTTPS", "x.com", ["a"]) == "https://x.com/a"
    assert format_url("mailto:", "a@xn--bcher-kva.de") == "mailto:a@bücher.de"
    assert format_url("https", "XN--BCHER-KVA.de:8080", ["a"]) == "https://bücher.de:8080/a"
    assert format_url("https", "xn--invalid-.de", ["a"]) == "https://xn--invalid-.de/a"
    assert minimal_escape("HTTPS://Example.COM/a") == "https://Example.COM/a"
    assert minimal_escape("https://user@xn--bcher-kva.de:8080/%C3%BC") == "https://user@bücher.de:8080/ü"
    assert minimal_escape("https://xn--zz.de/a") == "https://xn--zz.de/a"  # ToUnicode fails: as is
    assert minimal_escape("localhost:8080/a.") == "localhost:8080/a%2E"
    assert minimal_escape("//x.com/a.") == "//x.com/a%2E"
    assert minimal_escape("mailto:a@b.c?subject=%E2%9C%93.") == "mailto:a@b.c?subject=✓%2E"
    assert minimal_escape("https://[::1]:8080/%CE%B1") == "https://[::1]:8080/α"


# --- errors and garbage -------------------------------------------------------


@pytest.mark.parametrize("bad", [None, b"https://x.com", 3, ["x"]])
def test_minimal_escape_type_error(bad: object) -> None:
    with pytest.raises(TypeError, match="url"):
        minimal_escape(bad)  # type: ignore[arg-type]


def test_format_url_type_and_value_errors() -> None:
    with pytest.raises(TypeError, match="path"):
        format_url("https", "x.com", "abc")  # a str is not a list of segments
    with pytest.raises(TypeError, match="query"):
        format_url("https", "x.com", query=[("a",)])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="host"):
        format_url("https", None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="host"):
        format_url("https", "x.com/a")
    with pytest.raises(ValueError, match="host"):
        format_url("https", "x com")
    with pytest.raises(ValueError, match="scheme"):
        format_url("ht tp", "x.com")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ""),
        ("a b", "a b"),
        ("example.com/α", "example.com/α"),
        ("/", "/"),
        ("?", "?"),
        ("#", "#"),
        ("%", "%"),
        ("\x00/\x00", "\x00/%00"),
        ("x/\udcff", "x/%FF"),
        ("x/\ud800", "x/%ED%A0%80"),
        ("\ud800", "%ED%A0%80"),
        (" https://x.com/a ", " https://x.com/a%20"),
    ],
)
def test_garbage_does_not_raise(text: str, expected: str) -> None:
    assert minimal_escape(text) == expected


def _escape_cli(
    argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    """Run only the escape subcommand (isolated from the other commands)."""
    parser = argparse.ArgumentParser()
    escape_command.register(parser.add_subparsers())
    args = parser.parse_args(["escape", *argv])
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8", "surrogateescape"))))
    assert args.func(args) == 0
    return capsys.readouterr().out


def test_cli_escape_arguments(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    out = _escape_cli(["https://x.com/%CE%B1%2E", "abc.com/path1./path2."], "ignored\n", monkeypatch, capsys)
    assert out == "https://x.com/α%2E\nabc.com/path1./path2%2E\n"


def test_cli_escape_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    stdin = "xn--bcher-kva.de/b%C3%BCcher\n\n  https://x.com/a(b))  \r\nhttps://x.com/\udcff\n"
    out = _escape_cli([], stdin, monkeypatch, capsys)
    assert out == "bücher.de/bücher\n\nhttps://x.com/a(b)%29\nhttps://x.com/%FF\n"


def test_cli_main_escape(capsys: pytest.CaptureFixture[str]) -> None:
    from uts58_adapt.cli import main

    assert main(["escape", "https://x.com/a.%20b."]) == 0
    assert capsys.readouterr().out == "https://x.com/a.%20b%2E\n"


# The ASCII shortcut of minimal_escape must never disagree with the full algorithm.
_URLISH = "abcXYZ019:/?#&=,.;!'\"~-_@+$*|^`() []{}<>%\\\t\x7fN"


@settings(max_examples=3000, deadline=None)
@given(
    st.text(alphabet=_URLISH, max_size=40),
    st.sampled_from(["", "http://", "HTTP://", "x.com", "xn--bcher-kva.de", "mailto:"]),
)
def test_ascii_shortcut_agrees_with_the_full_algorithm(tail, head):
    from uts58_adapt.refine.escaping import _ascii_unchanged, _minimal_escape

    url = head + tail
    if _ascii_unchanged(url):
        assert _minimal_escape(url) == url
