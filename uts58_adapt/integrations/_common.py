"""Helpers shared by the integrations: refinement under the library's own acceptance, and hrefs."""

from __future__ import annotations

import contextlib
import dataclasses
import html
import re
from collections.abc import Callable, Sequence
from html.entities import html5 as _HTML5_ENTITIES

from ..backends._html5_text import decode_text
from ..backends.base import RawLink
from ..html import BIDI_CONTROLS, FORBIDDEN_SCHEMES, _escape_bidi
from ..link import Link
from ..properties import FLAGS, HARD, TERM_MASK, is_link_email
from ..refine.acceptance import EmailCheck, HostCheck, SchemeProbe, scheme_check
from ..refine.hosts import default_scheme_ok
from ..refine.migration import refine_links, refine_span
from ..refine.risk_profile import RejectRisky, profile_of

__all__ = [
    "WINDOW",
    "clear_memo",
    "completes_reference",
    "escape_bidi",
    "escape_bidi_references",
    "mask_hard_references",
    "refine",
    "refine_at",
    "refine_window",
    "refined_span",
    "risk_filter",
    "safe_scheme",
    "with_entity_end",
]

_MAILTO = "mailto:"
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*(?=:)")
_HOSTLESS = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:(?!//)")

escape_bidi = _escape_bidi
#: What ``html.unescape`` reads as a character reference (its pattern, ``;`` optional).
_REFERENCE = re.compile(r"&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)")


def escape_bidi_references(text: str, decode: Callable[[str], str] = html.unescape) -> str:
    """``text`` (link text that the output shows with its character references decoded) with each
    reference to a Bidi_Control character replaced by that character percent-escaped (UTS #58 §8),
    as :func:`escape_bidi` shows one written as it is: ``&#x202e;`` is shown ``%E2%80%AE``.

    ``decode``: how the renderer decodes one reference (mistune's ``unescape`` needs the ``;``).
    """
    if "&" not in text:
        return text

    def one(reference: re.Match[str]) -> str:
        decoded = decode(reference.group())
        return reference.group() if BIDI_CONTROLS.isdisjoint(decoded) else _escape_bidi(decoded)

    return _REFERENCE.sub(one, text)


#: A character reference as bleach keeps one in a text node: with its ``;`` (``&#3`` is escaped to ``&amp;#3``).
_ENDED_REFERENCE = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")


def mask_hard_references(text: str) -> str:
    """``text`` (HTML text whose character references are unread: bleach's text nodes) with each
    reference to one character whose Link_Term is Hard (a control, a space: ``&#7;``, ``&nbsp;``)
    written as as many U+0000 characters, for the refinement only: §3.5.1 ends a link before that
    character, as it would before the character written as it is.  A reference is read as the
    HTML Standard reads it (``&#7;`` is U+0007, where ``html.unescape`` reads nothing).
    Bidi_Control characters are left as they are (they are shown percent-escaped in a link:
    :func:`escape_bidi_references`).  Offsets are unchanged.
    """
    if "&" not in text:
        return text

    def one(reference: re.Match[str]) -> str:
        decoded = decode_text(reference.group())
        if len(decoded) == 1 and decoded not in BIDI_CONTROLS and FLAGS[ord(decoded)] & TERM_MASK == HARD:
            return "\0" * len(reference.group())
        return reference.group()

    return _ENDED_REFERENCE.sub(one, text)


def refine(
    text: str,
    raw: Sequence[RawLink],
    accepts_email: EmailCheck | None,
    *,
    strict_hosts: bool = False,
    scheme_probe: SchemeProbe | None = None,
    reject_risky: RejectRisky = False,
    accepts_host: HostCheck | None = None,
    hard_references: bool = False,
) -> list[Link]:
    """Refine ``raw`` (the library's spans in ``text``) to UTS #58 links, the library deciding scheme and host.

    As in ``wrap()`` (``refine.acceptance``): a scheme the library's span starts with is
    kept, one the refinement finds before a host the library reported is kept when
    ``scheme_probe`` says the library links it (without a probe: http, https and ftp);
    only invalid hosts are rejected unless ``strict_hosts`` (§1.4's registrable-domain
    rule); emails the library did not report are kept only when ``accepts_email`` accepts
    the same address with the local part ``a``, and ``accepts_email=None`` (emails
    switched off) drops every email.  Hostless links the library made are kept as they are.
    ``reject_risky``: the §8 checks of ``detect()`` (:func:`risk_filter`).  ``accepts_host``:
    whether the library links a bare host, asked for a domain written with ``。 ． ｡`` in its
    ``.`` form (``refine_links``); None links every valid one.  ``hard_references``: ``text`` is
    HTML text with its character references unread, and a reference to a Hard character ends a
    link as that character does (:func:`mask_hard_references`).
    """
    links = refine_links(
        mask_hard_references(text) if hard_references else text,
        raw,
        strict_hosts=strict_hosts,
        scheme_ok=scheme_check(scheme_probe, default_scheme_ok),
        accepts_email=accepts_email,
        accepts_host=accepts_host,
    )
    if hard_references and "&" in text:
        links = [link for link in links if link.kind != "email" or not after_email_reference(text, link.start)]
    if accepts_email is None:
        links = [link for link in links if link.kind != "email" or _own_mailto(text, raw, link)]
    elif any(link.text[:2] == "//" for link in links):
        links = _without_emails_read_as_urls(raw, links)
    if reject_risky:
        links = risk_filter(text, links, strict_hosts=strict_hosts, reject_risky=reject_risky)
    return _with_hostless(text, raw, links)


def _own_mailto(text: str, raw: Sequence[RawLink], link: Link) -> bool:
    """Whether the email ``link`` is the library's own ``mailto:`` URL, refined (§5.2).

    With its emails switched off a library may still link ``mailto:info@example.com`` as a
    URL (bleach's ``url_re``, ``mailto`` being one of its protocols, reads ``info@`` as
    userinfo): the library linked it, so it stays linked, an email from the same start.
    """
    start = link.start
    return (
        link.original is not None
        and link.original[0] == start
        and text[start : start + 7].lower() == _MAILTO
        and any(r.kind == "url" and (r.start, r.end) == link.original for r in raw)
    )


def _without_emails_read_as_urls(raw: Sequence[RawLink], links: list[Link]) -> list[Link]:
    """``links`` without a scheme-relative URL (``//p``) made of one of the library's emails.

    The library links ``//p>@e.c`` (Jinja2) or ``//x#@z.co`` (bleach) as an email; the
    refinement reads ``//p`` as a URL to the host ``p``, which the library never links: the
    drop-in contract (the library decides the host) leaves that span unlinked (issue 32).
    """
    emails = {(r.start, r.end) for r in raw if r.kind == "email"}
    return [link for link in links if not (link.kind == "url" and link.text[:2] == "//" and link.original in emails)]


def risk_filter(text: str, links: list[Link], *, strict_hosts: bool, reject_risky: RejectRisky = True) -> list[Link]:
    """``reject_risky=True``: ``links`` without those with a §8 risk, an ideographic start moved
    (:func:`uts58_adapt.refine.risks.reject_risky_links`, as ``detect()`` and ``wrap()`` apply it).

    Imported on first use: the UTS #39 tables are loaded only when the option is on.
    """
    from ..refine.risks import reject_risky_links

    return reject_risky_links(text, links, strict_hosts=strict_hosts, profile=profile_of(reject_risky))


def _with_hostless(text: str, raw: Sequence[RawLink], links: list[Link]) -> list[Link]:
    """``links`` plus the library's links with a scheme and no host (``tel:123``), unchanged.

    They are outside UTS #58 (as in ``wrap()``); one that overlaps a refined link is dropped.
    """
    extra = []
    for r in raw:
        span = text[r.start : r.end]
        hostless = r.kind == "url" and span[:7].lower() != _MAILTO and _HOSTLESS.match(span) and safe_scheme(span)
        if hostless and not any(link.start < r.end and r.start < link.end for link in links):
            extra.append(Link(r.start, r.end, span, "url", span, (r.start, r.end)))
    return sorted(links + extra, key=lambda link: link.start) if extra else links


def safe_scheme(href: str) -> bool:
    """Whether ``href`` has no scheme or one that cannot run script (not javascript:, vbscript:, data:)."""
    m = _SCHEME.match(href)
    return m is None or m.group().lower() not in FORBIDDEN_SCHEMES


#: How far past a library's match refinement may look (a link is longer than this only in abuse).
WINDOW = 4096
_SPACE = re.compile(r"\s")


#: The ``scheme_ok`` of every :func:`refine_at`: the library's own span decides (mistune's
#: and magiclink's patterns name their schemes), a scheme found before it is http(s) or ftp.
_SCHEME_OK = scheme_check(None, default_scheme_ok)
#: :func:`refine_at`'s memo: (window, span length, kind, strict_hosts, reject_risky) -> the
#: refined link's (start, end, text, href) in the window, or None.  The result depends on
#: nothing else, so a link seen again (a document rendered again, a URL repeated in a
#: thread) costs a dictionary look-up.  Bounded: at most MEMO_SIZE windows of at most
#: MEMO_TEXT code points, the oldest dropped first.
MEMO_SIZE = 2048
MEMO_TEXT = 512
_MemoKey = tuple[str, int, str, bool, RejectRisky]
_memo: dict[_MemoKey, tuple[int, int, str, str] | None] = {}
_MISSING = (-1, -1, "", "")  # what _memo.get gives for a window not in it


def clear_memo() -> None:
    """Empty :func:`refine_at`'s memo (benchmarks time the work, not the memo)."""
    _memo.clear()


#: A character reference ending where an email starts (read backwards from the start: ``;`` first).
_REFERENCE_BEFORE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});\Z")


