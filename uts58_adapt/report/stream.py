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

import contextlib
import json
import os
import re
import tempfile
from collections import Counter
from collections.abc import Collection, Iterator
from itertools import islice
from typing import IO, Any, NamedTuple

from ..properties import UNICODE_VERSION
from .core import ChunkResult, ChunkTask, Tally, change_row, iter_changes, risky_counts, summary

__all__ = ["ROWS_IN_MEMORY", "Rows", "StreamingMerge", "audit_to_rows", "json_row", "to_rows"]

#: The most bytes of rows a task keeps in memory when it may write them to a file (a
#: long line can have hundreds of thousands of changes: issue 23.1).
ROWS_IN_MEMORY = 8 * 1024 * 1024
#: The most bytes read from the spill at once when the report is written.
_READ_BLOCK = 4 * 1024 * 1024

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
    #: When set, the rows are in this file (and ``rows`` is empty): the task wrote them there
    #: (:func:`audit_to_rows` with a ``spill_dir``); :meth:`StreamingMerge.add` takes and deletes it.
    rows_file: str | None = None
    #: With ``reject_risky``: the refined links with a risk, and the count of each code.
    risky_links: int = 0
    risky: tuple[tuple[str, int], ...] = ()


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
        risky_links=result.risky_links,
        risky=result.risky,
    )


def audit_to_rows(task: ChunkTask, spill_dir: str | None = None) -> Rows:
    """``to_rows(audit_chunk(task))``, in bounded memory: the rows are rendered as the changes
    are found, and with a ``spill_dir`` (a directory the merging process can read), rows past
    :data:`ROWS_IN_MEMORY` bytes go to a file there, named by the result's ``rows_file``."""
    tally = Tally()
    by_kind: Counter[str] = Counter()
    by_reason: Counter[str] = Counter()
    buf = bytearray()
    path: str | None = None
    fh: IO[bytes] | None = None
    try:
        for change in iter_changes(task, tally):
            buf += json_row(change_row(change))
            buf += b"\n"
            by_kind[change.kind] += 1
            by_reason[change.reason] += 1
            if len(buf) >= ROWS_IN_MEMORY and spill_dir is not None:
                if fh is None:
                    fd, path = tempfile.mkstemp(dir=spill_dir, prefix="rows-")
                    fh = os.fdopen(fd, "wb")
                fh.write(buf)
                buf.clear()
        if fh is not None:
            fh.write(buf)
            buf.clear()
            fh.close()
    except BaseException:
        if fh is not None:
            fh.close()
        if path is not None:
            with contextlib.suppress(OSError):
                os.unlink(path)
        raise
    return Rows(
        task.source,
        task.first_line,
        task.backend,
        len(task.lines),
        tally.links_before,
        tally.links_after,
        tally.unchanged,
        bytes(buf),
        tuple(by_kind.items()),
        tuple(by_reason.items()),
        tuple(tally.failures),
        rows_file=path,
        risky_links=tally.risky_links,
        risky=tuple(tally.risky.items()),
    )


class _Source:
    __slots__ = ("after", "before", "by_kind", "by_reason", "lines", "risky", "risky_links", "segments", "unchanged")

    def __init__(self) -> None:
        self.lines = self.before = self.after = self.unchanged = self.risky_links = 0
        self.risky: Counter[str] = Counter()
        self.by_kind: Counter[str] = Counter()
        self.by_reason: Counter[str] = Counter()
        self.segments: list[tuple[int, int, int]] = []  # (first_line, offset in the spill, length)


