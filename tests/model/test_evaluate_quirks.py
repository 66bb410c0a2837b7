"""Corners where bash reads or expands late or unusually, each pinned against bash."""

import pytest

import bashref
from qbcore.model.evaluate import evaluate
from qbcore.model.expand import Env, Opaque
from qbcore.syntax.parser import parse

pytestmark = pytest.mark.bash

# a backtick body is parsed when it is expanded: a syntax error there is the
# substitution's (status 2, the lines of the body before it ran), and the line goes on
BACKTICK_BODIES = [
    "echo `|` x; echo \"st=$?\"",
    "y=`|`; echo \"st=$?\"",
    "y=`echo a\n|`; echo \"[$y] st=$?\"",
    "echo \"`echo b; |`\" \"`(`\" `'` `if` `$(` `;;`; echo next",
    "z=`echo c\nfi`; echo \"[$z] $?\"; echo `2<` `<<` `a; <` `<&` `<> |`",
    "echo `{$(` `{ $(` \"`$(`\" \"`{${`\" \"`x $(`\" \"`$(a }`\" \"`$(<`\" \"{\"`$(`; echo next",
]


@pytest.mark.parametrize("script", BACKTICK_BODIES)
def test_backtick_body_syntax_error_is_the_substitutions(script, tmp_path):
    outcome = bashref.run(script, cwd=str(tmp_path))
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert result.stdout == outcome.text


@pytest.mark.parametrize("body", ["<", " <", "\t<;", "<f; (", "<(", "<\n|"])
def test_backtick_body_read_as_input_file_is_opaque(body, tmp_path):
    # bash takes its `$(<file)` path for such a body and stops more than the
    # substitution (measured: not even the rest of the script runs)
    script = f"echo `{body}` x; echo \"st=$?\""
    outcome = bashref.run(script, cwd=str(tmp_path))
    assert outcome.text == ""
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert isinstance(result.stdout, Opaque)


# bash 5.2 toggles case with ~ (first character) and ~~ (all), a pattern limiting which
CASE_TOGGLE = ("x=aBc; y=éA1z; echo ${x~} ${x~~} ${x~~[a-b]} ${x~[a]} ${x~B} ${y~~} ${y~} \"${x~~}\" "
               "${x[0]~~} ${x~~*} ${x~~?}; a=(aB Cd); echo ${a[@]~} ${a[*]~~}; set -- pQ Rs; echo ${@~} ${*~~}")


def test_case_toggling(tmp_path):
    outcome = bashref.run(CASE_TOGGLE, cwd=str(tmp_path))
    assert evaluate(parse(CASE_TOGGLE), Env.default(str(tmp_path))).stdout == outcome.text


# inside ${…} a leading `$` is the parameter $$ and what follows is an operator
DOLLAR_FORMS = ["${$1}", "${$$}", "${$x}", "${$-}", "${$?}", "${$*}", "${$!}", "${$0}", "${$#a}", "${$-x}",
                "${$?x}", "${$-$}", "${$#}", "${$##}", "${$@}", "${$}", "${#$}"]


@pytest.mark.parametrize("form", DOLLAR_FORMS)
def test_dollar_parameter_inside_braces(form, tmp_path):
    # a bad substitution abandons the line; a good one expands to the process id
    script = f"x={form}; echo ok"
    outcome = bashref.run(script, cwd=str(tmp_path))
    assert evaluate(parse(script), Env.default(str(tmp_path))).stdout == outcome.text


# ${#…}: the length of a parameter, or $# with an operator, or an error, as bash decides
HASH_FORMS = ["${##}", "${##E}", "${#-}", "${#-x}", "${#?}", "${#?x}", "${#x}", "${#x-a}", "${#@}", "${#@x}",
              "${#:-a}", "${#%a}", "${#/a/b}", "${#:1}", "${#^}", "${#$x}", "${#!}", "${#*}", "${#1}", "${#1x}",
              "${#=}", "${#+}", "${#+x}", "${#}", "${#:}", "${#,}", "${#@Q}", "${#~}", "${#%}", "${#/}", "${#^^}",
              "${##*}", "${#:-}", "${#-}x", "${#a[@]}", "${#*x}", "${?^}", "${-^^}", "${-~}", "${#,a}", "${@^}",
              # a subscript after a special or positional parameter is a bad substitution
              "${#[0]}", "${#[]}", "${@[0]}", "${*[0]}", "${1[0]}", "${?[0]}", "${-[0]}", "${$[0]}", "${!#[0]}",
              "${0[0]}", "${#1[0]}", "${#@[0]}", "${10[0]}", "${#?[0]}", "${#x[0]}"]


