"""Replies whose outer layer only quotes and expands known parameters skip the parser
(qbcore.harness.outerwords): the result is always the general path's."""

import os
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lexcorpus import agent_commands
from corpus_replies import CORPUS
from probing import HOSTILE_CHARS, HOSTILE_TOKENS, LONG, sandbox_ready  # noqa: F401 (a fixture)

from qbcore.harness.simulate import simulate, simulate_general
from qbcore.realbash.probe import probe

SHAPED = ["nested", "single", "ssh", "double-nested", "heredoc-ssh"]
# parameters of every kind beside plain words and the hostile alphabet
PIECES = HOSTILE_CHARS + HOSTILE_TOKENS + [
    "echo ", "x.txt", " ", '"', "'", "\\\"", "\\\\", "\\$", "$HOME", "${HOME}", "$PATH", "${PWD}/x", "$1", "$0",
    "${1}", "$10", "$x", "${x}", "$SHLVL", "$_", "$SHELL", "$RANDOM", "$LINENO", "$BASH", "$IFS", "${IFS}",
    "$HOSTNAME", "${x", "${#x}", "$-", "$ ", "$", "a=$HOME", "-c", "+x", "EOF", "\\", "!", "{", "}", "{a,b}",
    "{1..2}", ",", "..", "#", "a#", "*", "?", "[a]", "*.c", "x/*", "'*'", "\"*\"",
    # parameter operators, arrays, comments, globs with a directory part, the middle shell's command
    "${x%.txt}", "${HOME%/*}", "${x##*/}", "${x//a/b}", "${x^^}", "${x,}", "${x:-a}", "${x:-a b}", "${x-b}",
    "${HOME:-y}", "${HOME+y}", "${x:+y}", "${x:-*}", "${x:-~}", "${x:-$HOME}", "${x:=y}", "${x:0:1}", "${x?}",
    "${#x}", "${#HOME}", "${#PWD}", "${#}", "${!x}", "${x[1]}", "${x[@]}", "${x[*]}", "${#x[@]}", "${#x[0]}",
    "${x[i]}", "${HOME[0]}", "${x%'a'}", "${x%\"a\"}", "${x%}", "${_-a}", " #c", "\"#\"", "#\n", "/*",
    "../*", "./*", "a/*/b", "x/../*", "$[", "bash -c ", "\\\"", "\\'", "\n",
    # all the positional parameters, their count, a `$` that expands nothing, braces in and out of a word
    "$@", "$*", "${@}", "${*}", "$#", "$%", "$.", "$=", "$]", "{a b,c}", "{\"x y\",b}", "{a}b,c", "{x..y}", "{ ,}",
    # arithmetic: constant, over known and unknown variables, assigning, failing, not arithmetic at all
    "$((", "))", ")", "(", "$((1+2))", "$((x + 1))", "$((16#ff))", "$((2**10))", "$(( (3 + 4) * 5 ))",
    "$((SHLVL*2))", "$((HOME))", "$((RANDOM))", "$((LINENO))", "$((x=2))", "$((x++))", "$((++x))", "$((1/0))",
    "$((2**-1))", "$((08))", "$((0x1f))", "$((1 ? 2 : 3))", "$((a)+(b))", "$((-2**63 / -1))", "$((x[0]))",
    "$(($x))", "$(( 1 ,2))", "$((#))",
    # command substitutions: known and unknown outputs, outputs to split, bodies the first `)` does not end,
    # bodies that start a shell, read a file, change the files, exit, or nest; backquotes
    "$(", "$(date)", "$(pwd)", "$(true)", "$(printf %s 'a b')", "$(printf '%s\\n' x y)", '$(echo ")")',
    "$(case x in x) echo y;; esac)", "$(echo ${x:-)})", "$(echo $HOME)", "$(echo $HOSTNAME)", "$(bash -c id)",
    "$(echo a; echo b)", "$(ls *)", "$(cat x)", "$(<x)", "$(echo a > x)", "$(touch y)", "$(exit 3)",
    "$(x=1; echo $x)", "$(echo $LINENO)", "$(echo $(pwd))", "$( )", "$(echo *)", "$(ls | wc -l)", "$(cd /; pwd)",
    "$(echo '#')", "$(env)", "$(echo \"$PWD\")", "`", "`pwd`", "`date`", "`echo '`'", "`echo \\`x`", "$(:)",
    "$(printf 'a*')", "$(echo ~)",
    # ANSI-C quoting: escapes, an escaped quote, a NUL that ends it, bytes, unclosed; `$"…"`
    "$'", "$'a'", "$''", "$'a\\tb'", "$'it\\'s'", "$'\\x41\\101'", "$'a\\0b'", "$'\\xff'", "$'\\u00e9'",
    "$'\\c'", "$'\\cA'", "$'\\'", "$'*'", "$'a b'", "$'\\n'", "$\"a\"", "'$'",
    # the keys of an array: unset, a scalar's, one bash holds itself
    "${!x[@]}", "${!x[*]}", "${!HOME[@]}", "${!BASH_VERSINFO[@]}", "${!x[0]}", "${!x[@]"]
