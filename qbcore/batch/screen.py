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
from collections import Counter, deque
from dataclasses import dataclass, field
from itertools import repeat
from operator import itemgetter

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
CHUNK_PAIRS = 256
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
    adds = _ADDS_FINAL_NEWLINE.get(transport)
    if adds is None:
        adds = _ADDS_FINAL_NEWLINE[transport] = _transports.get(transport).adds_final_newline
    expected = reply + "\n" if adds else reply
    if simulation.inner_script == expected and not simulation.outer_effects and not simulation.inner_args:
        return "intact"
    return "rewritten"


_ADDS_FINAL_NEWLINE: dict = {}


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


def _reported(simulation, max_text: int):
    """The reported fields of a prediction (in ``_REPORTED`` order), each within ``max_text``,
    and the names of those that were cut."""
    effects, outer_error = simulation.outer_effects, simulation.outer_error
    values = [simulation.inner_script, list(simulation.inner_args), list(simulation.opaque),
              _plain(list(effects)) if effects else [],
              outer_error if outer_error is None or type(outer_error) is str else _plain(outer_error)]
    cut = []
    for n, value in enumerate(values):
        kind = type(value)
        if not value or kind is str and len(value) <= max_text or kind is list and _short_strings(value, max_text):
            continue  # most fields need no walk
        values[n], was_cut = _capped(value, [max_text])
        if was_cut:
            cut.append(_REPORTED[n])
    return values, cut


def _short_strings(value, budget: int) -> bool:
    """Whether the list ``value`` holds only strings, which ``_capped`` keeps whole within ``budget``."""
    try:
        return len(value) + len("".join(value)) <= budget  # join refuses anything but strings
    except TypeError:
        return False


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
    (inner_script, inner_args, opaque, outer_effects, outer_error), cut = _reported(simulation, max_text)
    row.update(inner_script=inner_script, inner_args=inner_args, exact=simulation.exact, opaque=opaque,
               outer_effects=outer_effects, outer_error=outer_error, cut=cut)
    return row


_escape = json.encoder.encode_basestring_ascii


def _json(value) -> str:
    """``json.dumps(value)``, without the encoder's setup for the shapes a row mostly holds."""
    kind = type(value)
    if kind is str:
        return _escape(value)
    if value is None:
        return "null"
    if kind is list:
        if not value:
            return "[]"
        try:
            return "[" + ", ".join(map(_escape, value)) + "]"
        except TypeError:  # an item that is not a string
            pass
    return json.dumps(value)


def _field_text(value, max_text: int) -> tuple:
    """(JSON text, cut) of one reported field: ``json.dumps`` of what ``_reported`` keeps of it.

    A value whose JSON text is shorter than ``max_text`` is kept whole: ``_capped``
    counts at most one character of budget for each character of that text (a
    string's quotes pay for an empty one), so its budget never runs out."""
    kind = type(value)
    if not value or kind is str and len(value) <= max_text or kind is list and _short_strings(value, max_text):
        return _json(value), False
    if kind is not str:
        text = json.dumps(value)
        if len(text) < max_text:
            return text, False
    value, cut = _capped(value, [max_text])
    return _json(value), cut


def row_head(meta: dict) -> str:
    """The JSON text a pair's row starts with: the record's fields, shared by all its transports."""
    text = json.dumps(meta)
    return text[:-1] + ", " if meta else "{"


def row_text(head: str, transport: str, simulation, reply: str, max_text: int = MAX_TEXT,
             end: tuple = ((), "}")) -> tuple:
    """(delivered, JSON line) of a predicted pair: ``json.dumps(result_row(...))`` character for
    character, built from ``row_head(meta)`` without a dict per pair (the tests hold the two equal).
    ``end``: (names to add to ``cut``, the text after it), as ``Judge.row_end`` gives for a judged row."""
    delivered = delivery(reply, transport, simulation)
    cut = []
    script, args, opaque = simulation.inner_script, simulation.inner_args, simulation.opaque
    effects, outer_error = simulation.outer_effects, simulation.outer_error
    # the common shapes inline (a short string or nothing, empty lists); anything else through _field_text
    if script is None:
        script = "null"
    elif type(script) is str and len(script) <= max_text:
        script = _escape(script)
    else:
        script = _cut_text(script, max_text, "inner_script", cut)
    args = _cut_text(list(args), max_text, "inner_args", cut) if args else "[]"
    opaque = _cut_text(list(opaque), max_text, "opaque", cut) if opaque else "[]"
    effects = _cut_text(_plain(list(effects)), max_text, "outer_effects", cut) if effects else "[]"
    if outer_error is None:
        outer_error = "null"
    elif type(outer_error) is str and len(outer_error) <= max_text:
        outer_error = _escape(outer_error)
    else:
        outer_error = _cut_text(_plain(outer_error), max_text, "outer_error", cut)
    exact = simulation.exact
    exact = "true" if exact is True else "false" if exact is False else json.dumps(exact)
    return delivered, (f'{head}"transport": {_escape(transport)}, "delivered": "{delivered}", "error": null, '
                       f'"inner_script": {script}, "inner_args": {args}, "exact": {exact}, "opaque": {opaque}, '
                       f'"outer_effects": {effects}, "outer_error": {outer_error}, '
                       f'"cut": {_json(cut + list(end[0]) if end[0] else cut)}{end[1]}')


