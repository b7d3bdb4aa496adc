"""UTS #58 §10 "Migration: Link Detection": refine the spans an existing linkifier reported.

:func:`refine_links` takes the backend's raw spans and returns conformant links:

1. URLs.  For each raw URL span, the host stage (:mod:`.hosts`) finds the scheme, the
   host and the port, repairing the start and rejecting invalid hosts.  Then §10.1:
   the backend's end E is kept when E is at the end of the text or before a Hard
   character *and* the backend's path, query and fragment can only have come out of the
   termination algorithm the same way (no bracket and no Hard character in them, last
   character Include); otherwise the termination algorithm (§3.5.1) is run from the end
   of the host and port, which extends links the backend cut short and trims links that
   ran too far.  This check is a C-speed regex search, so most links cost no
   per-character Python work: when the backend's path holds no bracket and no Hard
   character, the algorithm's state at E is known and its scan resumes there
   (:func:`_path_end`).  The common host shapes take the host stage's lane
   (``authority.LANE``, one regex and no start repair); ``_LANE = False`` runs the plain
   path alone, for the tests that compare the two.
2. Emails (§5.2), whatever the backend did with them: every ``@`` followed by a valid
   domain gives an email from :func:`~.email.email_start` to the end of the domain; a
   failed local part gives no link at all, and the domain is not linked on its own.
   An ``@`` ending the userinfo of a ``scheme://`` URL gives nothing either.  The common
   shape (an ASCII local part where the backend's span starts, an ASCII domain) takes the
   email lane (``_EMAIL_LANE``: one regex and the cached domain check), and a text with one
   ``@`` and one such span skips the other stages (``_lone_email``); ``_LANE = False``
   turns both off.
3. Conflicts: an ``@`` inside the path, query or fragment of a URL belongs to that URL;
   otherwise, where an email and a URL overlap, the email wins.  The result is sorted
   and non-overlapping (of two overlapping URLs, the one starting first is kept).
4. Library acceptance (optional, ``accepts_email``): emails the backend did not report
   are kept only when the backend accepts the same address with the local part ``a``
   (:func:`.acceptance.accepted_emails`).

A text with one URL span and no ``@`` or ``。 ． ｡`` takes step 1 alone (``_one_url``), with
the lane.  :func:`refine_span` is the entry point for one raw span (the inline integrations
refine one match at a time): the same link as :func:`refine_links` for that span, without
its set-up.
"""

from __future__ import annotations

import bisect
import operator
import re
from collections.abc import Callable, Sequence

from ..link import Link, LinkKind, RawLink
from ..properties import (
    CLOSE,
    EMAIL_BIT,
    FLAGS,
    HARD,
    INCLUDE,
    SOFT,
    TERM_MASK,
    FlagPattern,
    class_body,
    flag_runs,
    largest_astral,
)
from . import hosts
from ._dispatch import choose
from .acceptance import EmailCheck, HostCheck, accepted_emails
from .authority import _MISS, LANE, host_fields
from .authority import _lane_fields as lane_fields
from .email import MAILTO, email_start, mailto_href
from .host_chars import MAX_HOST, _host_class
from .termination import DIRECTIVE_INITIATOR, FRAGMENT, PATH, QUERY
from .termination import terminate_unchecked as terminate

#: The lane of issue 20 (``authority.LANE``, and ``_path_end``'s resumed scans); False runs
#: the plain path alone, which tests/test_refine_lane.py compares it with.
_LANE = True

__all__ = ["candidate_text", "refine_links", "refine_span"]


def _safe_run(below: int) -> str:
    """``[...]+`` over Include and Soft code points (every BMP range, the largest astral ones).

    ``re`` tests a code point above U+FFFF against a class's astral ranges one by one,
    so only the 32 largest are kept; a span with any other astral code point simply
    takes the termination algorithm.
    """
    ranges = largest_astral(flag_runs(lambda b: b & TERM_MASK in (INCLUDE, SOFT)), 32)
    return f"[{class_body(ranges, below=below)}]+"


#: A run of Include and Soft characters: a backend span made only of them (and ending on
#: an Include one before a Hard one) ends where the termination algorithm would end it.
_SAFE_RUN = FlagPattern(_safe_run)


_START = operator.attrgetter("start")
_FIRST = operator.itemgetter(0)


