"""Verdicts in `screen`: every pair of a suite task carries its predicted outcome; with verification the
executed one and whether they agree; the summary counts them into the crossover cells, across resumes."""

import json
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

import sandboxing
from predicting import UNDECIDED
from qbcore import suite
from qbcore.batch.screen import ERROR, screen, screen_chunk
from qbcore.batch.verdicts import Judge, Tally, agree, render_text
from qbcore.predict import predict
from qbcore.realbash import executor

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "qbcore" / "batch" / "data" / "sample_replies.jsonl"
FIELDS = {"passed", "class", "certain", "why", "diff"}


def samples():
    return [json.loads(line) for line in open(SAMPLES)]


def jsonl(records):
    return [json.dumps(r) + "\n" for r in records]


def rows(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


# -- substitutes for the model and the executor, to make any outcome on demand -----------------
# They are passed to screen() as any caller passes them, so no production code knows these replies.

def fake_predict(task_id, reply, transport):
    """Certain pass for `good`, certain fail for `bad`, unknown otherwise."""
    if reply.startswith("good"):
        return {"passed": True, "class": "pass", "certain": True, "why": "fake: good"}
    if reply.startswith("bad"):
        return {"passed": False, "class": "tool-error", "certain": True, "why": "fake: bad"}
    return {"passed": None, "class": None, "certain": False, "why": "fake: not modelled"}


def fake_execute(task_id, reply, transport):
    """Passes whatever ends in `passes`; a `good ... fails` reply is a disagreement."""
    if reply.endswith("passes"):
        return SimpleNamespace(as_dict=lambda: {"passed": True, "class": "pass", "reason": "fake run"})
    return SimpleNamespace(as_dict=lambda: {"passed": False, "class": "tool-error", "reason": "fake run"})


def raising_predict(task_id, reply, transport):
    raise RuntimeError("a bug in the predictor")


def test_every_row_of_the_bundled_samples_carries_the_prediction(tmp_path):
    out = tmp_path / "out.jsonl"
    transports = ["raw", "nested", "heredoc-ssh"]
    records = samples() + [UNDECIDED]
    summary = screen(jsonl(records), transports, out, judge=Judge(predict), jobs=2)
    found = rows(out)
    by_pair = {(r["id"], r["transport"]): r for r in found}
    assert len(found) == len(records) * len(transports)
    for record in records:
        for transport in transports:
            row = by_pair[record["id"], transport]
            assert set(row["predicted"]) == FIELDS and "executed" not in row
            assert row["predicted"] == predict(record["task_id"], record["reply"], transport).as_dict()
    assert by_pair["sample-01", "raw"]["predicted"] == {
        "passed": True, "class": "pass", "certain": True, "why": "the final state is the one the task asks for",
        "diff": []}
    ssh = by_pair["sample-01", "heredoc-ssh"]["predicted"]
    assert ssh["passed"] is True and ssh["certain"]
    # a damaged sed script: GNU sed's "unknown command", nothing changed
    damaged = by_pair["sample-43", "raw"]["predicted"]
    assert (damaged["passed"], damaged["class"], damaged["certain"]) == (False, "tool-error", True)
    # a new shell whose script holds text the model does not know
    left = by_pair[UNDECIDED["id"], "heredoc-ssh"]["predicted"]
    assert left["passed"] is None and not left["certain"] and "bash" in left["why"]
    # the summary counts what the rows say
    cells = {c["model"]: c["cells"] for c in summary.verdicts["crossover"]}
    for model in ("model-a", "model-b"):
        for cell, contract, transport in (("RR", "raw", "raw"), ("RN", "raw", "nested"),
                                          ("NR", "nested", "raw"), ("NN", "nested", "nested")):
            mine = [r["predicted"] for r in found
                    if (r["model"], r["contract"], r["transport"]) == (model, contract, transport)]
            decided = [p for p in mine if p["certain"]]
            assert cells[model][cell]["predicted"]["passed"] == sum(p["passed"] for p in decided)
            assert cells[model][cell]["predicted"]["total"] == len(decided)
            assert cells[model][cell]["unknown"] == len(mine) - len(decided)
    assert summary.verdicts["transports"]["heredoc-ssh"]["unknown"] == sum(
        not r["predicted"]["certain"] for r in found if r["transport"] == "heredoc-ssh") > 0


def test_the_samples_hold_what_the_crossover_needs():
    kinds = Counter((r["model"], r["contract"]) for r in samples())
    assert set(kinds) == {(m, c) for m in ("model-a", "model-b") for c in ("raw", "nested")}
    assert all(suite.get(r["task_id"]) for r in samples())


def test_a_task_outside_the_suite_is_not_predicted_and_is_named(tmp_path):
    out = tmp_path / "out.jsonl"
    lines = jsonl([{"id": "typo", "task_id": "sed-replace/t9", "reply": "true"},
                   {"id": "known", "task_id": "sed-replace/t0-plain", "reply": "true"}])
    summary = screen(lines, ["raw"], out, judge=Judge(predict))
    found = {r["id"]: r for r in rows(out)}
    assert found["typo"]["predicted"] is None and found["typo"]["delivered"] == "intact"
    assert found["known"]["predicted"]["passed"] is False
    outside = summary.verdicts["outside_suite"]
    assert outside["pairs"] == 1 and outside["tasks"] == ["sed-replace/t9"]
    with pytest.raises(suite.UnknownTask) as unknown:
        suite.get("sed-replace/t9")
    assert outside["hints"] == [str(unknown.value)] and "did you mean sed-replace/" in outside["hints"][0]
    assert render_text(summary.verdicts).endswith("not predicted: 1 pairs whose task is not in the suite:\n"
                                                  f"  {outside['hints'][0]}\n")


@pytest.mark.parametrize("reply, why", [("while :; do :; done", "loop beyond the evaluation limit"),
                                        ("printf '%*s' 2000000000 x > data.txt", "printf")])
def test_a_runaway_reply_ends_as_unknown_not_as_a_hang(tmp_path, reply, why):
    out = tmp_path / "out.jsonl"
    lines = jsonl([{"id": "runaway", "task_id": "sed-replace/t0-plain", "reply": reply},
                   {"id": "after", "task_id": "sed-replace/t0-plain", "reply": "true"}])
    summary = screen(lines, ["raw", "nested"], out, judge=Judge(predict), timeout=60)
    found = {(r["id"], r["transport"]): r for r in rows(out)}
    assert summary.errors == 0 and len(found) == 4
    for transport in ("raw", "nested"):
        predicted = found["runaway", transport]["predicted"]
        assert predicted["passed"] is None and not predicted["certain"] and why in predicted["why"]
        assert found["after", transport]["predicted"]["certain"]


def failing_simulate(reply, transport, **options):
    if reply == "hang":
        time.sleep(3600)
    raise RuntimeError("a bug in the simulator")


@pytest.mark.parametrize("reply, error", [("raise", "exception: RuntimeError"), ("hang", "timeout: no result")])
def test_an_error_row_of_a_suite_task_carries_an_unknown_prediction(tmp_path, reply, error):
    out = tmp_path / "out.jsonl"
    lines = jsonl([{"id": "e", "task_id": "sed-replace/t0-plain", "reply": reply}])
    summary = screen(lines, ["raw"], out, judge=Judge(predict, fake_execute, "all"), jobs=1, timeout=1,
                     simulate=failing_simulate)
    row = rows(out)[0]
    assert row["delivered"] == ERROR and row["error"].startswith(error)
    assert row["executed"] is None and row["agree"] is None
    assert row["predicted"]["certain"] is False and row["predicted"]["passed"] is None
    assert row["predicted"]["why"].startswith(f"no prediction: the pair ended in an error row ({error}")
    assert summary.verdicts["transports"]["raw"]["unknown"] == 1


def test_a_predictor_that_raises_leaves_the_pair_unknown_and_the_row_intact(tmp_path):
    out = tmp_path / "out.jsonl"
    screen(jsonl([{"id": "a", "task_id": "sed-replace/t0-plain", "reply": "true"}]), ["raw"], out,
           judge=Judge(raising_predict))
    row = rows(out)[0]
    assert row["delivered"] == "intact"
    assert row["predicted"] == {"passed": None, "class": None, "certain": False,
                                "why": "exception: RuntimeError: a bug in the predictor", "diff": None}


# -- agreement ------------------------------------------------------------------------

def test_agreement_is_pass_or_fail_and_the_class_when_one_is_predicted():
    passed = {"passed": True, "class": "pass", "certain": True}
    failed = {"passed": False, "class": None, "certain": True}
    assert agree(passed, {"passed": True, "class": "pass"}) is True
    assert agree(passed, {"passed": False, "class": "tool-error"}) is False
    assert agree(failed, {"passed": False, "class": "silent-wrong"}) is True  # no class predicted
    assert agree(dict(failed, **{"class": "tool-error"}), {"passed": False, "class": "silent-wrong"}) is False
    assert agree({"passed": None, "class": None, "certain": False}, {"passed": True, "class": "pass"}) is None
    assert agree(passed, None) is None and agree(passed, {"passed": None, "class": None}) is None


def _fake_lines():
    return jsonl([{"id": "agrees", "task_id": "sed-replace/t0-plain", "reply": "good, passes", "model": "m",
                   "contract": "raw"},
                  {"id": "disagrees", "task_id": "sed-replace/t0-plain", "reply": "good, fails", "model": "m",
                   "contract": "raw"},
                  {"id": "unknown", "task_id": "sed-replace/t0-plain", "reply": "other, passes", "model": "m",
                   "contract": "raw"},
                  {"id": "outside", "task_id": "t", "reply": "good, passes", "model": "m", "contract": "raw"}])


@pytest.mark.parametrize("verify", ["all", "unknown"])
def test_verification_and_agreement_with_a_substitute_executor(tmp_path, verify):
    out = tmp_path / "out.jsonl"
    summary = screen(_fake_lines(), ["raw"], out, judge=Judge(fake_predict, fake_execute, verify), jobs=1)
    found = {r["id"]: r for r in rows(out)}
    if verify == "all":
        # a fake run lists no differences: null, as for a pair not executed
        assert found["agrees"]["executed"] == {"passed": True, "class": "pass", "reason": "fake run", "diff": None}
        assert found["agrees"]["agree"] is True
        assert found["disagrees"]["executed"]["passed"] is False and found["disagrees"]["agree"] is False
    else:  # certain predictions are not executed
        assert found["agrees"]["executed"] is None and found["agrees"]["agree"] is None
        assert found["disagrees"]["executed"] is None and found["disagrees"]["agree"] is None
    assert found["unknown"]["executed"]["passed"] is True and found["unknown"]["agree"] is None
    assert found["outside"]["predicted"] is None and found["outside"]["executed"] is None
    overall = summary.verdicts["overall"]
    assert (overall["verified"], overall["agreeing"]) == ((2, 1) if verify == "all" else (0, 0))
    assert overall["executed"] == (3 if verify == "all" else 1)
    everything = next(line for line in render_text(summary.verdicts).splitlines() if line.startswith("all "))
    assert everything.endswith("1/2 (50.0%)" if verify == "all" else "not verified")


def test_predictions_are_made_once_per_task_reply_and_transport():
    calls = []

    def counting(task_id, reply, transport):
        calls.append((task_id, reply, transport))
        return predict(task_id, reply, transport)

    judge = Judge(counting)
    meta = {"task_id": "sed-replace/t0-plain", "reply_sha256": "ab" * 32, "setup": "s"}
    tasks = [(n, dict(meta, id=f"r{n // 2}"), "true", "raw" if n % 2 else "nested") for n in range(8)]
    out = screen_chunk(tasks, None, {}, 1000, judge)
    assert len(out) == 8 and sorted(calls) == [("sed-replace/t0-plain", "true", "nested"),
                                               ("sed-replace/t0-plain", "true", "raw")]


# -- resuming -----------------------------------------------------------------------------

def test_resuming_keeps_the_verdicts_and_other_options_redo_the_work(tmp_path):
    out = tmp_path / "out.jsonl"
    lines = _fake_lines()
    first = screen(lines, ["raw", "nested"], out, judge=Judge(fake_predict, fake_execute, "unknown"), jobs=1)
    again = screen(lines, ["raw", "nested"], out, judge=Judge(fake_predict, fake_execute, "unknown"), jobs=1)
    assert (again.screened, again.skipped) == (0, 8)
    assert again.verdicts == first.verdicts  # counted from the rows found
    verified = screen(lines, ["raw", "nested"], out, judge=Judge(fake_predict, fake_execute, "all"), jobs=1)
    assert (verified.screened, verified.skipped, verified.superseded) == (8, 0, 8)
    assert verified.verdicts["overall"]["verified"] == 4 and verified.verdicts["overall"]["agreeing"] == 2
    resumed = screen(lines, ["raw", "nested"], out, judge=Judge(fake_predict, fake_execute, "all"), jobs=1)
    assert (resumed.screened, resumed.skipped) == (0, 8) and resumed.verdicts == verified.verdicts
    plain = screen(lines, ["raw", "nested"], out, jobs=1)  # no judging: other work again
    assert plain.screened == 8 and plain.verdicts is None
    assert all("predicted" not in row for row in rows(out)[-8:])


def test_a_row_superseded_in_the_file_is_counted_once():
    tally = Tally()
    row = {"model": "m", "contract": "raw", "transport": "raw", "task_id": "x",
           "predicted": {"passed": True, "class": "pass", "certain": True, "why": ""}}
    tally.found(("a", "raw"), row)
    tally.found(("a", "raw"), dict(row, predicted=dict(row["predicted"], passed=False)))
    tally.written(("a", "raw"), json.dumps(dict(row, predicted=dict(row["predicted"], passed=None, certain=False))))
    tally.written(("b", "raw"), json.dumps(row))
    counted = tally.report(["raw"])["transports"]["raw"]
    assert (counted["pass"], counted["fail"], counted["unknown"]) == (1, 0, 1)


# -- the real executor ------------------------------------------------------------------------

def test_verification_runs_the_sandboxed_executor_and_agrees_with_it(tmp_path):
    sandboxing.need_sandbox()
    chosen = [r for r in samples() if r["id"] in ("sample-01", "sample-03", "sample-24", "sample-39", "sample-43")]
    chosen.append(UNDECIDED)
    out = tmp_path / "out.jsonl"
    transports = ["raw", "nested", "heredoc-ssh"]
    judge = Judge(predict, executor.run, "unknown", execute_seconds=30)
    summary = screen(jsonl(chosen), transports, out, judge=judge, jobs=2)
    found = rows(out)
    assert summary.errors == 0 and len(found) == len(chosen) * len(transports)
    executed = [r for r in found if r["executed"] is not None]
    assert {(r["id"], r["transport"]) for r in executed} == {
        (r["id"], r["transport"]) for r in found if not r["predicted"]["certain"]}
    assert any(r["id"] == UNDECIDED["id"] for r in executed)  # a pair left open: executed
    for row in executed:
        record = next(r for r in chosen if r["id"] == row["id"])
        attempt = executor.run(record["task_id"], record["reply"], row["transport"])
        assert row["executed"]["passed"] == attempt.passed and row["executed"]["class"] == attempt.class_
    # --verify: every pair runs, and every certain prediction agrees with the sandbox
    summary = screen(jsonl(chosen), transports, out, judge=Judge(predict, executor.run, "all", 30), jobs=2)
    latest = rows(out)[-len(found):]
    assert all(r["executed"] is not None and r["executed"]["passed"] is not None for r in latest)
    assert all(r["agree"] is True for r in latest if r["predicted"]["certain"])
    assert all(r["agree"] is None for r in latest if not r["predicted"]["certain"])
    overall = summary.verdicts["overall"]
    assert overall["verified"] == overall["agreeing"] == sum(r["predicted"]["certain"] for r in latest) > 0
