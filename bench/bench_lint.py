"""qbcore lint speed: 10,000 stored replies under nested, and the labelled corpus, beside ShellCheck.

Run: python bench/bench_lint.py   (from the repository root; prints a table)

The 10,000 replies are the short agent commands of tests/support/lexcorpus.py, the
QuoteBench reply shapes of tests/support/corpus_replies.py and the bundled sample
replies, in turn, as a stored-reply file holds them (the same reply under
several trials and models). Three qbcore figures: as stored (each distinct
reply is analysed once per run), every reply analysed afresh (the cache
cleared before each), and screen's own simulate on the same replies, which
lint cannot go below. ShellCheck reads the same replies, one file each, in
one process call (its fastest use); and the corpus commands likewise.
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from importlib import resources

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from corpus_replies import CORPUS  # noqa: E402
from lexcorpus import agent_commands  # noqa: E402
from lintcorpus import load_cases  # noqa: E402

from qbcore.lint import lint_reply, lint_text  # noqa: E402
from qbcore.lint.engine import reply_layer  # noqa: E402
from qbcore.batch.screen import delivery  # noqa: E402
from qbcore.harness.simulate import simulate  # noqa: E402

COUNT = 10_000


def stored_replies():
    with resources.files("qbcore.batch").joinpath("data", "sample_replies.jsonl").open("rb") as handle:
        samples = [json.loads(line)["reply"] for line in handle if line.strip()]
    pool = agent_commands() + [r for _, r in CORPUS] + samples
    return [pool[i % len(pool)] for i in range(COUNT)], len(set(pool))


def timed(action):
    start = time.perf_counter()
    result = action()
    return time.perf_counter() - start, result


def shellcheck_files(texts):
    """Seconds for ShellCheck on each text as its own file, all in one call."""
    with tempfile.TemporaryDirectory() as root:
        paths = []
        for n, text in enumerate(texts):
            path = os.path.join(root, f"r{n}.sh")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("#!/bin/bash\n" + text + "\n")
            paths.append(path)
        start = time.perf_counter()
        for chunk in range(0, len(paths), 2000):  # keep the argument list under the system's limit
            subprocess.run(["shellcheck", "-f", "gcc", *paths[chunk:chunk + 2000]], capture_output=True)
        return time.perf_counter() - start


def main():
    replies, distinct = stored_replies()
    reply_layer.cache_clear()
    as_stored, flagged = timed(lambda: sum(1 for r in replies if lint_reply(r, ["nested"])))

    def fresh():
        n = 0
        for r in replies:
            reply_layer.cache_clear()
            n += bool(lint_reply(r, ["nested"]))
        return n

    afresh, flagged_again = timed(fresh)
    screen_only, damaged = timed(lambda: sum(1 for r in replies
                                             if delivery(r, "nested", simulate(r, "nested")) != "intact"))
    assert flagged == flagged_again == damaged  # lint flags exactly what screen finds damaged
    shellcheck = shellcheck_files(replies)
    commands = [c["command"] for c in load_cases()]
    corpus_qb, _ = timed(lambda: [lint_text(c) for c in commands])
    corpus_sc = shellcheck_files(commands)
    print(f"{COUNT} stored replies ({distinct} distinct), transport nested; {flagged} flagged")
    print(f"| tool | seconds | replies/s |\n|---|---|---|")
    for name, seconds in (("qbcore lint, as stored", as_stored), ("qbcore lint, every reply afresh", afresh),
                          ("screen's simulate alone (afresh)", screen_only),
                          ("ShellCheck (one call, a file per reply)", shellcheck)):
        print(f"| {name} | {seconds:.2f} | {COUNT / seconds:,.0f} |")
    print(f"\nlabelled corpus ({len(commands)} commands, mode 2): qbcore {corpus_qb:.3f} s, ShellCheck {corpus_sc:.3f} s")


if __name__ == "__main__":
    main()
