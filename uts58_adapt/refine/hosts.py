"""The host stage that UTS #58 §1.4 leaves to WHATWG URL parsing and the registrable domain.

UTS #58 specifies where a link ends after its host (§3.5.1) and where an email's local
part starts (§5.2); where the Scheme and Host begin and end, and whether a host may be
linked at all, is left to [WHATWG URL], UTS #46 and the list of top-level domains.
This module is that stage, shared by every backend:

- :func:`url_host` takes the start a backend reported for a URL and returns where the
  link starts (repairing a start the backend put inside the host), where the host ends,
  and where the port ends: the offset the termination algorithm starts from.
- :func:`email_domain_end` returns where a valid domain right after an ``@`` ends.
- :func:`domain_unicode` validates a host and returns its Unicode form.

A host is a maximal run of *host characters*: ASCII letters, digits and ``-``, the
label separators ``.`` ``。`` ``．`` ``｡``, and the non-ASCII characters that can occur
in an IDNA2008 label (PVALID, CONTEXTJ, CONTEXTO), directly or after UTS #46 mapping
(so ``Ö`` counts).  Any other character ends the host, at either side.  The run is then
validated as a whole: no empty label, every label valid under UTS #46 (nontransitional,
STD3 rules) and IDNA2008 (hyphens, joiners, bidi), a top-level domain with no digit or
hyphen (A-labels aside) that is in the ICANN section of the Public Suffix List snapshot,
and a host that is not itself a public suffix (a registrable domain).

Choices where the standards leave room (see the module functions for details): an IPv4
address is accepted only after an explicit ``scheme://``; ``localhost`` and other
single-label hosts never are; a URL with userinfo (``http://user@host``) is not linked;
a port above 65535 is not part of the link.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

import idna
from idna import idnadata
from idna.intranges import _decode_range

from ..backends._tlds import icann_suffixes
from ..properties import class_body

__all__ = [
    "HostMatch",
    "SEPARATORS",
    "domain_unicode",
    "email_domain_end",
    "host_run_end",
    "is_host_char",
    "normalize_separators",
    "separator_tld_hits",
    "url_host",
]

#: Label separators of UTS #46 (full stop and the three that map to it).
SEPARATORS = ".\u3002\uff0e\uff61"
_SEP_TABLE = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})
#: The longest domain name we look at (RFC 1035: 253 octets in text form).
MAX_HOST = 253
#: How far back a userinfo search or a start repair may look.
_MAX_AUTHORITY = 512


def _uts46_mapped(
    table: object = None, fallback_range: range = range(0x80, 0x110000)
) -> Iterator[tuple[int, int, str]]:
    """Yield ``(first, last, mapping)`` for the UTS #46 "mapped" code points of idna's data.

    idna has no public API for its UTS #46 table, only for applying it
    (:func:`idna.uts46_remap`).  Reading the table is much faster (the label class is
    built at import), so ``table`` (default: the private module ``idna.uts46data``) is
    read when it has one of the two layouts idna has used, and checked first:

    - idna < 3.17: ``uts46data``, rows of ``(start, status[, mapping])``;
    - idna >= 3.17 (3.20 included, with the Unicode 18 data): parallel arrays
      ``uts46_starts``, ``uts46_statuses`` (bytes), ``uts46_replacements``.

    Any other layout, or one whose starts do not rise from 0, falls back to asking
    :func:`idna.uts46_remap` about every code point of ``fallback_range`` (the same
    result, one range per code point, about 10 s once), with a ``RuntimeWarning``.
    """
    import warnings
    from typing import Any

    if table is None:
        from idna import uts46data

        table = uts46data
    starts: list[int] = []
    statuses: list[str] = []
    mappings: list[str | None] = []
    # Any: the layout is checked below, not trusted.
    rows: Any = getattr(table, "uts46data", None)
    arrays: list[Any] = [getattr(table, n, None) for n in ("uts46_starts", "uts46_statuses", "uts46_replacements")]
    try:
        if isinstance(rows, tuple):  # idna < 3.17
            starts = [int(row[0]) for row in rows]
            statuses = [str(row[1]) for row in rows]
            mappings = [row[2] if len(row) > 2 else None for row in rows]
        elif all(a is not None for a in arrays):  # idna >= 3.17
            starts = [int(a) for a in arrays[0]]
            statuses = [chr(b) for b in arrays[1]]
            mappings = list(arrays[2])
    except (TypeError, IndexError, ValueError):
        starts = []
    known = (
        bool(starts)
        and starts[0] == 0
        and len(starts) == len(statuses) == len(mappings)
        and all(a < b for a, b in zip(starts, starts[1:]))
        and all(m is None or isinstance(m, str) for m in mappings)
    )
    if not known:
        warnings.warn(
            f"uts58_adapt: unknown layout of idna {getattr(idna, '__version__', '?')}'s private UTS #46 table "
            "(idna.uts46data); reading the mappings through idna.uts46_remap instead (slower start, same result)",
            RuntimeWarning,
            stacklevel=2,
        )
        for cp in fallback_range:
            try:
                # STD3 rules off: the table's "mapped" includes mappings to ASCII symbols.
                mapped = idna.uts46_remap(chr(cp), std3_rules=False, transitional=False)
            except idna.IDNAError:
                continue  # disallowed
            if mapped and mapped != chr(cp):
                yield cp, cp, mapped
        return
    for i, (start, status, mapping) in enumerate(zip(starts, statuses, mappings)):
        if status == "M" and mapping:
            last = starts[i + 1] - 1 if i + 1 < len(starts) else 0x10FFFF
            yield start, last, mapping


def _valid_ranges() -> list[tuple[int, int]]:
    """Non-ASCII code point ranges that may occur in an IDNA2008 label (before or after mapping)."""
    ok: list[tuple[int, int]] = []
    for cls in ("PVALID", "CONTEXTJ", "CONTEXTO"):
        ok.extend(_decode_range(r) for r in idnadata.codepoint_classes[cls])
    ok.sort()
    starts = [a for a, _ in ok]

    def valid(cp: int) -> bool:
        i = bisect.bisect_right(starts, cp) - 1
        return i >= 0 and cp < ok[i][1]

    out: list[tuple[int, int]] = []
    # Directly valid characters (ranges are half-open).
    for a, b in ok:
        a = max(a, 0x80)
        if a < b:
            out.append((a, b - 1))
    # Characters that UTS #46 maps to valid characters (upper case, compatibility forms).
    for first, last, mapped in _uts46_mapped():
        if last < 0x80:
            continue
        if all(ch.isascii() and (ch.isalnum() or ch == "-") or valid(ord(ch)) for ch in mapped):
            out.append((max(first, 0x80), last))
    out.sort()
    merged: list[tuple[int, int]] = []
    for a, b in out:
        if merged and a <= merged[-1][1] + 1:
            if b > merged[-1][1]:
                merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    return merged


#: Astral blocks where labels can have characters (scripts, CJK extensions), as three
#: coarse ranges: ``re`` tests astral ranges one by one, so exact ones would make every
#: failed test slow.  Their non-IDNA characters are rejected by validation; emoji and
#: symbols (U+1D000-U+1DFFF, U+1F000-U+1FFFF) and plane 14 end a host, as they should.
_ASTRAL = ((0x10000, 0x1CFFF), (0x1E000, 0x1EFFF), (0x20000, 0x3FFFF))


def _label_class() -> str:
    ranges = [r for r in _valid_ranges() if r[1] <= 0xFFFF] + list(_ASTRAL)
    return "A-Za-z0-9\\-" + class_body(ranges)


#: Characters of a label (the separators are not among them: they map to ".").
_LABEL_CLASS = _label_class()
_CLASS = _LABEL_CLASS + re.escape(SEPARATORS)
#: A run of host characters (bounded: longer runs are too long to be a domain anyway).
_HOST_RUN = re.compile(f"[{_CLASS}]{{1,{MAX_HOST + 1}}}")
_HOST_CHAR = re.compile(f"[{_CLASS}]")


@lru_cache(maxsize=1)
def _sep_label_re() -> re.Pattern[str]:
    """A non-ASCII separator and the whole label after it, when that label may be a TLD.

    The label must start with a character some TLD starts with (either case, or its
    fullwidth form), be no longer than the longest TLD, and be the last label (no
    separator and label follow).  ``(?=(...))\\1`` is an atomic group: a long label
    fails at once instead of backtracking.
    """
    tlds = icann_suffixes().tlds
    first = set()
    for tld in tlds:
        ch = tld[0]
        first.update((ch, ch.upper(), ch.lower()))
        if "a" <= ch <= "z":
            first.update((chr(ord(ch) - 0x61 + 0xFF41), chr(ord(ch) - 0x61 + 0xFF21)))
    longest = max(map(len, tlds))
    first_class = "".join(re.escape(ch) for ch in sorted(first))
    label = f"[{_LABEL_CLASS}]"
    return re.compile(
        f"[{SEPARATORS[1:]}](?=[{first_class}])(?=({label}{{1,{longest}}}))\\1(?!{label})"
        f"(?![{re.escape(SEPARATORS)}]{label})"
    )

_SCHEME_AT = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]{0,31}):(//)")
_SCHEME_BEFORE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]{0,31}://\Z")
_PORT = re.compile(r":([0-9]{1,5})(?![0-9])")
_AUTHORITY_END = re.compile(r"[/?#@\s]")
_IPV4 = re.compile(r"(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\Z")
_INITIATORS = "/?#"


def is_host_char(ch: str) -> bool:
    """Whether ``ch`` can be part of a host (see the module docstring)."""
    return _HOST_CHAR.match(ch) is not None


def normalize_separators(text: str) -> str:
    """Replace ``。`` ``．`` ``｡`` by ``.`` (same length, so offsets are kept).

    Backends that only know ``.`` find ``普遍适用测试。我爱你`` in the result; the
    refinement stage then works on the original text.
    """
    if "\u3002" in text or "\uff0e" in text or "\uff61" in text:
        return text.translate(_SEP_TABLE)
    return text


def separator_tld_hits(text: str) -> list[int]:
    """Offsets of the last labels that follow a ``。`` ``．`` or ``｡`` and are TLDs.

    Backends only know ``.``; a domain written with another UTS #46 separator
    (``普遍适用测试。我爱你``) is found here, at its top-level label, for :func:`url_host`
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


