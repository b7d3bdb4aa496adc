"""Where a URL's scheme, host and port are: the host stage of UTS #58 §10 (migration) and §1.4.

:func:`url_host` takes the start a backend reported for a URL and returns where the
link starts (repairing a start the backend put inside the host or before it), where the
host ends, and where the port ends: the offset the termination algorithm (§3.5.1) starts
from.  The pieces are in the modules beside it: host characters (:mod:`.host_chars`),
WHATWG URL's IPv4, IPv6, port and userinfo (:mod:`.whatwg`), label validation
(:mod:`.labels`) and the registrable-domain policy (:mod:`.domains`).

Most spans take a lane (:data:`LANE`, :func:`_lane_fields`): one regex recognizes the
common shapes (``scheme://host`` and a bare host whose run is plain), for which the rest
of the plain path is short; the comment before it proves, condition by condition, that it
returns what the plain path returns (tests/test_refine_lane.py compares them).

Choices where the standards leave room: an IPv4 address is accepted only after an
explicit ``scheme://``; ``localhost`` and other single-label hosts never are (with
``strict``); a URL with userinfo (``http://user@host``) is not linked; a URL whose port
is above 65535 is invalid (WHATWG URL) and is not linked at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from ..properties import CLOSE, FLAGS, HARD, OPEN, TERM_MASK, FlagPattern, class_body
from .domains import domain_unicode, lenient_domain
from .host_chars import (
    MAX_HOST,
    SEPARATORS,
    _host_char_ranges,
    _host_class,
    host_run_end,
    host_run_start,
    is_host_char,
)
from .labels import CONTEXTO, contexto_cut, lenient_char
from .whatwg import MAX_AUTHORITY, SCHEME_AT, SCHEME_BEFORE, has_userinfo_after, ipv6_literal, port_end

__all__ = ["DEFAULT_SCHEMES", "HostMatch", "SchemeCheck", "default_scheme_ok", "url_host"]

_INITIATORS = "/?#"


#: Schemes ``detect()`` takes in front of a host (UTS #58 §10 leaves the scheme to the
#: backend; these are the schemes linkify-it's default configuration links).
DEFAULT_SCHEMES = frozenset({"http:", "https:", "ftp:"})


def default_scheme_ok(scheme: str, host: str, reported: bool) -> bool:
    """``detect()``'s scheme check: ``scheme`` (lower case, with ``:``) is http, https or ftp."""
    return scheme in DEFAULT_SCHEMES


#: ``scheme_ok(scheme, host, reported)``: whether a URL may be linked with ``scheme``
#: (lower case, ``"http:"``) before ``host`` (its Unicode form); ``reported`` is True when
#: the backend's own span starts with the scheme, False when the host stage found it.
SchemeCheck = Callable[[str, str, bool], bool]


class HostMatch(NamedTuple):
    """Where the scheme, host and port of one URL are in the text."""

    start: int
    """Start of the link: the scheme when there is one, else the host."""
    host_start: int
    host_end: int
    """End of the host, including a trailing ``.`` kept because a path, query or fragment follows."""
    end: int
    """End of the port if any, else ``host_end``: where the termination algorithm starts."""
    scheme: str
    """The scheme with its ``://`` (``"https://"``), ``"//"`` for a scheme-relative URL, or ``""``."""
    host: str
    """The host in Unicode (UTS #46 mapped, lower case), for the href."""


