"""WHATWG URL host parsing (URL Standard §3.5 host parsing, §4.4 URL parsing): IPv4, IPv6, port, userinfo.

The pieces of a URL's authority that UTS #58 §1.4 leaves to [WHATWG URL]: the IPv4
parser (``999`` and ``0x7f.1`` are addresses), bracketed IPv6 addresses, the port state
(digits up to 65535, or the URL is invalid) and the userinfo (``user@``), which this
project never links (deprecated, UTS #58 §3 Table 3-1 notes).  Where the scheme before
a host is (``scheme://``) is found with the same patterns.
"""

from __future__ import annotations

import re

from ..properties import CLOSE, FLAGS, HARD, OPEN, TERM_MASK, FlagPattern, class_body, flag_runs

__all__ = [
    "DOTTED_IPV4",
    "IPV4_NUMBER",
    "MAX_AUTHORITY",
    "MAX_PORT",
    "SCHEME_AT",
    "SCHEME_BEFORE",
    "USERINFO_END",
    "has_userinfo_after",
    "has_userinfo_before",
    "ipv6_literal",
    "port_end",
    "userinfo_end",
    "whatwg_ipv4",
]

#: How far back a userinfo search or a start repair may look.
MAX_AUTHORITY = 512
#: ``scheme://`` at a position, and right before one (a scheme is at most 32 characters here).
SCHEME_AT = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]{0,31}):(//)")
SCHEME_BEFORE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]{0,31}://\Z")
#: A dotted-decimal IPv4 address, the one form a strict host accepts after a scheme.
DOTTED_IPV4 = re.compile(
    r"(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\Z"
)
#: One part of an IPv4 address as the WHATWG IPv4 number parser reads it.
IPV4_NUMBER = re.compile(r"(?:0[xX][0-9A-Fa-f]*|[0-9]+)\Z")


def whatwg_ipv4(host: str) -> str | None:
    """WHATWG URL's IPv4 parser: ``999``, ``0x7f.1`` and ``127.0.0.1`` are addresses; None if not one."""
    parts = host.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if not 1 <= len(parts) <= 4:
        return None
    numbers = []
    for part in parts:
        if not part or not IPV4_NUMBER.match(part):
            return None
        if part[:2] in ("0x", "0X"):
            numbers.append(int(part[2:] or "0", 16))
        elif len(part) > 1 and part[0] == "0":
            if any(d in "89" for d in part):
                return None
            numbers.append(int(part, 8))
        else:
            numbers.append(int(part))
    if any(x > 255 for x in numbers[:-1]) or numbers[-1] >= 256 ** (5 - len(numbers)):
        return None
    value = numbers[-1] + sum(x << (8 * (3 - i)) for i, x in enumerate(numbers[:-1]))
    return ".".join(str((value >> shift) & 255) for shift in (24, 16, 8, 0))


#: The largest port (URL Standard, port state: a larger one is a validation error and failure).
MAX_PORT = 65535
#: ``:``, leading zeros, up to five more digits, then one more digit, letter or ``_`` if
#: there is one (the port is then too large, or goes on: both make the URL invalid).
_PORT = re.compile(r":0*([0-9]{0,5})([0-9A-Za-z_]?)")


def port_end(text: str, colon: int) -> int | None:
    """For the ``:`` at ``text[colon]`` after a host: the end of the port, or None when the URL is invalid.

    WHATWG URL's port state reads every ASCII digit: ``:8080`` and ``:000080`` are ports,
    and a value above 65535 (``:100000``), or digits that a letter continues (``:80abc``),
    make the whole URL invalid, so nothing is linked (not a shorter URL to the bare host).
    A ``:`` without a digit after it is not a port (prose: ``see example.com: it …``) and
    the result is ``colon``; after the digits, anything else (white space, punctuation,
    ``/?#``) ends the port.
    """
    m = _PORT.match(text, colon)
    if m is None:
        return colon
    digits, more = m.group(1, 2)
    if m.end() - len(more) == colon + 1:
        return colon  # no digit
    if more or (digits and int(digits) > MAX_PORT):
        return None
    return m.end()


#: A bracketed IPv6 address (WHATWG URL "IPv6 parser" input; at most 45 characters with an
#: embedded IPv4 address).
_IPV6_LITERAL = re.compile(r"\[([0-9A-Fa-f:.]{2,45})\]")


def ipv6_literal(text: str, pos: int) -> tuple[str, int] | None:
    """The bracketed IPv6 address at ``text[pos]`` in its WHATWG serialization (compressed, lower
    case, in brackets) and the end of the ``]``; None when there is none."""
    m = _IPV6_LITERAL.match(text, pos)
    if m is None:
        return None
    import ipaddress  # rare: not imported with the refinement stage

    try:
        address = ipaddress.IPv6Address(m.group(1))
    except ValueError:
        return None
    return f"[{address.compressed}]", m.end()


def _userinfo_end_class(below: int) -> str:
    """Characters that cannot be in a userinfo: they end the authority (``/?#``), are white
    space or Hard, or are brackets and quotes (Link_Term Open or Close, ``"\\^`|``).

    Above U+FFFF the class takes every code point (one coarse range: ``re`` tests astral
    ranges one by one, which made every search on non-ASCII text 30 times slower);
    :func:`userinfo_end` sorts them out with FLAGS.
    """
    ranges = flag_runs(_ends_userinfo, min(below, 0x10000))
    if below > 0x10000:
        ranges.append((0x10000, 0x10FFFF))
    return class_body(ranges, below=below) + re.escape('/?#@"\\^`|')


def _ends_userinfo(flags: int) -> bool:
    return flags & TERM_MASK in (HARD, OPEN, CLOSE)


#: The first character after ``scheme://`` that cannot continue a userinfo (astral ones
#: coarsely, see :func:`userinfo_end`); a userinfo is there only when that character is an ``@``.
USERINFO_END = FlagPattern(lambda below: f"[{_userinfo_end_class(below)}]")


def userinfo_end(text: str, start: int, stop: int) -> int:
    """The offset of the first character of ``text[start:stop]`` that cannot be in a userinfo, or -1."""
    pattern = USERINFO_END.get(text)
    while (m := pattern.search(text, start, stop)) is not None:
        ch = m.group()
        if ch <= "\uffff" or _ends_userinfo(FLAGS[ord(ch)]):
            return m.start()
        start = m.end()  # an astral character that may be in a userinfo
    return -1


def has_userinfo_after(text: str, hs: int) -> bool:
    """Whether the authority that starts at ``text[hs]`` (after ``scheme://``) has a userinfo.

    Only a run that could be a userinfo counts: ``(https://example.com),me@example.org`` has none.
    """
    stop = min(len(text), hs + MAX_AUTHORITY)
    m = USERINFO_END.get(text).search(text, hs, stop)
    if m is None:
        return False
    ch = m.group()
    if ch > "\uffff" and not _ends_userinfo(FLAGS[ord(ch)]):
        end = userinfo_end(text, m.end(), stop)  # an astral character that may be in a userinfo
        return end != -1 and text[end] == "@"
    return ch == "@"


def has_userinfo_before(text: str, at: int) -> bool:
    """Whether the ``@`` at ``text[at]`` ends the userinfo of a ``scheme://`` URL."""
    p = text.rfind("://", max(0, at - MAX_AUTHORITY), at)
    if p == -1 or not SCHEME_BEFORE.search(text, max(0, p - 32), p + 3):
        return False
    return userinfo_end(text, p + 3, at) == -1
