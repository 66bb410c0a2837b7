"""The parser: tree shapes for the common constructs, and syntax errors as bash reports them."""

import re

import pytest

from qbcore import ShellSyntaxError
from qbcore.syntax import parser as S
from qbcore.syntax.parser import parse, parse_prefix

import bashref
from qbcore.model.evaluate import evaluate, static
from qbcore.model.expand import Env, document


def only_command(source):
    script = parse(source)
    (item,) = script.body
    (pipeline,) = item.command.pipelines
    (command,) = pipeline.commands
    return command


def lit_text(word):
    return "".join(p.text for p in word.parts)


# ---------------------------------------------------------------- structure


def test_list_and_or_pipeline():
    script = parse("a; b && c | d & e")
    items = script.body
    assert [i.background for i in items] == [False, True, False]
    assert items[1].command.ops == ("&&",)
    pipe = items[1].command.pipelines[1]
    assert len(pipe.commands) == 2 and pipe.stderr == (False,)


def test_negation_time_and_pipe_stderr():
    pipe = parse("time ! a |& b").body[0].command.pipelines[0]
    assert pipe.negated and pipe.timed and pipe.stderr == (True,)


def test_simple_command_parts():
    cmd = only_command('x=1 y="a b" cmd arg >out 2>&1 <in')
    assert [a.name for a in cmd.assignments] == ["x", "y"]
    assert [lit_text(w) for w in cmd.words] == ["cmd", "arg"]
    assert [(r.op, r.fd, lit_text(r.target)) for r in cmd.redirects] == [
        (">", None, "out"), (">&", "2", "1"), ("<", None, "in")]


def test_assignment_forms():
    cmd = only_command("a+=x b[2]=y c=(1 'two' 3) d=")
    a, b, c, d = cmd.assignments
    assert a.append and lit_text(a.value) == "x"
    assert b.index == "2"
    assert len(c.array) == 3 and isinstance(c.array[1].parts[0], S.SingleQuoted)
    assert d.value.parts == ()


def test_assignment_after_command_name_is_a_word():
    cmd = only_command("echo x=1")
    assert cmd.assignments == () and len(cmd.words) == 2


def test_word_parts():
    cmd = only_command("""echo a\\ b 'c' $'d\\ne' "f $g ${h:-i} $(j) `k`" $((1+2)) <(l)""")
    words = cmd.words
    assert [type(p) for p in words[1].parts] == [S.Lit, S.Escaped, S.Lit]
    assert words[2].parts[0].text == "c"
    assert words[3].parts[0].text == "d\ne"
    dq = words[4].parts[0]
    assert isinstance(dq, S.DoubleQuoted)
    kinds = [type(p).__name__ for p in dq.parts]
    assert kinds == ["Lit", "Param", "Lit", "Param", "Lit", "CmdSub", "Lit", "CmdSub"]
    assert dq.parts[3].op == ":-" and lit_text(dq.parts[3].arg) == "i"
    assert dq.parts[7].backtick
    assert isinstance(words[5].parts[0], S.Arith)
    assert isinstance(words[6].parts[0], S.ProcSub) and words[6].parts[0].direction == "<"


@pytest.mark.parametrize("text, name, op, arg, arg2", [
    ("${x}", "x", None, None, None),
    ("${x:-a}", "x", ":-", "a", None),
    ("${x#*/}", "x", "#", "*/", None),
    ("${x%%.*}", "x", "%%", ".*", None),
    ("${x//a/b}", "x", "//", "a", "b"),
    ("${x/#a/b}", "x", "/#", "a", "b"),
    ("${x:1:2}", "x", ":", "1", "2"),
    ("${x^^}", "x", "^^", "", None),
    ("${1:+set}", "1", ":+", "set", None),
    ("${@:2}", "@", ":", "2", None),
])
def test_param_operators(text, name, op, arg, arg2):
    (part,) = only_command("echo " + text).words[1].parts
    assert (part.name, part.op) == (name, op)
    assert (lit_text(part.arg) if part.arg is not None else None) == arg
    assert (lit_text(part.arg2) if part.arg2 is not None else None) == arg2