def candidate_text(text: str) -> str:
    """The text with ``。 ． ｡`` replaced by ``.`` (same offsets), for a backend that must *see*
    such domains itself (a ``test()``-style probe, for instance).

    :func:`refine_links` does not need it: it finds domains written with these separators
    on its own (``hosts.separator_tld_hits``), so ``refine_links(text, backend.find(text))``
    is complete and skips the cost of translating the text.
    """
    return hosts.normalize_separators(text)


def _url_end(text: str, hm: hosts.HostMatch, raw_end: int) -> int:
    """§10.1: the end of the URL whose host and port end at ``hm.end``."""
    return _path_end(text, hm.end, raw_end, _SAFE_RUN.get(text), _LANE)


def _path_end(text: str, start: int, raw_end: int, safe: re.Pattern[str], lane: bool) -> int:
    """:func:`_url_end` for the end of the host and port ``start``; ``safe`` is ``_SAFE_RUN.get(text)``.

    When the backend's path, query and fragment ``text[start:raw_end]`` are Include and
    Soft code points only (no bracket, no Hard), §3.5.1 needs no scan of them: it is in
    the part their last initiator opened, with an empty stack and ``lastSafe`` after their
    last Include code point (a trailing ``?`` or ``:`` may be structure: the scan decides).
    It then ends there before Soft code points and a Hard or Close one or the end of the
    text, and is resumed at ``raw_end`` otherwise.  A fragment directive, and a ``:~:``
    across ``raw_end``, take the scan.  Without ``lane``, only the first case is taken
    (the code before issue 20).
    """
    n = len(text)
    if start == n or text[start] not in "/?#":
        return start  # no path, query or fragment: what terminate() returns
    if not start < raw_end <= n or safe.fullmatch(text, start, raw_end) is None:
        return terminate(text, start)
    after = HARD if raw_end == n else FLAGS[ord(text[raw_end])] & TERM_MASK
    if FLAGS[ord(text[raw_end - 1])] & TERM_MASK == INCLUDE and (after == HARD or (lane and after == CLOSE)):
        return raw_end  # lastSafe is raw_end, and a Hard one, or a Close one (an empty stack), ends the scan
    if not lane:
        return terminate(text, start)
    fragment = text.find("#", start, raw_end)
    if fragment != -1 and (
        text.find(DIRECTIVE_INITIATOR, fragment + 1, raw_end) != -1 or ":" in text[raw_end - 2 : raw_end]
    ):
        return terminate(text, start)  # a directive, where "," is structure, or maybe one across raw_end
    last_safe = raw_end
    while FLAGS[ord(text[last_safe - 1])] & TERM_MASK == SOFT:
        if text[last_safe - 1] in "?:":
            return terminate(text, start)
        last_safe -= 1  # (text[start] is "/" or "#", Include, or "?", which stops the loop)
    # The scan goes on at raw_end: over Soft code points (none is structure here but "?" and
    # ":"), to a Hard or Close one (an empty stack) or the end, where it ends at last_safe.
    i = raw_end
    while i < n:
        ch = text[i]
        term = FLAGS[ord(ch)] & TERM_MASK
        if term in (HARD, CLOSE):
            return last_safe
        if term != SOFT or ch in "?:":
            break
        i += 1
    else:
        return last_safe
    if fragment != -1:
        part = FRAGMENT
    else:
        part = PATH if text.find("?", start, raw_end) == -1 else QUERY
    return terminate(text, i, part, last_safe)


def _href_url(text: str, hm: hosts.HostMatch, end: int) -> str:
    scheme = hm.scheme if hm.scheme and hm.scheme != "//" else "https://"
    dot = "." if text[hm.host_end - 1] in hosts.SEPARATORS else ""
    return scheme + hm.host + dot + text[hm.host_end : end]


