#!/usr/bin/env python3
"""Record the QuoteBench artifact's own verdicts for a fixed set of commands, as parity data.

    python3 tools/parity_record.py /path/to/quoteBench [-o tests/parity/quotebench_verdicts.jsonl]

The commands: for every task of the artifact's core suite, the artifact's
oracle and naive commands and qbcore's oracle; mutations of them (quotes
swapped, escapes dropped, echo for printf, globs unquoted, a heredoc for a
quoted string, a wrong file name); the same payloads quoted in other styles
(double quotes, $'…', backslashes); and replies written by hand in many
styles (the bundled samples and tests/parity/hand_written.jsonl). Each runs under raw, nested, single and double-nested, wrapped as
the artifact wraps a reply for its `wrapped` contract (``bash -c "R"``) and,
for the other two layers, as qbcore's transports do. The artifact's harness
(``run_attempt`` with its local executor) judges each run; one JSON line per
run records (task id, command, transport, passed, failure class).

The artifact's local executor runs commands on the host, so the recorder
runs it inside bubblewrap (read-only root, private /tmp, no network, an
unprivileged uid as in qbcore's sandbox) unless told --unsafe-no-sandbox. The artifact is imported from the given checkout;
nothing of it is copied. qbcore is the installed one (``pip install -e .``
in this checkout).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "tests" / "parity" / "quotebench_verdicts.jsonl"
# replies written by hand, in many styles: the bundled samples and the parity set's own
HAND_WRITTEN = (ROOT / "qbcore" / "batch" / "data" / "sample_replies.jsonl", ROOT / "tests" / "parity" / "hand_written.jsonl")
TRANSPORTS = ("raw", "nested", "single", "double-nested")

# a quoted shell word as qbcore.harness.quoting.single_quote writes one: '…' joined by \'
_SQ_WORD = re.compile(r"'[^']*'(?:\\''[^']*')*")
_OUTPUT_NAMES = ("out.txt", "data.txt", "count.txt", "list.txt", "greeting.txt", "notes.txt", "config.json",
                 "doc.txt", "data_1.txt", "fixed.txt", "archive.txt", "newfile.txt", "./check_env", "./record")


# --- the commands ---------------------------------------------------------------

def _sq_value(word: str) -> str:
    return word[1:-1].replace("'\\''", "'")


def _ansi_c(text: str) -> str:
    table = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t"}
    return "$'" + "".join(table.get(c, c) for c in text) + "'"


def _backslashed(text: str) -> str:
    out = []
    for c in text:
        if c == "\n":
            out.append("$'\\n'")
        elif c.isalnum() or c in "._/-+=:,@%":
            out.append(c)
        else:
            out.append("\\" + c)
    return "".join(out) or "''"


def restyle(command: str, style: str) -> str | None:
    """The command with every single-quoted word written in another quoting ``style``."""
    from qbcore.harness.quoting import double_quote

    quote = {"double": double_quote, "ansi-c": _ansi_c, "backslash": _backslashed,
             "bare-double": lambda t: f'"{t}"'}[style]
    changed = _SQ_WORD.sub(lambda m: quote(_sq_value(m.group(0))), command)
    return changed if changed != command else None


def mutations(command: str) -> dict[str, str]:
    """The mistakes the parity set covers, each applied to ``command`` where it changes it."""
    out = {
        "quotes-swapped": command.translate(str.maketrans({"'": '"', '"': "'"})),
        "escapes-dropped": command.replace("\\", ""),
        "echo-for-printf": re.sub(r"printf '%s\\n'|printf '%s%s\\n'|printf \"%s%s\\n\"|printf '%s'|printf",
                                  "echo", command, count=1),
        "globs-unquoted": re.sub(r"'([^'\n]*[*?[][^'\n]*)'|\"([^\"\n]*[*?[][^\"\n]*)\"",
                                 lambda m: m.group(1) if m.group(1) is not None else m.group(2), command),
    }
    heredoc = re.fullmatch(r"printf '%s\\n' ('[^']*'(?:\\''[^']*')*) > (\S+)", command)
    if heredoc:
        body, target = _sq_value(heredoc.group(1)), heredoc.group(2)
        out["heredoc-unquoted"] = f"cat > {target} <<EOF\n{body}\nEOF"
        out["heredoc-quoted"] = f"cat > {target} <<'EOF'\n{body}\nEOF"
    for name in _OUTPUT_NAMES:
        if name in command:
            wrong = name.replace(".", "_.", 1) if "." in name.lstrip("./") else name + "_"
            out["wrong-file-name"] = command.replace(name, wrong, 1)
            break
    return {kind: text for kind, text in out.items() if text != command}


def commands(artifact_tasks) -> list[dict]:
    """Every (task id, command, source) of the parity set, in a fixed order, without repeats."""
    from qbcore import suite

    samples: dict[str, list[str]] = {}
    for path in HAND_WRITTEN:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                samples.setdefault(record["task_id"], []).append(record["reply"])
    rows, seen = [], set()

    def add(task_id, command, source):
        if command and (task_id, command) not in seen and "\0" not in command:
            seen.add((task_id, command))
            rows.append({"task_id": task_id, "command": command, "source": source})

    for task in artifact_tasks:
        ours = suite.get(task.task_id)
        bases = {"artifact-oracle": task.oracle, "artifact-naive": task.naive, "qbcore-oracle": ours.oracle}
        for source, command in bases.items():
            add(task.task_id, command, source)
        for source, command in bases.items():
            for kind, mutated in mutations(command).items():
                add(task.task_id, mutated, f"{source}/{kind}")
        for style in ("double", "ansi-c", "backslash", "bare-double"):
            styled = restyle(ours.oracle, style)
            if styled:
                add(task.task_id, styled, f"style/{style}")
        for reply in samples.get(task.task_id, ()):
            add(task.task_id, reply, "hand-written")
    return rows


def wrapped(command: str, transport: str, apply_contract) -> str:
    """The string the artifact hands to ``bash -c`` for a reply under ``transport``."""
    if transport == "raw":
        return command
    if transport == "nested":
        return apply_contract("wrapped", command)[0]  # the artifact's own wrapping
    from qbcore.harness import transports
    return transports.wrap(command, transport).argv[2]


# --- running the artifact -------------------------------------------------------

def _load_artifact(path: str):
    sys.path.insert(0, os.path.abspath(path))
    from quotebench import cli, harness, scenarios  # noqa: PLC0415 - the checkout is only known now
    return scenarios, harness, cli


def _judge(jobs: list[dict], artifact: str, workers: int) -> list[dict]:
    """Run each job through the artifact's harness, here (the worker side)."""
    scenarios, harness, cli = _load_artifact(artifact)
    by_id = {t.task_id: t for t in scenarios.all_tasks()}

    def one(job):
        task = by_id[job["task_id"]]
        attempt = harness.run_attempt(task, wrapped(job["command"], job["transport"], cli._apply_contract))
        return dict(job, passed=attempt.passed, **{"class": attempt.error_class})

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, jobs))