def _cut_text(value, max_text: int, name: str, cut: list) -> str:
    text, was_cut = _field_text(value, max_text)
    if was_cut:
        cut.append(name)
    return text


def _meta(record, reply_hash: str, setup: str) -> dict:
    return {"id": record.id, "line": record.line, "task_id": record.task_id, "model": record.model,
            "contract": record.contract, "trial": record.trial, "reply_sha256": reply_hash,
            "reply_chars": len(record.reply), "setup": setup}


def _clipped(text: str, limit: int = 500) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def screen_pair(meta: dict, reply: str, transport: str, simulate, options: dict, max_text: int = MAX_TEXT,
                head: str | None = None, judge=None):
    """(delivered, JSON line, verdict) for one pair; an exception of the model becomes an ``error`` row.
    ``head``: ``row_head(meta)``, when the caller has it already. ``judge`` (a ``verdicts.Judge``)
    adds the predicted and executed outcomes, and ``verdict`` is then the row's code in
    ``verdicts.VERDICTS`` (None for an error row, which the batch process completes)."""
    try:
        simulation = simulate(reply, transport, **options)
        if head is None:
            head = row_head(meta)
        if judge is None:
            return row_text(head, transport, simulation, reply, max_text) + (None,)
        if not judge.verify:  # the prediction's text is made once and ends every row of the same pair
            cut, end, verdict = judge.row_end(meta.get("task_id"), meta.get("reply_sha256"), reply, transport,
                                              max_text)
            return row_text(head, transport, simulation, reply, max_text, (cut, end)) + (verdict,)
        row = result_row(meta, transport, simulation, reply=reply, max_text=max_text)
        judge(row, reply, max_text)
        return row["delivered"], json.dumps(row), judge.verdict(row)
    except MemoryError:
        row = result_row(meta, transport, error="memory: the prediction needed more than the worker may have")
    except RecursionError:
        row = result_row(meta, transport, error="recursion: the prediction nested too deeply")
    except Exception as exc:  # the model's failure on one pair is that pair's result, not the batch's end
        row = result_row(meta, transport, error=_clipped(f"exception: {type(exc).__name__}: {exc}"))
    return row["delivered"], json.dumps(row), None


#: a row's ``delivered`` value as one byte, as workers report a chunk's outcomes
_CODE = {name: n for n, name in enumerate(OUTCOMES)}


