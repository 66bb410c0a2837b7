"""The parsing and expansion behaviours listed in BASH-NOTES.md, each pinned against bash."""

import pytest

import bashref
from qbcore.model import expand as E
from qbcore.model.evaluate import evaluate, static
from qbcore.model.expand import Env, Opaque
from qbcore.syntax.parser import parse

pytestmark = pytest.mark.bash

# Scripts whose whole output the model predicts: (note, script).
OUTPUTS = [
    ("backslash in double quotes stays unless special", 'echo "a\\b" "a\\$b"'),
    ("$'…' is not ANSI-C inside double quotes", "echo \"$'x'\""),
    ("history expansion is off", "echo a!b !!"),
    ("a comment starts only at a word start", "echo a#b #c"),
    ("unmatched globs stay, * skips dotfiles", "echo *.txt nomatch*"),
    ("brace only unquoted, tilde at start and after =", 'echo "{a,b}" {a,b} ~ "~" a~ x=~/q'),
    ("splitting uses IFS on expansion results", 'IFS=:; x="a b:c"; printf "[%s]" $x; echo'),
    ("printf reuses its format", 'printf "%s|" a b c'),
    ("bash's echo does not interpret \\t", "echo 'a\\tb'"),
    ("nested backticks need escaped backticks", "echo `echo \\`echo inner\\``"),
    ("$- is hBc under bash -c", 'echo "$-"'),
]


@pytest.mark.parametrize("note, script", OUTPUTS, ids=[o[0] for o in OUTPUTS])
def test_output_matches_bash(note, script, tmp_path):
    bashref.make_tree(str(tmp_path), ["a.txt", "b.txt", ".h.txt"])
    outcome = bashref.run(script, cwd=str(tmp_path))
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert result.stdout == outcome.text


HANDLER = ("command_not_found_handle() { { printf '%s' \"$1\"; shift; for a; do printf '\\1%s' \"$a\"; done; "
           "printf '\\2'; } >>\"$QB_LOG\"; return 0; }\n")


@pytest.mark.parametrize("script, argv", [
    # "$@" becomes one word per parameter even inside a longer quoted word
    ('set -- "a b" c; innerbash -c "echo $@"', ("innerbash", "-c", "echo a b", "c")),
    # a double quote inside R closes the outer one
    ('innerbash -c "echo "a b" x"', ("innerbash", "-c", "echo a", "b x")),
])
def test_outer_words_match_bash(script, argv, tmp_path):
    log = tmp_path / "argv.log"
    environ = dict(bashref.executor_environ(str(tmp_path)), QB_LOG=str(log))
    bashref.run(HANDLER + script, cwd=str(tmp_path), environ=environ)
    (entry,) = log.read_text().split("\2")[:-1]
    assert tuple(entry.split("\1")) == argv
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert result.commands[-1].argv == argv


def test_bash_c_arguments_are_dollar_zero_and_on(tmp_path):
    script = 'echo "$0|$1|$#|$*"'
    outcome = bashref.run(script, cwd=str(tmp_path), args=["A", "B", "C"])
    env = Env.default(str(tmp_path), arg0="A", positional=["B", "C"])
    assert evaluate(parse(script), env).stdout == outcome.text


def test_dynamic_values_are_opaque_but_lineno_is_known(tmp_path):
    script = "echo $LINENO\necho $LINENO $$ $BASHPID $RANDOM $SRANDOM $SECONDS $EPOCHSECONDS $EPOCHREALTIME $PPID"
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    assert result.output[0] == "1\n"
    second = result.commands[1]
    assert second.argv[1] == "2"
    assert set(second.opaque) == {"$$", "$BASHPID", "$RANDOM", "$SRANDOM", "$SECONDS", "$EPOCHSECONDS",
                                  "$EPOCHREALTIME", "$PPID"}
    assert isinstance(result.stdout, Opaque)


BODY = '\\"x\\" \\$y \\a $x\n'


@pytest.mark.parametrize("delimiter, end", [
    ("EOF", "EOF"), ("'EOF'", "EOF"), ('E"O"F', "EOF"), ("\\EOF", "EOF"), ('"EOF"', "EOF"),
])
def test_heredoc_delimiter_quoting(delimiter, end, tmp_path):
    source = f"x=val\ncat <<{delimiter}\n{BODY}{end}\n"
    outcome = bashref.run(source, cwd=str(tmp_path))
    env = Env.default(str(tmp_path))
    env.set("x", "val")
    doc = parse(source).body[1].command.pipelines[0].commands[0].redirects[0].heredoc
    assert doc.delimiter == "EOF"
    assert E.document(doc, env).value == outcome.text


def test_heredoc_delimiter_is_matched_on_the_raw_line(tmp_path):
    source = "cat <<EOF\nEO$()F\nline\nEOF\n"
    outcome = bashref.run(source, cwd=str(tmp_path))
    doc = parse(source).body[0].command.pipelines[0].commands[0].redirects[0].heredoc
    assert E.document(doc, static(Env.default(str(tmp_path)))).value == outcome.text == "EOF\nline\n"


def test_heredoc_tabs_stripped_with_dash(tmp_path):
    source = "x=v\ncat <<-EOF\n\t\tone $x\n\ttwo\n\tEOF\n"
    outcome = bashref.run(source, cwd=str(tmp_path))
    env = Env.default(str(tmp_path))
    env.set("x", "v")
    doc = parse(source).body[1].command.pipelines[0].commands[0].redirects[0].heredoc
    assert E.document(doc, env).value == outcome.text


@pytest.mark.parametrize("body", ["$[", "a $[1+", "$((1+", "${x", "x `", "$(echo", "${x:-$[}",
                                  "$(c())", "a $(echo ok; |) c", "${x:-$(|)}", "$(echo a) $(fi)"])
def test_heredoc_body_that_cannot_expand_fails_its_program(body, tmp_path):
    # bash expands an unquoted body as the command starts (and only then parses
    # the substitutions in it): for a program (run in a forked child) an
    # unterminated or unparsable expansion there fails only that command
    source = f"cat <<EOF >/dev/null; echo \"st=$?\"\n{body}\nEOF\necho \"next=$?\"\n"
    outcome = bashref.run(source, cwd=str(tmp_path))
    result = evaluate(parse(source), Env.default(str(tmp_path)))
    assert result.stdout == outcome.text


def test_braces_reach_into_brackets_but_not_into_double_parentheses(tmp_path):
    """bash brace-expands the text of an unquoted ``$[…]`` (``$[1+{2,3}]`` is ``3 4``) but not of
    ``$((…))``, whose braces are an arithmetic syntax error: the first is unknown to the model,
    the second its error as bash gives it."""
    brackets = bashref.run("echo $[1+{2,3}]", cwd=str(tmp_path))
    assert brackets.text == "3 4\n"
    result = evaluate(parse("echo $[1+{2,3}]"), Env.default(str(tmp_path)))
    assert isinstance(result.stdout, Opaque) or result.opaque
    parens = bashref.run("echo $((1+{2,3}))", cwd=str(tmp_path))
    result = evaluate(parse("echo $((1+{2,3}))"), Env.default(str(tmp_path)))
    assert "operand expected" in parens.error and result.status == parens.status == 1
    assert result.stdout == parens.text == ""
