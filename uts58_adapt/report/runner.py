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

import io
import multiprocessing
import os
import re
import signal
import stat
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from functools import lru_cache
from importlib import resources
from itertools import islice
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import NamedTuple, TypeVar

from .._io import MAX_LINE, InputError, _ascii_compatible, _through_fd_link, _too_long, expand_paths, read_lines
from .core import ChunkResult, ChunkTask, audit_chunk
from .errors import DaskUnavailable
from .stream import Rows, audit_to_rows

__all__ = [
    "CHUNK_LINES",
    "DaskUnavailable",
    "Notice",
    "RangeTask",
    "audit_rows",
    "iter_dask",
    "iter_dask_rows",
    "iter_local",
    "iter_pool",
    "iter_report_tasks",
    "iter_rows",
    "iter_tasks",
    "map_dask",
    "map_local",
    "read_range",
    "sample_inputs",
]

#: Lines per chunk: large enough to amortise process overhead, small enough to spread work.
CHUNK_LINES = 500
#: The most bytes in one :class:`RangeTask` (a range also ends after ``chunk_lines`` lines).
RANGE_BYTES = 4 * 1024 * 1024
#: The CLI's task sizes, ``(lines, bytes)``: for the local engine (a task costs a process
#: pool well under a millisecond) and for Dask (some milliseconds of scheduling per task,
#: so about a second of work per task; on a cluster, whose workers get lines rather than
#: ranges, the lines in flight stay a few hundred kB per worker thread).
LOCAL_TASK = (2000, 256 * 1024)
DASK_TASK = (5000, 1024 * 1024)
DASK_RANGE_LINES = 1 << 30  # with ranges, Dask tasks are cut by bytes alone
#: Bytes read at a time when cutting a file into ranges.
_BLOCK = 1024 * 1024

T = TypeVar("T")
R = TypeVar("R")
#: Chunks in flight per worker process.
_WINDOW_PER_JOB = 4
#: The name given to standard input in reports.
STDIN_NAME = "<stdin>"


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
    reject_risky: bool = False,
    preview: str | None = None,
    strict_hosts: bool | None = None,
    markup: str = "text",
) -> Iterator[ChunkTask]:
    """Yield the chunks of each input ``(name in reports, path or "-")``.

    An input that cannot be opened or decoded, or that has a line longer than
    ``max_line`` bytes, is reported in ``problems`` (the message names it) and its name
    is added to ``failed``.  Without ``failed`` an input is read whole before its chunks
    are yielded, so such an input yields nothing.  With ``failed`` (the CLI, for bounded
    memory) its chunks are yielded as they are read, and the caller drops the results
    of every input named in ``failed`` (:class:`~.stream.StreamingMerge` does): either
    way a report never holds half a file.  An empty input yields one empty chunk, so
    it still counts as a document.  ``reject_risky``, ``preview``, ``strict_hosts``: the tasks' (see
    :class:`~.core.ChunkTask`).
    """
    if chunk_lines < 1:
        raise ValueError("chunk_lines must be at least 1")
    if markup != "text":
        yield from _markup_tasks(
            inputs,
            backend,
            encoding,
            errors,
            problems,
            chunk_lines,
            max_line,
            failed,
            markup,
            (
                reject_risky,
                preview,
                strict_hosts,
            ),
        )
        return
    for name, path in inputs:
        lines: list[str] = []
        chunks: list[ChunkTask] = []
        first = 1
        try:
            for line in read_lines(path, encoding, errors, max_line):
                lines.append(line)
                if len(lines) == chunk_lines:
                    task = ChunkTask(name, first, lines, backend, reject_risky, preview, strict_hosts)
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
            yield ChunkTask(name, first, lines, backend, reject_risky, preview, strict_hosts)