def url_host(
    text: str,
    start: int,
    end: int | None = None,
    *,
    strict: bool = True,
    scheme_ok: SchemeCheck = default_scheme_ok,
    scheme_length: int = 0,
) -> HostMatch | None:
    """Find the scheme, host and port of a URL a backend reported as ``text[start:end]``.

    When there is no ``scheme://`` at ``start``, a start on a character that cannot begin
    a host (``*eo.wikipedia.org``) is moved forward, within the span, to the first host
    character; the start is moved back over host characters (a backend may have started
    inside the host, ``FOO.VERMÖ|GEN.com``), a ``scheme://`` right before the host is
    taken in, and leading separators are skipped.

    ``strict`` applies the registrable-domain rule of §1.4 (:func:`domain_unicode`);
    without it only invalid hosts are rejected (:func:`lenient_domain`), and non-ASCII
    Include characters that UTS #46 allows continue the host inside the backend's span.
    ``scheme_ok`` decides whether the scheme may be linked (see :data:`SchemeCheck`):
    a URL whose scheme it refuses is not linked at all, host included.

    ``scheme_length`` is the length of the scheme (with its ``:``) the backend itself
    matched at ``start``, when it knows one (a linkify-it schema may be ``foo$bar:``).

    Returns None when no valid host is there, when the scheme is refused, when the URL
    has userinfo, when its port is above 65535 (WHATWG URL: an invalid URL, so no shorter
    link either), or when the host directly follows an ``@`` (that is an email's domain,
    left to the email stage).
    """
    n = len(text)
    if not 0 <= start < n:
        return None
    end = n if end is None else min(max(end, start), n)
    found = host_fields(text, start, end, strict, scheme_ok, scheme_length, LANE.get(text))
    return None if found is None else HostMatch._make(found)


#: The fields of a :class:`HostMatch`, as a plain tuple (cheaper to build).
HostFields = tuple[int, int, int, int, str, str]


def host_fields(
    text: str,
    start: int,
    end: int,
    strict: bool,
    scheme_ok: SchemeCheck,
    scheme_length: int,
    lane: re.Pattern[str] | None,
) -> HostFields | None:
    """:func:`url_host`'s fields for ``0 <= start < len(text)`` and ``start <= end <= len(text)``.

    ``lane`` is ``LANE.get(text)`` (the common shapes take :func:`_lane_fields`), or None
    for the plain path alone (the tests compare the two).
    """
    if lane is not None:
        m = lane.match(text, start)
        if m is not None:
            found = _lane_fields(text, m, start, end, strict, scheme_ok, scheme_length)
            if found is not _MISS:
                return found
    n = len(text)
    reported = True
    m = SCHEME_AT.match(text, start)
    if scheme_length > 0 and text.startswith("//", start + scheme_length) and start + scheme_length + 2 < end:
        hs = start + scheme_length + 2
        scheme = text[start:hs]
        link_start = start
        anchor = hs
    elif m:
        scheme = text[start : m.end()]
        hs = m.end()
        link_start = start
        anchor = hs
        reported = hs < end  # the backend's span holds the scheme and more ("a.ac://x" may be a fuzzy "a.ac")
    elif text.startswith("//", start):
        hs = start + 2
        anchor = hs
        sm = SCHEME_BEFORE.search(text, max(0, start - 33), hs) if start and text[start - 1] == ":" else None
        if sm:  # the backend started after the scheme's ":"
            link_start = sm.start()
            scheme = text[link_start:hs]
            reported = False
        else:
            scheme = "//"
            link_start = start
    else:
        scheme = ""
        hs = start
        # A start on a character that cannot begin a host ("*", a quote …) is moved forward
        # (a few characters at most: the bound keeps overlapping spans linear).
        limit = min(end, start + MAX_AUTHORITY)
        while hs < limit and text[hs] not in "/:@" and not is_host_char(text[hs]):
            if not strict and lenient_char(text[hs]):
                break
            hs += 1
        if hs == limit or not (is_host_char(text[hs]) or (not strict and lenient_char(text[hs]))):
            return None
        anchor = hs
        floor = max(0, hs - MAX_HOST)
        hs = host_run_start(text, hs, floor)
        if hs == floor and hs > 0 and is_host_char(text[hs - 1]):
            return None  # a run of host characters too long to be a domain
        if hs < anchor:
            hs = contexto_cut(text, hs, host_run_end(text, anchor), anchor)[0]
        run_start = hs
        while hs < n and text[hs] in SEPARATORS:
            hs += 1
        if hs > run_start and run_start > 0 and text[run_start - 1] in "/@":
            return None  # "http://.foo.example.com": an empty first label
        link_start = hs
        if hs >= 3 and text.startswith("://", hs - 3):
            sm = SCHEME_BEFORE.search(text, max(0, hs - 35), hs)
            if sm:
                link_start = sm.start()
                scheme = text[link_start:hs]
                reported = False
        anchor = max(anchor, hs)
    if scheme:
        # Userinfo (deprecated, §3 Table 3-1 notes): never linked.
        if has_userinfo_after(text, hs):
            return None
    elif hs > 0 and text[hs - 1] == "@":
        return None
    if scheme and text.startswith("[", hs):
        return _ipv6_host(text, link_start, hs, scheme, reported, scheme_ok)
    he = host_run_end(text, hs)
    if not strict:
        # The backend's own host may hold characters UTS #46 allows and IDNA2008 does not.
        while he < end and he - hs <= MAX_HOST and lenient_char(text[he]):
            he = host_run_end(text, he + 1)
    if he == hs:
        return None
    if he - hs > MAX_HOST:
        return None  # too long to be a domain (the run is cut one past the limit)
    explicit = bool(scheme) and scheme != "//"
    if (strict or not explicit) and not text[hs:he].isascii():
        # After an explicit scheme without strict_hosts, WHATWG URL's reading: the whole run.
        cut_start, he = contexto_cut(text, hs, he, anchor)
        if cut_start != hs or he == hs:
            return None  # the run starts with a character that cannot begin a host
    after = text[he] if he < n else ""
    if after == "@":
        return None  # a local part, or userinfo
    port = port_end(text, he) if after == ":" else he
    if port is None:
        return None  # WHATWG URL: a port above 65535 makes the URL invalid (no shorter link)
    return _domain_fields(text, link_start, hs, he, after, port, scheme, explicit, strict, scheme_ok, reported)