def screen_block(tasks, simulate, options: dict, max_text: int = MAX_TEXT, progress=None, serial: int = 0,
                 judge=None) -> tuple:
    """(outcome codes, rows, verdicts) for a chunk of (seq, meta, reply, transport) pairs: one byte per
    pair (an index into OUTCOMES), the rows as JSON lines in one ASCII block, in the chunk's order, and
    with ``judge`` one byte per pair for the tally (an index into ``verdicts.VERDICTS``; an error row's
    byte means nothing), else None. ``progress`` (a worker's shared array) is told which pair of chunk
    ``serial`` runs since when."""
    codes = bytearray(len(tasks))
    verdicts = bytearray(len(tasks)) if judge is not None else None
    texts = []
    meta = head = None
    for index, (_, pair_meta, reply, transport) in enumerate(tasks):
        if pair_meta is not meta:  # a reply's pairs share their meta: its JSON is made once
            meta, head = pair_meta, row_head(pair_meta)
        if progress is not None:
            progress[2] = time.monotonic()
            progress[1] = index
            progress[0] = serial
        delivered, text, verdict = screen_pair(meta, reply, transport, simulate, options, max_text, head, judge)
        codes[index] = _CODE[delivered]
        if verdict is not None:
            verdicts[index] = verdict
        texts.append(text)
    texts.append("")
    return (bytes(codes), "\n".join(texts).encode("utf-8", "surrogatepass"),
            None if verdicts is None else bytes(verdicts))


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
    import gc

    gc.freeze()  # what the worker inherited stays out of its collections: less work, fewer pages copied
    try:
        while True:
            message = conn.recv()
            if message is None:
                return
            serial, tasks = message
            conn.send(screen_block(tasks, simulate, options, max_text, progress, serial, judge))
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
        self.chunks = deque()  # (serial, tasks) given and not answered yet, oldest first
        self.since = 0.0       # when the oldest of them began, as far as the batch can tell

    def give(self, serial, tasks, payload: bytes):
        """Send a chunk (``payload``: it pickled); it waits in the pipe while an earlier one runs."""
        if not self.chunks:
            self.since = time.monotonic()
        self.chunks.append((serial, tasks))
        self.conn.send_bytes(payload)

    def answered(self) -> list:
        """The oldest chunk's tasks, now that its rows came back; the next one begins."""
        _, tasks = self.chunks.popleft()
        self.since = time.monotonic()
        return tasks

    def running(self):
        """(index of the pair under way, since when) in the oldest chunk."""
        while True:  # the worker writes time, index, serial in turn: read them back the other way
            since = self.progress[2]
            serial, index = int(self.progress[0]), int(self.progress[1])
            if since == self.progress[2]:
                break
        if self.chunks and serial == self.chunks[0][0]:
            return index, since
        return 0, self.since

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
        superseding = set()  # seqs of pairs whose row replaces a row found on opening (resume only)

        def left_to_do(item, work, seq) -> list:
            """The transports of ``item`` whose work the result file does not hold yet, in order;
            the pairs from ``seq`` on that replace a row found on opening are noted."""
            todo = []
            for transport in every:
                found = log.done(item.id, transport, work)
                if found is not None and not (retry_errors and found == ERROR):
                    summary.skipped += 1
                    continue
                if (item.id, transport) in log.index:
                    superseding.add(seq + len(todo))
                todo.append(transport)
            return todo

        every = list(transports)

        def chunks():
            tasks, chars, seq = [], 0, 0
            index = log.index  # empty on a fresh file: then no pair needs asking about
            for item in iter_replies(lines, attempt=attempt):
                if isinstance(item, BadLine):
                    bad_line(item)
                    continue
                reply = item.reply
                reply_hash = reply_sha256(reply)
                todo = left_to_do(item, work_of(reply_hash, setup), seq) if index else every
                if not todo:
                    continue
                meta = _meta(item, reply_hash, setup)
                if tasks and chars + len(reply) > CHUNK_CHARS:
                    yield tasks
                    tasks, chars = [], 0
                chars += len(reply)
                while todo:  # a reply's pairs, split where a chunk is full
                    part, todo = todo[:chunk_pairs - len(tasks)], todo[chunk_pairs - len(tasks):]
                    tasks.extend(zip(range(seq, seq + len(part)), repeat(meta), repeat(reply), part))
                    seq += len(part)
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

        def judged_block(tasks, codes, data, verdicts):
            """The block with its error rows given the verdict fields, each row counted by the tally."""
            error = _CODE[ERROR]
            if error not in codes:
                tally.written_verdicts(list(map(itemgetter(1), tasks)), list(map(itemgetter(3), tasks)), verdicts)
                return data
            # rare: error rows are completed here and read back to be counted, all rows in order
            lines = data.decode("utf-8", "surrogatepass").split("\n")
            for n, ((_, meta, _, transport), code) in enumerate(zip(tasks, codes)):
                if code == error:
                    lines[n] = judge.error_row(lines[n])
                    tally.written((meta["id"], transport), lines[n])
                else:
                    tally.written_verdicts((meta,), (transport,), verdicts[n:n + 1])
            return "\n".join(lines).encode("utf-8", "surrogatepass")

        def write_block(tasks, codes, data, verdicts=None):
            """Append a chunk's rows, in order, and count them."""
            if tally is not None:
                data = judged_block(tasks, codes, data, verdicts or bytes(len(tasks)))
            counted = Counter(zip(map(itemgetter(3), tasks), codes))
            if superseding:
                for (seq, meta, _, transport), code in zip(tasks, codes):
                    if seq in superseding:
                        superseding.discard(seq)
                        counted[transport, code] -= 1
                        log.supersede((meta["id"], transport), work_of(meta["reply_sha256"], meta["setup"]),
                                      OUTCOMES[code])
            log.append_lines(data, {(transport, OUTCOMES[code]): n for (transport, code), n in counted.items()})
            summary.screened += len(tasks)
            summary.errors += codes.count(_CODE[ERROR])
            if on_progress is not None:
                on_progress(summary.screened + summary.skipped)

        if dask is not None:
            from .cluster import run_on_dask

            run_on_dask(chunks(), sink, written, dask, screen_chunk=screen_chunk,
                        chunk_args=(simulate, options, max_text, judge), error_row=_error_row)
        else:
            _run(chunks(), log, write_block, jobs=jobs, timeout=timeout,
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
    out, meta, head = [], None, None
    for seq, pair_meta, reply, transport in tasks:
        if pair_meta is not meta:
            meta, head = pair_meta, row_head(pair_meta)
        out.append((seq,) + screen_pair(meta, reply, transport, simulate, options, max_text, head, judge)[:2])
    return out


#: rows held at most while they wait for an earlier slow pair, in bytes (besides the bound in pairs)
WINDOW_BYTES = 32 << 20
#: chunks a worker is given at a time: the next one waits in its pipe, so it never waits for the batch
IN_FLIGHT = 2
#: the largest chunk (pickled) sent to a busy worker: the pipe holds it without blocking the batch
PREFETCH_BYTES = 32 << 10


def _run(source, log, write_block, *, jobs, timeout, worker_args):
    """Feed chunks to the workers, guard them, and write their rows in input order
    (``write_block(tasks, codes, data, verdicts)``, a chunk or a contiguous part of one at a time)."""
    from multiprocessing.connection import wait
    from multiprocessing.reduction import ForkingPickler

    context = _context()
    pending = deque()  # chunks to give again, after a worker was lost
    written = 0        # the next sequence number to write
    finished = {}      # first seq of a block -> (tasks, codes, data, verdicts), waiting for earlier ones
    held = [0, 0]      # pairs and bytes in ``finished``
    window = jobs * CHUNK_PAIRS * 4  # bounds the rows held while an early pair is slow
    workers = [_Worker(context, worker_args) for _ in range(jobs)]
    serial = 0
    exhausted = False
    ready_chunk = None  # (serial, tasks, payload) taken from the source, too large for a busy worker's pipe

    def store(tasks, codes, data, verdicts=None):
        finished[tasks[0][0]] = (tasks, codes, data, verdicts)
        held[0] += len(tasks)
        held[1] += len(data)

    def lose(worker, reason_of):
        """The worker hung or died: its pair under way becomes an error row, the rest go again."""
        index, _ = worker.running()
        worker.stop()
        (_, tasks), *queued = worker.chunks
        index = min(index, len(tasks) - 1)
        culprit = tasks[index]
        delivered, text = _error_row(culprit, reason_of(worker))
        store([culprit], bytes([_CODE[delivered]]), text.encode("utf-8", "surrogatepass") + b"\n")
        # each part is contiguous, so its rows come back as one block; the earliest go first
        for _, later in reversed(queued):
            pending.appendleft(later)
        if index + 1 < len(tasks):
            pending.appendleft(tasks[index + 1:])
        if index:
            pending.appendleft(tasks[:index])
        workers[workers.index(worker)] = _Worker(context, worker_args)

    def next_chunk():
        """(serial, tasks, the message that gives them) of the next chunk, or None at the end."""
        nonlocal ready_chunk, exhausted, serial
        if ready_chunk is not None:
            chunk, ready_chunk = ready_chunk, None
            return chunk
        tasks = pending.popleft() if pending else next(source, None)
        if tasks is None:
            exhausted = True
            return None
        serial += 1
        return serial, tasks, ForkingPickler.dumps((serial, tasks))

    try:
        while True:
            while written in finished:
                tasks, codes, data, verdicts = finished.pop(written)
                held[0] -= len(tasks)
                held[1] -= len(data)
                write_block(tasks, codes, data, verdicts)
                written += len(tasks)
            log.flush()
            for load in range(IN_FLIGHT):  # idle workers first, then a chunk more for the busy ones
                for worker in workers:
                    if len(worker.chunks) != load:
                        continue
                    if not (ready_chunk or pending or not exhausted and held[0] < window
                            and held[1] < WINDOW_BYTES):
                        break
                    chunk = next_chunk()
                    if chunk is None:
                        break
                    if load and len(chunk[2]) > PREFETCH_BYTES:
                        ready_chunk = chunk  # sent when a worker has nothing in flight
                        break
                    worker.give(*chunk)
            busy = [worker for worker in workers if worker.chunks]
            if not busy:
                break  # everything given out came back and was written above
            now = time.monotonic()
            nearest = min(worker.running()[1] + timeout for worker in busy)
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy],
                         timeout=min(max(nearest - now, 0.01), 1.0))
            for worker in busy:
                if worker.conn in ready or worker.conn.poll():
                    try:
                        codes, data, verdicts = worker.conn.recv()
                    except (EOFError, OSError):
                        lose(worker, _Worker.how_it_died)
                        continue
                    store(worker.answered(), codes, data, verdicts)
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
            worker.process.join(timeout=0 if worker.chunks else 0.5)
            worker.stop()
