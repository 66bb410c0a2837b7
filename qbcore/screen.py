"""Screening stored replies: every reply through every transport, one result line each.

The batch reads replies (bad lines reported, the rest kept), simulates each
(reply, transport) pair and appends the outcome to a resumable result file,
so a batch of thousands can be interrupted and started again.
"""

from dataclasses import dataclass, field

from . import transports as _transports
from .replies import BadLine, iter_replies
from .resultlog import ResultLog

#: What reached the inner shell, as far as the static model can tell.
DELIVERY = ("intact", "rewritten", "broken", "unknown")


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


def screen_one(record, transport: str, simulate) -> dict:
    """The result line for one stored reply under one transport."""
    simulation = simulate(record.reply, transport)
    return {
        "id": record.id, "task_id": record.task_id, "model": record.model,
        "contract": record.contract, "trial": record.trial, "transport": transport,
        "delivered": delivery(record.reply, transport, simulation),
        "inner_script": simulation.inner_script,
        "inner_args": list(simulation.inner_args),
        "exact": simulation.exact,
        "opaque": list(simulation.opaque),
        "outer_effects": _plain(list(simulation.outer_effects)),
        "outer_error": _plain(simulation.outer_error),
    }


@dataclass
class ScreenSummary:
    screened: int = 0
    skipped: int = 0
    bad_lines: list = field(default_factory=list)
    counts: dict = field(default_factory=dict)  # transport -> {delivery: n}


def screen(lines, transports, out_path, *, resume=True, simulate=None, on_result=None, attempt=0) -> ScreenSummary:
    """Screen every stored reply in ``lines`` under every transport into ``out_path`` (``attempt``:
    which attempt of a QuoteBench result record)."""
    if simulate is None:
        from .simulate import simulate
    summary = ScreenSummary(counts={t: dict.fromkeys(DELIVERY, 0) for t in transports})
    with ResultLog(out_path, resume=resume) as log:
        for item in iter_replies(lines, attempt=attempt):
            if isinstance(item, BadLine):
                summary.bad_lines.append(item)
                continue
            for transport in transports:
                if log.has(item.id, transport):
                    summary.skipped += 1
                    continue
                result = screen_one(item, transport, simulate)
                log.write(result)
                summary.screened += 1
                summary.counts[transport][result["delivered"]] += 1
                if on_result:
                    on_result(result)
    return summary
