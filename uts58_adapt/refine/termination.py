"""UTS #58 §3.5.1, URL Link Detection Termination Algorithm.

Given the offset right after a link's host (and port), find where the link ends:
the Path, Query, Fragment and fragment-directive parts of Table 3-3 are scanned
once, left to right, remembering the last safe end (``last_safe``) and a stack
of open brackets.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from ..properties import (
    BRACKET,
    FLAGS,
    HARD,
    INCLUDE,
    OPEN,
    SOFT,
    TERM_MASK,
    class_body,
    flag_runs,
    largest_astral,
)
from ._dispatch import choose

__all__ = [
    "DIRECTIVE",
    "FRAGMENT",
    "NONE",
    "PATH",
    "QUERY",
    "STACK_LIMIT",
    "initiator_at",
    "terminate",
    "terminate_unchecked",
]

#: URL parts of Table 3-3.
NONE, PATH, QUERY, FRAGMENT, DIRECTIVE = range(5)
#: The open-bracket stack limit of §3.5.1.
STACK_LIMIT = 125
DIRECTIVE_INITIATOR = ":~:"

# Table 3-3, single-code-point sequences.  ``:~:`` is handled apart.
_INITIATORS = {"/": PATH, "?": QUERY, "#": FRAGMENT}
_TERMINATORS = {PATH: "?#", QUERY: "#", FRAGMENT: "", DIRECTIVE: "", NONE: ""}
_CLEAR_STACK_OPEN = {PATH: "/", QUERY: "=&", FRAGMENT: "", DIRECTIVE: "&,", NONE: ""}

# Fast path (an optimisation only; the results are those of the loop in §3.5.1).
# Inside a part, call a code point "plain" when it begins none of the part's
# terminators or ClearStackOpen elements (Table 3-3).  §3.5.1 treats a plain
# Include code point as "set lastSafe = i + 1, continue" and a plain Soft one as
# "continue"; while the open-bracket stack is empty, a one-code-point
# ClearStackOpen element (``/`` in a path, ``=`` ``&`` in a query, ``&`` ``,`` in
# a directive) does exactly what an Include one does.  So a run of such code
# points is skipped with one regular-expression match, lastSafe moving to just
# after the run's last Include-like code point.


@functools.cache
def _include_soft_ranges(below: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The Include and the Soft ranges below ``below``: every BMP range, but only the
    largest astral ones (see ``largest_astral``); a code point left out takes the slow path."""
    include = largest_astral(flag_runs(lambda b: b & TERM_MASK == INCLUDE, below), 32)
    return include, largest_astral(flag_runs(lambda b: b & TERM_MASK == SOFT, below), 0)


@functools.cache
def _skip_plain_run(part: int, stack_empty: bool, ascii: bool) -> Callable[[str, int], re.Match[str]]:
    """``match(text, i).end()``: the end of the longest run of code points at ``i`` that
    §3.5.1 treats as Include or Soft in ``part`` and that ends with an Include one
    (``i`` itself if there is none).  See the comment above.

    The backtracking of ``*`` only walks back over the run's trailing Soft code points,
    so a match takes time linear in the run's length.  Compiled on first use
    (about 10 ms each), to keep ``import uts58_adapt`` cheap; ``ascii``: with the
    classes cut to ASCII, for ASCII text (see ``FlagPattern``).
    """
    excluded = _TERMINATORS[part]
    if part in (FRAGMENT, DIRECTIVE):
        excluded += DIRECTIVE_INITIATOR[0]
    include, soft = _include_soft_ranges(0x80 if ascii else 0x110000)
    if stack_empty:
        include = include + [(ord(ch), ord(ch)) for ch in _CLEAR_STACK_OPEN[part]]
    else:
        excluded += _CLEAR_STACK_OPEN[part]
    pattern = f"(?:[{class_body(include + soft, excluded)}]*[{class_body(include, excluded)}])?"
    return re.compile(pattern).match  # type: ignore[return-value]


