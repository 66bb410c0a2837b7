"""`screen --dask`: the pairs run on a Dask cluster and the result file is the one local workers write."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from qbcore.batch.screen import screen
from qbcore.harness.transports import NAMES

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))

REPLIES = [json.dumps({"id": f"r{n}", "task_id": "t", "reply": reply}) + "\n"
           for n, reply in enumerate(['echo "a b" x', "printf '%s\\n' \"$(pwd)\" > out.txt", "{broken",
                                      "cat <<EOF\n$HOME\nEOF", "ls *.txt | wc -l"])]
REPLIES[2] = "{broken\n"


@pytest.fixture(scope="module")
def cluster():
    # threads in this process: quick to start, and the workers import this qbcore
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                                  dashboard_address=None) as local:
        yield local


def test_the_cluster_writes_the_same_result_file_as_local_workers(tmp_path, cluster, monkeypatch):
    from qbcore.batch import screen as screen_module

    monkeypatch.setattr(screen_module, "DASK_CHUNK_PAIRS", 7)  # several chunks in flight at once
    local, remote = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    by_workers = screen(REPLIES, list(NAMES), local, jobs=2)
    seen = []
    on_cluster = screen(REPLIES, list(NAMES), remote, dask=cluster.scheduler_address, on_progress=seen.append)
    assert remote.read_bytes() == local.read_bytes()
    assert on_cluster.screened == by_workers.screened == 4 * len(NAMES)
    assert on_cluster.counts == by_workers.counts and [b.line for b in on_cluster.bad_lines] == [3]
    assert seen == list(range(1, 4 * len(NAMES) + 1))


def test_a_cluster_run_resumes_a_local_one(tmp_path, cluster):
    out = tmp_path / "out.jsonl"
    screen(REPLIES[:2], ["raw", "nested"], out, jobs=1)
    summary = screen(REPLIES, ["raw", "nested"], out, dask=cluster.scheduler_address)
    assert summary.skipped == 4 and summary.screened == 4
    ids = [(row["id"], row["transport"]) for row in map(json.loads, out.read_text().splitlines())]
    assert ids == [(f"r{n}", t) for n in (0, 1, 3, 4) for t in ("raw", "nested")]


def test_the_command_takes_a_scheduler_address(tmp_path, cluster):
    replies = tmp_path / "replies.jsonl"
    replies.write_text("".join(REPLIES))
    done = subprocess.run([sys.executable, "-m", "qbcore", "screen", str(replies), "-t", "nested",
                           "-o", str(tmp_path / "out.jsonl"), "--dask", cluster.scheduler_address,
                           "--format", "json"], capture_output=True, text=True, timeout=120, env=ENV)
    assert done.returncode == 1, done.stderr  # the bad line
    assert json.loads(done.stdout)["screened"] == 4


def test_an_unreachable_scheduler_is_a_cluster_error_before_any_row(tmp_path):
    import dask

    from qbcore.batch.cluster import ClusterError

    out = tmp_path / "out.jsonl"
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}), \
            pytest.raises(ClusterError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        screen(REPLIES, ["raw"], out, dask="tcp://127.0.0.1:9")
    assert out.read_text() == ""


def test_predictions_on_the_cluster_are_the_local_workers_ones(tmp_path, cluster):
    import pickle

    from qbcore.batch.verdicts import Judge
    from qbcore.predict import predict

    samples = ROOT / "qbcore" / "batch" / "data" / "sample_replies.jsonl"
    lines = open(samples).readlines()[:6] + open(samples).readlines()[36:42]
    judge = pickle.loads(pickle.dumps(Judge(predict)))  # as a cluster may receive it
    local, remote = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    by_workers = screen(lines, ["raw", "nested"], local, jobs=2, judge=judge)
    on_cluster = screen(lines, ["raw", "nested"], remote, dask=cluster.scheduler_address, judge=judge)
    assert remote.read_bytes() == local.read_bytes()
    assert on_cluster.verdicts == by_workers.verdicts and on_cluster.verdicts["overall"]["decided"] > 0
    with pytest.raises(ValueError, match="cannot run on a Dask cluster"):
        screen(lines, ["raw"], tmp_path / "v.jsonl", dask=cluster.scheduler_address,
               judge=Judge(predict, predict, "all"))