replies = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)
EXAMPLES = 20000 if LONG else 1500
# a working directory whose path an unquoted $HOME or $PWD would split or match, one
# whose files a glob would match, and none
CWDS = ["/nonexistent/qbcore", "/nonexistent/a b", "/nonexistent/x*", "/", None]


def _outcome(function, reply, transport, cwd):
    try:
        return function(reply, transport, cwd=cwd)
    except ValueError as exc:  # a NUL or a lone surrogate no harness passes on
        return str(exc)


@settings(max_examples=EXAMPLES, deadline=None, database=None)
@given(replies, st.sampled_from(SHAPED), st.sampled_from(CWDS))
def test_shaped_replies_give_the_general_paths_result(reply, transport, cwd):
    assert _outcome(simulate, reply, transport, cwd) == _outcome(simulate_general, reply, transport, cwd)


CORPORA = [c for c in agent_commands()] + [r for _, r in CORPUS]


@pytest.mark.parametrize("transport", SHAPED)
def test_corpora_give_the_general_paths_result(transport):
    for reply in CORPORA:
        assert simulate(reply, transport, cwd="/nonexistent/qbcore") == \
            simulate_general(reply, transport, cwd="/nonexistent/qbcore"), reply


def test_of_the_benchs_one_line_replies_one_takes_the_general_path(monkeypatch):
    # (bench/bench_simulate.py times these: the general path costs 10-170 us a reply)
    module = sys.modules["qbcore.harness.simulate"]
    general = []
    real = module.simulate_general
    monkeypatch.setattr(module, "simulate_general", lambda reply, transport, **kw: general.append(
        (transport, reply)) or real(reply, transport, **kw))
    for transport in SHAPED:
        for reply in CORPORA:
            if "\n" not in reply:
                simulate(reply, transport, cwd="/nonexistent/qbcore")
    # `select` is a reserved word: `select(` is left to the parser
    assert general == [("single", "jq -r '.[] | select(.age > 30) | .name' people.json")]


@pytest.mark.parametrize("transport", SHAPED)
def test_known_parameters_take_the_fast_path(transport, monkeypatch):
    module = sys.modules["qbcore.harness.simulate"]
    monkeypatch.setattr(module, "simulate_general", lambda *a, **k: pytest.fail("took the general path"))
    for reply in ['export PATH="$HOME/.local/bin:$PATH"', 'echo "$HOME" x', "printf %s ${x}", 'f "a"{b}#c',
                  "echo 'a $HOME $1' b" if transport == "single" else "echo 'it'\\''s' $1"]:
        assert simulate(reply, transport, cwd="/nonexistent/qbcore").exact


@pytest.mark.parametrize("transport", ["nested", "single", "ssh", "double-nested"])
def test_globs_over_unknown_files_are_named_as_the_expansion_names_them(transport, monkeypatch):
    reply = "find . -name '*.c'" if transport == "single" else 'find . -name "*.c"'
    for cwd in ("/nonexistent/qbcore", None):
        general = simulate_general(reply, transport, cwd=cwd)
        with monkeypatch.context() as patch:
            patch.setattr(sys.modules["qbcore.harness.simulate"], "simulate_general",
                          lambda *a, **k: pytest.fail("took the general path"))
            found = simulate(reply, transport, cwd=cwd)
        assert not found.exact and found == general


@pytest.mark.parametrize("transport", SHAPED)
def test_unknown_values_and_substitutions_take_the_general_path(transport, monkeypatch):
    module = sys.modules["qbcore.harness.simulate"]
    monkeypatch.setattr(module, "simulate_general", lambda *a, **k: "general")
    # (an absolute glob looks outside the working directory)
    glob = {"single": "ls /src/*.c", "heredoc-ssh": "$(ls $(pwd))"}.get(transport, 'x" /tmp/*"')
    # (substitutions that nest, start a shell, read $LINENO, or hold a backslash)
    # (an operator on a value the shell holds no text for, its length, $LINENO)
    # (the keys of a set variable, or of an array bash holds itself)
    for reply in ['echo "$(echo $(date))"', "echo ${RANDOM:-1}", 'echo "${#SHELL}"', "echo `echo \\$x`",
                  'a "${!x}"', 'echo "$(bash -c id)"', 'echo "$(echo $LINENO)"', "echo $LINENO", glob,
                  "echo ${!HOME[@]}", 'echo "${!BASH_VERSINFO[*]}"']:
        if transport == "single":
            reply = f"a'{reply}'b"  # out of the harness's single quotes
        assert simulate(reply, transport, cwd="/nonexistent/qbcore") == "general", reply
    reply = "a'$HOME'b" if transport == "single" else 'echo "$HOME"'
    assert simulate(reply, transport, cwd="/nonexistent/qbcore", environ={"HOME": "/h"}) == "general"