def refine_links(
    text: str,
    raw: Sequence[RawLink],
    *,
    strict_hosts: bool = True,
    scheme_ok: hosts.SchemeCheck = hosts.default_scheme_ok,
    accepts_email: EmailCheck | None = None,
    accepts_host: HostCheck | None = None,
) -> list[Link]:
    """Refine a backend's raw spans into UTS #58 links (see the module docstring).

    ``Link.original`` is the backend span a link came from, None for links the adapter
    added.  ``href`` has ``https://`` added to schemeless URLs and ``mailto:`` to emails,
    with the host in Unicode.  The result is sorted by start and non-overlapping.

    ``strict_hosts`` applies §1.4's registrable-domain rule to the hosts of the backend's
    spans and to emails' domains; without it only invalid hosts are rejected
    (``hosts.url_host``).  Domains written with ``。`` that the adapter finds on its own
    always take the strict rule.  ``scheme_ok`` decides which schemes may be linked: the
    default takes http, https and ftp, so every href starts with one of them, ``mailto:``
    or (schemeless URLs) ``https://``; :func:`.acceptance.scheme_check` builds one that
    follows a library's own configuration.  ``accepts_email`` (the library's answer for
    an address) drops the emails the library would not link (step 4); None keeps them all.
    ``accepts_host`` (the library's answer for a bare host, asked with the ``.`` form of a
    domain written with ``。 ． ｡``, e.g. ``evil.com`` for ``evil。com``) decides whether
    such a domain found by the adapter is linked: the library decides the host, with its
    own configuration (fuzzy links off, its TLD list); None links every valid one.
    """
    if not raw and type(text) is str and text.isascii() and "@" not in text:
        return []  # (most lines of a text: no span, no email, no "。" domain; see _refine)
    links = None
    if len(raw) == 1 and _LANE and type(text) is str:
        # One span in a text without 。 ． ｡: _refine's first steps, without its set-up.
        r = raw[0]
        if text.isascii() or not ("\u3002" in text or "\uff0e" in text or "\uff61" in text):
            if r.kind == "email":
                links = _lone_email(text, r, strict_hosts)
            elif r.kind == "url" and "@" not in text and 0 <= r.start < r.end <= len(text):
                url = _one_url(text, r.start, r.end, r.scheme_length, strict_hosts, scheme_ok)
                links = (
                    []
                    if url is None
                    else [Link(url[0], url[1], text[url[0] : url[1]], "url", url[2], (r.start, r.end))]
                )
    if links is None:
        links = _refine(text, raw, strict_hosts, scheme_ok, accepts_host)
    return links if accepts_email is None else accepted_emails(links, accepts_email, text)


def refine_span(
    text: str,
    start: int,
    end: int,
    kind: LinkKind,
    *,
    strict_hosts: bool = True,
    scheme_ok: hosts.SchemeCheck = hosts.default_scheme_ok,
) -> tuple[int, int, str, str] | None:
    """The link that the one raw span ``text[start:end]`` becomes, as ``(start, end, text, href)``.

    What ``refine_links(text, [RawLink(start, end, kind)], strict_hosts=..., scheme_ok=...)``
    gives for that span (the link of ``kind`` whose ``original`` is ``(start, end)``), or
    None; for the inline integrations, which refine one span at a time.  A URL in a text
    without ``@`` and ``。 ． ｡`` is the only link there can be: it takes step 1 for one span
    (``_one_url``, as :func:`refine_links` does) and no Link is built; any other span runs
    :func:`refine_links` (where an email may take ``_lone_email``).
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    n = len(text)
    no_sep = text.isascii() or not ("\u3002" in text or "\uff0e" in text or "\uff61" in text)
    if kind == "url" and no_sep and "@" not in text and 0 <= start < end <= n:
        # No email, no domain written with 。, no other span: step 1 alone, no conflict.
        url = _one_url(text, start, end, 0, strict_hosts, scheme_ok)
        return None if url is None else (url[0], url[1], text[url[0] : url[1]], url[2])
    links = refine_links(text, [RawLink(start, end, kind)], strict_hosts=strict_hosts, scheme_ok=scheme_ok)
    for link in links:
        if link.kind == kind and link.original == (start, end):
            return link.start, link.end, link.text, link.href
    return None


def _one_url(
    text: str, start: int, end: int, scheme_length: int, strict_hosts: bool, scheme_ok: hosts.SchemeCheck
) -> tuple[int, int, str] | None:
    """Step 1 of :func:`_refine` for one URL span ``0 <= start < end <= len(text)`` (the body of
    its loop, the same code): the link's start, end and href, or None."""
    n = len(text)
    m = LANE.get(text).match(text, start) if _LANE else None
    found = _MISS if m is None else lane_fields(text, m, start, end, strict_hosts, scheme_ok, scheme_length)
    if found is _MISS:
        found = host_fields(text, start, end, strict_hosts, scheme_ok, scheme_length, None)
    if found is None:
        return None
    link_start, _hs, host_end, after_host, scheme, host = found
    if link_start < start and _inside_token(text, link_start):
        return None
    if after_host == n or text[after_host] not in "/?#":
        url_end = after_host
    else:
        url_end = _path_end(text, after_host, end, _SAFE_RUN.get(text), _LANE)
    href = (
        (scheme if scheme and scheme != "//" else "https://")
        + host
        + ("." if text[host_end - 1] in hosts.SEPARATORS else "")
        + text[host_end:url_end]
    )
    return link_start, url_end, href


