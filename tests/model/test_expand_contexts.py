"""One expansion, many places: each context's steps (brace, tilde, splitting, globbing)
run through the model and through real bash 5.2, which is the referee."""

import pytest

import bashref
from qbcore.model import expand as E
from qbcore.model.evaluate import evaluate
from qbcore.syntax.parser import parse

pytestmark = pytest.mark.bash

TREE = ["a.txt", "b.txt", "sub/c.txt"]


def model(script: str, cwd: str):
    return evaluate(parse(script), E.Env.default(cwd))


def agree(script: str, tmp_path, tree=TREE):
    """The model's stdout, status and stderr for ``script`` are bash's, and claimed exact.
    The model reads the directory first (bash then changes it)."""
    cwd = str(tmp_path)
    bashref.make_tree(cwd, tree)
    result = model(script, cwd)
    outcome = bashref.run(script, cwd=cwd)
    assert result.exact, result.opaque
    assert result.stdout == outcome.text
    assert result.status == outcome.status
    assert bashref.model_stderr(result.commands) == outcome.error


ARGV = [
    # tilde after `=` and each later `:` only in a word that starts as an assignment
    "printf '[%s]' ~ ~/q x=~/q:~/r a:~/b --x=~/q a+=~/x 'a[1]'=~/x a[1]=~/x a=b:~/x '~' ~\"\"",
    # a word made by brace expansion is no longer assignment-like
    "printf '[%s]' {a,b}=~/x x{1,2}=~/y",
    "x='a  b'; printf '[%s]' $x \"$x\" *.txt \"*.txt\" {a,b}.txt $x$ x=$x",
]

ARRAY_ELEMENTS = [
    # bash 5.2: `$x$` is not split in an array element either (one element, not two)
    "x='a b'; arr=($x$); echo ${#arr[@]}",
    "x='a b'; arr=(1 $x$ 2 $x); echo ${#arr[@]}; printf '[%s]' \"${arr[@]}\"",
    # brace expansion, tilde at the start only, splitting and globbing
    "x='p  q'; arr=({a,b}c ~/x x=~/q a:~/b a+=~/x *.txt sub/* $x \"$x\" $(echo 'm n')); "
    "printf '[%s]' \"${arr[@]}\"",
    # `[k]=v` is an assignment: no splitting or globbing, tilde after `=` and `:`
    "x='a  *.txt'; arr=([0]=~/x:~/y [1]=x=~/z [3]=$x [2]=*.txt); printf '[%s]' \"${arr[@]}\"",
    "arr=(a); arr+=(~/q {1,2}); printf '[%s]' \"${arr[@]}\"",
    # brace expansion makes `[k]=v` plain elements
    "arr=([0]={a,b}); arr2=([1]=x [0]+=y{1,2}); printf '[%s]' \"${arr[@]}\" \"${arr2[@]}\"",
    # the same in the arguments of declaration builtins
    "declare -a arr=([0]=~/q:~/r x=~/y); f() { local -a l=({a,b} ~/q); printf '[%s]' \"${l[@]}\"; }; f; "
    "x='p q'; export e=($x \"$x\"$ $x$); printf '[%s]' \"${arr[@]}\" \"${e[@]}\"",
]

REDIRECT_TARGETS = [
    # split: more than one field is an error and the command does not run
    "x='a b'; echo hi > $x; echo \"st=$?\"; echo *",
    "echo hi > {a,b}; echo \"st=$?\"; echo hi > x{a,}y; echo \"st=$?\"; echo *",
    # globbed: one match is the file, several an error
    "x='a*'; echo hi >> $x; echo \"st=$?\"; echo hi > *.txt; echo \"st=$?\"; echo *",
    # quoted or not split: one word, spaces and all
    "x='p q'; echo hi > \"$x\"; echo \"st=$?\"; echo hi > $x$; echo \"st=$?\"; printf '[%s]' *",
    # tilde at the start and after the `=` of an assignment-like word
    "echo hi > ~/t1; echo \"st=$?\"; echo *",
    "echo hi > a=~/b; echo \"st=$?\"",
    "x=; echo hi > $x; echo \"st=$?\"",
]

