"""The result file resumes: done work is skipped, damaged and torn lines are reported and redone,
a later row supersedes an earlier one, and an unusable path is refused before anything is written."""

import errno
import json
import os

import pytest

from qbcore.batch.resultlog import OutputError, ResultLog, work_of

HASH_A, HASH_B = "a" * 64, "b" * 64


def row(record_id="a", transport="raw", reply_hash=HASH_A, setup="s", delivered="intact", **extra):
    return {"id": record_id, "transport": transport, "reply_sha256": reply_hash, "setup": setup,
            "delivered": delivered, **extra}


def test_written_results_are_known_after_reopening(tmp_path):
    path = tmp_path / "out.jsonl"
    with ResultLog(path) as log:
        log.write(row())
    with ResultLog(path) as log:
        assert log.done("a", "raw", work_of(HASH_A, "s")) == "intact"
        assert log.done("a", "nested", work_of(HASH_A, "s")) is None


def test_work_for_another_reply_or_other_options_is_not_done(tmp_path):
    path = tmp_path / "out.jsonl"
    with ResultLog(path) as log:
        log.write(row())
    with ResultLog(path) as log:
        assert log.done("a", "raw", work_of(HASH_B, "s")) is None
        assert log.done("a", "raw", work_of(HASH_A, "other")) is None


def test_a_later_row_supersedes_an_earlier_one_in_the_counts(tmp_path):
    path = tmp_path / "out.jsonl"
    with ResultLog(path) as log:
        log.write(row(delivered="intact"))
        log.write(row(reply_hash=HASH_B, delivered="broken"))
    with ResultLog(path) as log:
        assert log.superseded == 1
        assert log.done("a", "raw", work_of(HASH_B, "s")) == "broken"
        assert log.counts(["raw"], ("intact", "broken")) == {"raw": {"intact": 0, "broken": 1}}


def test_a_torn_last_line_is_cut_reported_and_redone(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_text(json.dumps(row()) + "\n" + '{"id": "b", "transp')
    reported = []
    with ResultLog(path, on_damaged=lambda n, r: reported.append((n, r))) as log:
        assert log.done("a", "raw", work_of(HASH_A, "s")) and not log.done("b", "raw", work_of(HASH_A, "s"))
        log.write(row("b"))
    assert [n for n, _ in reported] == [2] and "torn" in reported[0][1]
    assert [json.loads(line)["id"] for line in path.read_text().splitlines()] == ["a", "b"]


@pytest.mark.parametrize("damage, reason", [
    (b"{garbage", "not JSON"),
    (b"\xff\xfe", "UTF-8"),
    (b"[1, 2]", "not a JSON object"),
    (b"[" * 100_000 + b"]" * 100_000, "nested deeper"),
    (json.dumps(row(reply_hash="short")).encode(), "reply_sha256"),
    (json.dumps(row(delivered="maybe")).encode(), "'delivered'"),
])
def test_a_damaged_line_in_the_middle_is_reported_by_number_and_the_rest_is_kept(tmp_path, damage, reason):
    path = tmp_path / "out.jsonl"
    path.write_bytes(json.dumps(row("a")).encode() + b"\n" + damage + b"\n" + json.dumps(row("c")).encode() + b"\n")
    reported = []
    with ResultLog(path, on_damaged=lambda n, r: reported.append((n, r)),
                   valid_delivery=("intact", "broken")) as log:
        assert log.done("a", "raw", work_of(HASH_A, "s")) and log.done("c", "raw", work_of(HASH_A, "s"))
    assert len(reported) == 1 and reported[0][0] == 2 and reason in reported[0][1]
    assert log.damaged == reported


def test_a_row_of_the_older_format_without_a_hash_is_redone(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_text(json.dumps({"id": "a", "transport": "raw", "delivered": "intact"}) + "\n")
    with ResultLog(path) as log:
        assert log.index == {} and log.damaged == [] and log.superseded == 1


def test_without_resume_the_file_starts_empty(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_text(json.dumps(row()) + "\n")
    with ResultLog(path, resume=False) as log:
        assert not log.done("a", "raw", work_of(HASH_A, "s"))
    assert path.read_text() == ""


def test_undecodable_reply_text_survives_the_round_trip(tmp_path):
    path = tmp_path / "out.jsonl"
    reply = b"echo \xff".decode("utf-8", "surrogateescape")
    with ResultLog(path) as log:
        log.write(row(inner_script=reply))
    assert json.loads(path.read_text())["inner_script"] == reply


def test_the_input_file_itself_is_refused_by_inode_through_a_symlink_or_a_hard_link(tmp_path):
    source = tmp_path / "replies.jsonl"
    source.write_text("kept\n")
    (tmp_path / "sym").symlink_to(source)
    os.link(source, tmp_path / "hard")
    for name in ("replies.jsonl", "sym", "hard"):
        with pytest.raises(OutputError, match="is the input file itself"):
            ResultLog(tmp_path / name, resume=False, not_same_as=os.stat(source))
    assert source.read_text() == "kept\n"  # not truncated, not appended to


@pytest.mark.parametrize("make, message", [
    (lambda d: d / "missing" / "out.jsonl", "cannot write .*: No such file or directory"),
    (lambda d: d, "cannot write .*: Is a directory"),
    (lambda d: (os.mkfifo(d / "fifo"), d / "fifo")[1], "is a FIFO, not a regular file"),
    (lambda d: "/dev/zero", "is a character device, not a regular file"),
])
def test_an_unusable_path_is_one_clear_error(tmp_path, make, message):
    with pytest.raises(OutputError, match=message):
        ResultLog(make(tmp_path))


def test_a_full_disk_while_writing_is_an_output_error(tmp_path):
    path = tmp_path / "out.jsonl"
    log = ResultLog(path)

    class Full:
        def write(self, data=b""):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        flush = close = write

    log._handle.close()
    log._handle = Full()
    with pytest.raises(OutputError, match="cannot write .*: No space left on device"):
        log.write(row())
    log.close()  # after the failed write, closing says nothing more


def test_rows_written_are_counted_but_only_rows_found_on_opening_are_held(tmp_path):
    path = tmp_path / "out.jsonl"
    with ResultLog(path) as log:
        for n in range(100):
            log.write(row(f"r{n}", delivered="intact" if n % 4 else "broken"))
        assert log.index == {}  # memory does not grow with the rows written
        assert log.counts(["raw"], ("intact", "broken")) == {"raw": {"intact": 75, "broken": 25}}
    with ResultLog(path) as log:
        assert len(log.index) == 100
        log.write(row("r0", reply_hash=HASH_B, delivered="intact"))  # supersedes a row found on opening
        assert log.superseded == 1
        assert log.counts(["raw"], ("intact", "broken")) == {"raw": {"intact": 76, "broken": 24}}


def test_the_rows_of_one_reply_share_what_the_index_holds_for_them(tmp_path):
    path = tmp_path / "out.jsonl"
    with ResultLog(path) as log:
        for transport in ("raw", "nested", "ssh"):
            log.write(row("a", transport))
        log.write(row("a", "single", delivered="broken"))
        log.write(row("b", "raw", reply_hash=HASH_B))
    with ResultLog(path) as log:
        assert log.index["a", "raw"] is log.index["a", "nested"] is log.index["a", "ssh"]  # one value, not three
        assert log.done("a", "single", work_of(HASH_A, "s")) == "broken"
        assert log.done("b", "raw", work_of(HASH_B, "s")) == "intact"
        assert log.done("b", "raw", work_of(HASH_A, "s")) is None