def _sandboxed(argv: list[str]) -> list[str]:
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SystemExit("parity_record: bubblewrap (bwrap) is not installed; use --unsafe-no-sandbox to run the "
                         "artifact's harness on this host")
    # an unprivileged uid, as qbcore's sandbox runs the command: permissions bite the same way
    return [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
            "--unshare-all", "--unshare-user", "--uid", "65534", "--gid", "65534", "--die-with-parent",
            "--new-session", "--", *argv]


def record(artifact: str, *, workers: int = 2, unsafe_no_sandbox: bool = False, task_filter: str = "") -> list[dict]:
    """The artifact's verdict for every (command, transport) of the parity set."""
    scenarios, _, _ = _load_artifact(artifact)
    tasks = [t for t in scenarios.all_tasks() if task_filter in t.task_id]
    jobs = [dict(row, transport=transport) for row in commands(tasks) for transport in TRANSPORTS]
    argv = [sys.executable, os.path.abspath(__file__), "--worker", os.path.abspath(artifact), "-j", str(workers)]
    if not unsafe_no_sandbox:
        argv = _sandboxed(argv)
    done = subprocess.run(argv, input=json.dumps(jobs).encode(), capture_output=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit("parity_record: the artifact's harness failed:\n" + done.stderr.decode(errors="replace"))
    results = json.loads(done.stdout)
    return [{"task_id": r["task_id"], "command": r["command"], "transport": r["transport"], "passed": r["passed"],
             "class": r["class"], "source": r["source"]} for r in results]


def artifact_commit(artifact: str) -> str:
    done = subprocess.run(["git", "-C", artifact, "rev-parse", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def write(rows: list[dict], path: Path, commit: str):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(json.dumps({"artifact": "LeonardNJU/quoteBench", "commit": commit, "rows": len(rows)}) + "\n")
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def read(path: Path) -> tuple[dict, list[dict]]:
    """The header and the rows of a recorded file."""
    with open(path, encoding="utf-8") as handle:
        header = json.loads(handle.readline())
        return header, [json.loads(line) for line in handle if line.strip()]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("artifact", help="a checkout of the QuoteBench artifact (LeonardNJU/quoteBench)")
    parser.add_argument("-o", "--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--tasks", default="", help="only task ids containing this text")
    parser.add_argument("--unsafe-no-sandbox", action="store_true")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        json.dump(_judge(json.load(sys.stdin), args.artifact, args.jobs), sys.stdout)
        return 0
    rows = record(args.artifact, workers=args.jobs, unsafe_no_sandbox=args.unsafe_no_sandbox, task_filter=args.tasks)
    write(rows, args.out, artifact_commit(args.artifact))
    failed = sum(not r["passed"] for r in rows)
    print(f"recorded {len(rows)} runs ({len(rows) - failed} pass, {failed} fail) -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
