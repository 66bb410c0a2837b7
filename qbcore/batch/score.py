"""QuoteBench's metrics over result records: control and hostile pass rates, the Quoting Gap, crossover cells.

Records are grouped by model (the adapter's name when the model is blank),
contract and the transport they ran under (``transport`` when a replay
wrote one, else the one the artifact's contract implies). Rates carry 95%
Wilson intervals. When a model's records hold raw- and nested-elicited
replies (contract ``raw`` / ``wrapped``) run raw and nested, the crossover
cells are RR, RN, NR, NN (elicited, executed); damage is RR−RN (what the
extra parser costs a reply written for raw), compensation NN−RN (what is
won back when the model is told about the layer), the matched gap RR−NN
(each reply under the layer it was written for) and the interaction
(RR−RN)−(NR−NN).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable

from . import qbfiles

__all__ = ["Rate", "wilson", "load", "score", "render_text", "CELLS", "crossover_metrics", "rate_text", "points_text"]

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Rate:
    passed: int
    total: int

    @property
    def value(self) -> float | None:
        return self.passed / self.total if self.total else None

    def interval(self) -> tuple[float, float] | None:
        return wilson(self.passed, self.total)

    def as_dict(self) -> dict:
        low_high = self.interval()
        return {"passed": self.passed, "total": self.total, "rate": self.value,
                "ci95": list(low_high) if low_high else None}


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval for k successes in n trials (None for n = 0)."""
    if n == 0:
        return None
    p = k / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return max(0.0, (centre - half) / denominator), min(1.0, (centre + half) / denominator)


@dataclass(frozen=True)
class Outcome:
    model: str
    contract: str
    transport: str
    task_id: str
    family: str
    tier: int
    passed: bool


