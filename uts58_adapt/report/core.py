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
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from ..detection import detect as _detect
from ..detection import detect_pair
from ..link import Link
from ..properties import UNICODE_VERSION
from .classify import KINDS, REASONS, classify

__all__ = [
    "Change",
    "ChunkResult",
    "ChunkTask",
    "audit_chunk",
    "audit_line",
    "change_row",
    "detect_pair",
    "merge",
    "pair_links",
]


class ChunkTask(NamedTuple):
    """Lines ``first_line``, ``first_line + 1``, … (1-based) of ``source``, to audit with ``backend``."""

    source: str
    first_line: int
    lines: list[str]
    backend: str


class Change(NamedTuple):
    """One changed link.  Spans are ``(start, end)`` code-point offsets within the line."""

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


def audit_line(
    line: str, backend: str, detect: Callable[..., list[Link]]
) -> tuple[int, int, int, list[tuple[Link | None, Link | None, str, str]]]:
    """Audit one line: ``(links_before, links_after, unchanged, [(before, after, kind, reason), …])``.

    "before" is the backend's own links (``refine=False``), "after" the refined ones,
    paired by :func:`pair_links`; with the real ``detect``, both come from one
    :func:`detect_pair`.  Only changed pairs are classified.
    """
    if detect is _detect:
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


def audit_chunk(task: ChunkTask) -> ChunkResult:
    """Audit every line of ``task`` (pure: the result depends on the task alone)."""
    detect = get_detect()
    source, first_line, lines, backend = task
    n_before = n_after = n_unchanged = 0
    changes: list[Change] = []
    failures: list[str] = []
    for offset, text in enumerate(lines):
        try:
            b_count, a_count, unchanged, found = audit_line(text, backend, detect)
        except Exception as exc:  # one bad line must not sink a long audit
            failures.append(f"{source}:{first_line + offset}: detect failed: {type(exc).__name__}: {exc}")
            continue
        n_before += b_count
        n_after += a_count
        n_unchanged += unchanged
        for before, after, kind, reason in found:
            starts = [link.start for link in (before, after) if link is not None]
            changes.append(
                Change(
                    source=source,
                    line=first_line + offset,
                    column=min(starts) + 1,
                    before=(before.start, before.end) if before else None,
                    after=(after.start, after.end) if after else None,
                    before_text=before.text if before else None,
                    after_text=after.text if after else None,
                    kind=kind,
                    reason=reason,
                    line_text=text,
                )
            )
    changes.sort(key=Change.sort_key)
    return ChunkResult(
        source, first_line, backend, len(lines), n_before, n_after, n_unchanged, tuple(changes), tuple(failures)
    )


def _ordered_counts(counter: Counter[str], order: Iterable[str]) -> dict[str, int]:
    """Counts in vocabulary order, zeros left out (names outside the vocabulary last, sorted)."""
    order = list(order)
    names = [name for name in order if counter.get(name)]
    names += sorted(name for name in counter if name not in order and counter[name])
    return {name: counter[name] for name in names}


def merge(results: Iterable[ChunkResult], backend: str | None = None) -> dict[str, Any]:
    """Combine chunk results (in any order) into the report (a JSON-able dict).

    ``backend`` names the backend when there are no results; otherwise it is taken
    from them (and must be the same for all).
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
    return {
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
        ),
        "changes": [change_row(c) for c in changes],
    }


def change_row(c: Change) -> dict[str, Any]:
    """One change as the report lists it (a JSON-able dict, keys in report order)."""
    return {
        "source": c.source,
        "line": c.line,
        "column": c.column,
        "before": list(c.before) if c.before else None,
        "after": list(c.after) if c.after else None,
        "before_text": c.before_text,
        "after_text": c.after_text,
        "kind": c.kind,
        "reason": c.reason,
        "line_text": c.line_text,
    }


def summary(
    sources: int, lines: int, before: int, after: int, unchanged: int, by_kind: Counter[str], by_reason: Counter[str]
) -> dict[str, Any]:
    """The report's ``summary`` from its totals (``changed`` is the sum of ``by_kind``)."""
    return {
        "documents": sources,
        "lines": lines,
        "links_before": before,
        "links_after": after,
        "unchanged": unchanged,
        "changed": sum(by_kind.values()),
        "by_kind": _ordered_counts(by_kind, KINDS),
        "by_reason": _ordered_counts(by_reason, REASONS),
    }
