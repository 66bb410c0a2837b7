"""QuoteBench's files in and out: result records and manifests read, records replayed, metrics scored."""

import json
from importlib import resources

import pytest

from qbcore.batch import qbfiles, score
from qbcore import suite
from qbcore.cli import main
from qbcore.batch.replies import BadLine, iter_replies

from sandboxing import need_sandbox

SAMPLES = str(resources.files("qbcore.batch") / "data" / "sample_results.jsonl")


def record(task_id="write-file/t0-plain", contract="raw", commands=("echo hi",), **extra):
    attempts = [{"command": c, "exit_code": 0, "stdout": "", "stderr": "", "timed_out": False, "passed": False,
                 "reason": "", "error_class": "silent-wrong", "new_files": [], "raw_reply": c} for c in commands]
    task = suite.get(task_id) if task_id in suite.ids() else None
    return {"task_id": task_id, "scenario": task_id.split("/")[0], "tier": task.tier if task else 0,
            "trial": 0, "adapter": "cmd", "model": "m", "contract": contract, "passed": False,
            "attempts_used": len(attempts), "first_error_class": "silent-wrong", "attempts": attempts, **extra}


def lines(*objects):
    return [json.dumps(o).encode() + b"\n" for o in objects]


def cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- reading ------------------------------------------------------------------

def test_a_result_record_gives_its_first_attempt_by_default():
    rec = record(commands=("echo one", "echo two"))
    (first,) = iter_replies(lines(rec))
    (last,) = iter_replies(lines(rec), attempt=-1)
    assert (first.reply, last.reply) == ("echo one", "echo two")
    assert (first.task_id, first.model, first.contract, first.trial, first.id) == \
        ("write-file/t0-plain", "m", "raw", 0, "line-1")


def test_a_wrapped_reply_is_read_without_its_outer_layer():
    rec = record(contract="wrapped", commands=('bash -c "echo "a b" > out.txt"',))
    (reply,) = iter_replies(lines(rec))
    assert reply.reply == 'echo "a b" > out.txt' and reply.contract == "nested"


def test_a_json_contract_error_keeps_the_raw_reply():
    rec = record(contract="json", commands=("not json",))
    rec["attempts"][0]["error_class"] = "contract-error"
    (reply,) = iter_replies(lines(rec))
    assert reply.reply == "not json" and reply.contract == "raw"


def test_a_missing_attempt_is_a_bad_line_with_its_number():
    items = list(iter_replies(lines(record(), record(commands=())), attempt=0))
    assert isinstance(items[1], BadLine) and items[1].line == 2 and "empty" in items[1].reason
    (bad,) = iter_replies(lines(record()), attempt=3)
    assert isinstance(bad, BadLine) and "no attempt 3" in bad.reason


def test_a_manifest_line_stands_for_the_oracle_and_the_naive_command():
    task = suite.get("write-file/t1-apostrophe")
    row = {"task_id": task.id, "scenario": task.family, "tier": task.tier, "hazards": [],
           "instruction": task.instruction, "oracle": task.oracle, "naive": task.naive}
    got = [(r.id, r.reply) for r in iter_replies(lines(row))]
    assert got == [(f"{task.id}:oracle", task.oracle), (f"{task.id}:naive", task.naive)]


def test_screen_reads_result_records_and_fails_after_bad_lines(capsys, tmp_path):
    source = tmp_path / "results.jsonl"
    source.write_bytes(b"".join(lines(record(), record(task_id="write-file/t1-apostrophe"))) + b"{oops\n")
    code, out, err = cli(capsys, "screen", str(source), "-t", "raw", "-o", str(tmp_path / "out.jsonl"),
                         "--format", "json")
    assert code == 1 and json.loads(out)["screened"] == 2 and "line 3" in err


# --- replay -------------------------------------------------------------------