def load(paths: Iterable[str]) -> tuple[list[Outcome], list[tuple[str, int, str]]]:
    """Every record of every file as an Outcome, and the bad lines as (file, line, reason).

    A (model, contract, transport, task, trial) seen again — the same reply
    replayed under the transport it already ran under — counts once: the
    last one read.
    """
    outcomes: dict = {}
    bad = []
    for path in paths:
        with open(path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                if not raw.strip():
                    continue
                try:
                    record = json.loads(raw.decode("utf-8"))
                    outcome = _outcome(record)
                except (ValueError, KeyError, TypeError) as exc:
                    bad.append((path, number, str(exc) or exc.__class__.__name__))
                    continue
                key = (outcome.model, outcome.contract, outcome.transport, outcome.task_id, record.get("trial"))
                outcomes.pop(key, None)
                outcomes[key] = outcome
    return list(outcomes.values()), bad


def _outcome(record) -> Outcome:
    if not isinstance(record, dict) or not qbfiles.is_result_record(record):
        raise ValueError("not a QuoteBench result record")
    if not isinstance(record.get("passed"), bool) or not isinstance(record.get("tier"), int):
        raise ValueError("'passed' and 'tier' are required")
    contract = record.get("contract") or "raw"
    task_id = record["task_id"]
    return Outcome(model=record.get("model") or record.get("adapter") or "?", contract=contract,
                   transport=record.get("transport") or qbfiles.execution_transport(contract), task_id=task_id,
                   family=record.get("scenario") or task_id.split("/")[0], tier=record["tier"],
                   passed=record["passed"])


def _rate(outcomes) -> Rate:
    outcomes = list(outcomes)
    return Rate(sum(o.passed for o in outcomes), len(outcomes))


def _diff(a: Rate, b: Rate) -> float | None:
    return None if a.value is None or b.value is None else a.value - b.value


def score(outcomes: list[Outcome]) -> dict:
    """The report as plain data (what --format json prints)."""
    groups = defaultdict(list)
    for o in outcomes:
        groups[(o.model, o.contract, o.transport)].append(o)
    report = {"groups": [], "crossover": []}
    for (model, contract, transport), members in sorted(groups.items()):
        control = _rate(o for o in members if o.tier == 0)
        hostile = _rate(o for o in members if o.tier > 0)
        families = {}
        for family in sorted({o.family for o in members}):
            inside = [o for o in members if o.family == family]
            families[family] = {"control": _rate(o for o in inside if o.tier == 0).as_dict(),
                                "hostile": _rate(o for o in inside if o.tier > 0).as_dict()}
        report["groups"].append({"model": model, "contract": contract, "transport": transport,
                                 "records": len(members), "control": control.as_dict(),
                                 "hostile": hostile.as_dict(), "quoting_gap": _diff(control, hostile),
                                 "families": families})
    for model in sorted({o.model for o in outcomes}):
        cells = {}
        for cell, elicited, transport in CELLS:
            contract = _QUOTEBENCH_CONTRACT[elicited]
            members = [o for o in outcomes if o.model == model and o.contract == contract
                       and o.transport == transport]
            if members:
                cells[cell] = _rate(members)
        if len(cells) < 2:
            continue
        entry = {"model": model, "cells": {k: v.as_dict() for k, v in sorted(cells.items())}}
        entry.update(crossover_metrics(cells))
        report["crossover"].append(entry)
    return report


#: the crossover's cells: (name, how the reply was elicited, the transport it ran under), qbcore's contract names
CELLS = (("RR", "raw", "raw"), ("RN", "raw", "nested"), ("NR", "nested", "raw"), ("NN", "nested", "nested"))
# qbcore's contract -> the artifact's name for it in result records
_QUOTEBENCH_CONTRACT = {"raw": "raw", "nested": "wrapped"}


def crossover_metrics(cells: dict) -> dict:
    """damage RR−RN, compensation NN−RN, matched gap RR−NN and the interaction (RR−RN)−(NR−NN), as
    fractions, from the cells' Rates; a metric whose cells are missing or empty is left out
    (the interaction is None when a cell is empty)."""
    get = cells.get
    out = {}
    for name, (a, b) in {"damage": ("RR", "RN"), "compensation": ("NN", "RN"), "matched_gap": ("RR", "NN")}.items():
        if get(a) and get(b):
            out[name] = _diff(get(a), get(b))
    if all(name in cells for name in ("RR", "RN", "NR", "NN")):
        damage, other = _diff(cells["RR"], cells["RN"]), _diff(cells["NR"], cells["NN"])
        out["interaction"] = None if damage is None or other is None else damage - other
    return out


def rate_text(rate: dict) -> str:
    """A Rate's dict as ``k/n pp.p% [low–high]`` (``n/a`` when empty)."""
    if not rate["total"]:
        return "n/a"
    low, high = rate["ci95"]
    return f"{rate['passed']}/{rate['total']} {100 * rate['rate']:5.1f}% [{100 * low:.0f}–{100 * high:.0f}]"


def points_text(value) -> str:
    """A difference of rates in points (``n/a`` when unknown)."""
    return "n/a" if value is None else f"{100 * value:+.1f} pts"


def render_text(report: dict) -> str:
    lines = []
    for group in report["groups"]:
        lines.append(f"{group['model']}  contract={group['contract']}  transport={group['transport']}  "
                     f"({group['records']} records)")
        lines.append(f"  control : {rate_text(group['control'])}")
        lines.append(f"  hostile : {rate_text(group['hostile'])}")
        lines.append(f"  Quoting Gap (control − hostile): {points_text(group['quoting_gap'])}")
        width = max(len(f) for f in group["families"])
        for family, rates in group["families"].items():
            lines.append(f"    {family:<{width}}  control {rate_text(rates['control']):<26}  "
                         f"hostile {rate_text(rates['hostile'])}")
        lines.append("")
    for entry in report["crossover"]:
        lines.append(f"crossover for {entry['model']} (elicited, executed; R = raw, N = nested):")
        for cell, rate in entry["cells"].items():
            lines.append(f"  {cell}: {rate_text(rate)}")
        for name in ("damage", "compensation", "matched_gap", "interaction"):
            if name in entry:
                lines.append(f"  {name.replace('_', ' ')}: {points_text(entry[name])}")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
