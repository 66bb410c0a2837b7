"""``trap ACTION ERR`` against bash: run where set -e would exit (set -e or not), once for a
compound command (by the command that failed inside it), not inside a function, subshell or
command substitution (no set -E), with ``$?`` the failure's status, never while it runs."""

import pytest

from utilities_diff import compare_script, script_model

pytestmark = pytest.mark.bash

FIXTURE = {"d/x": b"x"}

SCRIPTS = [
    "trap 'echo ERR $? >> o' ERR; for f in x; do false; done",
    "trap 'echo ERR >> o' ERR; { false; }; if true; then false; fi; echo $? >> o",
    "trap 'echo ERR >> o' ERR; f() { false; echo in >> o; }; f; g() { false; }; g; echo $? >> o",
    "trap 'echo ERR >> o' ERR; (false); (exit 3); echo $? >> o",
    "trap 'echo ERR >> o' ERR; false && true; false || false; ! false; false | true; true | false; echo x >> o",
    "trap 'echo ERR >> o' ERR; x=$(false); y=$(false; echo in); echo \"$y\" >> o",
    "trap 'echo E >> o' ERR; (false; echo in >> o); { false; echo in >> o; } | cat",
    "set -e; trap 'echo ERR $? >> o' ERR; false; echo no >> o",
    "trap 'echo ERR >> o; false' ERR; false; echo after $? >> o",
    "trap 'echo ERR >> o' ERR; while false; do :; done; case x in x) false;; esac; { false; } || true",
    "trap 'echo ERR >> o' ERR; trap - ERR; false; echo $? > o",
    "set -euo pipefail; trap 'echo failed line $LINENO >> o' ERR; echo a > p; ls nope 2>/dev/null; echo b >> p",
    "trap 'echo E >> o; exit 7' ERR; false; echo no >> o",
    "trap 'echo E >> o' ERR; eval false; echo $? >> o",
    "trap '' ERR; false; echo $? > o",
    # a trap the action clears or sets stays so
    "trap 'echo E >> o; trap - ERR' ERR; false; false; echo done >> o",
    "trap 'echo E >> o; trap \"echo F >> o\" ERR' ERR; false; false",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_err_trap_runs_as_in_bash(script, tmp_path):
    compare_script(script, FIXTURE, where=tmp_path, certain=True, status=True)


@pytest.mark.parametrize("script", [
    "f() { trap 'echo E >> o' ERR; }; f; false",  # set in a function
    "trap 'echo E >> o' ERR; [ $RANDOM -gt 5 ]",  # may run
    "set -E; trap 'echo E >> o' ERR; f() { false; }; f",
])
def test_err_trap_not_followed_is_unknown(script):
    run, _ = script_model(script, FIXTURE)
    assert run.unknown is not None or run.files.lost is not None