def _markup_tasks(
    inputs: Iterable[tuple[str, str]],
    backend: str,
    encoding: str,
    errors: str,
    problems: list[str],
    chunk_lines: int,
    max_line: int,
    failed: set[str] | None,
    markup: str,
    options: tuple[bool, str | None, bool | None],
) -> Iterator[ChunkTask]:
    """:func:`iter_tasks` for HTML or Markdown inputs: each input is read whole (an element or a
    code block may span lines), its markup blanked out (:func:`.markup.mask`), and cut into tasks
    that audit the masked lines and show the source ones."""
    from .markup import mask

    for name, path in inputs:
        try:
            lines = list(read_lines(path, encoding, errors, max_line))
        except InputError as exc:
            problems.append(str(exc).replace(f"{path}:", f"{name}:", 1) if path != name else str(exc))
            if failed is not None:
                failed.add(name)
            continue
        masked = mask("\n".join(lines), markup).split("\n") if lines else []
        for first in range(0, max(len(lines), 1), chunk_lines):
            part = slice(first, first + chunk_lines)
            yield ChunkTask(name, first + 1, masked[part], backend, *options, shown=lines[part])


class RangeTask(NamedTuple):
    """Lines ``first_line``, … of ``source``: the ``length`` bytes at ``offset`` in the file ``path``.

    What the main process sends a worker instead of the lines themselves: the worker reads
    and decodes them (:func:`read_range`), so the main process stays nearly idle.  Only for
    regular files in an encoding in which a newline is the byte 0x0A; a range holds whole
    lines (the last may lack its newline at the end of the file, or be a line longer than
    ``max_line`` bytes, which the worker reports).
    """

    source: str
    path: str
    offset: int
    length: int
    first_line: int
    backend: str
    encoding: str
    errors: str
    max_line: int
    #: A directory on this machine where the worker may leave its rows in a file (see
    #: :func:`~.stream.audit_to_rows`); None: the rows come back in memory.
    spill_dir: str | None = None
    #: The audit's ``--reject-risky`` (:class:`~.core.ChunkTask`).
    reject_risky: bool = False
    #: The audit's migration preview and hosts rule (:class:`~.core.ChunkTask`).
    preview: str | None = None
    strict_hosts: bool | None = None


class Notice(NamedTuple):
    """A message about the inputs, passed along the tasks so that it is reported in input
    order whatever the engine; ``source`` (if not None) failed and is left out of the report."""

    source: str | None
    message: str
    backend: str


#: What :func:`audit_rows` takes.
Task = ChunkTask | RangeTask | Notice


def read_range(task: RangeTask) -> ChunkTask:
    """The lines of ``task`` as a :class:`~.core.ChunkTask`, decoded as :func:`~uts58_adapt._io.read_lines`
    does; raises InputError (the same messages, naming ``task.source``)."""
    name = task.source
    try:
        with open(task.path, "rb") as fh:
            fh.seek(task.offset)
            data = fh.read(task.length)
    except OSError as exc:
        raise InputError(f"{name}: read error: {exc.strerror}") from None
    if len(data) != task.length:
        raise InputError(f"{name}: read error: the file changed while it was read")
    lines: list[str] = []
    lineno = task.first_line - 1
    raw = io.BytesIO(data)
    try:
        while line := raw.readline(task.max_line + 1):
            lineno += 1
            if len(line) > task.max_line and not line.endswith(b"\n"):
                raise InputError(_too_long(name, lineno, task.max_line))
            lines.append(line.decode(task.encoding, task.errors).rstrip("\r\n"))
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{name}: cannot decode line {lineno} as {task.encoding} ({exc.reason} at byte {exc.start});"
            " try --encoding or --errors replace"
        ) from None
    return ChunkTask(name, task.first_line, lines, task.backend, task.reject_risky, task.preview, task.strict_hosts)