#: Characters that continue a token of a URL or a path (``methods/rsh.cc``, ``foo_unittest.cc``,
#: ``uile.io/מיזם。me``): a link the library did not start there does not start after one.
_TOKEN_INSIDE = frozenset("/\\_@%~+=&#?*$^|")


def _inside_token(text: str, start: int) -> bool:
    """Whether a link at ``start`` would begin inside a token: after a character that continues one.

    Only asked where the library linked nothing at ``start``: a host the refinement found
    before the start of the library's span (its TLD alone, urlextract's discarded hits) or
    a domain written with ``。`` that the adapter found itself (issue 32, item 5).
    """
    return start > 0 and text[start - 1] in _TOKEN_INSIDE


#: The longest word around a domain written with ``。`` that the library is asked about
#: (:func:`_word_around`); the domain in a longer one is not linked (bounded time).
MAX_WORD = 2048
_SPACE = re.compile(r"\s")


def _word_around(text: str, spaces: list[int], start: int, end: int) -> tuple[int, int] | None:
    """The white-space-delimited word holding ``text[start:end]``, or None when it is longer than
    ``MAX_WORD`` (``spaces``: the offsets of the white space in ``text``, :func:`_spaces`).

    Django and Jinja2 split their input at white space and read each word on its own,
    bleach's patterns match no white space: the word is all the library reads around a host.
    """
    k = bisect.bisect_left(spaces, start)
    lo = spaces[k - 1] + 1 if k else 0
    hi = spaces[k] if k < len(spaces) else len(text)
    return (lo, hi) if hi - lo <= MAX_WORD and end <= hi else None


def _spaces(text: str) -> list[int]:
    """The offsets of the white space (``\\s``) in ``text``."""
    return [m.start() for m in _SPACE.finditer(text)]


def _running_ends(raw: Sequence[RawLink]) -> list[int]:
    """The largest end of ``raw[:k + 1]`` for each ``k`` (``raw`` sorted by start)."""
    ends = []
    top = -1
    for r in raw:
        top = max(top, r.end)
        ends.append(top)
    return ends


def _inside_raw(raw: Sequence[RawLink], ends: list[int], pos: int) -> bool:
    """Whether ``pos`` is strictly inside one of the spans ``raw`` (sorted by start; ``ends``: :func:`_running_ends`)."""
    k = bisect.bisect_left(raw, pos, key=_START) - 1  # the spans starting before pos
    return k >= 0 and ends[k] > pos


def _no_match(text: str, pos: int) -> None:
    """``LANE``'s match without the lane."""
    return None