def test_param_length_indirect_index_transform():
    words = only_command("echo ${#x} ${!y} ${a[@]} ${#a[*]} ${x@Q} ${!p*}").words
    length, indirect, elements, count, quoted, names = (w.parts[0] for w in words[1:])
    assert length.length and length.name == "x"
    assert indirect.indirect and indirect.name == "y"
    assert elements.index == "@"
    assert count.length and count.index == "*"
    assert quoted.op == "@Q"
    assert names.op == "names*" and names.name == "p"


def test_command_substitution_is_parsed():
    (part,) = only_command("echo $(a | b; c)").words[1].parts
    assert len(part.script.body) == 2


def test_backtick_body_reparsed_after_unescaping():
    (part,) = only_command("echo `echo \\`echo inner\\``").words[1].parts
    inner = part.script.body[0].command.pipelines[0].commands[0]
    (nested,) = inner.words[1].parts
    assert isinstance(nested, S.CmdSub) and nested.backtick


def test_compound_commands():
    script = parse("if a; then b; elif c; then d; else e; fi\n"
                   "while a; do b; done\nuntil a; do b; done\n"
                   "for i in 1 2; do echo $i; done\nfor i; do :; done\n"
                   "for ((i=0; i<3; i++)); do :; done\nselect s in a b; do break; done\n"
                   "case $x in a|b) x;; (c) y;& *) z;;& esac\n"
                   "{ a; }\n( b )\n[[ -n $x && $y == z* ]]\n(( x += 2 ))\n"
                   "f() { :; }\nfunction g { :; }\n")
    kinds = [type(item.command.pipelines[0].commands[0]).__name__ for item in script.body]
    assert kinds == ["If", "While", "While", "For", "For", "ArithFor", "For", "Case", "Group",
                     "Subshell", "Cond", "ArithCommand", "FunctionDef", "FunctionDef"]
    if_node = script.body[0].command.pipelines[0].commands[0]
    assert len(if_node.clauses) == 2 and if_node.else_body
    for_all = script.body[4].command.pipelines[0].commands[0]
    assert for_all.items is None
    case = script.body[7].command.pipelines[0].commands[0]
    assert [a.terminator for a in case.arms] == [";;", ";&", ";;&"]
    assert len(case.arms[0].patterns) == 2


def test_heredoc_unquoted_body_has_parts():
    cmd = only_command("cat <<EOF\nhi $x\nEOF\n")
    (redirect,) = cmd.redirects
    doc = redirect.heredoc
    assert doc.delimiter == "EOF" and not doc.quoted and doc.terminated
    assert [type(p).__name__ for p in doc.parts] == ["Lit", "Param", "Lit"]


def test_heredoc_quoted_body_is_raw_and_tabs_stripped():
    cmd = only_command("cat <<-'E'\"O\"F\n\tkeep $x\n\tEOF\n")
    doc = cmd.redirects[0].heredoc
    assert doc.quoted and doc.delimiter == "EOF" and doc.raw == "keep $x\n"


def test_two_heredocs_on_one_line():
    script = parse("cat <<A; cat <<B\na\nA\nb\nB\necho after\n")
    first, second, third = script.body
    body = lambda item: item.command.pipelines[0].commands[0].redirects[0].heredoc  # noqa: E731
    assert body(first).parts[0].text == "a\n" and body(second).parts[0].text == "b\n"
    assert len(script.chunks) == 2


def test_chunks_follow_lines():
    script = parse("a; b\nc &&\n d\n\ne")
    assert [(c.first_line, c.last_line, len(c.items)) for c in script.chunks] == [
        (1, 1, 2), (2, 3, 1), (5, 5, 1)]


def test_comment_only_at_word_start():
    cmd = only_command("echo a#b #c")
    assert [lit_text(w) for w in cmd.words] == ["echo", "a#b"]


