"""qbcore lint and ShellCheck on the labelled corpus: who finds which bash-confirmed hazard.

Run from the repository root: ``python tests/support/corpus/lint/compare.py``. Each
command is linted as its own bash script. ShellCheck counts as finding a
case when it reports anything (any severity, any code); qbcore when it
reports an error or a warning. Prints a Markdown table and the scores.
"""

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from lintcorpus import load_cases, load_labels  # noqa: E402

from qbcore.lint import lint_text  # noqa: E402


def shellcheck_codes(command: str) -> list:
    with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as handle:
        handle.write("#!/bin/bash\n" + command + "\n")
    try:
        out = subprocess.run(["shellcheck", "-f", "json", handle.name], capture_output=True, text=True).stdout
    finally:
        os.unlink(handle.name)
    # SC2154 (assigned elsewhere) and SC2034 (unused) are about the snippet, not about nesting
    return [f"SC{c['code']}" for c in json.loads(out or "[]") if c["code"] not in (2154, 2034)]


def main():
    cases, labels = load_cases(), load_labels()
    rows, both, only_qb, only_sc, neither = [], [], [], [], []
    tp = fp = fn = sc_tp = sc_fp = 0
    for case in cases:
        confirmed = labels[case["id"]]["confirmed"]
        qb = sorted({f.code for f in lint_text(case["command"]) if f.severity in ("error", "warning")})
        sc = sorted(set(shellcheck_codes(case["command"])))
        if confirmed:
            tp += bool(qb)
            fn += not qb
            sc_tp += bool(sc)
            (both if qb and sc else only_qb if qb else only_sc if sc else neither).append(case["id"])
        else:
            fp += bool(qb)
            sc_fp += bool(sc)
        rows.append((case["id"], "hazard" if confirmed else "intact", ",".join(qb) or "-", ",".join(sc) or "-"))
    print("| case | bash label | qbcore (error/warning) | ShellCheck (any) |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(f"`{c}`" if i == 0 else c for i, c in enumerate(row)) + " |")
    hazards = tp + fn
    print()
    print(f"bash-confirmed hazards: {hazards}; correct commands: {len(cases) - hazards}")
    print(f"qbcore: recall {tp}/{hazards} = {tp / hazards:.1%}, precision {tp}/{tp + fp} = "
          f"{tp / max(tp + fp, 1):.1%}, flags on correct commands: {fp}")
    print(f"ShellCheck: recall {sc_tp}/{hazards} = {sc_tp / hazards:.1%}, precision {sc_tp}/{sc_tp + sc_fp} = "
          f"{sc_tp / max(sc_tp + sc_fp, 1):.1%}, flags on correct commands: {sc_fp}")
    print(f"found by both: {len(both)}; only qbcore: {len(only_qb)} ({', '.join(only_qb)}); "
          f"only ShellCheck: {len(only_sc)} ({', '.join(only_sc) or '-'}); neither: {', '.join(neither) or '-'}")


if __name__ == "__main__":
    main()