def _sample_records(n=None):
    with open(SAMPLES, encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    return records[:n] if n else records


def test_the_bundled_results_are_the_artifacts_records_for_the_suite():
    records = _sample_records()
    assert {r["contract"] for r in records} == {"raw", "wrapped"}
    assert all(r["task_id"] in suite.ids() and r["attempts"] for r in records)


def test_replay_keeps_the_schema_adds_the_transport_and_gives_the_artifacts_verdicts(capsys, tmp_path):
    need_sandbox()
    records = [r for r in _sample_records() if r["contract"] == "raw"][:10]
    source = tmp_path / "results.jsonl"
    source.write_bytes(b"".join(lines(*records)))
    out = tmp_path / "replayed.jsonl"
    code, text, _ = cli(capsys, "replay", str(source), "-t", "raw", "-o", str(out))
    assert code == 0 and "replayed 10 records" in text
    replayed = sorted((json.loads(line) for line in out.read_text().splitlines()), key=lambda r: r["source_line"])
    for before, after in zip(records, replayed):
        assert set(before) <= set(after) and after["transport"] == "raw"
        assert set(before["attempts"][0]) <= set(after["attempts"][0])
        # the artifact judged these records itself: raw replies, run raw
        assert (after["passed"], after["first_error_class"]) == (before["passed"], before["first_error_class"])
    code, text, _ = cli(capsys, "replay", str(source), "-t", "raw", "-o", str(out))
    assert code == 0 and "replayed 0 records" in text and "10 already done" in text


def test_replay_reports_bad_lines_by_number_and_fails(capsys, tmp_path):
    need_sandbox()
    source = tmp_path / "results.jsonl"
    source.write_bytes(b"".join(lines(record(commands=("echo hello world > out.txt",)), {"task_id": "x"},
                                      record(task_id="nope/t0"))) + b"\xff\n")
    code, _, err = cli(capsys, "replay", str(source), "-t", "nested", "-o", str(tmp_path / "o.jsonl"))
    assert code == 1
    assert "line 2: not a QuoteBench result record" in err and "line 3: no task with id" in err
    assert "line 4: not valid UTF-8" in err


def test_run_takes_a_record_and_its_contracts_transport(capsys, tmp_path):
    need_sandbox()
    source = tmp_path / "results.jsonl"
    source.write_bytes(b"".join(lines(record(contract="wrapped", commands=('bash -c "echo hello world > out.txt"',)))))
    code, out, _ = cli(capsys, "run", "--record", f"{source}:1")
    assert code == 0 and out.startswith("PASS write-file/t0-plain via nested")
    code, _, err = cli(capsys, "run", "--record", f"{source}:2")
    assert code == 2 and "only 1 lines" in err


# --- score --------------------------------------------------------------------

@pytest.mark.parametrize("k, n, low, high", [(0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0)])
def test_wilson_interval(k, n, low, high):
    got = score.wilson(k, n)
    assert got[0] == pytest.approx(low, abs=1e-4) and got[1] == pytest.approx(high, abs=1e-4)
    assert score.wilson(0, 0) is None


def _outcome_records(model, contract, transport, passes):
    # passes: {task_id: passed}
    return [dict(record(task_id=t, contract=contract), model=model, passed=p, transport=transport)
            for t, p in passes.items()]


def test_score_reports_gap_and_crossover(tmp_path, capsys):
    hostile = [t.id for t in suite.load() if t.tier][:4]
    control = [t.id for t in suite.load() if not t.tier][:2]
    cells = {("raw", "raw"): 4, ("raw", "nested"): 1, ("wrapped", "raw"): 2, ("wrapped", "nested"): 3}
    rows = []
    for (contract, transport), k in cells.items():
        rows += _outcome_records("m", contract, transport, {t: i < k for i, t in enumerate(hostile)})
        rows += _outcome_records("m", contract, transport, {t: True for t in control})
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"".join(lines(*rows)))
    code, out, _ = cli(capsys, "score", str(path), "--format", "json")
    report = json.loads(out)
    assert code == 0
    group = next(g for g in report["groups"] if (g["contract"], g["transport"]) == ("raw", "nested"))
    assert group["control"]["rate"] == 1.0 and group["hostile"]["rate"] == 0.25
    assert group["quoting_gap"] == pytest.approx(0.75)
    (cross,) = report["crossover"]
    rate = {c: (cells[k] + 2) / 6 for c, k in zip(("RR", "RN", "NR", "NN"), cells)}
    assert cross["damage"] == pytest.approx(rate["RR"] - rate["RN"])
    assert cross["compensation"] == pytest.approx(rate["NN"] - rate["RN"])
    assert cross["matched_gap"] == pytest.approx(rate["RR"] - rate["NN"])
    assert cross["interaction"] == pytest.approx(rate["RR"] - rate["RN"] - rate["NR"] + rate["NN"])
    code, text, _ = cli(capsys, "score", str(path))
    assert "Quoting Gap" in text and "damage: +50.0 pts" in text


def test_score_counts_a_replayed_duplicate_once(tmp_path, capsys):
    row = dict(record(), passed=True)
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"".join(lines(row, dict(row, transport="raw"))) + b"not json\n")
    code, out, err = cli(capsys, "score", str(path), "--format", "json")
    report = json.loads(out)
    assert code == 1 and "line 3" in err
    assert report["groups"][0]["records"] == 1


def test_contract_names_map_onto_qbcores():
    assert qbfiles.CONTRACTS == {"raw": "raw", "json": "raw", "wrapped": "nested"}
    assert qbfiles.execution_transport("wrapped") == "nested" and qbfiles.execution_transport("json") == "raw"
