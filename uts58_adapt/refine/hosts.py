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
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import NamedTuple

import idna
from idna import idnadata
from idna.intranges import _decode_range

from ..public_suffixes import icann_suffixes
from ..properties import CLOSE, FLAGS, HARD, INCLUDE, OPEN, TERM_MASK, FlagPattern, class_body, flag_runs

__all__ = [
    "SEPARATORS",
    "HostMatch",
    "domain_unicode",
    "email_domain_end",
    "host_run_end",
    "host_run_start",
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
        and all(a < b for a, b in itertools.pairwise(starts))
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


@lru_cache(maxsize=1)
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
        if all((ch.isascii() and (ch.isalnum() or ch == "-")) or valid(ord(ch)) for ch in mapped):
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


#: Every astral code point, as one coarse range of the host-run regexes: ``re`` tests
#: astral ranges one by one, so exact ones would make every failed test slow.  A run
#: with an astral code point is then cut at the first one that is not a host character
#: (:func:`_exact_end`, a bisect in the exact ranges below), so astral punctuation
#: (``𐩐`` U+10A50, ``𑁍`` U+1104D), emoji and symbols end a host as BMP ones do, and
#: mathematical letters that UTS #46 maps to ASCII (``𝔞`` → ``a``) continue it.
_ASTRAL = ((0x10000, 0x10FFFF),)


def _label_class(below: int = 0x110000) -> str:
    """Characters of a label (the separators are not among them: they map to ".").

    Below U+0080 these are only ``A-Za-z0-9-``, so the non-ASCII ranges (read from idna's
    tables, ~20 ms) are only computed for a class that goes beyond ASCII.
    """
    if below <= 0x80:
        return "A-Za-z0-9\\-"
    ranges = [r for r in _valid_ranges() if r[1] <= 0xFFFF] + list(_ASTRAL)
    return "A-Za-z0-9\\-" + class_body(ranges, below=below)


@lru_cache(maxsize=1)
def _astral_ranges() -> tuple[list[int], list[int]]:
    """The exact astral host-character ranges, as (firsts, lasts) for a bisect."""
    ranges = [r for r in _valid_ranges() if r[1] > 0xFFFF]
    return [a for a, _ in ranges], [b for _, b in ranges]


def _astral_host_char(cp: int) -> bool:
    firsts, lasts = _astral_ranges()
    i = bisect.bisect_right(firsts, cp) - 1
    return i >= 0 and cp <= lasts[i]


def _exact_end(text: str, hs: int, he: int) -> int:
    """Cut the coarse run ``text[hs:he]`` at its first astral code point that is not a host character."""
    if text.isascii():
        return he
    run = text[hs:he]
    if run.isascii() or max(run) <= "\uffff":
        return he
    for i, ch in enumerate(run):
        if ch > "\uffff" and not _astral_host_char(ord(ch)):
            return hs + i
    return he


def _host_class(below: int) -> str:
    return _label_class(below) + re.escape("".join(ch for ch in SEPARATORS if ord(ch) < below))


#: A run of host characters (bounded: longer runs are too long to be a domain anyway).
_HOST_RUN = FlagPattern(lambda below: f"[{_host_class(below)}]{{1,{MAX_HOST + 1}}}")
_HOST_CHAR = FlagPattern(lambda below: f"[{_host_class(below)}]")
#: The same run, read backwards (on reversed text, for :func:`host_run_start`).
_HOST_RUN_BACK = FlagPattern(lambda below: f"[{_host_class(below)}]*")


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
    label = f"[{_label_class()}]"
    return re.compile(
        f"[{SEPARATORS[1:]}](?=[{first_class}])(?=({label}{{1,{longest}}}))\\1(?!{label})"
        f"(?![{re.escape(SEPARATORS)}]{label})"
    )


_SCHEME_AT = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]{0,31}):(//)")
_SCHEME_BEFORE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]{0,31}://\Z")
_PORT = re.compile(r":([0-9]{1,5})(?![0-9])")
_IPV4 = re.compile(
    r"(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\Z"
)
_INITIATORS = "/?#"


