"""A `bash -c` or `sh -c` (dash) that find -exec or xargs starts, run by the effect model,
against bash, dash and the real utilities.

Each script runs in real bash (real find, xargs and the bash they start) in a directory
holding the fixture, and in the effect model over a virtual tree holding the same. The
scripts write what the children printed, and the statuses, into files: the final trees
say whether the model ran the children as bash did.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bashref
from tests_settings import examples
from utilities_diff import compare_script, script_model

FIXTURE = {"a.txt": b"alpha\n", "b c.txt": b"beta\n", "it's.txt": b"gamma\n", "d": None, "d/x.txt": b"x\n",
           "notes.log": b"log\n"}

SCRIPTS = [
    # the rename agents write: one child per path, its path as $1
    "find . -maxdepth 1 -name '*.txt' -type f -exec bash -c 'mv \"$1\" \"done_${1#./}\"' _ {} \\;",
    "find . -name '*.txt' -type f -exec bash -c 'for f; do mv \"$f\" \"$f.bak\"; done' bash {} +",
    "find . -maxdepth 1 -name '*.txt' -print0 | xargs -0 -I{} bash -c 'mv \"$1\" \"done_$(basename \"$1\")\"' _ {}",
    "find . -maxdepth 1 -name '*.txt' -print0 | xargs -0 -n1 bash -c 'cp -- \"$0\" \"$0.copy\"'",
    # what a child prints reaches the utility's stdout and stderr, in the order the children ran
    "find d -name '*.txt' -exec bash -c 'echo \"[$0][$1][$#]\"; echo \"err $1\" >&2' zero {} \\; > out 2> err",
    "printf '%s\\n' one two three | xargs -n2 bash -c 'echo \"$0|$*\"' > out",
    "printf 'a.txt\\n' | xargs -I{} bash -c 'wc -c < \"$1\"; cat -- \"$1\" | tr a-z A-Z' _ {} > out",
    # statuses: -exec ; is a test, -exec + fails find, xargs maps 1-125 to 123 and 255 to 124
    "find . -name a.txt -exec bash -c 'exit 3' \\; -print > out; echo $? >> out",
    "find . -name '*.txt' -exec bash -c 'exit 3' _ {} + > out; echo $? >> out",
    "find . -name 'a*' -exec bash -c '[ \"$1\" = ./a.txt ]' _ {} \\; -print > out",
    "find . -name 'a*' ! -exec bash -c '[ \"$1\" = ./b.txt ]' _ {} \\; -print > out; echo $? >> out",
    "printf 'a\\n' | xargs bash -c 'exit 3' > out 2> err; echo $? >> out",
    "printf 'a\\n' | xargs bash -c 'exit 255' > out 2> err; echo $? >> out",
    # a child's syntax error is its own message, on the utility's stderr
    "find . -name a.txt -exec bash -c 'echo a > out; if' \\; 2>/dev/null; echo $? >> out",
    "find . -name '*.txt' -exec bash -c 'echo \"unclosed' _ {} + 2>/dev/null; echo $? > out",
    "printf 'a\\nb\\n' | xargs -n1 bash -c 'echo \"$0\"; if' 2>/dev/null > out; echo $? >> out",
    # the environment: exported values reach the child, others do not
    "export P=pre; Q=no; find . -maxdepth 1 -name 'a*' -exec bash -c 'echo \"[$P][$Q]\" > \"$P-${1#./}\"' _ {} \\;",
    "P=inline find . -maxdepth 1 -name 'a*' -exec bash -c 'echo \"[$P]\" > seen' \\;",
    # a child that changes only the path it is given, and one that changes nothing
    "find . -name '*.txt' -exec bash -c 'sed -i \"s/a/A/g\" \"$1\"' _ {} \\;",
    "find . -name '*.log' -exec bash -c 'test -s \"$1\" && echo \"$1 has text\"' _ {} \\; > out",
]

# sh -c: dash, over the scripts it reads as bash does
DASH_SCRIPTS = [
    "find . -maxdepth 1 -name '*.txt' -type f -exec sh -c 'mv \"$1\" \"done_${1#./}\"' _ {} \\;",
    "find . -name '*.txt' -exec sh -c 'for f; do cp -- \"$f\" \"$f.bak\"; done' sh {} +",
    "find . -maxdepth 1 -name '*.txt' -print0 | LC_ALL=C sort -z | xargs -0 -n1 sh -c 'echo \"[$0]\"; printf \"%s|%s\\n\" \"$0\" x' > out",
    "find d -name '*.txt' -exec sh -c 'if [ -s \"$1\" ]; then echo \"$1 full\"; else echo empty; fi; "
    "test \"$1\" = d/x.txt && echo same' _ {} \\; > out",
    "find . -name 'a*' -exec sh -c 'case \"$1\" in *.txt) echo text;; *) echo other;; esac; "
    "n=$(wc -c < \"$1\"); echo \"$n ${1%.txt} ${1##*/} ${X:-none}\"' _ {} \\; > out",
    "export X=set; find . -name 'a*' -exec sh -c 'echo \"${X:+on} $#\"; set -- a b; shift; echo \"$*\"; exit 4' _ {} \\; "
    "> out; echo $? >> out",
    "printf 'a.txt\\nb c.txt\\n' | xargs -I{} sh -c 'sed -n 1p \"$1\" | tr a-z A-Z; [ -f \"$1\" ] || exit 1' _ {} "
    "> out; echo $? >> out",
    "find . -maxdepth 1 -name '*.log' -exec sh -c 'cd d && ls; echo -n x' \\; > out",
    # here-documents: quoted and unquoted delimiters, <<-, escapes and expansions in the body
    "find . -name 'a*' -exec sh -c 'cat > \"$1.new\" <<EOF\nfrom $1 `echo b` $(echo c) \\\\$x \\\\\\\\ \"q\"\nEOF' "
    "_ {} \\;",
    "find . -name 'a*' -exec sh -c 'cat <<-\"EOF\" > out\n\t\t$1 `x`\n\tEOF\ntr a-z A-Z <<EOF >> out\n${1#./}\nEOF' "
    "_ {} \\;",
    "sh -c 'cat <<A; cat <<\\B\n1 $0\nA\n2 $0\nB' zero > out",
    # sh reading its script from stdin; a utility that never reads stdin does not mind what dash left there
    "printf 'echo \"$0 $# $2\" > out; ls > l; mkdir -p n; rm -r n\\n' | sh -s -- a b",
    "sh <<'EOF'\ntouch t; mv t u; cp u v; ln -s v w; rm u\nEOF",
]

# a dash script the model does not follow: what dash lacks or reads otherwise, and any message
# of the shell's own
DASH_UNKNOWN = [
    "find . -name a.txt -exec sh -c 'echo \"a\\\\tb\" > out' \\;",
    "find . -name a.txt -exec sh -c 'echo -e x > out' \\;",
    "find . -name a.txt -exec sh -c '[[ -f $1 ]] && echo y > out' _ {} \\;",
    "find . -name a.txt -exec sh -c 'echo {x,y} > out' \\;",
    "find . -name a.txt -exec sh -c 'echo $((1+2)) > out' \\;",
    "find . -name a.txt -exec sh -c 'nosuchcommand; echo $? > out' \\;",
    "find . -name a.txt -exec sh -c 'shift 3; echo $? > out' \\;",
    "find . -name a.txt -exec sh -c 'cat < nosuch; echo $? > out' \\;",
    "find . -name a.txt -exec sh -c '[ a == a ] && echo y > out' \\;",
    "find . -name a.txt -exec sh -c 'echo \"${#1}\" > out' _ {} \\;",
    "find . -name a.txt -exec sh -c 'printf \"%d\\n\" 3 > out' \\;",
    "find . -name a.txt -exec sh -c 'x=$(echo \"$1\"); echo \"$x\" > out' _ 'a\\b' \\;",
    "find . -name a.txt -exec sh -c 'echo $SHLVL > out' \\;",
    # dash sets $? from a substitution once the command is done; a comment-only backtick body runs nothing
    "find . -name a.txt -exec sh -c 'echo \"$(false)$?\" > out' \\;",
    "find . -name a.txt -exec sh -c 'for x in $(false) $?; do echo $x > out; done' \\;",
    "find . -name a.txt -exec sh -c 'case $(false)$? in 1) echo one > out;; esac' \\;",
    "find . -name a.txt -exec sh -c 'x=`false``#`; echo $? > out' \\;",
    # a here-document the script's end ends (dash neither warns nor ends it with a newline), and
    # $? beside a substitution in its body
    "find . -name a.txt -exec sh -c 'cat > out <<EOF\nno end' \\;",
    "find . -name a.txt -exec sh -c 'cat > out <<EOF\n$(false) $?\nEOF' \\;",
    # what dash read of its script from stdin, ahead of what it ran, is not followed
    "printf 'cat > out\\nrest\\n' | sh", "printf 'touch t; rm -i t\\ny\\n' | sh", "printf 'true\\n' | sh -s -e",
]

# children the model does not follow: $_ (the utility's path), BASH_ENV, a run that changes
# what the walk may meet, a background job
UNKNOWN = DASH_UNKNOWN + [
    "find . -name a.txt -exec bash -c 'echo \"$_\" > out' \\;",
    "export BASH_ENV=./env.sh; find . -name a.txt -exec bash -c 'true' \\;",
    "find . -name '*.txt' -exec bash -c 'mv \"$1\" d/' _ {} \\;",
    "find . -name a.txt -exec bash -c 'sleep 1 & echo hi > out' \\;",
]


@pytest.mark.bash
@pytest.mark.parametrize("script", SCRIPTS)
def test_children_run_as_bash_runs_them(script, tmp_path):
    compare_script(script, FIXTURE, where=tmp_path, certain=True)


@pytest.mark.bash
@pytest.mark.parametrize("script", DASH_SCRIPTS)
def test_dash_children_run_as_dash_runs_them(script, tmp_path):
    compare_script(script, FIXTURE, where=tmp_path, certain=True)


@pytest.mark.parametrize("script", UNKNOWN)
def test_a_child_the_model_does_not_follow_is_unknown(script):
    run, _ = script_model(script, FIXTURE)
    assert run.unknown is not None or run.files.lost is not None


def test_a_child_that_reads_its_shell_level_tells_the_caller():
    """The level a child starts at depends on whether the harness's bash exec'd the utility
    (as it does a last command): the read reaches the run's reads, which prediction refuses."""
    run, _ = script_model("find . -name a.txt -exec bash -c 'echo $SHLVL > out' \\;", FIXTURE)
    assert "SHLVL" in run.reads