@pytest.mark.parametrize("form", HASH_FORMS)
def test_length_or_dollar_hash(form, tmp_path):
    script = f'set -- aa; x=abc; echo "{form}"; echo next'
    outcome = bashref.run(script, cwd=str(tmp_path))
    assert evaluate(parse(script), Env.default(str(tmp_path))).stdout == outcome.text


def test_heredoc_body_runs_its_substitutions_up_to_the_one_that_fails(tmp_path):
    # bash expands the body left to right in the command's child: what comes
    # before the construct that does not close has run when the command fails
    source = "cat <<EOF >/dev/null; echo \"st=$?\"\nx $(echo ran >&2) `echo ran2 >&2` $[\nEOF\n"
    outcome = bashref.run(source, cwd=str(tmp_path))
    assert outcome.error.startswith("ran\nran2\n") and outcome.text == "st=1\n"
    result = evaluate(parse(source), Env.default(str(tmp_path)))
    assert result.stdout == outcome.text
    assert [s.text for s in result.commands[0].substitutions] == ["echo ran >&2", "echo ran2 >&2"]


# bash matches an unclosed `$((` there by its text: not followed, so unknown
BY_TEXT = {"`{$((`", '{"`$(()`"', '{"`echo $((1)`"'}


def _exact_as_bash(script, tmp_path):
    """The model is exact on ``script`` and prints what bash prints."""
    outcome = bashref.run(script, cwd=str(tmp_path))
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert result.exact, result.opaque
    assert result.stdout == outcome.text


def _abandons_the_line_or_is_unknown(script, unknown, tmp_path):
    """The model abandons the line as bash does, or says the outcome is unknown."""
    outcome = bashref.run(script, cwd=str(tmp_path))
    assert outcome.text == "next\n"
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    if unknown:
        assert isinstance(result.stdout, Opaque)
    else:
        assert result.stdout == outcome.text
        assert result.status == outcome.status


@pytest.mark.parametrize("quoted", ["`{$(`", "`{ $(`", "`b{$(`", "`$({`", "`{$((`", "`;<<!!${x:-y}$(!!`",
                                    "{`$(`", "`$(`{", "`$(<`${x}", "`$(a{`", "`$(${`", "`$(x${`", "`$(\\${`"])
def test_backtick_body_in_double_quotes_that_brace_expansion_refuses(quoted, tmp_path):
    # looking for braces in a word that holds a `{`, bash parses each `$(` in double
    # quotes again, up to the end of the word; one inside backquotes that does not
    # parse makes it report that and abandon the line (measured)
    _abandons_the_line_or_is_unknown(f"echo \"{quoted}\" x; echo same\necho next", quoted in BY_TEXT, tmp_path)


@pytest.mark.parametrize("word", ['{"`$(`"', 'x{"`$(`"', '\\{"`$(`"', "'{'\"`$(`\"", '${x}"`$(`"', '"`$(`"{',
                                  '{"`$(()`"', '{"`echo $((1)`"', '{"`z;}&F$(cEF$((1+2));`"',
                                  "\"${x#'$(a'}\"", "\"${x/'$(a'/b}\"", "\"${x:-`$(${`}\""])
def test_a_brace_elsewhere_in_the_word_counts_too(word, tmp_path):
    # the `{` may sit outside the double quotes, quoted, escaped or in ${x}: brace
    # expansion scans the whole word (measured); single quotes inside a double-quoted
    # ${…} hide a `$(` from the reader, not from brace expansion
    _abandons_the_line_or_is_unknown(f"echo {word} x; echo same\necho next", word in BY_TEXT, tmp_path)


BRACE_REFUSED_PLACES = [
    # every word a command brace-expands, before it expands any of them
    'echo "$(echo side)" "`$(${`"; echo same\necho next $?',
    'x=$(echo side) echo "`$(${`"; echo same\necho next $?',
    'declare x="`$(${`"; echo same\necho next $?',
    'a=("`$(${`"); echo same\necho next $?',
    'declare -a a=("`$(${`"); echo same\necho next $?',
    'for i in a "`$(${`"; do echo $i; done; echo same\necho next $?',
    'echo > "`$(${`"; echo same\necho next $?',
    'f() { echo "`$(${`"; echo in; }; f; echo same\necho next $?',
    '( echo "`$(${`"; echo sub ); echo next $?',
    '{ echo "`$(${`"; echo grouped; }; echo same\necho next $?',
    # words bash does not brace-expand: the substitution alone fails, the line goes on
    'x="`$(${`"; echo next $?',
    'case "`$(${`" in *) echo matched;; esac; echo next $?',
    ': <<< "`$(${`"; echo next $?',
    '[[ -n "`$(${`" ]]; echo next $?',
    # a `$(` that parses there is only skipped
    'echo "`$(echo true)`"{; echo next $?',
    'echo "`$(echo : {)`"; echo next $?',
    'echo "`\\$(`"{; echo next $?',
]