@pytest.mark.parametrize("transport", SHAPED)
@pytest.mark.parametrize("reply", [
    'echo "$(date)"', "echo `id -u`", 'docker run -v "$(pwd)":/app img', 'x=$(printf "%s" hi)',
    'echo "$(printf \'%s\' "a)b")" "$(ls | wc -l)"', 'kill $(cat pid.txt)', 'echo "$(true)" `pwd`'])
def test_plain_command_substitutions_take_the_fast_path(transport, reply, monkeypatch):
    for fast in _fast_as_general_in_both_directories(reply, transport, monkeypatch):
        assert fast.outer_effects and all(e.kind == "substitution" for e in fast.outer_effects)


@pytest.mark.parametrize("transport", SHAPED)
@pytest.mark.parametrize("reply", [
    "docker exec -it web sh -c 'echo $HOSTNAME'", 'echo "$RANDOM" $SECONDS', 'echo ${UID}:$EUID "${GROUPS}"',
    'echo "$SHELL-$(date)-$PPID" x', 'echo "$HOSTNAME"x$HOSTNAME', 'echo $BASHPID/x $EPOCHSECONDS'])
def test_parameters_the_shell_holds_no_text_for_take_the_fast_path(transport, reply, monkeypatch):
    # each is one marked piece, named as the general path names it, wherever it stands
    for fast in _fast_as_general_in_both_directories(reply, transport, monkeypatch):
        # (the single quotes of the first one quote the name again under single)
        assert any(name.startswith("$") for name in fast.opaque) or transport == "single" and "'" in reply


def _fast_as_general_in_both_directories(reply, transport, monkeypatch) -> list:
    """The fast path's Simulations of ``reply`` (taken out of single's quotes) with and
    without a working directory, each the general path's."""
    if transport == "single":
        reply = f"a'{reply}'b"  # out of the harness's single quotes
    found = []
    for cwd in ("/nonexistent/qbcore", None):
        fast, general = _fast_and_general(reply, transport, monkeypatch, cwd=cwd)
        assert fast == general
        found.append(fast)
    return found


def _fast_and_general(reply, transport, monkeypatch, cwd="/nonexistent/qbcore"):
    general = simulate_general(reply, transport, cwd=cwd)
    with monkeypatch.context() as patch:
        patch.setattr(sys.modules["qbcore.harness.simulate"], "simulate_general",
                      lambda *a, **k: pytest.fail(f"took the general path: {reply!r} under {transport}"))
        return simulate(reply, transport, cwd=cwd), general


@pytest.mark.parametrize("transport", ["nested", "single", "ssh", "double-nested"])  # (a here-document keeps `$'`)
@pytest.mark.parametrize("reply", ["grep -E '^[0-9]+$' x", "echo $'a\\tb' $'it\\'s'", "printf %s $'\\x41'"])
def test_ansi_c_quoting_takes_the_fast_path(transport, reply, monkeypatch):
    # (the harness's single quotes end where the reply's start: `$'` is unquoted)
    if transport in ("nested", "ssh", "double-nested"):
        reply = f'a"{reply}"b'  # out of the harness's double quotes
    fast, general = _fast_and_general(reply, transport, monkeypatch)
    assert fast == general


def test_an_escaped_quote_in_ansi_c_quoting_beside_a_brace_is_left_to_the_general_path(monkeypatch):
    # brace expansion reads the `\'` as the closing quote and then the `$((`: the
    # general path follows bash's reading of that (here it does not decide it)
    reply = "'${@}$'\\'$((1+2))"
    assert simulate(reply, "single") == simulate_general(reply, "single")
    monkeypatch.setattr(sys.modules["qbcore.harness.simulate"], "simulate_general", lambda *a, **k: "general")
    assert simulate(reply, "single", cwd="/nonexistent/qbcore") == "general"


@pytest.mark.parametrize("transport,reply", [
    # the reply's quote leaves the middle shell's script open: it fails, named by its $0
    ("double-nested", 'echo "Hello, World!"'),
    ("double-nested", 'mv "old name.txt" new_name.txt'),
    ("double-nested", 'cat ./-n "a b.txt"'),
    # ... or the outer shell's own script
    ("nested", 'git commit -m "it\'s"'),
    ("ssh", 'git commit -m "it\'s"'),
    ("double-nested", 'git commit -m "it\'s"'),
    ("single", "echo 'a\"b'"),
    # a backquote no other one follows, quoted or not, in the outer or the middle shell
    ("nested", "export TOKEN='a$b`c'; ./show-env"),
    ("single", "export TOKEN='a$b`c'; ./show-env"),
    ("ssh", "export TOKEN='a$b`c'; ./show-env"),
    ("double-nested", "export TOKEN='a$b`c'; ./show-env"),
    ("double-nested", 'echo \\`x'),
    ("single", "echo a'`x"),
])
def test_an_unclosed_quote_is_the_syntax_error_of_the_general_path(transport, reply, monkeypatch):
    fast, general = _fast_and_general(reply, transport, monkeypatch)
    assert fast == general
    assert fast.inner_script is None and "unexpected EOF while looking for matching" in fast.outer_error


