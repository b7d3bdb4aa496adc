"""UTS #58 §8 "Security Considerations": the checks a linkifier applies above detection.

§8 lets "a higher level (linkification)" reject some detected links or move their
bounds.  :func:`link_risks` reports what applies to one link as stable codes, in this
order (the codes are part of the API and are never renamed; see docs/security.md):

``mixed-script``
    A host label whose resolved script set (UTS #39 §5.1: Script_Extensions, Common and
    Inherited ignored) is empty at the "Highly Restrictive" level (UTS #39 §5.2): Latin,
    Han, Hiragana and Katakana together, Latin, Han and Bopomofo, and Latin, Han and
    Hangul count as one script.
``restricted-character``
    A host character with Identifier_Status=Restricted (§8 asks for the identifier
    status), as written in the text, before UTS #46 mapping.
``whole-script-confusable``
    A label in one script other than Latin whose UTS #39 skeleton is ASCII letters (and
    digits and hyphens), unless the TLD is in that script too (``аррӏе.com``).
``bidi-control``
    A Bidi_Control character anywhere in the link (§8).
``invalid-tld``
    A TLD that is not syntactically valid: a digit, a hyphen, a CONTEXTJ or CONTEXTO
    character (§8, RZ-LGR).  An IP address has no TLD.
``ideographic-boundary``
    §8's example ``ウェブサイトはexample.com``: the host of a link that starts with its
    host has two adjacent characters, inside a label, that differ in being
    Line_Break=Ideographic or Complex_Context (CJ counted as ID, as UAX #14 LB1 allows;
    combining marks take the value of their base).  :func:`reject_risky_links` moves the
    start after the last such change instead of dropping the link.

Only the host decides the first three and the fifth.  The tables are generated from the
official files (``uts58_adapt/_security_tables.py``, ``tools/generate_tables.py``).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

import idna

from .. import _security_tables as tables
from ..link import Link
from . import hosts

__all__ = ["RISK_CODES", "ideographic_cut", "link_risks", "reject_risky_links"]

MIXED_SCRIPT = "mixed-script"
RESTRICTED_CHARACTER = "restricted-character"
WHOLE_SCRIPT_CONFUSABLE = "whole-script-confusable"
BIDI_CONTROL = "bidi-control"
INVALID_TLD = "invalid-tld"
IDEOGRAPHIC_BOUNDARY = "ideographic-boundary"

#: Every code :func:`link_risks` can return, in the order it returns them.
RISK_CODES = (
    MIXED_SCRIPT,
    RESTRICTED_CHARACTER,
    WHOLE_SCRIPT_CONFUSABLE,
    BIDI_CONTROL,
    INVALID_TLD,
    IDEOGRAPHIC_BOUNDARY,
)

_SEPARATORS = hosts.SEPARATORS
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://")
_AUTHORITY_END = re.compile(r"[/?#\\\s]")  # white space too: a URL string may be followed by prose
_LABEL_SPLIT = re.compile(f"[{_SEPARATORS}]")
#: A last label WHATWG URL reads as an IPv4 number: the host is an address, with no TLD.
_IPV4_PART = re.compile(r"(?:0[xX][0-9A-Fa-f]*|[0-9]+)\Z")


def _char_class(runs: Sequence[tuple[int, int]], negate: bool = False) -> re.Pattern[str]:
    body = "".join(
        re.escape(chr(first)) if first == last else f"{re.escape(chr(first))}-{re.escape(chr(last))}"
        for first, last in runs
    )
    return re.compile(f"[{'^' if negate else ''}{body}]")


_RESTRICTED = _char_class(tables.ALLOWED, negate=True)
_BIDI = _char_class(tables.BIDI_CONTROL)
_NOT_TLD = _char_class(tables.NOT_TLD)


class _Ranges:
    """Membership in sorted ``(first, last)`` runs, by bisection."""

    __slots__ = ("_firsts", "_lasts")

    def __init__(self, runs: Sequence[tuple[int, int]]) -> None:
        self._firsts = [first for first, _ in runs]
        self._lasts = [last for _, last in runs]

    def __contains__(self, cp: int) -> bool:
        i = bisect.bisect_right(self._firsts, cp) - 1
        return i >= 0 and cp <= self._lasts[i]


_IDEOGRAPHIC = _Ranges(tables.IDEOGRAPHIC)
_COMBINING = _Ranges(tables.COMBINING)
_SCRIPT_FIRSTS = [r[0] for r in tables.SCRIPT_RANGES]
_SCX_FIRSTS = [r[0] for r in tables.SCRIPT_EXTENSIONS]

# UTS #39 §5.1 augmented script sets, and §5.2's "Highly Restrictive" combinations: Latin
# goes with Han and Japanese kana (Jpan), Han and Bopomofo (Hanb), Han and Hangul (Kore).
_AUGMENT = {
    "Han": ("Hanb", "Jpan", "Kore"),
    "Hiragana": ("Jpan",),
    "Katakana": ("Jpan",),
    "Hangul": ("Kore",),
    "Bopomofo": ("Hanb",),
    "Latin": ("Hanb", "Jpan", "Kore"),
}
_ANY_SCRIPT = ("Common", "Inherited")


def _script(cp: int) -> str:
    i = bisect.bisect_right(_SCRIPT_FIRSTS, cp) - 1
    if i >= 0:
        _first, last, index = tables.SCRIPT_RANGES[i]
        if cp <= last:
            return tables.SCRIPTS[index]
    return "Unknown"


@lru_cache(maxsize=4096)
def _script_set(ch: str) -> frozenset[str] | None:
    """The augmented Script_Extensions of ``ch`` (Highly Restrictive), None for Common and Inherited."""
    cp = ord(ch)
    names: tuple[str, ...] = (_script(cp),)
    i = bisect.bisect_right(_SCX_FIRSTS, cp) - 1
    if i >= 0 and cp <= tables.SCRIPT_EXTENSIONS[i][1]:
        names = tuple(tables.SCRIPTS[j] for j in tables.SCRIPT_EXTENSIONS[i][2])
    if any(name in _ANY_SCRIPT for name in names):
        return None
    out = set(names)
    for name in names:
        out.update(_AUGMENT.get(name, ()))
    return frozenset(out)


def _mixed_script(label: str) -> bool:
    """UTS #39 §5.1: the resolved script set of ``label`` is empty (with the augmented sets above)."""
    resolved: frozenset[str] | None = None
    for ch in label:
        scripts = _script_set(ch)
        if scripts is None:
            continue
        resolved = scripts if resolved is None else resolved & scripts
        if not resolved:
            return True
    return False