def audit_rows(task: Task) -> Rows:
    """Audit one task (the work a worker does for the CLI): the result as :class:`~.stream.Rows`,
    or a ``Rows`` with a ``problem`` for a :class:`Notice` or an input that cannot be read."""
    if isinstance(task, Notice):
        return Rows(task.source or "", 0, task.backend, 0, 0, 0, 0, b"", (), (), (), task.message)
    if isinstance(task, RangeTask):
        try:
            chunk = read_range(task)
        except InputError as exc:
            return Rows(task.source, task.first_line, task.backend, 0, 0, 0, 0, b"", (), (), (), str(exc))
        return audit_to_rows(chunk, task.spill_dir)
    return audit_to_rows(task)


@lru_cache(maxsize=8)
def _lines_pattern(n: int) -> re.Pattern[bytes]:
    return re.compile(b"(?:[^\n]*\n){%d}" % n)


def _ranges(name: str, path: str, chunk_lines: int, max_line: int, range_bytes: int) -> Iterator[tuple[int, int, int]]:
    """``(offset, length, first line)`` of the ranges of the file ``path``; raises InputError (cannot open or
    read, or the file is shorter at its end than when it was opened: it changed during the audit).

    Each range is ``chunk_lines`` whole lines, or fewer when they would pass ``range_bytes``
    (a longer line is a range of its own); the last range ends at the end of the file.
    Memory is bounded: a line with no newline within ``max_line`` bytes ends the file's
    last range there (the worker reports it as too long).  An empty file is one empty range.
    """
    pattern = _lines_pattern(chunk_lines)
    try:
        fh = open(path, "rb")  # noqa: SIM115
    except OSError as exc:
        raise InputError(f"{name}: cannot open: {exc.strerror}") from None
    with fh:
        try:
            size = os.fstat(fh.fileno()).st_size  # what a file cut while it is read falls short of
        except OSError:
            size = 0
        buf = b""
        base = 0  # the offset of buf in the file
        line = 1
        while True:
            try:
                block = fh.read(_BLOCK)
            except OSError as exc:
                raise InputError(f"{name}: read error: {exc.strerror}") from None
            buf = buf + block if buf else block
            pos = 0
            while m := pattern.match(buf, pos):
                yield base + pos, m.end() - pos, line
                line += chunk_lines
                pos = m.end()
            if len(buf) - pos > range_bytes:  # long lines: fewer than chunk_lines in a range
                cut = buf.rfind(b"\n", pos) + 1
                if cut > pos:
                    yield base + pos, cut - pos, line
                    line += buf.count(b"\n", pos, cut)
                    pos = cut
            buf = buf[pos:]
            base += pos
            if not block:
                if base + len(buf) < size:  # issue 33.5: audited in part, it must not pass for whole
                    raise InputError(
                        f"{name}: changed during the audit: {size} bytes when opened, {base + len(buf)} when read"
                    )
                if buf or base == 0:
                    yield base, len(buf), line
                return
            if len(buf) - (buf.rfind(b"\n") + 1) > max_line:  # a line too long: the worker says so
                yield base, len(buf), line
                return


