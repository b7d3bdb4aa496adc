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
    digits and hyphens), unless the TLD is in that script too (``аррӏе.com``; not ``аррӏе.рф``),
    or the label is itself a TLD used alone (``бг``, ``рус``).
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
``mixed-numbers``
    A host label with decimal digits (Numeric_Type=Decimal) of more than one digit system
    (UTS #39 §5.3): ``123٤٥٦``.
``invisible-marks``
    A host label that, after NFD, has the same nonspacing mark (gc Mn or Me) twice in one
    sequence of marks, or more than four marks in a row (UTS #39 §5.4; the repeated mark
    anywhere in the sequence, as ICU's INVISIBLE check reads it): ``á́b``.
``cjk-lookalike``
    A CJK character that looks like ASCII punctuation or a Latin letter (``ノ 丿 一 〇 ー``
    and the others of Chromium's IDN spoof checker) beside a Latin letter or an ASCII
    digit in a host label: ``paypal.com丿evil.com``, ``g〇〇gle.com``.

``link_risks(..., profile="browser")`` adds the checks of Chromium's IDN display policy
that go beyond UTS #39's data, as their own codes (:data:`BROWSER_CODES`):
``digit-lookalike``, ``whole-script-lookalike``, ``non-ascii-latin-mixed``,
``dangerous-pattern``, ``latin-lookalike`` and ``tld-specific-character`` (see
docs/security.md for each source).

Only the host decides all but ``bidi-control``.  The tables are generated from the
official files (``uts58_adapt/_security_tables.py``, ``tools/generate_tables.py``; the 18.0.0
draft's, ``_security_tables_18_0_0.py``, when ``$UTS58_UNICODE_VERSION`` chose it).
"""

from __future__ import annotations

import bisect
import importlib
import re
from collections.abc import Sequence
from functools import lru_cache
from operator import itemgetter

import idna

from .._unicode_version import MODULE_SUFFIX
from ..link import Link
from ..public_suffixes import icann_tlds
from . import hosts
from .risk_profile import BROWSER, DEFAULT, PROFILES

#: The §8 tables of the Unicode version in use (chosen once, at import).
tables = importlib.import_module(f".._security_tables{MODULE_SUFFIX}", __package__)

__all__ = ["BROWSER_CODES", "DEFAULT_CODES", "RISK_CODES", "ideographic_cut", "link_risks", "reject_risky_links"]

MIXED_SCRIPT = "mixed-script"
RESTRICTED_CHARACTER = "restricted-character"
WHOLE_SCRIPT_CONFUSABLE = "whole-script-confusable"
BIDI_CONTROL = "bidi-control"
INVALID_TLD = "invalid-tld"
IDEOGRAPHIC_BOUNDARY = "ideographic-boundary"
MIXED_NUMBERS = "mixed-numbers"
INVISIBLE_MARKS = "invisible-marks"
CJK_LOOKALIKE = "cjk-lookalike"
DIGIT_LOOKALIKE = "digit-lookalike"
WHOLE_SCRIPT_LOOKALIKE = "whole-script-lookalike"
NON_ASCII_LATIN_MIXED = "non-ascii-latin-mixed"
DANGEROUS_PATTERN = "dangerous-pattern"
LATIN_LOOKALIKE = "latin-lookalike"
TLD_SPECIFIC_CHARACTER = "tld-specific-character"

#: The codes of the default profile (``reject_risky=True``), in the order they are returned.
DEFAULT_CODES = (
    MIXED_SCRIPT,
    RESTRICTED_CHARACTER,
    WHOLE_SCRIPT_CONFUSABLE,
    BIDI_CONTROL,
    INVALID_TLD,
    IDEOGRAPHIC_BOUNDARY,
    MIXED_NUMBERS,
    INVISIBLE_MARKS,
    CJK_LOOKALIKE,
)
#: The codes only ``profile="browser"`` adds (``reject_risky="browser"``): Chromium's IDN policy.
BROWSER_CODES = (
    DIGIT_LOOKALIKE,
    WHOLE_SCRIPT_LOOKALIKE,
    NON_ASCII_LATIN_MIXED,
    DANGEROUS_PATTERN,
    LATIN_LOOKALIKE,
    TLD_SPECIFIC_CHARACTER,
)
#: Every code :func:`link_risks` can return, in the order it returns them.
RISK_CODES = DEFAULT_CODES + BROWSER_CODES

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
            name: str = tables.SCRIPTS[index]
            return name
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


_CCC = {cp: value for first, last, value in tables.COMBINING_CLASS for cp in range(first, last + 1)}
# Hangul syllables decompose algorithmically (Unicode §3.12).
_S_BASE, _L_BASE, _V_BASE, _T_BASE = 0xAC00, 0x1100, 0x1161, 0x11A7
_T_COUNT, _N_COUNT, _S_COUNT = 28, 588, 11172


def _runs_of(cps: set[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for cp in sorted(cps):
        if runs and runs[-1][1] == cp - 1:
            runs[-1] = (runs[-1][0], cp)
        else:
            runs.append((cp, cp))
    return runs


# A character NFD changes or moves: a decomposition, a non-zero combining class, a Hangul syllable.
_NFD_CHANGES = _char_class(_runs_of(set(tables.DECOMPOSITION) | set(_CCC)) + [(_S_BASE, _S_BASE + _S_COUNT - 1)])


def _nfd(text: str) -> str:
    """``text`` in Normalization Form D, from the generated Unicode 17.0 data (not ``unicodedata``)."""
    if text.isascii() or not _NFD_CHANGES.search(text):
        return text
    chars: list[str] = []
    decomposition = tables.DECOMPOSITION
    for ch in text:
        cp = ord(ch)
        full = decomposition.get(cp)
        if full is not None:
            chars.extend(full)
        elif 0 <= cp - _S_BASE < _S_COUNT:
            index = cp - _S_BASE
            chars.append(chr(_L_BASE + index // _N_COUNT))
            chars.append(chr(_V_BASE + index % _N_COUNT // _T_COUNT))
            if index % _T_COUNT:
                chars.append(chr(_T_BASE + index % _T_COUNT))
        else:
            chars.append(ch)
    # Canonical ordering: each run of non-starters, stably sorted by combining class.
    out: list[str] = []
    run: list[tuple[int, str]] = []
    for ch in chars:
        ccc = _CCC.get(ord(ch), 0)
        if ccc:
            run.append((ccc, ch))
            continue
        if run:
            run.sort(key=itemgetter(0))
            out.extend(c for _, c in run)
            run = []
        out.append(ch)
    if run:
        run.sort(key=itemgetter(0))
        out.extend(c for _, c in run)
    return "".join(out)


def _skeleton_is_ascii_word(label: str, single_only: bool = False) -> bool:
    """Whether the UTS #39 skeleton of ``label`` is ASCII letters, digits and hyphens, with a letter.

    ``single_only``: only prototypes of one character count (``ı`` → ``i``, not ``æ`` → ``ae``).
    """
    confusable = tables.CONFUSABLE_ASCII
    if single_only:
        skeleton = "".join(
            proto if (proto := confusable.get(ord(ch))) is not None and len(proto) == 1 else ch for ch in _nfd(label)
        )
    else:
        skeleton = "".join(confusable.get(ord(ch), ch) for ch in _nfd(label))
    return skeleton.isascii() and skeleton.replace("-", "").isalnum() and not skeleton.replace("-", "").isdigit()


_DIGITS = _char_class([(first, last) for first, last, _ in tables.DECIMAL_DIGITS])
_DIGIT_FIRSTS = [first for first, _, _ in tables.DECIMAL_DIGITS]


def _mixed_numbers(label: str) -> bool:
    """UTS #39 §5.3: ``label`` has decimal digits (Numeric_Type=Decimal) of more than one system (zero)."""
    zero = -1
    for m in _DIGITS.finditer(label):
        this = tables.DECIMAL_DIGITS[bisect.bisect_right(_DIGIT_FIRSTS, ord(m.group())) - 1][2]
        if zero not in (-1, this):
            return True
        zero = this
    return False


_MARK_RUN = re.compile(_char_class(tables.NONSPACING_MARKS).pattern + "+")


def _invisible_marks(label: str) -> bool:
    """UTS #39 §5.4, after NFD: a nonspacing mark twice in one sequence of marks, or more than four in a row."""
    for m in _MARK_RUN.finditer(_nfd(label)):
        run = m.group()
        if len(run) > 4 or len(set(run)) < len(run):
            return True
    return False


@lru_cache(maxsize=4096)
def _scx(ch: str) -> frozenset[str]:
    """The Script_Extensions of ``ch`` (its Script where ScriptExtensions.txt does not list it)."""
    cp = ord(ch)
    i = bisect.bisect_right(_SCX_FIRSTS, cp) - 1
    if i >= 0 and cp <= tables.SCRIPT_EXTENSIONS[i][1]:
        return frozenset(tables.SCRIPTS[j] for j in tables.SCRIPT_EXTENSIONS[i][2])
    return frozenset((_script(cp),))


_JAPANESE = frozenset(("Han", "Hiragana", "Katakana"))
_KANA = frozenset(("Hiragana", "Katakana"))
_CJK = _JAPANESE | {"Bopomofo"}
_LGC = frozenset(("Latin", "Greek", "Cyrillic"))

# Chromium's IDN spoof checker (components/url_formatter/spoof_checks/idn_spoof_checker.cc,
# its "dangerous patterns"): kana and ideographs that look like "/" ...
_SLASH_LIKE = "\u30ce\u30f3\u30bd\u30be\u4e36\u4e40\u4e41\u4e3f"  # ノ ン ソ ゾ 丶 乀 乁 丿
# ... ideographs and Bopomofo that look like Latin letters or punctuation ...
_LATIN_LIKE = (  # 一 ㄧ 丨 乛 七 丅 十 〇 ㄒ ㄚ ㄟ ㄨ ㄩ ㄈ ㆺ ㆳ 工 ㆲ 讠 丁
    "\u4e00\u3127\u4e28\u4e5b\u4e03\u4e05\u5341\u3007\u3112\u311a\u311f\u3128\u3129\u3108\u31ba\u31b3"
    "\u5de5\u31b2\u8ba0\u4e01"
)
# ... and the prolonged sound mark and the katakana middle dot (a dash and a dot).
_PROLONGED, _MIDDLE_DOT = "\u30fc", "\u30fb"
_LOOKALIKE_RUN = re.compile(f"[{_SLASH_LIKE}{_LATIN_LIKE}{_PROLONGED}{_MIDDLE_DOT}]+")


def _latin_or_digit(ch: str | None) -> bool:
    return ch is not None and ("0" <= ch <= "9" or _script(ord(ch)) == "Latin")


def _cjk_lookalike(label: str) -> bool:
    """A run of CJK look-alikes of ASCII punctuation or Latin letters beside a Latin letter or ASCII digit.

    Chromium's dangerous patterns for these characters, where the non-CJK neighbour is a
    Latin letter or a digit: an ideograph or ``・`` with one on either side; ``ー`` with one
    before it, or after it when no kana precedes it (``サーバーexample`` is kana); a
    slash look-alike with one on one side and no Han or kana on the other (``ビタミンc`` is not).
    """
    for m in _LOOKALIKE_RUN.finditer(label):
        run = m.group()
        before = label[m.start() - 1] if m.start() else None
        after = label[m.end()] if m.end() < len(label) else None
        left, right = _latin_or_digit(before), _latin_or_digit(after)
        if not (left or right):
            continue
        if any(ch in _LATIN_LIKE or ch == _MIDDLE_DOT for ch in run):
            return True
        if left or (_PROLONGED in run and (before is None or not _scx(before) & _KANA)):
            return True
        if any(ch in _SLASH_LIKE for ch in run):
            other = after if left else before
            if other is None or not _scx(other) & _JAPANESE:
                return True
    return False


# --- the browser profile: Chromium's IDN display policy (idn_spoof_checker.cc, docs/idn.md) ------------

#: Characters that are, or look like, digits (Chromium's ``digit_lookalikes_``).
_DIGIT_LOOKALIKES = frozenset("θ२২੨૨೩೭շзҙӡउওਤ੩૩౩ဒვპੜკ੫丩ㄐճ৪੪୫૭୨౨")
#: Chromium's ``kWholeScriptConfusables``: per script, its letters that look like Latin ones
#: and the TLDs where a label of them is allowed (the non-Linux Thai set).
_WHOLE_SCRIPT_LOOKALIKES = {
    "Armenian": ("ագզէլհյոսւօՙ", ("am",)),
    "Cyrillic": ("аысԁеԍһіюкјӏорԗԛѕԝхуъьҽпгѵѡ", ("bg", "by", "kz", "pyc", "ru", "su", "ua", "uz")),
    "Ethiopic": ("ሀሠሰስበነተከዐዕዘጠፐꬅ", ("er", "et")),
    "Georgian": ("იოყძხჽჿ", ("ge",)),
    "Greek": ("αικνρυωηοτ", ("gr",)),
    "Hebrew": ("דוחיןסװײ׳ﬦ", ("il",)),
    "Bengali": ("০৭", ()),
    "Devanagari": ("ऽ०ॱ", ()),
    "Gujarati": ("ડટ૦૧", ()),
    "Gurmukhi": ("੦੧", ()),
    "Kannada": ("ಽ೦೧", ()),
    "Malayalam": ("ടഠധനറ൦", ()),
    "Oriya": ("ଠ୦୮", ()),
    "Tamil": ("டப௦", ()),
    "Telugu": ("౦౧", ()),
    "Myanmar": ("ခဂငထပဝ၀၂ၔၜ\u1090\u1091\u1095\u1096\u1097", ("mm",)),
    "Thai": ("บพเแ๐", ("th",)),
}
#: Common words Chromium allows though they are whole-script look-alikes.
_ALLOWED_WORDS = frozenset(("секс", "как", "коса", "курс", "парк", "такий", "укроп", "сахарок", "покраска"))
_COMBINING_DIACRITICS = re.compile("[\u0300-\u0339]")


def _digit_lookalike(label: str) -> bool:
    """Chromium's kDigitLookalikes: only ASCII digits and digit look-alikes, with a look-alike."""
    found = False
    for ch in label:
        if ch in _DIGIT_LOOKALIKES:
            found = True
        elif not "0" <= ch <= "9":
            return False
    return found


def _whole_script_lookalike(label: str, script: str | None, tld: str) -> bool:
    """Chromium's kWholeScriptConfusable: the label's letters of its one script are all in that
    script's list of Latin look-alikes, and the TLD is neither in that script nor in its list."""
    entry = _WHOLE_SCRIPT_LOOKALIKES.get(script or "")
    if entry is None or label in _ALLOWED_WORDS or _COMBINING_DIACRITICS.search(label):
        return False
    lookalikes, allowed_tlds = entry
    letters = {ch for ch in label if _script(ord(ch)) == script}
    if not letters or not letters <= set(lookalikes):
        return False
    return tld not in allowed_tlds and not any(_script(ord(ch)) == script for ch in tld)


def _non_ascii_latin_mixed(label: str) -> bool:
    """Chromium's kNonAsciiLatinCharMixedWithNonLatin: a non-ASCII Latin letter and another script."""
    latin = other = False
    for ch in label:
        if ch.isascii():
            continue
        name = _script(ord(ch))
        if name == "Latin":
            latin = True
        elif name not in _ANY_SCRIPT:
            other = True
    return latin and other


def _dangerous_pattern(label: str) -> bool:
    """Chromium's kDangerousPattern (the regular expression of ``SafeToDisplayAsUnicode``), on the
    lower-case label; Chromium reaches it only for a label of several scripts, this checks every label."""
    n = len(label)
    for i, ch in enumerate(label):
        before = label[i - 1] if i else None
        after = label[i + 1] if i + 1 < n else None
        if ch in _SLASH_LIKE:
            if (
                before is not None
                and after is not None
                and not _scx(before) & _JAPANESE
                and not _scx(after) & _JAPANESE
            ):
                return True
        elif ch in "\u30fd\u30fe":  # ヽ ヾ, unless after a katakana
            if before is None or "Katakana" not in _scx(before):
                return True
        elif ch == _PROLONGED:
            if before is None or not _scx(before) & _KANA:
                return True
        elif ch == _MIDDLE_DOT:
            if (before is not None and "a" <= before <= "z") or (after is not None and "a" <= after <= "z"):
                return True
        elif ch in _LATIN_LIKE:
            if (before is not None and not _scx(before) & _CJK) or (after is not None and not _scx(after) & _CJK):
                return True
        elif "\u0300" <= ch <= "\u0339":
            if before is not None and not _scx(before) & _LGC:
                return True
        elif ch in "\u3099\u309a":  # combining kana voiced sound marks
            return True
        if after is not None and (
            (ch == "\u0131" and "\u0300" <= after <= "\u0339") or (ch in "ijl" and after == "\u0307")
        ):
            return True
    return _kana_between(label, "Katakana", "\u3078\u3079\u307a") or _kana_between(
        label, "Hiragana", "\u30d8\u30d9\u30da"
    )


def _tld_specific(label: str, tld: str) -> bool:
    """Chromium's kTLDSpecificCharacters and kUnsafeMiddleDot, on the lower-case label: ``þ`` or
    ``ð`` outside .is and .fo, ``ə`` outside .az (in a label of more than one character), and
    ``·`` anywhere but between two ``l`` under .cat."""
    if len(label) > 1 and (
        (tld not in ("is", "fo") and ("\u00fe" in label or "\u00f0" in label)) or (tld != "az" and "\u0259" in label)
    ):
        return True
    i = label.find("\u00b7")
    while i != -1:
        if tld != "cat" or i == 0 or i == len(label) - 1 or label[i - 1] != "l" or label[i + 1] != "l":
            return True
        i = label.find("\u00b7", i + 1)
    return False


def _kana_between(label: str, script: str, odd: str) -> bool:
    """Chromium: ``^[scx=script]+[odd][scx=script]+$`` (へべぺ among katakana, ヘベペ among hiragana)."""
    if len(label) < 3 or label[0] in odd or label[-1] in odd:
        return False
    outside = [ch for ch in label if script not in _scx(ch)]
    return len(outside) == 1 and outside[0] in odd


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
def _host_risks(host: str, starts_link: bool, browser: bool = False) -> tuple[str, ...]:
    """The host's codes (all but ``bidi-control``), in :data:`RISK_CODES` order."""
    if not host.isascii():
        labels = [_decoded(label) for label in _LABEL_SPLIT.split(host)]
    else:
        labels = [_decoded(label) for label in host.split(".")]
    found = set()
    if _is_ip(host):
        labels = []  # an address: no label, no TLD
    tld = labels[-1] if len(labels) > 1 else ""  # a single label (``localhost``) is no TLD
    # ... but a single label that is a TLD (``бг``, ``рус``) is its own TLD for the same-script exemptions.
    own = tld or (labels[0].lower() if len(labels) == 1 and labels[0].lower() in icann_tlds() else "")
    tld_script = _single_script(own) if own else None
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
        if _mixed_numbers(label):
            found.add(MIXED_NUMBERS)
        if _invisible_marks(label):
            found.add(INVISIBLE_MARKS)
        if _cjk_lookalike(label):
            found.add(CJK_LOOKALIKE)
        if browser:
            lower = label.lower()
            if _digit_lookalike(lower):
                found.add(DIGIT_LOOKALIKE)
            if _whole_script_lookalike(lower, script, own.lower()):
                found.add(WHOLE_SCRIPT_LOOKALIKE)
            if _non_ascii_latin_mixed(label):
                found.add(NON_ASCII_LATIN_MIXED)
            if _dangerous_pattern(lower):
                found.add(DANGEROUS_PATTERN)
            if script == "Latin" and _skeleton_is_ascii_word(label, single_only=True):
                found.add(LATIN_LOOKALIKE)
            if _tld_specific(lower, own.lower()):
                found.add(TLD_SPECIFIC_CHARACTER)
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


def link_risks(link: Link | str, *, profile: str = DEFAULT) -> tuple[str, ...]:
    """The UTS #58 §8 findings for ``link`` (a ``Link`` or a URL string), as stable codes.

    The codes come in the order of :data:`RISK_CODES` (see the module docstring and
    docs/security.md); an empty tuple means no risk.  A ``Link`` is judged by its text
    as written (``Link.text``); a string is read as a URL or an email address.
    ``profile="browser"`` adds the checks of Chromium's IDN display policy
    (:data:`BROWSER_CODES`); it only ever adds codes.

    >>> link_risks("pаypal.com")  # a Cyrillic а
    ('mixed-script',)
    >>> link_risks("example.com/αβ(γ)")
    ()
    >>> link_risks("οτ.com"), link_risks("οτ.com", profile="browser")
    ((), ('whole-script-lookalike',))
    """
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {', '.join(map(repr, PROFILES))}, not {profile!r}")
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
    risks = _host_risks(text[span[0] : span[1]], span[2], profile == BROWSER) if span else ()
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


def reject_risky_links(
    text: str, links: Sequence[Link], *, strict_hosts: bool = True, profile: str = DEFAULT
) -> list[Link]:
    """``links`` (found in ``text``) without those :func:`link_risks` finds a risk in: ``reject_risky=True``
    (``profile="browser"``: ``reject_risky="browser"``, the risks of that profile).

    A link whose only finding is ``ideographic-boundary`` starts after the last change
    instead (§8: "move the start boundary"), when what is left is a valid host (checked
    as detection did: a registrable domain with ``strict_hosts``) with no risk of its
    own; otherwise it is dropped.  No link is added and no end moves.
    """
    out: list[Link] = []
    for link in links:
        risks = link_risks(link, profile=profile)
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
        if moved is not None and not link_risks(moved, profile=profile):
            out.append(moved)
    return out
