"""§10.1's "library acceptance": the wrapped library's configuration decides scheme and email.

Shared by ``wrapping`` (linkify-it, urlextract) and ``integrations`` (bleach, Django,
Jinja2, mistune, magiclink), which pass the library's own answers as callables:

- :func:`scheme_check` builds the ``scheme_ok`` of one refinement: a scheme is kept only
  when the library links that scheme before that host, asked with a probe
  ``scheme://host/`` (cached per refinement) whose link must have the scheme itself, not
  merely start with it: Django links ``ms-msdt://x.com`` as the bare domain
  ``http://ms-msdt://x.com``, so a span that starts with ``scheme:`` is no proof that the
  library recognizes the scheme (issue 21.1);
- :func:`accepted_emails` keeps an email the library did not report with exactly that
  span (a non-ASCII local part, say) only when the library accepts the same address
  with the local part ``a`` (same ``mailto:`` prefix, same domain), asked once per
  domain per refinement; ``refine_links(..., accepts_email=...)`` applies it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..link import Link
from .email import MAILTO
from .hosts import SchemeCheck

__all__ = ["EmailCheck", "SchemeProbe", "accepted_emails", "ascii_host", "email_probe", "scheme_check"]

#: ``accepts_email(address)``: whether the library links ``address`` (``a@domain`` or
#: ``mailto:a@domain``) whole.
EmailCheck = Callable[[str], bool]
#: ``probe(scheme, url)``: whether the library links ``url`` (``scheme//host/``) from its
#: start as a URL whose scheme is ``scheme`` (lower case, with ``:``): the href (or schema)
#: the library gives the link, not only its span, must have that scheme.
SchemeProbe = Callable[[str, str], bool]

#: Local part used to ask the library whether it would link an email on a domain.
PROBE_LOCAL = "a"


def ascii_host(host: str) -> str:
    """``host`` (a validated Unicode host) with its non-ASCII labels as ``xn--`` labels, for a probe."""
    if host.isascii():
        return host
    return ".".join(
        label if label.isascii() else "xn--" + label.encode("punycode").decode("ascii") for label in host.split(".")
    )


def scheme_check(probe: SchemeProbe | None, fallback: SchemeCheck | None = None) -> SchemeCheck:
    """The ``scheme_ok`` of one refinement: ``probe`` decides every scheme (cached per call).

    A scheme is kept only when the library links that scheme before the host, whether or
    not the library's own span starts with it (issue 21.1).  Without a probe (libraries
    whose pattern names their schemes, mistune's and magiclink's) the library's own span
    is trusted, and a scheme it did not report is decided by ``fallback`` (refused when
    there is none).
    """
    cache: dict[tuple[str, str], bool] = {}

    def ok(scheme: str, host: str, reported: bool) -> bool:
        if probe is None:
            return reported or (fallback is not None and fallback(scheme, host, reported))
        key = (scheme, host)
        if key not in cache:
            cache[key] = probe(scheme, f"{scheme}//{ascii_host(host)}/")
        return cache[key]

    return ok


def email_probe(address: str) -> str:
    """The address the library is asked about for ``address``: local part ``a``, same prefix and domain."""
    local, _, domain = address.rpartition("@")
    prefix = MAILTO if local[: len(MAILTO)].lower() == MAILTO else ""
    return f"{prefix}{PROBE_LOCAL}@{domain}"


def accepted_emails(links: Sequence[Link], accepts_email: EmailCheck) -> list[Link]:
    """``links`` without the emails the library rejects (see the module docstring).

    An email whose span is exactly one the library reported is kept without asking.
    """
    cache: dict[str, bool] = {}
    out = []
    for link in links:
        if link.kind == "email" and link.original != (link.start, link.end):
            probe = email_probe(link.text)
            if probe not in cache:
                cache[probe] = accepts_email(probe)
            if not cache[probe]:
                continue
        out.append(link)
    return out