def iter_report_tasks(
    paths: Sequence[str],
    sample: bool,
    backend: str,
    *,
    encoding: str = "utf-8",
    errors: str = "strict",
    max_line: int = MAX_LINE,
    chunk_lines: int = CHUNK_LINES,
    ranges: bool = True,
    range_bytes: int = RANGE_BYTES,
    spill_dir: str | None = None,
    reject_risky: bool = False,
    preview: str | None = None,
    strict_hosts: bool | None = None,
    markup: str = "text",
) -> Iterator[Task]:
    """The tasks of the CLI's audit of ``paths`` (and the sample corpus when asked), for :func:`audit_rows`.

    With ``ranges``, a regular file in an ASCII-compatible encoding is cut into
    :class:`RangeTask` objects (its workers read it); other inputs (stdin, a FIFO, UTF-16)
    are read here, as by :func:`iter_tasks`.  Every message about the inputs (a path that
    does not exist, an input that cannot be read) is a :class:`Notice` among the tasks,
    so the messages come out in input order whatever the engine.  An input that fails
    part-way may already have had some chunks audited: the caller leaves out every source
    named by a Notice or a failed range (the CLI does).  ``spill_dir``: where the workers of
    a :class:`RangeTask` may leave large results (:func:`~.stream.audit_to_rows`).
    ``reject_risky``, ``preview``, ``strict_hosts``: every task's (``--reject-risky``, the migration
    preview, ``--strict-hosts``: see :class:`~.core.ChunkTask`).  ``markup``: ``text``, ``html``,
    ``markdown`` or ``auto`` (from each input's suffix, :func:`.markup.markup_for`); an HTML or
    Markdown input is read whole here and audited over its text (:mod:`.markup`).
    """
    from .markup import markup_for

    if chunk_lines < 1:
        raise ValueError("chunk_lines must be at least 1")
    notes: list[str] = []
    by_bytes = ranges and _ascii_compatible(encoding)
    for name, path in resolve_inputs(paths, sample, notes):
        yield from (Notice(None, message, backend) for message in notes)
        notes.clear()
        kind = "text" if path == "-" and markup == "auto" else markup_for(name, markup)
        if by_bytes and path != "-" and _regular(path) and kind == "text":
            where = os.path.abspath(path)  # the workers' working directory may differ
            try:
                for offset, length, first in _ranges(name, path, chunk_lines, max_line, range_bytes):
                    yield RangeTask(
                        name,
                        where,
                        offset,
                        length,
                        first,
                        backend,
                        encoding,
                        errors,
                        max_line,
                        spill_dir,
                        reject_risky,
                        preview,
                        strict_hosts,
                    )
            except InputError as exc:
                yield Notice(name, str(exc), backend)
            continue
        failed: set[str] = set()
        yield from iter_tasks(
            [(name, path)],
            backend,
            encoding=encoding,
            errors=errors,
            problems=notes,
            chunk_lines=chunk_lines,
            max_line=max_line,
            failed=failed,
            reject_risky=reject_risky,
            preview=preview,
            strict_hosts=strict_hosts,
            markup=kind,
        )
        yield from (Notice(name if name in failed else None, message, backend) for message in notes)
        notes.clear()
    yield from (Notice(None, message, backend) for message in notes)


