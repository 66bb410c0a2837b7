"""The result file resumes: done keys are skipped, a torn last line is redone."""

import json

from qbcore.resultlog import ResultLog


def test_written_results_are_known_after_reopening(tmp_path):
    path = tmp_path / "out.jsonl"
    with ResultLog(path) as log:
        log.write({"id": "a", "transport": "raw", "x": 1})
    with ResultLog(path) as log:
        assert log.has("a", "raw") and not log.has("a", "nested")


def test_a_torn_last_line_is_cut_and_redone(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_text(json.dumps({"id": "a", "transport": "raw"}) + "\n" + '{"id": "b", "transp')
    with ResultLog(path) as log:
        assert log.has("a", "raw") and not log.has("b", "raw")
        log.write({"id": "b", "transport": "raw"})
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["a", "b"]


def test_without_resume_the_file_starts_empty(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_text(json.dumps({"id": "a", "transport": "raw"}) + "\n")
    with ResultLog(path, resume=False) as log:
        assert not log.has("a", "raw")
    assert path.read_text() == ""


def test_undecodable_reply_text_survives_the_round_trip(tmp_path):
    path = tmp_path / "out.jsonl"
    reply = b"echo \xff".decode("utf-8", "surrogateescape")
    with ResultLog(path) as log:
        log.write({"id": "a", "transport": "raw", "reply": reply})
    assert json.loads(path.read_text())["reply"] == reply