def _domain_fields(
    text: str,
    link_start: int,
    hs: int,
    he: int,
    after: str,
    port: int,
    scheme: str,
    explicit: bool,
    strict: bool,
    scheme_ok: SchemeCheck,
    reported: bool,
) -> HostFields | None:
    """The host stage's last steps for the host run ``text[hs:he]`` (the full path's and the lane's).

    Trailing separators are kept (one) only when a path, query, fragment or port follows;
    the domain is validated (:func:`domain_unicode` with ``strict``, else
    :func:`lenient_domain`), then the scheme is checked.
    """
    domain_end = he
    while domain_end > hs and text[domain_end - 1] in SEPARATORS:
        domain_end -= 1
    host_end = domain_end
    if domain_end == he - 1 and after and (after in _INITIATORS or port > he):
        host_end = he
    if strict:
        host = domain_unicode(text[hs:domain_end], explicit)
    else:
        host = lenient_domain(text[hs:domain_end], bool(scheme))
    if host is None:
        return None
    if explicit:
        name = scheme[:-2].lower()
        if not (name in DEFAULT_SCHEMES if scheme_ok is default_scheme_ok else scheme_ok(name, host, reported)):
            return None
    return (link_start, hs, host_end, port if host_end == he else host_end, scheme, host)


# --- The lane: the common shapes, with what the plain path above would return -----------------
#
# Most spans are ``scheme://host`` or a bare ``host`` whose host run is plain: label
# characters of the BMP and separators, starting with a label character, with no character
# that could change where the plain path puts the host.  ``LANE`` matches such a span in one
# regex; :func:`_lane_fields` then does what is left of the plain path (port, trailing
# separators, validation, scheme check) and returns ``_MISS`` wherever the shape is not one
# it has proved: the plain path then runs.  Why each condition gives the plain path's result:
#
# 1. Scheme.  ``(?>SCHEME_AT|...)`` is atomic: the first branch is taken exactly when
#    ``SCHEME_AT.match(text, start)`` matches (same pattern); then the host run must follow
#    ``//`` directly, else no match (plain path).  A backend ``scheme_length`` other than 0
#    or the one matched goes to the plain path (its first branch might take another
#    scheme); with either branch ``hs = start + L + 2`` and ``reported = hs < end``.
#    Without a scheme, ``text[start]`` is a label character, so neither ``//`` nor a start
#    moved forward (and ``end > start``: an empty span gives None); ``scheme_length`` is 0.
# 2. Start repair (no scheme).  Group 2 matched: the character before ``start`` is not a
#    host character (the lookbehind's class is ``_HOST_CHAR``'s, astral code points all
#    included), so ``host_run_start`` returns ``start``, the floor test and ``contexto_cut``
#    of the start do not apply and no separator is skipped (a label character starts the
#    run); nor is it ``/`` (no ``://`` before the start, no "empty first label" rule) or
#    ``@`` (where the plain path returns None).  Group 2 unmatched: the plain path
#    decides, but for rule 8 and an ``@`` before the start (None).
# 3. Host run.  The run holds label characters and separators of the BMP, at most
#    ``MAX_HOST`` of them (possessive: no backtracking), and the character after it is no
#    host character (same class): it is exactly ``host_run_end``'s run (which only cuts
#    at astral code points, of which there is none).  Not ``[``: no IPv6 address.
# 4. ``strict_hosts=False``: a ``lenient_char`` (``_`` or an Include code point) right
#    after the run goes to the plain path.  (A ``USERINFO_END`` code point, rule 5, is
#    ASCII other than ``_``, or Hard, Open or Close: never one.)
# 5. Userinfo (after a scheme).  ``has_userinfo_after`` looks for the first code point
#    of ``USERINFO_END`` from ``hs``: it is no ``@`` when the character after the host
#    (after the port, if any) ends the text or is one of ``USERINFO_END``'s, which
#    ``_ends_authority`` tests (a class code point inside the run is no ``@`` either);
#    otherwise ``has_userinfo_after`` itself answers.  A port is read first: where
#    ``port_end`` gives None the plain path returns None too, userinfo or not.
# 6. CONTEXTO.  The run holds no CONTEXTO character (they are left out of its class), so
#    ``contexto_cut`` of the run changes nothing.
# 7. Port, trailing separators, validation, scheme check: the plain path's own code.
# 8. A run followed by ``@`` gives None.  After a scheme: ``has_userinfo_after`` gives None
#    or the plain path's own ``@`` test does (its search may stop at a Hard host character
#    of the run, ``ŉ``).  Without a scheme, whatever the start repair does: it only moves
#    the start back over host characters (or forward, by ``contexto_cut`` or over
#    separators, never past ``start``, a label character), so the run still ends before
#    the ``@`` (or is too long: None); ``contexto_cut`` of the run cannot cut it before the
#    ``@`` (no CONTEXTO character from ``start`` on, and its end is only cut at one after
#    the anchor ``start``); with a ``scheme://`` found before the run,
#    ``has_userinfo_after`` or the ``@`` test gives None; without, the ``@`` test.
# 9. Without a scheme, when the character before ``start`` is a host character: the plain
#    path's ``host_run_start`` gives the run's start ``hs``; when ``LANE`` matches there
#    without a scheme, with group 2 and with the same end, rule 2 holds at ``hs`` and the
#    run from ``hs`` is one of rule 3 (no CONTEXTO character: ``contexto_cut`` of the start
#    is a no-op; a label character at ``hs``: no separator skipped), so the plain path
#    takes ``hs`` as the start of the link and of the host, the rest being as from
#    ``start``.  (``SCHEME_AT`` at ``hs`` is not the plain path's test, hence group 1 must
#    not match.)
# 10. When ``LANE`` at that ``hs`` matches without group 2, the character before ``hs`` is
#    ``@`` (None), ``/``, or another (plain path: a host character before the floor, an
#    astral one).  After ``/``: the plain path's own ``://`` test and ``SCHEME_BEFORE``
#    search give the scheme (not reported by the backend) and the link's start, then as
#    after a scheme (rules 4, 5, 7); no scheme there: a bare host from ``hs``.


