"""The UTS #58 character properties: Link_Term (§3.4.1), Link_Bracket (§3.4.2), Link_Email (§5.1).

Values come from ``_tables.py``, generated from the Unicode 17.0.0 UCD by
``tools/generate_tables.py`` (or from ``_tables_18_0_0.py``, the 18.0.0 draft's, when
``$UTS58_UNICODE_VERSION`` chose it: ``_unicode_version.py``).  At import the range tables are expanded into one
byte per code point (1.1 MB): bits 0-2 hold the Link_Term code and bit 3 the
Link_Email flag, so a lookup is a single index, ``FLAGS[ord(ch)]``, on every plane.
``flag_runs``, ``largest_astral``, ``class_body`` and ``FlagPattern`` turn FLAGS into
``re`` character classes for the fast paths of the refine modules.
"""

from __future__ import annotations

import bisect
import importlib
import re
from collections.abc import Callable, Iterable
from enum import Enum

from ._unicode_version import MODULE_SUFFIX, UNICODE_VERSION

#: The generated tables of the Unicode version in use (chosen once, at import).
_tables = importlib.import_module(f"._tables{MODULE_SUFFIX}", __package__)
#: The Link_Term codes (the same in every version's tables).
INCLUDE, HARD, SOFT, OPEN, CLOSE = range(5)
if (INCLUDE, HARD, SOFT, OPEN, CLOSE) != (_tables.INCLUDE, _tables.HARD, _tables.SOFT, _tables.OPEN, _tables.CLOSE):
    raise ImportError(f"{_tables.__name__}: Link_Term codes differ from properties.py; regenerate it")
if _tables.UNICODE_VERSION != UNICODE_VERSION:
    raise ImportError(f"{_tables.__name__} holds Unicode {_tables.UNICODE_VERSION}, not {UNICODE_VERSION}")

__all__ = [
    "BRACKET",
    "CLOSE",
    "EMAIL_BIT",
    "FLAGS",
    "HARD",
    "INCLUDE",
    "OPEN",
    "SOFT",
    "TERM_MASK",
    "UNICODE_VERSION",
    "FlagPattern",
    "LinkTerm",
    "class_body",
    "flag_runs",
    "is_letter",
    "is_link_email",
    "largest_astral",
    "link_bracket",
    "link_term",
]

TERM_MASK = 0x07
EMAIL_BIT = 0x08


def _build() -> bytes:
    flags = bytearray([HARD]) * 0x110000
    for first, last, code in _tables.LINK_TERM_RANGES:
        flags[first : last + 1] = bytes([code]) * (last - first + 1)
    set_email_bit = bytes(b | EMAIL_BIT for b in range(256))
    for first, last in _tables.LINK_EMAIL_RANGES:
        flags[first : last + 1] = flags[first : last + 1].translate(set_email_bit)
    return bytes(flags)


#: One byte per code point: Link_Term code in bits 0-2, Link_Email in bit 3.
FLAGS: bytes = _build()
#: Close code point -> the Open code point it matches (Link_Bracket).
BRACKET: dict[int, int] = dict(_tables.LINK_BRACKET)


def flag_runs(keep: Callable[[int], bool], stop: int = 0x110000) -> list[tuple[int, int]]:
    """The ``(first, last)`` runs of code points below ``stop`` whose FLAGS byte satisfies ``keep``.

    ``keep`` is called once per byte value, and the runs are found by ``bytes.find``
    on a translated copy of FLAGS: the refine modules build their classes at import.
    """
    marks = FLAGS[:stop].translate(bytes(1 if keep(b) else 0 for b in range(256)))
    runs = []
    cp = 0
    while (first := marks.find(1, cp)) != -1:
        cp = marks.find(0, first)
        if cp == -1:
            cp = stop
        runs.append((first, cp - 1))
    return runs


def largest_astral(ranges: Iterable[tuple[int, int]], kept: int) -> list[tuple[int, int]]:
    """``ranges`` (sorted) with only the ``kept`` largest of those that end above U+FFFF.

    ``re`` looks BMP code points up in a bitmap but tests a code point above U+FFFF
    against a class's astral ranges one by one, so a fast-path class keeps only the
    few largest (CJK extensions, emoji, ...); a code point left out takes the slow path.
    """
    ranges = list(ranges)
    bmp = [r for r in ranges if r[1] <= 0xFFFF]
    astral = sorted((r for r in ranges if r[1] > 0xFFFF), key=lambda r: r[0] - r[1])[:kept]
    return bmp + sorted(astral)


