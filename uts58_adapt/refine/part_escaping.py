"""UTS #58 §4.1 URL Minimal Escaping Algorithm, on one URL part (Path, Query, Fragment, directive).

:func:`minimal_escape_part` is the algorithm of §4.1 for one part whose data characters
that are syntax for the part are already percent-escaped; :func:`percent_escape` is its
``percentEscape``.  Whole URLs (decoding, the scheme and host "as is customary") are in
:mod:`.escaping`, which uses it; the conventions where the standard is silent are listed
in that module's docstring.
"""

from __future__ import annotations

import re

from ..properties import BRACKET, CLOSE, FLAGS, INCLUDE, OPEN, SOFT, TERM_MASK, class_body, flag_runs
from . import _dispatch
from ._dispatch import choose
from .termination import DIRECTIVE, FRAGMENT, PATH, QUERY, STACK_LIMIT

__all__ = ["DIRECTIVE_INITIATOR", "INITIATORS", "minimal_escape_part", "percent_escape"]

DIRECTIVE_INITIATOR = ":~:"

#: Table 3-3: the initiator of each URL part.
INITIATORS = {PATH: "/", QUERY: "?", FRAGMENT: "#", DIRECTIVE: DIRECTIVE_INITIATOR}

# Table 3-3, terminator and ClearStackOpen sets.  Single code points, plus a
# flag for the three-code-point ``:~:``.
_TERMINATORS = {PATH: "?#", QUERY: "#", FRAGMENT: "", DIRECTIVE: ""}
_TERMINATOR_DIRECTIVE = {PATH: False, QUERY: False, FRAGMENT: True, DIRECTIVE: False}
_CLEAR_STACK_OPEN = {PATH: "/", QUERY: "=&", FRAGMENT: "", DIRECTIVE: "&,"}
_CLEAR_STACK_OPEN_DIRECTIVE = {PATH: False, QUERY: False, FRAGMENT: False, DIRECTIVE: True}


def _non_include_class() -> str:
    """A regex character class body: every BMP code point whose Link_Term is not Include, and
    every code point above U+FFFF.

    ``re`` looks BMP code points up in a bitmap but tests astral ranges one by
    one, so all astral code points are taken (one range) and sorted out by the
    FLAGS lookup in ``minimal_escape_part``.
    """
    return class_body(flag_runs(lambda b: b & TERM_MASK != INCLUDE, 0x10000) + [(0x10000, 0x10FFFF)])


_NON_INCLUDE = _non_include_class()
# Per part, the code points §4.1 has to look at (every other code point is
# Include and is simply copied): ``idle`` while the open_stack is empty, ``open``
# otherwise, when the Include clear_stack_open elements matter too.
_PART_SETS = {
    part: (
        re.compile("[" + _NON_INCLUDE + re.escape(_TERMINATORS[part]) + "]").search,
        re.compile("[" + _NON_INCLUDE + re.escape(_TERMINATORS[part] + _CLEAR_STACK_OPEN[part]) + "]").search,
        _TERMINATORS[part],
        _TERMINATOR_DIRECTIVE[part],
        _CLEAR_STACK_OPEN[part],
        _CLEAR_STACK_OPEN_DIRECTIVE[part],
    )
    for part in (PATH, QUERY, FRAGMENT, DIRECTIVE)
}

_escape_cache: dict[str, str] = {}


def percent_escape(ch: str) -> str:
    """Return ``percentEscape(cp)`` of §4.1: ``%XX`` for each UTF-8 byte, uppercase hex.

    U+DC80..U+DCFF stand for the undecodable byte 0x80..0xFF (``surrogateescape``);
    other lone surrogates are written as their WTF-8 bytes (``surrogatepass``).
    """
    out = _escape_cache.get(ch)
    if out is None:
        try:
            data = ch.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            data = ch.encode("utf-8", "surrogatepass")
        out = "".join(f"%{b:02X}" for b in data)
        if len(_escape_cache) < 8192:
            _escape_cache[ch] = out
    return out


def minimal_escape_part(text: str, part: int, last: bool = False) -> str:
    """Apply the §4.1 URL Minimal Escaping Algorithm to one URL part and return the result.

    ``text`` is the part without its initiator (``INITIATORS[part]``), with the
    data characters that are syntax for the part already percent-escaped, as
    §4.1 assumes; ``part`` is ``PATH``, ``QUERY``, ``FRAGMENT`` or ``DIRECTIVE``
    from ``termination``; ``last`` says whether this is the last part of the URL.

    Percent-escaped (``percent_escape``): Hard characters, part terminators
    (``?#`` in a path, ``#`` in a query, ``:~:`` in a fragment), Open
    characters while the open_stack holds 125 (``STACK_LIMIT``), Close
    characters that do not match the top of the open_stack, and, in the last
    part only, a final Soft character.  A Soft character anywhere else is
    followed (through other Softs) by an Include, an escape (which starts with
    the Include ``%``), or the initiator of the next part, so it stays.

    Deviations, both needed for the §4 promise that detection covers the whole
    result: an unmatched Close leaves the open_stack as it is (§4.1 pops it),
    and a clear_stack_open sequence is structure and never escaped.  Each code
    point is looked at a bounded number of times: time is linear.
    """
    flags = FLAGS
    search_idle, search_open, terminators, terminator_directive, clear_stack_open, clear_stack_open_directive = (
        _PART_SETS[part]
    )
    output: list[str] = []
    copied_already = 0
    open_stack: list[int] = []
    structure_end = 0  # end of the last clear_stack_open sequence
    pos = 0
    while True:
        # While the open_stack is empty, an Include clear_stack_open element needs no look.
        m = (search_open if open_stack else search_idle)(text, pos)
        if m is None:
            break
        i = m.start()
        pos = i + 1
        ch = text[i]
        if ch in terminators or (terminator_directive and ch == ":" and text.startswith(DIRECTIVE_INITIATOR, i)):
            pass  # LT = Hard
        elif ch in clear_stack_open or (
            clear_stack_open_directive and ch == ":" and text.startswith(DIRECTIVE_INITIATOR, i)
        ):
            open_stack.clear()
            pos = structure_end = i + (3 if ch == ":" else 1)
            continue
        else:
            cp = ord(ch)
            lt = flags[cp] & TERM_MASK
            if lt in (SOFT, INCLUDE):
                continue
            if lt == OPEN:
                if len(open_stack) < STACK_LIMIT:
                    open_stack.append(cp)
                    continue
            elif lt == CLOSE and open_stack and open_stack[-1] == BRACKET.get(cp):
                open_stack.pop()
                continue
            # else HARD
        output.append(text[copied_already:i])
        output.append(percent_escape(ch))
        copied_already = i + 1
    n = len(text)
    if last and copied_already < n and n - 1 >= structure_end and flags[ord(text[-1])] & TERM_MASK == SOFT:
        output.append(text[copied_already : n - 1])
        output.append(percent_escape(text[-1]))
    else:
        output.append(text[copied_already:])
    return "".join(output)


# The compiled twin, when the extension is built and $UTS58_ADAPT_PURE is not 1 (_dispatch.py).
if _dispatch.extension is not None:
    _dispatch.extension.set_percent_escape(percent_escape)
minimal_escape_part = choose(minimal_escape_part)
