"""Host characters and host runs: UTS #46 §4 (mapping) and IDNA2008 (RFC 5892 categories).

A host is a maximal run of *host characters*: ASCII letters, digits and ``-``, the
label separators ``.`` ``。`` ``．`` ``｡`` (UTS #46 §4 maps the last three to ``.``),
and the non-ASCII characters that can occur in an IDNA2008 label (PVALID, CONTEXTJ,
CONTEXTO), directly or after UTS #46 mapping (so ``Ö`` counts).  Any other character
ends the host, at either side.  The non-ASCII ones come from the official Unicode 17.0.0
files (``IdnaMappingTable.txt``, ``Idna2008.txt``) through ``tools/generate_tables.py``
(``uts58_adapt/_idna_tables.py``; ``_idna_tables_18_0_0.py`` from the 18.0.0 draft's files
when ``$UTS58_UNICODE_VERSION`` chose it).  UTS #46 processing itself (ToASCII) is the
installed idna's, at its own Unicode version (``data_versions()["idna"]``).
"""

from __future__ import annotations

import bisect
import importlib
import re
from functools import lru_cache

from .._unicode_version import MODULE_SUFFIX
from ..properties import FlagPattern, class_body
from . import _dispatch
from ._dispatch import choose

__all__ = [
    "ASCII_HOST_CHARS",
    "MAX_HOST",
    "SEPARATORS",
    "host_run_end",
    "host_run_start",
    "is_host_char",
    "normalize_separators",
]

