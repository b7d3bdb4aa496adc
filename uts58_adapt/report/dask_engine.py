"""The Dask engine of ``uts58-adapt report`` (the optional extra: ``pip install 'uts58_adapt[dask]'``).

The work comes already partitioned, as for the local engine: by file, then by chunks
of lines (:class:`~.core.ChunkTask`).  Cutting a file between lines is safe because a
line break is Link_Term=Hard (UTS #58 §3.4.1): no link crosses it, so a chunk's links
are those it has inside the whole file.  Each chunk is one Dask task running the pure
function :func:`~.core.audit_chunk`, and the results come back in task order.

Only this module imports Dask; ``import uts58_adapt`` never does.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

import dask

from .core import ChunkResult, ChunkTask, audit_chunk

__all__ = ["map_chunks"]

#: Tasks in flight per worker thread of a cluster: enough to keep workers busy, while
#: the memory held by pending chunks stays bounded on a large corpus.
WINDOW_PER_THREAD = 4
#: Tasks per ``dask.compute`` call with the local scheduler (bounded memory as well).
LOCAL_BATCH = 64
#: How long to wait for the scheduler when connecting, in seconds (``--connect-timeout``).
CONNECT_TIMEOUT = 30.0


def map_chunks(
    tasks: Iterable[ChunkTask], scheduler: str | None = None, connect_timeout: float = CONNECT_TIMEOUT
) -> list[ChunkResult]:
    """Run :func:`~.core.audit_chunk` on each task with Dask; return the results in task order.

    ``scheduler`` is the address of a Dask scheduler (``tcp://host:8786``): a
    ``distributed.Client`` connects to it and the chunks run on its workers, which must be
    able to import ``uts58_adapt``.  ``None`` uses Dask's default local scheduler (the
    threaded one, unless the Dask configuration or a default ``Client`` says otherwise).
    A scheduler that cannot be reached, does not answer within ``connect_timeout``
    seconds, or is not a Dask scheduler raises :class:`~.runner.DaskUnavailable`,
    whose message names the address.
    """
    if scheduler is None:
        return _map_default(iter(tasks))
    return _map_distributed(iter(tasks), scheduler, connect_timeout)


def _map_default(tasks: Iterator[ChunkTask]) -> list[ChunkResult]:
    results: list[ChunkResult] = []
    while batch := list(islice(tasks, LOCAL_BATCH)):
        jobs = [dask.delayed(audit_chunk, pure=False)(task) for task in batch]
        results.extend(dask.compute(*jobs))
    return results


async def _identity(address: str, timeout: float) -> Any:
    from distributed.comm import connect

    comm = await connect(address, timeout=timeout)
    try:
        await comm.write({"op": "identity"})
        return await comm.read()
    finally:
        comm.abort()


def _probe(address: str, timeout: float) -> None:
    """Ask ``address`` who it is, within ``timeout`` seconds in all.

    ``distributed`` bounds the TCP connection by its timeout but not the handshake that
    follows: a server that accepts and never answers hangs ``Client()`` for ever (issue
    13.7).  So the whole exchange runs under one ``asyncio.wait_for``, on a thread of its
    own (the caller may be inside an event loop), before any ``Client`` exists; a
    ``Client`` that fails half-built would hang in ``__del__``.
    """
    from .runner import DaskUnavailable

    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(asyncio.run(asyncio.wait_for(_identity(address, timeout), timeout)))
        except BaseException as exc:  # noqa: BLE001 - reported below, whatever the peer sent
            outcome.append(exc)

    thread = threading.Thread(target=run, name="uts58-dask-probe", daemon=True)
    thread.start()
    thread.join(timeout + 5)
    where = f"the Dask scheduler at {address}"
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


def _map_distributed(tasks: Iterator[ChunkTask], address: str, connect_timeout: float) -> list[ChunkResult]:
    from distributed import Client

    from .runner import DaskUnavailable

    _probe(address, connect_timeout)
    try:
        client = Client(address, timeout=connect_timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise DaskUnavailable(f"cannot connect to the Dask scheduler at {address}: {exc}") from exc
    results: list[ChunkResult] = []
    with client:
        threads = sum(client.nthreads().values()) or 1
        window = max(2, WINDOW_PER_THREAD * threads)
        pending: deque[Any] = deque()
        for task in tasks:
            pending.append(client.submit(audit_chunk, task, pure=False))
            if len(pending) >= window:
                results.append(pending.popleft().result())
        while pending:
            results.append(pending.popleft().result())
    return results
