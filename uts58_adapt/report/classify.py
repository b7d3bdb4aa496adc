"""Classify how UTS #58 refinement changed one backend link, and name the rule behind it.

A *change* pairs the backend's own span ("before", ``detect(..., refine=False)``) with
the refined one ("after", ``detect(..., refine=True)``), paired through
``Link.original``.  Its **kind** says what happened to the span, its **reason** which
rule of the standard (or of the host stage the standard leaves to WHATWG URL and
UTS #46) explains it.  The reason is found by inspecting the text around the change
with the Link_Term, Link_Bracket and Link_Email properties; when no rule explains the
change, the reason is ``other``.

Both vocabularies are closed: :data:`KINDS` and :data:`REASONS` (name -> one-line meaning)
are the complete lists, and the report's ``by_kind`` / ``by_reason`` keys come from them.
"""

from __future__ import annotations

import re

from ..link import Link
from ..properties import BRACKET, CLOSE, FLAGS, HARD, INCLUDE, OPEN, SOFT, TERM_MASK
from ..refine.email import email_start

__all__ = ["KINDS", "REASONS", "RISKS", "classify", "classify_kind"]

#: Change kinds, in display order.  ``unchanged`` is counted but never listed.
KINDS: dict[str, str] = {
    "unchanged": "same start and end",
    "extended": "same start, the link now ends later",
    "trimmed": "same start, the link now ends earlier",
    "start-moved": "the start moved (the end may have moved too)",
    "added": "a link the backend did not report",
    "removed": "a backend link that is no link under UTS #58",
}

#: Reasons, in display order, with their meaning.
REASONS: dict[str, str] = {
    "soft-trailing": "§3.5.1: a trailing run of Link_Term=Soft characters (. ! ? , 。 ، । …) is not part of the link",
    "soft-inside": "§3.5.1: Soft characters followed by more link text stay in the link",
    "part-initiator": "§3.5.1: a ? or # starts a query or fragment and stays in the link, even with nothing "
    "after it (before a space or at the end)",
    "include-char": "§3.5.1: the backend stopped at a Link_Term=Include character (a letter, mark, symbol …)",
    "bracket-kept": "§3.5.1: an Open bracket, or a Close matching one in the same segment, stays in the link",
    "unmatched-close": "§3.5.1: a Link_Term=Close character with no matching Open ends the link",
    "bracket-across-separator": "§3.5.1: the matching Open is before a separator that empties the bracket stack "
    "(/ in a path, = & in a query, a new part), so the Close ends the link",
    "fragment-directive": "§3.5.1: a :~: fragment directive (its initiator, or & , emptying the bracket stack)",
    "hard-char": "§3.5.1: a Link_Term=Hard character (white space, control, private use, unassigned, deprecated) "
    "ends the link",
    "bracket-limit": "§3.5.1: more than 125 open brackets end the link",
    "host-end": "the link ends after its host or port: what follows starts no path, query or fragment",
    "host-start": "host stage (WHATWG URL, UTS #46): the URL starts elsewhere (a start inside the host, "
    "a scheme before it)",
    "missed-url": "host stage: a URL the backend did not report (a host it does not know: IDN TLD, 。 separator …)",
    "invalid-host": "host stage: not a valid registrable domain (bad label, unknown top-level domain …)",
    "invalid-port": "host stage (WHATWG URL): a port above 65535, or one that letters continue, makes the URL "
    "invalid: no link",
    "userinfo": "a URL with userinfo (user@host) is not linked: userinfo is deprecated",
    "inside-email": "§5.2: the backend's link is part of an email address (linked as one where the library "
    "links emails)",
    "email-local-part": "§5.2: the local part is the run of Link_Email characters before the @, "
    "and may not start or end with . or contain ..",
    "missed-email": "§5.2: an email address (Link_Email local part, valid domain) the backend did not report",
    "mailto": "§5.2: a mailto: right before the local part is part of the link",
    "email-domain": "§5.2: an email link ends after its domain name",
    "risky": "§8 (--reject-risky): the refined link has a risk (its risks column says which) and is not linked; "
    "for ideographic-boundary alone its start moves after the boundary instead",
    "other": "no rule above explains the change",
}