@pytest.mark.bash
@pytest.mark.parametrize("reply", ["export TOKEN='a$b`c'; ./show-env", "echo $(printf x) `c $HOME", "a`b`c `d"])
def test_a_document_with_an_unclosed_backquote_fails_on_the_fast_path(reply, tmp_path, monkeypatch, sandbox_ready):
    # the outer shell cannot expand the body: the ssh command fails after the
    # substitutions before the backquote have run, and no inner shell starts
    fast, general = _fast_and_general(reply, "heredoc-ssh", monkeypatch)
    assert fast == general
    assert fast.inner_script is None and "here-document: cannot expand " in fast.outer_error
    assert fast.outer_error.endswith(repr(reply[reply.rindex("`"):]))
    got = probe(reply, "heredoc-ssh", root=str(tmp_path))
    assert (got.inner_script, len(got.received)) == (None, 0), got.stderr


@pytest.mark.parametrize("transport", ["nested", "ssh", "double-nested", "heredoc-ssh"])
@pytest.mark.parametrize("reply", [
    'for f in *.txt; do mv "$f" "${f%.txt}.md"; done', 'echo "${path##*/}" "${var//old/new}" "${name^^}"',
    'head -n "${LIMIT:-10}"', 'echo "${VAR-unset}" "${HOME:+set}" "${#HOME}"', 'echo "${#files[@]}" "${a[2]}"',
    '[[ -n ${CI:-} ]] && exit 0'])
def test_parameter_operators_on_known_values_take_the_fast_path(transport, reply, monkeypatch):
    fast, general = _fast_and_general(reply, transport, monkeypatch)
    assert fast == general


@pytest.mark.parametrize("transport,reply", [
    ("nested", 'gh pr create --body "Closes #12"'),  # the outer shell reads a comment
    ("ssh", 'gh pr create --body "Closes #12"'),
    ("nested", 'ls "src/*.c"'),  # a relative pattern with a directory part: the files are unknown
    ("double-nested", 'zip -r site.zip public/ -x "*.DS_Store"'),
    ("single", "awk -F, '$2 == \"bob\" {print $1}' data.csv"),  # a brace that expands nothing
    ("single", "sed -i 's/\\$HOME/~/g' notes.txt"),  # a tilde inside a word
])
def test_comments_relative_globs_braces_and_tildes_take_the_fast_path(transport, reply, monkeypatch):
    fast, general = _fast_and_general(reply, transport, monkeypatch)
    assert fast == general
    fast, general = _fast_and_general(reply, transport, monkeypatch, cwd=None)
    assert fast == general


@pytest.mark.parametrize("transport", ["nested", "ssh", "double-nested", "heredoc-ssh"])
@pytest.mark.parametrize("reply", [
    "echo $((16#ff)) $((2**10)) $(( (3 + 4) * 5 ))", 'x=$((x + 1)); echo "$x"', 'echo "$((SHLVL * 2 + 1))"',
    "seq 1 $((10 > 3 ? 4 : 5))", 'echo "$(( (1 << 62) * 4 ))" $((-7 % 3))'])
def test_arithmetic_over_known_values_takes_the_fast_path(transport, reply, monkeypatch):
    fast, general = _fast_and_general(reply, transport, monkeypatch)
    assert fast == general and fast.exact


@pytest.mark.parametrize("transport", ["nested", "ssh", "double-nested", "heredoc-ssh"])
def test_arithmetic_that_assigns_fails_or_reads_the_unknown_takes_the_general_path(transport, monkeypatch):
    monkeypatch.setattr(sys.modules["qbcore.harness.simulate"], "simulate_general", lambda *a, **k: "general")
    for reply in ["echo $((x = 2))", "echo $((i++))", "echo $((--i))", "echo $((1 / 0))", "echo $((RANDOM % 6))",
                  "echo $((2 ** -1))", "echo $((09))", "echo $((a[1]))", "echo $(($x))", "echo $((a)+(b))"]:
        assert simulate(reply, transport, cwd="/nonexistent/qbcore") == "general", reply


def test_arithmetic_through_a_value_that_assigns_is_left_to_the_general_path():
    # bash reads a variable's value as an expression too: `$((x))` with x='y=3' sets y
    from qbcore.harness.outerwords import KnownShell, words
    from qbcore.model.expand import Env
    from qbcore.model.files import FileView

    cwd = "/nonexistent/qbcore"
    env = Env.from_environ({"x": "y=3", "n": "4", "e": "n*2"}, cwd, files=FileView(cwd, (), host=False))
    shell = KnownShell.of(env)
    before = dict(shell.variables)
    assert words("$((x)) $y", shell) is None
    assert shell.variables == before and "y" not in shell.variables
    assert words("$((e + 1))", shell) == ["9"]  # a value read as an expression that assigns nothing