def test_line_continuation_joins_words():
    cmd = only_command("ec\\\nho a \\\n b")
    assert [lit_text(w) for w in cmd.words] == ["echo", "a", "b"]


def test_parse_rejects_bytes_clearly():
    with pytest.raises(TypeError):
        parse(b"echo")


# ---------------------------------------------------------------- errors vs bash

ERRORS = [
    "echo hi; fi", "echo hi\nfi", "echo hi; (\necho there", "if true\n", "echo >", "echo >\necho",
    "( )", "a && ", "x\n\n(", "case a in", "f() echo", "{ }", "a | ;", "&& b", "a ;; b",
    "while; do :; done", "if true; then fi", "for x in a b; do", "echo )", "a\n|b", "then",
    "echo 'x", 'echo "a\nb', "echo $(", "x=(a b", "echo ${x",
    "cat <<EOF; fi\nbody\nEOF\n", "case x in a) ;; b", "done", "a &; b", "echo a\n}", "coproc",
    # inside a `$(` that never closes, bash meets the body's own error first
    'E$(||"', "E$(a; ||", "a\nE$(echo $(||", "x=$(;", '"$(||', "E$( ) ||", "echo '$(||' \"",
    "x $($(&&}$(;", 'E$(a) $(||"',  # in reading order: the outer body first, a closed one skipped
    'a #\\\n"`"', 'a \\\nb #\\\n"`"',  # a comment keeps its backslash-newline in a failing script
    # a `(` after a word is unexpected even when the lexer never sees it closed
    'echo a(b "', "a b(\n", "a b(x", 'x=(a "', 'f( "', 'a; (b "', 'f() { "',
    'a\\\nb\nE$(||"', 'a \\\nb(x "',  # the same after a line continuation
    # compound assignments only after the bare name of a declaration builtin, eval or let
    '"declare" a=(1)', "\\declare a=(1)", "builtin declare a=(1)", "command declare a=(1)",
    "echo declare a=(1)", "declare a=(1) (", "declare a=(1)(2)", "let a=(1", "declare -a a=(1 2",
    "echo a=(1)", "exec declare a=(1)", "enable a=(1)", "for x in declare a=(1); do :; done",
    # a redirection, or a word opening with a process substitution, ends the state in which
    # bash reads them; after an assignment word it also ends command position
    "eval a=(1 2) >/dev/null declare v0=()", "eval >/dev/null a=(1)", "declare >/dev/null a=(1)",
    "declare a=(1) >f b=(2)", "declare a=(1) >&2 b=(2)", "local a=(1) 3<&0 b=(1)",
    "declare a=(1) &>f b=(2)", "declare a=(1) <<<x b=(2)", "declare a=(1) <<E b=(2)\nx\nE",
    "declare a=(1) >(cat) b=(2)", "declare a=(1) <(cat) b=(2)", "let a=(1) >f b=(2)",
    "eval a=(1)>f b=(2)", "declare a=(1) \\\n>f b=(2)", "x=1 >/dev/null declare a=(1)",
    "a=(1) >/dev/null declare b=(2)", "a=(1) >f b=(2) cmd", ">f a=(1) >f b=(2) cmd",
    "x=1 2>f y=(1) cmd", "x=1 {fd}>f declare a=(1)", "echo $(x=1 >f declare a=(1))",
    "f() { x=1 >&2 local a=(1); }", "case x in y) x=1 >f declare b=(2);; esac",
    # coproc's first word keeps command position for the next word, not past a redirection
    "coproc x >f y=(1)", "coproc declare >f a=(1)", "coproc echo x a=(1)", 'coproc "declare" -r a=(1)',
    # the elements of that next word's array are read where reserved words are due
    "coproc declare v0=(in)", "coproc declare v0=(!)", "coproc declare v0=(a if)", "coproc x v0=(fi) cmd",
    "coproc x v0=(\nfi)", "coproc x v0=(# c\nfi)", "coproc x v0=(select)", "coproc >(x) v0=(fi)",
    'coproc "x" v0=(fi)', "coproc export v0=(1 esac)", "coproc declare v0=(})",
    # a reserved word is due after done/fi/}/]]/)), not after an ordinary word
    "{ echo; } }", "(echo) }", "f() { :; } }", "{ echo done }", "if :; then :; fi foo fi",
    "for a in 1; do :; done done",
    # after `|`, `time` is an ordinary word (bash's time_command_acceptable), but not after two newlines
    "x |\n\ntime y", "x | time declare a=(1)", "x | time if :; then :; fi", "x | time { :; }",
    # a bare `!` or `time` is ended by a newline or `;` only
    "! &", "!&", "time &", "time -p &", "time ! &", "a; ! &b",
    # an unquoted test operator in [[ ]] takes the next word, whatever it is
    "echo $[ $( ] )", 'echo $[ "a ]', "echo $[ $(( 1 ]",  # $[ is matched by its brackets
    # an unexpected redirection names its descriptor as bash's token does (a number that fits
    # an int, printed back), and `{name}` by the text before the operator's first character
    "f() 2>x", "f() 02>x", "f() 0010<x", "f() 2147483647>x", "f() 2147483648>x", "function f 2>&1",
    "f() 2<<EOF", "f() {a}>x", "f() {ab}<&-", "f(){a}>x", "f()\n {a}>x", "f() {a}<<EOF",
    # in a compound command the input leaves open, the unexpected token comes before the end
    "for x in a; echo", "for x in a; 2>x", "select x in a; >x", "for x in a\n{a}>x",
    "while a; do b; done; for x in a; echo",
    # a redirection where a case pattern is due; a number before it is bash's descriptor token
    "case a in b >x) ;; esac", "case a in b<<<x) ;; esac", "case a in b) ;; c >x) ;; esac",
    "case a in 2>x) ;; esac", "case a in 02>x) ;; esac", "case a in (2>x) ;; esac",
    "case a in b|2>x) ;; esac", "case a in b 02>x) ;; esac", "case a in 99999999999>x) ;; esac",
    # after a function's name or `()`, bash reads a word where a command starts: `name[` and
    # `name=(` open pairs, whose end it looks for before the parser rejects the word
    "function f esac[[ x == ", "function f a[", "f() a[", "function f() a[", "f()\na[", "f() x=(1",
    "function f x=(1", "f() a\"x",
    # a quote left open inside a subscript is what bash looks for at the end, not the `]`
    "a; source[['", "x['", 'x[a"b', "x[`", "x[\n'", "x[[]'",
    "[[ -f ]]", "[[ -f && -n x ]]", "[[ x || -z ]]", "[[ ! -e ]]", "[[ ( -f ) ]]",
    # bash's [[ ]] grammar, token by token: the first token it cannot take, wherever it stands
    "[[ a ) ]]", "[[ a ; ]]", "[[ ( ]]", "[[ ( ) ]]", "[[ a\n== b ]]", "[[ ; a ]]", "[[ a < ]]",
    "[[ a\nx", "[[ a == b\nc ]]", "[[ ( a b ) ]]", "[[ ! ( ]]",
    "[[ -n == x ]]", "[[ -f != +(x) ]]", "[[ a b c d ]]", "[[ a == b c ]]", "[[ -n x y ]]", "[[ a == b ( ) ]]", "[[ a ( ]]", "[[ -n x ( ]]", "[[ ) x == a* ]]", "[[ ( x == a* ]]", "[[ ( ( x ) ]]",
]