def initiator_at(text: str, i: int, previous_part: int = NONE) -> tuple[int, int]:
    """Return ``(part, length)`` of the part initiator at ``text[i]``, or ``(NONE, 0)``.

    ``:~:`` initiates a fragment directive only after a fragment or a directive.
    """
    part = _INITIATORS.get(text[i], NONE) if i < len(text) else NONE
    if part != NONE:
        return part, 1
    if previous_part in (FRAGMENT, DIRECTIVE) and text.startswith(DIRECTIVE_INITIATOR, i):
        return DIRECTIVE, 3
    return NONE, 0


def terminate(text: str, start: int) -> int:
    """Return the end offset of a link whose host (and port) ends at ``start`` (UTS #58 §3.5.1).

    ``start`` is the offset right after the host or port; the result is in
    ``[start, len(text)]``.  ``last_safe`` starts at ``start`` (not at the
    link's start), so a host followed by no part ends at ``start``.  The scan
    visits each code point once and the stack is bounded, so time is linear.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    if not isinstance(start, int) or isinstance(start, bool):
        raise TypeError(f"start must be int, not {type(start).__name__}")
    n = len(text)
    if not 0 <= start <= n:
        raise ValueError(f"start={start} is outside the text (length {n})")
    return terminate_unchecked(text, start)


def terminate_unchecked(text: str, start: int, part: int = NONE, last_safe: int = -1) -> int:
    """:func:`terminate` without its argument checks, for callers whose ``start`` is an offset
    of ``text`` already (the refinement stage calls it for every URL with a path).

    ``part`` and ``last_safe`` resume a scan: when §3.5.1, run from some earlier offset, is
    at ``start`` in ``part`` (PATH, QUERY or FRAGMENT) with an empty open-bracket stack
    and ``last_safe`` set, the result is that of the whole scan.
    """
    n = len(text)
    flags = FLAGS
    ascii = text.isascii()
    if last_safe < 0:
        last_safe = start
    previous_part = NONE  # (read only after a part ends, which sets it first)
    open_stack: list[int] = []
    terminators = _TERMINATORS[part]
    clear_stack_open = _CLEAR_STACK_OPEN[part]
    i = start
    while i < n:
        ch = text[i]
        if part != NONE and (ch in terminators or (part == FRAGMENT and text.startswith(DIRECTIVE_INITIATOR, i))):
            previous_part, part = part, NONE
        if part == NONE:
            part = _INITIATORS.get(ch, NONE)  # initiator_at, inlined
            length = 1
            if part == NONE:
                if previous_part not in (FRAGMENT, DIRECTIVE) or not text.startswith(DIRECTIVE_INITIATOR, i):
                    return last_safe
                part, length = DIRECTIVE, 3
            terminators = _TERMINATORS[part]
            clear_stack_open = _CLEAR_STACK_OPEN[part]
            i += length
            last_safe = i
            open_stack.clear()
            continue
        if ch in clear_stack_open:
            i += 1
            last_safe = i
            open_stack.clear()
            continue
        if part == DIRECTIVE and text.startswith(DIRECTIVE_INITIATOR, i):
            i += 3
            last_safe = i
            open_stack.clear()
            continue
        cp = ord(ch)
        term = flags[cp] & TERM_MASK
        if term == INCLUDE:
            # Fast path (see _skip_plain_run): any Soft code point skipped is
            # followed by an Include one, so lastSafe is the end of the match.
            i = _skip_plain_run(part, not open_stack, ascii)(text, i + 1).end()
            last_safe = i
        elif term == SOFT:
            i += 1
        elif term == HARD:
            return last_safe
        elif term == OPEN:
            if len(open_stack) == STACK_LIMIT:
                return last_safe
            open_stack.append(cp)
            i += 1
            last_safe = i
        else:  # CLOSE
            if not open_stack or BRACKET[cp] != open_stack.pop():
                return last_safe
            i += 1
            last_safe = i
    return last_safe


# The compiled twin, when the extension is built and $UTS58_ADAPT_PURE is not 1 (_dispatch.py).
terminate_unchecked = choose(terminate_unchecked)
