"""The lexer agrees with `bash -n` about which input bash refuses to read.

Every corpus entry (agent commands, scripts, malformed input) is checked once
with `bash -n -c`. When the lexer raises, bash must refuse the same input
with the same words on the same line; when bash refuses, the lexer must too,
unless the disagreement is listed in KEPT with the bash behaviour behind it.
"""

import functools
import re
import subprocess

import pytest

from lexcorpus import agent_commands, malformed, scripts
from qbcore import ShellSyntaxError
from qbcore.syntax.parser import parse_prefix

pytestmark = pytest.mark.bash

# Grammar errors are the parser's job (docs/tokens.md, "Errors"): the lexer
# emits their tokens and bash -n rejects them.
GRAMMAR = "grammar error found by the parser, not the lexer: bash rejects it"
ARITH = ("bash reads $((…)) by counting parens and quotes only; it matches ${ and $[ inside it at "
         "expansion time ('bad substitution'), while the lexer nests them to give their structure "
         "(docs/tokens.md, known differences)")
DPAREN_EXTENT = ("bash finds the end of a $(( that is not arithmetic by counting parentheses and parses "
                 "it only when expanding it; the lexer reads it as a command substitution at once, so a "
                 "case pattern's ) inside moves the end (docs/tokens.md, known differences)")

KEPT = {
    "echo @(a|b)": GRAMMAR + " because extglob is off in `bash -c`; the lexer gives `@`, `(`…",
    "echo a=(1)": GRAMMAR + ": an array assignment is only allowed before the command name",
    "then": GRAMMAR + ": `then` outside `if`",
    "do": GRAMMAR + ": `do` outside a loop",
    "in": GRAMMAR + ": `in` outside `case`/`for`",
    "case x in @(a|b)) echo;; esac": "both reject; bash stops at the `(` of the extglob (off in "
                                     "`bash -c`), the lexer at the `)` that then closes nothing",
    "x=1 if true; then :; fi": "both reject; after an assignment `if` is a command name, bash stops at "
                               "`then`, the lexer at the `fi` that closes nothing",
    ">x if true; then :; fi": "both reject; after a redirection `if` is a command name, bash stops at "
                              "`then`, the lexer at the `fi` that closes nothing",
    "echo $(( ${ ))": ARITH,
    "echo $(( ${x:-))} ))": ARITH,
    "echo $(( $[ ))": ARITH,
    "$((})case x in ; done\nE\n\t)c<<E\n}[for x in '%\u00e9:": DPAREN_EXTENT,
    "echo $((case x in a b) ;; esac) )": DPAREN_EXTENT,
    "i\\\nf true; then :; fi": "bash removes the line continuation before recognising `if`; the lexer "
                               "keeps `i` `\\\\\\n` `f` as one word (docs/tokens.md, known differences)",
}

BASH_LINE = re.compile(r"^bash: (?:-c: )?line (\d+): (.*)$")


@functools.lru_cache(maxsize=None)
def bash_complaint(source):
    """(line, message) of bash -n's first error for SOURCE, or None when it accepts it."""
    proc = subprocess.run(["bash", "-n", "-c", "--", source], capture_output=True, timeout=20,
                          text=True, errors="surrogateescape")
    for text in proc.stderr.splitlines():
        match = BASH_LINE.match(text)
        if match and "warning:" not in match.group(2):
            return int(match.group(1)), match.group(2)
    return None


def lexer_complaint(lexer, source):
    try:
        lexer.lex(source)
    except ShellSyntaxError as exc:
        return exc.line, exc.message
    return None


ENTRIES = ([pytest.param(s, id=f"agent-{i}") for i, s in enumerate(agent_commands())]
           + [pytest.param(s.decode(), id=f"script-{name}") for name, s in scripts().items()]
           + [pytest.param(s, id=f"malformed-{i}") for i, s in enumerate(malformed())])


@pytest.mark.parametrize("source", ENTRIES)
def test_agrees_with_bash_n(lexer, source):
    bash = bash_complaint(source)
    ours = lexer_complaint(lexer, source)
    if source in KEPT:
        assert bash != ours, f"no longer a disagreement, remove it from KEPT: {KEPT[source]}"
    else:
        assert ours == bash


# bash removes a line continuation before it reads a word, so a reserved word
# followed by `\<newline>` ends where the next character after it says
CONTINUED_RESERVED = ["[[ ] ]]\\\n", "[[ a ]]\\\n", "if true; then :; fi\\\n", "if :; then :; fi\\\n\\\n",
                      "if :; then :; fi\\\n;", "if :; then :; fi\\\nx", "for a in b; do :; done\\\n",
                      "{ :; }\\\n", "case a in a) ;; esac\\\n", "f() { :; }\\\n\\\n"]


@pytest.mark.parametrize("source", CONTINUED_RESERVED)
def test_a_line_continuation_after_a_reserved_word_is_read_as_bash_reads_it(lexer, source):
    assert lexer_complaint(lexer, source) == bash_complaint(source)


# before the command name bash reads `name[…]` as a matched pair in which quotes,
# backticks, `$(…)`, `$((…))`, `${…}`, `$[…]` and `<(…)` are read whole: a `]` or `[`
# inside them neither closes nor nests the subscript
# `=~` makes the next word a regex only where a binary operator stands, after a term's first
# word; elsewhere it is a word, and `]]`, `(` and `|` after it are what they always are
# (the parser's complaint: [[ ]] grammar errors are its own)
COND_WORDS = ["[[ =~ ]]", "[[  =~  ]] && x", "[[ -n =~ ]]", "[[ ! =~ ]]", "[[ a && =~ ]]", "[[ ( =~ ) ]]",
              "[[ -z =~ (a) ]]", "[[ =~ x|y ]]", "[[ a =~ x|y ]]", "[[ =~ =~ (a|b) ]]", "[[ a < =~ ]]",
              "[[ a == ! ]]", "[[ ! a =~ (a) ]]", "[[ a =~ ^a && =~ ]]", "[[ =~\n]]", "[[ a\n=~ (b) ]]",
              "[[ x =~ ]] ]]", "[[ -n a && b =~ (c|b) ]]"]


