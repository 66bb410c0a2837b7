"""Re-execute the commands of QuoteBench result records under a transport, in the sandbox.

Each record keeps the artifact's schema: every attempt's verdict fields are
replaced by qbcore's (adapter and contract errors are kept, as the
artifact's own replay keeps them), the record's ``passed``,
``attempts_used`` and ``first_error_class`` follow, and ``transport`` (plus
the input line, for resuming) is added. The reply run is the attempt's
reply (``qbcore.batch.qbfiles.attempt_reply``), so the same replies can be run raw
and nested. Records are written as they complete; an existing output is
resumed.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import Callable, Optional

from . import executor
from ..batch import qbfiles
from .. import suite
from ..harness import transports

__all__ = ["ReplaySummary", "replay"]

_KEPT_CLASSES = ("adapter-error", "contract-error")
_TAIL = 2000  # characters of stdout and stderr an attempt keeps, as the artifact's do


@dataclass
class ReplaySummary:
    records: int = 0
    attempts: int = 0
    resumed: int = 0
    bad_lines: list = field(default_factory=list)  # (line number, reason)


def _done_lines(out_path: str, transport: str) -> set[int]:
    done: set[int] = set()
    if not os.path.exists(out_path):
        return done
    with open(out_path, "rb") as handle:
        for raw in handle:
            try:
                row = json.loads(raw)
            except ValueError:
                continue  # a partial last line from an interrupted run
            if isinstance(row, dict) and row.get("transport") == transport and isinstance(row.get("source_line"), int):
                done.add(row["source_line"])
    return done


def _parse(raw: bytes, number: int):
    try:
        record = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"not valid UTF-8 at byte {exc.start}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc.msg} at column {exc.colno}") from None
    if not isinstance(record, dict) or not qbfiles.is_result_record(record):
        raise ValueError("not a QuoteBench result record (no 'attempts' list)")
    if not isinstance(record.get("task_id"), str):
        raise ValueError("missing or non-string 'task_id'")
    suite.get(record["task_id"])  # UnknownTask is a LookupError, reported below
    replies = []
    for index, attempt in enumerate(record["attempts"]):
        kept = isinstance(attempt, dict) and attempt.get("error_class") in _KEPT_CLASSES
        replies.append(None if kept else qbfiles.attempt_reply(record, index))
    if not replies:
        raise ValueError("'attempts' is empty")
    return record, replies


def _tail(data: bytes) -> str:
    return data.decode("utf-8", "replace")[-_TAIL:]


def _replayed(record: dict, attempts: dict, transport: str, number: int) -> dict:
    out_attempts = []
    for index, old in enumerate(record["attempts"]):
        attempt = attempts.get(index)
        if attempt is None:
            out_attempts.append(dict(old))
            continue
        out_attempts.append(dict(old, exit_code=-1 if attempt.exit_code is None else attempt.exit_code,
                                 stdout=_tail(attempt.stdout), stderr=_tail(attempt.stderr),
                                 timed_out=attempt.class_ == "timeout", passed=attempt.passed,
                                 reason=attempt.reason, error_class=attempt.class_,
                                 new_files=list(attempt.new_files)))
    return dict(record, attempts=out_attempts, attempts_used=len(out_attempts), passed=out_attempts[-1]["passed"],
                first_error_class=out_attempts[0]["error_class"], transport=transport,
                replayed_executor="qbcore", source_line=number)


def replay(source, transport: str, out_path: str, *, resume: bool = True, workers: Optional[int] = None,
           real_ssh: bool = False, on_progress: Optional[Callable[[int, int], None]] = None) -> ReplaySummary:
    """Replay every record of ``source`` (an iterable of byte lines) under ``transport`` into ``out_path``."""
    transport = transports.get(transport).name
    summary = ReplaySummary()
    done = _done_lines(out_path, transport) if resume else set()
    if not resume and os.path.exists(out_path):
        os.unlink(out_path)
    pending: dict[int, tuple[dict, dict, int]] = {}  # line -> (record, finished attempts, attempts left)
    jobs = []
    for number, raw in enumerate(source, start=1):
        if not raw.strip():
            continue
        try:
            record, replies = _parse(raw, number)
        except (ValueError, LookupError) as exc:
            summary.bad_lines.append((number, str(exc.args[0]) if exc.args else str(exc)))
            continue
        if number in done:
            summary.resumed += 1
            continue
        runnable = [(index, reply) for index, reply in enumerate(replies) if reply is not None]
        pending[number] = (record, {}, len(runnable))
        jobs += [executor.Job(record["task_id"], reply, transport, f"{number}:{index}", real_ssh)
                 for index, reply in runnable]
    total = len(jobs)
    with open(out_path, "a", encoding="utf-8") as out:
        def finish(number):
            record, attempts, _ = pending.pop(number)
            out.write(json.dumps(_replayed(record, attempts, transport, number), ensure_ascii=False) + "\n")
            out.flush()
            summary.records += 1

        for number in [n for n, (_, _, left) in pending.items() if left == 0]:
            finish(number)
        for job, attempt in (executor.run_many(jobs, workers=workers) if jobs else ()):
            number, index = map(int, job.label.split(":"))
            record, attempts, left = pending[number]
            attempts[index] = attempt
            pending[number] = (record, attempts, left - 1)
            summary.attempts += 1
            if on_progress:
                on_progress(summary.attempts, total)
            if left == 1:
                finish(number)
    return summary


def progress_bar(stream=sys.stderr) -> Callable[[int, int], None]:
    """A one-line progress bar on ``stream`` (only worth it on a terminal)."""
    def show(done: int, total: int):
        width = 30
        filled = width * done // max(total, 1)
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} attempts")
        if done == total:
            stream.write("\n")
        stream.flush()
    return show
