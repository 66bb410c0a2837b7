"""Screening stored replies: every reply through every transport, one result line each.

Replies are untrusted, so each (reply, transport) pair is predicted in a worker
process under a wall-clock guard and a memory limit: a pair that hangs or
crashes its worker becomes an ``error`` row, the worker is replaced and the
batch goes on. Rows are written in input order to a resumable result file and
name the work they answer (the reply's hash, the options' hash), so a changed
reply is screened again.
"""

import hashlib
import json
import os
import signal
import time
from collections import deque
from dataclasses import dataclass, field

from ..harness import transports as _transports
from .replies import BadLine, iter_replies
from .resultlog import ResultLog, work_of
from .verdicts import Tally

#: What reached the inner shell, as far as the static model can tell.
DELIVERY = ("intact", "rewritten", "broken", "unknown")
#: The row of a pair the model gave no prediction for; ``error`` says why.
ERROR = "error"
OUTCOMES = DELIVERY + (ERROR,)

#: seconds one pair may take before its worker is stopped
TIMEOUT = 10.0
#: address space of one worker, in MiB (None: no limit)
MEMORY_MB = 2048
#: characters a row keeps of each field it reports (strings, and list items counted together)
MAX_TEXT = 16384
#: pairs a worker is handed at a time
CHUNK_PAIRS = 64
#: pairs a Dask task is handed at a time (a task costs the cluster about a millisecond)
DASK_CHUNK_PAIRS = 2048
#: reply characters a chunk carries at most (a larger reply goes alone)
CHUNK_CHARS = 1 << 20


def delivery(reply: str, transport: str, simulation) -> str:
    """``intact``: the inner shell gets the reply byte for byte and nothing ran outside;
    ``broken``: the outer layer failed; ``unknown``: not statically known; else ``rewritten``."""
    if simulation.outer_error is not None:
        return "broken"
    if not simulation.exact:
        return "unknown"
    expected = reply + "\n" if _transports.get(transport).adds_final_newline else reply
    if simulation.inner_script == expected and not simulation.outer_effects and not simulation.inner_args:
        return "intact"
    return "rewritten"


def reply_sha256(reply: str) -> str:
    """The hash that names a reply in result rows (lone surrogates kept, as JSON allows them)."""
    return hashlib.sha256(reply.encode("utf-8", "surrogatepass")).hexdigest()