def bash_syntax_error(source, cwd):
    outcome = bashref.run(source, cwd=cwd, flags=["-n"])
    lines = [line for line in outcome.error.splitlines() if "warning" not in line]
    assert lines, f"bash accepted {source!r}"
    match = re.match(r"\S*bash: -c: line (\d+): (.*)", lines[0])
    assert match, lines[0]
    return int(match.group(1)), match.group(2)


@pytest.mark.bash
@pytest.mark.parametrize("source", ERRORS)
def test_syntax_error_matches_bash(source, tmp_path):
    line, message = bash_syntax_error(source, str(tmp_path))
    with pytest.raises(ShellSyntaxError) as info:
        parse(source)
    assert (info.value.line, info.value.message) == (line, message)


ACCEPTED = [
    "", "# only a comment\n", "echo a#b", "a &\nb", "a && \n\n b", "a |\n b", "{ a; }", "! a",
    "x=1", ">out", "case x in esac", "case x in (a) ;; esac", "for i do :; done",
    "for i in; do :; done", "f() ( a )", "a;", "[[ a ]]", "echo ]] }", "time", "if a; then :; fi >o",
    "echo $'\\''", "echo \"`echo \\\"x\\\"`\"", "for ((;;)); do break; done", "echo {a,b}",
    "a=(\n1\n2\n)", "cat <<EOF\nnever ends",
    # compound assignments as arguments of declaration builtins, eval and let
    "declare -a a=(1 2)", "local x=(a b)", "export A=(1)", "readonly r=(1 2)", "typeset -A m=([k]=v)",
    "declare a=()", "declare -- a=(1 2) b=(\n3 # c\n4)", "x=1 declare a=(1)", ">f declare a=(1)",
    "declare a+=([0]+=x) b=(1)x", "let i=(3+4) j=(1)+2", "eval a=(1 2)", "alias q=(1)",
    "eval a=(1 2) >/dev/null", "eval a=(1 2) declare v0=()", "eval x a=(1)", "declare -a x a=(1)",
    "f(){ local a=(1); }", "declare -- a=(1)", ">/dev/null 2>&1 declare a=(1)", "2>f declare a=(1)",
    "{fd}>f declare a=(1)", "<<E declare a=(1)\nx\nE", ">f x=(1) cmd", ">f >g x=(1) cmd",
    "2>f x=(1) cmd", "a=(1) b=(2) cmd", "x=(1) declare a=(1)", "declare a=(1) x b=(2)",
    "declare a=(1) >f", "declare -a a=() b=([0]=1) >f", "declare a=(1) x>(cat) b=(2)",
    'declare a=(1) "<(" b=(2)', "declare a=(1) $(>f) b=(2)", "declare a=(1) `>f` b=(2)",
    "declare a=(1) ${x:->f} b=(2)", "declare a=(1) $((1>2)) b=(2)", "declare declare a=(1)",
    "time >f declare a=(1)", "time -p declare a=(1)", "! >f declare a=(1)", "{ >f declare a=(1); }",
    "declare a=(1) | >f declare b=(2)", ">f\ndeclare a=(1)", "f() { >&2 local a=(1); }",
    "x=1 >f y=2 cmd", "coproc declare a=(1)", "coproc declare -r a=(1)", "coproc declare x a=(1)",
    "coproc echo a=(1) b=(2)", "coproc >(cat) c=(3)y b=()", 'coproc "x" y=(1)', "coproc x y=(1) cmd",
    "coproc x=(1) cmd", "coproc x=1 y=(2) z=(1)", "coproc let a=(1) x b=(2)", "coproc >f declare a=(1)",
    # `time` right after `|`, `|&` (or one newline past them) or `coproc` is an ordinary word
    "x | time y", "x |& time y", "x |\ntime y", "x | # c\ntime y", "x | time -p y", "x | time",
    "x | time ! y", "x | time | y", "x | time & y", "x | time >f", "x | time time y", "coproc time y",
    "x | { time y; }", "x | while :; do time y; done",
    "coproc declare v0=(time)", "coproc declare -r v0=(fi)", 'coproc x v0=("fi")', "coproc x v0=(fi=1)",
    "coproc x v0=([1]=fi)", "coproc x v0=(x) w=(fi)", "coproc x=(fi)", "x=(fi) y=(esac)", "declare a=(fi)", "coproc x y=(1) z=(fi)",
    # a closing reserved word right after a compound command
    'f() { for a in "$@"; do echo "$a"; done }', "f() { if true; then :; fi }",
    "f() { case x in x) :;; esac }", "{ (echo) }", "{ [[ x ]] }", "{ ((1)) }", "{ { :; } }",
    "if (true) then :; fi", "if [[ x ]] then :; fi", "if :; then if :; then :; fi fi",
    "case x in x) for a in 1; do :; done esac", "while ((1)) do :; done",
    "echo $[ ${ ]", "echo $[ ${x:-]} ]", "echo $[ ( 1 ]", "echo $[ [ ] ] $[ `echo ]` ]",
    # extended globs in [[ ]]
    "[[ x == !(foo) ]]", "[[ x == @(a|b) ]]", "[[ x == +(a) ]]", "[[ x == *(a) ]]", "[[ x == ?(a) ]]",
    "[[ !(a) ]]", "[[ ! (a) ]]", "[[ a == !(b) && c != @(d|e)x ]]", "[[ '-n' == x ]]", "[[ -q == x ]]", "cat <<EOF\n$(c()) $(|)\nEOF\n", "echo \\\n", "arr[1]=x", "! ;", "x+=(a)", "echo ${#}",
    "!", "! \n", "time ;", "time ! ;",
]