def _lane_pattern(below: int) -> str:
    # The run: label characters of the BMP but the CONTEXTO ones, and separators (rules 3, 6).
    label = "A-Za-z0-9\\-"
    if below > 0x80:
        bmp = [r for r in _host_char_ranges() if r[1] <= 0xFFFF]
        label += class_body(bmp, excluded=CONTEXTO, below=min(below, 0x10000))
    host = _host_class(below)
    seps = re.escape("".join(ch for ch in SEPARATORS if ord(ch) < below))
    return (
        rf"(?>([A-Za-z][A-Za-z0-9+.\-]{{0,31}}:)//|((?<![{host}/@]))|)"
        rf"[{label}][{label}{seps}]{{0,{MAX_HOST - 1}}}+(?![{host}])"
    )


#: The shapes :func:`_lane_fields` decides (see the comment above).
LANE = FlagPattern(_lane_pattern)
#: ``_lane_fields``: not a shape of the lane, the plain path decides.
_MISS: HostFields = (-1, -1, -1, -1, "", "")
#: ASCII characters of ``USERINFO_END`` that are not Hard, Open or Close.
_USERINFO_SYMBOLS = '/?#"\\^`|'
_ENDS_AUTHORITY = frozenset((HARD, OPEN, CLOSE))


def _ends_authority(ch: str) -> bool:
    """Whether ``ch`` is one of ``USERINFO_END``'s code points (and so no ``@``)."""
    return ch in _USERINFO_SYMBOLS or FLAGS[ord(ch)] & TERM_MASK in _ENDS_AUTHORITY