#: The §8 risk codes (:data:`uts58_adapt.RISK_CODES`, in that order) with a one-line meaning,
#: for the reports of an audit with ``--reject-risky`` (docs/security.md has the full text).
RISKS: dict[str, str] = {
    "mixed-script": "a host label mixes scripts (UTS #39 §5.2, Highly Restrictive)",
    "restricted-character": "a host character has Identifier_Status=Restricted (UTS #39)",
    "whole-script-confusable": "a label in one non-Latin script whose skeleton is ASCII (UTS #39)",
    "bidi-control": "a Bidi_Control character is in the link",
    "invalid-tld": "the TLD is not syntactically valid (digit, hyphen, CONTEXTJ/CONTEXTO)",
    "ideographic-boundary": "ideographs and other letters meet inside the host (§8: ウェブサイトはexample.com)",
    "mixed-numbers": "a host label mixes decimal digit systems (UTS #39 §5.3: 123٤٥٦)",
    "invisible-marks": "a nonspacing mark repeated, or more than four in a row, after NFD (UTS #39 §5.4)",
    "cjk-lookalike": "a CJK look-alike of punctuation or a Latin letter beside Latin letters (ノ 丿 一 〇 ー)",
    "digit-lookalike": "browser profile: a label of digits and digit look-alikes (Chromium: θ, зз)",
    "whole-script-lookalike": "browser profile: a label of Latin look-alikes of one script (Chromium: οτ.com)",
    "non-ascii-latin-mixed": "browser profile: a non-ASCII Latin letter with another script (Chromium)",
    "dangerous-pattern": "browser profile: one of Chromium's dangerous patterns (ー between Latin letters...)",
    "latin-lookalike": "browser profile: a Latin label whose skeleton is ASCII (UTS #39 §4: gıthub.com)",
    "tld-specific-character": "browser profile: þ ð outside .is/.fo, ə outside .az, · outside l·l in .cat (Chromium)",
}

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://")
_MAILTO = "mailto:"

# Table 3-3 of UTS #58 (diagnostic copy: the scan below must say *why* it stopped).
_NONE, _PATH, _QUERY, _FRAGMENT, _DIRECTIVE = range(5)
_INITIATORS = {"/": _PATH, "?": _QUERY, "#": _FRAGMENT}
_TERMINATORS = {_PATH: "?#", _QUERY: "#", _FRAGMENT: "", _DIRECTIVE: ""}
_CLEAR_STACK = {_PATH: "/", _QUERY: "=&", _FRAGMENT: "", _DIRECTIVE: "&,"}
_DIRECTIVE_INITIATOR = ":~:"
_STACK_LIMIT = 125


def _term(ch: str) -> int:
    return FLAGS[ord(ch)] & TERM_MASK


def _all_soft(text: str) -> bool:
    return bool(text) and all(_term(ch) == SOFT for ch in text)


