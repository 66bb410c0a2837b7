"""`qbcore screen`'s verdicts on the command line: the README's main command prints what the README
shows; --verify and --no-predict; the summary's tables."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import sandboxing
from predicting import UNDECIDED

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "qbcore" / "batch" / "data" / "sample_replies.jsonl"


def cli(*args, cwd=None, timeout=600):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "qbcore", "screen", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=timeout)


def rows(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


def small_input(tmp_path, ids, extra=()):
    source = tmp_path / "replies.jsonl"
    chosen = [line for line in open(SAMPLES) if json.loads(line)["id"] in ids]
    source.write_text("".join(chosen) + "".join(json.dumps(r) + "\n" for r in extra))
    return source


def test_the_readme_shows_what_the_main_command_prints(tmp_path):
    readme = (ROOT / "README.md").read_text()
    assert "python3 -m pip install . && qbcore screen\n" in readme
    shown = re.search(r"\n```\n(screened .*?)```\n", readme, re.S).group(1)
    done = cli(cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown
    assert (tmp_path / "screen-results.jsonl").exists()


def test_the_json_summary_carries_the_verdicts(tmp_path):
    done = cli("-o", tmp_path / "out.jsonl", "-t", "raw", "-t", "nested", "--format", "json")
    assert done.returncode == 0, done.stderr
    verdicts = json.loads(done.stdout)["verdicts"]
    crossover = {entry["model"]: entry for entry in verdicts["crossover"]}
    assert set(crossover) == {"model-a", "model-b"}
    assert set(crossover["model-a"]["cells"]) == {"RR", "RN", "NR", "NN"}
    assert crossover["model-a"]["cells"]["RR"]["predicted"]["passed"] > 0
    assert crossover["model-a"]["cells"]["RR"]["executed"] is None and not verdicts["verified"]
    assert verdicts["overall"]["pairs"] == 2 * sum(1 for _ in open(SAMPLES))


def test_no_predict_screens_delivery_only(tmp_path):
    out = tmp_path / "out.jsonl"
    done = cli("-o", out, "-t", "raw", "--no-predict")
    assert done.returncode == 0, done.stderr
    assert "predicted" not in done.stdout and "crossover" not in done.stdout
    assert all("predicted" not in row for row in rows(out))


def test_verify_goes_with_neither_no_predict_nor_dask(tmp_path):
    for extra, message in ((["--no-predict"], "cannot go with --no-predict"),
                           (["--dask", "tcp://127.0.0.1:1"], "cannot go with --dask")):
        done = cli("-o", tmp_path / "out.jsonl", "--verify", *extra)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and message in done.stderr
    assert not (tmp_path / "out.jsonl").exists()


def test_verify_unknown_runs_the_undecided_pairs_in_the_sandbox(tmp_path):
    sandboxing.need_sandbox()
    # a pair that passes, one that fails, and one the model leaves open under nested
    source = small_input(tmp_path, {"sample-01", "sample-03"}, [UNDECIDED])
    out = tmp_path / "out.jsonl"
    done = cli(source, "-o", out, "-t", "raw", "-t", "nested", "--verify=unknown")
    assert done.returncode == 0, done.stderr
    found = rows(out)
    assert [r["executed"] is not None for r in found] == [not r["predicted"]["certain"] for r in found]
    left = {r["transport"]: r for r in found if r["id"] == UNDECIDED["id"]}
    assert left["raw"]["predicted"]["certain"] and left["raw"]["executed"] is None
    assert left["nested"]["executed"]["passed"] is False and left["nested"]["agree"] is None
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"predicted +pass +fail +unknown +executed: +pass +fail +agree +disagree", lines[4])
    assert re.fullmatch(r"raw +1 +2 +0 +0 +0 +0 +0", lines[5])
    assert re.fullmatch(r"nested +1 +1 +1 +0 +1 +0 +0", lines[6])
    assert re.search(r"^  RN: 0/1   0\.0% \[0–79\] +1 unknown;  executed 0/1   0\.0% \[0–79\] "
                     r"\(of the 1 pairs run\)$", done.stdout, re.M)
    assert "executed: damage" not in done.stdout  # not from a part of the cells
    assert re.search(r"^all +5/6 \(83\.3%\) +not verified$", done.stdout, re.M)  # no certain one was run
    # everything: each certain prediction is run and agrees; a rerun resumes and prints the same summary
    done = cli(source, "-o", out, "-t", "raw", "-t", "nested", "--verify")
    assert done.returncode == 0, done.stderr
    assert re.search(r"^all +5/6 \(83\.3%\) +5/5 \(100\.0%\)$", done.stdout, re.M)
    assert re.search(r"^  RN: 0/1   0\.0% \[0–79\] +1 unknown;  executed 0/2   0\.0% \[0–66\]$",
                     done.stdout, re.M)
    assert re.search(r"^  executed: damage \+0\.0 pts$", done.stdout, re.M)
    again = cli(source, "-o", out, "-t", "raw", "-t", "nested", "--verify")
    assert again.stdout.splitlines()[1:] == done.stdout.splitlines()[1:]
    assert again.stdout.startswith("screened 0 (reply, transport) pairs (0 errors), 6 already done")