@pytest.mark.bash
@pytest.mark.parametrize("source", ACCEPTED)
def test_accepts_what_bash_accepts(source, tmp_path):
    outcome = bashref.run(source, cwd=str(tmp_path), flags=["-n"])
    assert "syntax error" not in outcome.error and "unexpected EOF" not in outcome.error
    parse(source)


# ---------------------------------------------------------------- line by line

PARTIAL = [
    "echo 1\necho 2; fi\necho 3",
    "echo 1\necho 2\n(\necho 3",
    "echo 1; (\necho 2",
    "echo 1\necho 2 'unterminated\necho 3",
    "echo 1 &&\necho 2\necho 3 )",
    "echo 1\ncat <<EOF\nbody\nEOF\necho 2\ndone",
    "echo 1\nif true; then\necho 2\nfi\nesac",
    "echo 1\necho 2 \\\necho 3 'unterminated",
]


@pytest.mark.bash
@pytest.mark.parametrize("source", PARTIAL)
def test_lines_before_a_syntax_error_ran(source, tmp_path):
    script = parse_prefix(source)
    assert script.error is not None
    outcome = bashref.run(source, cwd=str(tmp_path))
    ran = [line for line in outcome.text.splitlines() if line.isdigit()]
    predicted = []
    for chunk in script.chunks:
        text = script.source.encode()[chunk.start:chunk.end].decode()
        predicted.extend(tok for tok in text.split() if tok.isdigit())
    assert predicted == ran
    bash_line = int(re.search(r"-c: line (\d+):", outcome.error).group(1))
    assert script.error.line == bash_line


