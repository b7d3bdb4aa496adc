"""The audit's unit of work and how results are combined.

The work is split into chunks of lines (:class:`ChunkTask`).  :func:`audit_chunk` is a
pure, picklable, top-level function from a task to a :class:`ChunkResult`, so any engine
can run it: in-process, in a ``ProcessPoolExecutor``, or on a Dask cluster.
:func:`merge` combines the results, in any order, into the JSON-able report; the
report is sorted, so it is the same whatever the engine, the number of jobs or the
chunk size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

from ..detection import detect as _detect
from ..detection import detect_pair
from ..link import Link
from ..properties import UNICODE_VERSION
from .classify import KINDS, REASONS, classify
from .display import CONTEXT, window

__all__ = [
    "CONTEXT",
    "PIECE",
    "PROVENANCE",
    "WHOLE_LINE",
    "Change",
    "ChunkResult",
    "ChunkTask",
    "Tally",
    "audit_chunk",
    "audit_line",
    "audit_line_risky",
    "change_row",
    "detect_pair",
    "iter_changes",
    "merge",
    "pair_links",
    "risky_counts",
]


#: The report's provenance keys (``merge(meta=...)``, the CLI's report), after its summary.
PROVENANCE = ("tool", "audit", "libraries", "configuration", "data", "options")


class ChunkTask(NamedTuple):
    """Lines ``first_line``, ``first_line + 1``, … (1-based) of ``source``, to audit with ``backend``."""

    source: str
    first_line: int
    lines: list[str]
    backend: str
    #: ``uts58-adapt report --reject-risky``: the "after" links are those of ``detect(...,
    #: reject_risky=True)``, each row carries ``risks`` and the summary counts the risky links.
    reject_risky: bool = False
    #: The migration preview (:mod:`.preview`): None audits ``detect()`` (its strict hosts, its TLD
    #: list); ``""`` the backend's default instance, before and after ``wrap()``; ``"MODULE:ATTR"`` the
    #: linkifier it names (``uts58-adapt report --linkifier``).
    preview: str | None = None
    #: §1.4's registrable-domain rule; None: the audit's default (on for ``detect()``, off for ``wrap()``).
    strict_hosts: bool | None = None
    #: With ``--markup html|markdown`` (:mod:`.markup`): the source lines, shown in the report, while
    #: ``lines`` are the same lines with the markup blanked out (same lengths), which are audited.
    shown: list[str] | None = None


#: A line of at most this many code points is carried whole by each of its change rows;
#: a longer one (minified HTML, JSON, logs) only by the part around the change, so that the
#: report grows linearly with the input whatever the lengths of its lines (issue 23.1).
WHOLE_LINE = 512
#: A line longer than this (in code points) is audited in pieces of about this size, cut
#: after a space (see :func:`_pieces`), so that the links of one piece at a time are in memory.
PIECE = 1 << 16
#: Backends whose links, before and after refinement, never contain a space and do not depend
#: on the text across one (plain-text linkifiers): a line may be cut after a space for them.
_CUT_AT_SPACE = frozenset({"linkify-it", "urlextract"})


class Change(NamedTuple):
    """One changed link.  Spans are ``(start, end)`` code-point offsets within the line.

    ``line_text`` is the whole line when it has at most :data:`WHOLE_LINE` code points;
    for a longer line it is the part of it around the change (the spans and
    :data:`CONTEXT` code points each side), which starts at ``text_start`` in the line
    of ``line_length`` code points.  The line itself is found by ``source`` and ``line``.
    ``before_href`` and ``after_href`` are the links' ``Link.href``.
    """

    source: str
    line: int
    column: int
    before: tuple[int, int] | None
    after: tuple[int, int] | None
    before_text: str | None
    after_text: str | None
    kind: str
    reason: str
    line_text: str
    text_start: int = 0
    line_length: int = -1  # -1: len(line_text) (the whole line)
    before_href: str | None = None
    after_href: str | None = None
    #: The §8 risks (``link_risks``) of the refined link, before ``reject_risky`` dropped or moved
    #: it; None when the audit was not asked for risks (the row then has no ``risks`` key).
    risks: tuple[str, ...] | None = None

    def sort_key(self) -> tuple[str, int, int, tuple[int, int], tuple[int, int], str, str]:
        return (
            self.source,
            self.line,
            self.column,
            self.before or (-1, -1),
            self.after or (-1, -1),
            self.kind,
            self.reason,
        )


class ChunkResult(NamedTuple):
    """The counts and changes of one :class:`ChunkTask`.

    ``failures`` holds one message per line on which ``detect`` raised (that line then
    counts no link); the CLI prints them and exits with status 1.
    """

    source: str
    first_line: int
    backend: str
    lines: int
    links_before: int
    links_after: int
    unchanged: int
    changes: tuple[Change, ...]
    failures: tuple[str, ...] = ()
    #: With ``reject_risky``: the refined links with at least one risk, and the count of each code.
    risky_links: int = 0
    risky: tuple[tuple[str, int], ...] = ()


def _default_detect() -> Callable[..., list[Link]]:
    return _detect


#: Returns the ``detect`` function to audit with (a hook so tests can substitute one).
#: While it returns :func:`uts58_adapt.detection.detect`, the audit uses :func:`detect_pair`
#: (the same links from one backend pass); any other function is called twice per line.
get_detect: Callable[[], Callable[..., list[Link]]] = _default_detect


def _overlap(a: Link, b: Link) -> int:
    return min(a.end, b.end) - max(a.start, b.start)


def pair_links(before: list[Link], after: list[Link]) -> list[tuple[Link | None, Link | None]]:
    """Pair the backend's links with the refined ones: ``[(before, after), …]``, either side may be None.

    First through ``Link.original``: an after link is paired with the before link whose
    span is its ``original``.  Then an after link still alone (its ``original`` is None,
    or a span the backend reported only on the adapter's normalised text) is paired with
    a before link still alone of the same kind that overlaps it: the one with the same
    start, else the largest overlap.  What is left is added (after) or removed (before).
    The result is in the order of the after links, then the removed ones.
    """
    free: dict[tuple[int, int], Link] = {}
    removed_dups: list[Link] = []
    for link in before:
        if (link.start, link.end) in free:
            removed_dups.append(link)  # the same span twice (should not happen)
        else:
            free[(link.start, link.end)] = link
    partner: list[Link | None] = []
    for link in after:
        partner.append(free.pop(link.original, None) if link.original is not None else None)
    for i, link in enumerate(after):
        if partner[i] is not None:
            continue
        best = None
        for cand in free.values():
            if cand.kind != link.kind or _overlap(cand, link) <= 0:
                continue
            key = (cand.start == link.start, _overlap(cand, link), -cand.start)
            if best is None or key > best[0]:
                best = (key, cand)
        if best is not None:
            cand = best[1]
            del free[(cand.start, cand.end)]
            partner[i] = cand
    pairs: list[tuple[Link | None, Link | None]] = list(zip(partner, after))
    pairs.extend((link, None) for link in sorted([*free.values(), *removed_dups], key=lambda k: (k.start, k.end)))
    return pairs


LinkPair = Callable[[str], tuple[list[Link], list[Link]]]


def pair_function(task: ChunkTask, detect: Callable[..., list[Link]]) -> LinkPair:
    """What gives a line's links ``(before, after)`` for ``task``.

    The migration preview (``task.preview`` not None, :mod:`.preview`): the instance's own
    links and ``wrap(instance)``'s.  Else ``detect()``'s: the backend's own links
    (``refine=False``) and the refined ones, from one :func:`detect_pair` with the real ``detect``.
    """
    backend = task.backend
    if task.preview is not None:
        from .preview import preview

        return preview(backend, task.preview, bool(task.strict_hosts)).pair
    strict = {} if task.strict_hosts is None else {"strict_hosts": task.strict_hosts}
    if detect is _detect:
        return lambda line: detect_pair(line, backend, **strict)
    return lambda line: (detect(line, backend, refine=False, **strict), detect(line, backend, refine=True, **strict))


def audit_line(
    line: str, backend: str, detect: Callable[..., list[Link]], pair: LinkPair | None = None
) -> tuple[int, int, int, list[tuple[Link | None, Link | None, str, str]]]:
    """Audit one line: ``(links_before, links_after, unchanged, [(before, after, kind, reason), …])``.

    "before" and "after" are ``pair(line)`` (:func:`pair_function`); without ``pair``,
    ``detect()``'s: the backend's own links (``refine=False``) and the refined ones, with the
    real ``detect`` from one :func:`detect_pair`.  They are paired by :func:`pair_links`;
    only changed pairs are classified.
    """
    if pair is not None:
        before, after = pair(line)
    elif detect is _detect:
        before, after = detect_pair(line, backend)
    else:
        before = detect(line, backend, refine=False)
        after = detect(line, backend, refine=True)
    if not before and not after:
        return 0, 0, 0, []
    if len(before) == len(after) and all(
        a.original == (b.start, b.end) and a.start == b.start and a.end == b.end for b, a in zip(before, after)
    ):
        return len(before), len(after), len(after), []  # every link kept as it was: what _audited gives
    return _audited(line, before, after)


Pair = tuple[Link | None, Link | None, str, str, tuple[str, ...] | None]


def audit_line_risky(
    line: str,
    backend: str,
    detect: Callable[..., list[Link]],
    pair: LinkPair | None = None,
    strict_hosts: bool = True,
) -> tuple[int, int, int, list[Pair], list[tuple[str, ...]]]:
    """:func:`audit_line` for ``reject_risky=True``: ``(links_before, links_after, unchanged,
    [(before, after, kind, reason, risks), …], [risks of each risky refined link, …])``.

    "before" is the backend's own links (the library does not reject risky links), "after"
    the refined ones less those :func:`~uts58_adapt.refine.risks.reject_risky_links` drops
    (or with their start moved, for ``ideographic-boundary``): such a change has the reason
    ``risky``, and ``risks`` is always the risks of the refined link before rejection.  A
    risky link the backend did not report either is counted in the last list, not listed.
    """
    from ..refine.risks import link_risks, reject_risky_links

    if pair is not None:
        before, refined = pair(line)
    elif detect is _detect:
        before, refined = detect_pair(line, backend)
    else:
        before = detect(line, backend, refine=False)
        refined = detect(line, backend, refine=True)
    if not before and not refined:
        return 0, 0, 0, [], []
    found: list[tuple[str, ...]] = []
    # Each refined link: what reject_risky makes of it (itself, a moved link, or None), and its risks.
    fate: dict[int, tuple[Link | None, tuple[str, ...]]] = {}
    for link in refined:
        risks = link_risks(link)
        if risks:
            found.append(risks)
            kept = reject_risky_links(line, [link], strict_hosts=strict_hosts)
            fate[id(link)] = (kept[0] if kept else None, risks)
        else:
            fate[id(link)] = (link, ())
    after = [kept for kept, _ in fate.values() if kept is not None]
    after.sort(key=lambda k: (k.start, k.end))
    unchanged = 0
    changes: list[Pair] = []
    for b, r in pair_links(before, refined):
        a, risks = fate[id(r)] if r is not None else (None, ())
        if a is None and b is None:
            continue  # a risky link only the refinement found: counted in `found`
        if b is not None and a is not None and b.start == a.start and b.end == a.end:
            unchanged += 1
            continue
        kind, reason = classify(line, b, a, after)
        if reason is None:
            unchanged += 1
            continue
        if b is not None and risks and a is not r:
            reason = "risky"  # dropped, or its start moved, by reject_risky
        changes.append((b, a, kind, reason, risks))
    return len(before), len(after), unchanged, changes, found


def _audited(
    line: str, before: list[Link], after: list[Link]
) -> tuple[int, int, int, list[tuple[Link | None, Link | None, str, str]]]:
    """:func:`audit_line` for the links ``before`` and ``after`` refinement: pair them, classify the changed pairs."""
    unchanged = 0
    changes = []
    for b, a in pair_links(before, after):
        if b is not None and a is not None and b.start == a.start and b.end == a.end:
            unchanged += 1
            continue
        kind, reason = classify(line, b, a, after)
        if reason is None:
            unchanged += 1
        else:
            changes.append((b, a, kind, reason))
    return len(before), len(after), unchanged, changes


def _pieces(line: str, backend: str, cuttable: bool, piece: int) -> Iterator[tuple[int, str]]:
    """``(offset, text)``: the line, or for a line longer than ``piece`` code points audited by a
    plain-text backend (``cuttable``), pieces of it that each end just after a space (the last at
    the line's end).

    No link of those backends contains a space, and each decides a link's ends by what comes
    up to the nearest space (a Hard character, UTS #58 §3.4.1, which ends every refined link
    and every email local part): so a piece's links, and the reasons found for their changes,
    are those of the whole line (tests/test_report_long_lines.py compares them).
    """
    if len(line) <= piece or not cuttable:
        yield 0, line
        return
    start = 0
    while start < len(line):
        cut = line.find(" ", start + piece - 1)
        end = len(line) if cut == -1 else cut + 1
        yield start, line[start:end]
        start = end


def _change(
    source: str,
    lineno: int,
    line: str,
    offset: int,
    before: Link | None,
    after: Link | None,
    kind: str,
    reason: str,
    risks: tuple[str, ...] | None = None,
) -> Change:
    """The :class:`Change` of a pair found in ``line[offset:…]`` (spans given within that piece)."""
    b = (before.start + offset, before.end + offset) if before is not None else None
    a = (after.start + offset, after.end + offset) if after is not None else None
    spans = [s for s in (b, a) if s is not None]
    first = min(s[0] for s in spans)
    text, text_start, length = line, 0, -1
    if len(line) > WHOLE_LINE:
        text_start, hi = window(line, [b, a], CONTEXT)
        text, length = line[text_start:hi], len(line)
    return Change(
        source=source,
        line=lineno,
        column=first + 1,
        before=b,
        after=a,
        before_text=before.text if before is not None else None,
        after_text=after.text if after is not None else None,
        kind=kind,
        reason=reason,
        line_text=text,
        text_start=text_start,
        line_length=length,
        before_href=before.href if before is not None else None,
        after_href=after.href if after is not None else None,
        risks=risks,
    )


class Tally:
    """The counts of an audit so far (what :func:`iter_changes` adds up)."""

    __slots__ = ("failures", "links_after", "links_before", "risky", "risky_links", "unchanged")

    def __init__(self) -> None:
        self.links_before = self.links_after = self.unchanged = self.risky_links = 0
        self.failures: list[str] = []
        self.risky: Counter[str] = Counter()


def iter_changes(task: ChunkTask, tally: Tally, piece: int = PIECE) -> Iterator[Change]:
    """The changes of ``task``'s lines, line after line (within a line, in the order of
    :meth:`Change.sort_key`), counting links in ``tally`` as it goes; a long line is audited
    piece by piece (:func:`_pieces`), so memory does not grow with the changes of a line.

    A line (or piece of a long line) on which ``detect`` raises counts no link; the failure is
    added to ``tally.failures``.
    """
    detect = get_detect()
    source, first_line, lines, backend, reject_risky = task[:5]
    pair = pair_function(task, detect)
    # The hosts rule the risks are judged with: the audited call's.
    strict = task.strict_hosts if task.strict_hosts is not None else task.preview is None
    # (The previews of the HTML-producing libraries and their upgrades link no white space either.)
    cut = (backend in _CUT_AT_SPACE and (task.preview is not None or detect is _detect)) or (
        task.preview is not None and backend in ("bleach", "django", "jinja2", "mistune", "magiclink")
    )
    shown = task.shown
    for offset, text in enumerate(lines):
        lineno = first_line + offset
        display = shown[offset] if shown is not None else text
        for start, part in _pieces(text, backend, cut, piece):
            found: list[Pair] | list[tuple[Link | None, Link | None, str, str]]
            risky: list[tuple[str, ...]] = []
            try:
                if reject_risky:
                    b_count, a_count, unchanged, found, risky = audit_line_risky(part, backend, detect, pair, strict)
                else:
                    b_count, a_count, unchanged, found = audit_line(part, backend, detect, pair)
            except Exception as exc:  # one bad line must not sink a long audit
                tally.failures.append(f"{source}:{lineno}: detect failed: {type(exc).__name__}: {exc}")
                continue
            tally.links_before += b_count
            tally.links_after += a_count
            tally.unchanged += unchanged
            if reject_risky:
                tally.risky_links += len(risky)
                for codes in risky:
                    tally.risky.update(codes)
            changes = [_change(source, lineno, display, start, *pair) for pair in found]
            changes.sort(key=Change.sort_key)
            yield from changes


def audit_chunk(task: ChunkTask) -> ChunkResult:
    """Audit every line of ``task`` (pure: the result depends on the task alone)."""
    tally = Tally()
    changes = list(iter_changes(task, tally))
    return ChunkResult(
        task.source,
        task.first_line,
        task.backend,
        len(task.lines),
        tally.links_before,
        tally.links_after,
        tally.unchanged,
        tuple(changes),
        tuple(tally.failures),
        tally.risky_links,
        tuple(tally.risky.items()),
    )


def _ordered_counts(counter: Counter[str], order: Iterable[str]) -> dict[str, int]:
    """Counts in vocabulary order, zeros left out (names outside the vocabulary last, sorted)."""
    order = list(order)
    names = [name for name in order if counter.get(name)]
    names += sorted(name for name in counter if name not in order and counter[name])
    return {name: counter[name] for name in names}


def merge(
    results: Iterable[ChunkResult],
    backend: str | None = None,
    *,
    risks: bool = False,
    meta: dict[str, Any] | None = None,
    problems: Iterable[str] = (),
) -> dict[str, Any]:
    """Combine chunk results (in any order) into the report (a JSON-able dict).

    ``backend`` names the backend when there are no results; otherwise it is taken
    from them (and must be the same for all).  ``risks``: the tasks had ``reject_risky``;
    the summary then has ``risky`` (see :func:`summary`).  ``meta``: the report's provenance
    (``tool``, ``audit``, ``libraries``, ``configuration``, ``data``, ``options``, as the CLI
    records them); with it, the report also lists its ``inputs`` (each source and its lines,
    sorted) and ``problems`` (the messages about the inputs), as ``uts58-adapt report`` does.
    """
    results = list(results)
    backends = {r.backend for r in results}
    if backend is not None:
        backends.add(backend)
    if len(backends) > 1:
        raise ValueError(f"results from several backends: {sorted(backends)}")
    changes = sorted((c for r in results for c in r.changes), key=Change.sort_key)
    by_kind = Counter(c.kind for c in changes)
    by_reason = Counter(c.reason for c in changes)
    report: dict[str, Any] = {
        "backend": backends.pop() if backends else None,
        "unicode_version": UNICODE_VERSION,
        "summary": summary(
            len({r.source for r in results}),
            sum(r.lines for r in results),
            sum(r.links_before for r in results),
            sum(r.links_after for r in results),
            sum(r.unchanged for r in results),
            by_kind,
            by_reason,
            risky_counts(sum(r.risky_links for r in results), [r.risky for r in results]) if risks else None,
        ),
    }
    if meta is not None:
        report.update(meta)
        lines: Counter[str] = Counter()
        for r in results:
            lines[r.source] += r.lines
        report["inputs"] = [{"source": name, "lines": lines[name]} for name in sorted(lines)]
        report["problems"] = list(problems)
    report["changes"] = [change_row(c) for c in changes]
    return report


def change_row(c: Change) -> dict[str, Any]:
    """One change as the report lists it (a JSON-able dict, keys in report order).

    A row of a line longer than :data:`WHOLE_LINE` code points carries only the part of it
    around the change as ``line_text``, and two more keys: ``line_text_start`` (where that
    part starts in the line) and ``line_length`` (the line's length), both in code points.
    """
    return {
        "source": c.source,
        "line": c.line,
        "column": c.column,
        "before": list(c.before) if c.before else None,
        "after": list(c.after) if c.after else None,
        "before_text": c.before_text,
        "after_text": c.after_text,
        "before_href": c.before_href,
        "after_href": c.after_href,
        "kind": c.kind,
        "reason": c.reason,
        "line_text": c.line_text,
        **({"line_text_start": c.text_start, "line_length": c.line_length} if c.line_length >= 0 else {}),
        **({"risks": list(c.risks)} if c.risks is not None else {}),
    }


def risky_counts(links: int, counts: Iterable[Iterable[tuple[str, int]]]) -> dict[str, Any]:
    """The summary's ``risky``: ``{"links": links, "by_code": {code: count, …}}``, codes in
    :data:`~uts58_adapt.refine.risks.RISK_CODES` order, zeros left out."""
    from ..refine.risks import RISK_CODES

    total: Counter[str] = Counter()
    for pairs in counts:
        total.update(dict(pairs))
    return {"links": links, "by_code": _ordered_counts(total, RISK_CODES)}


def summary(
    sources: int,
    lines: int,
    before: int,
    after: int,
    unchanged: int,
    by_kind: Counter[str],
    by_reason: Counter[str],
    risky: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The report's ``summary`` from its totals (``changed`` is the sum of ``by_kind``); with
    ``risky`` (an audit with ``reject_risky``: :func:`risky_counts`), that too, last."""
    out = {
        "documents": sources,
        "lines": lines,
        "links_before": before,
        "links_after": after,
        "unchanged": unchanged,
        "changed": sum(by_kind.values()),
        "by_kind": _ordered_counts(by_kind, KINDS),
        "by_reason": _ordered_counts(by_reason, REASONS),
    }
    if risky is not None:
        out["risky"] = risky
    return out
