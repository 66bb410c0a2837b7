"""Static evaluation: output, exit status, argv of unknown commands and files, against bash."""

import os

import pytest

import bashref
from qbcore.model.evaluate import evaluate
from qbcore.model.expand import Env, Opaque
from qbcore.syntax.parser import parse, parse_prefix

# Scripts made only of what the model knows: its stdout and status must be bash's.
KNOWN = [
    "echo hi; echo -n a; echo -e 'b\\tc'; echo -E 'd\\te' -n",
    "printf '%s|' a b c; printf '%d-%05.1s-%x\\n' 42 abc 255 7; printf 'no newline'",
    "printf '%q ' 'a b' \"it's\" '' x; printf '%b' 'a\\nb\\c' ignored; printf '%3s|%-3s|\\n' a b",
    "x=1; y=$x$x; echo \"$y\"; x+=2; echo $x; a=(p q); a+=(r); echo \"${a[@]}\" ${#a[@]}",
    "set -- a 'b c' d; echo $#; shift; echo \"$1\"; set -- ; echo $#",
    "cd /; pwd; echo $PWD; cd - ; echo $OLDPWD",
    "if true; then echo yes; else echo no; fi; if false; then :; elif [[ a == a ]]; then echo elif; fi",
    "for i in 1 2 3; do echo $i; if [[ $i == 2 ]]; then break; fi; done; echo after",
    "i=0; while (( i < 3 )); do echo $i; i=$((i+1)); done; until [[ $i -le 0 ]]; do i=$((i-1)); done; echo $i",
    "case abc in a*c) echo one;& x) echo two;; *) echo three;; esac; case z in a|z) echo pipe;; esac",
    "f() { echo \"f:$1:$#\"; return 3; }; f a b; echo $?; g() { local v=in; echo $v; }; g",
    "false || echo or; true && echo and; false && echo never; ! false; echo $?",
    "x=$(echo sub; echo two); echo \"$x\"; y=`echo tick`; echo $y; z=$(false); echo $?",
    "eval 'echo evaluated; v=5'; echo $v; export E=1; echo $E; unset E; echo \"[${E-unset}]\"",
    "for ((i=0; i<3; i++)); do printf '%d,' $i; done; echo; echo $((i*10))",
    "set -e; echo before; false; echo not-reached",
    "echo start; exit 4; echo never",
    "[[ -n x && ! -z '' ]] && echo both; [[ b > a ]] && echo gt; [[ 3 -lt 10 ]] && echo lt",
    "x='a b'; printf '<%s>' $x \"$x\"; IFS=:; y='c:d'; printf '<%s>' $y; echo",
    "{ echo grouped; echo more; }; (echo sub; x=inner); echo \"${x-none}\"",
    "echo $LINENO\necho $LINENO; echo $0 $- $#",
    "echo ${unset:?custom message}; echo never",
    "echo $((1/0)); echo never",
    "for x in a b; do for y in 1 2; do [[ $y == 2 ]] && continue 2; echo $x$y; done; done",
    "printf -v out '%s-%s' a b; echo $out; echo a | true; echo piped $?",
    # an expansion error abandons the rest of its line only
    "echo ${}; echo same\necho next $?",
    "echo $((1/0)); echo same\necho next $?",
    "x=$(echo ${}; echo inside); echo \"[$x]\"\n(echo ${}; echo sub); echo after $?",
    # local variables end with their function; local outside one fails
    "x=1; f() { local x; echo \"[${x-unset}]\"; local y=2; x=3; }; f; echo \"[$x][${y-unset}]\"; "
    "local z=1; echo \"st=$? [${z-unset}]\"",
    # a heredoc body bash cannot expand fails its command, and the line goes on
    "cat <<EOF; echo same $?\na $( b\nEOF\necho next $?\ncat <<EOF\nx `y\nEOF\necho next2 $?",
    # an invalid for name is a runtime error, not a syntax error
    "for 1 in a; do echo x; done; echo $?",
    # NUL bytes are dropped from a substitution, then the trailing newlines
    "x=$(printf 'a\\0b\\n\\n'); echo \"[$x]\"",
    # $- lists the option letters in bash's order
    "set -e; echo $-; set +e -f; echo $-; set +f; echo $-",
    # eval runs the lines before its syntax error
    "eval $'echo a\\nfi'; echo st=$?",
    # $_ is the last argument of the last simple command this shell ran
    "echo a b >/dev/null; echo \"1[$_]\"; x=1; echo \"2[$_]\"; true; echo \"3[$_]\"; f() { :; }; f q r; "
    "echo \"4[$_]\"; (echo z >/dev/null); echo \"5[$_]\"; for i in m n; do :; done; echo \"7[$_]\"",
    # an empty file name cannot be opened: the command does not run
    "echo hi <''; echo $?; echo there >''; echo $?",
    # "$@" with no parameters beside empty expansions makes no word
    "set --; x=; c() { echo $#; }; c \"$@$x\" \"$x$@\" \"$@\"\"\"; c \"$@\"\"$x\" a\"$@\"; c \"${x}$@\"",
]


