"""Verdicts on screened pairs: each (reply, transport) pair's predicted pass or fail, the executed one
when asked, whether they agree, and their tally as QuoteBench's crossover cells.

The predictor and the executor are given by the caller (``qbcore screen`` gives
``qbcore.predict.predict`` and the sandboxed ``qbcore.realbash.executor.run``),
as the simulator is: this layer only decides which pairs are judged and how,
and counts what the result file says. A ``Judge`` works in the screen's
workers, on each row before it is written; a ``Tally`` counts the latest row of
every pair in the batch process, without holding rows written by the run.
"""

from __future__ import annotations

import json
from collections import Counter, OrderedDict
from operator import itemgetter
from typing import Callable, Optional

from .. import suite
from .score import CELLS, Rate, crossover_metrics, points_text, rate_text

__all__ = ["VERIFY", "Judge", "Tally", "agree", "render_text"]

#: ``--verify`` modes: execute every pair, or only those the prediction left unknown
VERIFY = ("all", "unknown")
#: predictions a worker keeps, so the same (task, reply, transport) is predicted once
CACHE_PAIRS = 4096
#: what an error row of a suite task says for a prediction it could not get
_ERROR_WHY = "no prediction: the pair ended in an error row ({})"
_NOT_PREDICTED, _OUTSIDE = "not predicted", "outside the suite"
#: what the tally counts of a row besides its model, contract and transport: (predicted, executed, agree);
#: a worker names it by its index here, so the batch process counts a row without reading it back
VERDICTS = tuple((predicted, executed, agreed) for predicted in ("pass", "fail", "unknown", _OUTSIDE, _NOT_PREDICTED)
                 for executed in (None, "pass", "fail") for agreed in (None, True, False))
_VERDICT_CODE = {verdict: n for n, verdict in enumerate(VERDICTS)}


def agree(predicted: dict, executed: dict) -> Optional[bool]:
    """Whether a certain prediction is the executor's outcome: the same pass or fail, and the same
    failure class when the prediction names one. None when the prediction is not certain or the
    pair was not executed."""
    if not predicted or not predicted.get("certain") or not executed or executed.get("passed") is None:
        return None
    return predicted["passed"] == executed["passed"] and predicted.get("class") in (None, executed.get("class"))


def _known_tasks() -> frozenset:
    return frozenset(suite.ids())


def _fields(found, names) -> dict:
    data = found.as_dict() if hasattr(found, "as_dict") else dict(found)
    return {name: data.get(name) for name in names}


def _unknown(why: str) -> dict:
    return {"passed": None, "class": None, "certain": False, "why": why, "diff": None}


def _short(text, limit: int):
    if isinstance(text, str) and len(text) > limit:
        return text[:limit], True
    return text, False


def _kept(outcome: dict, words: str, limit: int) -> tuple:
    """``outcome`` (predicted or executed) with its ``words`` (why, reason) cut to ``limit``
    characters, and its ``diff`` to the entries whose strings fit in ``limit`` together (whole
    entries, as the screen cuts a list); whether either was cut."""
    text, cut = _short(outcome[words], limit)
    diff = outcome.get("diff")
    if diff:
        kept, used = [], 0
        for entry in diff:
            used += sum(len(value) for value in entry.values() if isinstance(value, str))
            if used > limit:
                break
            kept.append(entry)
        if len(kept) < len(diff):
            diff, cut = kept, True
    return dict(outcome, **{words: text, "diff": diff}), cut