def explain_end(text: str, start: int) -> tuple[int, str, int]:
    """Run the §3.5.1 scan from ``start`` (right after the host or port) and say why it stopped.

    Returns ``(end, cause, position)``: ``end`` is the link's end (lastSafe), ``position``
    the index of the code point the scan stopped at (``len(text)`` at the end of the
    text), and ``cause`` one of ``end`` (end of text), ``no-part`` (no part initiator
    after the host), ``hard``, ``unmatched-close``, ``across-separator``,
    ``directive-separator`` (the matching Open was dropped from the stack by a
    separator, in a path/query or in a fragment directive), ``limit``.
    """
    n = len(text)
    last_safe = start
    part = previous = _NONE
    stack: list[int] = []
    # Open brackets dropped by a separator or a new part: (code point, inside a directive).
    dropped: list[tuple[int, bool]] = []
    i = start

    def clear(directive: bool) -> None:
        dropped.extend((cp, directive) for cp in stack)
        stack.clear()

    while i < n:
        ch = text[i]
        if part != _NONE and (
            ch in _TERMINATORS[part] or (part == _FRAGMENT and text.startswith(_DIRECTIVE_INITIATOR, i))
        ):
            previous, part = part, _NONE
        if part == _NONE:
            new = _INITIATORS.get(ch, _NONE)
            length = 1
            if new == _NONE and previous in (_FRAGMENT, _DIRECTIVE) and text.startswith(_DIRECTIVE_INITIATOR, i):
                new, length = _DIRECTIVE, 3
            if new == _NONE:
                return last_safe, "no-part", i
            part = new
            i += length
            last_safe = i
            clear(part == _DIRECTIVE)
            continue
        if ch in _CLEAR_STACK[part] or (part == _DIRECTIVE and text.startswith(_DIRECTIVE_INITIATOR, i)):
            i += 3 if ch == ":" else 1
            last_safe = i
            clear(part == _DIRECTIVE)
            continue
        term = _term(ch)
        if term == SOFT:
            i += 1
            continue
        if term == HARD:
            return last_safe, "hard", i
        if term == OPEN:
            if len(stack) == _STACK_LIMIT:
                return last_safe, "limit", i
            stack.append(ord(ch))
        elif term == CLOSE:
            wanted = BRACKET[ord(ch)]
            if not stack or stack.pop() != wanted:
                for cp, directive in reversed(dropped):
                    if cp == wanted:
                        return last_safe, "directive-separator" if directive else "across-separator", i
                return last_safe, "unmatched-close", i
        i += 1
        last_safe = i
    return last_safe, "end", n


_CAUSE_REASON = {
    "end": "soft-trailing",
    "no-part": "host-end",
    "hard": "hard-char",
    "unmatched-close": "unmatched-close",
    "across-separator": "bracket-across-separator",
    "directive-separator": "fragment-directive",
    "limit": "bracket-limit",
}


def _host_end(line: str, start: int, end: int) -> int:
    """Where the host (and port) of the URL ``line[start:end]`` ends: its first ``/ ? #`` after any scheme."""
    m = _SCHEME.match(line, start, end)
    i = m.end() if m else start
    while i < end and line[i] not in "/?#":
        i += 1
    return i


def _trimmed_reason(line: str, after: Link, before_end: int) -> str:
    tail = line[after.end : before_end]
    if _all_soft(tail):
        return "soft-trailing"
    end, cause, pos = explain_end(line, _host_end(line, after.start, after.end))
    if end == after.end and pos < before_end:
        return _CAUSE_REASON[cause]
    # The refinement stopped somewhere the scan above does not: judge by the first non-Soft code point dropped.
    for ch in tail:
        term = _term(ch)
        if term == HARD:
            return "hard-char"
        if term == CLOSE:
            return "unmatched-close"
        if term != SOFT:
            break
    return "other"


def _extended_reason(line: str, after: Link, before_end: int) -> str:
    # A ":~:" that ends inside the added text (or is the added text) starts a directive.
    for k in range(max(after.start, before_end - 2), after.end - 2):
        if line.startswith(_DIRECTIVE_INITIATOR, k):
            return "fragment-directive"
    term = _term(line[before_end])
    if line[after.end - 1] in "?#" and _all_soft(line[before_end : after.end - 1] or "."):
        return "part-initiator"  # e.g. "example.vn/chủ-đề? Cảm ơn": the "?" opens an empty query
    if term == SOFT:
        return "soft-inside"
    if term in (OPEN, CLOSE):
        return "bracket-kept"
    return "include-char"