@pytest.mark.parametrize("script", BRACE_REFUSED_PLACES)
def test_brace_refusal_where_bash_brace_expands(script, tmp_path):
    outcome = bashref.run(script, cwd=str(tmp_path))
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert (result.stdout, result.status) == (outcome.text, outcome.status)


EVAL_ABANDONED_LINES = [
    # an error that abandons a line abandons that line of eval'd code; eval goes on with
    # its next line and its status is the last command's
    "eval 'echo $((1/0)); echo a\necho b'; echo next $?",
    "eval 'echo $((1/0))' && echo and; echo next $?",
    "f() { eval 'echo $((1/0)); echo a'; echo in $?; }; f; echo next $?",
    "eval 'echo \"`$(${`\"; echo a\necho b'; echo next $?",
    # in a subshell it ends the subshell
    "( eval 'echo $((1/0))'; echo sub $? ); echo next $?",
    "x=$(eval 'echo $((1/0))'; echo c $?); echo \"[$x] $?\"",
    "{ eval 'echo $((1/0)); echo a'; echo in $?; } | true; echo next $?",
]


@pytest.mark.parametrize("script", EVAL_ABANDONED_LINES)
def test_an_abandoned_line_of_eval_code(script, tmp_path):
    outcome = bashref.run(script, cwd=str(tmp_path))
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert (result.stdout, result.status) == (outcome.text, outcome.status)


@pytest.mark.parametrize("script", ["y=abc; x=\"${y:+'$(a'}\"; echo next", "x=\"${z-'`a'}\"; echo next",
                                    "x=\"${z-'${a'}\"; echo next", "y=abc; x=\"${y:+'$(a)'}\"; echo next"])
def test_a_substitution_in_single_quotes_of_a_double_quoted_operand_is_unknown(script, tmp_path):
    # bash reads it as it expands the word, and one that does not parse abandons the
    # line (measured, for all but the last): not followed, so nothing after it is known
    outcome = bashref.run(script, cwd=str(tmp_path))
    assert outcome.text in ("", "next\n")
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert isinstance(result.stdout, Opaque) and isinstance(result.status, Opaque)


@pytest.mark.parametrize("script", ['echo "{" "`$(`"; echo next', 'x={"`$(`"; echo next',
                                    'case {"`$(`" in *) ;; esac; echo next'])
def test_no_brace_in_a_brace_expanded_word_is_modelled(script, tmp_path):
    # a `{` in another word, or a word bash does not brace-expand: the substitution
    # alone fails, the line goes on
    outcome = bashref.run(script, cwd=str(tmp_path))
    assert outcome.text.endswith("next\n")
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert result.stdout == outcome.text


@pytest.mark.parametrize("subject, pattern", [("E", "[{-E]"), ("x", "[x{-Ey]"), ("y", "[x{-Ey]"), ("E", "[!{-E]"),
                                              ("{", "[{-E]"), ("c", "[a-e]"), ("-", "[a-]")])
def test_a_range_whose_end_comes_first_matches_nothing(subject, pattern, tmp_path):
    script = f"case '{subject}' in {pattern}) echo yes;; *) echo no;; esac"
    outcome = bashref.run(script, cwd=str(tmp_path))
    assert evaluate(parse(script), Env.default(str(tmp_path))).stdout == outcome.text


def test_single_quotes_in_a_double_quoted_default_word(tmp_path):
    # the quotes stay literal there, and bash expands what they hold: not modelled, so opaque
    script = "unset x; echo \"${x-'$HOME'}\""
    assert bashref.run(script, cwd=str(tmp_path)).text == f"'{tmp_path}'\n"  # HOME is the directory
    assert isinstance(evaluate(parse(script), Env.default(str(tmp_path))).stdout, Opaque)
    plain = "unset x; echo \"${x-'a b'}\""  # nothing to expand: the literal quotes are exact
    assert evaluate(parse(plain), Env.default(str(tmp_path))).stdout == bashref.run(plain, cwd=str(tmp_path)).text