class StreamingMerge:
    """Add :class:`~.core.ChunkResult` objects in any order; write the report from a spill file.

    Memory: the counts of each source and one ``(first line, offset, length)`` triple per
    chunk; the changes themselves are on disk (``spill_dir``, default the system's
    temporary directory) until the report is written.  Use as a context manager (the
    spill is deleted on close).  ``risks``: the tasks had ``reject_risky`` (the summary counts
    the risky links: :func:`~.core.risky_counts`).
    """

    def __init__(
        self, backend: str, spill_dir: str | None = None, *, risks: bool = False, meta: dict[str, Any] | None = None
    ) -> None:
        self.backend = backend
        self.risks = risks
        #: The report's provenance (the CLI's: tool, audit, libraries, configuration, data, options):
        #: with it, :meth:`head` also lists every input with its lines and :attr:`problems`.
        self.meta = meta
        #: The messages about the inputs (an input that failed, and why), in input order.
        self.problems: list[str] = []
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
        src.risky_links += result.risky_links
        src.risky.update(dict(result.risky))
        data = result.rows
        size = len(data)
        self._spill.seek(self._end)
        if result.rows_file is not None:
            try:
                with open(result.rows_file, "rb") as fh:
                    while block := fh.read(_READ_BLOCK):
                        self._spill.write(block)
                        size += len(block)
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(result.rows_file)
        else:
            self._spill.write(data)
        if size:
            src.segments.append((result.first_line, self._end, size))
            self._end += size
            src.by_kind.update(dict(result.by_kind))
            src.by_reason.update(dict(result.by_reason))

    def sources(self, exclude: Collection[str] = ()) -> list[str]:
        """The names of the sources that gave a result (an empty file too), less ``exclude``."""
        return [name for name in self._sources if name not in exclude]

    def kinds_by_source(self, exclude: Collection[str] = ()) -> dict[str, Counter[str]]:
        """Each source's changes by kind (the HTML report's per-file chart), less ``exclude``."""
        return {name: src.by_kind for name, src in self._sources.items() if name not in exclude}

    def dicts(self, exclude: Collection[str] = ()) -> Iterator[dict[str, Any]]:
        """The changes as dicts, in report order, one at a time."""
        return (json.loads(row) for row in self.rows(exclude))

    def head(self, exclude: Collection[str] = ()) -> dict[str, Any]:
        """The report without its ``changes``: ``backend``, ``unicode_version``, ``summary``."""
        kept = [src for name, src in self._sources.items() if name not in exclude]
        by_kind: Counter[str] = Counter()
        by_reason: Counter[str] = Counter()
        for src in kept:
            by_kind.update(src.by_kind)
            by_reason.update(src.by_reason)
        head: dict[str, Any] = {
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
                risky_counts(sum(src.risky_links for src in kept), [src.risky.items() for src in kept])
                if self.risks
                else None,
            ),
        }
        if self.meta is None:
            return head
        head.update(self.meta)
        head["inputs"] = [
            {"source": name, "lines": self._sources[name].lines}
            for name in sorted(self._sources)
            if name not in exclude
        ]
        head["problems"] = list(self.problems)
        return head

    def rows(self, exclude: Collection[str] = ()) -> Iterator[bytes]:
        """The JSON rows of the changes (without newline), in report order."""
        for data in self._segments(exclude):
            yield from data.splitlines()

    def _segments(self, exclude: Collection[str]) -> Iterator[bytes]:
        """The rows of each chunk in blocks of whole rows (each row ending in a newline; never an
        empty block) of at most a few MB unless one row is longer, in report order."""
        self._spill.flush()
        for name in sorted(self._sources):
            if name in exclude:
                continue
            for _, offset, length in sorted(self._sources[name].segments):
                self._spill.seek(offset)
                rest = b""
                while length > 0:
                    data = self._spill.read(min(length, _READ_BLOCK))
                    if not data:  # pragma: no cover - the spill is ours and as long as recorded
                        raise OSError("the report's temporary file was cut short")
                    length -= len(data)
                    block = rest + data
                    cut = len(block) if length == 0 else block.rfind(b"\n") + 1
                    rest = block[cut:]
                    if cut:
                        yield block[:cut]

    def json_chunks(self, exclude: Collection[str] = ()) -> Iterator[bytes]:
        """The JSON report, as :func:`~.render_json.render_json` writes it, in pieces."""
        head = json.dumps(self.head(exclude), ensure_ascii=False, indent=2)
        yield (head[:-2] + ',\n  "changes": ').encode("utf-8")
        first = True
        for data in self._segments(exclude):  # whole chunks of rows at a time: fewer, larger writes
            yield (b"[\n    " if first else b",\n    ") + data[:-1].replace(b"\n", b",\n    ")
            first = False
        yield b"[]\n}\n" if first else b"\n  ]\n}\n"

    def report(self, exclude: Collection[str] = (), limit: int | None = None) -> dict[str, Any]:
        """The whole report as :func:`~.core.merge` returns it (the changes in memory); with a
        ``limit``, only the first ``limit`` changes are read (the summary counts them all)."""
        report = self.head(exclude)
        rows = self.rows(exclude)
        report["changes"] = list(self.dicts(exclude)) if limit is None else [json.loads(r) for r in islice(rows, limit)]
        return report
