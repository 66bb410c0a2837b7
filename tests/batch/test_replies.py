"""Stored replies: good lines are read, bad lines are reported by number and skipped."""

import json

from qbcore.batch.replies import BadLine, StoredReply, iter_replies, json_depth, read_lines, read_replies


def lines(*objs):
    return [o if isinstance(o, (str, bytes)) else json.dumps(o) for o in objs]


def test_reads_a_minimal_record_and_numbers_ids_by_line():
    (record,) = iter_replies(lines({"task_id": "write-file/t0-plain", "reply": "echo hi"}))
    assert record == StoredReply(task_id="write-file/t0-plain", reply="echo hi", id="line-1", line=1)


def test_reads_optional_fields():
    (record,) = iter_replies(lines({"task_id": "t", "reply": "r", "id": 7, "model": "m",
                                    "contract": "nested", "trial": 2}))
    assert (record.id, record.model, record.contract, record.trial) == ("7", "m", "nested", 2)


def test_reads_quotebench_result_records():
    (record,) = iter_replies(lines({"task_id": "t", "response": "printf x"}))
    assert record.reply == "printf x"


def test_bad_lines_are_reported_with_their_number_and_the_rest_is_kept():
    items = list(iter_replies(lines(
        {"task_id": "a", "reply": "one"},
        "{not json",
        {"reply": "no task"},
        "",
        {"task_id": "b", "reply": 5},
        {"task_id": "c", "reply": "x", "contract": "weird"},
        b"\xff\xfe",
        {"task_id": "d", "reply": "two"},
        [1, 2],
    )))
    good = [i.reply for i in items if isinstance(i, StoredReply)]
    bad = {i.line: i.reason for i in items if isinstance(i, BadLine)}
    assert good == ["one", "two"]
    assert sorted(bad) == [2, 3, 5, 6, 7, 9]
    assert "not JSON" in bad[2] and "task_id" in bad[3] and "reply" in bad[5]
    assert "contract" in bad[6] and "UTF-8" in bad[7] and "object" in bad[9]


def test_duplicate_ids_are_bad_lines_not_silent_overwrites():
    items = list(iter_replies(lines({"task_id": "a", "reply": "1", "id": "x"},
                                    {"task_id": "a", "reply": "2", "id": "x"})))
    assert isinstance(items[1], BadLine) and "first on line 1" in items[1].reason


def test_read_replies_from_a_file(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_bytes(b'{"task_id": "a", "reply": "echo \\u00e9"}\n\xff\n')
    result = read_replies(path)
    assert [r.reply for r in result.replies] == ["echo \u00e9"]
    assert [str(b) for b in result.bad_lines] == ["line 2: not valid UTF-8 at byte 0"]


def test_a_byte_order_mark_on_the_first_line_is_accepted():
    first = b"\xef\xbb\xbf" + json.dumps({"task_id": "a", "reply": "echo hi"}).encode() + b"\n"
    (record,) = iter_replies([first])
    assert record.reply == "echo hi" and record.line == 1


def test_a_reply_with_a_nul_is_a_bad_line_naming_the_offset():
    (bad,) = iter_replies(lines({"task_id": "a", "reply": "echo a\0b"}))
    assert isinstance(bad, BadLine) and "NUL" in bad.reason and "offset 6" in bad.reason


def test_deep_json_in_an_ignored_field_is_a_bad_line_not_a_recursion_error():
    deep = '{"task_id": "a", "reply": "x", "junk": ' + "[" * 100_000 + "]" * 100_000 + "}"
    (bad, good) = iter_replies([deep, json.dumps({"task_id": "b", "reply": "y"})])
    assert isinstance(bad, BadLine) and bad.line == 1 and "nested deeper than" in bad.reason
    assert good.reply == "y"


def test_brackets_inside_strings_do_not_count_as_nesting():
    text = json.dumps({"task_id": "a", "reply": "[" * 5000 + '\\"{' * 100})
    assert json_depth(text) == 1
    (record,) = iter_replies([text])
    assert record.reply.startswith("[[[")
    assert json_depth("[" * 10 + "]" * 10, limit=3) == 4  # counting stops past the limit


def test_an_overlong_line_is_a_bad_line_and_the_next_line_is_read(tmp_path):
    path = tmp_path / "r.jsonl"
    long = json.dumps({"task_id": "a", "reply": "x" * 5000})
    path.write_text(long + "\n" + json.dumps({"task_id": "b", "reply": "y"}) + "\n")
    with open(path, "rb") as handle:
        items = list(iter_replies(read_lines(handle, max_bytes=1000)))
    assert isinstance(items[0], BadLine) and items[0].reason == f"longer than 1000 bytes ({len(long) + 1})"
    assert items[1].reply == "y" and items[1].line == 2
