"""Unknown values are typed, not marked in the text: a script holding ``⟨`` or ``⟩``
is read exactly as bash reads it, and an unknown part still prints as ``⟨name⟩``."""

import pickle

import pytest

import bashref
from qbcore.harness.simulate import simulate
from qbcore.model import expand as E
from qbcore.model.evaluate import evaluate
from qbcore.model.values import Opaque, Partial, concat, has_opaque, opaque_names, unknown_text
from qbcore.syntax.parser import parse

# each runs in a directory holding a.txt and ⟨f⟩; the model must be exact and agree with bash
LITERAL_BRACKETS = [
    "printf '⟨\\n'; printf '%s⟩\\n' x",
    "echo '⟨x⟩' > f; echo \"st=$?\"; echo *",
    "echo '⟨x⟩' > '⟨g⟩'; echo \"st=$?\"; echo ⟨*",
    "x='⟨a⟩'; echo \"$x\" $x ${#x}; y=$x; echo \"$y\" \"$_\"",
    "x='⟨'; [ \"$x\" = '⟨' ] && echo same; test \"$x\" != '⟩' && echo differ",
    "x='⟨a⟩'; [[ $x == ⟨* ]] && echo match; [[ $x == '⟨a⟩' ]] && echo equal",
    "x='⟨a⟩'; case $x in ⟨*⟩) echo case;; esac",
    "x='⟨1⟩'; echo $(( ${#x} + 1 )); y=⟨; echo ${#y}",
    ": ${z:=⟨q⟩}; echo \"$z\"; echo \"${z/⟨/<}\" \"${z#⟨}\" \"${z%⟩}\" \"${z:1:1}\"",
    "arr=('⟨' b ⟨c⟩); echo \"${arr[@]}\" ${#arr[@]}",
    "x=~/⟨; echo \"$x\" | tr -d /; echo ~/⟨ > /dev/null; echo $?",
    "IFS=':'; x='⟨:⟩'; printf '[%s]' $x; echo",
    # in the C locale bash splits at every byte of IFS, inside characters too
    "IFS='⟩'; x='a⟩b'; printf '[%s]' $x; x='a⟨b'; printf '[%s]' $x; x='é⟩é'; printf '[%s]' $x; echo",
    "IFS='é '; x=' aéb  c'; printf '[%s]' $x; echo",
    "set -- '⟨1⟩' b; echo \"$*\" $# \"$1\"",
    "for i in ⟨a ⟨b; do echo \"$i\"; done",
    "declare d='⟨'; export e=⟩; echo \"$d$e\"",
    "f() { echo \"⟨$1⟩\"; }; f a; x=$(f b); echo \"$x\"",
    "eval 'echo ⟨⟩'; eval \"x=⟨\"; echo \"$x\"",
    "cd '⟨' 2>/dev/null; echo \"st=$?\"; cd ⟨f⟩; echo \"st=$?\"",
    "x='⟨a⟩'; echo \"$x\" > \"$x\"; echo \"st=$?\"; echo *",
]


@pytest.mark.bash
@pytest.mark.parametrize("script", LITERAL_BRACKETS)
def test_literal_angle_brackets_are_plain_text(script, tmp_path):
    cwd = str(tmp_path)
    bashref.make_tree(cwd, ["a.txt", "⟨f⟩/"])
    result = evaluate(parse(script), E.Env.default(cwd))
    outcome = bashref.run(script, cwd=cwd)
    if "tr -d" in script:  # `tr` is not modelled: only the part before it
        assert result.stdout != outcome.text
        return
    assert result.exact, result.opaque
    assert result.stdout == outcome.text
    assert result.status == outcome.status