_BODIES = ['mv "$1" "$1.old"', 'echo "$1" >> list', 'cat "$1" >> all', 'rm -f -- "$1"', '[ -f "$1" ] || exit 2',
           'printf "%s:%s\\n" "$0" "${1##*/}"', 'grep -q a "$1" && echo "$1"', 'touch "$1"; wc -l < "$1"']
_TESTS = ["-name '*.txt'", "-type f", "-maxdepth 1", "-name '*.log'", "! -name 'a*'"]


@pytest.mark.bash
@settings(max_examples=examples(40), deadline=None)
@given(body=st.sampled_from(_BODIES), tests=st.lists(st.sampled_from(_TESTS), max_size=2),
       how=st.sampled_from(["find ;", "find +", "xargs -0 -n1", "xargs -0 -I"]))
def test_generated_children_match_bash(body, tests, how):
    """Random bodies under random walks: where the model is certain, it ran them as bash did."""
    quoted = bashref.quote(body)
    walk = f"find . {' '.join(tests)} -type f"
    if how == "find ;":
        script = f"{walk} -exec bash -c {quoted} _ {{}} \\; > out 2> err; echo $? >> out"
    elif how == "find +":
        each = bashref.quote('for a; do set -- "$a"; ' + body + "; done")
        script = f"{walk} -exec bash -c {each} _ {{}} + > out 2> err; echo $? >> out"
    elif how == "xargs -0 -n1":
        script = f"{walk} -print0 | LC_ALL=C sort -z | xargs -0 -n1 bash -c {quoted} _ > out 2> err; echo $? >> out"
    else:
        script = f"{walk} -print0 | LC_ALL=C sort -z | xargs -0 -I{{}} bash -c {quoted} _ {{}} > out 2> err; " \
                 "echo $? >> out"
    compare_script(script, FIXTURE)


