"""The command registry and its builtins: scope of eval and function calls, the one
printf/echo, the one escape decoder, each checked against bash 5.2."""


import pytest

import bashref
from utilities_diff import compare
from qbcore.model.commands import BUILTINS, MODELLED, Invocation, Outcome, lookup
from qbcore.model.evaluate import evaluate
from qbcore.model.expand import Env, Opaque
from qbcore.syntax import escapes
from qbcore.syntax.parser import decode_ansi_c, parse

# eval runs in the scope of its caller: a `local` it makes belongs to the function
EVAL_SCOPE = [
    'f() { eval "local x=1"; echo "in:$x"; }; x=0; f; echo "out:$x"',
    "f() { eval 'local x=inner; x=changed'; g; }; g() { echo \"g:$x\"; }; x=outer; f; echo \"after:$x\"",
    "f() { local x=1; eval 'local x=2'; echo \"$x\"; }; x=0; f; echo \"$x\"",
    'eval "local x=1"; echo "st=$?"',
    "f() { eval \"eval 'local y=deep'\"; echo \"[$y]\"; }; f; echo \"[${y-unset}]\"",
    'f() { eval "local z"; echo "[${z-unset}]"; }; z=set; f; echo "[$z]"',
    "f() { eval 'local a=1 b=2'; echo \"$a$b\"; return 3; }; f; echo \"st=$? [${a-u}${b-u}]\"",
    "f() { g() { eval 'local v=g'; echo \"$v\"; }; g; echo \"${v-none}\"; }; v=top; f; echo $v",
]


@pytest.mark.bash
@pytest.mark.parametrize("script", EVAL_SCOPE)
def test_eval_runs_in_the_scope_of_its_caller(script, tmp_path):
    outcome = bashref.run(script, cwd=str(tmp_path))
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert (result.stdout, result.status) == (outcome.text, outcome.status)
    assert bashref.model_stderr(result.commands) == outcome.error


# corners where the evaluator's and the utility models' printf/echo used to differ
PRINTF_CORNERS = [
    "printf '%q|' a~ x,y a# '~a' '#a' 'a b' $'a\\x7fb' ''",
    "printf '[%c]' ''; printf '[%3c]' ''; printf '[%.0c]' x",
    "printf '[%05.3d][%+u][%#x][%#o][% u][%-05d][%.0d][%+.0d][%#.0o][% 05d]' 7 5 0 0 5 3 0 0 0 -3",
    "printf '[%#X][%#08x][%+ d][%.3s][%.s][%05s][%08.3x][%#5x][%-#8o]' 255 255 4 abcdef xyz ab 255 255 8",
    "printf '[%*s][%.*s][%-*d]' -5 x -2 abc 4 7",
    "printf '[%d]' ' 5 ' '5 ' ' 5' 08 0x '' \"'A\"",
    "printf 'a%5%b'",
    "printf '%d%b' x '\\c'",
    "printf '\\u0041\\x41\\101\\q\\c|'; printf '%b|' '\\u0041\\0101\\101'",
    "echo -e '\\u0041\\0101\\101\\x41'; echo -e 'a\\cb'",
    "printf '[%.2q]' 'a b'",
    "printf '%'",
    "printf '%u %x %o %u|' 18446744073709551615 9223372036854775808 -1 -18446744073709551615",
]


@pytest.mark.bash
@pytest.mark.parametrize("script", PRINTF_CORNERS)
def test_printf_and_echo_corners(script, tmp_path):
    script += '; echo " st=$?"'
    outcome = bashref.run(script, cwd=str(tmp_path))
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert not isinstance(result.stdout, Opaque), result.opaque
    assert (result.stdout, result.status) == (outcome.text, outcome.status)


UTILITY_CORNERS = [
    ["printf", "%q|", "a~", "x,y", "a#", "~a", "#a", "a\x7fb"],
    ["printf", "[%c][%3c][%.0c]", "", "", "x"],
    ["printf", "[%05.3d][%+u][%#x][%#o][% u][%-05d][%.0d][%+.0d][%#.0o][% 05d]", "7", "5", "0", "0", "5",
     "3", "0", "0", "0", "-3"],
    ["printf", "[%*s][%.*s][%-*d]", "-5", "x", "-2", "abc", "4", "7"],
    ["printf", "[%d]", " 5 ", "5 ", " 5", "08", "0x"],
    ["printf", "%d%b", "x", "\\c"],
    ["printf", "\\u0041|%b", "\\u0041"],
    ["echo", "-e", "\\u0041\\0101\\101"],
]


