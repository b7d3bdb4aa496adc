"""``detect()``: find links with an existing linkifier and make the result conform to UTS #58.

The backend finds candidates; the refinement stage (UTS #58 §10, see
:mod:`uts58_adapt.refine.migration`) fixes the host, the end of each URL (§3.5.1) and
the emails (§5.2).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .backends import BACKENDS, get_backend
from .backends.base import Backend, RawLink
from .link import Link
from .refine.email import mailto_href
from .refine.risk_profile import RejectRisky, profile_of, reject_risky_value

# The refinement stage (regex tables, IDNA) is imported on the first refined call, so
# importing this module stays cheap (``uts58_adapt/__init__.py`` may import it eagerly).
_refine_links: Callable[..., list[Link]] | None = None
_reject_risky_links: Callable[..., list[Link]] | None = None
_schemes_after: Callable[[str], list[tuple[int, int]]] | None = None

__all__ = ["DEFAULT_MAX_LENGTH", "detect", "detect_pair"]

#: Default length limit for one link, in code points (UTS #58 §8 allows limits).
DEFAULT_MAX_LENGTH = 4096


def _resolve(backend: str | Backend) -> Backend:
    if isinstance(backend, str):
        return get_backend(backend)
    # What isinstance(backend, Backend) checks, without its cost (~15 µs per call for a
    # runtime-checkable Protocol, as much as detecting a short line).
    if hasattr(backend, "find") and hasattr(backend, "name"):
        return backend
    raise TypeError(
        f"backend must be a backend name ({', '.join(BACKENDS)}) or a Backend object, not {type(backend).__name__}"
    )


def detect(
    text: str,
    backend: str | Backend = "linkify-it",
    refine: bool = True,
    *,
    max_length: int | None = DEFAULT_MAX_LENGTH,
    strict_hosts: bool = True,
    reject_risky: RejectRisky = False,
) -> list[Link]:
    """Return the links in ``text``, sorted by start and non-overlapping.

    ``backend`` is ``"linkify-it"`` (default), ``"urlextract"``, or any object with a
    ``name`` and a ``find(text) -> list[RawLink]`` method.  With ``refine=True`` the
    backend's spans are refined to UTS #58 (§10 migration), starting from the backend's
    ``candidates(text)`` when it has that method (its own links plus the hits it found
    and discarded), else from ``find(text)``; with ``refine=False`` they
    are returned as the backend reported them (``original`` is the link's own span), the
    "before" view for audits.

    ``max_length`` (UTS #58 §8, security considerations, allows length limits): links longer
    than this many code points are dropped, not shortened, so a pathological input
    cannot produce a giant link.  ``None`` means no limit.  The default is 4096.

    ``strict_hosts`` (default on): a host must be a registrable domain (§1.4: its TLD in
    the ICANN section of the PSL snapshot, not a public suffix alone, no ``localhost``;
    an IPv4 address only after a scheme).  Off, only invalid hosts are rejected (empty
    labels, bad hyphens, UTS #46 failures).  Either way a ``scheme://`` is linked only
    for http, https and ftp, so every refined href starts with ``http://``, ``https://``,
    ``ftp://`` or ``mailto:``.  With refinement, an explicit ``http://``, ``https://`` or
    ``ftp://`` right after a non-ASCII letter (``詳しくはhttps://example.com``) is a link
    start too, whatever the backend saw there (:mod:`uts58_adapt.refine.initiation`).

    ``reject_risky`` (default off): the UTS #58 §8 checks above detection.  A link in
    which :func:`uts58_adapt.link_risks` finds a risk is not returned (``"browser"``: the
    risks of ``link_risks(..., profile="browser")``), except that for
    ``ideographic-boundary`` alone its start moves instead (``ウェブサイトはexample.com``
    gives ``example.com``); see :func:`uts58_adapt.refine.risks.reject_risky_links`.

    Any ``str`` is accepted, including lone surrogates, NUL and every plane; a non-str
    ``text`` raises TypeError, an unknown backend name ValueError (listing the names), a
    ``backend`` that is neither a name nor a Backend TypeError.
    """
    if type(text) is str and type(backend) is str and (max_length is None or type(max_length) is int):
        impl = get_backend(backend)  # the common call, checked in three type() tests
    else:
        impl = _checked(text, backend, max_length)
    if reject_risky is not False and reject_risky is not True:
        reject_risky = reject_risky_value(reject_risky)  # "browser", or a clear error for a misspelt value
    if not text:
        return []
    if refine:
        find: Callable[[str], list[RawLink]] = getattr(impl, "candidates", None) or impl.find
        raw = find(text)
        if not raw and (("@" not in text and text.isascii()) or _nothing_to_refine(impl, text)):
            return []
        links = _refined(impl, text, raw, strict_hosts)
    else:
        links = _unrefined(text, impl.find(text))
    links = _within(links, max_length)
    return _without_risky(text, links, strict_hosts, reject_risky) if reject_risky else links


def detect_pair(
    text: str,
    backend: str | Backend = "linkify-it",
    *,
    max_length: int | None = DEFAULT_MAX_LENGTH,
    strict_hosts: bool = True,
    reject_risky: RejectRisky = False,
) -> tuple[list[Link], list[Link]]:
    """``(detect(text, backend, refine=False), detect(text, backend, refine=True))``, from one
    backend pass where the backend allows it (the audit's "before" and "after").

    The backend's ``find(text)`` gives the "before" links and is refined into the "after"
    ones.  A backend with a ``candidates(text)`` method (urlextract) is refined from its
    candidates, as ``detect`` does; when it also has ``find_and_candidates(text)``, both
    come from that one call (urlextract's: one pass of the candidates' extractor, which
    follows what the library itself would do; tests/test_report_pair.py checks the equality).
    ``reject_risky`` applies to both lists, as in ``detect``.
    """
    if type(text) is str and type(backend) is str and (max_length is None or type(max_length) is int):
        impl = get_backend(backend)  # the common call, checked in three type() tests (as in detect)
    else:
        impl = _checked(text, backend, max_length)
    if reject_risky is not False and reject_risky is not True:
        reject_risky = reject_risky_value(reject_risky)  # "browser", or a clear error for a misspelt value
    if not text:
        return [], []
    both: Callable[[str], tuple[list[RawLink], list[RawLink]]] | None = getattr(impl, "find_and_candidates", None)
    if both is not None:
        raw, refine_from = both(text)
    else:
        raw = impl.find(text)
        candidates = getattr(impl, "candidates", None)
        refine_from = candidates(text) if candidates else raw
    if not raw and not refine_from and (("@" not in text and text.isascii()) or _nothing_to_refine(impl, text)):
        return [], []  # as in detect: nothing to refine
    after = _refined(impl, text, refine_from, strict_hosts)
    before = _within(_unrefined(text, raw), max_length)
    after = _within(after, max_length)
    if reject_risky:
        return (
            _without_risky(text, before, strict_hosts, reject_risky),
            _without_risky(text, after, strict_hosts, reject_risky),
        )
    return before, after


def _checked(text: object, backend: str | Backend, max_length: object) -> Backend:
    """The backend of a ``detect``-style call, after the type checks of its arguments."""
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    if max_length is not None and (not isinstance(max_length, int) or isinstance(max_length, bool)):
        raise TypeError(f"max_length must be int or None, not {type(max_length).__name__}")
    return _resolve(backend)


#: The full stops other than ``.`` that UTS #46 maps to it (``refine.hosts.SEPARATORS``): the
#: refinement finds domains written with them on its own, with or without a backend span.
_OTHER_FULL_STOPS = re.compile("[\u3002\uff0e\uff61]")


def _nothing_to_refine(impl: Backend, text: str) -> bool:
    """Whether refining ``text`` with no backend span gives no link, decided without the refinement.

    With no span, the refinement's links can come only from an ``@`` (an email, dropped anyway
    when the backend's library links no email: ``links_emails``), a domain written with
    ``。 ． ｡``, or a scheme right after a non-ASCII letter (:func:`with_schemes_after_letters`).
    Most texts hold none of them: in ASCII text only the ``@`` matters.
    """
    if "@" in text and getattr(impl, "links_emails", True):
        return False
    if text.isascii():
        return True
    return _OTHER_FULL_STOPS.search(text) is None and not _scheme_after_non_ascii(text)


def _scheme_after_non_ascii(text: str) -> bool:
    """False when no ``://`` in ``text`` has a non-ASCII character among the six before it.

    Then no explicit scheme (``https`` at most, five letters) follows a non-ASCII letter and
    :func:`~uts58_adapt.refine.initiation.schemes_after_letters` gives nothing: this costs a
    ``str.find`` per ``://``, where that function runs a case-insensitive search of the text.
    True means there may be one (a letter of the scheme may be non-ASCII: ``ſ`` matches ``s``).
    """
    at = text.find("://")
    while at != -1:
        if not text[at - 6 if at > 6 else 0 : at].isascii():
            return True
        at = text.find("://", at + 3)
    return False


def _refined(impl: Backend, text: str, raw: list[RawLink], strict_hosts: bool) -> list[Link]:
    """§10: the backend's spans refined to UTS #58, with the schemes after a word (see ``detect``)."""
    global _refine_links
    if _refine_links is None:
        from .refine.migration import refine_links

        _refine_links = refine_links
    links = _refine_links(text, with_schemes_after_letters(text, raw), strict_hosts=strict_hosts)
    if not getattr(impl, "links_emails", True):  # a backend whose library never links emails
        links = [link for link in links if link.kind != "email"]
    keep: Callable[[str, list[Link]], list[Link]] | None = getattr(impl, "keep_refined", None)
    if keep is not None and links:  # the backend's own rule on its refined spans (urlextract's)
        links = keep(text, links)
    return links


def with_schemes_after_letters(text: str, raw: list[RawLink]) -> list[RawLink]:
    """``raw`` and a span for each explicit scheme right after a non-ASCII letter, which
    ``detect()`` refines too (:func:`uts58_adapt.refine.initiation.schemes_after_letters`).

    That function reads only each scheme and the character before it: it is given the few
    characters before each ``://`` that has a non-ASCII one among its six predecessors
    (see :func:`_scheme_after_non_ascii`), not the whole text.
    """
    if text.isascii():
        return raw
    extra: list[RawLink] = []
    at = text.find("://")
    while at != -1:
        lo = at - 6 if at > 6 else 0
        if not text[lo:at].isascii():
            for start, end in _schemes_after_letters()(text[lo : at + 3]):
                if end == at + 3 - lo:  # (only this "://"'s scheme: each is found in its own turn)
                    extra.append(RawLink(lo + start, lo + end, "url", end - start - 2))
        at = text.find("://", at + 3)
    return [*raw, *extra] if extra else raw


def _schemes_after_letters() -> Callable[[str], list[tuple[int, int]]]:
    """:func:`uts58_adapt.refine.initiation.schemes_after_letters`, imported on first use."""
    global _schemes_after
    if _schemes_after is None:
        from .refine.initiation import schemes_after_letters

        _schemes_after = schemes_after_letters
    return _schemes_after


def _without_risky(text: str, links: list[Link], strict_hosts: bool, reject_risky: RejectRisky = True) -> list[Link]:
    """``reject_risky=True`` (or ``"browser"``): :func:`uts58_adapt.refine.risks.reject_risky_links`."""
    global _reject_risky_links
    profile = profile_of(reject_risky)
    if not links:
        return links
    if _reject_risky_links is None:
        from .refine.risks import reject_risky_links

        _reject_risky_links = reject_risky_links
    return _reject_risky_links(text, links, strict_hosts=strict_hosts, profile=profile)


def _start_then_longest(r: RawLink) -> tuple[int, int]:
    return r.start, -r.end


def _unrefined(text: str, raw: list[RawLink]) -> list[Link]:
    """The backend's spans as links, as it reported them (``original`` is the link's own span)."""
    if not raw:
        return []
    links = []
    last_end = -1
    for r in sorted(raw, key=_start_then_longest) if len(raw) > 1 else raw:
        if r.start < last_end or not 0 <= r.start < r.end <= len(text):
            continue
        span = text[r.start : r.end]
        href = span
        if r.kind == "email":
            local, at, domain = span.rpartition("@")
            if at:
                href = mailto_href(local, domain)
            elif not span.lower().startswith("mailto:"):
                href = "mailto:" + span
        elif "://" not in span[:40] and not span.startswith("//"):
            href = "https://" + span
        links.append(Link(r.start, r.end, span, r.kind, href, (r.start, r.end)))
        last_end = r.end
    return links


def _within(links: list[Link], max_length: int | None) -> list[Link]:
    """``links`` without those longer than ``max_length`` code points (dropped, not shortened)."""
    if max_length is not None:
        for link in links:
            if link.end - link.start > max_length:
                return [link for link in links if link.end - link.start <= max_length]
    return links
