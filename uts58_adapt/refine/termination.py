"""UTS #58 §3.5.1, URL Link Detection Termination Algorithm.

Given the offset right after a link's host (and port), find where the link ends:
the Path, Query, Fragment and fragment-directive parts of Table 3-3 are scanned
once, left to right, remembering the last safe end (``last_safe``) and a stack
of open brackets.
"""

from __future__ import annotations

import re

from ..properties import BRACKET, CLOSE, FLAGS, HARD, INCLUDE, OPEN, SOFT, TERM_MASK

__all__ = ["NONE", "PATH", "QUERY", "FRAGMENT", "DIRECTIVE", "STACK_LIMIT", "terminate", "initiator_at"]

#: URL parts of Table 3-3.
NONE, PATH, QUERY, FRAGMENT, DIRECTIVE = range(5)
#: The open-bracket stack limit of §3.5.1.
STACK_LIMIT = 125
DIRECTIVE_INITIATOR = ":~:"

# Table 3-3, single-code-point sequences.  ``:~:`` is handled apart.
_INITIATORS = {"/": PATH, "?": QUERY, "#": FRAGMENT}
_TERMINATORS = {PATH: "?#", QUERY: "#", FRAGMENT: "", DIRECTIVE: "", NONE: ""}
_CLEAR_STACK_OPEN = {PATH: "/", QUERY: "=&", FRAGMENT: "", DIRECTIVE: "&,", NONE: ""}

#: Astral ranges kept in the fast-path class (see ``_plain_include_run``).
_ASTRAL_RANGES_KEPT = 32


def _plain_include_run() -> re.Pattern[str]:
    """Compile ``[...]*``, a run of "plain" Include code points, from the FLAGS table.

    A code point is plain when its Link_Term is Include and it occurs in no
    Action string of Table 3-3 (initiators, terminators, ClearStackOpen, ``:~:``).
    In every part, §3.5.1 does the same for each of them: "LT == Include: set
    lastSafe = i + 1, continue", so a run of them can be skipped in one
    regular-expression match, with lastSafe set to the end of the run.

    ``re`` tests code points above U+FFFF against the class's astral ranges one
    by one, so only the largest astral ranges (CJK extensions, emoji, ...) are
    kept; any code point outside the class simply takes the per-code-point path.
    """
    structural = set(DIRECTIVE_INITIATOR).union(*_INITIATORS, *_TERMINATORS.values(), *_CLEAR_STACK_OPEN.values())
    is_include = bytes(int(code & TERM_MASK == INCLUDE) for code in range(256))
    plain = bytearray(FLAGS.translate(is_include))
    for ch in structural:
        plain[ord(ch)] = 0
    ranges = [(m.start(), m.end() - 1) for m in re.finditer(rb"\x01+", plain)]
    bmp = [r for r in ranges if r[1] <= 0xFFFF]
    astral = sorted((r for r in ranges if r[1] > 0xFFFF), key=lambda r: r[0] - r[1])[:_ASTRAL_RANGES_KEPT]
    members = "".join(f"\\U{first:08X}-\\U{last:08X}" for first, last in bmp + sorted(astral))
    return re.compile(f"[{members}]*")


#: ``_skip_plain(text, i).end()``: the end of the run of plain Include code points at ``i``.
_skip_plain = _plain_include_run().match


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

    flags = FLAGS
    last_safe = start
    part = NONE
    previous_part = NONE
    open_stack: list[int] = []
    terminators = clear_stack_open = ""
    i = start
    while i < n:
        ch = text[i]
        if part != NONE and (ch in terminators or (part == FRAGMENT and text.startswith(DIRECTIVE_INITIATOR, i))):
            previous_part, part = part, NONE
        if part == NONE:
            part, length = initiator_at(text, i, previous_part)
            if part == NONE:
                return last_safe
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
            # Fast path: the plain Include code points that follow act alike (see _plain_include_run).
            i = _skip_plain(text, i + 1).end()
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