class Judge:
    """Adds ``predicted`` (and, when verifying, ``executed`` and ``agree``) to the rows of suite tasks.

    ``predict(task_id, reply, transport)`` gives an object with ``as_dict()`` (or a
    dict) holding passed, class, certain, why; ``execute(task_id, reply, transport)``
    likewise passed, class, reason. ``verify``: None, ``all`` or ``unknown`` (only
    the pairs whose prediction is not certain). ``execute_seconds``: how much
    longer than the screen's per-pair limit a pair may take when it may be
    executed (the executor's own wall-clock limit and a sandbox start).
    """

    def __init__(self, predict: Callable, execute: Optional[Callable] = None, verify: Optional[str] = None,
                 execute_seconds: float = 0.0, cache_pairs: int = CACHE_PAIRS):
        if verify not in (None,) + VERIFY:
            raise ValueError(f"verify must be one of {', '.join(VERIFY)}, not {verify!r}")
        if verify and execute is None:
            raise ValueError("verifying needs an executor")
        self.predict, self.execute, self.verify = predict, execute, verify
        self.execute_seconds = execute_seconds if verify else 0.0
        self.cache_pairs = cache_pairs
        self._cache: OrderedDict = OrderedDict()
        self._known = None

    def __getstate__(self):  # sent to a worker or a cluster without what it learnt here
        state = dict(self.__dict__)
        state["_cache"], state["_known"] = OrderedDict(), None
        return state

    def setup(self) -> dict:
        """What of the judging shapes a row (part of the screen's ``setup`` hash)."""
        return {"predict": True, "verify": self.verify}

    def knows(self, task_id) -> bool:
        if self._known is None:
            self._known = _known_tasks()
        return task_id in self._known

    def __call__(self, row: dict, reply: str, max_text: int = 1 << 14):
        """Judge one pair, whose row (``task_id``, ``reply_sha256``, ``transport``) is given; changes ``row``."""
        if not self.knows(row.get("task_id")):
            row["predicted"] = None
            if self.verify:
                row["executed"] = row["agree"] = None
            return
        predicted = self._predicted(row["task_id"], row.get("reply_sha256"), reply, row["transport"])
        row["predicted"], cut = _kept(predicted, "why", max_text)
        if cut:
            row.setdefault("cut", []).append("predicted")
        if not self.verify:
            return
        executed = None
        if self.verify == "all" or not predicted["certain"]:
            executed, cut = _kept(self._executed(row["task_id"], reply, row["transport"]), "reason", max_text)
            if cut:
                row.setdefault("cut", []).append("executed")
        row["executed"] = executed
        row["agree"] = agree(predicted, executed)

    def _predicted(self, task_id, reply_hash, reply, transport) -> dict:
        return self._entry(task_id, reply_hash, reply, transport)[0]

    def _entry(self, task_id, reply_hash, reply, transport) -> list:
        """[the prediction's fields, its row text once made]: predicted once per (task, reply, transport)
        while it stays among the last ``cache_pairs``."""
        key = (task_id, reply_hash, transport) if reply_hash else None
        if key is not None:
            entry = self._cache.get(key)
            if entry is not None:
                self._cache.move_to_end(key)
                return entry
        try:
            found = _fields(self.predict(task_id, reply, transport), ("passed", "class", "certain", "why", "diff"))
            found["certain"] = bool(found["certain"])
            if not found["certain"]:
                found["passed"] = found["class"] = found["diff"] = None
        except MemoryError:
            found = _unknown("memory: the prediction needed more than the worker may have")
        except RecursionError:
            found = _unknown("recursion: the prediction nested too deeply")
        except Exception as exc:  # noqa: BLE001 - the model's failure on one pair is that pair's unknown
            found = _unknown(f"exception: {type(exc).__name__}: {exc}"[:500])
        entry = [found, None]
        if key is not None:
            self._cache[key] = entry
            if len(self._cache) > self.cache_pairs:
                self._cache.popitem(last=False)
        return entry

    def row_end(self, task_id, reply_hash, reply, transport, max_text: int = 1 << 14) -> tuple:
        """For a pair that is not verified: (what its prediction adds to the row's ``cut``, the JSON
        text that follows ``cut`` to the row's end, its code in ``VERDICTS``), as ``__call__`` and
        ``json.dumps`` make them; the text of a prediction seen before is not made again."""
        if self.verify:
            raise ValueError("a verified pair is judged on its row (Judge.__call__)")
        if not self.knows(task_id):
            return _OUTSIDE_END
        entry = self._entry(task_id, reply_hash, reply, transport)
        made = entry[1]
        if made is None or made[0] != max_text:
            predicted, cut = _kept(entry[0], "why", max_text)
            verdict = _VERDICT_CODE[_state(predicted["passed"]) or "unknown", None, None]
            made = entry[1] = (max_text, (("predicted",) if cut else (),
                                          ', "predicted": ' + json.dumps(predicted) + "}", verdict))
        return made[1]

    @staticmethod
    def verdict(row: dict) -> int:
        """The code in ``VERDICTS`` of a judged row."""
        return _VERDICT_CODE[_label(row)[3:]]

    def _executed(self, task_id, reply, transport) -> dict:
        try:
            return _fields(self.execute(task_id, reply, transport), ("passed", "class", "reason", "diff"))
        except Exception as exc:  # noqa: BLE001 - the pair is reported as not executed, the batch goes on
            return {"passed": None, "class": None, "reason": f"not executed: {type(exc).__name__}: {exc}"[:500],
                    "diff": None}

    def error_row(self, text: str) -> str:
        """An error row (the worker hung, died or raised) with the verdict fields the other rows have."""
        row = json.loads(text)
        if self.knows(row.get("task_id")):
            row["predicted"] = _unknown(_ERROR_WHY.format((row.get("error") or "")[:200]))
        else:
            row["predicted"] = None
        if self.verify:
            row["executed"] = row["agree"] = None
        return json.dumps(row)