@pytest.mark.parametrize("source", COND_WORDS)
def test_a_regex_follows_only_the_operator_s_place(source):
    error = parse_prefix(source).error
    assert ((error.line, error.message) if error else None) == bash_complaint(source)


SUBSCRIPTS = ["x[$(]=1", "x[$(echo ])]=2", "x[$(echo [)]=1", "x[$((1+2)]=3", "x[${y:-]}]=1",
              "x[$(case a in a) echo;; esac)]=1", "x[`echo ]`]=1", 'x["]"]=1', "x[$[1+[2]]]=1",
              "x[$((1))]=1 echo", 'x[$(echo "]")]=1', "x[\"${y:-'}\"]=1", "x[${y:-']'}]=1",
              "x[<(echo ])]=1", "x[a<(echo ])]=1", "x[<<(echo ])]=1", "x[<<<(echo ])]=1", "x[\\<(echo ])]=1",
              "x[$((1)) $(echo ])]=1", "x[$(( $(echo ]) ))]=1", 'x["$(echo "]")"]=1', "x[$'\\']']=1",
              "x[`echo \\`]=1", "x[\\$(]=1", "x[${a[$(echo ])]}]=1", "x[$(x[$(echo ])]=2)]=1", "x[a b]=1",
              "x[a\nb]=1", "x[a]b=1", "x[a]+=(1 2) y[b]=3 echo hi", "declare x[a b]=1", "x[", "x['a]=1",
              "x[a][b]=1", "x[a]]=1", "x[$(cat <<E\nhi]\nE\n)]=1", "cat <<E\n$(x[$(echo ])]=1)\nE\n",
              "x[ # ]=1;", "x[;|&&)(]=1", "x[$(echo ;;)]=1", "x[\\\n]=1"]


@pytest.mark.parametrize("source", SUBSCRIPTS)
def test_a_subscript_before_the_command_name_is_read_as_bash_reads_it(lexer, source):
    assert lexer_complaint(lexer, source) == bash_complaint(source)


# a word of a compound assignment that starts with `[`: bash reads `[` … `]` as a matched pair
# (so an unclosed one is "looking for matching `]'"), blanks, `;`, `|`, `)` and newlines inside
ARRAY_SUBSCRIPTS = ["a=([[ x == )", "a=([ x", "a=(x [y", "a=([x)", "a=(x [)", "a=([x y]=z)", "a=([x] y)",
                    "a=([a[b]]=c)", "a=([x) y]=1)", "a=([x;y]=1)", "a=([x|y]=1 z)", "a=([\n]=1)", "a=( [#]=1 )",
                    "a=([k]=(x))", "a=([$((1]=2)", "a=([${x]=1)", "a=([`]=1)", "a=([\"]\"]=1)", "a=(['x]']=1)",
                    "a=([x\\]]=1)", "a=(#[x\n[y]=1)", "a=(b [x]=$(echo ]) )", "a=([]=1)", "x=1 a=([ )"]


@pytest.mark.parametrize("source", ARRAY_SUBSCRIPTS)
def test_a_subscript_that_starts_an_array_element_is_read_as_bash_reads_it(lexer, source):
    assert lexer_complaint(lexer, source) == bash_complaint(source)


def test_an_array_element_with_a_plain_subscript_is_one_word(lexer):
    """Blanks inside it do not part it (bash: `a=([x y]=z)` is one element, whose subscript fails)."""
    tokens = [t for t in lexer.lex(b"a=([x y]=z [k]=v)") if t[0] == "lit"]
    assert [(start, end) for _, start, end in tokens] == [(3, 10), (11, 16)]


def test_kept_disagreements_are_in_the_corpus():
    assert set(KEPT) <= set(malformed())


def test_agent_commands_and_scripts_are_valid_bash():
    # the corpora that benchmarks and tree-sitter tests use must be clean input
    for source in agent_commands() + [s.decode() for s in scripts().values()]:
        assert bash_complaint(source) is None, source


# ---------------------------------------------------------------- generated input
# Random shell-like text against bash -n (one bash process per example, so
# the count stays small). Left out: arithmetic, where bash matches ${ and $[
# only at expansion time (KEPT above), and an empty `[[ ]]`, after which bash
# silently stops reading the script.
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from test_lex_differential import FRAGMENTS, SCALE  # noqa: E402

ARITHMETIC = ("$((", "((", "$[")
EMPTY_TEST = re.compile(r"\[\[[ \t\n]*\]\]")


@settings(max_examples=300 * SCALE, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=12).map("".join))
def test_generated_input_agrees_with_bash_n(both_lexers, source):
    assume("\0" not in source and not any(a in source for a in ARITHMETIC) and not EMPTY_TEST.search(source))
    _, pure = both_lexers
    ours = lexer_complaint(pure, source)
    bash = bash_complaint(source)
    if ours is not None:
        assert bash is not None, f"the lexer refuses what bash reads: {ours}"
    if bash is not None and "looking for" in bash[1]:
        assert ours is not None, f"bash refuses it as unterminated: {bash}"
