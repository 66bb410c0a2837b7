"""Replies that read PIPESTATUS, predicted and executed under every shell transport: the inner
shell's statuses where the script arrives intact, and the outer shell's (a new shell's, empty)
where an outer layer expands them first."""

from predicting import certain_disagreements, execute, listed_cases, raw_surprises
from qbcore import suite
from qbcore.predict import predict

WRITE = "write-file/t0-plain"
ORACLE = "printf '%s\\n' 'hello world'"

# (task, reply, passes under raw)
REPLIES = [
    (WRITE, f"{ORACLE} | tee out.txt > /dev/null; exit ${{PIPESTATUS[0]}}", True),
    (WRITE, f"{ORACLE} | tee out.txt > /dev/null; [ \"${{PIPESTATUS[1]}}\" = 0 ] || rm out.txt", True),
    (WRITE, f"false | {ORACLE} > out.txt; exit \"${{PIPESTATUS[0]}}\"", True),  # (the state decides)
    (WRITE, f"false | true; rc=${{PIPESTATUS[0]}}; {ORACLE} > out.txt; echo \"rc=$rc\" >> out.txt", False),
    (WRITE, f"{ORACLE} > out.txt; set -o pipefail; false | true; echo \"${{PIPESTATUS[*]}}\" > /tmp/s", True),
    (WRITE, f"{ORACLE} | cat > out.txt; for s in \"${{PIPESTATUS[@]}}\"; do [ \"$s\" -eq 0 ] || exit 1; done", True),
]
TRANSPORTS = ("raw", "nested", "single", "double-nested", "stdin", "ssh", "heredoc-ssh")


def test_pipestatus_predictions_agree_with_the_executor():
    cases = listed_cases(REPLIES, TRANSPORTS)
    attempts = execute(cases)
    assert not certain_disagreements(cases, attempts)
    assert not raw_surprises(REPLIES, cases, attempts)
    decided = sum(predict(suite.get(task), reply, transport).certain for task, reply, transport in cases)
    print(f"decided {decided}/{len(cases)}")
    assert decided >= len(cases) * 3 // 4