@pytest.mark.bash
@pytest.mark.parametrize("body", ["⟨$HOME⟩", "⟨x⟩ \\$y ⟨", "$(printf '⟨')"])
def test_literal_angle_brackets_in_heredoc_bodies(body, tmp_path):
    cwd = str(tmp_path)
    script = f"cat <<EOF\n{body}\nEOF"
    outcome = bashref.run(script, cwd=cwd)
    (redirect,) = evaluate(parse(script), E.Env.default(cwd)).commands[-1].redirects
    assert redirect.exact and redirect.body == outcome.text


@pytest.mark.bash
def test_literal_angle_bracket_redirection_leaking_out_of_nested(tmp_path):
    # the reply's quote ends the outer layer's string: the redirection runs in the outer shell
    reply = 'echo a" > "⟨f⟩'
    result = simulate(reply, "nested", cwd=str(tmp_path), listing=[])
    assert result.exact, result.opaque
    assert result.inner_script == "echo a"
    assert [e.path for e in result.outer_effects if e.kind == "file"] == [str(tmp_path / "⟨f⟩")]
    bashref.run('bash -c "' + reply + '"', cwd=str(tmp_path))
    assert (tmp_path / "⟨f⟩").read_text() == "a\n"


def test_an_unknown_part_prints_as_its_name(tmp_path):
    env = E.Env.default(str(tmp_path))
    result = E.expand(parse("w a$RANDOM'⟨'b").chunks[0].items[0].command.pipelines[0].commands[0].words[1:],
                      env)
    (field,) = result.values
    assert field == "a⟨$RANDOM⟩⟨b"  # what records and JSON print
    assert has_opaque(field) and opaque_names(field) == ("$RANDOM",)
    assert field.spans == ((1, 10, "$RANDOM"),)


def test_evaluation_records_keep_their_printed_form(tmp_path):
    result = evaluate(parse("echo x$(date)y > \"⟨$RANDOM⟩\""), E.Env.default(str(tmp_path)))
    (command,) = result.commands
    assert command.argv == ("echo", "x⟨$(date)⟩y")
    assert command.redirects[0].target == "⟨⟨$RANDOM⟩⟩" and not command.redirects[0].exact
    assert not result.exact


def test_partial_text_helpers():
    a = unknown_text(Opaque("$x"))
    joined = concat(["<", a, "⟨", a])
    assert joined == "<⟨$x⟩⟨⟨$x⟩"
    assert joined.spans == ((1, 5, "$x"), (6, 10, "$x"))
    assert opaque_names(joined) == ("$x",)
    assert type(concat(["⟨", "⟩"])) is str and not has_opaque("⟨a⟩")
    assert has_opaque(Opaque("$y")) and has_opaque(("a", joined)) and not has_opaque(("⟨", "b"))
    assert not has_opaque(Partial("plain"))
    copy = pickle.loads(pickle.dumps(joined))  # records cross process boundaries in batch work
    assert copy == joined and copy.spans == joined.spans


def test_an_argument_with_an_unknown_part_stays_unknown_inside_the_function(tmp_path):
    # `$1` may split, glob and measure any way: nothing inside claims to know
    script = 'f() { echo hi > $1; echo ${#1} "$@"; }; f "a$RANDOM b"'
    result = evaluate(parse(script), E.Env.default(str(tmp_path)))
    inner = [c for c in result.commands if c.argv and c.argv[0] == "echo"]
    assert len(inner) == 2 and all(not c.exact for c in inner)
    assert not inner[0].redirects[0].exact


def test_an_unknown_ifs_leaves_the_words_it_would_split_unknown(tmp_path):
    # IFS=$RANDOM: bash splits at its digits, which the model does not know; quoted words and
    # words with nothing to split stay known
    result = evaluate(parse("IFS=$RANDOM; x='a1b 2'; printf '[%s]' \"$x\" x $x"), E.Env.default(str(tmp_path)))
    (printf,) = [c for c in result.commands if c.argv[:1] == ("printf",)]
    assert printf.argv[:4] == ("printf", "[%s]", "a1b 2", "x")
    assert len(printf.argv) == 5 and has_opaque(printf.argv[4]), printf.argv