def after_email_reference(text: str, start: int) -> bool:
    """Whether the email starting at ``text[start]`` (HTML text, references unread) follows a
    character reference to a Link_Email character: the local part a reader sees goes on into it
    (``&#xc1;ς@e.om`` shows ``Áς@e.om``; UTS #58 §5.2 reads the ``;`` of the reference), so the
    address is not linked (bleach's Cleaner, fuzz seed 29, issue 32).  ``&lt;a@b.c&gt;`` is linked."""
    if start == 0 or text[start - 1] != ";":
        return False
    m = _REFERENCE_BEFORE.search(text, max(0, start - 40), start)
    if m is None:
        return False
    decoded = html.unescape(m.group())
    return len(decoded) == 1 and decoded != m.group() and is_link_email(decoded)


def refine_at(
    data: str,
    start: int,
    end: int,
    kind: str,
    *,
    strict_hosts: bool = False,
    window_end: int | None = None,
    reject_risky: RejectRisky = False,
) -> Link | None:
    """The refined link that the library's span ``data[start:end]`` becomes, or None.

    For inline parsers (mistune, Python-Markdown) that find one span at a time: the span
    is refined in the text from ``start`` to the next white space after ``end`` (at most
    ``WINDOW`` code points), and the refined link is returned with offsets into ``data``.
    The library decides scheme and host as in :func:`refine` (``strict_hosts`` as there).
    ``window_end``: where that text ends, when the caller knows (no white space before it).
    ``reject_risky``: None for a link with a §8 risk; an ideographic start moves (:func:`risk_filter`).
    The result depends only on that text and the options: it is memoized (``MEMO_SIZE``).
    """
    if window_end is None:
        space = _SPACE.search(data, end, min(len(data), end + WINDOW))
        window_end = space.start() if space else min(len(data), end + WINDOW)
    found = refined_span(data, start, end, kind, window_end, strict_hosts, reject_risky)
    if found is None:
        return None
    return Link(found[0], found[1], found[2], kind, found[3], (start, end))  # type: ignore[arg-type]


