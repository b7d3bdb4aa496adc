"""The Dask engine of ``uts58-adapt report`` (the optional extra: ``pip install 'uts58_adapt[dask]'``).

The work comes already partitioned, as for the local engine: by file, then by chunks
of lines (:class:`~.core.ChunkTask`).  Cutting a file between lines is safe because a
line break is Link_Term=Hard (UTS #58 §3.4.1): no link crosses it, so a chunk's links
are those it has inside the whole file.  Each chunk is one Dask task running the pure
function :func:`~.core.audit_chunk`, and the results come back in task order.
The CLI runs :func:`~.runner.audit_rows` instead (:func:`iter_work`), on bigger tasks
(Dask spends milliseconds per task): byte ranges of the files for a local cluster, lines
for a remote one, and the changes come back as rendered rows.

The local cluster's workers are started with ``forkserver`` (Dask is imported once, in
the fork server), and with the settings of :data:`QUIET`.

Only this module imports Dask; ``import uts58_adapt`` never does.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any, TypeVar

import distributed  # noqa: F401  (the extra is there, or the engine is unavailable: errors.DaskUnavailable)

from .core import ChunkResult, ChunkTask, audit_chunk
from .errors import DaskUnavailable

__all__ = ["iter_chunks", "iter_work", "map_chunks"]

T = TypeVar("T")
R = TypeVar("R")

#: Tasks in flight per worker thread of a cluster: enough to keep workers busy, while
#: the memory held by pending chunks stays bounded on a large corpus.
WINDOW_PER_THREAD = 4
#: How long to wait for the scheduler when connecting, in seconds (``--connect-timeout``).
CONNECT_TIMEOUT = 30.0
#: How long a run may go without a task finishing before it fails, in seconds
#: (``--stall-timeout``): every worker gone, or all of them stuck (issue 23.4).  A task is
#: about a second of work (``runner.DASK_TASK``), a 16 MB line a minute or two.
STALL_TIMEOUT = 300.0
#: How often the stall check looks at the tasks in flight, in seconds.
_POLL = 1.0


def map_chunks(
    tasks: Iterable[ChunkTask],
    scheduler: str | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    workers: int | None = None,
) -> list[ChunkResult]:
    """Run :func:`~.core.audit_chunk` on each task with Dask; return the results in task order.

    ``scheduler`` is the address of a Dask scheduler (``tcp://host:8786``): a
    ``distributed.Client`` connects to it and the chunks run on its workers, which must be
    able to import ``uts58_adapt``.  ``None`` starts a ``distributed.LocalCluster`` of
    ``workers`` worker *processes* (default: one per core), one thread each, on
    127.0.0.1 with no dashboard, for this run only: Dask's default threaded scheduler
    would serialise the pure-Python audit on the GIL (issue 11.4).
    A scheduler that cannot be reached, does not answer within ``connect_timeout``
    seconds, or is not a Dask scheduler raises :class:`~.errors.DaskUnavailable`,
    whose message names the address.
    """
    return list(iter_chunks(tasks, scheduler, connect_timeout, workers))


def iter_chunks(
    tasks: Iterable[ChunkTask],
    scheduler: str | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    workers: int | None = None,
) -> Iterator[ChunkResult]:
    """:func:`map_chunks` as a generator: results in task order, as they arrive, none kept."""
    return iter_work(tasks, audit_chunk, scheduler, connect_timeout, workers)


def iter_work(
    tasks: Iterable[T],
    work: Callable[[T], R],
    scheduler: str | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    workers: int | None = None,
    stall_timeout: float = STALL_TIMEOUT,
) -> Iterator[R]:
    """``work`` (a top-level function the workers can import) on each task, as :func:`iter_chunks`.

    When no task finishes for ``stall_timeout`` seconds (every worker of the cluster died, or
    hangs), :class:`~.errors.DaskUnavailable` is raised, naming the timeout.
    """
    if scheduler is None:
        return _iter_local_cluster(iter(tasks), work, workers, stall_timeout)
    return _iter_distributed(iter(tasks), work, scheduler, connect_timeout, stall_timeout)


def _iter_local_cluster(
    tasks: Iterator[T], work: Callable[[T], R], workers: int | None, stall_timeout: float
) -> Iterator[R]:
    first = list(islice(tasks, 1))
    if not first:
        return
    import logging

    import dask
    from distributed import Client, LocalCluster

    n = max(1, workers if workers is not None else (os.cpu_count() or 1))
    with (
        dask.config.set({"distributed.worker.multiprocessing-method": _start_method(), **QUIET}),
        LocalCluster(
            n_workers=n,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            # The scheduler always serves a few HTTP routes (health, metrics): on loopback, any
            # free port (not 8787 on every interface); the dashboard itself is off.
            dashboard_address="127.0.0.1:0",
            scheduler_kwargs={"dashboard": False},
            silence_logs=logging.ERROR,
        ) as cluster,
        Client(cluster, set_as_default=False) as client,
    ):
        yield from _iter_client(client, _chain(first, tasks), work, stall_timeout)


#: Dask settings for the local cluster, whose processes share the machine with the audit:
#: no statistical profiler (it samples each worker's stack every 10 ms: a tenth of the
#: workers' CPU time, measured), and the event loops' periodic work (health ticks every
#: 20 ms, system and memory monitors) made rarer.  Idle, the cluster then costs about
#: 0.01 s of CPU per second instead of 0.11 (measured, 2 workers).
QUIET = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.tick.limit": "60s",
    "distributed.admin.system-monitor.interval": "10s",
    "distributed.worker.memory.monitor-interval": "1s",
}


def _start_method() -> str:
    """``forkserver`` where the platform has it: the fork server imports Dask once, not each
    worker; never ``fork`` (this process has threads)."""
    import multiprocessing

    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def _chain(head: list[T], rest: Iterator[T]) -> Iterator[T]:
    yield from head
    yield from rest


def _iter_client(client: Any, tasks: Iterator[T], work: Callable[[T], R], stall_timeout: float) -> Iterator[R]:
    threads = sum(client.nthreads().values()) or 1
    window = max(2, WINDOW_PER_THREAD * threads)
    pending: deque[Any] = deque()
    watch = _Stall(stall_timeout)
    for task in tasks:
        pending.append(client.submit(work, task, pure=False))
        if len(pending) >= window:
            yield watch.next_result(pending)
    while pending:
        yield watch.next_result(pending)


class _Stall:
    """The results in task order, failing when no task at all finishes for ``timeout`` seconds."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.last = time.monotonic()  # when a task last finished (or the run started)
        self.done = 0  # tasks in flight known to have finished

    def next_result(self, pending: deque[Any]) -> Any:
        head = pending[0]
        while True:
            try:
                result = head.result(timeout=_POLL)
            except TimeoutError:
                done = sum(1 for future in pending if future.done())
                now = time.monotonic()
                if done > self.done:
                    self.done, self.last = done, now
                elif now - self.last >= self.timeout:
                    self._fail()
                continue
            pending.popleft()
            self.done = max(0, self.done - 1)
            self.last = time.monotonic()
            return result

    def _fail(self) -> None:
        raise DaskUnavailable(
            f"no Dask task finished in {self.timeout:g} s (--stall-timeout): the workers died or hang;"
            " nothing was written"
        )


async def _identity(address: str, timeout: float) -> Any:
    from distributed.comm import connect

    comm = await connect(address, timeout=timeout)
    try:
        await comm.write({"op": "identity"})
        return await comm.read()
    finally:
        comm.abort()


def _refused(address: str, timeout: float) -> ConnectionRefusedError | None:
    """The error of a TCP connection to ``address`` that is refused at once (nothing listens
    there: ``distributed`` would retry until the connect timeout, issue 23.4), else None."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme not in ("tcp", "tls"):
            return None
        host, port = parse_host_port(location)
        with socket.create_connection((host, port), timeout=min(timeout, 5.0)):
            return None
    except ConnectionRefusedError as exc:
        return exc
    except (OSError, ValueError, TypeError):
        return None  # the probe that follows says what is wrong


def _probe(address: str, timeout: float) -> None:
    """Ask ``address`` who it is, within ``timeout`` seconds in all.

    ``distributed`` bounds the TCP connection by its timeout but not the handshake that
    follows: a server that accepts and never answers hangs ``Client()`` for ever (issue
    13.7).  So the whole exchange runs under one ``asyncio.wait_for``, on a thread of its
    own (the caller may be inside an event loop), before any ``Client`` exists; a
    ``Client`` that fails half-built would hang in ``__del__``.
    """
    where = f"the Dask scheduler at {address}"
    refused = _refused(address, timeout)
    if refused is not None:
        raise DaskUnavailable(f"cannot connect to {where}: connection refused (is the scheduler running?)")
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(asyncio.run(asyncio.wait_for(_identity(address, timeout), timeout)))
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=run, name="uts58-dask-probe", daemon=True)
    thread.start()
    thread.join(timeout + 5)
    if not outcome or isinstance(outcome[0], (TimeoutError, asyncio.TimeoutError)):
        raise DaskUnavailable(f"cannot connect to {where}: no answer within {timeout:g} s (--connect-timeout)")
    answer = outcome[0]
    if isinstance(answer, OSError):
        raise DaskUnavailable(f"cannot connect to {where}: {answer}")
    if isinstance(answer, (Exception, MemoryError)) or not (
        isinstance(answer, dict) and answer.get("type") == "Scheduler"
    ):
        detail = f" ({type(answer).__name__})" if isinstance(answer, BaseException) else ""
        raise DaskUnavailable(f"cannot connect to {where}: it does not answer as a Dask scheduler{detail}")


def _not_all_exit(record: Any) -> bool:
    """A logging filter: False for a record of ``distributed``'s ``AllExit`` (see ``_iter_distributed``)."""
    exc = record.exc_info[1] if record.exc_info else None
    return type(exc).__name__ != "AllExit"


def _iter_distributed(
    tasks: Iterator[T], work: Callable[[T], R], address: str, connect_timeout: float, stall_timeout: float
) -> Iterator[R]:
    from distributed import Client

    _probe(address, connect_timeout)
    try:
        client = Client(address, timeout=connect_timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise DaskUnavailable(f"cannot connect to the Dask scheduler at {address}: {exc}") from exc
    # As a local cluster's (silence_logs): the client's warnings about workers that died
    # ("Couldn't gather 1 keys, rescheduling") are not the CLI's; --stall-timeout reports them.
    import logging

    client_log = logging.getLogger("distributed.client")
    level = client_log.level
    client_log.setLevel(max(level, logging.ERROR))
    # A result still awaited when the client closes (the workers died) ends in AllExit, which
    # asyncio reports as "Task exception was never retrieved", with a traceback, when the
    # task is collected: that is the stall above, already reported.
    asyncio_log = logging.getLogger("asyncio")
    if _not_all_exit not in asyncio_log.filters:
        asyncio_log.addFilter(_not_all_exit)
    try:
        with client:
            yield from _iter_client(client, tasks, work, stall_timeout)
    finally:
        client_log.setLevel(level)
