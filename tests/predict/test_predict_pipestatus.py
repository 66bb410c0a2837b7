"""Replies that read PIPESTATUS, predicted and executed under every shell transport: the inner
shell's statuses where the script arrives intact, and the outer shell's (a new shell's, empty)
where an outer layer expands them first."""

from predicting import ListedReplies, decided_share

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


class TestPipestatusReplies(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS

    def test_most_pairs_are_decided(self):
        assert decided_share(REPLIES, TRANSPORTS) >= 0.75