#: Label separators of UTS #46 (full stop and the three that map to it).
SEPARATORS = ".\u3002\uff0e\uff61"
SEP_TABLE = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})
#: The longest domain name we look at (RFC 1035: 253 octets in text form).
MAX_HOST = 253
#: The ASCII host characters: what ``_HOST_CHAR`` takes below U+0080 (tests/test_hosts.py).
ASCII_HOST_CHARS = frozenset("-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def _host_char_ranges() -> tuple[tuple[int, int], ...]:
    """The generated non-ASCII host-character ranges (imported on first non-ASCII use)."""
    ranges: tuple[tuple[int, int], ...] = importlib.import_module(
        f".._idna_tables{MODULE_SUFFIX}", __package__
    ).HOST_CHAR_RANGES
    return ranges


#: Every astral code point, as one coarse range of the host-run regexes: ``re`` tests
#: astral ranges one by one, so exact ones would make every failed test slow.  A run
#: with an astral code point is then cut at the first one that is not a host character
#: (:func:`_exact_end`, a bisect in the exact ranges below), so astral punctuation
#: (``𐩐`` U+10A50, ``𑁍`` U+1104D), emoji and symbols end a host as BMP ones do, and
#: mathematical letters that UTS #46 maps to ASCII (``𝔞`` → ``a``) continue it.
_ASTRAL = ((0x10000, 0x10FFFF),)


def label_class(below: int = 0x110000) -> str:
    """Characters of a label (the separators are not among them: they map to ".").

    Below U+0080 these are only ``A-Za-z0-9-``, so the generated non-ASCII ranges are
    only read for a class that goes beyond ASCII.
    """
    if below <= 0x80:
        return "A-Za-z0-9\\-"
    ranges = [r for r in _host_char_ranges() if r[1] <= 0xFFFF] + list(_ASTRAL)
    return "A-Za-z0-9\\-" + class_body(ranges, below=below)


@lru_cache(maxsize=1)
def _astral_ranges() -> tuple[list[int], list[int]]:
    """The exact astral host-character ranges, as (firsts, lasts) for a bisect."""
    ranges = [r for r in _host_char_ranges() if r[1] > 0xFFFF]
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
    return label_class(below) + re.escape("".join(ch for ch in SEPARATORS if ord(ch) < below))


#: A run of host characters (bounded: longer runs are too long to be a domain anyway).
_HOST_RUN = FlagPattern(lambda below: f"[{_host_class(below)}]{{1,{MAX_HOST + 1}}}")
_HOST_CHAR = FlagPattern(lambda below: f"[{_host_class(below)}]")
#: The same run, read backwards (on reversed text, for :func:`host_run_start`).
_HOST_RUN_BACK = FlagPattern(lambda below: f"[{_host_class(below)}]*")


def is_host_char(ch: str) -> bool:
    """Whether ``ch`` can be part of a host (see the module docstring)."""
    if ch < "\x80":
        return ch in ASCII_HOST_CHARS
    if ch > "\uffff":
        return len(ch) == 1 and _astral_host_char(ord(ch))
    return _HOST_CHAR.get(ch).match(ch) is not None


def normalize_separators(text: str) -> str:
    """Replace ``。`` ``．`` ``｡`` by ``.`` next to a host character (same length, so offsets are kept).

    Backends that only know ``.`` find ``普遍适用测试。我爱你`` in the result, and read
    ``例子.中国`` in ``例子.中国。`` as they read ``例子.中国.``; the refinement stage then
    works on the original text.  One with no host character on either side belongs to no
    domain (``｡/``): it stays as written, as the library reads it in the text (urlextract
    reads ``./l.io/`` otherwise than ``｡/l.io/``; fuzz seed 26).
    """
    if "\u3002" in text or "\uff0e" in text or "\uff61" in text:
        out = text.translate(SEP_TABLE)
        kept = [
            at
            for at in (m.start() for m in _SEPARATOR.finditer(text))
            if (at == 0 or not is_host_char(text[at - 1])) and (at + 1 == len(text) or not is_host_char(text[at + 1]))
        ]
        if kept:
            pieces: list[str] = []
            pos = 0
            for at in kept:
                pieces += (out[pos:at], text[at])
                pos = at + 1
            pieces.append(out[pos:])
            out = "".join(pieces)
        return out
    return text


_SEPARATOR = re.compile("[\u3002\uff0e\uff61]")


_ASTRAL_SEARCH = re.compile("[\U00010000-\U0010ffff]").search
#: ``_HOST_RUN``'s ASCII form, compiled at import (a small class): the hot path of ASCII text.
_ASCII_HOST_RUN_MATCH = re.compile(f"[{_host_class(0x80)}]{{1,{MAX_HOST + 1}}}").match


def host_run_end(text: str, pos: int) -> int:
    """The end of the run of host characters starting at ``pos`` (``pos`` when there is none)."""
    if text.isascii():
        m = _ASCII_HOST_RUN_MATCH(text, pos)
        return m.end() if m else pos
    m = _HOST_RUN.get(text).match(text, pos)
    if m is None:
        return pos
    end = m.end()
    if _ASTRAL_SEARCH(text, pos, end) is None:
        return end  # what _exact_end gives a run without astral code points
    return _exact_end(text, pos, end)


def host_run_start(text: str, pos: int, floor: int = 0) -> int:
    """The start of the run of host characters that ends at ``pos``, looking back no further than ``floor``."""
    if pos <= floor:
        return pos
    before = text[pos - 1]
    if before < "\x80" and before not in ASCII_HOST_CHARS:
        return pos  # no run
    m = _HOST_RUN_BACK.get(text).match(text[floor:pos][::-1])
    start = pos - m.end() if m else pos
    if start < pos and not text.isascii() and _ASTRAL_SEARCH(text, start, pos) is not None:
        start = pos  # the class takes every astral code point: step back one by one
        while start > floor and is_host_char(text[start - 1]):
            start -= 1
    return start


def _host_table() -> bytes:
    """The host characters as one byte per code point (1 for a host character), for the
    compiled :func:`host_run_end` and :func:`host_run_start`: built from the generated ranges
    of the Unicode version in use, on the first non-ASCII code point they read."""
    table = bytearray(0x110000)
    for first, last in _host_char_ranges():
        table[first : last + 1] = b"\x01" * (last - first + 1)
    for ch in ASCII_HOST_CHARS.union(SEPARATORS):
        table[ord(ch)] = 1
    return bytes(table)


# The compiled twins, when the extension is built and $UTS58_ADAPT_PURE is not 1 (_dispatch.py).
if _dispatch.extension is not None:
    _dispatch.extension.set_host_loader(_host_table)
host_run_end = choose(host_run_end)
host_run_start = choose(host_run_start)
