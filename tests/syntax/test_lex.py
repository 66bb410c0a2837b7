"""The token stream contract (docs/tokens.md), case by case, on both engines."""

import pytest

from qbcore.syntax import lexdef


def texts(lexer, source):
    data = source.encode() if isinstance(source, str) else source
    return [(kind, data[start:end].decode("utf-8", "replace")) for kind, start, end in lexer.lex(source)]


CASES = {
    # words and quoting
    "plain words": ("echo a b", [("lit", "echo"), ("lit", "a"), ("lit", "b")]),
    "single quotes": ("echo 'a b'c", [("lit", "echo"), ("sq", "'a b'"), ("lit", "c")]),
    "ansi-c string keeps escaped quote": (r"echo $'a\'b'", [("lit", "echo"), ("ansi-sq", r"$'a\'b'")]),
    "double quotes": ('echo "a $x b"', [("lit", "echo"), ("dq-open", '"'), ("dq-lit", "a "), ("var", "$x"),
                                       ("dq-lit", " b"), ("dq-close", '"')]),
    "locale string": ('echo $"hi"', [("lit", "echo"), ("locale-open", '$"'), ("dq-lit", "hi"), ("dq-close", '"')]),
    "dq escapes only before $ ` \" \\": (r'echo "\$\a\\"', [("lit", "echo"), ("dq-open", '"'), ("dq-escape", r"\$"),
                                                           ("dq-lit", r"\a"), ("dq-escape", "\\\\"), ("dq-close", '"')]),
    "dollar-quote is literal inside double quotes": ("echo \"$'x'\"", [("lit", "echo"), ("dq-open", '"'), ("dq-lit", "$'x'"),
                                                                      ("dq-close", '"')]),
    "unquoted escape": (r"echo a\ b", [("lit", "echo"), ("lit", "a"), ("escape", r"\ "), ("lit", "b")]),
    "escape takes a whole utf-8 character": ("echo \\é", [("lit", "echo"), ("escape", "\\é")]),
    "lone dollar is literal": ("echo $ a$", [("lit", "echo"), ("lit", "$"), ("lit", "a$")]),
    "special parameters": ("echo $@ $# $? $10", [("lit", "echo"), ("var", "$@"), ("var", "$#"), ("var", "$?"),
                                                 ("var", "$1"), ("lit", "0")]),
    "hash inside a word is not a comment": ("echo a#b #c", [("lit", "echo"), ("lit", "a#b"), ("comment", "#c")]),
    "line continuation": ("echo a\\\nb", [("lit", "echo"), ("lit", "a"), ("line-cont", "\\\n"), ("lit", "b")]),
    # expansions
    "parameter expansion with nested quotes": ('echo ${x:-"a}"}', [("lit", "echo"), ("param-open", "${"), ("param-lit", "x:-"),
                                                                   ("dq-open", '"'), ("dq-lit", "a}"), ("dq-close", '"'),
                                                                   ("param-close", "}")]),
    "bare braces do not nest inside ${}": ("echo ${x:-{a}b}", [("lit", "echo"), ("param-open", "${"), ("param-lit", "x:-{a"),
                                                              ("param-close", "}"), ("lit", "b}")]),
    "subscript before the command name is one word": ("a[x y] b", [("lit", "a[x y]"), ("lit", "b")]),
    "command substitution": ("echo $(ls -l)", [("lit", "echo"), ("cmdsub-open", "$("), ("lit", "ls"), ("lit", "-l"),
                                                ("cmdsub-close", ")")]),
    "backticks kept raw": (r"echo `echo \`a\``", [("lit", "echo"), ("backtick-open", "`"), ("backtick-body", r"echo \`a\`"),
                                                   ("backtick-close", "`")]),
    "empty backticks": ("echo ``", [("lit", "echo"), ("backtick-open", "`"), ("backtick-close", "`")]),
    "arithmetic": ("echo $(( (1+2)*3 ))", [("lit", "echo"), ("arith-open", "$(("), ("arith-lit", " (1+2)*3 "),
                                           ("arith-close", "))")]),
    "arithmetic closing right after a paren": ("echo $(( (1+2)))", [("lit", "echo"), ("arith-open", "$(("),
                                                                    ("arith-lit", " (1+2)"), ("arith-close", "))")]),
    "old arithmetic": ("echo $[1+a[2]]", [("lit", "echo"), ("arith-open", "$["), ("arith-lit", "1+a[2]"),
                                          ("arith-close", "]")]),
    "$(( that is a subshell in a substitution": ("echo $((echo a) )", [("lit", "echo"), ("cmdsub-open", "$("), ("(", "("),
                                                                        ("lit", "echo"), ("lit", "a"), (")", ")"),
                                                                        ("cmdsub-close", ")")]),
    "process substitution": ("diff <(a) >(b)", [("lit", "diff"), ("procsub-open", "<("), ("lit", "a"), ("procsub-close", ")"),
                                                ("procsub-open", ">("), ("lit", "b"), ("procsub-close", ")")]),
    # operators and redirections
    "control operators": ("a && b || c | d |& e; f & g", [
        ("lit", "a"), ("op", "&&"), ("lit", "b"), ("op", "||"), ("lit", "c"), ("op", "|"), ("lit", "d"), ("op", "|&"),
        ("lit", "e"), ("op", ";"), ("lit", "f"), ("op", "&"), ("lit", "g")]),
    "redirections with fd prefixes": ("cmd 2>&1 >|f &>>g {fd}<h 10<>i <<<w", [
        ("lit", "cmd"), ("redir", "2>&"), ("lit", "1"), ("redir", ">|"), ("lit", "f"), ("redir", "&>>"), ("lit", "g"),
        ("redir", "{fd}<"), ("lit", "h"), ("redir", "10<>"), ("lit", "i"), ("redir", "<<<"), ("lit", "w")]),
    "digits followed by a process substitution stay a word": ("echo 2>(ls)", [
        ("lit", "echo"), ("lit", "2"), ("procsub-open", ">("), ("lit", "ls"), ("procsub-close", ")")]),
    # reserved words and command state
    "reserved words only in command position": ("if true; then echo if; fi", [
        ("reserved", "if"), ("lit", "true"), ("op", ";"), ("reserved", "then"), ("lit", "echo"), ("lit", "if"),
        ("op", ";"), ("reserved", "fi")]),
    "no reserved word after an assignment": ("x=1 if", [("assign", "x="), ("lit", "1"), ("lit", "if")]),
    "brace group": ("{ echo; }", [("reserved", "{"), ("lit", "echo"), ("op", ";"), ("reserved", "}")]),
    "brace expansion is not a group": ("{a,b}", [("lit", "{a,b}")]),
    "function definition": ("f() { :; }", [("lit", "f"), ("(", "("), (")", ")"), ("reserved", "{"), ("lit", ":"),
                                           ("op", ";"), ("reserved", "}")]),
    "function keyword": ("function f { :; }", [("reserved", "function"), ("lit", "f"), ("reserved", "{"), ("lit", ":"),
                                               ("op", ";"), ("reserved", "}")]),
    "for loop": ("for i in a do; do echo; done", [
        ("reserved", "for"), ("lit", "i"), ("reserved", "in"), ("lit", "a"), ("lit", "do"), ("op", ";"),
        ("reserved", "do"), ("lit", "echo"), ("op", ";"), ("reserved", "done")]),
    "arithmetic for": ("for ((i=0;i<2;i++)); do :; done", [
        ("reserved", "for"), ("arith-cmd-open", "(("), ("arith-lit", "i=0;i<2;i++"), ("arith-cmd-close", "))"),
        ("op", ";"), ("reserved", "do"), ("lit", ":"), ("op", ";"), ("reserved", "done")]),
    "arithmetic command vs nested subshells": ("((x)); ( (y) )", [
        ("arith-cmd-open", "(("), ("arith-lit", "x"), ("arith-cmd-close", "))"), ("op", ";"), ("(", "("), ("(", "("),
        ("lit", "y"), (")", ")"), (")", ")")]),
    "(( that turns out to be subshells": ("((a); (b))", [
        ("(", "("), ("(", "("), ("lit", "a"), (")", ")"), ("op", ";"), ("(", "("), ("lit", "b"), (")", ")"), (")", ")")]),
    "case with an unbalanced ) inside $()": ("x=$(case $y in a|b) echo;; (c) :;; esac)", [
        ("assign", "x="), ("cmdsub-open", "$("), ("reserved", "case"), ("var", "$y"), ("reserved", "in"),
        ("lit", "a"), ("op", "|"), ("lit", "b"), (")", ")"), ("lit", "echo"), ("op", ";;"), ("(", "("),
        ("lit", "c"), (")", ")"), ("lit", ":"), ("op", ";;"), ("reserved", "esac"), ("cmdsub-close", ")")]),
    "esac ends the last clause without ;;": ("case x in a) echo; esac", [
        ("reserved", "case"), ("lit", "x"), ("reserved", "in"), ("lit", "a"), (")", ")"), ("lit", "echo"),
        ("op", ";"), ("reserved", "esac")]),
    "conditional expression": ("[[ -f a && ( $b < c ) || ! d ]]", [
        ("reserved", "[["), ("lit", "-f"), ("lit", "a"), ("cond-op", "&&"), ("cond-op", "("), ("var", "$b"),
        ("cond-op", "<"), ("lit", "c"), ("cond-op", ")"), ("cond-op", "||"), ("cond-op", "!"), ("lit", "d"),
        ("reserved", "]]")]),
    "regex with parens and bars": ("[[ a =~ ^(b|c d)$ ]]", [
        ("reserved", "[["), ("lit", "a"), ("lit", "=~"), ("lit", "^(b|c d)$"), ("reserved", "]]")]),
    "=~ where a term starts is a word": ("[[ =~ ]]", [("reserved", "[["), ("lit", "=~"), ("reserved", "]]")]),
    "=~ after a unary operator is its operand": ("[[ -z =~ (a) ]]", [
        ("reserved", "[["), ("lit", "-z"), ("lit", "=~"), ("cond-op", "("), ("lit", "a"), ("cond-op", ")"),
        ("reserved", "]]")]),
    "extglob group inside [[ ]]": ("[[ x == @(a|b) ]]", [
        ("reserved", "[["), ("lit", "x"), ("lit", "=="), ("lit", "@(a|b)"), ("reserved", "]]")]),
    "]] is an ordinary word outside [[": ("echo ]]", [("lit", "echo"), ("lit", "]]")]),
    # assignments
    "assignments before the command": ("a=1 b+=2 c[i+1]=3 cmd d=4", [
        ("assign", "a="), ("lit", "1"), ("assign", "b+="), ("lit", "2"), ("assign", "c[i+1]="), ("lit", "3"),
        ("lit", "cmd"), ("lit", "d=4")]),
    "array assignment": ("a=(1 'two' # c\n3)", [
        ("assign", "a="), ("(", "("), ("lit", "1"), ("sq", "'two'"), ("comment", "# c"), ("newline", "\n"),
        ("lit", "3"), (")", ")")]),
    "declaration builtins take assignments": ("export a=(x) b=2", [
        ("lit", "export"), ("assign", "a="), ("(", "("), ("lit", "x"), (")", ")"), ("assign", "b="), ("lit", "2")]),
    # here-documents
    "heredocs on one line": ("cat <<A <<-'B'\n$x\nA\n\tbody\n\tB\nnext", [
        ("lit", "cat"), ("heredoc-op", "<<"), ("lit", "A"), ("heredoc-op", "<<-"), ("sq", "'B'"), ("newline", "\n"),
        ("var", "$x"), ("doc-lit", "\n"), ("heredoc-end", "A"), ("newline", "\n"), ("heredoc-body", "\tbody\n"),
        ("heredoc-end", "\tB"), ("newline", "\n"), ("lit", "next")]),
    "unquoted heredoc escapes": ("cat <<E\n\\$a \\\"b\\\\\nE", [
        ("lit", "cat"), ("heredoc-op", "<<"), ("lit", "E"), ("newline", "\n"), ("doc-escape", "\\$"),
        ("doc-lit", 'a \\"b'), ("doc-escape", "\\\\"), ("doc-lit", "\n"), ("heredoc-end", "E")]),
    "heredoc inside a command substitution": ("x=$(cat <<E\nhi\nE\n)", [
        ("assign", "x="), ("cmdsub-open", "$("), ("lit", "cat"), ("heredoc-op", "<<"), ("lit", "E"),
        ("newline", "\n"), ("doc-lit", "hi\n"), ("heredoc-end", "E"), ("newline", "\n"), ("cmdsub-close", ")")]),
    "a line continuation in an unquoted body joins lines before the delimiter test": ("cat <<E\nE\\\n\nx", [
        ("lit", "cat"), ("heredoc-op", "<<"), ("lit", "E"), ("newline", "\n"), ("heredoc-end", "E\\\n"),
        ("newline", "\n"), ("lit", "x")]),
    "heredoc delimited by end of input": ("cat <<E\nhi", [
        ("lit", "cat"), ("heredoc-op", "<<"), ("lit", "E"), ("newline", "\n"), ("doc-lit", "hi")]),
    "the delimiter line wins over an open $(": ("cat <<E\n$(echo\nE\n", [
        ("lit", "cat"), ("heredoc-op", "<<"), ("lit", "E"), ("newline", "\n"), ("doc-lit", "$(echo\n"),
        ("heredoc-end", "E"), ("newline", "\n")]),
    "quoted part of the delimiter disables expansion": ('cat <<E"O"F\n$x\nEOF', [
        ("lit", "cat"), ("heredoc-op", "<<"), ("lit", "E"), ("dq-open", '"'), ("dq-lit", "O"), ("dq-close", '"'),
        ("lit", "F"), ("newline", "\n"), ("heredoc-body", "$x\n"), ("heredoc-end", "EOF")]),
    # bad input
    "empty input": ("", []),
    "carriage return belongs to the word": ("echo a\r\n", [("lit", "echo"), ("lit", "a\r"), ("newline", "\n")]),
    "NUL byte is a word byte": ("echo a\0b", [("lit", "echo"), ("lit", "a\0b")]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_token_stream(lexer, name):
    source, expected = CASES[name]
    assert texts(lexer, source) == expected


@pytest.mark.parametrize("name", list(CASES))
def test_spans_are_lossless(lexer, name):
    source = CASES[name][0]
    data = source.encode()
    position = 0
    for kind, start, end in lexer.lex(source):
        assert start >= position and end > start, (kind, start, end)
        assert data[position:start].strip(b" \t") == b"", data[position:start]
        position = end
    assert data[position:].strip(b" \t") == b""


def test_invalid_utf8_bytes_are_lexed_as_they_are(lexer):
    data = b"echo \xff\xfe 'a\x80'"
    assert [(k, data[s:e]) for k, s, e in lexer.lex(data)] == [
        ("lit", b"echo"), ("lit", b"\xff\xfe"), ("sq", b"'a\x80'")]


def test_surrogate_escaped_str_maps_back_to_its_bytes(lexer):
    text = b"echo \xff".decode("utf-8", "surrogateescape")
    assert list(lexer.lex(text)) == list(lexer.lex(b"echo \xff"))


def test_offsets_are_utf8_byte_offsets(lexer):
    assert list(lexer.lex("é x")) == [("lit", 0, 2), ("lit", 3, 4)]


def test_rejects_other_types(lexer):
    with pytest.raises(TypeError):
        lexer.lex(42)


def test_tokens_sequence_protocol(lexer):
    tokens = lexer.lex("echo 'a' $b")
    assert len(tokens) == 3
    assert tokens[0] == ("lit", 0, 4)
    assert tokens[-1] == ("var", 9, 11)
    assert list(tokens) == [("lit", 0, 4), ("sq", 5, 8), ("var", 9, 11)]
    assert tokens == [("lit", 0, 4), ("sq", 5, 8), ("var", 9, 11)]
    assert tokens != [("lit", 0, 4)]
    assert tokens == lexer.lex("echo 'a' $b")
    assert tokens[1:] == [("sq", 5, 8), ("var", 9, 11)]
    assert tokens[::-2] == [("var", 9, 11), ("lit", 0, 4)]
    with pytest.raises(IndexError):
        tokens[3]
    with pytest.raises(IndexError):
        tokens[-4]


def test_every_kind_is_documented():
    import pathlib
    doc = (pathlib.Path(__file__).parent.parent.parent / "docs" / "tokens.md").read_text()
    for kind in lexdef.KINDS:
        assert f"`{kind}`" in doc, kind