def host_run_end(text: str, pos: int) -> int:
    """The end of the run of host characters starting at ``pos`` (``pos`` when there is none)."""
    m = _HOST_RUN.match(text, pos)
    return m.end() if m else pos


@lru_cache(maxsize=1 << 16)
def _label(label: str) -> str | None:
    """The Unicode form of one label (UTS #46 mapped, IDNA2008 valid), or None when invalid."""
    try:
        mapped = idna.uts46_remap(label, std3_rules=True, transitional=False)
        if not mapped or "." in mapped:
            return None
        idna.alabel(mapped)  # length, hyphens, PVALID/CONTEXT rules, bidi; decodes an A-label
        return idna.ulabel(mapped)
    except (idna.IDNAError, UnicodeError, ValueError, IndexError):
        return None


def _tld_ok(label: str) -> bool:
    """Syntactic TLD rules (RZ-LGR, §8): letters only, two or more if ASCII; then the PSL."""
    if any(ch.isdigit() or ch == "-" for ch in label):
        return False
    if label.isascii() and len(label) < 2:
        return False
    return label in icann_suffixes().tlds


@lru_cache(maxsize=1 << 16)
def domain_unicode(host: str, allow_ip: bool = False) -> str | None:
    """Validate ``host`` (no trailing separator) and return its Unicode form, lower case.

    Returns None when a label is empty or invalid, when the TLD is not valid or not in
    the ICANN section of the PSL snapshot, or when the host is itself a public suffix
    (not a registrable domain).  With ``allow_ip``, a dotted IPv4 address is accepted
    and returned as is.
    """
    if not host or len(host) > MAX_HOST:
        return None
    ascii_host = host.translate(_SEP_TABLE)
    if allow_ip and _IPV4.match(ascii_host):
        return ascii_host
    labels = ascii_host.split(".")
    if len(labels) < 2:
        return None
    out = []
    for label in labels:
        if not label:
            return None
        u = _label(label)
        if u is None:
            return None
        out.append(u)
    if not _tld_ok(out[-1]):
        return None
    result = ".".join(out)
    if icann_suffixes().is_public_suffix(result):
        return None
    return result


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