def _single_script(label: str) -> str | None:
    """The one Script value of ``label``'s characters other than Common and Inherited, else None."""
    found = None
    for ch in label:
        name = _script(ord(ch))
        if name in _ANY_SCRIPT:
            continue
        if found is None:
            found = name
        elif name != found:
            return None
    return found


def _skeleton_is_ascii_word(label: str) -> bool:
    """Whether the UTS #39 skeleton of ``label`` is ASCII letters, digits and hyphens, with a letter."""
    # NFD comes from Python's unicodedata (an older Unicode): a character it does not know
    # stays whole, and its prototype is then looked up as for any other.
    skeleton = "".join(tables.CONFUSABLE_ASCII.get(ord(ch), ch) for ch in unicodedata.normalize("NFD", label))
    return skeleton.isascii() and skeleton.replace("-", "").isalnum() and not skeleton.replace("-", "").isdigit()


def _decoded(label: str) -> str:
    """An ``xn--`` label in its Unicode form (as shown to a reader); any other label as it is."""
    if label[:4].lower() == "xn--" and label.isascii():
        try:
            decoded = label[4:].lower().encode("ascii").decode("punycode")
        except (UnicodeError, ValueError):
            return label
        return label if decoded.isascii() else decoded  # an ASCII result is no valid A-label
    return label


def _host_span(text: str, kind: str) -> tuple[int, int, bool] | None:
    """``(start, end, starts_link)`` of the host in a link's text; None for an IPv6 literal or no host.

    ``starts_link`` is True when the host is the start of the link (no scheme, no ``//``,
    no ``mailto:``, no local part or userinfo).  Trailing label separators are left out.
    """
    start = 0
    starts_link = True
    if kind == "email":
        start = text.rfind("@") + 1
        starts_link = False
    else:
        m = _SCHEME.match(text)
        if m:
            start = m.end()
            starts_link = False
        elif text.startswith("//"):
            start = 2
            starts_link = False
        elif text[:7].lower() == "mailto:":
            start = 7
            starts_link = False
        am = _AUTHORITY_END.search(text, start)
        authority_end = am.start() if am else len(text)
        at = text.rfind("@", start, authority_end)
        if at != -1:
            start = at + 1
            starts_link = False
    if text.startswith("[", start):
        return None
    am = _AUTHORITY_END.search(text, start)
    end = am.start() if am else len(text)
    colon = text.find(":", start, end)
    if colon != -1:
        end = colon  # a port
    while end > start and text[end - 1] in _SEPARATORS:
        end -= 1
    if end == start:
        return None
    return start, end, starts_link


def _is_ip(host: str) -> bool:
    """Whether WHATWG URL reads ``host`` as an IPv4 address (its last label a number)."""
    last = max(host.rfind(sep) for sep in _SEPARATORS)
    return _IPV4_PART.match(host, last + 1) is not None


def ideographic_cut(host: str) -> int:
    """Where §8's example moves the start of ``host``: after the last change, inside a label,
    between Line_Break=Ideographic (ID, CJ) or Complex_Context (SA) and any other value.

    0 when there is none.  Combining marks (Line_Break CM, ZWJ) take the value of the
    character before them.  ``最高のSONY製品.com`` gives the offset of ``製品``.
    """
    if host.isascii():
        return 0
    cut = 0
    previous: bool | None = None
    for i, ch in enumerate(host):
        if ch in _SEPARATORS:
            previous = None
            continue
        cp = ord(ch)
        if previous is not None and cp in _COMBINING:
            continue
        ideographic = cp in _IDEOGRAPHIC
        if previous is not None and ideographic != previous:
            cut = i
        previous = ideographic
    return cut


