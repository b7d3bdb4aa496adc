"""The Dask engine of ``uts58-adapt report`` (the optional extra: ``pip install 'uts58_adapt[dask]'``).

The work comes already partitioned, as for the local engine: by file, then by chunks
of lines (:class:`~.core.ChunkTask`).  Cutting a file between lines is safe because a
line break is Link_Term=Hard (UTS #58 §3.4.1): no link crosses it, so a chunk's links
are those it has inside the whole file.  Each chunk is one Dask task running the pure
function :func:`~.core.audit_chunk`, and the results come back in task order.

Only this module imports Dask; ``import uts58_adapt`` never does.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from itertools import islice

import dask

from .core import ChunkResult, ChunkTask, audit_chunk

__all__ = ["map_chunks"]

#: Tasks in flight per worker thread of a cluster: enough to keep workers busy, while
#: the memory held by pending chunks stays bounded on a large corpus.
WINDOW_PER_THREAD = 4
#: Tasks per ``dask.compute`` call with the local scheduler (bounded memory as well).
LOCAL_BATCH = 64
#: How long to wait for the scheduler when connecting.
CONNECT_TIMEOUT = "30s"


def map_chunks(tasks: Iterable[ChunkTask], scheduler: str | None = None) -> list[ChunkResult]:
    """Run :func:`~.core.audit_chunk` on each task with Dask; return the results in task order.

    ``scheduler`` is the address of a Dask scheduler (``tcp://host:8786``): a
    ``distributed.Client`` connects to it and the chunks run on its workers, which must be
    able to import ``uts58_adapt``.  ``None`` uses Dask's default local scheduler (the
    threaded one, unless the Dask configuration or a default ``Client`` says otherwise).
    A scheduler that cannot be reached raises
    :class:`~.runner.DaskUnavailable`, whose message names the address.
    """
    if scheduler is None:
        return _map_default(iter(tasks))
    return _map_distributed(iter(tasks), scheduler)


def _map_default(tasks: Iterator[ChunkTask]) -> list[ChunkResult]:
    results: list[ChunkResult] = []
    while batch := list(islice(tasks, LOCAL_BATCH)):
        jobs = [dask.delayed(audit_chunk, pure=False)(task) for task in batch]
        results.extend(dask.compute(*jobs))
    return results


def _map_distributed(tasks: Iterator[ChunkTask], address: str) -> list[ChunkResult]:
    from distributed import Client

    from .runner import DaskUnavailable

    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise DaskUnavailable(f"cannot connect to the Dask scheduler at {address}: {exc}") from exc
    results: list[ChunkResult] = []
    with client:
        threads = sum(client.nthreads().values()) or 1
        window = max(2, WINDOW_PER_THREAD * threads)
        pending: deque = deque()
        for task in tasks:
            pending.append(client.submit(audit_chunk, task, pure=False))
            if len(pending) >= window:
                results.append(pending.popleft().result())
        while pending:
            results.append(pending.popleft().result())
    return results
