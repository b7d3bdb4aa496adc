"""Turning inputs into :class:`~uts58_adapt.report.core.ChunkTask` and running them on an engine.

Engines:

- ``local``: in-process with one job; with ``jobs > 1``, a
  ``concurrent.futures.ProcessPoolExecutor`` across chunks, with a bounded number of
  chunks in flight so memory stays flat on large corpora.  The pool has no more
  workers than chunks, nor than :func:`max_workers`; its processes are started with
  ``forkserver`` (else ``spawn``), never ``fork``: forking a process that has threads
  (tqdm, Dask, an embedding application) can deadlock the child (issue 12.9).  If the
  run is interrupted (Ctrl-C, SIGTERM through the CLI, any exception) the workers are
  terminated before the exception goes on (issue 13.7).
- ``dask``: ``uts58_adapt.report.dask_engine.map_chunks(tasks, scheduler)``, imported
  only when asked for (the ``dask`` extra); without a scheduler it starts a
  process-based ``LocalCluster`` for the run.

:func:`iter_local` and :func:`iter_dask` yield the results as they arrive and keep
none: the CLI merges them with :class:`~.stream.StreamingMerge` in bounded memory.

Every engine returns the results in task order, and :func:`~.core.merge` sorts anyway,
so the report does not depend on the engine.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from importlib import resources
from itertools import islice
from multiprocessing.context import BaseContext

from .._io import MAX_LINE, InputError, expand_paths, read_lines
from .core import ChunkResult, ChunkTask, audit_chunk

__all__ = [
    "CHUNK_LINES",
    "DaskUnavailable",
    "iter_dask",
    "iter_local",
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
    max_line: int = MAX_LINE,
    failed: set[str] | None = None,
) -> Iterator[ChunkTask]:
    """Yield the chunks of each input ``(name in reports, path or "-")``.

    An input that cannot be opened or decoded, or that has a line longer than
    ``max_line`` bytes, is reported in ``problems`` (the message names it) and its name
    is added to ``failed``.  Without ``failed`` an input is read whole before its chunks
    are yielded, so such an input yields nothing.  With ``failed`` (the CLI, for bounded
    memory) its chunks are yielded as they are read, and the caller drops the results
    of every input named in ``failed`` (:class:`~.stream.StreamingMerge` does): either
    way a report never holds half a file.  An empty input yields one empty chunk, so
    it still counts as a document.
    """
    if chunk_lines < 1:
        raise ValueError("chunk_lines must be at least 1")
    for name, path in inputs:
        lines: list[str] = []
        chunks: list[ChunkTask] = []
        first = 1
        try:
            for line in read_lines(path, encoding, errors, max_line):
                lines.append(line)
                if len(lines) == chunk_lines:
                    task = ChunkTask(name, first, lines, backend)
                    if failed is None:
                        chunks.append(task)
                    else:
                        yield task
                    first += chunk_lines
                    lines = []
        except InputError as exc:
            problems.append(str(exc).replace(f"{path}:", f"{name}:", 1) if path != name else str(exc))
            if failed is not None:
                failed.add(name)
            continue
        yield from chunks
        if lines or first == 1:
            yield ChunkTask(name, first, lines, backend)


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


def max_workers() -> int:
    """The most worker processes a local run starts: four per core (the work is CPU-bound)."""
    return 4 * (os.cpu_count() or 1)


#: Modules the fork server imports once, so each worker starts with them loaded.
_PRELOAD = ["uts58_adapt.report.core", "uts58_adapt.detection", "uts58_adapt.backends.linkify_it"]


def pool_context() -> BaseContext:
    """``forkserver`` where the platform has it (Linux, macOS), else ``spawn``; never ``fork``."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(_PRELOAD)
        return ctx
    return multiprocessing.get_context("spawn")


def _worker_init() -> None:
    # Ctrl-C reaches the whole process group: the parent stops the workers, which
    # must not print a KeyboardInterrupt traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what is queued and terminate the worker processes now (interrupted run)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        if proc.is_alive():
            proc.terminate()
    for proc in processes:
        proc.join(5)
        if proc.is_alive():
            proc.kill()
            proc.join(5)


def map_local(
    tasks: Iterable[ChunkTask],
    jobs: int = 1,
    on_result: Callable[[ChunkResult], None] | None = None,
) -> list[ChunkResult]:
    """Run :func:`audit_chunk` on each task, in this process or in up to ``jobs`` worker processes.

    Results come back in task order; ``on_result`` is called as each one arrives (progress).
    The pool has at most ``min(jobs, number of chunks, max_workers())`` processes: the
    first ``jobs`` chunks are read before it starts, to know.
    """
    results: list[ChunkResult] = []
    for result in iter_local(tasks, jobs):
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results


def iter_local(tasks: Iterable[ChunkTask], jobs: int = 1) -> Generator[ChunkResult, None, None]:
    """:func:`map_local` as a generator: each result is yielded as it arrives, in task order,
    and none is kept (bounded memory).  Closing the generator early stops the workers."""
    iterator = iter(tasks)
    jobs = min(jobs, max_workers())
    head = list(islice(iterator, max(jobs, 1)))
    if jobs <= 1 or len(head) <= 1:  # one chunk: not worth a process pool
        for task in _chain(head, iterator):
            yield audit_chunk(task)
        return
    workers = min(jobs, len(head))
    window = max(2, workers * _WINDOW_PER_JOB)
    pending: deque[Future[ChunkResult]] = deque()
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=pool_context(), initializer=_worker_init)
    try:
        for task in _chain(head, iterator):
            pending.append(pool.submit(audit_chunk, task))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown(wait=True)


def _chain(head: list[ChunkTask], rest: Iterator[ChunkTask]) -> Iterator[ChunkTask]:
    yield from head
    yield from rest


def map_dask(
    tasks: Iterable[ChunkTask],
    scheduler: str | None,
    on_result: Callable[[ChunkResult], None] | None = None,
    connect_timeout: float = 30.0,
    workers: int | None = None,
) -> list[ChunkResult]:
    """Run the tasks with ``uts58_adapt.report.dask_engine.map_chunks`` (the ``dask`` extra)."""
    results: list[ChunkResult] = []
    for result in iter_dask(tasks, scheduler, connect_timeout, workers):
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results


def iter_dask(
    tasks: Iterable[ChunkTask], scheduler: str | None, connect_timeout: float = 30.0, workers: int | None = None
) -> Iterator[ChunkResult]:
    """:func:`map_dask` as a generator (results in task order, none kept); ``workers``: the
    processes of the local cluster started when ``scheduler`` is None (default: one per core)."""
    try:
        from .dask_engine import iter_chunks
    except ImportError as exc:
        raise DaskUnavailable(
            f"the dask engine is not available ({exc}); install it with: pip install 'uts58_adapt[dask]'"
        ) from exc
    return iter_chunks(tasks, scheduler, connect_timeout, workers)


def default_jobs(paths: Sequence[str]) -> int:
    """All cores when a directory is among the inputs, else one job."""
    if any(p != "-" and os.path.isdir(p) for p in paths):
        return os.cpu_count() or 1
    return 1