@pytest.mark.parametrize("transport", ["nested", "ssh", "double-nested"])
def test_a_pattern_that_may_leave_the_working_directory_takes_the_general_path(transport, monkeypatch):
    monkeypatch.setattr(sys.modules["qbcore.harness.simulate"], "simulate_general", lambda *a, **k: "general")
    for reply in ['x" /tmp/*"', 'x" a/../../*"', 'x" ../*"']:
        assert simulate(reply, transport, cwd="/nonexistent/qbcore") == "general", reply


DOUBLE_QUOTED_PARENS = ['grep -E "^(warning|error)" log', 'git commit -m "v1.2 (50% faster)"', 'echo "a)"']


@pytest.mark.parametrize("transport,reply", [(t, r) for t in ("nested", "ssh", "double-nested")
                                             for r in DOUBLE_QUOTED_PARENS] +
                         [("single", "awk '{ print length($0) }' notes.txt"), ("single", "grep -cE '^(a|b)' f")])
def test_a_parenthesis_among_the_outer_words_is_the_syntax_error_of_the_general_path(transport, reply,
                                                                                      monkeypatch):
    fast, general = _fast_and_general(reply, transport, monkeypatch)
    assert fast == general
    assert fast.inner_script is None and "syntax error near unexpected token" in fast.outer_error


def test_a_directory_is_told_as_os_path_tells_it(tmp_path):
    from qbcore.model.files import absolute, is_directory
    for path in ["/", "/a", "/a/b", "//a", "/a/", "/a/./b", "/a/../b", "/.x", "rel", "rel/../x", "/a/.", "/a//b"]:
        assert absolute(path) == os.path.abspath(path), path
    (tmp_path / "d").mkdir()
    (tmp_path / "f").write_text("x")
    (tmp_path / "l").symlink_to(tmp_path / "d")
    (tmp_path / "m").symlink_to(tmp_path / "f")
    for name in ["d", "f", "l", "m", "missing", "f/x", "d/", "d\0x"]:
        path = str(tmp_path / name) + ("/" if name.endswith("/") else "")
        assert is_directory(path) == os.path.isdir(path), name


@pytest.mark.parametrize("transport", SHAPED)
def test_without_a_working_directory_the_path_is_looked_up_only_when_read(transport, monkeypatch):
    module = sys.modules["qbcore.harness.simulate"]
    quoted = (lambda r: f"a'{r}'b") if transport == "single" else (lambda r: r)
    expected = {reply: simulate_general(quoted(reply), transport) for reply in ['echo "$x" "${y:-z}"', 'cd "$HOME"']}
    looked = []
    real = module.os.getcwd
    monkeypatch.setattr(module.os, "getcwd", lambda: looked.append(1) or real())
    assert simulate(quoted('echo "$x" "${y:-z}"'), transport) == expected['echo "$x" "${y:-z}"']
    assert not looked
    assert simulate(quoted('cd "$HOME"'), transport) == expected['cd "$HOME"']
    assert looked


# ---- a leak that puts a list of commands in the outer shell

@pytest.mark.parametrize("transport,reply", [
    ("single", "sed -i 's|/usr/local|/opt|g' notes.txt"),  # a pipeline of four commands
    ("single", "./rsh 'cd /srv && ls -la'"),  # a command that may not run
    ("single", "ssh user@host 'cd /srv/app && git pull && systemctl restart app'"),
    ("nested", 'ssh -o StrictHostKeyChecking=no host "df -h; uptime"'),
    ("ssh", 'ssh -o StrictHostKeyChecking=no host "df -h; uptime"'),
    ("nested", 'x "a || b c; d | e && f" g'),
    ("nested", 'x "a; b; #c"'),  # a list may end with `;` (before a comment)
    ("single", "x 'a; b # c'"),
    # the harness command in the background: it may start its shell after the outer one exits
    ("single", "printf '%s\\n' 'He said \"hi\" & left; cost: $5' > out.txt"),
    ("nested", 'x "a & b && c" d'),
    ("ssh", 'x "a & b" c'),
])
def test_a_leaked_list_of_commands_takes_the_fast_path(transport, reply, monkeypatch):
    fast, general = _fast_and_general(reply, transport, monkeypatch)
    assert fast == general
    assert fast.outer_effects and all(e.kind == "command" and e.argv for e in fast.outer_effects)
    background = [n for n in fast.opaque if "background job" in n]
    assert background == fast.opaque[:len(background)]  # noted first
    assert bool(background) == ("&" in reply.replace("&&", ""))
    fast, general = _fast_and_general(reply, transport, monkeypatch, cwd=None)
    assert fast == general


