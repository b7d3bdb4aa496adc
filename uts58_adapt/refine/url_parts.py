"""The parts of a whole URL as data, for UTS #58 §10 "Migration: Link Formatting" (with §4.1).

Before §4.1 runs on a part (:mod:`.part_escaping`), a whole URL's raw part is
percent-decoded keeping the escapes of its syntax characters (:func:`_decode`), or a
data string is escaped (:func:`_data`); private markers stand for a bare ``%`` and for a
data ``:`` or ``~`` until :func:`_serialize` resolves them (``:~:`` in data is never
structure) and runs §4.1 on each part.  Lone surrogates are handled as the
:mod:`.escaping` docstring says.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .part_escaping import DIRECTIVE_INITIATOR, INITIATORS, minimal_escape_part
from .termination import DIRECTIVE, FRAGMENT, PATH, QUERY

__all__: list[str] = []  # private to refine/escaping.py

# Data characters that are syntax for their part and must stay escaped (§4.1's
# "normal interior escaping"; NOTES: ``/?#`` path, ``#&=+`` query, ``&,``
# directive; ``\`` in a path is our addition, see refine/escaping.py).
_SYNTAX = {PATH: "/?#\\", QUERY: "#&=+", FRAGMENT: "", DIRECTIVE: "&,"}

# Private markers used between decoding and §4.1.  Lone surrogates other than
# U+DC80..U+DCFF never reach that stage (see _normalize_surrogates), so these
# cannot collide with text.
_PCT = "\ud800"  # a bare '%' (literal or data): '%25' if two hex digits follow, else '%'
_COLON = "\ud801"  # a data ':' in a fragment or directive
_TILDE = "\ud802"  # a data '~' in a fragment or directive


def _esc(ch: str) -> str:
    return "".join(f"%{b:02X}" for b in ch.encode("utf-8"))


def _data_table(part: int) -> dict[int, str]:
    table = {ord(ch): _esc(ch) for ch in _SYNTAX[part]}
    table[ord("%")] = _PCT
    if part in (FRAGMENT, DIRECTIVE):
        table[ord(":")] = _COLON
        table[ord("~")] = _TILDE
    return table


_DATA_TABLES = {part: _data_table(part) for part in (PATH, QUERY, FRAGMENT, DIRECTIVE)}
_PERCENT_RUN = re.compile(r"((?:%[0-9A-Fa-f]{2})+)|%")
_PCT_BEFORE_HEX = re.compile(_PCT + "(?=[0-9A-Fa-f]{2})")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _wtf8_bytes(m: re.Match[str]) -> str:
    ch = m.group()
    if "\udc80" <= ch <= "\udcff":
        return ch
    return ch.encode("utf-8", "surrogatepass").decode("utf-8", "surrogateescape")


def _normalize_surrogates(text: str) -> str:
    """Rewrite lone surrogates as byte stand-ins U+DC80..U+DCFF (see the module docstring)."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(_wtf8_bytes, text)
    return text


def _decoder(part: int) -> Callable[[re.Match[str]], str]:
    table = _DATA_TABLES[part]

    def decode(m: re.Match[str]) -> str:
        run = m.group(1)
        if run is None:  # a '%' not followed by two hex digits
            return _PCT
        return bytes.fromhex(run.replace("%", "")).decode("utf-8", "surrogateescape").translate(table)

    return decode


_DECODERS = {part: _decoder(part) for part in (PATH, QUERY, FRAGMENT, DIRECTIVE)}


def _decode(raw: str, part: int) -> str:
    """Percent-decode a raw part, keeping the escapes of its syntax characters.

    Undecodable bytes become U+DC80..U+DCFF (Hard, so §4.1 escapes them again as
    the same bytes); ``%`` and data ``:`` ``~`` become markers.
    """
    if not raw.isascii():
        raw = _normalize_surrogates(raw)
    if "%" not in raw:
        return raw
    return _PERCENT_RUN.sub(_DECODERS[part], raw)


def _data(text: str, part: int) -> str:
    """Escape a data string of ``part`` (format_url): its syntax characters become escapes."""
    return _normalize_surrogates(text).translate(_DATA_TABLES[part])


def _protect_directive_initiator(pieces: list[str]) -> list[str]:
    """Keep data from spelling ``:~:`` in a fragment and its directives.

    ``pieces`` are the fragment and directive texts, joined by a literal ``:~:``.
    Scanning left to right as the detection algorithm does, each ``:~:`` that
    uses a data ``:`` or ``~`` gets its first data character escaped; one made
    only of literals is structure and is skipped.  Markers become characters.
    """
    combined = DIRECTIVE_INITIATOR.join(pieces)
    n = len(combined)
    escape_at: set[int] = set()
    i = 0
    while i <= n - 3:
        a = combined[i]
        if a in ":\ud801" and combined[i + 1] in "~\ud802" and combined[i + 2] in ":\ud801":
            if a == _COLON:
                escape_at.add(i)
                i += 1
            elif combined[i + 1] == _TILDE:
                escape_at.add(i + 1)
                i += 2
            elif combined[i + 2] == _COLON:
                escape_at.add(i + 2)
                i += 3
            else:  # literal ':~:', structure
                i += 3
            continue
        i += 1
    tokens = []
    for k, ch in enumerate(combined):
        if k in escape_at:
            tokens.append("%3A" if ch == _COLON else "%7E")
        elif ch == _COLON:
            tokens.append(":")
        elif ch == _TILDE:
            tokens.append("~")
        else:
            tokens.append(ch)
    out = []
    start = 0
    for piece in pieces:
        out.append("".join(tokens[start : start + len(piece)]))
        start += len(piece) + len(DIRECTIVE_INITIATOR)
    return out


def _serialize(head: str, parts: list[tuple[int, str]]) -> str:
    """Append the parts to ``head``: resolve the markers, then run §4.1 on each part.

    ``parts`` are ``(part, text)`` in URL order; the last one is the last part.
    """
    if parts and parts[-1][0] in (FRAGMENT, DIRECTIVE):  # they come last
        tail_start = len(parts) - (2 if parts[-1][0] == DIRECTIVE else 1)
        texts = [text for _, text in parts[tail_start:]]
        if any(_COLON in t or _TILDE in t for t in texts):
            protected = _protect_directive_initiator(texts)
            parts = parts[:tail_start] + [(part, t) for (part, _), t in zip(parts[tail_start:], protected)]
    output = [head]
    last_index = len(parts) - 1
    for k, (part, text) in enumerate(parts):
        if _PCT in text:
            text = _PCT_BEFORE_HEX.sub("%25", text).replace(_PCT, "%")
        initiator = INITIATORS[part]
        output.append(initiator)
        output.append(minimal_escape_part(text, part, k == last_index))
    return "".join(output)
