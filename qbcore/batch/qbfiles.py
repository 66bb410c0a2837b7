"""QuoteBench's own files read as stored replies: result records (``attempts[]``) and task manifests.

A result record of the artifact's ``run`` holds one attempt per try; the
reply screened or replayed is one attempt's command (the first by default).
Its contracts map onto qbcore's: ``raw`` and ``json`` replies ran as they
are (``raw``), a ``wrapped`` reply R ran as ``bash -c "R"`` (``nested``). A
manifest line (``quotebench export``) stands for the task's oracle and naive
commands.
"""

from __future__ import annotations

from typing import Any, Mapping

__all__ = ["CONTRACTS", "is_result_record", "is_manifest_row", "attempt_reply", "replies_of", "execution_transport"]

# the artifact's contract -> qbcore's name for how the reply was elicited
CONTRACTS = {"raw": "raw", "json": "raw", "wrapped": "nested"}
_WRAP_OPEN, _WRAP_CLOSE = 'bash -c "', '"'


def is_result_record(obj: Mapping) -> bool:
    return isinstance(obj.get("attempts"), list) and "reply" not in obj


def is_manifest_row(obj: Mapping) -> bool:
    return "oracle" in obj and "instruction" in obj and "reply" not in obj and "attempts" not in obj


def execution_transport(contract: str | None) -> str:
    """The transport the artifact's harness ran a reply of this contract under."""
    return "nested" if contract == "wrapped" else "raw"


def attempt_reply(record: Mapping, index: int) -> str:
    """The reply of attempt ``index`` (negative counts from the end): what the model wrote, after
    the artifact's cleanup and JSON decoding, without the ``wrapped`` contract's outer layer."""
    attempts = record["attempts"]
    if not attempts:
        raise ValueError("'attempts' is empty")
    try:
        attempt = attempts[index]
    except IndexError:
        raise ValueError(f"there is no attempt {index} (the record has {len(attempts)})") from None
    if not isinstance(attempt, dict):
        raise ValueError(f"attempt {index} is not a JSON object")
    command = attempt.get("command")
    if not isinstance(command, str):
        raise ValueError(f"attempt {index} has no string 'command'")
    if record.get("contract") == "wrapped" and attempt.get("error_class") != "contract-error":
        if not (command.startswith(_WRAP_OPEN) and command.endswith(_WRAP_CLOSE) and len(command) > 9):
            raise ValueError(f"attempt {index} of a wrapped record does not read bash -c \"R\"")
        return command[len(_WRAP_OPEN):-len(_WRAP_CLOSE)]
    return command


def replies_of(obj: Mapping, line: int, attempt: int = 0) -> list[dict[str, Any]]:
    """The stored replies a QuoteBench line stands for, as fields of a qbcore reply record."""
    if is_manifest_row(obj):
        task_id = obj.get("task_id")
        out = []
        for kind in ("oracle", "naive"):
            if isinstance(obj.get(kind), str):
                out.append({"task_id": task_id, "reply": obj[kind], "id": f"{task_id}:{kind}", "model": kind})
        return out
    contract = obj.get("contract")
    if contract is not None and contract not in CONTRACTS:
        raise ValueError(f"'contract' must be one of {', '.join(CONTRACTS)}, got {contract!r}")
    return [{"task_id": obj.get("task_id"), "reply": attempt_reply(obj, attempt), "id": f"line-{line}",
             "model": obj.get("model"), "contract": CONTRACTS.get(contract) if contract else None,
             "trial": obj.get("trial")}]