# names that meet dash's echo (a backslash) and field splitting (blanks), for the generated bodies
DASH_FIXTURE = {**FIXTURE, "e\\f.txt": b"back\\slash\n", "-n.txt": b"", "g.log": b""}
_STATEMENTS = ['echo "$1"', "echo x$1", 'printf "%s\\n" "$1"', 'printf "<%s>" $1', '[ -f "$1" ] && echo f',
               'test -s "$1" || echo empty', 'case "$1" in *a*) echo A;; *.log) echo L;; esac', 'n=${1##*/}; echo "$n"',
               'echo "${1%.txt}" "${1#./}"', 'set -- x "$1"; echo $#', 'for w in $1; do echo "<$w>"; done',
               'x=$(basename "$1"); echo "$x"', 'echo -n "$1"', 'grep -c a "$1"', "exit 3", 'mv "$1" "$1.o"',
               '[ "$1" != ./a.txt ] || exit 2', 'cat "$1" | wc -l', 'echo "${Y:-unset}" "${1:+set}"']


@pytest.mark.bash
@settings(max_examples=examples(40), deadline=None)
@given(statements=st.lists(st.sampled_from(_STATEMENTS), min_size=1, max_size=3),
       shell=st.sampled_from(["sh", "bash"]), how=st.sampled_from(["find ;", "xargs -0 -n1"]))
def test_generated_shell_children_match(statements, shell, how):
    """Random bodies of dash and bash children over names with blanks, a backslash and a
    leading dash: where the model is certain, the files are bash's and dash's."""
    body = bashref.quote("; ".join(statements))
    walk = "find . -maxdepth 1 -type f"
    # (the output goes to d, a folder the walk does not list: no race with it)
    if how == "find ;":
        script = f"{walk} -exec {shell} -c {body} _ {{}} \\; 2> d/err | LC_ALL=C sort > d/out; echo $? >> d/out"
    else:
        script = f"{walk} | LC_ALL=C sort | tr '\\n' '\\0' | xargs -0 -n1 {shell} -c {body} _ > d/out 2> d/err; " \
                 "echo $? >> d/out"
    compare_script(script, DASH_FIXTURE)