@lru_cache(maxsize=1 << 14)
def _host_risks(host: str, starts_link: bool) -> tuple[str, ...]:
    """The host's codes (all but ``bidi-control``), in :data:`RISK_CODES` order."""
    if not host.isascii():
        labels = [_decoded(label) for label in _LABEL_SPLIT.split(host)]
    else:
        labels = [_decoded(label) for label in host.split(".")]
    found = set()
    if _is_ip(host):
        labels = []  # an address: no label, no TLD
    tld = labels[-1] if len(labels) > 1 else ""  # a single label (``localhost``) is no TLD
    tld_script = _single_script(tld) if tld else None
    for label in labels:
        if label.isascii():
            continue
        if _mixed_script(label):
            found.add(MIXED_SCRIPT)
        if _RESTRICTED.search(label):
            found.add(RESTRICTED_CHARACTER)
        script = _single_script(label)
        if script is not None and script != "Latin" and script != tld_script and _skeleton_is_ascii_word(label):
            found.add(WHOLE_SCRIPT_CONFUSABLE)
    if tld and (_NOT_TLD.search(tld) or (not tld.isascii() and _NOT_TLD.search(_uts46(tld)))):
        found.add(INVALID_TLD)
    if starts_link and ideographic_cut(host):
        found.add(IDEOGRAPHIC_BOUNDARY)
    return tuple(code for code in RISK_CODES if code in found)


def _uts46(label: str) -> str:
    """``label`` mapped by UTS #46 (a superscript digit is a digit), or as it is when it cannot be."""
    try:
        return str(idna.uts46_remap(label, std3_rules=False, transitional=False))
    except (idna.IDNAError, UnicodeError, ValueError, IndexError):
        return label


def link_risks(link: Link | str) -> tuple[str, ...]:
    """The UTS #58 §8 findings for ``link`` (a ``Link`` or a URL string), as stable codes.

    The codes come in the order of :data:`RISK_CODES` (see the module docstring and
    docs/security.md); an empty tuple means no risk.  A ``Link`` is judged by its text
    as written (``Link.text``); a string is read as a URL or an email address.

    >>> link_risks("pаypal.com")  # a Cyrillic а
    ('mixed-script',)
    >>> link_risks("example.com/αβ(γ)")
    ()
    """
    if isinstance(link, Link):
        text, kind = link.text, link.kind
    elif isinstance(link, str):
        text, kind = link, "url"
        if "@" in text and not _SCHEME.match(text) and not _AUTHORITY_END.search(text, 0, text.find("@")):
            kind = "email"
    else:
        raise TypeError(f"link must be a Link or a str, not {type(link).__name__}")
    bidi = _BIDI.search(text) is not None if not text.isascii() else False
    span = _host_span(text, kind)
    risks = _host_risks(text[span[0] : span[1]], span[2]) if span else ()
    if not bidi:
        return risks
    return tuple(code for code in RISK_CODES if code in risks or code == BIDI_CONTROL)


def _moved(text: str, link: Link, cut: int, host_start: int, host_end: int, strict_hosts: bool) -> Link | None:
    """``link`` starting ``cut`` characters into its host (which starts it), or None when what is
    left is no valid host."""
    start = link.start + host_start + cut
    domain = text[start : link.start + host_end]
    host = hosts.domain_unicode(domain) if strict_hosts else hosts.lenient_domain(domain)
    if host is None:
        return None
    rest = text[link.start + host_end : link.end]
    if rest[:1] in _SEPARATORS and rest:
        rest = "." + rest[1:]
    return Link(start, link.end, text[start : link.end], "url", "https://" + host + rest, link.original)


def reject_risky_links(text: str, links: Sequence[Link], *, strict_hosts: bool = True) -> list[Link]:
    """``links`` (found in ``text``) without those :func:`link_risks` finds a risk in: ``reject_risky=True``.

    A link whose only finding is ``ideographic-boundary`` starts after the last change
    instead (§8: "move the start boundary"), when what is left is a valid host (checked
    as detection did: a registrable domain with ``strict_hosts``) with no risk of its
    own; otherwise it is dropped.  No link is added and no end moves.
    """
    out: list[Link] = []
    for link in links:
        risks = link_risks(link)
        if not risks:
            out.append(link)
            continue
        if risks != (IDEOGRAPHIC_BOUNDARY,) or link.kind != "url":
            continue
        span = _host_span(link.text, "url")
        if span is None:
            continue
        host_start, host_end, _ = span
        moved = _moved(text, link, ideographic_cut(link.text[host_start:host_end]), host_start, host_end, strict_hosts)
        if moved is not None and not link_risks(moved):
            out.append(moved)
    return out