@pytest.fixture(scope="module")
def known_results(tmp_path_factory):
    cwd = str(tmp_path_factory.mktemp("known"))
    return cwd, [bashref.run(script, cwd=cwd) for script in KNOWN]


@pytest.mark.bash
@pytest.mark.parametrize("n", range(len(KNOWN)), ids=[k[:40] for k in KNOWN])
def test_known_scripts_match_bash(n, known_results):
    cwd, outcomes = known_results
    outcome = outcomes[n]
    result = evaluate(parse(KNOWN[n]), Env.default(cwd))
    stdout = result.stdout
    assert not isinstance(stdout, Opaque), result.opaque
    assert stdout == outcome.text
    assert result.status == outcome.status


# ---------------------------------------------------------------- unknown commands

RECORDED = [
    "mycmd a 'b c' \"$HOME\" *.txt",
    "x='1 2'; mycmd $x \"$x\" >out.log 2>&1; other <<<\"here $x\"",
    "for f in *.txt; do conv \"$f\" > \"${f%.txt}.md\"; done",
    "mycmd one; echo $(mycmd-inside sub) >/dev/null; lastcmd {a,b}",
    "a=1 mycmd $a; mycmd2 ~ x=~/y --opt=~",
    "set -- p q; tool \"$@\" \"$*\" > 'with space'",
    "echo 1\ncmd2 arg\nfi\ncmd3",
    "mycmd >&both.log; mycmd2 2>&1 >>app.log; mycmd3 &>>all.log <>rw.txt",
]
HANDLER = ("command_not_found_handle() { { printf '%s' \"$1\"; shift; for a; do printf '\\1%s' \"$a\"; done; "
           "printf '\\2'; } >>\"$QB_LOG\"; return 0; }\n")


def unknown_in_order(commands):
    """argv of the commands the model could not evaluate, substitutions first, as bash runs them."""
    out = []
    for command in commands:
        for sub in command.substitutions:
            out.extend(unknown_in_order(sub.commands))
        if not command.modelled:
            out.append(command.argv)
    return out


@pytest.mark.bash
@pytest.mark.parametrize("script", RECORDED)
def test_unknown_commands_argv_and_files_match_bash(script, tmp_path):
    cwd = tmp_path / "work"
    cwd.mkdir()
    bashref.make_tree(str(cwd), ["a.txt", "b.txt"])
    log = tmp_path / "argv.log"
    environ = dict(bashref.executor_environ(str(cwd)), QB_LOG=str(log))
    before = set(os.listdir(cwd))
    bashref.run(HANDLER + script, cwd=str(cwd), environ=environ)
    seen = log.read_bytes().decode() if log.exists() else ""
    bash_argvs = [tuple(entry.split("\1")) for entry in seen.split("\2")[:-1]]
    created = set(os.listdir(cwd)) - before

    result = evaluate(parse_prefix(script), Env.default(str(cwd)))
    unknown = unknown_in_order(result.commands)
    # every command the model could not evaluate is one bash really ran, same argv
    assert unknown == bash_argvs
    # after an unknown command, whether a redirection can open its file is unknown too
    assert all(c.certain or any(name.startswith("whether ") for name in c.opaque) for c in result.commands)
    model_created = {os.path.relpath(p, cwd) for p in result.files if p.startswith(str(cwd))}
    assert model_created == created


