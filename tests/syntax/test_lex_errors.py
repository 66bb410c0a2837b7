"""Unterminated and malformed input: the lexer's error matches bash's wording and line.

Each case runs `bash -n -c SOURCE` once and compares bash's first complaint
(line number and message) with the ShellSyntaxError both engines raise.
"""

import re
import subprocess

import pytest

from qbcore import ShellSyntaxError

pytestmark = pytest.mark.bash

ERRORS = [
    'echo "abc',
    'echo "a\n\nb',
    'echo a\n\necho "b\nc',
    "echo 'abc",
    "x\necho 'a\n\n",
    "echo $'abc\\'",
    'echo $"abc',
    "echo `ls",
    "x\necho `ls\n\n",
    'echo "`ls',
    "echo ${x",
    "x\necho ${x\n\n",
    'echo "${x',
    "echo ${x:-'}",
    "echo $(ls",
    "x\necho $(ls\n\n",
    "x\necho $(ls",
    'x\necho "$(ls\n\n',
    "x\necho $(echo \"a\n\n",
    "x\ncat <(ls\n\n",
    "x\necho ${x:-$(ls\n\n",
    "echo $((1+2",
    "x\necho $((1\n\n",
    "((1+2",
    "x\nfor ((i=0\n\n",
    "echo $[1+2",
    "x\na=(1\n\n",
    "[[ a == b",
    "echo $(( ' ))",
    'echo $(( " ))',
    "if true",
    "(echo a",
    "case x in\na) echo;;",
    "while true; do echo",
    "{ echo",
    "fi",
    "echo a; done",
    ";;",
    "echo )",
    "echo $(if true)",
    "echo $(case x in a) echo )",
    "cat <<",
    "cat << ;",
    "echo >",
    "x=$(cat <<E\n$(\nE\n",
]

BASH_LINE = re.compile(r"^bash: (?:-c: )?line (\d+): (.*)$")


def bash_complaint(source):
    proc = subprocess.run(["bash", "-n", "-c", "--", source], capture_output=True, text=True, timeout=10)
    for text in proc.stderr.splitlines():
        match = BASH_LINE.match(text)
        if match and "warning:" not in match.group(2):
            return int(match.group(1)), match.group(2)
    return None


@pytest.mark.parametrize("source", ERRORS)
def test_error_matches_bash(lexer, source):
    expected = bash_complaint(source)
    assert expected is not None, f"bash accepts {source!r}"
    with pytest.raises(ShellSyntaxError) as info:
        lexer.lex(source)
    error = info.value
    assert (error.line, error.message) == expected


def test_error_position_of_an_unterminated_quote(lexer):
    with pytest.raises(ShellSyntaxError) as info:
        lexer.lex('x\necho "abc')
    assert (info.value.offset, info.value.line, info.value.column) == (7, 2, 6)
    assert isinstance(info.value, ValueError)


def test_error_at_end_of_input_for_command_substitution(lexer):
    with pytest.raises(ShellSyntaxError) as info:
        lexer.lex("echo $(ls")
    # bash -c reads a final newline, so it names the line after the last one
    assert (info.value.offset, info.value.line, info.value.column) == (9, 2, 1)


def test_heredoc_without_delimiter_line_is_accepted(lexer):
    # bash only warns: "here-document at line 1 delimited by end-of-file"
    assert bash_complaint("cat <<EOF\nabc") is None
    assert [kind for kind, _, _ in lexer.lex("cat <<EOF\nabc")][-1] == "doc-lit"