def _removed_reason(line: str, before: Link) -> str:
    text = before.text
    scheme = _SCHEME.match(text)
    at = text.find("@")
    if scheme and at != -1 and not any(c in text[scheme.end() : at] for c in "/?#"):
        return "userinfo"
    if before.kind == "email" or (at > 0 and not scheme):
        if at <= 0:
            return "other"
        if email_start(line, before.start + at) is None:
            return "email-local-part"
        return "other" if _domain_ok(text[at + 1 :]) else "invalid-host"
    if not scheme and _in_email_domain(line, before.start):
        return "inside-email"
    host_start = scheme.end() if scheme else 0
    host = re.split(r"[/?#:]", text[host_start:], maxsplit=1)[0]
    if not scheme:
        # The host stage reads the whole host, from before the backend's start: "-www.example.com".
        host = line[_label_run_start(line, before.start) : before.start] + host
    colon = before.start + host_start + len(host)
    if line.startswith(":", colon) and _port_invalid(line, colon):
        return "invalid-port"
    return "other" if _domain_ok(host) else "invalid-host"


def _label_run_start(line: str, start: int) -> int:
    """Where the run of label characters (``.``, ``-``, Link_Term=Include) that ends at ``start`` starts."""
    i = start
    while i > 0 and (line[i - 1] in ".-" or (line[i - 1] != "@" and _term(line[i - 1]) == INCLUDE)):
        i -= 1
    return i


def _in_email_domain(line: str, start: int) -> bool:
    """Whether ``start`` is inside the domain of an email address (``cher.de`` in ``anna@bücher.de``)."""
    i = _label_run_start(line, start)
    return i > 0 and line[i - 1] == "@" and email_start(line, i - 1) is not None


def _port_invalid(line: str, colon: int) -> bool:
    from ..refine.hosts import port_end

    return port_end(line, colon) is None


def _domain_ok(host: str) -> bool:
    """Whether ``host`` (trailing separators ignored) is a valid registrable domain for the host stage."""
    host = host.rstrip(".\u3002\uff0e\uff61")
    try:
        from ..refine.hosts import domain_unicode
    except ImportError:  # pragma: no cover - the host stage is part of the package
        return bool(host) and all(label and label[0] != "-" and label[-1] != "-" for label in host.split("."))
    return domain_unicode(host, allow_ip=True) is not None


def _email_reason(line: str, before: Link | None, after: Link | None, kind: str) -> str:
    if kind == "start-moved" and before is not None and after is not None:
        if after.text.lower().startswith(_MAILTO) and not before.text.lower().startswith(_MAILTO):
            return "mailto"
        return "email-local-part"
    if kind in ("extended", "trimmed"):
        return "email-domain"
    if kind == "added":
        return "missed-email"
    return "email-local-part"


def classify_kind(before: Link | None, after: Link | None) -> str:
    """The kind of change from ``before`` to ``after`` (either may be None, not both)."""
    if before is None:
        return "added"
    if after is None:
        return "removed"
    if after.start != before.start:
        return "start-moved"
    if after.end > before.end:
        return "extended"
    if after.end < before.end:
        return "trimmed"
    return "unchanged"


def classify(
    line: str, before: Link | None, after: Link | None, after_links: list[Link] | None = None
) -> tuple[str, str | None]:
    """Return ``(kind, reason)`` for one pair of spans on ``line``; ``reason`` is None when unchanged.

    ``after_links`` (all refined links of the line) lets a removed link be recognised as
    part of an email address that is linked instead.
    """
    kind = classify_kind(before, after)
    if kind == "unchanged":
        return kind, None
    if kind == "removed":
        assert before is not None
        for other in after_links or ():
            if other.kind == "email" and other.start < before.end and before.start < other.end:
                return kind, "inside-email"
        return kind, _removed_reason(line, before)
    assert after is not None
    if after.kind == "email":
        return kind, _email_reason(line, before, after, kind)
    if kind == "added":
        return kind, "missed-url"
    if kind == "start-moved":
        return kind, "host-start"
    assert before is not None
    if kind == "extended":
        return kind, _extended_reason(line, after, before.end)
    return kind, _trimmed_reason(line, after, before.end)