@pytest.mark.parametrize("script", ['echo "$(()\n)" next; echo $?', "echo $(()\n) next; echo $?",
                                    "echo $((echo a) )", "echo $(()\necho b\n) c"])
def test_a_dollar_double_paren_that_is_no_arithmetic_parses_its_body_late(script, tmp_path):
    # matched as a command substitution by its parentheses; a syntax error in the body
    # fails that substitution when it runs, and the line goes on
    outcome = bashref.run(script, cwd=str(tmp_path))
    assert evaluate(parse(script), Env.default(str(tmp_path))).stdout == outcome.text


# `name=(…)` arguments of declaration builtins set arrays as bash sets them;
# eval and let receive the one word bash rebuilds from them
COMPOUND_ARGUMENTS = [
    'declare -a a=(1 2); echo ${#a[@]} "${a[1]}" "$_"',
    'f() { local x=(a b); echo ${#x[@]} ${x[1]}; }; f; echo "[${x[@]}]"',
    "export A=(1); echo ${A[0]} ${#A[@]}",
    "readonly r=(1 2); echo ${r[@]}",
    "declare a=(); echo ${#a[@]}",
    'x="p q"; declare a=($x "$x" [5]=z); echo ${#a[@]} "${a[2]}" "${a[5]}" "${!a[@]}"',
    'declare -a a=([2]=x [0]=y); echo ${#a[@]} "${!a[@]}" "${a[@]}"',
    'declare -a a=([1]=x y [0]=z); echo ${a[@]} ${#a[@]}; b=([1]=x y [0]=z); echo ${b[@]}',
    'i=1; declare a=([i+1]=x) b=(1 [1]+=x [1]+=y); echo ${!a[@]} ${b[@]}',
    'x=(1 2); declare x+=(3); a=(x y); declare a=(z); echo "${x[@]}" ${a[@]} ${#a[@]}',
    'declare a=(1 2)x b=(1 2)$x c=(1  "2"  # c\n3)y; echo "$a|$b|$c" ${#a[@]}',
    'declare -a a=(~ {1,2} "x y") b=([0]={1,2}); echo "${a[@]}" ${#a[@]} "${b[@]}"',
    "declare -a x=(1) y=(2 3); FOO=1 declare z=(4); echo ${x[@]} ${y[@]} $z",
    "declare a=(\n1 # one\n2\n); echo ${#a[@]}",
    "let i=(3+4); x=5; let y=($x+1) z=2; echo $i $y $z",
    "eval a=(1  2); echo ${#a[@]} ${a[1]}",
    "f() { for a in \"$@\"; do echo \"$a\"; done }; f 1 2; g() { if true; then echo y; fi }; g",
    # a word whose last expansion is followed by a bare `$` is not split, in arrays as in argv
    "x='a b'; arr=($x$); echo ${#arr[@]}; arr=($x$ z $x$.$x); echo ${#arr[@]}",
]


@pytest.mark.parametrize("script", COMPOUND_ARGUMENTS)
def test_compound_arguments_are_assigned_as_bash_does(script, tmp_path):
    _exact_as_bash(script, tmp_path)


# what the model does not store (associative arrays, integer attributes, a list
# for one element, a string parsed as a list, extended globs) is unknown, never guessed
UNMODELLED_DECLARATIONS = [
    "typeset -A m=([k]=v); echo ${m[k]} ${#m[@]}",
    "declare -i n=(1+2 3); echo ${n[@]}",
    "declare -i n=1+2; echo $n",
    'declare -a a="(1 2)"; echo ${#a[@]} ${!a[@]}',
    "[[ xa == !(foo) ]] && echo m; [[ foo == @(foo|x) ]] && echo n",
]


@pytest.mark.parametrize("script", UNMODELLED_DECLARATIONS)
def test_unmodelled_declarations_are_unknown(script, tmp_path):
    outcome = bashref.run(script, cwd=str(tmp_path))
    assert outcome.text  # bash prints something definite there
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert not result.exact
    if result.stdout == outcome.text:
        assert any("[[" in name for name in result.opaque)  # only a branch that may run printed it
    else:
        assert isinstance(result.stdout, Opaque), result.stdout


def test_list_for_one_element_is_unknown(tmp_path):
    # bash refuses it at run time ("cannot assign list to array member") and stops the line
    result = evaluate(parse("declare a[1]=(x); echo ${a[@]}"), Env.default(str(tmp_path)))
    assert not result.exact and isinstance(result.stdout, Opaque)


