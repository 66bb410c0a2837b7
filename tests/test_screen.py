"""Screening: every (reply, transport) pair gets one result line; bad lines and interruptions lose nothing."""

import json
import subprocess
import sys

import pytest

from qbcore.screen import delivery, screen
from qbcore.simulate import simulate
from qbcore.transports import NAMES

REPLIES = [
    {"id": "a", "task_id": "write-file/t0-plain", "reply": "printf 'hi\\n' > f.txt"},
    {"id": "b", "task_id": "write-file/t1-apostrophe", "reply": 'echo "a b" x'},
    "{broken",
    {"id": "c", "task_id": "grep-count/t2-regex-trap", "reply": "echo \"$(pwd)\""},
]


def jsonl(rows):
    return [(r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows]


def rows(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_every_pair_is_screened_and_a_bad_line_is_reported(tmp_path):
    out = tmp_path / "out.jsonl"
    summary = screen(jsonl(REPLIES), list(NAMES), out)
    assert [b.line for b in summary.bad_lines] == [3]
    got = {(r["id"], r["transport"]) for r in rows(out)}
    assert got == {(i, t) for i in "abc" for t in NAMES}
    assert summary.screened == 3 * len(NAMES)


def test_delivery_follows_what_the_inner_shell_receives():
    assert delivery("echo hi", "raw", simulate("echo hi", "raw")) == "intact"
    assert delivery("echo hi", "stdin", simulate("echo hi", "stdin")) == "intact"
    # BASH-NOTES: a double quote in R closes the outer one: inner script `echo a`, $0 `b x`
    assert delivery('echo "a b" x', "nested", simulate('echo "a b" x', "nested")) == "rewritten"
    assert delivery('echo "a', "nested", simulate('echo "a', "nested")) == "broken"
    assert delivery("echo a\\nb", "json-naive", simulate("echo a\\nb", "json-naive")) == "rewritten"
    assert delivery('echo "$RANDOM"', "nested", simulate('echo "$RANDOM"', "nested")) == "unknown"


def test_an_interrupted_batch_resumes_without_repeating_or_losing_work(tmp_path):
    out = tmp_path / "out.jsonl"
    calls = []

    def flaky(reply, transport):
        calls.append((reply, transport))
        if len(calls) == 7:
            raise KeyboardInterrupt
        return simulate(reply, transport)

    with pytest.raises(KeyboardInterrupt):
        screen(jsonl(REPLIES), list(NAMES), out, simulate=flaky)
    assert len(rows(out)) == 6
    summary = screen(jsonl(REPLIES), list(NAMES), out)
    assert summary.skipped == 6 and summary.screened == 3 * len(NAMES) - 6
    keys = [(r["id"], r["transport"]) for r in rows(out)]
    assert len(keys) == len(set(keys)) == 3 * len(NAMES)


def test_the_command_screens_the_bundled_samples(tmp_path):
    out = tmp_path / "out.jsonl"
    result = subprocess.run([sys.executable, "-m", "qbcore", "screen", "-o", str(out), "--format", "json"],
                            capture_output=True, text=True, check=True)
    summary = json.loads(result.stdout)
    samples = sum(1 for _ in open(__import__("qbcore").__path__[0] + "/data/sample_replies.jsonl"))
    assert summary["screened"] == samples * len(NAMES) and summary["bad_lines"] == []
    assert summary["delivery"]["raw"]["intact"] == samples
    assert summary["delivery"]["nested"]["rewritten"] > 0


def test_the_command_rejects_an_unknown_transport(tmp_path):
    result = subprocess.run([sys.executable, "-m", "qbcore", "screen", "-t", "telnet", "-o", str(tmp_path / "o")],
                            capture_output=True, text=True)
    assert result.returncode == 2 and "unknown transport 'telnet'" in result.stderr
