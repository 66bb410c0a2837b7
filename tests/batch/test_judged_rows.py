"""Judged rows as the workers write them: the row text with its prediction's text appended is the row
dict through the Judge and json.dumps, byte for byte; the tally counts a worker's verdict codes as it
counts the rows read back; a screen with predictions writes the file the plain dict path writes."""

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qbcore.batch import screen as screen_module
from qbcore.batch.replies import iter_replies
from qbcore.batch.screen import _meta, reply_sha256, result_row, screen, screen_block, screen_pair, setup_of
from qbcore.batch.verdicts import VERDICTS, Judge, Tally
from qbcore.harness.simulate import simulate
from qbcore.harness.transports import NAMES
from qbcore.predict import predict

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "qbcore" / "batch" / "data" / "sample_replies.jsonl"
SETUP = setup_of({"cwd": None, "listing": None, "judge": {"predict": True, "verify": None}})
TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=30) | st.sampled_from(
    ["", '"', "\\", "\ud800", "é", "x" * 90])
ANSWER = st.fixed_dictionaries({"passed": st.sampled_from([True, False, None, 0, 1]),
                                "class": st.sampled_from([None, "pass", "tool-error", 'a "class"']),
                                "certain": st.sampled_from([True, False, 0, 1, None]), "why": TEXT,
                                "diff": st.none() | st.lists(st.fixed_dictionaries(
                                    {"path": TEXT, "expected": TEXT, "found": TEXT, "checked": st.booleans()}),
                                    max_size=4)})


def judged_line(meta, reply, transport, judge, max_text):
    """The plain way: the row dict, the Judge's fields added to it, json.dumps."""
    row = result_row(meta, transport, simulate(reply, transport), reply=reply, max_text=max_text)
    judge(row, reply, max_text)
    return json.dumps(row)


def sample_metas(task_ids=None):
    lines = [json.loads(line) for line in open(SAMPLES)]
    if task_ids:
        lines = [dict(record, task_id=task_id) for record, task_id in zip(lines, task_ids)]
    return [(_meta(item, reply_sha256(item.reply), SETUP), item.reply)
            for item in iter_replies([json.dumps(record) for record in lines])]


def test_the_samples_judged_as_text_are_the_rows_the_judge_makes():
    plain, fast = Judge(predict), Judge(predict)
    for meta, reply in sample_metas():
        for transport in NAMES:
            for max_text in (20, 16384):
                _, text, verdict = screen_pair(meta, reply, transport, simulate, {}, max_text, judge=fast)
                assert text == judged_line(meta, reply, transport, plain, max_text)
                assert VERDICTS[verdict] == VERDICTS[Judge.verdict(json.loads(text))]


@settings(max_examples=300, deadline=None)
@given(answer=ANSWER, transport=st.sampled_from(NAMES), max_text=st.sampled_from([1, 3, 8, 40, 16384]),
       task_id=st.sampled_from(["sed-replace/t0-plain", "not/in-the-suite"]), again=st.booleans())
def test_any_prediction_judged_as_text_is_the_row_the_judge_makes(answer, transport, max_text, task_id, again):
    meta = dict(sample_metas()[0][0], task_id=task_id)
    reply = "sed -i 's/a/b/' \"$f\""
    fast = Judge(lambda *pair: dict(answer))
    if again:  # the text made for one max_text is not the text of another
        screen_pair(meta, reply, transport, simulate, {}, 5, judge=fast)
    _, text, verdict = screen_pair(meta, reply, transport, simulate, {}, max_text, judge=fast)
    assert text == judged_line(meta, reply, transport, Judge(lambda *pair: dict(answer)), max_text)
    assert verdict == Judge.verdict(json.loads(text))
    row = json.loads(text)
    if len(answer["why"]) > max_text and task_id.startswith("sed"):
        assert row["cut"][-1] == "predicted"
    if answer["certain"] and answer["diff"] and task_id.startswith("sed"):
        # whole entries, as many as fit in max_text characters together
        sizes = [sum(len(v) for v in entry.values() if isinstance(v, str)) for entry in answer["diff"]]
        kept = next((n for n in range(len(sizes)) if sum(sizes[:n + 1]) > max_text), len(sizes))
        assert row["predicted"]["diff"] == answer["diff"][:kept]
        assert ("predicted" in row["cut"]) == (kept < len(sizes) or len(answer["why"]) > max_text)


def test_a_verified_pair_is_judged_on_its_row():
    judge = Judge(lambda *pair: {"passed": None, "class": None, "certain": False, "why": "?"},
                  lambda *pair: {"passed": True, "class": "pass", "reason": "ran"}, "unknown")
    meta, reply = sample_metas()[0]
    _, text, verdict = screen_pair(meta, reply, "raw", simulate, {}, judge=judge)
    row = json.loads(text)
    assert row["executed"]["reason"] == "ran" and VERDICTS[verdict] == ("unknown", "pass", None)
    with pytest.raises(ValueError):
        judge.row_end("sed-replace/t0-plain", "ab" * 32, reply, "raw")


