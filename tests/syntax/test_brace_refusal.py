"""Words whose brace expansion bash refuses: the parser marks them (S.BraceRefusedWord).

bash checks what that does in tests/model/test_evaluate_quirks.py; here, which words
the parser marks, and that marking stays cheap on hostile input.
"""

import pytest

from qbcore.syntax import parser as S


def words_of(source):
    script = S.parse(source)
    return script.chunks[0].items[0].command.pipelines[0].commands[0].words


@pytest.mark.parametrize("word, refusal", [
    ('"`$(${`"', "unexpected EOF while looking for matching ``'"),
    ('"`$(${`"x', "unexpected EOF while looking for matching ``'"),  # more after it changes nothing
    ('{"`$(x`"', "unexpected EOF while looking for matching ``'"),
    ("\"${x#'$(a'}\"", "unexpected EOF while looking for matching `''"),
    ('"`$((`"{', None),  # matched by its text in bash: not followed
])
def test_refused_words(word, refusal):
    (_, found) = words_of(f"echo {word}")
    assert type(found) is S.BraceRefusedWord and found.refusal == refusal


@pytest.mark.parametrize("word", [
    '"${HOME}/$(basename "$PWD")"',  # every `$(` read already
    '"`$(x)`"{', '"`$(echo {)`"',  # it parses where bash reads it again
    '"`\\$(`"{', "'{'\"`\\$(`\"",  # escaped: no substitution
    '"`$(`"', '{"`$"(`"',  # no `{` in the word, or no `$(`
    '{`$(`',  # unquoted backquotes hide it from brace expansion
])
def test_words_bash_expands(word):
    (_, found) = words_of(f"echo {word}")
    assert type(found) is S.Word


@pytest.mark.parametrize("source", ['eval a=("`$(${`")', 'declare a=(x)"`$(${`"'])
def test_a_compound_argument_holds_the_refusal_of_its_elements(source):
    # a command's `name=(…)` argument bash brace-expands as one word (a declaration
    # builtin's own compound assignment, when it assigns the elements)
    (_, argument) = words_of(source)
    refused = argument.value if argument.array is None else argument.array[0]
    assert type(refused) is S.BraceRefusedWord


@pytest.mark.parametrize("source", [
    'echo "{' + "`$(" * 2000 + '`"',
    'echo "{`' + "$(a)" * 3000 + '$(x`"',
    'echo "{`$(' + ")" * 20000 + '`"',
    'echo "{`$(' + "x)" * 5000 + 'x`"',
    'echo "{`$(' + "$(" * 300 + '`"',
])
def test_hostile_words_cost_a_bounded_number_of_reads(source, monkeypatch):
    # where a `$(` closes is found by reading prefixes of the word: a bounded number of
    # them, whatever the word (past the bound the word is not followed: refusal None)
    S._lex("")
    lex, reads = S._LEX, []
    monkeypatch.setattr(S, "_LEX", lambda text: reads.append(len(text)) or lex(text))
    script = S.parse_prefix(source)
    assert len(reads) <= 2 * S._CLOSE_TRIES + 40
    words = script.chunks[0].items[0].command.pipelines[0].commands[0].words if script.chunks else ()
    assert all(type(w) is not S.BraceRefusedWord or w.refusal in (None, "unexpected EOF while looking for matching ``'")
               for w in words)