# bash reads $[…] by its brackets and expands ${…} in it only when it expands it
BRACKET_ARITHMETIC = [
    'x=2; echo "$[ ${x}+1 ]" $[ ${x:-5} * 2 ] $[ $(echo 3) + ${#x} ]; echo next',
    "echo $[ 2*(3+1) ] $[ $[1] + 1 ] $[ \"2\" + 1 ]; x=(5 6); echo $[ x[1] ] $[ ${#x} ]",
    "x=2; echo $[ ${x}\n+1 ]",
    "echo $[ ${ ]; echo next",
    "x=1; echo $[ ${x:-]} ]; echo next",
    "echo $[ [ ] ]; echo next",
]


@pytest.mark.parametrize("script", BRACKET_ARITHMETIC)
def test_bracket_arithmetic_is_read_by_its_brackets(script, tmp_path):
    outcome = bashref.run(script, cwd=str(tmp_path))
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert result.stdout == outcome.text


# `exec N>file` / `exec N>&-` change which descriptors the shell holds; a command's
# or a compound's own redirections are undone after it, a subshell's never leak
EXEC_DESCRIPTORS = [
    'exec 3>f; echo hi >&3; echo "st=$?"; exec 3>&-; echo x >&3; echo "st=$?"; exec 4>&3; echo "st=$?"',
    'exec 3>&-; (exec 3>f); echo x >&3; echo "st=$?"',
    'exec 3>f 4>&3 5>&4-; echo a >&5; echo "st=$?"; echo b >&4; echo "st=$?"; echo c >&3; echo "st=$?"',
    'exec 3>f; f() { exec 3>&-; }; f; echo x >&3; echo "st=$?"',
    'exec 3>f; echo "$(exec 3>&-; echo in)"; echo x >&3; echo "st=$?"',
    'exec 3>f; { exec 3>&-; } 3>g; echo x >&3; echo "st=$?"',
    'exec 3>&-; g() { exec 3>h; echo in >&3; }; g 3>&-; echo x >&3; echo "st=$?"',
]


@pytest.mark.parametrize("script", EXEC_DESCRIPTORS)
def test_exec_descriptors_are_tracked(script, tmp_path):
    _exact_as_bash(script, tmp_path)


@pytest.mark.parametrize("script", [
    'exec 5<&1 6>&5-; echo q >&6; echo "st=$?"',  # a copy of stdout: where it writes is not modelled
    'exec 3<f 2>/dev/null; echo x >&3; echo "st=$?"',  # read-only: the write would fail
    'exec 3>$RANDOM; exec 3>&-; exec 3>$RANDOM; echo x >&3; echo "st=$?"',
])
def test_descriptors_the_model_cannot_follow_stay_unknown(script, tmp_path):
    assert not evaluate(parse(script), Env.default(str(tmp_path))).exact


# $LINENO in a command substitution counts from the line of the command that expands
# it: a backtick body as written, a $(…) body as bash re-prints it
SUBSTITUTION_LINENO = [
    'echo $LINENO; x=$(echo $LINENO\necho $LINENO); echo "$x" $LINENO',
    'echo "$(\necho $LINENO\n)" $LINENO',
    'echo "$(echo $LINENO\necho $LINENO\n)" $LINENO',
    "echo a\necho 2 $(echo $LINENO; echo $LINENO\necho $LINENO)",
    "echo a; echo $(echo $LINENO) $(\necho $LINENO) $(echo $LINENO)",
    "x=$(echo $LINENO # c\n\n# d\necho $LINENO); echo $x",
    "x=$(echo $LINENO &&\necho $LINENO); echo $x",
    "x=$(\n\techo $LINENO\n\techo $LINENO\n); echo $x",
    "x=`echo $LINENO\necho $LINENO`; echo $x",
    'echo "`\necho $LINENO`"',
    "echo 1; x=`echo $LINENO; echo $LINENO\necho $LINENO`; echo $x",
    "f() { echo $LINENO; }\nx=$(f\necho $LINENO); echo $x",
    "f() {\necho $(echo $LINENO)\n}; f",
]


@pytest.mark.parametrize("script", SUBSTITUTION_LINENO)
def test_lineno_inside_substitutions(script, tmp_path):
    _exact_as_bash(script, tmp_path)


@pytest.mark.parametrize("script", [
    "x=$(if true\nthen echo $LINENO\nfi\necho $LINENO); echo $x",  # bash re-prints compound commands
    "echo $(echo $(echo $LINENO\necho $LINENO)\necho $LINENO)",
])
def test_lineno_in_a_reprinted_body_the_model_does_not_follow_is_unknown(script, tmp_path):
    assert bashref.run(script, cwd=str(tmp_path)).text  # bash prints definite numbers
    assert not evaluate(parse(script), Env.default(str(tmp_path))).exact