def _refine(
    text: str,
    raw: Sequence[RawLink],
    strict_hosts: bool,
    scheme_ok: hosts.SchemeCheck,
    accepts_host: HostCheck | None = None,
) -> list[Link]:
    """Steps 1 to 3 of :func:`refine_links`."""
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    has_at = "@" in text
    has_sep = not text.isascii() and ("\u3002" in text or "\uff0e" in text or "\uff61" in text)
    if not raw and not has_at and not has_sep:
        return []
    n = len(text)
    raw_sorted = sorted(raw, key=_START) if len(raw) > 1 else list(raw)

    # 1. URLs: (start, end, after_host, link)
    urls: list[tuple[int, int, int, Link]] = []
    seen: set[int] = set()
    covered_end = 0  # raw spans starting inside a URL already found are skipped (linear time)
    raw_ends: list[int] | None = None  # _running_ends(raw_sorted), on first use
    disjoint = True  # each URL found starts at or after the end of those before it
    lane = _LANE
    lane_match = None  # LANE.get(text).match and _SAFE_RUN.get(text), on first use
    safe = None
    host_run = hosts.host_run_end
    separators = hosts.SEPARATORS
    for r in raw_sorted:
        start = r.start
        raw_end = r.end
        if start < covered_end or not (0 <= start < raw_end <= n):
            continue
        if r.kind == "email" and text.startswith("@", host_run(text, start)):
            continue  # host characters up to an "@": a local part, which url_host rejects
        # host_fields, its lane inlined
        if lane_match is None:
            lane_match = LANE.get(text).match if lane else _no_match
        m = lane_match(text, start)
        found = _MISS if m is None else lane_fields(text, m, start, raw_end, strict_hosts, scheme_ok, r.scheme_length)
        if found is _MISS:
            found = host_fields(text, start, raw_end, strict_hosts, scheme_ok, r.scheme_length, None)
        if found is None:
            continue
        link_start, _hs, host_end, after_host, scheme, host = found
        if link_start in seen or (link_start < start and _inside_token(text, link_start)):
            continue
        if link_start < start:
            # Nor inside another span of the library's, whose start the library decided: bleach's
            # "a.om/\u200bhTtP:" before its email "//b.om/@z.co" (issue 32, fuzz seed 27).
            if raw_ends is None:
                raw_ends = _running_ends(raw_sorted)
            if _inside_raw(raw_sorted, raw_ends, link_start):
                continue
        seen.add(link_start)
        if after_host == n or text[after_host] not in "/?#":
            end = after_host  # (what _path_end returns)
        else:
            if safe is None:
                safe = _SAFE_RUN.get(text)
            end = _path_end(text, after_host, raw_end, safe, lane)
        # _href_url, inlined
        href = (
            (scheme if scheme and scheme != "//" else "https://")
            + host
            + ("." if text[host_end - 1] in separators else "")
            + text[host_end:end]
        )
        urls.append(
            (link_start, end, after_host, Link(link_start, end, text[link_start:end], "url", href, (start, raw_end)))
        )
        if link_start < covered_end:
            disjoint = False
        if end > covered_end:
            covered_end = end
    # Domains written with 。 ． ｡ (UTS #46 label separators), which backends cannot see.
    hits = hosts.separator_tld_hits(text) if has_sep else None
    if hits:
        url_host = hosts.url_host
        spans = sorted((u[0], u[1]) for u in urls)
        span_starts = [sp[0] for sp in spans]
        added_end = 0
        spaces: list[int] | None = None  # (computed on the first host the library is asked about)
        for pos in hits:
            i = bisect.bisect_right(span_starts, pos) - 1
            if pos < added_end or (i >= 0 and pos < spans[i][1]):
                continue  # inside a URL already found
            hm = url_host(text, pos, scheme_ok=scheme_ok)
            if hm is None or hm.start in seen or _inside_token(text, hm.start):
                continue
            if accepts_host is not None:
                if raw_ends is None:
                    raw_ends = _running_ends(raw_sorted)
                if spaces is None:
                    spaces = _spaces(text)
                if _inside_raw(raw_sorted, raw_ends, hm.start):
                    continue  # inside a span of the library's, which it read otherwise (``tel:ex。com``)
                word = _word_around(text, spaces, hm.start, hm.end)
                if word is None or not accepts_host(
                    hosts.normalize_separators(text[word[0] : word[1]]), hm.start - word[0], hm.end - word[0]
                ):
                    continue  # the library does not link the host in its "." form, in its word
            seen.add(hm.start)
            end = terminate(text, hm.end)
            added_end = end
            link = Link(hm.start, end, text[hm.start : end], "url", _href_url(text, hm, end), None)
            urls.append((hm.start, end, hm.end, link))
            disjoint = False
    if not disjoint:
        urls.sort(key=_FIRST)  # starts are distinct (``seen``)
    if not has_at:
        if disjoint:
            return [u[3] for u in urls]  # (sorted, and nothing overlaps)
        out: list[Link] = []
        last_end = -1
        for u in urls:
            if u[0] >= last_end:
                out.append(u[3])
                last_end = u[1]
        return out

    # 2. Emails.
    emails: list[Link] = []
    if has_at:
        maybe_userinfo = "://" in text  # else no "@" can end a userinfo
        raw_starts = list(map(_START, raw_sorted))
        local_run = None  # _LOCAL_RUN.get(text).match, for the plain path
        email_lane = _EMAIL_LANE.get(text).match if lane else _no_match
        domain_check = hosts.domain_unicode if strict_hosts else hosts.lenient_domain
        at = text.find("@")
        while at != -1:
            # _raw_containing, its first probe inlined: a raw span holding the "@" (the lane's hint)
            i = bisect.bisect_right(raw_starts, at) - 1
            hint = raw_sorted[i] if i >= 0 and at < raw_sorted[i].end else None
            dom: tuple[int, str] | None = None
            email_start_at: int | None = None
            if hint is not None:
                # The email lane (see the comment before _EMAIL_LANE): the local part starts at
                # the backend's start, or after a "mailto:" there.
                h = hint.start
                m = email_lane(text, h)
                if m is None and _MAILTO_AT(text, h):
                    h += _MAILTO_LEN
                    m = email_lane(text, h)
                if m is not None and m.start(1) == at + 1 and at - h <= MAX_LOCAL_PART and m.end() - at <= MAX_HOST + 1:
                    domain = domain_check(m.group(1))
                    if domain is not None:
                        dom = (m.end(), domain)
                        email_start_at = (
                            h - _MAILTO_LEN if h >= _MAILTO_LEN and _MAILTO_AT(text, h - _MAILTO_LEN) else h
                        )
            if dom is None:
                # hosts.email_domain_end(text, at, strict_hosts), inlined
                hs = at + 1
                he = host_run(text, hs)
                if he - hs <= MAX_HOST:
                    while he > hs and text[he - 1] in separators:
                        he -= 1
                    if he > hs:
                        domain = domain_check(text[hs:he])
                        if domain is not None:
                            dom = (he, domain)
                if dom is None and not strict_hosts and _raw_containing(raw_sorted, raw_starts, at) is not None:
                    # Without strict_hosts, an address the backend reported may have a one-label domain.
                    dom = hosts.email_domain_end(text, at, False, single_label=True)
                if dom is not None:
                    if local_run is None:
                        local_run = _LOCAL_RUN.get(text).match
                    email_start_at = _email_start(text, at, local_run)
            if (
                dom is not None
                and email_start_at is not None
                and not (maybe_userinfo and hosts.has_userinfo_before(text, at))
                and not (urls and _inside_url_path(urls, at))
            ):
                dom_end, host = dom
                if hint is not None:
                    original: tuple[int, int] | None = (hint.start, hint.end)
                else:
                    original = _raw_containing(raw_sorted, raw_starts, at)
                href = mailto_href(text[email_start_at:at], host)
                emails.append(Link(email_start_at, dom_end, text[email_start_at:dom_end], "email", href, original))
            at = text.find("@", at + 1)

    # 3. Merge: emails win over overlapping URLs; then keep the result non-overlapping.
    if not urls and len(emails) < 2:
        return emails  # (an email is never empty)
    if emails:
        kept = []
        ei = 0
        for u in urls:
            s, e = u[0], u[1]
            while ei < len(emails) and emails[ei].end <= s:
                ei += 1
            j = ei
            clash = False
            while j < len(emails) and emails[j].start < e:
                if emails[j].end > s:
                    clash = True
                    break
                j += 1
            if not clash:
                kept.append(u[3])
        # Emails come sorted by strictly increasing start (one per ``@``, and a local part
        # or its ``mailto:`` never holds an ``@``): only a merge with URLs needs a sort.  No
        # kept URL starts where an email does (they would overlap), so the start is the key.
        candidates = sorted(kept + emails, key=_START) if kept else emails
    else:
        candidates = [u[3] for u in urls]
    out = []
    last_end = -1
    for link in candidates:
        if link.start >= last_end and link.end > link.start:
            out.append(link)
            last_end = link.end
    return out