@pytest.mark.bash
@pytest.mark.parametrize("argv", UTILITY_CORNERS, ids=[" ".join(a)[:50] for a in UTILITY_CORNERS])
def test_the_utility_models_print_as_the_builtins_do(argv):
    assert compare(argv) is True


def test_a_unicode_escape_beyond_ascii_is_unknown_not_a_crash(tmp_path):
    # in the C locale bash prints \u00e9 as the escape itself; elsewhere as UTF-8: not modelled
    for script in ("echo -e '\\u00e9'", "printf '\\u00e9'", "printf %b '\\U000000e9'"):
        result = evaluate(parse(script), Env.default(str(tmp_path)))
        assert isinstance(result.stdout, Opaque), script


@pytest.mark.bash
def test_ansi_c_strings_decode_as_bash_does(tmp_path):
    bodies = ["a\\tb\\n", "\\101\\x41\\0\\q", "\\cA\\c?\\ca", "\\'\\\"\\?\\\\", "\\x\\u\\U", "\\1234\\x414",
              "\\u0041\\U00000042", "\\e\\E\\a\\b\\f\\v\\r", "\\cé|\\cß|\\c["]
    script = "".join(f"printf '%s\\0' $'{body}'; " for body in bodies)
    outcome = bashref.run(script, cwd=str(tmp_path))
    assert outcome.nul_fields() == [decode_ansi_c(body) for body in bodies]


def test_the_dialects_differ_only_where_bash_does():
    text = "\\101\\0101\\c.\\'\\x41"
    assert escapes.decode(text, escapes.ANSI_C) == ("A\x081\x0e'A", False)
    assert escapes.decode(text, escapes.ECHO) == ("\\101A", True)
    assert escapes.decode(text, escapes.PRINTF_B) == ("AA", True)
    assert escapes.decode(text, escapes.FORMAT) == ("A\x081\\c.'A", False)


def test_every_modelled_builtin_has_an_entry_and_others_fall_back():
    for name in MODELLED:
        assert name in BUILTINS
    assert lookup("no-such-command") is BUILTINS[None]
    assert "exec" in BUILTINS and "exec" not in MODELLED  # it replaces the shell: effects unknown


def test_an_outcome_is_a_frozen_record(tmp_path):
    outcome = Outcome(0, "x\n")
    # FrozenInstanceError from the source, AttributeError from the compiled (typed) record
    with pytest.raises(AttributeError):
        outcome.status = 1  # type: ignore[misc]
    assert outcome.unknown is None and Outcome(Opaque("status of zz"), modelled=False).unknown == "status of zz"


def test_a_model_receives_argv_state_and_the_file_view(tmp_path):
    env = Env.default(str(tmp_path))
    seen = []

    class Shell:
        errexit, scope, certain = False, None, True

        def note(self, names):
            seen.extend(names)

        def text(self, node):
            return "cmd"

    ctx = Invocation(["cd", "/"], env, Shell(), node=None)
    assert ctx.files is env.files and ctx.stdin is None and ctx.args == ["/"]
    assert lookup("cd")(ctx) == Outcome(0) and env.cwd == "/"
    fallback = lookup("frobnicate")(Invocation(["frobnicate"], env, Shell(), node=None))
    assert not fallback.modelled and fallback.unknown == "status of frobnicate"


def test_utility_models_plug_in_as_entries_over_a_virtual_tree(tmp_path):
    from qbcore.model.commands import programs
    from qbcore.model.utilities.vfs import VirtualTree

    table = programs.entries()
    assert {"cat", "sed", "grep", "mv"} <= set(table) and "printf" not in table
    assert not set(table) & (set(BUILTINS) - {None})  # not wired into the evaluator by default

    class Shell:
        errexit, scope, certain = False, None, True

        def note(self, names):
            pass

        def text(self, node):
            return "cat"

    env = Env.default("/task")
    argv = ["cat", "-", "a.txt", "nope"]
    # the evaluator's file view and an unknown stdin: not modelled, as before
    assert not table["cat"](Invocation(argv, env, Shell(), node=None)).modelled
    env.files = VirtualTree.from_listing({"/task": None, "/task/a.txt": b"alpha\n"})
    outcome = table["cat"](Invocation(argv, env, Shell(), node=None, stdin=b"in\n"))
    assert outcome == Outcome(1, "in\nalpha\n", stderr="cat: nope: No such file or directory\n")
