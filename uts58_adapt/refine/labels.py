"""Label validation: UTS #46 §4.1 (Validity Criteria) and IDNA2008 (RFC 5891 §5.4, RFC 5892, RFC 5893).

Each label of a host run is checked on its own: :func:`strict_label` as IDNA2008
registration does (UTS #46 nontransitional mapping with STD3 rules, then hyphens,
PVALID and CONTEXT rules, bidi), :func:`lenient_label` as WHATWG URL's domain-to-ASCII
does (``strict_hosts=False``).  :func:`contexto_cut` applies the CONTEXTO rules of
RFC 5892 Appendix A to a run in running text.  The checks are idna's public functions
(``uts46_remap``, ``alabel``, ``ulabel``, ``check_bidi`` …), which carry idna's own
Unicode tables; which characters reach them is decided by the generated Unicode 17.0.0
host characters (:mod:`.host_chars`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import idna

from ..properties import FLAGS, INCLUDE, TERM_MASK
from ._dispatch import choose

__all__ = [
    "a_label",
    "bidi_domain_ok",
    "contexto_cut",
    "lenient_char",
    "lenient_label",
    "plain_lenient_label",
    "plain_strict_label",
    "punycode_length",
    "strict_label",
]

#: The ASCII a lenient label may hold after UTS #46 mapping: UseSTD3ASCIIRules, plus "_".
_STD3_ASCII = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")


#: An ASCII letter-digit-hyphen label of 1 to 63 characters that neither starts nor ends with
#: ``-`` and has no ``--`` in its 3rd and 4th positions (so it is no ``xn--`` A-label either).
_PLAIN_LDH = re.compile(r"(?!..--)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?").fullmatch

#: A U-label of at most this many code points is at most 63 octets in its A-label form
#: (RFC 3492): each of its deltas is below 0x110000 × 8 < 10**7, whose generalized
#: variable-length integer has at most 8 digits (each digit but the last divides what is
#: left by 36 - t >= 10), so ``xn--``, the basic code points, ``-`` and 8 digits per other
#: code point make at most 4 + 1 + 7 × 8 = 61 octets.  Longer labels are encoded and measured.
_SHORT_ULABEL = 7


@lru_cache(maxsize=1 << 16)
def strict_label(label: str) -> str | None:
    """The Unicode form of one label (UTS #46 mapped, IDNA2008 valid), or None when invalid.

    This is ``idna.ulabel(mapped)`` after ``idna.alabel(mapped)`` succeeds, ``mapped`` being
    ``idna.uts46_remap(label)`` (:func:`plain_strict_label`), with two shortcuts that give the
    same answer for less work (``tests/test_hosts.py`` compares them on IdnaTestV2's labels
    and on generated ones):

    - a plain LDH label (:data:`_PLAIN_LDH`) maps to its lower case (UTS #46 maps ``A-Z``
      and keeps ``a-z0-9-``), and every check of ``alabel`` and ``ulabel`` passes on it
      (PVALID, hyphens, length, no right-to-left character, no combining mark): it is
      returned lowered without calling idna;
    - a mapped label that is not ASCII is checked once with ``idna.check_label`` (which
      ``alabel`` and then ``ulabel`` both run on it), and the length of its A-label form is
      only counted (:func:`punycode_length`, not encoded) when it is longer than
      :data:`_SHORT_ULABEL` code points.

    Everything else (``xn--`` labels, labels that map to ASCII) goes through
    :func:`plain_strict_label`.
    """
    if _PLAIN_LDH(label):
        return label.lower()
    try:
        mapped = idna.uts46_remap(label, std3_rules=True, transitional=False)
        if not mapped or "." in mapped:
            return None
        if mapped.isascii():
            idna.alabel(mapped)  # length, hyphens, PVALID/CONTEXT rules, bidi; decodes an A-label
            return idna.ulabel(mapped)
        # Either check failing gives None, so the cheaper comes first: a run of CJK text
        # taken for a label is too long before any of its characters is looked up.
        if len(mapped) > _SHORT_ULABEL and (len(mapped) > 59 or punycode_length(mapped, 59) > 59):
            return None  # alabel: "xn--" and the Punycode, at most 63 octets (RFC 5890 §2.3.2.1)
        idna.check_label(mapped)  # what alabel and ulabel check on a non-ASCII label
        return mapped
    except (idna.IDNAError, UnicodeError, ValueError, IndexError):
        return None


def a_label(label: str) -> str:
    """The ASCII form of one label: ``label`` if it is ASCII, else its ``xn--`` A-label.

    UTS #46 §4.2 (ToASCII) on a label that passed validation: a label with a non-ASCII
    code point is converted to Punycode and written after ``"xn--"`` (RFC 3492 §6.3, the
    encoding procedure, as Python's ``punycode`` codec runs it: the basic code points
    copied as they are, upper case included, the digits in lower case); an ASCII label is
    kept as it is.  The one rule of the host stage (``domains.ascii_form``) and of the URLs
    the probes give a library (``acceptance.ascii_host``); compiled (``_compiled.a_label``).
    """
    if label.isascii():
        return label
    return "xn--" + label.encode("punycode").decode("ascii")


def punycode_length(label: str, stop: int | None = None) -> int:
    """``len(label.encode("punycode"))``, counted without writing the digits (RFC 3492 §6.3).

    The same deltas, bias adaptation (§6.1) and generalized variable-length integers
    (§3.3) as the encoder, in one loop over the label per distinct non-basic code point:
    about 2.5 times faster than the codec, which builds the digits.  With ``stop``, the
    count ends as soon as it exceeds ``stop`` (the result is then some number above it).
    Every code point is at least one octet, so a label longer than 59 code points never
    fits in an A-label (``strict_label`` does not count it).  ``tests/test_hosts.py``
    compares it with the codec.
    """
    basic = sum(1 for c in label if c < "\x80")
    length = basic + 1 if basic else 0  # the basic code points and "-"
    n, delta, bias, h = 0x80, 0, 72, basic
    for m in sorted(set(label)):
        if m < "\x80":
            continue
        code = ord(m)
        delta += (code - n) * (h + 1)
        for c in label:
            if c < m:
                delta += 1
            elif c == m:
                q, k = delta, 36
                while True:  # the digits of delta: base 36, thresholds tmin 1, tmax 26
                    t = 1 if k <= bias else 26 if k >= bias + 26 else k - bias
                    if q < t:
                        break
                    length += 1
                    q = (q - t) // (36 - t)
                    k += 36
                length += 1
                if stop is not None and length > stop:
                    return length
                d = delta // 700 if h == basic else delta // 2  # adapt(): damp 700, skew 38
                d += d // (h + 1)
                k = 0
                while d > 455:
                    d //= 35
                    k += 36
                bias = k + 36 * d // (d + 38)
                delta = 0
                h += 1
        delta += 1
        n = code + 1
    return length


def plain_strict_label(label: str) -> str | None:
    """:func:`strict_label` the plain way, through idna's ``alabel`` and ``ulabel`` on every
    label (the reference the differential tests compare :func:`strict_label` with)."""
    try:
        mapped = idna.uts46_remap(label, std3_rules=True, transitional=False)
        if not mapped or "." in mapped:
            return None
        idna.alabel(mapped)  # length, hyphens, PVALID/CONTEXT rules, bidi; decodes an A-label
        return idna.ulabel(mapped)
    except (idna.IDNAError, UnicodeError, ValueError, IndexError):
        return None


#: An ASCII letter-digit-hyphen label that neither starts nor ends with ``-`` (any length).
_LENIENT_LDH = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?").fullmatch


def lenient_label(label: str) -> str | None:
    """:func:`plain_lenient_label`, with a shortcut that gives the same answer for less work:
    a label of ASCII letters, digits and inner hyphens (:data:`_LENIENT_LDH`) that does not
    start with ``xn--`` maps to its lower case, which passes every later check (no
    right-to-left character, no joiner, no combining mark, NFC); it is returned without
    calling idna.  ``tests/test_hosts.py`` compares the two."""
    if _LENIENT_LDH(label) and label[:4].lower() != "xn--":
        return label.lower()
    return plain_lenient_label(label)


def plain_lenient_label(label: str) -> str | None:
    """One label checked as WHATWG URL's domain-to-ASCII does (UTS #46), or None.

    UTS #46 mapping (nontransitional, STD3 rules: the host run has no other ASCII than
    letters, digits and ``-``), an ``xn--`` label decoded and re-checked, NFC, the bidi
    rule and the joiner rules (CheckBidi, CheckJoiners), and no leading or trailing
    hyphen.  WHATWG URL does not check hyphens (CheckHyphens=false); a label that starts
    or ends with one is still rejected here, as LinkDetectionTest.txt rejects
    ``-foo.example-.com``, while ``a---b.com`` stays a host.  IDNA2008's PVALID table is
    not applied: ``✪df.ws`` is a host that browsers open.  ``_`` is kept: WHATWG URL runs
    UTS #46 without STD3 rules, which map ``_`` to itself (``www.foo_bar.baz.com`` is a host).
    The other validity criteria of UTS #46 §4.1 apply: no label that starts with ``xn--``
    after decoding (V4), none that starts with a combining mark (V6).
    """
    try:
        # "_" is the one ASCII character beyond STD3's that a backend's host holds in practice;
        # UTS #46 maps each character on its own, so the pieces around it are mapped alone.
        mapped = "_".join(
            idna.uts46_remap(piece, std3_rules=True, transitional=False) if piece else "" for piece in label.split("_")
        )
        if not mapped or not _STD3_ASCII.issuperset(ch for ch in mapped if ch < "\x80"):
            return None  # U1: after mapping (⑷ → "(4)"), ASCII letters, digits, "-" (and "_") only
        if mapped[:4] == "xn--":
            decoded = mapped[4:].encode("ascii").decode("punycode")
            if decoded.isascii() or idna.uts46_remap(decoded, std3_rules=True, transitional=False) != decoded:
                return None  # an A-label must decode to a valid, already mapped, non-ASCII label
            mapped = decoded
            if mapped[:4] == "xn--":
                return None  # V4: a decoded label may not look like an A-label itself
        if mapped[0] == "-" or mapped[-1] == "-":
            return None
        if unicodedata.category(mapped[0])[0] == "M":
            return None  # V6: no combining mark at the start of a label
        idna.check_nfc(mapped)
        idna.check_bidi(mapped)
        for i, ch in enumerate(mapped):
            if ch in "\u200c\u200d" and not idna.valid_contextj(mapped, i):
                return None
        return mapped
    except (idna.IDNAError, UnicodeError, ValueError, IndexError):
        return None


@lru_cache(maxsize=1 << 12)
def lenient_char(ch: str) -> bool:
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
CONTEXTO = "\u00b7\u0375\u05f3\u05f4\u30fb"
_CONTEXTO = CONTEXTO
#: Any of them (one C scan finds whether a run holds one).
ANY_CONTEXTO = re.compile(f"[{_CONTEXTO}]")
_ANY_CONTEXTO = ANY_CONTEXTO


def contexto_cut(text: str, hs: int, he: int, anchor: int) -> tuple[int, int]:
    """Cut the run ``text[hs:he]`` at CONTEXTO characters whose context rule fails.

    A middle dot not between two ``l`` (``a·b.com``), a Greek keraia not before a Greek
    letter … cannot be in a label: the host is the part of the run on the side of
    ``anchor`` (where the backend's host started).  This is our reading where UTS #58
    leaves the host to [WHATWG URL] (which would take the whole run, UTS #46 not
    checking CONTEXTO rules) and linkify-it starts after the dot: ``a·b.com`` links
    ``b.com``, and ``l·l.cat`` (Catalan) stays one host.
    """
    if text.isascii() or _ANY_CONTEXTO.search(text, hs, he) is None:
        return hs, he  # (one C scan: most runs hold none of them)
    run = text[hs:he]
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


#: The blocks that hold every code point of Bidi_Class R, AL or AN (and RLM, U+200F), as
#: ``unicodedata`` has them (tests/test_hosts.py checks it): a cheap first test, so that a
#: left-to-right domain is not looked at character by character.
RTL_BLOCKS = re.compile("[\u0590-\u08ff\u200f\ufb1d-\ufdff\ufe70-\ufeff\U00010800-\U00010fff\U0001e800-\U0001efff]")


def bidi_domain_ok(labels: list[str]) -> bool:
    """CheckBidi for a whole domain (UTS #46 §4.1 step 8, RFC 5893 §2): in a *Bidi domain name*
    (one with a right-to-left character, Bidi_Class R, AL or AN, in any label) every label,
    left-to-right ones included, must satisfy the Bidi Rule: ``0à.א`` is invalid (B1).

    The labels are checked one by one first (:func:`strict_label`, :func:`lenient_label`),
    which only applies the rule to a label with a right-to-left character itself.
    """
    if not RTL_BLOCKS.search("".join(labels)):
        return True
    rtl = ("R", "AL", "AN")
    if not any(unicodedata.bidirectional(ch) in rtl for label in labels for ch in label):
        return True
    try:
        return all(idna.check_bidi(label, check_ltr=True) for label in labels)
    except (idna.IDNAError, UnicodeError, ValueError, IndexError):
        return False


a_label = choose(a_label)
punycode_length = choose(punycode_length)
