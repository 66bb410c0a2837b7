"""Reading stored replies: JSONL, one record a line, bad lines reported and skipped.

A record is ``task_id`` and ``reply`` with optional ``id``, ``model``,
``contract`` (``raw`` or ``nested``) and ``trial``. QuoteBench result records,
which keep the reply under ``response`` or ``command``, are read too, and so
are the artifact's own result records and task manifests (``qbcore.qbfiles``).
"""

import json
from dataclasses import dataclass, field
from typing import Iterator

CONTRACTS = ("raw", "nested")
_REPLY_KEYS = ("reply", "response", "command")


@dataclass(frozen=True)
class StoredReply:
    task_id: str
    reply: str
    id: str
    model: str | None = None
    contract: str | None = None
    trial: int | None = None
    line: int = 0


@dataclass(frozen=True)
class BadLine:
    """A line that could not be read; the batch goes on without it."""
    line: int
    reason: str

    def __str__(self):
        return f"line {self.line}: {self.reason}"


@dataclass
class ReadResult:
    replies: list = field(default_factory=list)
    bad_lines: list = field(default_factory=list)


def _record(obj, line: int) -> StoredReply:
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object, got {type(obj).__name__}")
    task_id = obj.get("task_id", obj.get("task"))
    if not isinstance(task_id, str) or not task_id:
        raise ValueError("missing or non-string 'task_id'")
    reply = next((obj[k] for k in _REPLY_KEYS if k in obj), None)
    if not isinstance(reply, str):
        raise ValueError("missing or non-string 'reply'")
    contract = obj.get("contract")
    if contract is not None and contract not in CONTRACTS:
        raise ValueError(f"'contract' must be one of {', '.join(CONTRACTS)}, got {contract!r}")
    trial = obj.get("trial")
    if trial is not None and (not isinstance(trial, int) or isinstance(trial, bool)):
        raise ValueError("'trial' must be an integer")
    model = obj.get("model")
    if model is not None and not isinstance(model, str):
        raise ValueError("'model' must be a string")
    record_id = obj.get("id")
    if record_id is None:
        record_id = f"line-{line}"
    elif not isinstance(record_id, (str, int)) or isinstance(record_id, bool):
        raise ValueError("'id' must be a string or an integer")
    return StoredReply(task_id=task_id, reply=reply, id=str(record_id), model=model,
                       contract=contract, trial=trial, line=line)


def _records(obj, line: int, attempt: int) -> list[StoredReply]:
    from . import qbfiles

    if isinstance(obj, dict) and (qbfiles.is_result_record(obj) or qbfiles.is_manifest_row(obj)):
        return [_record({k: v for k, v in fields.items() if v is not None}, line)
                for fields in qbfiles.replies_of(obj, line, attempt)]
    return [_record(obj, line)]


def iter_replies(lines, *, attempt: int = 0) -> Iterator[StoredReply | BadLine]:
    """Yield a StoredReply or a BadLine for every non-blank line, in order (a QuoteBench result
    record gives its attempt ``attempt``, a manifest line its oracle and naive commands)."""
    seen = {}
    for number, raw in enumerate(lines, start=1):
        if isinstance(raw, bytes):
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield BadLine(number, f"not valid UTF-8 at byte {exc.start}")
                continue
        if not raw.strip():
            continue
        try:
            records = _records(json.loads(raw), number, attempt)
        except json.JSONDecodeError as exc:
            yield BadLine(number, f"not JSON: {exc.msg} at column {exc.colno}")
            continue
        except ValueError as exc:
            yield BadLine(number, str(exc))
            continue
        for record in records:
            if record.id in seen:
                yield BadLine(number, f"duplicate id {record.id!r} (first on line {seen[record.id]})")
                continue
            seen[record.id] = number
            yield record


def read_replies(path, *, attempt: int = 0) -> ReadResult:
    """Read a whole JSONL file of stored replies (bytes, so bad UTF-8 is a bad line, not a crash)."""
    result = ReadResult()
    with open(path, "rb") as handle:
        for item in iter_replies(handle, attempt=attempt):
            (result.bad_lines if isinstance(item, BadLine) else result.replies).append(item)
    return result