# readonly names: bash refuses later declarations and unsets of them (and goes on or stops by
# context); the model keeps the value and says the rest is not exact
@pytest.mark.parametrize("script", [
    'readonly a=1; declare a=3; echo "[$a] $?"',
    'readonly a=1; unset a; echo "[$a]"',
])
def test_declaring_or_unsetting_a_readonly_variable_is_not_exact(script, tmp_path):
    assert not evaluate(parse(script), Env.default(str(tmp_path))).exact


# a plain assignment to one: bash says so and abandons the rest of the line
@pytest.mark.parametrize("script", [
    'readonly a=1; a=2; echo "[$a] $?"',
    'declare -r r=(1 2); r=3; echo "${r[@]}"',
    'readonly a=1; b=1 a=2 c=3; echo same\necho "[$a] $? <$b><$c>"',
])
def test_assigning_a_readonly_variable_abandons_the_line(script, tmp_path):
    outcome = bashref.run(script, cwd=str(tmp_path))
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert result.exact and result.stdout == outcome.text
    assert "readonly variable" in bashref.model_stderr(result.commands)


@pytest.mark.parametrize("script", ['readonly a=1 b; echo "$a" ${b-unset}', "f() { readonly q=(1 2); }; f; echo ${q[1]}"])
def test_readonly_values_are_as_bash_sets_them(script, tmp_path):
    outcome = bashref.run(script, cwd=str(tmp_path))
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert result.exact and result.stdout == outcome.text


# subscripts bash refuses (`x[a b]=`, `x[1+]=`: the shell or the command ends) or counts
# back from the end when they are negative; and `declare -A` (not followed), which makes
# `m[a]` a string key. Each leaves what follows unknown, never an answer bash does not give
UNFOLLOWED_SUBSCRIPTS = ["x[a b]=1; echo after", "x[1+]=1 echo hi; echo after",
                         "y=(1 2); y[-1]=5; echo ${y[@]}", "declare -A m; m[a]=1; m[b]=2; echo ${m[a]}",
                         "declare -A m; m=(a b); echo ${m[a]}", "typeset -A m; m[x]=1; m+=([y]=2); echo ${m[x]}",
                         'x=a; unset "x[1]"; echo $x', 'x=(a b); unset "x[-5]"; echo $? ${x[@]}',
                         'readonly r=(1 2); unset "r[0]"; echo $?', "x=(a b c); i=1; unset 'x[$i]'; echo ${x[@]}",
                         # attributes the model does not follow change the values assigned later
                         'declare -i n; n="3+4"; echo $n', "typeset -u s=x; s=y; echo $s",
                         "declare -n r=x; x=1; r=2; echo $x", "f() { local -n ref=$1; ref=9; }; v=1; f v; echo $v",
                         "printf -v 'arr[2]' '%s' q; echo \"${arr[2]}\"",
                         # output to a descriptor the walker does not follow
                         "{ echo a >&3; } 3>&1", "x=$( { echo b >&3; } 3>&1 ); echo \"[$x]\"",
                         'x=$( { echo a; echo b >&2; } 2>&1 ); echo "$x"', "{ echo b >&2; } 2>&1 >/dev/null; echo c"]


@pytest.mark.parametrize("script", UNFOLLOWED_SUBSCRIPTS)
def test_a_subscript_the_model_does_not_follow_leaves_what_follows_unknown(script, tmp_path):
    outcome = bashref.run(script, cwd=str(tmp_path))
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert isinstance(result.stdout, Opaque), (result.stdout, outcome.text)


