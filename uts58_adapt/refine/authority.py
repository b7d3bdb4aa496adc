"""Where a URL's scheme, host and port are: the host stage of UTS #58 §10 (migration) and §1.4.

:func:`url_host` takes the start a backend reported for a URL and returns where the
link starts (repairing a start the backend put inside the host or before it), where the
host ends, and where the port ends: the offset the termination algorithm (§3.5.1) starts
from.  The pieces are in the modules beside it: host characters (:mod:`.host_chars`),
WHATWG URL's IPv4, IPv6, port and userinfo (:mod:`.whatwg`), label validation
(:mod:`.labels`) and the registrable-domain policy (:mod:`.domains`).

Choices where the standards leave room: an IPv4 address is accepted only after an
explicit ``scheme://``; ``localhost`` and other single-label hosts never are (with
``strict``); a URL with userinfo (``http://user@host``) is not linked; a URL whose port
is above 65535 is invalid (WHATWG URL) and is not linked at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .domains import domain_unicode, lenient_domain
from .host_chars import MAX_HOST, SEPARATORS, host_run_end, host_run_start, is_host_char
from .labels import contexto_cut, lenient_char
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
    # Trailing separators: kept (one) only when a path, query, fragment or port follows.
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
    if explicit and not scheme_ok(scheme[:-2].lower(), host, reported):
        return None
    end = port if host_end == he else host_end
    return HostMatch(link_start, hs, host_end, end, scheme, host)


def _ipv6_host(
    text: str, link_start: int, hs: int, scheme: str, reported: bool, scheme_ok: SchemeCheck
) -> HostMatch | None:
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
    return HostMatch(link_start, hs, host_end, end, scheme, host)