#: The ASCII host characters: what ``_HOST_CHAR`` takes below U+0080 (tests/test_hosts.py).
ASCII_HOST_CHARS = frozenset("-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def is_host_char(ch: str) -> bool:
    """Whether ``ch`` can be part of a host (see the module docstring)."""
    if ch < "\x80":
        return ch in ASCII_HOST_CHARS
    if ch > "\uffff":
        return len(ch) == 1 and _astral_host_char(ord(ch))
    return _HOST_CHAR.get(ch).match(ch) is not None


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
    m = _HOST_RUN.get(text).match(text, pos)
    return _exact_end(text, pos, m.end()) if m else pos


def host_run_start(text: str, pos: int, floor: int = 0) -> int:
    """The start of the run of host characters that ends at ``pos``, looking back no further than ``floor``."""
    if pos <= floor:
        return pos
    before = text[pos - 1]
    if before < "\x80" and before not in ASCII_HOST_CHARS:
        return pos  # no run
    m = _HOST_RUN_BACK.get(text).match(text[floor:pos][::-1])
    start = pos - m.end() if m else pos
    if start < pos and not text.isascii() and max(text[start:pos]) > "\uffff":
        start = pos  # the class takes every astral code point: step back one by one
        while start > floor and is_host_char(text[start - 1]):
            start -= 1
    return start


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


def _lenient_label(label: str) -> str | None:
    """One label checked as WHATWG URL's domain-to-ASCII does (UTS #46), or None.

    UTS #46 mapping (nontransitional, STD3 rules: the host run has no other ASCII than
    letters, digits and ``-``), an ``xn--`` label decoded and re-checked, NFC, the bidi
    rule and the joiner rules (CheckBidi, CheckJoiners), and no leading or trailing
    hyphen.  WHATWG URL does not check hyphens (CheckHyphens=false); a label that starts
    or ends with one is still rejected here, as LinkDetectionTest.txt rejects
    ``-foo.example-.com``, while ``a---b.com`` stays a host.  IDNA2008's PVALID table is
    not applied: ``✪df.ws`` is a host that browsers open.  ``_`` is kept: WHATWG URL runs
    UTS #46 without STD3 rules, which map ``_`` to itself (``www.foo_bar.baz.com`` is a host).
    """
    try:
        # "_" is the one ASCII character beyond STD3's that a backend's host holds in practice;
        # UTS #46 maps each character on its own, so the pieces around it are mapped alone.
        mapped = "_".join(
            idna.uts46_remap(piece, std3_rules=True, transitional=False) if piece else "" for piece in label.split("_")
        )
        if not mapped or "." in mapped:
            return None
        if mapped[:4] == "xn--":
            decoded = mapped[4:].encode("ascii").decode("punycode")
            if decoded.isascii() or idna.uts46_remap(decoded, std3_rules=True, transitional=False) != decoded:
                return None  # an A-label must decode to a valid, already mapped, non-ASCII label
            mapped = decoded
        if mapped[0] == "-" or mapped[-1] == "-":
            return None
        idna.check_nfc(mapped)
        idna.check_bidi(mapped)
        for i, ch in enumerate(mapped):
            if ch in "\u200c\u200d" and not idna.valid_contextj(mapped, i):
                return None
        return mapped
    except (idna.IDNAError, UnicodeError, ValueError, IndexError):
        return None


_IPV4_NUMBER = re.compile(r"(?:0[xX][0-9A-Fa-f]*|[0-9]+)\Z")


def _whatwg_ipv4(host: str) -> str | None:
    """WHATWG URL's IPv4 parser: ``999``, ``0x7f.1`` and ``127.0.0.1`` are addresses; None if not one."""
    parts = host.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if not 1 <= len(parts) <= 4:
        return None
    numbers = []
    for part in parts:
        if not part or not _IPV4_NUMBER.match(part):
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


@lru_cache(maxsize=1 << 16)
def lenient_domain(host: str, single_label: bool = False) -> str | None:
    """Validate ``host`` without the registrable-domain rule (``strict_hosts=False``).

    Only an invalid host is rejected: an empty label, a label :func:`_lenient_label`
    rejects, a last label that is a number when the host is no IPv4 address as WHATWG URL
    parses them (``test.123``).  A TLD outside the PSL and an IPv4 address (``999`` is
    0.0.3.231) are accepted: the backend's configuration decides.  A single label
    (``localhost``, ``intranet``) is accepted with ``single_label`` (after a scheme).
    """
    if not host or len(host) > MAX_HOST:
        return None
    ascii_host = host.translate(_SEP_TABLE)
    labels = ascii_host.split(".")
    if labels[-1].isascii() and _IPV4_NUMBER.match(labels[-1]):
        return _whatwg_ipv4(ascii_host)  # WHATWG URL: a host ending in a number is an IPv4 address, or fails
    if len(labels) < 2 and not single_label:
        return None
    out = []
    for label in labels:
        u = _lenient_label(label) if label else None
        if u is None:
            return None
        out.append(u)
    return ".".join(out)


@lru_cache(maxsize=1 << 12)
def _lenient_char(ch: str) -> bool:
    """``_`` or a non-ASCII Include character that UTS #46 does not disallow (``✪``, ``★``):
    a host character for ``strict_hosts=False``, but only inside the backend's own span."""
    if ch == "_":
        return True
    if ch.isascii() or FLAGS[ord(ch)] & TERM_MASK != INCLUDE:
        return False
    try:
        idna.uts46_remap(ch, std3_rules=True, transitional=False)
    except (idna.IDNAError, UnicodeError, ValueError, IndexError):
        return False
    return True


#: IDNA2008 CONTEXTO characters with a context rule (RFC 5892 Appendix A.3-A.9) that
#: occur in running text; where the rule fails, the character ends the host.
_CONTEXTO = "\u00b7\u0375\u05f3\u05f4\u30fb"


def _contexto_cut(text: str, hs: int, he: int, anchor: int) -> tuple[int, int]:
    """Cut the run ``text[hs:he]`` at CONTEXTO characters whose context rule fails.

    A middle dot not between two ``l`` (``a·b.com``), a Greek keraia not before a Greek
    letter … cannot be in a label: the host is the part of the run on the side of
    ``anchor`` (where the backend's host started).  This is our reading where UTS #58
    leaves the host to [WHATWG URL] (which would take the whole run, UTS #46 not
    checking CONTEXTO rules) and linkify-it starts after the dot: ``a·b.com`` links
    ``b.com``, and ``l·l.cat`` (Catalan) stays one host.
    """
    run = text[hs:he]
    if run.isascii():
        return hs, he
    base = hs
    for ch in _CONTEXTO:
        i = run.find(ch)
        while i != -1:
            try:
                ok = idna.valid_contexto(run, i)
            except (idna.IDNAError, ValueError, IndexError):
                ok = False
            if not ok:
                if base + i < anchor:
                    hs = max(hs, base + i + 1)
                else:
                    he = min(he, base + i)
            i = run.find(ch, i + 1)
    return hs, he


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


def _userinfo_end_class(below: int) -> str:
    """Characters that cannot be in a userinfo: they end the authority (``/?#``), are white
    space or Hard, or are brackets and quotes (Link_Term Open or Close, ``"\\^`|``)."""
    ranges = flag_runs(lambda b: b & TERM_MASK in (HARD, OPEN, CLOSE))
    return class_body(ranges, below=below) + re.escape('/?#@"\\^`|')


#: The first character after ``scheme://`` that cannot continue a userinfo; a userinfo
#: is there only when that character is an ``@``.
_USERINFO_END = FlagPattern(lambda below: f"[{_userinfo_end_class(below)}]")


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
    has userinfo, or when the host directly follows an ``@`` (that is an email's domain,
    left to the email stage).
    """
    n = len(text)
    if not 0 <= start < n:
        return None
    end = n if end is None else min(max(end, start), n)
    reported = True
    m = _SCHEME_AT.match(text, start)
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
        sm = _SCHEME_BEFORE.search(text, max(0, start - 33), hs) if start and text[start - 1] == ":" else None
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
        limit = min(end, start + _MAX_AUTHORITY)
        while hs < limit and text[hs] not in "/:@" and not is_host_char(text[hs]):
            if not strict and _lenient_char(text[hs]):
                break
            hs += 1
        if hs == limit or not (is_host_char(text[hs]) or (not strict and _lenient_char(text[hs]))):
            return None
        anchor = hs
        floor = max(0, hs - MAX_HOST)
        hs = host_run_start(text, hs, floor)
        if hs == floor and hs > 0 and is_host_char(text[hs - 1]):
            return None  # a run of host characters too long to be a domain
        if hs < anchor:
            hs = _contexto_cut(text, hs, host_run_end(text, anchor), anchor)[0]
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
                reported = False
        anchor = max(anchor, hs)
    if scheme:
        # Userinfo (deprecated, §3 Table 3-1 notes): never linked.  Only a run that could be
        # a userinfo counts: "(https://example.com),me@example.org" has none.
        am = _USERINFO_END.get(text).search(text, hs, min(n, hs + _MAX_AUTHORITY))
        if am and text[am.start()] == "@":
            return None
    elif hs > 0 and text[hs - 1] == "@":
        return None
    if scheme and text.startswith("[", hs):
        return _ipv6_host(text, link_start, hs, scheme, reported, scheme_ok)
    he = host_run_end(text, hs)
    if not strict:
        # The backend's own host may hold characters UTS #46 allows and IDNA2008 does not.
        while he < end and he - hs <= MAX_HOST and _lenient_char(text[he]):
            he = host_run_end(text, he + 1)
    if he == hs:
        return None
    if he - hs > MAX_HOST:
        return None  # too long to be a domain (the run is cut one past the limit)
    explicit = bool(scheme) and scheme != "//"
    if (strict or not explicit) and not text[hs:he].isascii():
        # After an explicit scheme without strict_hosts, WHATWG URL's reading: the whole run.
        cut_start, he = _contexto_cut(text, hs, he, anchor)
        if cut_start != hs or he == hs:
            return None  # the run starts with a character that cannot begin a host
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
    if strict:
        host = domain_unicode(text[hs:domain_end], explicit)
    else:
        host = lenient_domain(text[hs:domain_end], bool(scheme))
    if host is None:
        return None
    if explicit and not scheme_ok(scheme[:-2].lower(), host, reported):
        return None
    end = host_end
    if host_end == he and after == ":":
        pm = _PORT.match(text, he)
        if pm and int(pm.group(1)) <= 65535:
            end = pm.end()
    return HostMatch(link_start, hs, host_end, end, scheme, host)


#: A bracketed IPv6 address (WHATWG URL "IPv6 parser" input; at most 45 characters with an
#: embedded IPv4 address).
_IPV6_LITERAL = re.compile(r"\[([0-9A-Fa-f:.]{2,45})\]")


def _ipv6_host(
    text: str, link_start: int, hs: int, scheme: str, reported: bool, scheme_ok: SchemeCheck
) -> HostMatch | None:
    """The host stage for ``scheme://[IPv6]``: WHATWG URL accepts an IPv6 address in brackets
    after a scheme (as an IPv4 address, never in a schemeless link); the href has it in its
    WHATWG serialization (compressed, lower case).  Then an optional port, as for a domain."""
    import ipaddress

    m = _IPV6_LITERAL.match(text, hs)
    if m is None:
        return None
    try:
        address = ipaddress.IPv6Address(m.group(1))
    except ValueError:
        return None
    host = f"[{address.compressed}]"
    if scheme != "//" and not scheme_ok(scheme[:-2].lower(), host, reported):
        return None
    host_end = end = m.end()
    if text.startswith(":", host_end):
        pm = _PORT.match(text, host_end)
        if pm and int(pm.group(1)) <= 65535:
            end = pm.end()
    return HostMatch(link_start, hs, host_end, end, scheme, host)


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


def has_userinfo_before(text: str, at: int) -> bool:
    """Whether the ``@`` at ``text[at]`` ends the userinfo of a ``scheme://`` URL."""
    p = text.rfind("://", max(0, at - _MAX_AUTHORITY), at)
    if p == -1 or not _SCHEME_BEFORE.search(text, max(0, p - 32), p + 3):
        return False
    return _USERINFO_END.get(text).search(text, p + 3, at) is None
