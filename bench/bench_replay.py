"""Replay throughput: qbcore's sandboxed ``replay`` against the QuoteBench artifact's own ``replay``.

Both re-execute the same result records (the bundled sample results and the
artifact's oracle and naive runs, recorded here first) in the same session:
the artifact with its local executor (unsandboxed, one attempt after
another, as ``quotebench replay --executor local`` does), qbcore in the
sandbox over its process pool. Prints attempts per second for each and the
ratio, and checks both gave the same verdicts.

Run: QBCORE_QUOTEBENCH=/path/to/quoteBench python -m pytest bench/bench_replay.py -s
"""

import json
import os
import subprocess
import sys
import time
from importlib import resources

import pytest

ARTIFACT = os.environ.get("QBCORE_QUOTEBENCH", "")
pytestmark = pytest.mark.skipif(not ARTIFACT, reason="set QBCORE_QUOTEBENCH to a checkout of the QuoteBench artifact")


def _records(tmp_path):
    path = tmp_path / "records.jsonl"
    parts = [resources.files("qbcore.batch").joinpath("data", "sample_results.jsonl").read_bytes()]
    for adapter in ("oracle", "naive"):
        out = tmp_path / f"{adapter}.jsonl"
        subprocess.run([sys.executable, "-m", "quotebench", "run", "--adapter", adapter, "--out", str(out)],
                       cwd=ARTIFACT, check=True, capture_output=True, stdin=subprocess.DEVNULL)
        parts.append(out.read_bytes())
    path.write_bytes(b"".join(parts))
    return path


def _verdicts(path):
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    return sorted((r["task_id"], r["model"], r["contract"], r["adapter"], r["passed"], r["first_error_class"])
                  for r in rows)


def bench_replay_throughput(tmp_path):
    from qbcore.realbash.replay import replay

    records = _records(tmp_path)
    raw_only = tmp_path / "raw.jsonl"  # the artifact's replay runs the stored command: compare raw contracts
    raw_only.write_text("".join(line + "\n" for line in records.read_text().splitlines()
                                if json.loads(line)["contract"] == "raw"))
    attempts = sum(len(json.loads(line)["attempts"]) for line in raw_only.read_text().splitlines())

    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "quotebench", "replay", str(raw_only), "--executor", "local",
                    "--out", str(tmp_path / "artifact.jsonl")], cwd=ARTIFACT, check=True, capture_output=True,
                   stdin=subprocess.DEVNULL)
    artifact_s = time.perf_counter() - started

    started = time.perf_counter()
    with open(raw_only, "rb") as source:
        replay(source, "raw", str(tmp_path / "qbcore.jsonl"), resume=False)
    qbcore_s = time.perf_counter() - started

    artifact_rate, qbcore_rate = attempts / artifact_s, attempts / qbcore_s
    print(f"\n{attempts} attempts: artifact local {artifact_s:.2f} s ({artifact_rate:.1f}/s), "
          f"qbcore sandboxed {qbcore_s:.2f} s ({qbcore_rate:.1f}/s), ratio {qbcore_rate / artifact_rate:.2f}x")
    assert _verdicts(tmp_path / "artifact.jsonl") == _verdicts(tmp_path / "qbcore.jsonl")