#: Longest local part looked at (RFC 5321 allows 64 octets); a longer run of Link_Email
#: characters before an ``@`` gives no link, which keeps the back-scan linear (§8 limits).
MAX_LOCAL_PART = 256


def _local_run(below: int) -> str:
    """``([...]*)(:otliam)?``: the BMP characters :func:`~.email.email_start` scans back over
    (Link_Email and ``.``), then an optional ``mailto:``, for the reversed text before an ``@``.

    Astral ranges are left out (``re`` would test each of them on every character that
    fails the class); a run stopped by an astral character takes the plain loop.
    """
    local = class_body(flag_runs(lambda b: b & EMAIL_BIT != 0, 0x10000), below=below)
    # Group 1: the local part; then an optional "mailto:" in any ASCII case (schemes are
    # case-insensitive, as in email_start), all read backwards.  Not re.IGNORECASE,
    # which would also take "ı" (dotless i) for "i", where str.lower() does not.
    mailto = "".join(f"[{c}{c.upper()}]" if c.isalpha() else c for c in reversed(MAILTO))
    return f"([{local}.]*)({mailto})?"


#: The run :func:`~.email.email_start` scans and a ``mailto:`` before it, matched on the reversed text before the ``@``.
_LOCAL_RUN = FlagPattern(_local_run)
_MAILTO_LEN = len(MAILTO)


