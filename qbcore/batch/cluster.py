"""Running the screen's map over a Dask cluster: chunks of pairs out, rows back in input order.

An optional extra (``pip install 'qbcore[dask]'``). The batch process reads
the input and writes the result file as it does with local workers; only the
predictions run on the cluster, one task per chunk of pairs, with a bounded
number of chunks in flight so memory stays flat on any input. The cluster's
workers need qbcore installed. Each pair still meets the model's own budget;
the per-pair wall-clock guard and memory limit of local workers are not
applied there (a Dask worker's memory limit is the cluster's setting), and a
chunk whose worker is lost past Dask's retries becomes error rows.
"""

from collections import deque

from .resultlog import work_of

#: chunks in flight per worker thread of the cluster: enough to keep it busy while rows are written
IN_FLIGHT_PER_THREAD = 2


class ClusterError(Exception):
    """The cluster cannot be used; the message is one line."""


def _client(address):
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError("the dask extra is not installed: pip install 'qbcore[dask]'") from None
    if isinstance(address, Client):
        return address, False
    try:
        return Client(address, set_as_default=False), True
    except (OSError, ValueError) as exc:  # unreachable, refused, timed out, a malformed address
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def run_on_dask(source, log, written_one, address, *, screen_chunk, chunk_args, error_row):
    """Screen the chunks of ``source`` on the cluster at ``address``, writing rows in order to ``log``.

    ``screen_chunk(tasks, *chunk_args)`` runs on the cluster and gives a chunk's
    (seq, delivered, JSON line) rows; ``error_row(task, reason)`` is the
    (delivered, JSON line) of a pair whose chunk was lost.
    """
    client, owned = _client(address)
    try:
        threads = max(sum(client.nthreads().values()), 1)
        limit = IN_FLIGHT_PER_THREAD * threads
        in_flight = deque()

        def write_oldest():
            tasks, future = in_flight.popleft()
            try:
                rows = future.result()
            except Exception as exc:  # noqa: BLE001 - a lost chunk is its pairs' result, not the batch's end
                reason = f"crash: the cluster could not screen the chunk ({type(exc).__name__}: {exc})"[:500]
                rows = [(task[0],) + error_row(task, reason) for task in tasks]
            finally:
                future.release()
            for (_, meta, _, transport), (_, delivered, text) in zip(tasks, rows):
                log.append((meta["id"], transport), work_of(meta["reply_sha256"], meta["setup"]), delivered, text)
                written_one(delivered)
            log.flush()

        for tasks in source:
            # pure=False: two chunks with equal content are still two tasks, each with its rows
            in_flight.append((tasks, client.submit(screen_chunk, tasks, *chunk_args, pure=False)))
            while len(in_flight) >= limit:
                write_oldest()
        while in_flight:
            write_oldest()
    finally:
        if owned:
            client.close()