_OUTSIDE_END = ((), ', "predicted": null}', _VERDICT_CODE[_OUTSIDE, None, None])
_OUTSIDE_CODES = frozenset(n for n, verdict in enumerate(VERDICTS) if verdict[0] == _OUTSIDE)


# -- the tally ----------------------------------------------------------------

#: task ids outside the suite that the summary names
_NAMED_OUTSIDE = 3


def _state(passed) -> Optional[str]:
    return None if passed is None else ("pass" if passed else "fail")


def _label(row: dict) -> tuple:
    """What the summary counts of a row: (model, contract, transport, predicted, executed, agree)."""
    if "predicted" not in row:
        predicted = _NOT_PREDICTED
    elif row["predicted"] is None:
        predicted = _OUTSIDE
    else:
        predicted = _state(row["predicted"].get("passed")) or "unknown"
    executed = row.get("executed")
    return (row.get("model") or "?", row.get("contract") or "?", row.get("transport"), predicted,
            _state(executed.get("passed")) if isinstance(executed, dict) else None, row.get("agree"))


class Tally:
    """Counts of the latest row of every pair: rows found in the result file (``found``, from
    ``ResultLog``) and rows this run writes (``sink``)."""

    def __init__(self):
        self.counts: Counter = Counter()
        self._opened: dict = {}  # key -> label of rows found on opening, which a later row may supersede
        self.outside: list = []  # task ids outside the suite, the first few

    def found(self, key, row: dict):
        label = _label(row)
        old = self._opened.get(key)
        if old is not None:
            self.counts[old] -= 1
        self._opened[key] = label
        self._count(label, row.get("task_id"))

    def written(self, key, text: str):
        row = json.loads(text)
        self._written(key, _label(row), row.get("task_id"))

    def written_verdicts(self, fields, transports, verdicts):
        """Count rows this run writes from what their workers judged, without reading the rows back:
        row n has the record ``fields[n]`` (its id, model, contract and task id), ``transports[n]`` and
        the code ``verdicts[n]`` in ``VERDICTS``."""
        if self._opened:  # resuming: a row may supersede one found on opening
            for row, transport, verdict in zip(fields, transports, verdicts):
                self._written((row["id"], transport), (row["model"] or "?", row["contract"] or "?", transport)
                              + VERDICTS[verdict], row["task_id"])
            return
        if not _OUTSIDE_CODES.isdisjoint(verdicts):
            for row, verdict in zip(fields, verdicts):
                if verdict in _OUTSIDE_CODES and len(self.outside) < _NAMED_OUTSIDE \
                        and row["task_id"] not in self.outside:
                    self.outside.append(row["task_id"])
        labels = Counter(zip(map(itemgetter("model"), fields), map(itemgetter("contract"), fields),
                             transports, verdicts))
        for (model, contract, transport, verdict), n in labels.items():
            self.counts[(model or "?", contract or "?", transport) + VERDICTS[verdict]] += n

    def _written(self, key, label, task_id):
        old = self._opened.pop(key, None)
        if old is not None:
            self.counts[old] -= 1
        self._count(label, task_id)

    def _count(self, label, task_id):
        self.counts[label] += 1
        if label[3] == _OUTSIDE and len(self.outside) < _NAMED_OUTSIDE and task_id not in self.outside:
            self.outside.append(task_id)

    def sink(self, log, judge: Judge):
        """``log`` as the screen writes to it, counting each row and completing error rows."""
        return _CountingLog(log, self, judge)

    def report(self, transports) -> dict:
        """The summary as plain data (what ``--format json`` prints under ``verdicts``)."""
        chosen = set(transports)
        counts = Counter({label: n for label, n in self.counts.items() if n and label[2] in chosen})
        per_transport = {}
        for transport in transports:
            mine = {label: n for label, n in counts.items() if label[2] == transport}
            entry = {state: sum(n for label, n in mine.items() if label[3] == state)
                     for state in ("pass", "fail", "unknown", _OUTSIDE, _NOT_PREDICTED)}
            entry["executed"] = {state: sum(n for label, n in mine.items() if label[4] == state)
                                 for state in ("pass", "fail")}
            entry["agree"] = sum(n for label, n in mine.items() if label[5] is True)
            entry["disagree"] = sum(n for label, n in mine.items() if label[5] is False)
            per_transport[transport] = entry
        judged = Counter()
        for label, n in counts.items():
            if label[3] in ("pass", "fail", "unknown"):
                judged[label] += n
        groups = []
        for model, contract in sorted({label[:2] for label in judged}, key=_group_order):
            groups.append(dict(model=model, contract=contract,
                               **_agreement({k: n for k, n in judged.items() if k[:2] == (model, contract)})))
        crossover = []
        for model in sorted({label[0] for label in judged}):
            cells = {}
            for cell, elicited, transport in CELLS:
                members = {k: n for k, n in judged.items() if k[:3] == (model, elicited, transport)}
                if members:
                    cells[cell] = members
            if cells:
                crossover.append(_crossover(model, cells))
        outside = sum(n for label, n in counts.items() if label[3] == _OUTSIDE)
        hints = []
        for task_id in self.outside:
            try:
                suite.get(task_id)
            except suite.UnknownTask as exc:
                hints.append(str(exc))
        return {"transports": per_transport, "groups": groups, "crossover": crossover,
                "overall": _agreement(judged), "verified": any(label[4] for label in judged),
                "outside_suite": {"pairs": outside, "tasks": list(self.outside), "hints": hints},
                "not_predicted": sum(n for label, n in counts.items() if label[3] == _NOT_PREDICTED)}


