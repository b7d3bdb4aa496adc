"""§10.1's "library acceptance": the wrapped library's configuration decides scheme and email.

Shared by ``wrapping`` (linkify-it, urlextract) and ``integrations`` (bleach, Django,
Jinja2, mistune, magiclink), which pass the library's own answers as callables:

- :func:`scheme_check` builds the ``scheme_ok`` of one refinement: a scheme is kept only
  when the library links that scheme before that host, asked with a probe
  ``scheme://host/`` (cached per refinement) whose link must have the scheme itself, not
  merely start with it: Django links ``ms-msdt://x.com`` as the bare domain
  ``http://ms-msdt://x.com``, so a span that starts with ``scheme:`` is no proof that the
  library recognizes the scheme (issue 21.1); a :class:`HostProbe` is asked with the host
  and writes the probe only when it needs one;
- :func:`accepted_emails` keeps an email the library did not report with exactly that
  span (a non-ASCII local part, say) only when the library accepts the same address
  with the local part ``a`` (same ``mailto:`` prefix, same domain), asked once per
  domain per refinement; ``refine_links(..., accepts_email=...)`` applies it.  An
  :class:`EmailInWord` check is asked instead with the address *in its run*
  (:func:`email_word_probe`): inside a run of Link_Term=Include characters the library
  decides where an email may start, as it decides a host written with ``。`` in its word
  (issue 32, "new N1": Django links nothing in ``@c@b.jec``, so neither does the upgrade).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..link import Link
from ..properties import FLAGS, INCLUDE, TERM_MASK
from .email import MAILTO
from .hosts import SchemeCheck, normalize_separators
from .labels import a_label

__all__ = [
    "EmailCheck",
    "EmailInWord",
    "HostCheck",
    "HostProbe",
    "SchemeProbe",
    "accepted_emails",
    "ascii_host",
    "email_probe",
    "email_word_probe",
    "never_host",
    "overlaps_any",
    "scheme_check",
]

#: ``accepts_email(address)``: whether the library links ``address`` (``a@domain`` or
#: ``mailto:a@domain``) whole.
EmailCheck = Callable[[str], bool]
#: ``accepts_host(word, start, end)``: whether the library, given ``word`` (the white-space-delimited
#: word around a domain written with ``。 ． ｡``, in its ``.`` form), links a span that overlaps the
#: host ``word[start:end]``: the library decides the host, in the context it reads (issue 32).
HostCheck = Callable[[str, int, int], bool]


def overlaps_any(spans: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    """Whether one of the library's ``spans`` overlaps ``[start, end)`` (a :data:`HostCheck`'s answer)."""
    return any(s < end and start < e for s, e in spans)


def never_host(word: str, start: int, end: int) -> bool:
    """The :data:`HostCheck` of a library that was given the text in its ``.`` form already
    (``wrap()``): a domain written with ``。`` that none of its spans covers is one it does not link."""
    return False


#: ``probe(scheme, url)``: whether the library links ``url`` (``scheme//host/``) from its
#: start as a URL whose scheme is ``scheme`` (lower case, with ``:``): the href (or schema)
#: the library gives the link, not only its span, must have that scheme.
SchemeProbe = Callable[[str, str], bool]


class HostProbe:
    """A :data:`SchemeProbe` that is asked with the host itself: ``answer(scheme, host)``.

    :func:`scheme_check` calls ``answer`` with the Unicode host, so the probe finds its
    answer (kept across calls, or derived from the library's configuration) before it
    writes the URL it would give the library (:func:`ascii_host`, punycode, only then).
    Called as a :data:`SchemeProbe` (``scheme``, ``scheme//host/``), it asks ``answer``
    with the URL's (ASCII) host.
    """

    __slots__ = ("answer",)

    def __init__(self, answer: Callable[[str, str], bool]) -> None:
        self.answer = answer

    def __call__(self, scheme: str, url: str) -> bool:
        return self.answer(scheme, url[len(scheme) + 2 : -1])


#: Local part used to ask the library whether it would link an email on a domain.
PROBE_LOCAL = "a"
_NOT_ASCII = re.compile("[^\x00-\x7f]")


def ascii_local(local: str) -> str:
    """``local`` (an email's local part, or text standing for one) with each non-ASCII character
    written ``a`` (:data:`PROBE_LOCAL`), the same length: how an email is asked of a library that
    links only ASCII local parts, where UTS #58 §5.2 decides which characters a local part holds."""
    return local if local.isascii() else _NOT_ASCII.sub(PROBE_LOCAL, local)


def ascii_host(host: str) -> str:
    """``host`` (a validated Unicode host) with its non-ASCII labels as ``xn--`` labels, for a probe."""
    if host.isascii():
        return host
    return ".".join(map(a_label, host.split(".")))


def scheme_check(probe: SchemeProbe | None, fallback: SchemeCheck | None = None) -> SchemeCheck:
    """The ``scheme_ok`` of one refinement: ``probe`` decides every scheme (cached per call).

    A scheme is kept only when the library links that scheme before the host, whether or
    not the library's own span starts with it (issue 21.1).  Without a probe (libraries
    whose pattern names their schemes, mistune's and magiclink's) the library's own span
    is trusted, and a scheme it did not report is decided by ``fallback`` (refused when
    there is none).
    """
    if probe is None:

        def trusted(scheme: str, host: str, reported: bool) -> bool:
            return reported or (fallback is not None and fallback(scheme, host, reported))

        return trusted
    cache: dict[tuple[str, str], bool] = {}
    by_host = probe.answer if isinstance(probe, HostProbe) else None

    def ok(scheme: str, host: str, reported: bool) -> bool:
        key = (scheme, host)
        try:
            return cache[key]
        except KeyError:
            pass
        if by_host is not None:
            answer = by_host(scheme, host)
        else:
            answer = probe(scheme, f"{scheme}//{ascii_host(host)}/")
        cache[key] = answer
        return answer

    return ok


def email_probe(address: str) -> str:
    """The address the library is asked about for ``address``: local part ``a``, same prefix and domain,
    the domain in its ``.`` form (``a@c.com`` for ``σ@c。com``: the library decides the host in that form)."""
    local, _, domain = address.rpartition("@")
    prefix = MAILTO if local[: len(MAILTO)].lower() == MAILTO else ""
    return f"{prefix}{PROBE_LOCAL}@{normalize_separators(domain)}"


class EmailInWord:
    """An email check asked with the address in its word: ``answer(word, start, end)``, whether the
    library, given ``word`` (:func:`email_word_probe`), links an email (not a URL) over
    ``word[start:end]``, the address, that does not start before ``start`` (else the refined
    link would start inside the library's email; :func:`accepted_emails` moves ``start`` back
    to the library's own span where that span holds the address's start).

    :func:`accepted_emails` asks it in place of an :data:`EmailCheck`.  Called as an
    :data:`EmailCheck` (``a@domain`` alone), it asks ``answer`` with that address as its own word.
    """

    __slots__ = ("answer",)

    def __init__(self, answer: Callable[[str, int, int], bool]) -> None:
        self.answer = answer

    def __call__(self, probe: str) -> bool:
        return self.answer(probe, 0, len(probe))


#: How much of the run around an email :func:`email_word_probe` gives the library, on each side:
#: bounded, so that a run of thousands of characters costs what a short one does.
WORD_CONTEXT = 64


def _include_run_start(text: str, start: int) -> int:
    lo = max(0, start - WORD_CONTEXT)
    i = start
    while i > lo and FLAGS[ord(text[i - 1])] & TERM_MASK == INCLUDE:
        i -= 1
    return i


def _include_run_end(text: str, end: int) -> int:
    hi = min(len(text), end + WORD_CONTEXT)
    i = end
    while i < hi and FLAGS[ord(text[i])] & TERM_MASK == INCLUDE:
        i += 1
    return i


def email_word_probe(text: str, start: int, end: int) -> tuple[str, int, int]:
    """The text the library is asked about for the email ``text[start:end]``, and the address's span in it.

    The address with the characters around it that UTS #58 reads as one piece with it: the
    runs of Link_Term=Include characters right before and after it (``@`` in ``@c@b.jec``,
    ``/`` in ``x/σ@e.co``; at most :data:`WORD_CONTEXT` on each side).  A Soft, Open, Close or
    Hard character (white space, a bracket, a quotation mark, ``,``) is a boundary UTS #58
    decides at (§3.4, §5.2): the official ``⸠john.doe@example.com⸡`` links the email whether or
    not the library starts an email after ``⸠``.  The non-ASCII characters of the local part
    are written ``a`` (UTS #58 §5.2 decides which characters a local part holds) and every
    ``。 ． ｡`` is written ``.`` (the library decides the host in that form).  The probe has the
    length of the text it stands for, so the address keeps its offsets.
    """
    lo = _include_run_start(text, start)
    hi = _include_run_end(text, end)
    address = text[start:end]
    at = address.rfind("@")
    local = address[:at]
    word = text[lo:start] + ascii_local(local) + address[at:] + text[end:hi]
    return normalize_separators(word), start - lo, end - lo


def accepted_emails(links: Sequence[Link], accepts_email: EmailCheck, text: str | None = None) -> list[Link]:
    """``links`` without the emails the library rejects (see the module docstring).

    An email whose span is exactly one the library reported is kept without asking.  An
    :class:`EmailInWord` check is asked with the address in its word of ``text`` (the text
    ``links`` were found in), answers kept per word; any other check, with ``a@domain``.
    The span an :class:`EmailInWord` check is given starts at the address, or where the
    library's own span over the address's start starts (clamped to the word): a library email
    starting before it would hold the address's start (``/.emailto:a@e.om``: linkify-it links
    ``emailto:a@e.om`` in the run and nothing in the text), ``x.emailto:a@e.om``, which the
    library links whole, keeps its refined ``mailto:a@e.om`` (§5.2; issue 32).
    """
    cache: dict[str, bool] = {}
    in_word = accepts_email.answer if isinstance(accepts_email, EmailInWord) and text is not None else None
    out = []
    for link in links:
        if link.kind == "email" and link.original != (link.start, link.end):
            if in_word is not None and text is not None:
                word, start, end = email_word_probe(text, link.start, link.end)
                if link.original is not None and link.original[0] < link.start < link.original[1]:
                    # The library linked over the address's start: its email may start where its span does.
                    start = max(0, start - (link.start - link.original[0]))
                key = f"{start} {end} {word}"
                answer = cache.get(key)
                if answer is None:
                    answer = cache[key] = in_word(word, start, end)
            else:
                key = email_probe(link.text)
                answer = cache.get(key)
                if answer is None:
                    answer = cache[key] = accepts_email(key)
            if not answer:
                continue
        out.append(link)
    return out
