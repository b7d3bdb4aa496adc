"""Merging chunk results as they arrive, in bounded memory (issue 11.3).

:class:`StreamingMerge` is :func:`~.core.merge` for a corpus of any size: it keeps the
counts of each source and writes each chunk's changes, already rendered as the JSON
report's rows, to a temporary file (the *spill*), remembering where each chunk's rows
are.  The report is then written from the spill: the summary first, then the rows of
each source in name order and, within a source, chunk by chunk in line order.  A
chunk's changes are sorted and chunks of one source cover disjoint line ranges, so this
is the order of :func:`~.core.merge`'s sort, and the JSON is the same byte for byte.

A source named in ``exclude`` (an input that failed part-way: see
:func:`~.runner.iter_tasks`) contributes nothing, whichever of its chunks already ran.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections import Counter
from collections.abc import Collection, Iterator
from typing import IO, Any, NamedTuple

from ..properties import UNICODE_VERSION
from .core import ChunkResult, change_row, summary

__all__ = ["Rows", "StreamingMerge", "json_row", "to_rows"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def json_row(change: dict[str, Any]) -> bytes:
    """One change as a row of the JSON report: UTF-8, lone surrogates written as ``\\udXXX``."""
    text = json.dumps(change, ensure_ascii=False)
    if not text.isascii():
        text = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text.encode("utf-8")


class Rows(NamedTuple):
    """A chunk's result as :class:`StreamingMerge` keeps it: the changes already rendered
    as the JSON report's rows, and only their counts by kind and reason.

    Worker processes return this rather than a :class:`~.core.ChunkResult`: it is smaller
    to send, and the main process does not render rows (it stays nearly idle, issue 11.4).
    ``problem``, when set, is a message about an input rather than a result: the input
    ``source`` (if any) could not be read, and is left out of the report.
    """

    source: str
    first_line: int
    backend: str
    lines: int
    links_before: int
    links_after: int
    unchanged: int
    rows: bytes  # one JSON row per change, each ending in a newline, in report order
    by_kind: tuple[tuple[str, int], ...]
    by_reason: tuple[tuple[str, int], ...]
    failures: tuple[str, ...] = ()
    problem: str | None = None


def to_rows(result: ChunkResult) -> Rows:
    """``result`` with its changes rendered as JSON rows (:func:`json_row`, one per line)."""
    changes = result.changes
    return Rows(
        result.source,
        result.first_line,
        result.backend,
        result.lines,
        result.links_before,
        result.links_after,
        result.unchanged,
        b"".join(json_row(change_row(c)) + b"\n" for c in changes),
        tuple(Counter(c.kind for c in changes).items()),
        tuple(Counter(c.reason for c in changes).items()),
        result.failures,
    )


class _Source:
    __slots__ = ("after", "before", "by_kind", "by_reason", "lines", "segments", "unchanged")

    def __init__(self) -> None:
        self.lines = self.before = self.after = self.unchanged = 0
        self.by_kind: Counter[str] = Counter()
        self.by_reason: Counter[str] = Counter()
        self.segments: list[tuple[int, int, int]] = []  # (first_line, offset in the spill, length)


class StreamingMerge:
    """Add :class:`~.core.ChunkResult` objects in any order; write the report from a spill file.

    Memory: the counts of each source and one ``(first line, offset, length)`` triple per
    chunk; the changes themselves are on disk (``spill_dir``, default the system's
    temporary directory) until the report is written.  Use as a context manager (the
    spill is deleted on close).
    """

    def __init__(self, backend: str, spill_dir: str | None = None) -> None:
        self.backend = backend
        # Open for the merge's lifetime (closed by close()): no context manager fits.
        self._spill: IO[bytes] = tempfile.TemporaryFile(dir=spill_dir, prefix="uts58-report-")  # noqa: SIM115
        self._end = 0
        self._sources: dict[str, _Source] = {}

    def __enter__(self) -> StreamingMerge:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._spill.close()

    def add(self, result: ChunkResult | Rows) -> None:
        """Count ``result`` and spill its rows (a :class:`Rows` with a ``problem`` is an error)."""
        if isinstance(result, ChunkResult):
            result = to_rows(result)
        if result.problem is not None:
            raise ValueError(f"not a result: {result.problem}")
        if result.backend != self.backend:
            raise ValueError(f"results from several backends: {sorted({self.backend, result.backend})}")
        src = self._sources.get(result.source)
        if src is None:
            src = self._sources[result.source] = _Source()
        src.lines += result.lines
        src.before += result.links_before
        src.after += result.links_after
        src.unchanged += result.unchanged
        data = result.rows
        if data:
            self._spill.seek(self._end)
            self._spill.write(data)
            src.segments.append((result.first_line, self._end, len(data)))
            self._end += len(data)
            src.by_kind.update(dict(result.by_kind))
            src.by_reason.update(dict(result.by_reason))

    def head(self, exclude: Collection[str] = ()) -> dict[str, Any]:
        """The report without its ``changes``: ``backend``, ``unicode_version``, ``summary``."""
        kept = [src for name, src in self._sources.items() if name not in exclude]
        by_kind: Counter[str] = Counter()
        by_reason: Counter[str] = Counter()
        for src in kept:
            by_kind.update(src.by_kind)
            by_reason.update(src.by_reason)
        return {
            "backend": self.backend,
            "unicode_version": UNICODE_VERSION,
            "summary": summary(
                len(kept),
                sum(src.lines for src in kept),
                sum(src.before for src in kept),
                sum(src.after for src in kept),
                sum(src.unchanged for src in kept),
                by_kind,
                by_reason,
            ),
        }

    def rows(self, exclude: Collection[str] = ()) -> Iterator[bytes]:
        """The JSON rows of the changes (without newline), in report order."""
        for data in self._segments(exclude):
            yield from data.splitlines()

    def _segments(self, exclude: Collection[str]) -> Iterator[bytes]:
        """The rows of each chunk (each row ending in a newline; never an empty chunk), in report order."""
        self._spill.flush()
        for name in sorted(self._sources):
            if name in exclude:
                continue
            for _, offset, length in sorted(self._sources[name].segments):
                self._spill.seek(offset)
                yield self._spill.read(length)

    def json_chunks(self, exclude: Collection[str] = ()) -> Iterator[bytes]:
        """The JSON report, as :func:`~.render_json.render_json` writes it, in pieces."""
        head = json.dumps(self.head(exclude), ensure_ascii=False, indent=2)
        yield (head[:-2] + ',\n  "changes": ').encode("utf-8")
        first = True
        for data in self._segments(exclude):  # whole chunks of rows at a time: fewer, larger writes
            yield (b"[\n    " if first else b",\n    ") + data[:-1].replace(b"\n", b",\n    ")
            first = False
        yield b"[]\n}\n" if first else b"\n  ]\n}\n"

    def report(self, exclude: Collection[str] = ()) -> dict[str, Any]:
        """The whole report as :func:`~.core.merge` returns it (the changes in memory)."""
        report = self.head(exclude)
        report["changes"] = [json.loads(row) for row in self.rows(exclude)]
        return report