DECLARATION_ARGUMENTS = [
    # an argument that starts as `name=` is an assignment: not split, not globbed,
    # tilde after `=` and `:`
    "x='a  *.txt'; declare d1=$x d2=~/q:~/r d3=*.txt; printf '[%s]' \"$d1\" \"$d2\" \"$d3\"",
    "x='a  *.txt'; export e1=~/q:~/r e2=$x; readonly r1=~/x:~/y; typeset t1=$x; declare -x c3=~/x:~/y; "
    "printf '[%s]' \"$e1\" \"$e2\" \"$r1\" \"$t1\" \"$c3\"",
    "x='a b'; f() { local l1=~/q:~/r l2=$x; printf '[%s]' \"$l1\" \"$l2\"; }; f",
    "x='a b'; declare y=1; declare y+=$x; declare -- d4=~/q; printf '[%s]' \"$y\" \"$d4\"",
    "set -- a b; declare z=\"$@\" w=$@; printf '[%s]' \"$z\" \"$w\"",
    # brace expansion first: then the words are argv words (split, and no tilde after `=`)
    "declare d1={a,b}; x='k  l'; declare {d8,d9}=$x; printf '[%s]' \"$d1\" \"$d8\" \"$d9\" \"$l\"",
    "declare {d8,d9}=~/x:~/y; printf '[%s]' \"$d8\" \"$d9\"",
    # a word that does not start as `name=` in its own text is an argv word
    "d=d5; declare $d=~/q \"d6=~/q\"; printf '[%s]' \"$d5\" \"$d6\"",
    "x='a=1 b=2'; declare $x; printf '[%s]' \"$a\" \"$b\"",
    # only when the declaration builtin is the command's name, written as such
    "x='a b'; command declare c4=$x; printf '[%s]' \"$c4\"",
    "x='a  b'; c=declare; $c y=$x z=~/q; \"declare\" w=$x; \\declare v=$x; printf '[%s]' \"$y\" \"$z\" \"$w\" \"$v\"",
]

ASSIGNMENT_VALUES = [
    "y={a,b}; printf '[%s]' \"$y\"; y=~/q:~/r:x~/s; printf '[%s]' \"$y\"",
    "y=*.txt; printf '[%s]' \"$y\"; x='a  b'; y=$x; printf '[%s]' \"$y\"",
    "y=~/a:~/b; y+=:~/c; printf '[%s]' \"$y\"",
    "set -- a b; y=\"$@\"; z=$@; w=$*; printf '[%s]' \"$y\" \"$z\" \"$w\"",
    "y=x=~/q; printf '[%s]' \"$y\"",
]

CASE_WORDS = [
    "case ~ in ~) echo home;; *) echo other;; esac",
    # patterns: tilde too (after the `=` of an assignment-like one), even in ${x#…} in quotes
    "case a=$HOME/q in a=~/q) echo eq;; esac; case a:$HOME in a:~) echo colon;; *) echo no-colon;; esac",
    "[[ $HOME == ~ ]] && echo tilde; [[ a=$HOME == a=~ ]] && echo eq; [[ ~ == \"~\" ]] || echo quoted",
    "x=$HOME/q; printf '[%s]' \"${x#~}\" ${x#~/} \"${x/~/H}\" ${x#\"~\"}; x=/q; printf '[%s]' ${x/q/~} \"${x/q/~}\"",
    "x=aXb; printf '[%s]' ${x/X/a=~} ${u:-~} \"${u:-~}\"; case \"~\" in \"~\") echo lit;; esac",
    "case {a,b} in \"{a,b}\") echo nobrace;; *) echo brace;; esac",
    "x='*.txt'; case $x in \"*.txt\") echo noglob;; *) echo glob;; esac",
    "x='a  b'; case $x in 'a  b') echo nosplit;; *) echo split;; esac",
    "case a:~/b in a:~/b) echo colon-kept;; *) echo colon-expanded;; esac",
    "case a=~/b:~/c in a=$HOME/b:$HOME/c) echo both;; a=~/b:~/c) echo none;; *) echo other;; esac",
    "[[ ~ == $HOME ]] && echo tilde; [[ a=~/b:~/c == a=$HOME/b:$HOME/c ]] && echo both; "
    "[[ a:~/b == a:~/b ]] && echo colon-kept",
    "x='*.txt'; [[ $x == '*.txt' ]] && echo noglob; x='a  b'; [[ $x == 'a  b' ]] && echo nosplit",
    "for w in {a,b} ~/q *.txt x=~/q:~/r a:~/b; do printf '[%s]' \"$w\"; done",
]


@pytest.mark.parametrize("script", ARGV)
def test_argv_words(script, tmp_path):
    agree(script, tmp_path)


@pytest.mark.parametrize("script", ARRAY_ELEMENTS)
def test_array_elements(script, tmp_path):
    agree(script, tmp_path)


@pytest.mark.parametrize("script", REDIRECT_TARGETS)
def test_redirection_targets(script, tmp_path):
    agree(script, tmp_path)


@pytest.mark.parametrize("script", DECLARATION_ARGUMENTS)
def test_declaration_arguments(script, tmp_path):
    agree(script, tmp_path)