def _group_order(group) -> tuple:
    model, contract = group
    return model, {"raw": 0, "nested": 1}.get(contract, 2), contract


def _agreement(members: dict) -> dict:
    pairs = sum(members.values())
    decided = sum(n for label, n in members.items() if label[3] != "unknown")
    verified = sum(n for label, n in members.items() if label[5] is not None)
    agreeing = sum(n for label, n in members.items() if label[5] is True)
    executed = sum(n for label, n in members.items() if label[4] is not None)
    return {"pairs": pairs, "decided": decided, "decided_share": decided / pairs if pairs else None,
            "executed": executed, "verified": verified, "agreeing": agreeing,
            "agreement": agreeing / verified if verified else None}


def _crossover(model: str, cells: dict) -> dict:
    predicted, executed, out = {}, {}, {}
    for cell, members in cells.items():
        decided = {k: n for k, n in members.items() if k[3] != "unknown"}
        predicted[cell] = Rate(sum(n for k, n in decided.items() if k[3] == "pass"), sum(decided.values()))
        ran = {k: n for k, n in members.items() if k[4] is not None}
        if ran:
            executed[cell] = Rate(sum(n for k, n in ran.items() if k[4] == "pass"), sum(ran.values()))
        out[cell] = {"pairs": sum(members.values()), "predicted": predicted[cell].as_dict(),
                     "unknown": sum(n for k, n in members.items() if k[3] == "unknown"),
                     "executed": executed[cell].as_dict() if cell in executed else None,
                     "verified": sum(n for k, n in members.items() if k[5] is not None),
                     "agreeing": sum(n for k, n in members.items() if k[5] is True)}
    # metrics of executed cells only when every pair of them ran (--verify=unknown runs a biased part)
    complete = bool(executed) and all(cell in executed and executed[cell].total == out[cell]["pairs"]
                                      for cell in out)
    return {"model": model, "cells": out, "predicted": crossover_metrics(predicted),
            "executed": crossover_metrics(executed) if complete else None}