@pytest.mark.bash
@pytest.mark.parametrize("transport,reply", [
    ("nested", 'python3 -c "import sys; print(sys.version)"'),  # `print(` begins a function's definition
    ("double-nested", 'python3 -c "import sys; print(sys.version)"'),
    ("single", "python3 -c 'import json; print(json.dumps({\"q\": 1}))' > out.json"),
    ("single", "sh -c 'for x in a b; do echo $x; done'"),  # `do` closes no compound command
    ("ssh", 'x "a; print (x y)"'), ("ssh", 'x "a; b c (d)"'), ("ssh", 'x "a; b c)"'), ("ssh", 'x "a | )"'),
    ("ssh", 'x "a; foo a=(1)"'), ("ssh", 'x "a && done)"'), ("ssh", 'x "a; fi; b"'), ("ssh", 'x "a; in b"'),
    ("ssh", 'x "a; print(x=1)"'), ("ssh", 'x "a; b @(c)"'), ("ssh", 'x "a; b \'c"'), ("ssh", 'x "a; b c[\'d"'),
    ("ssh", 'x "a; ls (y)>#ls"'),  # the error at `y` comes before the redirection with no target
])
def test_a_syntax_error_in_a_leaked_list_is_bashs_on_the_fast_path(transport, reply, tmp_path, monkeypatch,
                                                                   sandbox_ready):
    # bash parses the whole line before it runs any of it: nothing runs
    fast, general = _fast_and_general(reply, transport, monkeypatch)
    assert fast == general
    assert fast.inner_script is None and not fast.outer_effects
    got = probe(reply, transport, root=str(tmp_path))
    assert got.inner_script is None
    assert fast.outer_error in got.stderr.decode().splitlines(), got.stderr


@pytest.mark.parametrize("transport", ["nested", "single", "ssh"])
def test_a_leaked_list_the_words_reader_does_not_decide_takes_the_general_path(transport, monkeypatch):
    monkeypatch.setattr(sys.modules["qbcore.harness.simulate"], "simulate_general", lambda *a, **k: "general")
    # a builtin, a launcher, a shell, an assignment, a keyword, a group, a subshell; a glob in
    # the harness's pipeline (the files are those before it), a command with no name before `&&` or `||` (its status is known), a substitution; a later background job, `|&`, `;;`, an operator at the end
    for later in ["a; cd /", "a && exit 1", "a; read x", "a | xargs rm", "a; bash -c x", "a; x=1 b",
                  "a; if b", "a; { b", "a; (b)", "a; b[c d", "a; x=1 b[c", "a; select(x)", "a; declare a=(1)", "a; eval a=(1)", "a; let i=(3+4)", "a; 'f'(x)", "a; f(\"x\")", "a | ls *.c", "a | b *.c; c", "a; $x && b", "a | $x || b", "a; ls $(date)", "a; b & c", "a |& b",
                  "a;; b", "a && #c", "a | #c", "a; b > f", "a; $RANDOM"]:
        reply = f"x '{later}' y" if transport == "single" else f'x "{later}" y'
        assert simulate(reply, transport, cwd="/nonexistent/qbcore") == "general", later


@pytest.mark.parametrize("transport,reply", [
    ("single", "sed -i 's/a\\.b/a_b/; s/[0-9]\\+/N/g' notes.txt"),  # `s/[0-9]+/N/g notes.txt` is a pattern
    ("single", "x 'a; ls *.c /etc/*.d ../*.e *.c'"), ("single", "x 'a && ls *.c || b *.d'"),
    ("single", "x 'a | b; ls *.c'"),  # after the pipeline the harness starts
    ("nested", 'x "a & ls *.c"'),  # after a harness run in the background
    ("ssh", 'x "a; ls *.c"'),
])
def test_a_leaked_pattern_after_the_harness_changed_the_files_takes_the_fast_path(files_here, transport, reply,
                                                                                  monkeypatch):
    for cwd in ("/nonexistent/qbcore", None, files_here):
        fast, general = _fast_and_general(reply, transport, monkeypatch, cwd=cwd)
        assert fast == general
        assert any(note.startswith("glob ") and "(the files after " in note for note in fast.opaque)


def test_a_leaked_pattern_after_a_harness_that_runs_nothing_takes_the_general_path(files_here, monkeypatch):
    monkeypatch.setattr(sys.modules["qbcore.harness.simulate"], "simulate_general", lambda *a, **k: "general")
    for reply in ["'; ls *.c; '", "#'; ls *.c; '"]:  # `bash -c ''` and `bash -c '#'` change no file
        assert simulate(reply, "single", cwd=files_here) == "general", reply
    # the middle shell's script `bash -c "x a` is a syntax error: it runs nothing
    assert simulate('x "a; ls *.c"', "double-nested", cwd=files_here) == "general"