def setup_of(options: dict) -> str:
    """A short hash of the options that shape a prediction, so a change redoes the work."""
    text = json.dumps(options, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


def _plain(value):
    if hasattr(value, "as_dict"):
        return value.as_dict()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _capped(value, budget: list):
    """``value`` within ``budget[0]`` characters (a string cut to a prefix, a list's tail dropped),
    and whether it was cut."""
    if isinstance(value, str):
        if len(value) <= budget[0]:
            budget[0] -= max(len(value), 1)
            return value, False
        kept = value[:max(budget[0], 0)]
        budget[0] = 0
        return kept, True
    if isinstance(value, list):
        out, cut = [], False
        for item in value:
            if budget[0] <= 0 or (type(item) is str and len(item) > budget[0]):
                return out, True  # a list loses whole items: a cut argument would pass for a real one
            item, item_cut = _capped(item, budget)
            out.append(item)
            cut = cut or item_cut
        return out, cut
    if isinstance(value, dict):
        out, cut = {}, False
        for key, item in value.items():
            out[key], item_cut = _capped(item, budget)
            cut = cut or item_cut
        return out, cut
    budget[0] -= 1
    return value, False


_REPORTED = ("inner_script", "inner_args", "opaque", "outer_effects", "outer_error")


def result_row(meta: dict, transport: str, simulation=None, *, reply: str = "", error: str | None = None,
               max_text: int = MAX_TEXT) -> dict:
    """The result row of one pair: the record's fields, the work's hashes, and the prediction or the error."""
    row = dict(meta)
    row["transport"] = transport
    if simulation is None:
        row.update(delivered=ERROR, error=error, inner_script=None, inner_args=None, exact=None,
                   opaque=None, outer_effects=None, outer_error=None, cut=[])
        return row
    row["delivered"] = delivery(reply, transport, simulation)
    row["error"] = None
    reported = {"inner_script": simulation.inner_script, "inner_args": list(simulation.inner_args),
                "opaque": list(simulation.opaque), "outer_effects": _plain(list(simulation.outer_effects)),
                "outer_error": _plain(simulation.outer_error)}
    cut = []
    for name in _REPORTED:
        value = reported[name]
        if value and not (type(value) is str and len(value) <= max_text):  # most fields need no walk
            value, was_cut = _capped(value, [max_text])
            if was_cut:
                cut.append(name)
        row[name] = value
        if name == "inner_args":
            row["exact"] = simulation.exact
    row["cut"] = cut
    return row


def _meta(record, reply_hash: str, setup: str) -> dict:
    return {"id": record.id, "line": record.line, "task_id": record.task_id, "model": record.model,
            "contract": record.contract, "trial": record.trial, "reply_sha256": reply_hash,
            "reply_chars": len(record.reply), "setup": setup}


def _clipped(text: str, limit: int = 500) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def screen_pair(meta: dict, reply: str, transport: str, simulate, options: dict, max_text: int = MAX_TEXT,
                judge=None):
    """(delivered, JSON line) for one pair; an exception of the model becomes an ``error`` row.
    ``judge`` (a ``verdicts.Judge``) adds the predicted and executed outcomes."""
    try:
        simulation = simulate(reply, transport, **options)
        row = result_row(meta, transport, simulation, reply=reply, max_text=max_text)
        if judge is not None:
            judge(row, reply, max_text)
    except MemoryError:
        row = result_row(meta, transport, error="memory: the prediction needed more than the worker may have")
    except RecursionError:
        row = result_row(meta, transport, error="recursion: the prediction nested too deeply")
    except Exception as exc:  # the model's failure on one reply is that reply's result, not the batch's end
        row = result_row(meta, transport, error=_clipped(f"exception: {type(exc).__name__}: {exc}"))
    return row["delivered"], json.dumps(row)


# -- the worker side ----------------------------------------------------------

def _die_with_parent(parent: int):
    """Linux: the worker is killed when the batch process dies, even while it is stuck."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the batch died before the request took effect
        os._exit(0)


def _serve(conn, progress, parent, simulate, options, max_text, memory_mb, judge=None):
    """A worker: predict the chunks it is sent, noting in ``progress`` which pair runs since when."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the batch process handles Ctrl-C
    _die_with_parent(parent)
    if memory_mb:
        import resource

        limit = memory_mb << 20
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    if simulate is None:
        from ..harness.simulate import simulate
    try:
        while True:
            message = conn.recv()
            if message is None:
                return
            serial, tasks = message
            out = []
            for index, (seq, meta, reply, transport) in enumerate(tasks):
                progress[2] = time.monotonic()
                progress[1] = index
                progress[0] = serial
                out.append((seq,) + screen_pair(meta, reply, transport, simulate, options, max_text, judge))
            conn.send(out)
    except EOFError:
        return
    except BaseException:  # a chunk too large to take or give back: the batch sees a crash
        os._exit(_CRASHED)


#: the exit status of a worker that could not receive or send a chunk
_CRASHED = 70


# -- the batch side -----------------------------------------------------------

class _Worker:
    def __init__(self, context, target_args):
        import ctypes

        self.conn, child = context.Pipe()
        self.progress = context.RawArray(ctypes.c_double, 3)
        self.progress[0] = -1
        self.process = context.Process(target=_serve, args=(child, self.progress, os.getpid()) + target_args,
                                       daemon=True)
        self.process.start()
        child.close()
        self.serial = 0
        self.tasks = None
        self.given_at = 0.0

    def give(self, serial, tasks):
        self.serial, self.tasks, self.given_at = serial, tasks, time.monotonic()
        self.conn.send((serial, tasks))

    def running(self):
        """(index of the pair under way, since when) in the current chunk."""
        while True:  # the worker writes time, index, serial in turn: read them back the other way
            since = self.progress[2]
            serial, index = int(self.progress[0]), int(self.progress[1])
            if since == self.progress[2]:
                break
        if serial == self.serial:
            return index, since
        return 0, self.given_at

    def stop(self):
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()

    def how_it_died(self) -> str:
        code = self.process.exitcode
        if code is not None and code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"crash: the worker was killed by {name}"
        if code == _CRASHED:
            return "crash: the worker could not take or give back its chunk (out of memory?)"
        return f"crash: the worker exited with status {code}"


@dataclass
class ScreenSummary:
    screened: int = 0
    skipped: int = 0
    errors: int = 0
    bad_lines: list = field(default_factory=list)
    damaged: list = field(default_factory=list)  # (line number, reason) in the result file
    superseded: int = 0  # rows in the result file that a later row for the same pair replaces
    counts: dict = field(default_factory=dict)  # transport -> {outcome: n}, latest row of each pair
    verdicts: dict | None = None  # verdicts.Tally.report, when pairs were judged


def _context():
    import multiprocessing

    # fork: the workers start with the loaded engine and any callable, at no cost per worker
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def screen(lines, transports, out_path, *, resume=True, simulate=None, jobs=None, timeout=TIMEOUT,
           memory_mb=MEMORY_MB, max_text=MAX_TEXT, cwd=None, listing=None, retry_errors=False,
           input_stat=None, on_bad_line=None, on_damaged=None, attempt=0, on_progress=None,
           dask=None, judge=None) -> ScreenSummary:
    """Screen every stored reply in ``lines`` under every transport into ``out_path``.

    ``simulate`` (default: qbcore's) runs in the workers; ``cwd`` and ``listing``
    are passed to it only when given; ``attempt`` picks the attempt of a QuoteBench
    result record; ``on_progress(pairs)`` is called as rows are written, with the
    pairs done so far (resumed ones included). ``dask``: a Dask scheduler's
    address (or a ``distributed.Client``) to run the pairs on instead of local
    workers (``qbcore.batch.cluster``); the result file is the same. ``judge``
    (a ``verdicts.Judge``) predicts, and executes when it verifies, the pairs of
    suite tasks in the workers; a pair it may execute has its execution's time
    on top of ``timeout``. Raises OutputError when the result file cannot be
    used or written.
    """
    options = {}
    if cwd is not None:
        options["cwd"] = cwd
    if listing is not None:
        options["listing"] = list(listing)
    shaping = {"cwd": cwd, "listing": options.get("listing")}
    if judge is not None:
        if judge.verify and dask is not None:
            raise ValueError("verifying runs the sandbox in local workers; it cannot run on a Dask cluster")
        shaping["judge"] = judge.setup()
        timeout += judge.execute_seconds
    setup = setup_of(shaping)
    tally = Tally() if judge is not None else None
    summary = ScreenSummary()
    jobs = max(1, jobs or _default_jobs())

    def bad_line(item):
        summary.bad_lines.append(item)
        if on_bad_line:
            on_bad_line(item)

    with ResultLog(out_path, resume=resume, not_same_as=input_stat, on_damaged=on_damaged,
                   valid_delivery=OUTCOMES, on_row=tally and tally.found) as log:
        summary.damaged = log.damaged
        sink = log if tally is None else tally.sink(log, judge)

        chunk_pairs = CHUNK_PAIRS if dask is None else DASK_CHUNK_PAIRS

        def chunks():
            tasks, chars, seq = [], 0, 0
            for item in iter_replies(lines, attempt=attempt):
                if isinstance(item, BadLine):
                    bad_line(item)
                    continue
                reply_hash = reply_sha256(item.reply)
                work = work_of(reply_hash, setup)
                meta = None
                for transport in transports:
                    found = log.done(item.id, transport, work)
                    if found is not None and not (retry_errors and found == ERROR):
                        summary.skipped += 1
                        continue
                    if meta is None:
                        meta = _meta(item, reply_hash, setup)
                        if tasks and chars + len(item.reply) > CHUNK_CHARS:
                            yield tasks
                            tasks, chars = [], 0
                        chars += len(item.reply)
                    tasks.append((seq, meta, item.reply, transport))
                    seq += 1
                    if len(tasks) >= chunk_pairs:
                        yield tasks
                        tasks, chars = [], 0
            if tasks:
                yield tasks

        def written(delivered):
            summary.screened += 1
            summary.errors += delivered == ERROR
            if on_progress is not None:
                on_progress(summary.screened + summary.skipped)

        if dask is not None:
            from .cluster import run_on_dask

            run_on_dask(chunks(), sink, written, dask, screen_chunk=screen_chunk,
                        chunk_args=(simulate, options, max_text, judge), error_row=_error_row)
        else:
            _run(chunks(), sink, written, jobs=jobs, timeout=timeout,
                 worker_args=(simulate, options, max_text, memory_mb, judge))
        summary.superseded = log.superseded
        summary.counts = log.counts(transports, OUTCOMES)
        if tally is not None:
            summary.verdicts = tally.report(transports)
    return summary


def _error_row(task, reason):
    _, meta, _, transport = task
    return ERROR, json.dumps(result_row(meta, transport, error=reason))


def screen_chunk(tasks, simulate, options, max_text, judge=None):
    """[(seq, delivered, JSON line)] for a chunk of (seq, meta, reply, transport) pairs."""
    if simulate is None:
        from ..harness.simulate import simulate
    return [(seq,) + screen_pair(meta, reply, transport, simulate, options, max_text, judge)
            for seq, meta, reply, transport in tasks]


def _run(source, log, written_one, *, jobs, timeout, worker_args):
    """Feed chunks to the workers, guard them, and write the rows in input order."""
    from multiprocessing.connection import wait

    context = _context()
    pending = deque()  # chunks to give again, after a worker was lost
    written = 0        # the next sequence number to write
    finished = {}      # seq -> (key, work, delivered, text), waiting for earlier ones
    window = jobs * CHUNK_PAIRS * 4  # bounds the rows held while an early pair is slow
    workers = [_Worker(context, worker_args) for _ in range(jobs)]
    idle = list(workers)
    busy = []
    serial = 0
    exhausted = False

    def store(seq, tasks_by_seq, delivered, text):
        _, meta, _, transport = tasks_by_seq
        key = (meta["id"], transport)
        finished[seq] = (key, work_of(meta["reply_sha256"], meta["setup"]), delivered, text)

    def lose(worker, reason_of):
        """The worker hung or died: its pair under way becomes an error row, the rest go again."""
        index, _ = worker.running()
        worker.stop()
        tasks = worker.tasks
        culprit = tasks[min(index, len(tasks) - 1)]
        reason = reason_of(worker)
        row = result_row(culprit[1], culprit[3], error=reason)
        store(culprit[0], culprit, ERROR, json.dumps(row))
        rest = tasks[:index] + tasks[index + 1:]
        if rest:
            pending.appendleft(rest)
        replacement = _Worker(context, worker_args)
        workers[workers.index(worker)] = replacement
        busy.remove(worker)
        idle.append(replacement)

    try:
        while True:
            while written in finished:
                key, work, delivered, text = finished.pop(written)
                log.append(key, work, delivered, text)
                written_one(delivered)
                written += 1
            log.flush()
            while idle and (pending or (not exhausted and len(finished) < window)):
                tasks = pending.popleft() if pending else next(source, None)
                if tasks is None:
                    exhausted = True
                    break
                worker = idle.pop()
                serial += 1
                worker.give(serial, tasks)
                busy.append(worker)
            if not busy:
                break  # everything given out came back and was written above
            now = time.monotonic()
            nearest = min(worker.running()[1] + timeout for worker in busy)
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy],
                         timeout=min(max(nearest - now, 0.01), 1.0))
            for worker in list(busy):
                if worker.conn in ready or worker.conn.poll():
                    try:
                        out = worker.conn.recv()
                    except (EOFError, OSError):
                        lose(worker, _Worker.how_it_died)
                        continue
                    by_seq = {t[0]: t for t in worker.tasks}
                    for seq, delivered, text in out:
                        store(seq, by_seq[seq], delivered, text)
                    worker.tasks = None
                    busy.remove(worker)
                    idle.append(worker)
                elif worker.process.sentinel in ready or not worker.process.is_alive():
                    lose(worker, _Worker.how_it_died)
                elif time.monotonic() - worker.running()[1] > timeout:
                    lose(worker, lambda w: f"timeout: no result within {timeout:g} s; the worker was stopped")
    finally:
        for worker in workers:
            try:
                worker.conn.send(None)
            except OSError:
                pass
        for worker in workers:
            worker.process.join(timeout=0.5 if worker in idle else 0)
            worker.stop()