def class_body(ranges: Iterable[tuple[int, int]], excluded: str = "", below: int = 0x110000) -> str:
    """A regex character class body (no brackets) of ``ranges`` minus the code points of
    ``excluded``, cut to the code points below ``below``."""
    cut = sorted({ord(ch) for ch in excluded})
    out = []
    for first, last in ranges:
        if first >= below:
            continue
        last = min(last, below - 1)
        for cp in cut:
            if first <= cp <= last:
                if first < cp:
                    out.append((first, cp - 1))
                first = cp + 1
        if first <= last:
            out.append((first, last))
    # Literal code points, not ``\\U`` escapes: ``re`` parses a class five times faster.
    return "".join(_literal(a) if a == b else f"{_literal(a)}-{_literal(b)}" for a, b in out)


def _literal(cp: int) -> str:
    """Code point ``cp`` as it may stand in a character class: itself, or escaped if special."""
    ch = chr(cp)
    return "\\" + ch if ch in "\\]^-[" else ch


class FlagPattern:
    """A regex whose character classes are built from FLAGS, compiled on first use in two forms.

    ``build(below)`` returns the pattern with every class cut to the code points below
    ``below`` (:func:`class_body`).  :meth:`get` gives the form built with ``below=0x80``
    for ASCII text (``str.isascii`` is a constant-time test), which matches there exactly
    as the full form does, and the full form for any other text.  A class over all of
    Unicode costs ``re`` about 5 ms to compile, so a program that only sees ASCII never
    pays for it.  The classes must be positive (``[...]``, not ``[^...]``).
    """

    __slots__ = ("_ascii", "_build", "_flags", "_full")

    def __init__(self, build: Callable[[int], str], flags: int = 0) -> None:
        self._build = build
        self._flags = flags
        self._ascii: re.Pattern[str] | None = None
        self._full: re.Pattern[str] | None = None

    def get(self, text: str) -> re.Pattern[str]:
        """The pattern to use on ``text`` (or on any slice of it)."""
        if text.isascii():
            if self._ascii is None:
                self._ascii = re.compile(self._build(0x80), self._flags)
            return self._ascii
        if self._full is None:
            self._full = re.compile(self._build(0x110000), self._flags)
        return self._full


class LinkTerm(str, Enum):  # noqa: UP042 (StrEnum would change str() of a value, a public API)
    """Values of the Link_Term property (UTS #58 §3.4.1, Table 3-2)."""

    INCLUDE = "Include"
    HARD = "Hard"
    SOFT = "Soft"
    OPEN = "Open"
    CLOSE = "Close"


_BY_CODE = (LinkTerm.INCLUDE, LinkTerm.HARD, LinkTerm.SOFT, LinkTerm.OPEN, LinkTerm.CLOSE)


def _code_point(ch: object, name: str = "ch") -> int:
    if not isinstance(ch, str):
        raise TypeError(f"{name} must be a str of one code point, not {type(ch).__name__}")
    if len(ch) != 1:
        raise ValueError(f"{name} must be exactly one code point, got a str of length {len(ch)}")
    return ord(ch)


def link_term(ch: str) -> LinkTerm:
    """Return the Link_Term value of one code point (UTS #58 §3.4.1).

    Lone surrogates are accepted; they are Hard.
    """
    return _BY_CODE[FLAGS[_code_point(ch)] & TERM_MASK]


def link_bracket(ch: str) -> str | None:
    """Return the Link_Bracket value of one code point (§3.4.2): the Open bracket a Close matches, else None."""
    opener = BRACKET.get(_code_point(ch))
    return None if opener is None else chr(opener)


def is_link_email(ch: str) -> bool:
    """Return whether one code point has Link_Email=Yes (§5.1), i.e. may occur in an unquoted local part."""
    return bool(FLAGS[_code_point(ch)] & EMAIL_BIT)


_LETTER_FIRSTS: list[int] = []


def is_letter(ch: str) -> bool:
    """Return whether one code point has General_Category L (Lu, Ll, Lt, Lm or Lo) in Unicode 17.0.0
    (in the version in use: ``UNICODE_VERSION``).

    From the generated ``LETTER_RANGES`` (``str.isalpha`` answers for Python's older
    Unicode: ``"\U00031350".isalpha()`` is False on Python 3.11).
    """
    cp = _code_point(ch)
    if not _LETTER_FIRSTS:
        _LETTER_FIRSTS.extend(first for first, _ in _tables.LETTER_RANGES)
    i = bisect.bisect_right(_LETTER_FIRSTS, cp) - 1
    return i >= 0 and cp <= _tables.LETTER_RANGES[i][1]