# bash expands a subscript (parameters, substitutions, arithmetic, quotes) and then evaluates
# it, after the value when it assigns
FOLLOWED_SUBSCRIPTS = ["x[2]=a; x[ 1 ]=b; echo ${x[@]} ${#x[@]}", "i=2; x[i*2]=a; x[i+1]+=b; echo ${x[4]} ${x[3]}",
                       "x=(1 2); x[3]=4; echo ${x[@]}", "x=$(true); x[1]=2; echo ${x[@]}",
                       'for i in 1 2; do x[$i]=$i; done; echo "${x[@]}"', "x[$(echo 1)]=a; echo ${x[1]}",
                       "i=3; x[${i}+1]=a; x[$((i*2))]=b; echo ${x[4]} ${x[6]}", "x=(a b); i=1; x[$i]+=z; echo ${x[@]}",
                       'x=(a b c); i=1; echo ${x[$i]} "${x[$i]}" ${#x[$i]} ${x[$i+1]} ${x["$i"]} ${x[`echo 0`]}',
                       "x=(a b c); echo ${x[$(echo 2)]}; echo next", 'x=(a b); j=5; echo "[${x[$j]}]"',
                       "x=(a b c); y=-1; echo ${x[$y]} ${x[$z]}", "x=(a b c); i=0; echo ${x[$i]:-d} ${x[$i+5]:-d} ${x[$i]/a/z}",
                       "x=(é b); i=0; echo ${x[$i]}é", "x=(a b c); i=1; echo ${x[x[$i]]} ${x[$(echo 1)]//b/B}",
                       "i=0; x[i++]=$((i+5)); echo ${x[0]} $i", "x=(a b); for i in ${!x[@]}; do echo $i=${x[$i]}; done",
                       # unset of an element
                       'x=(a b c); unset "x[1]"; echo "${x[@]}" "${!x[@]}"', 'x=(a b c); unset x[-1]; echo "${!x[@]}"',
                       'x=(a b c); unset "x[@]"; echo "${#x[@]}"; x+=(q); echo ${x[@]}', 'x=(a b); unset "x[9]"; echo $?',
                       'x=a; unset "x[0]"; echo "[${x-unset}]"', 'unset "y[0]"; echo $?',
                       'x=(a b c); unset "x[1+1]" x[0]; echo ${x[@]}', 'x=(a b c); i=1; unset "x[$i]"; echo ${x[@]}']


# bash makes each assignment of a command (or puts it in the command's environment)
# before it expands the next one
CHAINED_ASSIGNMENTS = ["echo x >&1; echo y 1>&2 2>/dev/null", "{ echo b >&2; } >/dev/null 2>&1; echo c",
                       "{ echo a; echo b >&2; } 2>/dev/null", "a=1 b=$a; echo $b", "a=x a+=y b=$a; echo $a $b", "a=1 b=${a:-no} c=$((a+1)); echo $b $c",
                       'f() { echo "$v"; }; u=3 v=$u f; echo "[$u]"', "a=5; a=1 b=$a :; echo $a $b",
                       "readonly r=1; r=2 z=$r; echo \"[$z]\"", "p=1 q=$p r=$q; echo $r"]


# bash reads a line it started inside single quotes as if a newline ended it, so a backslash
# that ends the input there continues the line: `c\` is `c` (other lines keep the backslash)
TRAILING_BACKSLASHES = ["printf '[%s]' 'a\nb' c\\", "printf '[%s]' $'a\nb' c\\", "printf '[%s]' 'a\nb' \\",
                        "printf '[%s]' 'a\nb'; printf '[%s]' c\\", "printf '[%s]' $(echo 'a\nb') c\\",
                        "printf '[%s]' 'a\nb' c\\\\\\", "printf '[%s]' \"a\nb\" 'c\nd' e\\",
                        "printf '[%s]' `echo 'a\nb'` c\\", "printf '[%s]' 'a\nb'\nprintf '[%s]' c\\",
                        "printf '[%s]' 'a\nb' \"c\n\" d\\", "printf '[%s]' c\\", "printf '[%s]' 'a\nb' c\\\nd"]


@pytest.mark.parametrize("script", FOLLOWED_SUBSCRIPTS + CHAINED_ASSIGNMENTS + TRAILING_BACKSLASHES)
def test_subscripts_assignments_and_a_final_backslash_as_bash_reads_them(script, tmp_path):
    outcome = bashref.run(script, cwd=str(tmp_path))
    assert evaluate(parse(script), Env.default(str(tmp_path))).stdout == outcome.text



# brace expansion follows quotes by text, one level deep: a `"` in backquotes or in `${…}`
# within double quotes closes the quote. There bash expands braces the reader saw quoted
# (bash's fields, measured, beside each): not followed
BRACES_READ_BY_TEXT = {'printf "<%s>" "`"{,}`"': "<><>", 'printf "<%s>" "${x:-"a{1,2}"}"': "<a1><a2>",
                       'x=1; printf "<%s>" "${x:+"{a,b}"}"': "<a><b>", 'printf "<%s>" "`echo "{1,2}`"': "<><>"}