def _regular(path: str) -> bool:
    """Whether the workers can read ``path`` by name: a regular file, not one reached through
    an open file descriptor (``/dev/stdin < file`` would be the worker's own stdin)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode) and not Path(path).is_dir() and not _through_fd_link(path)
    except OSError:
        return False


def resolve_inputs(paths: Sequence[str], sample: bool, problems: list[str]) -> Iterator[tuple[str, str]]:
    """``(name in reports, path)`` for the sample corpus (when asked) and then each PATH.

    An input named twice is audited once, under the first name it was given: the same name
    twice, or the same file under other names (``f``, ``./f``, ``d/../f``, an absolute path,
    a symbolic or hard link to it, or reached through a directory), as told by its device
    and inode (issue 23.2).
    """
    seen: set[str] = set()
    files: set[tuple[int, int]] = set()

    def new(name: str, path: str) -> bool:
        if name in seen:
            return False
        seen.add(name)
        if path != "-":
            try:
                st = os.stat(path)
            except OSError:
                return True  # reading it will say what is wrong
            if stat.S_ISREG(st.st_mode):
                if (st.st_dev, st.st_ino) in files:
                    return False
                files.add((st.st_dev, st.st_ino))
        return True

    for name, path in sample_inputs() if sample else []:
        if new(name, path):
            yield name, path
    for path in expand_paths(paths, problems):
        if new(STDIN_NAME if path == "-" else path, path):
            yield STDIN_NAME if path == "-" else path, path


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


def _worker_init(parent: int | None = None) -> None:
    # Ctrl-C reaches the whole process group: the parent stops the workers, which
    # must not print a KeyboardInterrupt traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent is not None:
        watch_parent(parent)


def watch_parent(pid: int) -> None:
    """Exit this process as soon as the process ``pid`` (the one that started the pool) is gone.

    A worker killed with its parent would otherwise wait for work for ever, and keep the fork
    server and the resource tracker alive with it (issue 23.4: ``kill -KILL`` of the CLI).
    On Linux a pidfd tells at once; elsewhere the parent is looked for every second.
    """
    import threading

    pidfd = None
    try:
        pidfd = os.pidfd_open(pid)  # type: ignore[attr-defined,unused-ignore]  # Linux, Python 3.9+
    except ProcessLookupError:
        os._exit(1)  # already gone
    except (AttributeError, OSError):
        pass

    def wait() -> None:
        if pidfd is not None:
            import select

            select.select([pidfd], [], [])
        else:
            while True:
                time.sleep(1.0)
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                except PermissionError:
                    pass
        os._exit(1)

    threading.Thread(target=wait, name="uts58-parent-watch", daemon=True).start()


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
    return iter_pool(tasks, jobs, audit_chunk)


def iter_rows(tasks: Iterable[Task], jobs: int = 1) -> Generator[Rows, None, None]:
    """:func:`audit_rows` on each task (the CLI's tasks: :func:`iter_report_tasks`), as :func:`iter_local`."""
    return iter_pool(tasks, jobs, audit_rows)


def iter_pool(tasks: Iterable[T], jobs: int, work: Callable[[T], R]) -> Generator[R, None, None]:
    """``work`` (a picklable top-level function) on each task, in this process or a pool of
    up to ``jobs`` processes; the results in task order, as they arrive."""
    iterator = iter(tasks)
    jobs = min(jobs, max_workers())
    head = list(islice(iterator, max(jobs, 1)))
    if jobs <= 1 or len(head) <= 1:  # one chunk: not worth a process pool
        for task in _chain(head, iterator):
            yield work(task)
        return
    workers = min(jobs, len(head))
    window = max(2, workers * _WINDOW_PER_JOB)
    pending: deque[Future[R]] = deque()
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=pool_context(), initializer=_worker_init, initargs=(os.getpid(),)
    )
    try:
        for task in _chain(head, iterator):
            pending.append(pool.submit(work, task))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown(wait=True)


def _chain(head: list[T], rest: Iterator[T]) -> Iterator[T]:
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
        from .dask_engine import iter_work
    except ImportError as exc:
        raise _unavailable(exc) from exc
    return iter_work(tasks, audit_chunk, scheduler, connect_timeout, workers)


def iter_dask_rows(
    tasks: Iterable[Task],
    scheduler: str | None,
    connect_timeout: float = 30.0,
    workers: int | None = None,
    stall_timeout: float = 300.0,
) -> Iterator[Rows]:
    """:func:`audit_rows` on each task with Dask (the CLI's ``--engine dask``), as :func:`iter_dask`;
    a local cluster has at most :func:`max_workers` processes, as the local engine.  When no
    task finishes for ``stall_timeout`` seconds, :class:`DaskUnavailable` is raised."""
    try:
        from .dask_engine import iter_work
    except ImportError as exc:
        raise _unavailable(exc) from exc
    if workers is not None:
        workers = min(workers, max_workers())
    return iter_work(tasks, audit_rows, scheduler, connect_timeout, workers, stall_timeout)


def _unavailable(exc: ImportError) -> DaskUnavailable:
    return DaskUnavailable(
        f"the dask engine is not available ({exc}); install it with: pip install 'uts58_adapt[dask]'"
    )


def default_jobs(paths: Sequence[str]) -> int:
    """All cores when a directory is among the inputs, else one job."""
    if any(p != "-" and os.path.isdir(p) for p in paths):
        return os.cpu_count() or 1
    return 1