def test_records_carry_span_line_and_text(tmp_path):
    source = "x=1\nls -l \"$x\" >out; echo $(date)\n"
    result = evaluate(parse(source), Env.default(str(tmp_path)))
    ls = result.commands[1]
    assert ls.argv == ("ls", "-l", "1") and ls.line == 2 and ls.text == 'ls -l "$x" >out'
    assert ls.redirects[0].path == str(tmp_path / "out") and ls.redirects[0].truncates
    assert not ls.modelled and isinstance(ls.status, Opaque)
    echo = result.commands[2]
    assert echo.substitutions[0].text == "date"
    assert "$(date)" in echo.opaque and not echo.exact


def test_opaque_condition_makes_both_branches_uncertain(tmp_path):
    source = "if grep -q x f; then a=1; rm f; else b=2; fi; echo $a"
    result = evaluate(parse(source), Env.default(str(tmp_path)))
    grep, assign, rm, other, echo = result.commands
    assert grep.certain and not assign.certain and not rm.certain and not other.certain
    assert echo.certain and not echo.exact


def test_syntax_error_stops_after_earlier_lines(tmp_path):
    script = parse_prefix("echo 1\necho 2; fi\necho 3")
    result = evaluate(script, Env.default(str(tmp_path)))
    assert result.stdout == "1\n" and result.status == 2
    assert result.syntax_error.message == "syntax error near unexpected token `fi'"


# a syntax error inside a compound assignment `name=(`: bash drops the rest of that line and
# reads on from the next one (a later error of another kind ends the script with 2)
GOES_ON = ["i=(<\necho after", "echo same; i=(< x y); echo same\necho next", "if true; then i=(<\necho a\nfi\necho b",
           "i=(\n<\n)\necho after", "f() { i=(<; }\necho defined", "x=$(i=(<\necho inner); echo \"[$x]\""]
ENDS = ["i=(<", "echo before; i=(<", "false\ni=(<\n\n"]


@pytest.mark.parametrize("source", GOES_ON + ENDS)
def test_a_syntax_error_in_a_compound_assignment_is_followed_only_where_nothing_comes_after(source, tmp_path):
    real = bashref.run(source, cwd=str(tmp_path))
    result = evaluate(parse_prefix(source), Env.default(str(tmp_path)))
    assert result.syntax_error is not None or source.startswith("x=$("), result
    if source in GOES_ON:
        # bash went on (its later lines printed, or failed to parse): the model does not know the rest
        assert real.stdout or real.stderr.count(b"syntax error") > 1, real
        assert isinstance(result.stdout, Opaque), (real, result.stdout)
        assert any("goes on reading" in name for name in result.opaque), result.opaque
    else:
        assert real.stdout.decode() == result.stdout and real.status == 1, (real, result.stdout)
        assert not any("goes on reading" in name for name in result.opaque), result.opaque


# `=(` that opens no compound assignment (not after a name at the start of a word): the error is
# bash's usual one, which ends the script with 2 (the lines after it never run)
NO_ARRAY = ["echo \"a=(\" '\necho after", "bash -c \"arr=(\"it's\" a test)\necho \"${arr[*]}\"\"",
            "echo before\nx='a=(' \"\necho after", "echo \\a=( '\necho after"]


@pytest.mark.parametrize("source", NO_ARRAY)
def test_a_syntax_error_outside_a_compound_assignment_ends_the_script_with_2(source, tmp_path):
    real = bashref.run(source, cwd=str(tmp_path))
    result = evaluate(parse_prefix(source), Env.default(str(tmp_path)))
    assert result.syntax_error is not None
    assert (real.status, real.stdout.decode()) == (result.status, result.stdout) == (2, real.stdout.decode()), \
        (real, result.status, result.stdout)
    assert b"after" not in real.stdout


def test_command_substitution_output_is_named_when_unknown(tmp_path):
    script = parse('x=$(git rev-parse HEAD); echo "$x"')
    result = evaluate(script, Env.default(str(tmp_path)))
    assert "$(git rev-parse HEAD)" in result.opaque
    assert isinstance(result.stdout, Opaque)