@pytest.mark.bash
def test_ansi_c_heredoc_delimiter_is_decoded(tmp_path):
    source = "cat <<$'E\\x41'\nbody\nEA\n"
    assert bashref.run(source, cwd=str(tmp_path)).text == "body\n"
    assert only_command(source).redirects[0].heredoc.delimiter == "EA"


def test_lines_that_ran_before_a_long_unterminated_tail():
    # bash ran the three complete chunks; the open `if` swallows the rest
    source = "echo 1\nif true; then\necho 2\nfi\necho 3\nif x; then\n" + "echo y\n" * 3000
    script = parse_prefix(source)
    assert len(script.chunks) == 3 and script.error.message == "syntax error: unexpected end of file"
    assert script.parsed_until == len("echo 1\nif true; then\necho 2\nfi\necho 3\n")


# ---------------------------------------------------------------- line continuations

# bash removes backslash-newline while it reads, before any token forms; not
# inside single quotes, $'…', comments or quoted here-document bodies
JOINED = [
    "E=1; EF=2; echo $E\\\nF",
    "x=1; echo $\\\nx ${\\\nx} \"$\\\nx\"",
    "true &\\\n& echo and; false |\\\n| echo or",
    "i\\\nf true; then echo if; f\\\ni",
    "[\\\n[ a == a ]] && echo cond",
    "echo `echo a\\\nb` `echo 'c\\\nd'` `echo e\\\\\\\nf`",
    "echo 'a\\\nb' $'c\\\nd' \"e\\\nf\"",
    "# a comment \\\necho after the comment",
    "cat <<'E'\nq\\\nr\nE\ncat <<E\ns\\\nt\nE\n",
    "echo $((1+\\\n2)) $(echo g\\\nh)",
    "echo a\\\n\\\nb",
    "echo ${x:-'a\\\nb'} \"${x:-'c\\\nd'}\" \"$(echo 'e\\\nf')\" \"${x:-$'g\\\nh'}\" ${x:-$'i\\\nj'}",
    "echo \"$((1 + ${x:-'2\\\n'}3))\" \"${x:-\"$(echo 'k\\\nl')\"}\"",
]


