#!/usr/bin/env python3
"""Make qbcore/batch/data/sample_results.jsonl: the bundled sample replies run by the QuoteBench artifact.

    python3 tools/sample_results.py /path/to/quoteBench

The artifact's own ``run`` (its ``file`` adapter, one task at a time) judges
each sample reply, so the file is in the artifact's result schema with the
artifact's verdicts. model-a and model-b are the samples under the ``raw``
contract; for the ``wrapped`` contract model-a is given each reply escaped
for the layer (as a model told about it would write it) and model-b the
same reply unchanged. The harness runs inside bubblewrap, as in
tools/parity_record.py. The samples of the ``nested`` contract are those
``wrapped`` replies (without the outer ``bash -c "…"``), so only the ``raw``
ones are read here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from parity_record import _sandboxed  # noqa: E402

from qbcore.harness import transports  # noqa: E402

OUT = ROOT / "qbcore" / "batch" / "data" / "sample_results.jsonl"


def main(argv=None) -> int:
    artifact = os.path.abspath((argv or sys.argv[1:])[0])
    samples = [json.loads(line) for line in open(ROOT / "qbcore" / "batch" / "data" / "sample_replies.jsonl", encoding="utf-8")]
    samples = [sample for sample in samples if sample.get("contract", "raw") == "raw"]
    records = []
    with tempfile.TemporaryDirectory(prefix="qbcore-samples-") as scratch:
        for contract in ("raw", "wrapped"):
            for sample in samples:
                reply = sample["reply"]
                if contract == "wrapped" and sample["model"] == "model-a":
                    reply = transports.escape(reply, "nested")
                    if reply is None:
                        continue
                replies = Path(scratch) / "replies.jsonl"
                replies.write_text(json.dumps({"task_id": sample["task_id"], "command": reply}) + "\n")
                out = Path(scratch) / "out.jsonl"
                argv = _sandboxed([sys.executable, "-m", "quotebench", "run", "--adapter", "file", "--file",
                                   str(replies), "--tasks", sample["task_id"], "--model", sample["model"],
                                   "--contract", contract, "--out", str(out)])
                at = argv.index("--tmpfs") + 2  # the scratch folder stays writable under the private /tmp
                argv[at:at] = ["--bind", scratch, scratch]
                done = subprocess.run(argv, cwd=artifact, capture_output=True, stdin=subprocess.DEVNULL)
                if done.returncode != 0 or not out.exists():
                    raise SystemExit(done.stderr.decode(errors="replace"))
                for line in out.read_text(encoding="utf-8").splitlines():
                    record = json.loads(line)
                    if record["task_id"] == sample["task_id"]:
                        records.append(record)
    with open(OUT, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(f"wrote {len(records)} records -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