def _lane_fields(
    text: str, m: re.Match[str], start: int, end: int, strict: bool, scheme_ok: SchemeCheck, scheme_length: int
) -> HostFields | None:
    """The plain path's result for a span ``LANE`` matched at ``start``, or ``_MISS``."""
    he = m.end()
    n = len(text)
    after = text[he] if he < n else ""
    scheme_colon = m.group(1)
    if scheme_colon is not None:  # rule 1
        if scheme_length and scheme_length != len(scheme_colon):
            return _MISS
        if after == "@":
            return None  # rule 8
        link_start = start
        hs = start + len(scheme_colon) + 2
        reported = hs < end
    else:
        if scheme_length or end == start:
            return _MISS  # (an empty span: the plain path returns None)
        if after == "@":
            return None  # rule 8
        link_start = hs = start
        reported = False
        if m.group(2) is None:  # rule 2: the character before is a host character, "/" or "@"
            if text[start - 1] == "@":
                return None
            hs = host_run_start(text, start, max(0, start - MAX_HOST))
            again = m.re.match(text, hs)  # rule 9
            if again is None or again.group(1) is not None or again.end() != he:
                return _MISS
            link_start = hs
            if again.group(2) is None:  # rule 10
                before = text[hs - 1]
                if before == "@":
                    return None
                if before != "/":
                    return _MISS
                if hs >= 3 and text.startswith("://", hs - 3):
                    scheme_at = SCHEME_BEFORE.search(text, max(0, hs - 35), hs)
                    if scheme_at is not None:
                        link_start = scheme_at.start()
    scheme = text[link_start:hs]
    if not strict and after and (after == "_" or after >= "\x80") and lenient_char(after):
        return _MISS  # rule 4
    port = he
    if after == ":":
        port_at = port_end(text, he)
        if port_at is None:
            return None  # (userinfo or not, the plain path returns None)
        port = port_at
    if scheme and port < n:
        ch = text[port]
        if (
            ch not in _USERINFO_SYMBOLS
            and FLAGS[ord(ch)] & TERM_MASK not in _ENDS_AUTHORITY
            and has_userinfo_after(text, hs)
        ):
            return None  # rule 5 (_ends_authority, inlined)
    # Rule 7: the plain path's code from here on (a lane scheme is never "//": explicit is bool(scheme)).
    return _domain_fields(text, link_start, hs, he, after, port, scheme, bool(scheme), strict, scheme_ok, reported)


def _ipv6_host(
    text: str, link_start: int, hs: int, scheme: str, reported: bool, scheme_ok: SchemeCheck
) -> HostFields | None:
    """The host stage for ``scheme://[IPv6]``: WHATWG URL accepts an IPv6 address in brackets
    after a scheme (as an IPv4 address, never in a schemeless link); the href has it in its
    WHATWG serialization (compressed, lower case).  Then an optional port, as for a domain."""
    found = ipv6_literal(text, hs)
    if found is None:
        return None
    host, host_end = found
    if scheme != "//" and not scheme_ok(scheme[:-2].lower(), host, reported):
        return None
    end = port_end(text, host_end) if text.startswith(":", host_end) else host_end
    if end is None:
        return None  # a port above 65535: an invalid URL
    return (link_start, hs, host_end, end, scheme, host)