def test_a_block_gives_each_row_its_verdict_code():
    tasks = [(n, meta, reply, transport) for n, (meta, reply) in enumerate(sample_metas()[:4])
             for transport in ("raw", "single")]
    codes, data, verdicts = screen_block(tasks, simulate, {}, judge=Judge(predict))
    assert len(verdicts) == len(tasks)
    assert [VERDICTS[v] for v in verdicts] == [VERDICTS[Judge.verdict(json.loads(line))]
                                               for line in data.decode().splitlines()]


def _rows(count, transports=("raw", "nested")):
    """Judged rows of every kind of verdict, with their verdict codes."""
    out = []
    for n in range(count):
        verdict = n % len(VERDICTS)
        predicted, executed, agreed = VERDICTS[verdict]
        fields = {"id": f"r{n // len(transports)}", "model": [None, "m", "k"][n % 3],
                  "contract": [None, "raw", "nested"][n % 4 % 3], "task_id": f"task-{n % 5}"}
        row = dict(fields, transport=transports[n % len(transports)])
        if predicted == "outside the suite":
            row["predicted"] = None
        elif predicted != "not predicted":
            row["predicted"] = {"passed": {"pass": True, "fail": False}.get(predicted), "certain": True}
        if executed:
            row["executed"] = {"passed": executed == "pass"}
        if agreed is not None:
            row["agree"] = agreed
        out.append((fields, row, verdict))
    return out


@pytest.mark.parametrize("resuming", [False, True])
def test_the_tally_counts_verdict_codes_as_it_counts_the_rows(resuming):
    rows = _rows(200)
    assert all(VERDICTS[verdict] == VERDICTS[Judge.verdict(row)] for _, row, verdict in rows)
    read, coded = Tally(), Tally()
    if resuming:  # rows found on opening, some of which the run's rows supersede
        for tally in (read, coded):
            for fields, row, _ in _rows(120, ("nested", "single")):
                tally.found((fields["id"], row["transport"]), row)
    for fields, row, _ in rows:
        read.written((fields["id"], row["transport"]), json.dumps(row))
    coded.written_verdicts([fields for fields, _, _ in rows], [row["transport"] for _, row, _ in rows],
                           bytes(verdict for _, _, verdict in rows))
    assert +coded.counts == +read.counts and coded.outside == read.outside
    assert coded.report(["raw", "nested", "single"]) == read.report(["raw", "nested", "single"])


def reference_file(lines, transports, judge, max_text=16384) -> bytes:
    out = []
    for item in iter_replies(lines):
        if hasattr(item, "reply"):
            meta = _meta(item, reply_sha256(item.reply), SETUP)
            out += [judged_line(meta, item.reply, transport, judge, max_text) + "\n" for transport in transports]
    return "".join(out).encode()


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_judged_screen_writes_the_rows_the_plain_way_makes(tmp_path, monkeypatch, jobs):
    monkeypatch.setattr(screen_module, "CHUNK_PAIRS", 7)
    records = [json.loads(line) for line in open(SAMPLES)][:30]
    records[4]["task_id"] = "not/in-the-suite"
    lines = [json.dumps(dict(record, id=f"r{n}")) + "\n" for n, record in enumerate(records * 2)]
    out = tmp_path / "out.jsonl"
    transports = ["raw", "nested", "single", "heredoc-ssh"]
    summary = screen(lines, transports, out, judge=Judge(predict), jobs=jobs)
    assert out.read_bytes() == reference_file(lines, transports, Judge(predict))
    read = Tally()
    for row in map(json.loads, out.read_text().splitlines()):
        read.written((row["id"], row["transport"]), json.dumps(row))
    assert summary.verdicts == read.report(transports)


def test_a_resumed_judged_screen_counts_what_the_file_holds(tmp_path):
    records = [json.loads(line) for line in open(SAMPLES)][:12]
    lines = [json.dumps(dict(record, id=f"r{n}")) + "\n" for n, record in enumerate(records)]
    out = tmp_path / "out.jsonl"
    screen(lines[:5], ["raw", "nested"], out, judge=Judge(predict), jobs=1)
    changed = [line.replace('"reply": "', '"reply": "true; ') if n in (1, 3) else line for n, line in enumerate(lines)]
    summary = screen(changed, ["raw", "nested"], out, judge=Judge(predict), jobs=2)
    assert (summary.skipped, summary.superseded) == (6, 4)
    latest = {}
    for row in map(json.loads, out.read_text().splitlines()):
        latest[row["id"], row["transport"]] = row
    read = Tally()
    for key, row in latest.items():
        read.written(key, json.dumps(row))
    assert summary.verdicts == read.report(["raw", "nested"])


def test_a_cached_prediction_is_made_once_and_its_text_once_per_max_text():
    calls = []

    def counting(task_id, reply, transport):
        calls.append(transport)
        return SimpleNamespace(as_dict=lambda: {"passed": True, "class": "pass", "certain": True, "why": "w" * 9})

    judge = Judge(counting)
    ends = [judge.row_end("sed-replace/t0-plain", "ab" * 32, "true", "raw", max_text) for max_text in (5, 5, 50)]
    assert calls == ["raw"] and ends[0] is ends[1] and ends[0][0] == ("predicted",) and ends[2][0] == ()