@pytest.mark.parametrize("transport,reply", [
    # `$PREFIX` is unset: the outer pipeline's second command has no words
    ("nested", 'sed -e "s|/usr/local|$PREFIX|g" -e \'s/\\t/    /g\' Makefile.in > Makefile'),
    ("double-nested", 'sed -e "s|/usr/local|$PREFIX|g" Makefile.in'),
    ("ssh", 'x "a; $x $y ; b && $x; c"'),
    ("single", "mysql -u root -p\"$DB_PASS\" -e 'SHOW DATABASES;'"),  # an empty name: `''`
    ("nested", 'x "a | $x"'), ("nested", 'x "a; $x #c"'),
])
def test_a_leaked_command_with_no_name_takes_the_fast_path(transport, reply, monkeypatch):
    fast, general = _fast_and_general(reply, transport, monkeypatch)
    assert fast == general
    assert any(e.kind == "command" and e.argv in ((), ("",)) for e in fast.outer_effects)
    fast, general = _fast_and_general(reply, transport, monkeypatch, cwd=None)
    assert fast == general


# pieces that leave the harness's quotes, join commands or redirect them, name them and give them words
QUOTES = ['"', "'", '\\"']
OPERATORS = [";", "; ", " | ", "|", " && ", "&&", " || ", " & ", "&", " |& ", ";;", " ;& ", " ; ", "\n", " ",
             " > ", ">", " >> ", " 2> ", "2>", " >& ", " &> ", " >| ", " > $x ", ">#", " < ", "<", "3<", " <> ",
             " <<< ", " <& ", "{x}>", "x}>"]
NAMES = ["ls", "/opt", "uptime", "''", '""', "true", "exit", "cd", "echo", "read", "bash", "ssh", "sh", "x=1",
         "a=", "if", "{", "}", "!", "time", "[[", "source", ".", "'if'", "f\\ g", "ls$HOME", "$x", "$1", "*",
         "a*", "(", ")", "#", "x'", 'x"', "$(date)", "`id`", "${HOME}", "-n", "$RANDOM", "wait", "eval",
         "done", "fi", "}", "in", "f(x)", "f (a b)", "g()", "declare", "select(x)", "f(x=1)", "'fi'",
         # redirection targets: in the working directory, a directory, missing parents, outside it
         "f", "d", "d/", "d/x", "x/y", "/dev/null", "/dev/stdout", "/etc/x", "..", "../x", "~/x", "=2.28"]
WORDS = ["", " -la", " a b", " 'q r'", ' "s t"', " $HOME", " $RANDOM", " $(date)", " *.c", " #c", " a#b", " )",
         "\\ ", " ", " x'", ' x"', " $'a'", " {a,b}", " ~", " a=b", " '", ' "', " \\", " $x#", " > f",
         " (y)", "(y)", " c)", " a=(1)", " done"]
later_commands = st.lists(st.tuples(st.sampled_from(OPERATORS), st.sampled_from(NAMES), st.sampled_from(WORDS)),
                          min_size=1, max_size=3).map(lambda parts: "".join("".join(p) for p in parts))
leaks = st.tuples(st.sampled_from(["ssh h ", "./rsh ", "sed -i ", "a ", "", "#"]), st.sampled_from(QUOTES),
                  st.sampled_from(["x", "cd /srv", ""]), later_commands,
                  st.sampled_from(["", "'", '"', "' y", '" y'])).map("".join)


@pytest.fixture(scope="module")
def files_here(tmp_path_factory):
    """A working directory with a file and a directory in it, read from this machine."""
    root = tmp_path_factory.mktemp("here")
    (root / "f").write_text("x\n")
    (root / "d").mkdir()
    return str(root)


@settings(max_examples=EXAMPLES, deadline=None, database=None)
@given(leaks, st.sampled_from(SHAPED), st.sampled_from(["/nonexistent/qbcore", None, "here"]))
def test_leaked_lists_and_redirections_give_the_general_paths_result(files_here, reply, transport, cwd):
    cwd = files_here if cwd == "here" else cwd
    assert _outcome(simulate, reply, transport, cwd) == _outcome(simulate_general, reply, transport, cwd)


@pytest.mark.parametrize("reply", ['ssh h "x;x\' \\&&#', "ssh h 'x' \\>&", "a \\|& b"])
@pytest.mark.parametrize("transport", ["single", "nested"])
def test_an_ampersand_after_an_escaped_operator_character_runs_a_job(reply, transport):
    """`\\&&` is a word's `&`, then `&`: the harness command may run in the background."""
    assert _outcome(simulate, reply, transport, None) == _outcome(simulate_general, reply, transport, None)