@pytest.mark.bash
def test_line_continuations_are_removed_as_bash_reads(tmp_path):
    assert bashref.stdout_disagreements(JOINED, cwd=str(tmp_path)) == []
    for source in JOINED:
        parse(source)


@pytest.mark.bash
def test_removed_newlines_still_count_as_lines(tmp_path):
    source = "echo a\\\n\\\nb; echo $LINENO\necho $LINENO"
    result = evaluate(parse(source), Env.default(str(tmp_path)))
    assert result.stdout == bashref.run(source, cwd=str(tmp_path)).text


@pytest.mark.bash
@pytest.mark.parametrize("source", [
    "echo hi; fi\\\n; echo there",
    "echo a\\\n\\\nb; )",
    "echo 1\necho 2 \\\n; fi\\\n\\\n\necho 3",
])
def test_line_continuation_before_a_syntax_error(source, tmp_path):
    # the joined line runs as one: nothing of it ran; bash names the line it read up to
    script = parse_prefix(source)
    outcome = bashref.run(source, cwd=str(tmp_path))
    ran = [line for line in outcome.text.splitlines() if line.isdigit() or line == "hi"]
    predicted = []
    for chunk in script.chunks:
        text = script.source.encode()[chunk.start:chunk.end].decode()
        predicted.extend(tok for tok in text.split() if tok.isdigit() or tok == "hi")
    assert predicted == ran
    assert script.error.line == int(re.search(r"-c: line (\d+):", outcome.error).group(1))


@pytest.mark.bash
@pytest.mark.parametrize("source", [
    "cat <<EOF\n(\nEOF\n`",
    "cat <<A <<-B\nbody 2\nA\n\tbody 3\nB\ncat <<C\n4\nC\necho 'unterminated",
    "cat <<EOF\nx $(echo 5)\nEOF\n(",
])
def test_here_documents_of_the_lines_that_ran_keep_their_bodies(source, tmp_path):
    # the line that ran ends after its here-document bodies, not at its own newline
    script = parse_prefix(source)
    assert script.error is not None
    env = static(Env.default(str(tmp_path)))
    # each command is a cat, which reads the last here-document of its command
    commands = [item.command.pipelines[0].commands[0] for chunk in script.chunks for item in chunk.items]
    printed = "".join(document(c.redirects[-1].heredoc, env).value for c in commands if c.redirects)
    assert printed == bashref.run(source, cwd=str(tmp_path)).text


