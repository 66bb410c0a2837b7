"""Reading stored replies: JSONL, one record a line, bad lines reported and skipped.

A record is ``task_id`` and ``reply`` with optional ``id``, ``model``,
``contract`` (``raw`` or ``nested``) and ``trial``. QuoteBench result records,
which keep the reply under ``response`` or ``command``, are read too, and so
are the artifact's own result records and task manifests (``qbcore.batch.qbfiles``).
Lines are untrusted: length and JSON nesting are bounded before parsing.
"""

import json
import re
from dataclasses import dataclass, field
from typing import Iterator

CONTRACTS = ("raw", "nested")
_REPLY_KEYS = ("reply", "response", "command")
#: JSON nesting a line may have; records are flat, and the parser recurses per level
MAX_DEPTH = 64
#: bytes a line may have (a longer one is a bad line, read past without being held)
MAX_LINE_BYTES = 64 << 20
_BOM = "\ufeff"
# a JSON string, or a bracket outside strings: C-speed scanning even for a 50 MB line
_STRUCTURE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[{\]}]', re.S)


def json_depth(text: str, limit: int = MAX_DEPTH) -> int:
    """The nesting depth of JSON ``text``, counting no further than ``limit`` + 1."""
    depth = deepest = 0
    for match in _STRUCTURE.finditer(text):
        char = match.group()
        if char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif char in "]}":
            depth -= 1
    return deepest


def bounded_loads(text: str, limit: int = MAX_DEPTH):
    """``json.loads`` that refuses nesting deeper than ``limit`` (ValueError) instead of recursing."""
    # the depth is at most the number of opening brackets: a line with few needs no scan
    if text.count("[") + text.count("{") > limit and json_depth(text, limit) > limit:
        raise ValueError(f"JSON nested deeper than {limit} levels")
    return json.loads(text)


@dataclass(frozen=True)
class OverlongLine:
    """A line longer than the reader holds; only its size is kept."""
    size: int
    limit: int = MAX_LINE_BYTES


def read_lines(handle, max_bytes: int = MAX_LINE_BYTES):
    """The byte lines of a binary ``handle``; a line over ``max_bytes`` becomes an OverlongLine."""
    while True:
        line = handle.readline(max_bytes + 1)
        if not line:
            return
        if len(line) <= max_bytes or line.endswith(b"\n"):
            yield line
            continue
        size = len(line)
        while not line.endswith(b"\n"):
            line = handle.readline(1 << 20)
            if not line:
                break
            size += len(line)
        yield OverlongLine(size, max_bytes)


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
    if "\0" in reply:
        raise ValueError(f"the reply contains a NUL character at offset {reply.index(chr(0))}: "
                         "no harness can hand it to bash")
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
    if type(obj) is dict and "reply" in obj:  # a stored reply, the common case: neither kind below
        return [_record(obj, line)]
    from . import qbfiles

    if isinstance(obj, dict) and (qbfiles.is_result_record(obj) or qbfiles.is_manifest_row(obj)):
        return [_record({k: v for k, v in fields.items() if v is not None}, line)
                for fields in qbfiles.replies_of(obj, line, attempt)]
    return [_record(obj, line)]


def iter_replies(lines, *, attempt: int = 0) -> Iterator[StoredReply | BadLine]:
    """Yield a StoredReply or a BadLine for every non-blank line, in order (a QuoteBench result
    record gives its attempt ``attempt``, a manifest line its oracle and naive commands; a leading BOM is skipped)."""
    seen = {}
    for number, raw in enumerate(lines, start=1):
        if isinstance(raw, OverlongLine):
            yield BadLine(number, f"longer than {raw.limit} bytes ({raw.size})")
            continue
        if isinstance(raw, bytes):
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield BadLine(number, f"not valid UTF-8 at byte {exc.start}")
                continue
        if number == 1 and raw.startswith(_BOM):
            raw = raw[1:]
        if not raw.strip():
            continue
        try:
            records = _records(bounded_loads(raw), number, attempt)
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
        for item in iter_replies(read_lines(handle), attempt=attempt):
            (result.bad_lines if isinstance(item, BadLine) else result.replies).append(item)
    return result