def test_background_job_does_not_change_the_shell(tmp_path):
    result = evaluate(parse("x=1 & echo \"[${x-unset}]\" $!"), Env.default(str(tmp_path)))
    assert result.commands[-1].argv[:1] == ("echo",)
    assert "$!" in result.opaque
    assert result.commands[-1].argv[1] == "[unset]"


# ---------------------------------------------------------------- what unknown builtins may change

KNOWN_MORE = [
    "[ -n x ] && echo n; [ a = b ] || echo ne; [ 3 -gt 2 ] && echo gt; [ ! -z '' ]; echo $?; test x; echo $?",
    "let 'x=2+3' y=x*2; echo $x $y $?; let 0; echo $?",
    "command echo via-command; builtin echo via-builtin; command -v cd >/dev/null; echo done",
    "shopt -u nullglob; echo *.none",
    "shopt -s nullglob; echo *.none x; shopt -s dotglob; echo *",
]


@pytest.mark.bash
@pytest.mark.parametrize("script", KNOWN_MORE)
def test_more_known_builtins_match_bash(script, tmp_path):
    outcome = bashref.run(script, cwd=str(tmp_path))
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert result.stdout == outcome.text


@pytest.mark.parametrize("script, name", [
    ("read x <in; echo $x", "$x (set by read)"),
    ("read -r -a arr <in; echo ${arr[0]}", "$arr (set by read)"),
    ("mapfile lines <in; echo ${lines[@]}", "$lines (set by mapfile)"),
    ("x=1; source ./env.sh; echo $x", "$x (after source)"),
    ("shopt -s failglob; echo *.txt", "globbing after shopt -s failglob"),
    ("shopt -s nocaseglob; echo *.txt", "globbing after shopt -s nocaseglob"),
])
def test_unknown_builtins_make_later_values_opaque(script, name, tmp_path):
    bashref.make_tree(str(tmp_path), ["in"])  # a missing input would keep the builtin from running
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert name in result.opaque
    assert isinstance(result.stdout, Opaque)


def test_exec_with_a_command_ends_the_script(tmp_path):
    result = evaluate(parse("exec mytool arg; echo never"), Env.default(str(tmp_path)))
    assert [c.argv for c in result.commands] == [("exec", "mytool", "arg")]
    assert result.exited and isinstance(result.status, Opaque)


def test_cd_and_globs_follow_a_given_listing():
    env = Env.default("/nonexistent/qbcore-root", listing=["sub/a.txt", "sub/b.txt", "top.txt", "empty/"])
    result = evaluate(parse("echo *; cd sub && echo *.txt; cd ../empty && echo x*; cd ../nowhere; echo $?"), env)
    assert result.stdout == "empty sub top.txt\na.txt b.txt\nx*\n1\n"


@pytest.mark.bash
def test_function_output_follows_its_redirection(tmp_path):
    script = "f() { echo inside; }; f >/dev/null; f; echo $?"
    outcome = bashref.run(script, cwd=str(tmp_path))
    assert evaluate(parse(script), Env.default(str(tmp_path))).stdout == outcome.text


def test_cd_below_a_missing_working_directory_is_unknown():
    result = evaluate(parse("cd sub; echo *"), Env.default("/nonexistent/qbcore-cwd"))
    assert not result.commands[0].modelled and isinstance(result.commands[0].status, Opaque)
    assert isinstance(result.stdout, Opaque)


def test_after_an_unknown_cd_relative_paths_and_globs_are_opaque(tmp_path):
    bashref.make_tree(str(tmp_path), ["a.txt"])
    result = evaluate(parse("cd \"$(mktemp -d)\"; echo *.txt >out"), Env.default(str(tmp_path)))
    echo = result.commands[-1]
    assert not echo.exact and not echo.redirects[0].exact


def test_a_loop_beyond_the_limit_makes_the_rest_uncertain(tmp_path):
    result = evaluate(parse("x=1; while :; do :; done; echo after $x"), Env.default(str(tmp_path)))
    echo = result.commands[-1]
    assert echo.argv[0] == "echo" and not echo.certain and not echo.exact
