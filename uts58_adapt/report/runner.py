"""Turning inputs into :class:`~uts58_adapt.report.core.ChunkTask` and running them on an engine.

Engines:

- ``local``: in-process with one job; with ``jobs > 1``, a
  ``concurrent.futures.ProcessPoolExecutor`` across chunks, with a bounded number of
  chunks in flight so memory stays flat on large corpora.
- ``dask``: ``uts58_adapt.report.dask_engine.map_chunks(tasks, scheduler)``, imported
  only when asked for (the ``dask`` extra).

Every engine returns the results in task order, and :func:`~.core.merge` sorts anyway,
so the report does not depend on the engine.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from importlib import resources

from .._io import InputError, expand_paths, read_lines
from .core import ChunkResult, ChunkTask, audit_chunk

__all__ = [
    "CHUNK_LINES",
    "DaskUnavailable",
    "iter_tasks",
    "map_dask",
    "map_local",
    "sample_inputs",
]

#: Lines per chunk: large enough to amortise process overhead, small enough to spread work.
CHUNK_LINES = 500
#: Chunks in flight per worker process.
_WINDOW_PER_JOB = 4
#: The name given to standard input in reports.
STDIN_NAME = "<stdin>"


class DaskUnavailable(RuntimeError):
    """The Dask engine cannot be loaded; the message says what to install."""


def sample_inputs() -> list[tuple[str, str]]:
    """The bundled sample corpus: ``(name in reports, path on disk)``, sorted by name.

    The names (``corpora/sample.txt``) do not depend on where the package is installed,
    so reports on the sample are the same on every machine.
    """
    root = resources.files("uts58_adapt") / "corpora"
    out = []
    for entry in root.iterdir():
        if entry.name.endswith(".txt") and entry.is_file():
            out.append((f"corpora/{entry.name}", str(entry)))
    return sorted(out)


def iter_tasks(
    inputs: Iterable[tuple[str, str]],
    backend: str,
    *,
    encoding: str = "utf-8",
    errors: str = "strict",
    problems: list[str],
    chunk_lines: int = CHUNK_LINES,
) -> Iterator[ChunkTask]:
    """Yield the chunks of each input ``(name in reports, path or "-")``.

    An input is read whole before its chunks are yielded: one that cannot be opened or
    decoded is reported in ``problems`` (the message names it) and contributes nothing,
    so a report never holds half a file.  An empty input yields one empty chunk, so it
    still counts as a document.
    """
    if chunk_lines < 1:
        raise ValueError("chunk_lines must be at least 1")
    for name, path in inputs:
        try:
            lines = list(read_lines(path, encoding, errors))
        except InputError as exc:
            problems.append(str(exc).replace(f"{path}:", f"{name}:", 1) if path != name else str(exc))
            continue
        if not lines:
            yield ChunkTask(name, 1, [], backend)
        for k in range(0, len(lines), chunk_lines):
            yield ChunkTask(name, k + 1, lines[k : k + chunk_lines], backend)


def resolve_inputs(paths: Sequence[str], sample: bool, problems: list[str]) -> Iterator[tuple[str, str]]:
    """``(name in reports, path)`` for the sample corpus (when asked) and then each PATH.

    An input named twice (directly or through a directory) is audited once.
    """
    seen: set[str] = set()
    pairs = list(sample_inputs()) if sample else []
    for name, path in pairs:
        seen.add(name)
        yield name, path
    for path in expand_paths(paths, problems):
        name = STDIN_NAME if path == "-" else path
        if name not in seen:
            seen.add(name)
            yield name, path


def map_local(
    tasks: Iterable[ChunkTask],
    jobs: int = 1,
    on_result: Callable[[ChunkResult], None] | None = None,
) -> list[ChunkResult]:
    """Run :func:`audit_chunk` on each task, in this process or in ``jobs`` worker processes.

    Results come back in task order; ``on_result`` is called as each one arrives (progress).
    """
    results: list[ChunkResult] = []

    def done(result: ChunkResult) -> None:
        results.append(result)
        if on_result is not None:
            on_result(result)

    if jobs <= 1:
        for task in tasks:
            done(audit_chunk(task))
        return results
    iterator = iter(tasks)
    first = next(iterator, None)
    if first is None:
        return results
    second = next(iterator, None)
    if second is None:  # one chunk: not worth a process pool
        done(audit_chunk(first))
        return results
    window = max(2, jobs * _WINDOW_PER_JOB)
    pending: deque[Future[ChunkResult]] = deque()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for task in _chain(first, second, iterator):
            pending.append(pool.submit(audit_chunk, task))
            if len(pending) >= window:
                done(pending.popleft().result())
        while pending:
            done(pending.popleft().result())
    return results


def _chain(first: ChunkTask, second: ChunkTask, rest: Iterator[ChunkTask]) -> Iterator[ChunkTask]:
    yield first
    yield second
    yield from rest


def map_dask(
    tasks: Iterable[ChunkTask],
    scheduler: str | None,
    on_result: Callable[[ChunkResult], None] | None = None,
    connect_timeout: float = 30.0,
) -> list[ChunkResult]:
    """Run the tasks with ``uts58_adapt.report.dask_engine.map_chunks`` (the ``dask`` extra)."""
    try:
        from .dask_engine import map_chunks
    except ImportError as exc:
        raise DaskUnavailable(
            f"the dask engine is not available ({exc}); install it with: pip install 'uts58_adapt[dask]'"
        ) from exc
    results = list(map_chunks(tasks, scheduler, connect_timeout))
    if on_result is not None:
        for result in results:
            on_result(result)
    return results


def default_jobs(paths: Sequence[str]) -> int:
    """All cores when a directory is among the inputs, else one job."""
    if any(p != "-" and os.path.isdir(p) for p in paths):
        return os.cpu_count() or 1
    return 1
