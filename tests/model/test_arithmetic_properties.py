"""Property: the arithmetic model gives bash's value, assignments and errors.

Expressions are drawn from bash's whole operator table (every precedence
level, unary and postfix operators, parentheses, the conditional, assignments
and short circuits whose skipped side would assign), over numbers in several
bases and variables that are set, unset, negative, recursive or not numbers.
Each hypothesis example is a batch run by one bash process, so a CI run checks
a few thousand expressions; QBCORE_LONG=1 checks ten times more.
"""

import os

from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

import bashref
from qbcore.model import expand as E
from qbcore.model.evaluate import static

LONG = os.environ.get("QBCORE_LONG", "") not in ("", "0")
BATCH = 100
EXAMPLES = 300 if LONG else 30

# x and y numbers, z unset, r a recursive expression, w a word that is no number
VARIABLES = {"x": "5", "y": "-3", "r": "x*2+1", "w": "x+", "h": "0x1f"}
NAMES = ["x", "y", "z", "r", "h"]
NUMBERS = ["0", "1", "2", "7", "10", "64", "0x10", "010", "2#101", "36#z", "9223372036854775807", "63"]
BINARY = ["||", "&&", "|", "^", "&", "==", "!=", "<=", ">=", "<", ">", "<<", ">>", "+", "-", "*", "/", "%",
          "**", ","]
ASSIGN = ["=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="]


def _expressions():
    leaf = st.one_of(st.sampled_from(NUMBERS), st.sampled_from(NAMES),
                     st.sampled_from(NAMES).map(lambda n: n + "++"), st.sampled_from(NAMES).map(lambda n: "--" + n),
                     st.sampled_from(["x[1]", "x[0]++", "++x[1]", "y[2]--", "z[1]"]))

    def extend(inner):
        return st.one_of(
            st.tuples(inner, st.sampled_from(BINARY), inner).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
            st.tuples(inner, st.sampled_from(BINARY), inner).map(lambda t: f"{t[0]}{t[1]}{t[2]}"),
            st.tuples(st.sampled_from(["-", "+", "!", "~"]), inner).map(lambda t: f"{t[0]}{t[1]}"),
            inner.map(lambda e: f"({e})"),
            st.tuples(inner, inner, inner).map(lambda t: f"{t[0]} ? {t[1]} : {t[2]}"),
            st.tuples(st.sampled_from(NAMES[:3]), st.sampled_from(ASSIGN), inner)
            .map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        )

    return st.recursive(leaf, extend, max_leaves=6)


EXPRESSION = _expressions()


def model(expression: str):
    """('value', value, x, y, z) or ('error', message) after the model evaluates it."""
    env = static(E.Env.default("/"))
    for name, value in VARIABLES.items():
        env.set(name, value)
    try:
        value = E.arithmetic(f" {expression} ", env)  # the text between `$((` and `))` in bash_script
    except E.ArithError as exc:
        return ("error", str(exc))
    return ("value", str(value), *(_scalar(env.get(name)) for name in ("x", "y", "z")))


def _scalar(value) -> str:
    """What ``$name`` gives: element 0 of an array."""
    return str((value.get(0) if isinstance(value, dict) else value) or "")


def bash_script(expression: str) -> str:
    setup = "; ".join(f"{name}={bashref.quote(value)}" for name, value in VARIABLES.items())
    return f"{setup}; v=$(( {expression} )) || exit 1; printf '%s\\n' \"$v\" \"$x\" \"$y\" \"$z\""


def _compare(batch):
    outcomes = bashref.run_many([bash_script(e) for e in batch], cwd="/")
    wrong = []
    for expression, outcome in zip(batch, outcomes):
        predicted = model(expression)
        if predicted[0] == "error":
            # bash: `bash: line 1: EXPR: message`; the model's text is what follows `line 1: `
            said = outcome.stderr.decode("utf-8", "replace")
            if outcome.status == 0 or not said.rstrip("\n").endswith(predicted[1]):
                wrong.append((expression, predicted, (outcome.status, said)))
        else:
            found = tuple(outcome.stdout.decode().split("\n")[:4]) if outcome.status == 0 else (outcome.stderr,)
            if predicted[1:] != found:
                wrong.append((expression, predicted[1:], found))
    return wrong


# no shrinking: a batch of a hundred expressions shrinks slowly, and the failure names its expression
@settings(max_examples=EXAMPLES, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.lists(EXPRESSION, min_size=BATCH, max_size=BATCH))
@example(["1 + 2 * 3", "2 ** 3 ** 2", "-2 ** 2", "1 - 2 - 3", "7 / 2 * 2", "1 || x++", "0 && x++",
          "0 || x++ && y--", "1 ? x++ : y++", "x = y = 7", "x += 2 * 3", "1 << 2 + 1", "1 < 2 == 1",
          "5 & 3 ^ 6 | 8", "~x", "!x + 1", "r * 2", "w", "h + 1", "(1, 2) + x", "x++ + ++x",
          "1 +", "1 / 0", "2 ** -1", "5 + (1 2)", "x ? 1", "1 2", "9223372036854775807 + 1", "z = x, z *= 2",
          "0 || 0 || 1 && 0", "1 || 2 && 3", "x -= 1 ? 2 : 3", "1 ? 2 : y++", "0 ? y++ : 3", "1 || 1/0",
          "0 && 2 ** -1", "1 || r", "1 + x = 3", "x[1] = 4, x[1] + x", "x[0] += 2", "1 ? : 3", "1 ? 2 :",
          "1 / 0 + 2", "2 ** -1 + 4", "x /= 0", "65#1 + 2", "1 + 2#3", "1 @ 2", "z = 1 ? 2 : x++",
          "1 ? 2 : 3 : 4", "x ? 1 , 2", "x[1]++ + x[1]", "++x[1]", "x[0]--, x", "--y[2] + y"] + ["0"] * (BATCH - 59))
def test_arithmetic_agrees_with_bash(batch):
    wrong = _compare(batch)
    assert not wrong, "model vs bash:\n" + "\n".join(f"{e!r}: {m!r} != {b!r}" for e, m, b in wrong)


def _unknown_u():
    env = static(E.Env.default("/"))
    env.set("x", "5")
    env.set("u", E.Opaque("$u"))
    return env


def test_a_side_taken_under_an_unknown_condition_leaves_what_it_assigns_unknown():
    for expression in ("u && x++", "u || (x = 2)", "u ? x++ : 1", "u ? 1 : (x -= 1)"):
        env = _unknown_u()
        assert not E._known(E.arithmetic(expression, env)), expression
        assert isinstance(env.get("x"), E.Opaque), expression


def test_a_side_not_taken_is_parsed_but_not_evaluated():
    # bash measured: no assignment, no division error, no variable read on the side not taken
    env = _unknown_u()
    env.set("w", "x+")
    assert E.arithmetic("1 || x++ + 1/0 + w", env) == 1
    assert E.arithmetic("0 ? x = 9 : 3", env) == 3
    assert env.get("x") == "5"
    try:
        E.arithmetic("0 && 2 ** -1", env)  # bash reports this one on a side it does not take too
    except E.ArithError as exc:
        assert "exponent less than 0" in str(exc)
    else:
        raise AssertionError("no error")


def test_a_division_by_zero_under_an_unknown_condition_is_unknown_not_an_error():
    env = _unknown_u()
    opaque: list = []
    value = E.Arithmetic("u && 1 / 0", env, opaque).run()
    assert not E._known(value)
    assert any("divides by 0" in name for name in opaque)
