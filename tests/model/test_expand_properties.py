"""Property: wherever the model says a hostile word expands exactly, bash agrees field for field.

Words are drawn from a hostile alphabet (quotes, ``$``, backticks, backslash,
blanks, newline, glob and operator characters, multi-byte UTF-8). Each
hypothesis example is a batch of words run by one bash process, so a CI run
checks a few thousand words; QBCORE_LONG=1 checks ten times more.
"""

import dataclasses
import os

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import bashref
from qbcore import ShellSyntaxError
from qbcore.model import expand as E
from qbcore.model.evaluate import static
from qbcore.syntax import parser as S
from qbcore.syntax.parser import parse

LONG = os.environ.get("QBCORE_LONG", "") not in ("", "0")
BATCH = 100
EXAMPLES = 400 if LONG else 40

CHARS = list("ab x1'\"$`\\ \t\n*?[]!;&|<>(){}#~=:,.-/@%^+é")
# balanced pieces keep most words parseable, so most cases are compared
PIECES = ["'a b'", "'\"$x'", '"a $x"', '"$@"', '"$*"', '"${x}b"', '"\\$x"', '"\\\\"', '"a\\b"', "\\$", "\\ ",
          "$'\\t'", "$'\\x41'", "{a,b}", "{1..3}", "${x#a}", "${x%% *}", "${x/ /_}", "${#x}", "${e:-d f}",
          "${x:+\"y z\"}", "$(echo a b)", "`echo b`", "$((1+1))", "[ab]*", "*.t", "~/", "$x", "$e", "$y", "$g",
          "$1", "$#", "$@", "$*", "$-", "${x^^}", "${x@Q}", "x=~/a", "\"\"", "''", "\\'", "\\\"",
          "\"${e:-\\q}\"", "\"${x:-'q'}\"", "\"${x/a/'b'}\"", "${x/a/&}", "\"${x#'a'}\"", "${e:-~}"]
ALPHABET = CHARS + PIECES
WORD = st.lists(st.sampled_from(ALPHABET), min_size=1, max_size=8).map("".join)
VARIABLES = {"x": "a b", "e": "", "g": "*.t", "y": "a*"}
POSITIONAL = ["p 1", "", "q"]
TREE = ["a.t", "b.t", ".h.t", "ab", "d/x.t"]


def _has_redirect(node) -> bool:
    # a redirection inside a case would create files and disturb later cases of the batch
    if isinstance(node, (S.Redirect, S.ProcSub)):
        return True
    if isinstance(node, S.Script):
        return any(_has_redirect(item) for item in node.body)
    if isinstance(node, tuple):
        return any(_has_redirect(x) for x in node)
    if dataclasses.is_dataclass(node):
        return any(_has_redirect(getattr(node, f.name)) for f in dataclasses.fields(node))
    return False


def model(words: str, cwd: str):
    """('fields', values) / ('error',) / None when the case is not comparable."""
    try:
        script = parse("__qb_f " + words)
    except ShellSyntaxError:
        return None
    body = script.body
    if len(body) != 1 or body[0].background or len(body[0].command.pipelines) != 1:
        return None
    pipeline = body[0].command.pipelines[0]
    if len(pipeline.commands) != 1 or pipeline.negated or pipeline.timed:
        return None
    command = pipeline.commands[0]
    if not isinstance(command, S.SimpleCommand) or command.assignments or command.redirects:
        return None
    if _has_redirect(command.words):
        return None
    env = static(E.Env.default(cwd))
    for name, value in VARIABLES.items():
        env.set(name, value)
    env.positional = list(POSITIONAL)
    try:
        result = E.fields(command.words[1:], env)
    except E.ExpansionError:
        return ("error",)
    if not result.exact or len(result.values) > 500:
        return None
    return ("fields", list(result.values))


# no shrinking: a batch of a hundred words shrinks slowly, and the failure names its word
@settings(max_examples=EXAMPLES, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(WORD, min_size=1, max_size=3).map(" ".join), min_size=BATCH, max_size=BATCH))
def test_exact_fields_agree_with_bash(tmp_path_factory, batch):
    cwd = str(tmp_path_factory.mktemp("words"))
    bashref.make_tree(cwd, TREE)
    cases = [(words, model(words, cwd)) for words in batch]
    cases = [(words, predicted) for words, predicted in cases if predicted is not None]
    if not cases:
        return
    setup = bashref.setup_for(VARIABLES, POSITIONAL)
    outcomes = bashref.run_many([bashref.fields_script(setup, words) for words, _ in cases], cwd=cwd)
    wrong = []
    for (words, predicted), outcome in zip(cases, outcomes):
        if predicted[0] == "error":
            if outcome.status == 0 or outcome.stdout:
                wrong.append((words, "model: expansion error", outcome.nul_fields()))
        elif predicted[1] != outcome.nul_fields():
            wrong.append((words, predicted[1], outcome.nul_fields()))
    assert not wrong, "model vs bash:\n" + "\n".join(f"{w!r}: {m!r} != {b!r}" for w, m, b in wrong)