def _email_start(text: str, at: int, local_run: Callable[[str], re.Match[str] | None] | None = None) -> int | None:
    """§5.2 ``email_start`` on a bounded window before the ``@``.

    The same result as ``email_start`` on ``text[lo : at + 1]`` (``lo`` = ``at`` minus
    MAX_LOCAL_PART minus ``mailto:``), the run of local-part characters being matched
    backwards by one regex on the reversed window instead of a Python loop.
    ``local_run`` is ``_LOCAL_RUN.get(text).match`` (found here when None).
    """
    if at == 0 or text[at - 1] == ".":
        return None
    lo = at - MAX_LOCAL_PART - _MAILTO_LEN
    base = lo if lo > 0 else 0
    if local_run is None:
        local_run = _LOCAL_RUN.get(text).match
    m = local_run(text[at - 1 : base - 1 : -1] if base else text[at - 1 :: -1])
    assert m is not None  # the pattern matches the empty string
    local_start = at - m.end(1)
    if local_start > base and m.end(2) == -1 and ord(text[local_start - 1]) > 0xFFFF:
        return _email_start_loop(text, at)
    if local_start == at or text[local_start] == "." or ".." in text[local_start:at]:
        return None
    if lo > 0 and m.end(2) == -1 and local_start - lo < _MAILTO_LEN:
        return None  # the local part runs past the window: too long
    return at - m.end()


def _email_start_loop(text: str, at: int) -> int | None:
    """:func:`_email_start` with ``email_start``'s own loop (for astral characters)."""
    lo = at - MAX_LOCAL_PART - _MAILTO_LEN
    if lo <= 0:
        return email_start(text, at)
    start = email_start(text[lo : at + 1], at - lo)
    if start is None:
        return None
    if start < _MAILTO_LEN and text[lo + start : lo + start + _MAILTO_LEN].lower() != MAILTO:
        return None  # the local part runs past the window: too long
    return lo + start


# --- The email lane: the common shape, with what the plain path would give ---------------------
#
# ``_EMAIL_LANE`` matched at ``h`` (the start of a backend span holding the ``@``, or just
# after a ``mailto:`` there), its ``@`` being the one at ``at``: the plain path's results are
# ``dom = (m.end(), domain_check(m.group(1)))`` and ``email_start_at`` = ``h``, or ``h - 7``
# after a ``mailto:`` in any ASCII case.  Why, condition by condition:
#
# 1. Local part.  ``text[h:at]`` is ASCII Link_Email characters other than ``.``, and single
#    ``.`` between them (possessive: no backtracking), so it is not empty, neither starts nor
#    ends with ``.`` and holds no ``..``.  The character before ``h`` is no Link_Email
#    character, nor ``.`` (the lookbehind's class holds every Link_Email code point of the
#    BMP and every astral code point).  So §5.2's backward scan (``email_start``) stops at
#    ``h`` and accepts it.  With ``at - h <= MAX_LOCAL_PART``, :func:`_email_start` gives
#    ``email_start``'s result (its window holds the local part and the 7 code points before
#    it): ``h``, or ``h - 7`` when its group 2 (``mailto:`` in any ASCII case, read backwards)
#    matches right before ``h``, which ``_MAILTO_AT`` tests forwards.
# 2. Domain.  ``m.group(1)`` is ASCII letters, digits and ``-`` in labels joined by single
#    ``.`` (at least two labels), and the character after it is no host character (the class
#    of ``_HOST_RUN``, separators and every astral code point included).  So with at most
#    ``MAX_HOST`` characters it is ``host_run_end``'s run from ``at + 1`` (no astral code point
#    to cut at), with no trailing separator to strip: the plain path validates the same string
#    with the same ``domain_check``.  When that gives None, the plain path runs (a one-label
#    domain without ``strict_hosts``).
# 3. The rest (userinfo, an ``@`` inside a URL's path, ``href``, ``original``) is the plain
#    path's own code, for both.