@pytest.mark.bash
@pytest.mark.parametrize("source", [
    "echo \"a\nb\" $LINENO", "echo \"$LINENO\nb\"", "echo $LINENO \\\n\"a\nb\"", "echo a\\\n$LINENO",
    "e\\\ncho $LINENO", "echo \\\n\\\n$LINENO", "echo $LINENO >\\\nf", "echo $LINENO <<E\nx\nE\n",
    "echo $LINENO; echo\\\n $LINENO", "x=1 \\\ny=$LINENO; echo $y", "echo $LINENO\\\n; echo $LINENO",
    ">&2 \\\n echo $LINENO 2>&1", "x=\"a\nb\" echo $LINENO", "x=1 y=\"\n\" echo $LINENO",
    ">&2 echo \"\n\" $LINENO 2>&1", "x=1 \\\n\\\necho $LINENO",
])
def test_lineno_is_where_bash_had_read_to(source, tmp_path):
    # bash numbers a simple command once it has read the token after its first element
    result = evaluate(parse(source), Env.default(str(tmp_path)))
    assert result.stdout == bashref.run(source, cwd=str(tmp_path)).text


# ---------------------------------------------------------------- generated scripts

from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import shellgrammar  # noqa: E402
from test_lex_differential import SCALE  # noqa: E402


@pytest.mark.bash
@settings(max_examples=200 * SCALE, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(st.randoms(use_true_random=False))
def test_generated_scripts_parse_as_bash_n_says(rng):
    # declaration builtins with compound assignments, function bodies ending in a
    # compound command, `let` with parentheses, extended globs in [[ ]], and
    # mutations of them: the parser accepts exactly what bash -n accepts
    source = shellgrammar.script(rng)
    assume(not shellgrammar.EMPTY_TEST.search(source))
    assert shellgrammar.parser_accepts(source) == shellgrammar.bash_accepts(source), source


def test_compound_argument_tree():
    command = only_command("declare -a a=(1 [k]=v) b=x c+=()")
    name, option, array, scalar, empty = command.words
    assert lit_text(name) == "declare" and lit_text(option) == "-a"
    assert isinstance(array, S.Assignment) and array.name == "a"
    assert [lit_text(w) for w in array.array] == ["1", "[k]=v"]
    assert isinstance(scalar, S.Word) and lit_text(scalar) == "b=x"
    assert isinstance(empty, S.Assignment) and empty.append and empty.array == ()


@pytest.mark.bash
def test_assignment_after_a_redirection_is_still_an_assignment(tmp_path):
    # past `x=1 >f` bash no longer reads `y=(`, yet `y=2` still assigns
    command = only_command("x=1 >f y=2 printenv y")
    assert [a.name for a in command.assignments] == ["x", "y"]
    assert [lit_text(w) for w in command.words] == ["printenv", "y"]
    bashref.run("x=1 >f y=2 printenv y", cwd=str(tmp_path))
    assert (tmp_path / "f").read_text() == "2\n"


def test_coproc_declaration_arguments_tree():
    coproc = parse("coproc declare -r a=(1 2)").body[0].command.pipelines[0].commands[0]
    assert isinstance(coproc, S.Coproc) and coproc.name is None
    name, option, array = coproc.command.words
    assert lit_text(name) == "declare" and lit_text(option) == "-r"
    assert isinstance(array, S.Assignment) and [lit_text(w) for w in array.array] == ["1", "2"]
    coproc = parse("coproc x=(1) cmd").body[0].command.pipelines[0].commands[0]
    (assignment,) = coproc.command.assignments
    assert coproc.name is None and [lit_text(w) for w in assignment.array] == ["1"]


def test_time_after_a_pipe_is_a_command_name():
    (item,) = parse("x | time -p y").body
    (pipeline,) = item.command.pipelines
    assert not pipeline.timed
    assert [lit_text(w) for w in pipeline.commands[1].words] == ["time", "-p", "y"]
    assert parse("x && time -p y").body[0].command.pipelines[1].timed


def test_compound_word_is_what_let_receives():
    command = only_command("let i=(3 + 4)x")
    (word,) = command.words[1:]
    assert isinstance(word, S.Assignment) and word.array is None
    assert lit_text(S.compound_word(word)) == "i=(3 + 4)x"
    command = only_command("let j=(1\n+2)")
    assert lit_text(S.compound_word(command.words[1])) == "j=(1 +2)"
