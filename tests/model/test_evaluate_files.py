"""The evaluation's view of files and exit statuses, against bash: redirections that fail,
files the script creates, ``$?`` after command substitutions."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bashref
from qbcore.model.evaluate import evaluate
from qbcore.model.expand import Env, Opaque
from qbcore.model.files import FileView
from qbcore.model.commands import external
from qbcore.syntax.parser import parse, parse_prefix

TREE = ["a.txt", "d/", "d/x"]

# Scripts whose stdout, stderr and exit status the model predicts exactly.
SCRIPTS = [
    # bash sets $? when a command substitution ends; later expansions see it
    "echo $(false)$?",
    "x=$(exit 3) y=$?; echo \"[$x][$y]\"",
    "echo $(false) $?; echo $(exit 3); echo $?",
    "false; echo $(exit 3) >f$?; echo f*",
    "x=$(exit 3) echo $?; x=$(exit 3) eval 'echo $?'",
    "echo $(exit 2) $(echo $?) ${u:-$(exit 4)}$?",
    "x=$(exit 3) y=$(exit 4); echo $?; >$(exit 5)g; echo $? g*",
    "export x=$(exit 3) y=$?; echo $y $?",
    "echo `exit 7`$?; echo $(echo $(exit 6)$?)",
    # a backtick body of comments alone runs (status 0); a blank one, or $( # … ), runs nothing
    "echo `false``#`$?; echo \"`false``  # x`$?\"; x=`false``#`; echo $?",
    "echo `false`` `$?; echo $(false)$( )$?; echo $(false)$(#\n)$?; x=$(false)$(# c\n); echo $?",
    # for and case bodies first see the status their words left
    "false; for x in a; do echo $?; done; for x in a$(exit 3); do echo $?; done",
    "for x in $(exit 3); do :; done; echo $?",
    "false; case a in *) echo $?;; esac; case $(exit 3) in *) echo $?;; esac",
    "case $(exit 3) in x) ;; esac; echo $?; false; case a in a) ;; esac; echo $?",
    "case a in a) false;;& b) ;; esac; echo $?",
    # a redirection that fails keeps the command from running: status 1, bash's message
    "echo hi <nonexist; echo $?",
    "{ echo hi; } <nonexist; echo $?; (echo sub) <nonexist; echo $?",
    "f() { echo in; }; f <nonexist; echo $?",
    "echo $(<nonexist)$?; echo $(true <nonexist)$?; x=$(0<nonexist); echo $?",
    "echo hi >nodir/x; echo $?; echo hi >>nodir/x; echo $?",
    "echo hi >.; echo $?; echo hi <>.; echo $?; echo hi &>d; echo $?; echo hi >>d; echo $?",
    "echo hi >a.txt/; echo $?; echo hi >a.txt/y; echo $?; echo hi <a.txt/; echo $?",
    "echo hi >new/; echo $?; echo hi <d/; echo $?",
    "echo a <&nonexist; echo $?; echo a 3>&nonexist; echo $?",
    "echo a {b}<nonexist; echo $? \"[${b-unset}]\"",
    "x=1 <nonexist; echo $? $x; y=$(echo v) <nonexist; echo $? $y",
    "echo hi >a <nonexist; echo $? *",
    "echo hi <''; echo $?",
    # set -C (noclobber): > and &> do not overwrite a regular file; >|, >> and <> do
    "set -C; echo $-; echo x >a.txt; echo $?; echo y >|a.txt; echo $?; echo z >new; echo $?; echo z >new; "
    "echo $?; echo w >>a.txt; echo $?; echo v &>a.txt; echo $?; echo t >/dev/null; echo $?; echo s >d; echo $?",
    "set -o noclobber; echo $-; set -ef; echo $-; set +C; echo $-; echo x >a.txt; echo $?; set -o noglob; "
    "echo $- *; set +o noclobber +o noglob; echo $- *",
    # a builtin writing to a closed stdout fails
    "echo hi >&-; echo $?; echo hi 1<&-; echo $?; pwd >&-; echo $?; printf '' >&-; echo $?; : >&-; echo $?",
    "echo hi >&- >f; echo $? f*; x=$(echo hi >&-); echo $? \"[$x]\"",
    # exec without a command: its redirections last, unless a compound's or a call's own end first
    "(exec >f; echo hi); echo $? *; (exec >&-; echo hi); echo $?; (exec 1<&-; pwd); echo $?",
    "({ exec >&-; }; echo hi); echo $?; { exec >&-; } >/dev/null; echo hi; (eval 'exec >&-'; echo x); echo $?",
    "f() { exec >&-; }; (f >/dev/null; echo hi); (f; echo hi); echo $?",
    "(exec >&-; x=$(echo in); exit ${#x}); echo $?",
    "{ echo hi; } >&-; echo $?; (exec >&-; echo a | (echo b >/dev/null)); echo $?",
    # files the script creates: pathname expansion sees them
    ": >b; echo *; echo hi >d/y; echo d/*",
    "echo hi <>rw; echo *; : &>all; echo *; echo x >>app; echo a*",
    "echo $(: >made) *; (: >sub); echo s*",
    "echo hi >made; echo q <made; echo $?; echo q <made/; echo $?",
]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    found = []
    for n, script in enumerate(SCRIPTS):
        cwd = str(tmp_path_factory.mktemp(f"files{n}"))
        bashref.make_tree(cwd, TREE)
        found.append(bashref.run(script, cwd=cwd))
    return found


def model(script, cwd):
    result = evaluate(parse(script), Env.default(cwd))
    return result, bashref.model_stderr(result.commands)


@pytest.mark.bash
@pytest.mark.parametrize("n", range(len(SCRIPTS)), ids=[s[:40] for s in SCRIPTS])
def test_statuses_and_redirections_match_bash(n, outcomes, tmp_path):
    bashref.make_tree(str(tmp_path), TREE)
    result, errors = model(SCRIPTS[n], str(tmp_path))
    outcome = outcomes[n]
    assert not isinstance(result.stdout, Opaque), result.opaque
    assert (result.stdout, errors, result.status) == (outcome.text, outcome.error, outcome.status)


# After a command the model does not follow, the files are unknown: (script, the opaque name).
LOST = [
    ("touch b; echo *", "glob * (the files after `touch b`)"),
    ("rm a.txt; cat <a.txt", "whether a.txt can be opened (the files after `rm a.txt`)"),
    ("x=$(mkdir q); echo *", "glob * (the files after `mkdir q`)"),
    ("mytool | : >p; echo *", "glob * (the files after the pipeline `mytool | : >p`)"),
    ("if [ -f a.txt ]; then : >c; fi; echo *",
     "glob * (the files after `if [ -f a.txt ]; then : >c; fi`, which may not run (status of [ -f a.txt (test -f)))"),
    ("[ -f a.txt ] && : >c; echo *",
     "glob * (the files after `: >c`, which may not run (status of [ -f a.txt (test -f)))"),
    (": >bg & echo *", "glob * (the files after `: >bg` in the background)"),
    ("echo hi >\"$RANDOM\"; echo *", "glob * (the files after `>\"$RANDOM\"`)"),
    ("source ./x.sh; cat <a.txt", "whether a.txt can be opened"),  # the directory is unknown too
    ("echo hi >&3", "whether descriptor 3 is open"),  # (after `exec 3>&-` it is known closed)
    ("bash -c 'echo'; echo *", "glob * (the files after `bash -c 'echo'`)"),
    ("BASH_ENV=x; export BASH_ENV; bash -c ''; echo *", "glob * (the files after `bash -c ''`)"),
    # whether a shell ran anything is decided when the files are next read: the first loss is named
    ("bash -c 'echo'; touch b; echo *", "glob * (the files after `bash -c 'echo'`)"),
    ("bash -c ''; touch b; echo *", "glob * (the files after `touch b`)"),
    ("bash -c ''; bash -c 'echo'; echo *", "glob * (the files after `bash -c 'echo'`)"),
]


@pytest.mark.parametrize("script", ["bash -c ''; echo *", "bash -c ' # c' x; echo *", "bash -c 'fi; touch q'; echo *"])
@pytest.mark.bash
def test_a_shell_that_runs_no_command_changes_no_file(script, tmp_path):
    bashref.make_tree(str(tmp_path), TREE)
    result, _ = model(script, str(tmp_path))
    assert result.commands[-1].argv == ("echo", "a.txt", "d")
    assert bashref.run(script, cwd=str(tmp_path)).text == "a.txt d\n"


@given(st.lists(st.one_of(st.sampled_from(["do", "fi", "in", "time", "if", "{", "}", "!", "#", "x=1", "-", "\\",
                                            "'", "$a", "&", ";", "\n", "*", "~"]),
                          st.text(" \tab_./+=,:@%^-09", max_size=6)), max_size=6).map("".join))
@settings(max_examples=400, deadline=None)
def test_whether_a_shell_runs_anything_is_the_parse_s_answer(text):
    # the plain-line shortcut answers as the parse does: no chunk with an item runs nothing
    assert external.script_runs_nothing(text) == (not any(c.items for c in parse_prefix(text).chunks))


@pytest.mark.parametrize("script, name", LOST, ids=[s for s, _ in LOST])
def test_after_an_untracked_change_the_files_are_unknown(script, name, tmp_path):
    bashref.make_tree(str(tmp_path), TREE)
    result, _ = model(script, str(tmp_path))
    assert name in result.opaque
    assert not result.commands[-1].exact


def test_a_command_whose_input_may_be_missing_runs_uncertainly(tmp_path):
    result, _ = model("rm -f in; x=1; read x <in; echo after", str(tmp_path))
    read = result.commands[-2]
    assert read.argv == ("read", "x") and not read.certain
    assert isinstance(result.env.get("x"), Opaque)  # set or not: unknown


def test_the_view_is_shared_by_subshells_and_substitutions(tmp_path):
    env = Env.default(str(tmp_path), listing=[])
    result = evaluate(parse("(: >one); x=$(: >two); echo *"), env)
    assert result.commands[-1].argv == ("echo", "one", "two")
    assert env.files.created == {str(tmp_path / "one"), str(tmp_path / "two")}


def test_a_given_listing_stands_for_the_tree():
    env = Env.default("/nonexistent/qbcore-files", listing=["a.txt", "d/x", "e/"])
    result = evaluate(parse("echo */; : <d/x; : <e/; echo hi >e; echo hi <zz; echo $?"), env)
    assert [c.argv for c in result.commands if c.argv[:1] == ("echo",)][0] == ("echo", "d/", "e/")
    assert [c.error for c in result.commands if c.error] == ["e: Is a directory", "zz: No such file or directory"]


def test_a_missing_directory_without_a_listing_is_unknown():
    result, _ = model("echo hi >out; echo $?", "/nonexistent/qbcore-files")
    assert "whether out can be opened (the files in /nonexistent/qbcore-files "\
        "(/nonexistent/qbcore-files does not exist here))" in result.opaque


def test_dev_null_always_opens():
    view = FileView("/nonexistent/qbcore-files", [])
    view.lose("the files after `rm -rf /`")
    assert view.open_failure("/dev/null", writes=True) == ""
    assert view.open_failure("/nonexistent/qbcore-files/x", writes=True) is None


@pytest.mark.parametrize("listing, error", [
    ("a.txt", TypeError), ([b"a"], TypeError), (["../up"], ValueError), (["a/../../b"], ValueError),
    (["/etc/passwd"], ValueError),
])
def test_a_bad_listing_is_a_clear_error(listing, error):
    with pytest.raises(error):
        FileView("/tmp", listing)