def _email_lane(below: int) -> str:
    local = class_body(flag_runs(lambda b: b & EMAIL_BIT != 0, 0x80), excluded=".")
    before = class_body(flag_runs(lambda b: b & EMAIL_BIT != 0, 0x10000) + [(0x10000, 0x10FFFF)], below=below)
    return (
        rf"(?<![{before}])[{local}]++(?:\.[{local}]++)*+@"
        rf"([A-Za-z0-9\-]++(?:\.[A-Za-z0-9\-]++)++)(?![{_host_class(below)}])"
    )


#: The common shape of an email (see the comment above); ``_EMAIL_LANE`` is off with ``_LANE``.
_EMAIL_LANE = FlagPattern(_email_lane)
#: The lane for :func:`_lone_email`: the span's host run (ASCII) must end at the ``@`` too.
_LONE_EMAIL = FlagPattern(lambda below: f"(?=[A-Za-z0-9.\\-]{{1,{MAX_HOST + 1}}}+@)" + _email_lane(below))
#: ``mailto:`` in any ASCII case (as ``_LOCAL_RUN`` reads it; not re.IGNORECASE, which takes "ı").
_MAILTO_AT = re.compile("".join(f"[{c}{c.upper()}]" if c.isalpha() else c for c in MAILTO)).match


def _lone_email(text: str, r: RawLink, strict_hosts: bool) -> list[Link] | None:
    """:func:`_refine`'s result for a text with one ``@``, no ``。 ． ｡`` and one raw span ``r``,
    an email holding the ``@`` whose shape the email lane takes; None (unsure) otherwise.

    Step 1: ``r`` is skipped: its host run ends at the ``@`` (``_LONE_EMAIL``'s lookahead:
    ASCII host characters, at most ``MAX_HOST + 1`` of them as in ``_HOST_RUN``, then the
    ``@``; the local part after it is ASCII, so ``host_run_end`` has no other code point to
    read), so there is no URL, and no domain written with ``。``.  Step 2: the one ``@`` is in
    ``r``, the hint, and the lane decides as in :func:`_refine` (the same tests; a ``mailto:``
    at the hint stops the host run, so it is not looked for there); an ``@`` that may end a
    URL's userinfo goes to :func:`_refine`.  The local part holds no ``:`` (no Link_Email
    character), so the href starts with the ``mailto:`` found before it, or has one added.
    Step 3: with no URL and one email, the email is the result.
    """
    start = r.start
    end = r.end
    at = text.find("@")
    if not (0 <= start <= at < end <= len(text)) or text.find("@", at + 1) != -1:
        return None
    m = _LONE_EMAIL.get(text).match(text, start)
    h = start
    if m is None or m.start(1) != at + 1 or at - h > MAX_LOCAL_PART:
        return None
    dom_end = m.end()
    if dom_end - at > MAX_HOST + 1:
        return None
    host = (hosts.domain_unicode if strict_hosts else hosts.lenient_domain)(m.group(1))
    if host is None or ("://" in text and hosts.has_userinfo_before(text, at)):
        return None
    if h >= _MAILTO_LEN and text[h - 1] == ":" and _MAILTO_AT(text, h - _MAILTO_LEN):
        h -= _MAILTO_LEN
    return [Link(h, dom_end, text[h:dom_end], "email", mailto_href(text[h:at], host), (start, end))]


def _inside_url_path(urls: list[tuple[int, int, int, Link]], at: int) -> bool:
    """Whether ``at`` lies in the path, query or fragment of one of the URLs (sorted by start)."""
    i = bisect.bisect_right(urls, at, key=_FIRST) - 1
    # URLs are sorted by start and hardly ever nested: a few neighbours suffice.
    for j in range(i, max(-1, i - 8), -1):
        _s, e, after_host, _ = urls[j]
        if after_host <= at < e:
            return True
    return False


def _raw_containing(raw: list[RawLink], starts: list[int], pos: int) -> tuple[int, int] | None:
    """The span of the last raw link (sorted by start; ``starts`` are their starts) that contains
    ``pos``, looking back 4096 code points."""
    i = bisect.bisect_right(starts, pos) - 1
    while i >= 0:
        r = raw[i]
        if r.start <= pos < r.end:
            return (r.start, r.end)
        i -= 1
        if pos - r.start > 1 << 12:
            break
    return None


# The compiled twins, when the extension is built and $UTS58_ADAPT_PURE is not 1 (_dispatch.py).
_path_end = choose(_path_end)
_email_start = choose(_email_start, "email_start_window")