@pytest.mark.parametrize("transport,reply", [
    ("nested", 'pip install "requests>=2.28" \'urllib3<2\''),  # `>=2.28 …` names a file
    ("ssh", 'pip install "requests>=2.28" \'urllib3<2\''),
    ("single", "awk -F, 'NR > 1 {print $2}' data.csv > out.txt"),
    ("nested", 'while read -r line; do echo "> $line"; done < input.txt'),
    ("nested", 'x "a >> f"'), ("single", "x 'a > d/x'"), ("nested", 'x "a > /etc/x"'),
    ("nested", 'x "a >> /dev/null > f"'),
    ("nested", 'x "a > b > c"'),  # after a doubt the files are unknown: so is the second target
    ("nested", 'x "a < f > g"'), ("nested", 'x "a < d"'),  # (a directory opens for reading)
])
def test_a_leaked_redirection_of_the_harness_command_takes_the_fast_path(files_here, transport, reply,
                                                                          monkeypatch):
    for cwd in ("/nonexistent/qbcore", None, files_here):
        fast, general = _fast_and_general(reply, transport, monkeypatch, cwd=cwd)
        assert fast == general
        assert all(e.kind == "file" for e in fast.outer_effects)


@pytest.mark.parametrize("reply", ["pip install \"requests>=2.28\" 'urllib3<2'", "git log --format='%H %an <%ae>' -n 3"])
def test_a_leaked_redirection_of_input_takes_the_fast_path_where_the_file_is_unknown(reply, monkeypatch):
    # (`<2` reads a file: one missing from a directory this machine has fails the command)
    for cwd in ("/nonexistent/qbcore", None):
        fast, general = _fast_and_general(reply, "single", monkeypatch, cwd=cwd)
        assert fast == general and fast.opaque[0].startswith("whether ")


@pytest.mark.parametrize("transport", ["nested", "single", "ssh"])
def test_a_leaked_redirection_the_words_reader_does_not_decide_takes_the_general_path(files_here, transport,
                                                                                      monkeypatch):
    monkeypatch.setattr(sys.modules["qbcore.harness.simulate"], "simulate_general", lambda *a, **k: "general")
    # a descriptor, duplicated or closed; a target that vanishes, matches files, is empty or
    # fails; no target; a comment; a redirection and a later command; a here-document or string
    for later in ["a 2> f", "a >&2", "a &> f", "a >| f", "a > $x b", "a > *.c",
                  "a > '' b" if transport == "single" else 'a > "" b', "a > d b", "a <> f", "a 3< f",
                  "a > d/ b", "a > ; b", "a > #c", "a > f #c", "a > f; b", "a <<E", "a <<< w", "a > $(date)",
                  "a {x}> f", "a < missing b"]:
        reply = f"x '{later}' y" if transport == "single" else f'x "{later}" y'
        cwd = files_here if later in ("a > d b", "a > d/ b", "a < missing b") else "/nonexistent/qbcore"
        assert simulate(reply, transport, cwd=cwd) == "general", later


@pytest.mark.parametrize("transport", ["nested", "ssh", "double-nested"])
@pytest.mark.parametrize("reply", ['x "* $y# -la', 'echo $x#a "b', 'echo "$x"# b', "echo ${x}# c", "echo $(true)#",
                                   'x "a>#c" b'])
def test_a_hash_after_a_value_that_expands_to_nothing_starts_no_comment(transport, reply):
    # the `#` is inside the word that `$x` begins, as bash reads it (after `>` one starts there)
    for cwd in ("/nonexistent/qbcore", None):
        assert simulate(reply, transport, cwd=cwd) == simulate_general(reply, transport, cwd=cwd)


@pytest.mark.bash
@pytest.mark.parametrize("transport", ["nested", "ssh", "double-nested", "heredoc-ssh"])
def test_the_keys_of_an_array_the_outer_shell_has_not_set_take_the_fast_path(transport, tmp_path, monkeypatch,
                                                                             sandbox_ready):
    # none, as "$@" without positional parameters: no word unquoted or in "…[@]", an empty one in "…[*]"
    reply = 'declare -A map=([a]=1); echo "${!map[@]}" x ${!map[*]} "${!map[*]}" y'
    fast, general = _fast_and_general(reply, transport, monkeypatch)
    assert fast == general
    got = probe(reply, transport, root=str(tmp_path))
    assert (fast.inner_script, fast.inner_args) == (got.inner_script, got.inner_args)


@pytest.mark.bash
@pytest.mark.parametrize("reply", ['echo \\$SHLVL\\" y" ; ls "', 'echo \\$SHLVL\\" y" > f "', 'echo \\$SHLVL\\" y\\"'])
def test_double_nested_beside_a_leaked_command_starts_the_middle_shell_a_level_deeper(reply, tmp_path, monkeypatch,
                                                                                     sandbox_ready):
    # bash -c execs a lone simple command, so the middle shell counts the outer one's level
    # again; beside another command, or redirected, it is a child one level deeper
    fast, general = _fast_and_general(reply, "double-nested", monkeypatch)
    assert fast == general
    got = probe(reply, "double-nested", root=str(tmp_path))
    assert (fast.inner_script, fast.inner_args) == (got.inner_script, got.inner_args)