@pytest.mark.parametrize("script", ASSIGNMENT_VALUES)
def test_assignment_values(script, tmp_path):
    agree(script, tmp_path)


@pytest.mark.parametrize("script", CASE_WORDS)
def test_case_words_and_conditional_operands(script, tmp_path):
    agree(script, tmp_path)


# what `cat` prints of a here-string or here-document is the body the redirection carries
HERE_STRINGS = [
    "{a,b}", "~/q", "*.txt", "$x", "\"$x\"", "x=~/q:~/r", "a:~/b", "~/q:~/r", "a=~/b:~/c", "'~'",
    "$@", "\"$@\"", "$*",
]
HEREDOC_BODIES = [
    "~ {a,b} *.txt $x \"$x\" '$x' \\$x \\\" \\a",
    "$@ \"$@\" ${x// /_} $(echo 'p  q') `echo b` $((1+2))",
    "x=~/q a:~/b",
]
SETUP = "x='a  *.txt'; set -- p 'q  r'"


def _body_agrees(redirect_text: str, tmp_path):
    cwd = str(tmp_path)
    bashref.make_tree(cwd, TREE)
    script = f"{SETUP}\ncat {redirect_text}"
    outcome = bashref.run(script, cwd=cwd)
    result = model(script, cwd)
    (redirect,) = result.commands[-1].redirects
    assert redirect.exact
    assert redirect.body == outcome.text


@pytest.mark.parametrize("word", HERE_STRINGS)
def test_here_strings(word, tmp_path):
    # tilde at the start and after each `:` (not after `=`), nothing split or globbed
    _body_agrees(f"<<< {word}", tmp_path)


@pytest.mark.parametrize("body", HEREDOC_BODIES)
def test_heredoc_bodies(body, tmp_path):
    _body_agrees(f"<<EOF\n{body}\nEOF", tmp_path)


# bash 5.2 joins $* with a space in a here-document body, whatever IFS says
STAR_IN_DOCUMENTS = ["set -- a b c", "set -- a b; IFS=:", "set -- a b; IFS=", "set -- a b; unset IFS",
                     "set -- a b; arr=(x y); IFS=:"]


@pytest.mark.parametrize("setup", STAR_IN_DOCUMENTS)
def test_star_in_heredoc_bodies(setup, tmp_path):
    script = f"{setup}\ncat <<EOF\n[$*] [${{*}}] \"$*\" [${{*:1}}] [$@] [${{arr[*]}}]\nEOF"
    outcome = bashref.run(script, cwd=str(tmp_path))
    (redirect,) = model(script, str(tmp_path)).commands[-1].redirects
    assert redirect.exact and redirect.body == outcome.text


@pytest.mark.parametrize("setup", ["set -- p 'q  r'", "set -- a:b c; IFS=:", "set -- ' a'"])
def test_star_with_blanks_or_ifs_characters_in_heredoc_bodies_is_unknown(setup, tmp_path):
    # bash may split the parameters there and squeeze blanks, depending on IFS and the locale
    script = f"{setup}\ncat <<EOF\n$*\nEOF"
    (redirect,) = model(script, str(tmp_path)).commands[-1].redirects
    assert not redirect.exact


def test_every_context_states_its_steps():
    # the contexts differ exactly where bash differs
    assert E.ARGV.split and E.ARGV.glob and E.ARGV.brace
    assert E.REDIRECT_TARGET.one_field and E.REDIRECT_TARGET.split
    assert not E.ASSIGNMENT_VALUE.split and not E.ASSIGNMENT_VALUE.brace
    assert E.ASSIGNMENT_VALUE.tilde == E.HERE_STRING.tilde == E.TILDE_VALUE
    assert E.ARRAY_ELEMENTS.tilde == E.TILDE_START
    assert E.HEREDOC_BODY.quoted and E.HEREDOC_BODY.tilde == E.TILDE_NONE


def test_expand_entry_point_per_context(tmp_path):
    env = E.Env.default(str(tmp_path))
    env.set("x", "a  b")
    script = parse("w ~/q:~/r $x {1,2}")
    words = script.chunks[0].items[0].command.pipelines[0].commands[0].words[1:]
    home = str(tmp_path)
    assert E.expand(words, env, E.ARGV).values == (f"{home}/q:~/r", "a", "b", "1", "2")
    assert E.expand(words, env, E.ASSIGNMENT_VALUE).values == (f"{home}/q:{home}/r", "a  b", "{1,2}")
    with pytest.raises(E.AmbiguousWord):
        E.expand(words[1:2], env, E.REDIRECT_TARGET)