def url_host(text: str, start: int) -> HostMatch | None:
    """Find the scheme, host and port of a URL a backend reported as starting at ``start``.

    When there is no ``scheme://`` at ``start``, the start is moved back over host
    characters (a backend may have started inside the host, ``FOO.VERMÖ|GEN.com``), a
    ``scheme://`` right before the host is taken in, and leading separators are skipped.
    Returns None when no valid host is there, when the URL has userinfo, or when the host
    directly follows an ``@`` (that is an email's domain, left to the email stage).
    """
    n = len(text)
    if not 0 <= start < n:
        return None
    m = _SCHEME_AT.match(text, start)
    if m:
        scheme = text[start : m.end()]
        hs = m.end()
        link_start = start
    elif text.startswith("//", start):
        scheme = "//"
        hs = start + 2
        link_start = start
    else:
        scheme = ""
        hs = start
        floor = max(0, start - MAX_HOST)
        while hs > floor and _HOST_CHAR.match(text, hs - 1, hs):
            hs -= 1
        if hs == floor and hs > 0 and _HOST_CHAR.match(text, hs - 1, hs):
            return None  # a run of host characters too long to be a domain
        run_start = hs
        while hs < n and text[hs] in SEPARATORS:
            hs += 1
        if hs > run_start and run_start > 0 and text[run_start - 1] in "/@":
            return None  # "http://.foo.example.com": an empty first label
        link_start = hs
        if hs >= 3 and text.startswith("://", hs - 3):
            sm = _SCHEME_BEFORE.search(text, max(0, hs - 35), hs)
            if sm:
                link_start = sm.start()
                scheme = text[link_start:hs]
    if scheme:
        # Userinfo (deprecated, §3 Table 3-1 notes): never linked.
        am = _AUTHORITY_END.search(text, hs, min(n, hs + _MAX_AUTHORITY))
        if am and text[am.start()] == "@":
            return None
    elif hs > 0 and text[hs - 1] == "@":
        return None
    rm = _HOST_RUN.match(text, hs)
    if rm is None:
        return None
    he = rm.end()
    if he - hs > MAX_HOST:
        return None  # too long to be a domain (the run is cut one past the limit)
    after = text[he] if he < n else ""
    if after == "@":
        return None  # a local part, or userinfo
    # Trailing separators: kept (one) only when a path, query, fragment or port follows.
    domain_end = he
    while domain_end > hs and text[domain_end - 1] in SEPARATORS:
        domain_end -= 1
    host_end = domain_end
    if domain_end == he - 1 and after and (after in _INITIATORS or (after == ":" and _PORT.match(text, he))):
        host_end = he
    host = domain_unicode(text[hs:domain_end], bool(scheme) and scheme != "//")
    if host is None:
        return None
    end = host_end
    if host_end == he and after == ":":
        pm = _PORT.match(text, he)
        if pm and int(pm.group(1)) <= 65535:
            end = pm.end()
    return HostMatch(link_start, hs, host_end, end, scheme, host)


def email_domain_end(text: str, at: int) -> tuple[int, str] | None:
    """For the ``@`` at ``text[at]``, the end of the valid domain after it and its Unicode form.

    Trailing separators are not part of the domain (``mail x@example.com.``).
    Returns None when no valid domain follows.
    """
    hs = at + 1
    he = host_run_end(text, hs)
    if he - hs > MAX_HOST:
        return None
    while he > hs and text[he - 1] in SEPARATORS:
        he -= 1
    if he == hs:
        return None
    host = domain_unicode(text[hs:he])
    if host is None:
        return None
    return he, host


def has_userinfo_before(text: str, at: int) -> bool:
    """Whether the ``@`` at ``text[at]`` ends the userinfo of a ``scheme://`` URL."""
    p = text.rfind("://", max(0, at - _MAX_AUTHORITY), at)
    if p == -1 or not _SCHEME_BEFORE.search(text, max(0, p - 32), p + 3):
        return False
    return _AUTHORITY_END.search(text, p + 3, at) is None
