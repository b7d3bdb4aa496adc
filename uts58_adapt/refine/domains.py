"""The registrable-domain policy of UTS #58 §1.4: a valid host whose TLD is in the Public Suffix List.

UTS #58 links a domain only when it is a registrable domain: every label valid
(:mod:`.labels`), a top-level domain with no digit or hyphen (A-labels aside) that is in
the ICANN section of the Public Suffix List snapshot (:mod:`uts58_adapt.public_suffixes`),
and a host that is not itself a public suffix.  :func:`domain_unicode` applies it;
:func:`lenient_domain` only rejects invalid hosts (``strict_hosts=False``: the backend's
configuration decides), and :func:`email_domain_end` applies either after an ``@``
(§5.2).  :func:`separator_tld_hits` finds domains written with ``。`` ``．`` ``｡``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ..public_suffixes import icann_suffixes
from .host_chars import MAX_HOST, SEP_TABLE, SEPARATORS, host_run_end, label_class
from .labels import a_label, bidi_domain_ok, lenient_label, punycode_length, strict_label
from .whatwg import DOTTED_IPV4, IPV4_NUMBER, whatwg_ipv4

__all__ = ["ascii_form", "domain_unicode", "email_domain_end", "lenient_domain", "separator_tld_hits", "strict_domain"]


def ascii_form(labels: list[str]) -> str:
    """The ASCII form of valid Unicode labels (UTS #46 ToASCII after validation): ``xn--`` A-labels."""
    return ".".join(map(a_label, labels))


def _ascii_length(labels: list[str]) -> int:
    """``len(ascii_form(labels))``, counted (:func:`.punycode_length`) rather than encoded."""
    return len(labels) - 1 + sum(len(label) if label.isascii() else 4 + punycode_length(label) for label in labels)


def _tld_rules(label: str) -> bool:
    """Syntactic TLD rules (RZ-LGR, §8): letters only (no digit, no ``-``), two or more if ASCII."""
    if any(ch.isdigit() or ch == "-" for ch in label):
        return False
    return not (label.isascii() and len(label) < 2)


@lru_cache(maxsize=1)
def _valid_tlds(tlds: frozenset[str]) -> frozenset[str]:
    """The TLDs of the PSL snapshot that pass :func:`_tld_rules` (computed once per snapshot)."""
    return frozenset(filter(_tld_rules, tlds))


def _tld_ok(label: str) -> bool:
    """Syntactic TLD rules (RZ-LGR, §8): letters only, two or more if ASCII; then the PSL.

    Both hold exactly when ``label`` is one of the PSL's TLDs that pass the rules: one set
    lookup per host instead of a look at each character.
    """
    return label in _valid_tlds(icann_suffixes().tlds)


@lru_cache(maxsize=1 << 16)
def domain_unicode(host: str, allow_ip: bool = False) -> str | None:
    """Validate ``host`` (no trailing separator) and return its Unicode form, lower case.

    Returns None when the host is invalid (:func:`strict_domain`) or one label, when the TLD is not
    valid or not in the ICANN section of the PSL snapshot, or when the host is itself a
    public suffix (not a registrable domain).  With ``allow_ip``, a dotted IPv4 address
    is accepted and returned as is.
    """
    if allow_ip:
        ascii_host = host.translate(SEP_TABLE)
        if DOTTED_IPV4.match(ascii_host):
            return ascii_host
    result = strict_domain(host)
    if (
        result is None
        or "." not in result
        or not _tld_ok(result.rpartition(".")[2])
        or icann_suffixes().is_public_suffix(result)
    ):
        return None
    return result


def strict_domain(host: str) -> str | None:
    """``host`` validated as IDNA2008 registration does, in its Unicode form; None when invalid.

    UTS #46 processing with every check on (nontransitional, UseSTD3ASCIIRules,
    CheckHyphens, CheckBidi for the whole domain, CheckJoiners, VerifyDnsLength) and
    IDNA2008's PVALID and CONTEXTJ rules (:func:`.strict_label`).
    ``tests/test_idna_conformance.py`` checks it against IdnaTestV2.txt.
    """
    if not host or len(host) > MAX_HOST:
        return None
    out = []
    for label in host.translate(SEP_TABLE).split("."):
        u = strict_label(label) if label else None
        if u is None:
            return None
        out.append(u)
    result = ".".join(out)
    if not result.isascii() and not bidi_domain_ok(out):
        return None  # (an ASCII domain has no right-to-left character: no Bidi domain name)
    # Each label is at most 63 octets in ASCII form (checked by strict_label): only a name of
    # four labels or more can exceed 253, and only then is its ASCII form computed.
    if len(out) > 3 and not result.isascii() and _ascii_length(out) > MAX_HOST:
        return None  # VerifyDnsLength (UTS #46 §4.2 step 4): at most 253 octets in ASCII form
    return result


@lru_cache(maxsize=1 << 16)
def lenient_domain(host: str, single_label: bool = False) -> str | None:
    """Validate ``host`` without the registrable-domain rule (``strict_hosts=False``).

    Only an invalid host is rejected: an empty label, a label :func:`.lenient_label`
    rejects, a last label that is a number when the host is no IPv4 address as WHATWG URL
    parses them (``test.123``).  A TLD outside the PSL and an IPv4 address (``999`` is
    0.0.3.231) are accepted: the backend's configuration decides.  A single label
    (``localhost``, ``intranet``) is accepted with ``single_label`` (after a scheme).
    """
    if not host or len(host) > MAX_HOST:
        return None
    ascii_host = host.translate(SEP_TABLE)
    labels = ascii_host.split(".")
    if labels[-1].isascii() and IPV4_NUMBER.match(labels[-1]):
        return whatwg_ipv4(ascii_host)  # WHATWG URL: a host ending in a number is an IPv4 address, or fails
    if len(labels) < 2 and not single_label:
        return None
    out = []
    for label in labels:
        u = lenient_label(label) if label else None
        if u is None:
            return None
        out.append(u)
    result = ".".join(out)
    if not result.isascii() and not bidi_domain_ok(out):
        return None  # (an ASCII domain has no right-to-left character: no Bidi domain name)
    return result


def email_domain_end(text: str, at: int, strict: bool = True, single_label: bool = False) -> tuple[int, str] | None:
    """For the ``@`` at ``text[at]``, the end of the valid domain after it and its Unicode form.

    Trailing separators are not part of the domain (``mail x@example.com.``).
    Returns None when no valid domain follows.  Without ``strict`` the domain need not
    be a registrable domain (:func:`lenient_domain`), and with ``single_label`` either may
    be one label (``mailto:foo@bar``, which the backend itself reported).
    """
    hs = at + 1
    he = host_run_end(text, hs)
    if he - hs > MAX_HOST:
        return None
    while he > hs and text[he - 1] in SEPARATORS:
        he -= 1
    if he == hs:
        return None
    host = domain_unicode(text[hs:he]) if strict else lenient_domain(text[hs:he], single_label)
    if host is None:
        return None
    return he, host


@lru_cache(maxsize=1)
def _sep_label_re() -> re.Pattern[str]:
    """A non-ASCII separator and the whole label after it, when that label may be a TLD.

    The label must start with a character some TLD starts with (either case, or its
    fullwidth form), be no longer than the longest TLD, and be the last label (no
    separator and label follow).  ``(?=(...))\\1`` is an atomic group: a long label
    fails at once instead of backtracking.
    """
    tlds = icann_suffixes().tlds
    first: set[str] = set()
    for tld in tlds:
        ch = tld[0]
        first.update((ch, ch.upper(), ch.lower()))
        if "a" <= ch <= "z":
            first.update((chr(ord(ch) - 0x61 + 0xFF41), chr(ord(ch) - 0x61 + 0xFF21)))
    longest = max(map(len, tlds))
    first_class = "".join(re.escape(ch) for ch in sorted(first))
    label = f"[{label_class()}]"
    return re.compile(
        f"[{SEPARATORS[1:]}](?=[{first_class}])(?=({label}{{1,{longest}}}))\\1(?!{label})"
        f"(?![{re.escape(SEPARATORS)}]{label})"
    )


def separator_tld_hits(text: str) -> list[int]:
    """Offsets of the last labels that follow a ``。`` ``．`` or ``｡`` and are TLDs.

    Backends only know ``.``; a domain written with another UTS #46 separator
    (``普遍适用测试。我爱你``) is found here, at its top-level label, for :func:`.url_host`
    to take back to its start.  One regular-expression scan finds the candidate labels;
    each costs a set lookup, so prose full of ``。`` stays cheap.
    """
    tlds = icann_suffixes().tlds
    out = []
    for m in _sep_label_re().finditer(text):
        label = m.group(1)
        # NFKC + case folding: a C-speed stand-in for the UTS #46 mapping of a TLD.
        if label.lower() in tlds or unicodedata.normalize("NFKC", label).casefold() in tlds:
            out.append(m.start(1))
    return out