class _CountingLog:
    """The result log as the screen's writer sees it: every row counted, error rows completed."""

    def __init__(self, log, tally: Tally, judge: Judge):
        self._log, self._tally, self._judge = log, tally, judge

    def append(self, key, work, delivered: str, text: str):
        if delivered == "error":
            text = self._judge.error_row(text)
        self._tally.written(key, text)
        self._log.append(key, work, delivered, text)

    def flush(self):
        self._log.flush()


# -- the text summary ---------------------------------------------------------

def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "0/0"


def render_text(report: dict) -> str:
    """The verdicts' part of ``qbcore screen``'s summary."""
    lines = []
    verified = report["verified"]
    per_transport = report["transports"]
    if report["overall"]["pairs"]:  # some pair of a suite task was predicted
        width = max(9, max(len(t) for t in per_transport))
        head = f"{'predicted':<{width}}  {'pass':>9}  {'fail':>9}  {'unknown':>9}"
        if verified:
            head += f"  {'executed:':>9}  {'pass':>9}  {'fail':>9}  {'agree':>9}  {'disagree':>9}"
        lines.append(head)
        for transport, entry in per_transport.items():
            line = f"{transport:<{width}}  {entry['pass']:>9}  {entry['fail']:>9}  {entry['unknown']:>9}"
            if verified:
                line += (f"  {'':>9}  {entry['executed']['pass']:>9}  {entry['executed']['fail']:>9}"
                         f"  {entry['agree']:>9}  {entry['disagree']:>9}")
            lines.append(line)
    for entry in report["crossover"]:
        lines.append(f"crossover for {entry['model']} (elicited contract, transport; R = raw, N = nested): "
                     f"predicted passes of the decided pairs{', beside the executed ones' if verified else ''}")
        for cell, found in entry["cells"].items():
            text = f"  {cell}: {rate_text(found['predicted']):<24}  {found['unknown']} unknown"
            if found["executed"] is not None:
                text += f";  executed {rate_text(found['executed'])}"
                if found["executed"]["total"] < found["pairs"]:
                    text += f" (of the {found['executed']['total']} pairs run)"
            lines.append(text)
        for kind in ("predicted", "executed"):
            metrics = entry[kind]
            if metrics:
                shown = ", ".join(f"{name.replace('_', ' ')} {points_text(value)}" for name, value in metrics.items())
                lines.append(f"  {kind}: {shown}")
    if report["groups"]:
        width = max(5, max(len(g["model"]) for g in report["groups"]))
        lines.append(f"{'model':<{width}}  {'contract':<8}  {'decided':>16}  agreement")
        for group in report["groups"] + [dict(report["overall"], model="all", contract="")]:
            agreement = ("not verified" if not group["verified"] else
                         f"{group['agreeing']}/{group['verified']} ({100 * group['agreement']:.1f}%)")
            lines.append(f"{group['model']:<{width}}  {group['contract']:<8}  "
                         f"{_share(group['decided'], group['pairs']):>16}  {agreement}")
        lines.append("decided: certain predictions among the pairs screened;")
        lines.append("agreement: certain predictions that agree with the executor / certain predictions executed")
    outside = report["outside_suite"]
    if outside["pairs"]:
        lines.append(f"not predicted: {outside['pairs']} pairs whose task is not in the suite"
                     + (", among them:" if len(outside["tasks"]) == _NAMED_OUTSIDE else ":"))
        lines += [f"  {hint}" for hint in outside["hints"]]
    if report["not_predicted"]:
        lines.append(f"not predicted: {report['not_predicted']} rows screened without predictions (--no-predict)")
    return "\n".join(lines) + ("\n" if lines else "")
