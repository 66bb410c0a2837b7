"""The EXIT trap against bash: it runs when the shell ends (the script's end, exit, set -e, a
syntax error of a -c script), in the shell, with `$?` the status it ends with, and leaves that
status unless it calls exit; subshells and command substitutions do not run it."""

import bashref
import pytest
from utilities_diff import lay, script_model, virtual_tree, real_tree, SCRIPT_ROOT

SCRIPTS = [
    'trap "false" EXIT; true; echo a > a',
    'trap "echo t > t; exit 3" EXIT; true',
    'trap "echo t:\\$? > t" EXIT; exit 4',
    'trap "echo t:\\$? > t" EXIT\nif',
    'trap "echo t:\\$? > t" EXIT\n[[ ]]',
    'set -e; trap "echo t:\\$? > t" EXIT; false; echo no > no',
    'trap "echo t >> t" EXIT; (exit 2); echo sub > s',
    'trap "echo t >> t" EXIT; x=$(echo in); echo $x > x',
    'trap "echo t > t" EXIT INT TERM; echo body > b',
    'f() { trap "echo ft > t" EXIT; }; f; echo body > b',
    'trap "echo one > t" EXIT; trap "echo two > t" EXIT; echo body > b',
    'trap "echo one > t" EXIT; trap - EXIT; echo body > b',
    "trap '' EXIT; echo body > b",
    'trap "echo t > t" 0; echo body > b',
    'trap "echo \\$? > t" EXIT; false',
    'trap "rm k" EXIT; cat k > copy',
    '[ -f k ] && trap "rm k" EXIT; echo x > y',
    "f=k; trap 'rm -f \"$f\"' EXIT; f=y; echo x > y",
    # one word: a signal alone is reset (any case, SIG or not, or its number); another word is
    # bash's usage error (status 2, the message without `bash:`)
    'trap "echo t > t" EXIT; trap EXIT; echo b > b', 'trap "echo t > t" EXIT; trap 0; echo b > b',
    'trap "echo t > t" EXIT; trap exit; echo $? > s', 'trap "echo t > t" EXIT; trap sigint; echo $? > s',
    'trap "echo t > t" EXIT; trap rm 2> e; echo $? > s', "trap '' 2> e; echo $? > s", "trap 99 2> e; echo $? > s",
    "trap - 2> e; echo $? > s", "trap -- rm 2> e; echo $? > s", "printf 2> e; echo $? > s",
    # a word that names no signal is refused on its own (status 1, `trap: W: invalid signal
    # specification`, several messages not spelled); the other signals are set
    'tmp=x; trap rm -f "" EXIT 2> /dev/null; echo $? > s; echo b > b', 'trap "echo t > t" nosuch 0 2> e; echo $? > s',
    'trap -- "echo t > t" -1 99 2> /dev/null; echo $? > s', 'set -e; trap "echo t > t" EXIT bad 2> e; echo b > b',
    'trap "echo t > t" -- INT 2> e; echo $? > s',
    # more operands than one, the first a number: "too many arguments", and a -c string's shell ends
    # with 1 (its EXIT trap runs); a subshell ends with 1
    "exit 1 2 2> e; echo b > b", "trap 'echo t$? > t' EXIT; exit 3 4 2> e", "(exit 1 2; echo s > s) 2> e; echo $? > st",
    "set -- a b; shift 1 2 2> e; echo b > b", "f() { return 3 4; echo in > i; }; f 2> /dev/null; echo b > b",
    "for i in 1; do continue 0 2; done 2> /dev/null; echo b > b", "return 1 2 2> e; echo b > b",
]
# a trap in a subshell, for other signals, in the background, listed; an exit inside a function
UNKNOWN = [
    '( trap "echo sub-t > st" EXIT; echo s ); echo after > a',
    'f() { local x=in; exit 2; }; trap "echo \\$x > t" EXIT; x=out; f',
    "trap 'exit 1 2; echo t > t' EXIT; echo b > b",  # (the jump ends a trap's action)
    'trap "echo t > t" DEBUG; false', 'trap "echo t > t" EXIT &', 'trap -p', 'trap usr1; echo b > b',
]


def _both(script, tmp_path):
    lay(str(tmp_path), {"k": b"kk"})
    real = bashref.run(script, cwd=str(tmp_path))
    run, tree = script_model(script, {"k": b"kk"})
    return real, run, tree


@pytest.mark.bash
@pytest.mark.parametrize("script", SCRIPTS)
def test_exit_trap_as_bash(script, tmp_path):
    real, run, tree = _both(script, tmp_path)
    assert run.unknown is None and run.files.lost is None, (run.unknown, run.files.lost)
    assert virtual_tree(tree, SCRIPT_ROOT) == real_tree(str(tmp_path), SCRIPT_ROOT), real.error
    assert run.status == real.status


@pytest.mark.bash
@pytest.mark.parametrize("script", UNKNOWN)
def test_what_is_not_modelled_is_unknown(script, tmp_path):
    _, run, _ = _both(script, tmp_path)
    assert run.unknown is not None or run.files.lost is not None