def refined_span(
    data: str, start: int, end: int, kind: str, window_end: int, strict_hosts: bool, reject_risky: RejectRisky
) -> tuple[int, int, str, str] | None:
    """:func:`refine_at` (``window_end`` given) as ``(start, end, text, href)`` in ``data``, or None:
    the inline integrations' path, one call per span and no Link built."""
    window = data[start:window_end]
    key = (window, end - start, kind, strict_hosts, reject_risky)
    found = _memo.get(key, _MISSING)
    if found is _MISSING:
        found = refine_window(window, end - start, kind, strict_hosts=strict_hosts, reject_risky=reject_risky)
        if len(window) <= MEMO_TEXT:
            if len(_memo) >= MEMO_SIZE:
                with contextlib.suppress(KeyError, StopIteration, RuntimeError):  # another thread got there first
                    del _memo[next(iter(_memo))]
            _memo[key] = found
    if found is None:
        return None
    return found[0] + start, found[1] + start, found[2], found[3]


def refine_window(
    window: str, length: int, kind: str, *, strict_hosts: bool = False, reject_risky: RejectRisky = False
) -> tuple[int, int, str, str] | None:
    """:func:`refine_at` without its memo, in ``window`` (the library's span is ``window[:length]``):
    the refined link's ``(start, end, text, href)`` in the window, or None."""
    if not reject_risky:
        return refine_span(window, 0, length, kind, strict_hosts=strict_hosts, scheme_ok=_SCHEME_OK)  # type: ignore[arg-type]
    raw = [RawLink(0, length, kind)]  # type: ignore[arg-type]
    links = risk_filter(
        window,
        refine_links(window, raw, strict_hosts=strict_hosts, scheme_ok=_SCHEME_OK),
        strict_hosts=strict_hosts,
        reject_risky=reject_risky,
    )
    for link in links:
        if link.kind == kind and link.original == (0, length):
            return link.start, link.end, link.text, link.href
    return None


_ENTITY_START = re.compile(r"&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*)\Z")


def with_entity_end(text: str, link: Link) -> Link:
    """``link`` with the ``;`` that ends an HTML character reference in it (``…&amp`` + ``;``).

    In HTML text (Django's urlize input, bleach's text nodes) ``&amp;`` is one character: the ``;``
    that completes it is not a trailing Soft character of the link (§3.5.1 applies to ``&``).
    """
    if not completes_reference(text, link.end, link.text):
        return link
    return dataclasses.replace(link, end=link.end + 1, text=link.text + ";")


def completes_reference(text: str, end: int, link_text: str) -> bool:
    """Whether the ``;`` at ``text[end]`` completes an HTML character reference that ``link_text``
    (the link's text, ending at ``end``) ends with: ``…&amp`` followed by ``;``."""
    if text[end : end + 1] != ";" or "&" not in link_text:
        return False
    m = _ENTITY_START.search(link_text)
    if m is None:
        return False
    name = m.group(1)
    return name.startswith("#") or name + ";" in _HTML5_ENTITIES