# where the quotes read alike, the model follows it (a `$'…'` is single-quoted text by then)
BRACES_READ_ALIKE = ["echo \"a'\"{a,b}\"'\"", 'x=1; echo "${x}"{a,b}', "echo '{a,b}'{1,2}",
                     'echo "$(echo {a,b})"{1,2}', "echo `echo {a,b}`{1,2}", "echo ${x:-{a,b}}",
                     'echo "${x:-a{1,2}}"', "echo ${x:-'a'{1,2}} ${x:-'}'}{1,2}", 'echo "`echo {1,2}`"{a,b}',
                     "echo $'\\''{a,b} $'\\'x'{1,2}", "echo $'{a,b}'{1,2}"]


@pytest.mark.parametrize("script", BRACES_READ_BY_TEXT)
def test_braces_bash_reads_by_the_text_of_the_quotes_are_unknown(script, tmp_path):
    outcome = bashref.run(script + "; echo next", cwd=str(tmp_path))
    assert outcome.text == BRACES_READ_BY_TEXT[script] + "next\n"
    result = evaluate(parse(script + "; echo next"), Env.default(str(tmp_path)))
    assert isinstance(result.stdout, Opaque), (result.stdout, outcome.text)


@pytest.mark.parametrize("script", BRACES_READ_ALIKE)
def test_braces_whose_quotes_read_alike_are_followed(script, tmp_path):
    outcome = bashref.run(script, cwd=str(tmp_path))
    assert evaluate(parse(script), Env.default(str(tmp_path))).stdout == outcome.text


@pytest.mark.parametrize("script", ["select x in a b; do echo $x; done; echo after",
                                    "x=1; select x in a b; do break; done 2>/dev/null; echo $x"])
def test_select_is_unknown_with_all_that_follows(script, tmp_path):
    # at the end of its input select prints a newline, and its body runs once for each
    # line it reads: not followed
    outcome = bashref.run(script, cwd=str(tmp_path))
    assert outcome.text.startswith("\n")
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert isinstance(result.stdout, Opaque), (result.stdout, outcome.text)


# bash sets $_ from a command's expanded words before it performs its redirections, so a
# command whose redirection fails still leaves its last word there ("" without a name)
LAST_ARGUMENT_AFTER_A_FAILED_REDIRECTION = [
    'echo a b >/dev/null; true c d <nonexist; echo "[$_]"',
    'echo a b >/dev/null; x=1 <nonexist; echo "[$_]"',
    'echo a b >/dev/null; <nonexist; echo "[$_]"',
    'echo a b >/dev/null; bash -c "" <nonexist; echo "[$_]"',
    'echo a b >/dev/null; f() { :; }; f c d <nonexist; echo "[$_]"',
    'echo a b >/dev/null; u=; true c d >$u; echo "[$_]"',
]


@pytest.mark.parametrize("script", LAST_ARGUMENT_AFTER_A_FAILED_REDIRECTION)
def test_last_argument_after_a_failed_redirection(script, tmp_path):
    _exact_as_bash(script, tmp_path)


# ${name@a} lists the attributes bash keeps (array, readonly, exported, in its order), and
# ${name@A} makes the variable again, with declare where it has any
ATTRIBUTES = ['a=(1 2); readonly a; export a; echo "[${a@a}]"', 'x=1; echo "[${x@a}] [${x@A}]"',
              'export y=2; echo "[${y@a}] [${y@A}]"', 'readonly r=3; echo "[${r@a}] [${r@A}]"',
              'readonly r=3; export r; echo "[${r@a}] [${r@A}]"', 'echo "[${u@a}] [${u@A}]"',
              'f() { local l=1; echo "[${l@a}] [${l@A}]"; }; f', "x=\"it's\"; export x; echo \"${x@A}\"",
              # REPLY and MAPFILE, which read and mapfile set, are plain variables
              'REPLY=x; echo "[${REPLY@a}]"; export REPLY; echo "[${REPLY@a}]"', 'MAPFILE=(y); echo "[${MAPFILE@a}]"']
# bash's own variables carry attributes the model does not keep (UID: ir, SHELLOPTS: r)
ATTRIBUTES_UNKNOWN = ['echo "[${UID@a}]"', 'echo "[${SHELLOPTS@a}]"', 'b=(1); echo "[${b@A}]"']


@pytest.mark.parametrize("script", ATTRIBUTES)
def test_attributes_as_bash_lists_them(script, tmp_path):
    assert evaluate(parse(script), Env.default(str(tmp_path))).stdout == bashref.run(script, cwd=str(tmp_path)).text


@pytest.mark.parametrize("script", ATTRIBUTES_UNKNOWN)
def test_attributes_bash_keeps_for_itself_are_unknown(script, tmp_path):
    assert isinstance(evaluate(parse(script), Env.default(str(tmp_path))).stdout, Opaque)
