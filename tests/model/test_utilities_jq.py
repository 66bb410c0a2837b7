"""jq's model against jq 1.6: the filters replies use to write JSON, and generated ones."""

import pytest
from hypothesis import given, settings, strategies as st

from qbcore.model.utilities.context import CommandContext
from qbcore.model.utilities.registry import MODELS
from qbcore.model.utilities.vfs import VirtualTree
from tests_settings import examples
from utilities_diff import compare

FILES = {"c.json": b'{"message": "hi", "n": 3, "list": [1, "two", null], "o": {"k": true}}\n',
         "raw.txt": b'it\'s a "test"\nC:\\temp\n\nlast', "lines.txt": b"a\nb\n", "latin.txt": b"caf\xe9\n",
         "two.json": b'1 "a"\n[]\n', "bad.json": b"{bad\n", "f.json": b'{"x": 1.5}', "d": None,
         "zeros.json": b"01", "nan.json": b"[1, nan]", "lone.json": b'{"a": "\\ud800", "b": 1}',
         "pair.json": b'"\\ud83d\\ude00"', "empty.json": b"", "word.json": b"x", "nl.json": b"\n",
         "nuls.txt": b"x\na\0b\0\0", "nul.txt": b"\0\0", "mid.txt": b"a\0b\0\n\0c"}

CASES = [
    # what replies to json-write send: an object from --arg values
    ["jq", "-n", "--arg", "m", "it's a \"test\"", "{message: $m}"],
    ["jq", "-n", "--arg", "m", "x", "{\"message\": $m}"], ["jq", "-nc", "--arg", "m", "x", "{message: $m}"],
    ["jq", "-n", "--arg", "message", "C:\\temp\\new folder", "{$message}"],
    # $ARGS, which jq 1.6 defines: the values of --arg and --argjson by name
    ["jq", "-n", "--arg", "message", "it's \"x\" $HOME", "$ARGS.named"], ["jq", "-n", "$ARGS"],
    ["jq", "-nc", "--arg", "b", "1", "--argjson", "a", "[2]", "$ARGS"], ["jq", "-n", "$ARGS.positional"],
    # assignment to a path from ., which binds tighter than , and looser than the terms
    ["jq", "-n", "--arg", "m", "it's", ".message = $m"], ["jq", "-n", "null | .a = \"x\""], ["jq", "-nc", ".a.b = 1"],
    ["jq", "-nc", ".[1] = 1"], ["jq", "-nc", ".a = (1, 2)"], ["jq", "-nc", "{} | .a = .b"], ["jq", "-nc", "1, .a = 2"],
    ["jq", "-nc", ".a = 1 | .b = 2"], ["jq", "-nc", ".a = 1, 2"], ["jq", "-nc", "(.a) = 1"], ["jq", "-nc", ".[\"k\"] = 1"],
    ["jq", "-nc", ".\"k\" = 1"], ["jq", "-nc", ".a[0] = 1"], ["jq", "-nc", ".[0] = 1 | .[2] = 3"],
    ["jq", ".message = \"y\"", "c.json"], ["jq", "-c", ".o.k = [.n]", "c.json"], ["jq", ".list[1] = {}", "c.json"],
    # the layout: -c, --tab, --indent N, -j; the last of -c, --tab and --indent deciding
    ["jq", "--tab", ".", "c.json"], ["jq", "--indent", "0", ".", "c.json"], ["jq", "--indent", "1", ".", "c.json"],
    ["jq", "--indent", "4", ".", "c.json"], ["jq", "--indent", "7", ".", "c.json"], ["jq", "--tab", "--indent", "3", ".", "c.json"],
    ["jq", "--indent", "3", "--tab", ".", "c.json"], ["jq", "-c", "--tab", ".", "c.json"], ["jq", "--tab", "-c", ".", "c.json"],
    ["jq", "--tab", "-nc", "{a: [1]}"], ["jq", "-j", ".message, .n, .o", "c.json"], ["jq", "-nj", "\"a\", \"b\""],
    ["jq", "-n", "--arg", "m", "tab\there\x01\x7f é \\ / \"", "{m: $m, n: 1, t: true, f: false, z: null}"],
    ["jq", "--null-input", "--compact-output", "--arg", "a", "1", "--argjson", "b", "{\"x\": [1, 2]}", "{a: $a, b: $b}"],
    ["jq", "-n", "{a: {b: [1, {c: 2}]}, e: {}, f: []}"], ["jq", "-n", "-S", "{b: 1, a: {d: 1, c: 2}}"],
    ["jq", "-rn", "--arg", "x", "raw\nline", "$x"], ["jq", "-n", "-r", "{a: \"x\"}"], ["jq", "-n", "1, 2 | 3"],
    ["jq", "-n", "[1, 2 | 3]"], ["jq", "-n", "{a: 1 | 2}"], ["jq", "-n", "\"\\u00e9\\n\\t\\\"\""], ["jq", "-n", "[]"],
    ["jq", "-n", "{}"], ["jq", "-n", "true, false, null"], ["jq", "-n", "-1"], ["jq", "-n", ".x.y"], ["jq", "-n", ".[0]"],
    ["jq", "-n", "{\"a b\": 1} | .\"a b\""], ["jq", "-n", "{a: 1} | {b: .a, a}"], ["jq", "-n", ". , ."],
    # paths on input files
    ["jq", ".", "c.json"], ["jq", "-c", ".", "c.json"], ["jq", ".message", "c.json"], ["jq", "-r", ".message", "c.json"],
    ["jq", ".list[1]", "c.json"], ["jq", ".list[-1]", "c.json"], ["jq", ".list[9]", "c.json"], ["jq", ".o.k", "c.json"],
    ["jq", ".[\"n\"]", "c.json"], ["jq", ".nope", "c.json"], ["jq", ".", "two.json"], ["jq", "-c", "{m: .message}", "c.json"],
    ["jq", ".", "c.json", "two.json"], ["jq", ".", "nope.json", "c.json"], ["jq", "-n", ".", "nope.json"],
    ["jq", ".message"], ["jq", "-S", ".", "c.json"], ["jq", "-M", ".n", "c.json"],
    # what jq refuses before it reads input (a quote lost on the way): status 3, nothing printed
    ["jq", "-n", "{message: hello}"], ["jq", "-n", "{a: hello, b: world}"], ["jq", "-n", "[1"], ["jq", "-n", "{message:"],
    ["jq", "-n", "$m"], ["jq", "-n", "{$m}"], ["jq", "-n", "(1))"], ["jq", "-n", "[.a, b]"], ["jq", "-n", "{a: {b}}"],
    ["jq", "hello", "nope.json"], ["jq", "-n", "{a}"], ["jq", "-n", "{a, b: 1}"],
    ["jq", "-n", "{a: }"], ["jq", "-n", "{a: 1,}"], ["jq", "-n", "1 2"], ["jq", "-n", "{a: 1}{b: 2}"], ["jq", "-n", ".a .b"],
    # a binary operator with nothing on one side (`.message = $v`, its `$v` taken by the shell)
    ["jq", "-n", ".message = "], ["jq", "-n", ".a |= "], ["jq", "-n", ".a + "], ["jq", "-n", ".a == "], ["jq", "-n", ".a -"],
    ["jq", "-n", "( == 1)"], ["jq", "-n", "[ + 1]"], ["jq", "-n", ".a, + 1"], ["jq", "-n", ".a | = 1"], ["jq", "-n", "+ 1"],
    ["jq", "-n", "{a: == 1}"], ["jq", "-n", ".a // "], ["jq", "-n", "[.a, * 2]"], ["jq", "-n", ".a = | 1"],
    ["jq", "-n", ".a = -"], ["jq", "-n", ".a += "], ["jq", "-n", "- 1"], ["jq", "-n", ".a = -1"],
    # a character jq's lexer refuses outside strings (a backslash or quote the shell left)
    ["jq", "-n", "{message: C:\\temp\\new folder}"], ["jq", "-n", "{a: 'x'}"], ["jq", "-n", "{a: `x`}"],
    ["jq", "-n", ".a & 1"], ["jq", "-n", ".a ! 1"], ["jq", "-n", "\"it's\" | length"],
    # input jq refuses at a bare word (status 4), the files before it missing or not; no filter is .
    ["jq", "-r", ".", "pair.json"], ["jq", ".", "pair.json"],
    ["jq", ".", "bad.json"], ["jq", ".", "bad.json", "c.json"], ["jq", ".", "nope.json", "bad.json"], ["jq"], ["jq", "-c"],
    # jq opens a file when it needs more input: one missing after the byte where it met the bad word is never opened
    ["jq", ".", "bad.json", "nope.json"], ["jq", ".", "word.json", "nope.json"], ["jq", ".", "word.json", "nl.json", "nope.json"],
    ["jq", ".", "word.json", "empty.json", "nope.json"], ["jq", ".", "word.json", "nope.json", "nl.json"],
    # -e: the last input's last result decides: null or false 1, none 4, else 0; no input 0
    ["jq", "-e", ".message", "c.json"], ["jq", "-e", ".nope", "c.json"], ["jq", "-e", ".", "two.json"],
    ["jq", "--exit-status", "-n", "false, 1"], ["jq", "-ne", "1, null"], ["jq", "-e", ".o.k", "c.json"],
    ["jq", "-e", ".", "empty.json"], ["jq", "-e", ".", "nope.json"], ["jq", "-e", ".", "bad.json"],
    ["jq", "-e", "{m: .nope}", "c.json"], ["jq", "-ne", "{message: hello}"],
    # + and - (null added to anything, integers, strings, arrays, objects merged), the right
    # side's outputs outside the left's; jq's lexer reads no sign in a number
    ["jq", "-n", "1 + 1"], ["jq", "-n", "1 -1"], ["jq", "-nc", "(1, 2) + (10, 20)"], ["jq", "-nc", "[1] + [2, [3]]"],
    ["jq", "-nc", "{a: 1, c: 0} + {b: 2, a: 3}"], ["jq", "-n", "null + \"x\", 1 + null, null + null"],
    ["jq", "-n", "--arg", "m", "it's", "$m + \"!\""], ["jq", "-nc", ".a = 1 + 2"], ["jq", "-nc", "1 - 2 + 3, -1"],
    ["jq", "-c", ".n + 1, .message + \" there\", .list + [4]", "c.json"], ["jq", "-nc", "[1, 2] | .[-1]"],
    # |= (on what the path holds, its first output), += and -= (for each output of the right side on .)
    ["jq", "-nc", ".a |= 1"], ["jq", "-c", ".message += \" there\", .n -= 2", "c.json"], ["jq", "-nc", ".a += (1, 2)"],
    ["jq", "-c", ".list |= . + [4], .n |= (. + 1, . + 2), .o.n += .n", "c.json"],
    ["jq", "-n", "--arg", "m", "hello", ".message += $m"], ["jq", "-c", ".list[0] += 1 | .n", "c.json"],
    # interpolation: each part as tostring prints it; strings inside interpolations
    ["jq", "-n", "\"\\(1)\""], ["jq", "-n", "\"\\(\"x\") y\""], ["jq", "-nc", "\"x\\(1, 2)y\\(3, 4)\""],
    ["jq", "-rn", "--arg", "m", "a\"b", "\"msg: \\($m) \\(.) \\([1, {a: \"q\"}]) \\(\"in\\(\"ner\")\")\""],
    ["jq", "-n", "--arg", "m", "x", "{message: \"<\\($m)>\"}"], ["jq", "-r", "\"\\(.message): \\(.n)\"", "c.json"],
    # the builtins of the subset
    ["jq", ".message | length", "c.json"], ["jq", "-c", "keys, length, type, (.o | tojson), tostring", "c.json"],
    ["jq", "-c", ".list | keys, length, (.[] | type)", "c.json"], ["jq", "-n", "null | length, not, type"],
    ["jq", "-n", "\"h\\u00e9\" | length, tojson, tostring"], ["jq", "-n", "-5 | length"], ["jq", "-nc", "-1 + 3"], ["jq", "-n", "- 1"], ["jq", "-nc", "empty, 1, empty"],
    ["jq", "-n", "{b: 1, \"A\": 2, a: 3, \"\\u00e9\": 4} | keys"], ["jq", "-nS", "{b: 1, a: 2} | tojson"],
    ["jq", "-n", "--arg", "m", "it's", "{message: $m} | tojson"], ["jq", "-e", ".o.k | not", "c.json"],
    # .[]: an array's items, an object's values
    ["jq", ".[]", "c.json"], ["jq", "-c", ".list[]", "c.json"], ["jq", "-c", "[.[]]", "c.json"], ["jq", "-nc", "[] | .[]"],
    # -R: lines as strings (a last line without its newline too); -s: one array, or with -R one string
    ["jq", "-R", ".", "raw.txt"], ["jq", "-Rs", ".", "raw.txt"], ["jq", "-Rc", "{message: .}", "lines.txt"],
    ["jq", "-R"], ["jq", "-Rn", ".", "raw.txt"], ["jq", "-s", ".", "two.json"], ["jq", "-sc", ".", "c.json", "two.json"],
    ["jq", "-s", ".", "empty.json"], ["jq", "-Rs", ".", "empty.json"], ["jq", "-R", ".", "empty.json"],
    ["jq", "-Rs", "{message: .}", "nope.json"], ["jq", "--raw-input", "--slurp", "length", "raw.txt"],
    # a last line without its newline: what jq 1.6 reads of it ends at its last byte that is no NUL
    ["jq", "-R", ".", "nuls.txt"], ["jq", "-Rs", ".", "nuls.txt"], ["jq", "-R", ".", "nul.txt"], ["jq", "-Rc", ".", "mid.txt"],
    # --rawfile: a file's text, bound to a name (and in $ARGS.named)
    ["jq", "-n", "--rawfile", "m", "raw.txt", "{message: $m}"], ["jq", "-nc", "--rawfile", "m", "lines.txt", "--arg", "a", "b", "$ARGS"],
]
# outside the subset: jq's errors and number printing are not spelled
UNKNOWN = [
    ["jq", "-n", "--indent", "8", "."], ["jq", "-nc", "3 | .a = 1"], ["jq", "-nc", ".[-1] = 1"], ["jq", "-nc", ".a |= empty"],
    ["jq", "-nc", ".a *= 2"], ["jq", "-n", ".a += \"x\" | .a -= \"x\""],
    ["jq", "-nc", "(.a, .b) = 1"], ["jq", "-nc", ".a == 1"], ["jq", "-nc", ".a // 1"], ["jq", "-n", "1 != 2"],
    ["jq", ".", "f.json"], ["jq", "-n", "1.5"],
    ["jq", "-n", "100000000000000000000"], ["jq", "-n", "9007199254740993"],
    ["jq", ".n.x", "c.json"], ["jq", "--tab", "--indent", "-1", ".", "c.json"],
    ["jq", "-n", "--arg", "x", "1", "--arg", "x", "2", "$x"], ["jq", "-n", ".a.[0]"], ["jq", ".", "d"],
    ["jq", "-n", "{(\"a\"): 1}"], ["jq", "-n", "$ENV.HOME"],
    ["jq", "-n", "{message: hello(1)}"], ["jq", "-n", ". as $x | $x"], ["jq", ".", "zeros.json"], ["jq", ".", "nan.json"],
    ["jq", ".b", "lone.json"],  # a lone surrogate: jq refuses the text
    # jq's errors while running, numbers past 2^53, -R's U+FFFD, -R across files
    ["jq", "-n", "\"a\" + 1"], ["jq", "-n", "[1] - [1]"], ["jq", "-n", "{} - {}"], ["jq", "-n", "true | length"],
    ["jq", "-n", "1 | keys"], ["jq", "-n", "1 | .[]"], ["jq", "-n", "9007199254740992 + 1"], ["jq", "-n", "{\"a\\(1)\": 2}"],
    ["jq", "-R", ".", "latin.txt"], ["jq", "-R", ".", "raw.txt", "lines.txt"], ["jq", "-n", "--rawfile", "m", "nope.json", "$m"],
    ["jq", "-s", ".", "bad.json"], ["jq", "-n", "\"\\(1\""], ["jq", "-n", "length(1)"], ["jq", "-n", "-n1"],
]


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c)[:60] for c in CASES])
def test_table(argv):
    assert compare(argv, FILES, b'{"message": "from stdin"}\n') is True


@pytest.mark.parametrize("argv", UNKNOWN, ids=[" ".join(c)[:60] for c in UNKNOWN])
def test_what_is_not_modelled_is_unknown(argv):
    assert compare(argv, FILES, b"{}") is None


TEXT = st.text(st.sampled_from("ab \"'\\/\n\t\x01\x7fé$("), max_size=8)
KEY = st.sampled_from(["a", "b", "message", "\"a b\"", "\"x\"", "$v"])
VALUE = st.sampled_from(["$v", "$w", ".", "1", "-2", "true", "null", "\"s\\n\"", "[]", "{}", "[$v, 1]",
                         "{k: $w}", ".v", ".[0]", "($v | .)"])


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(KEY, VALUE), max_size=4), TEXT, TEXT,
       st.sampled_from([[], ["-c"], ["-r"], ["-S"], ["-cS"]]), st.booleans())
def test_objects_from_arguments_generated(entries, v, w, flags, raw_value):
    """An object built from --arg values, as json-write replies build it."""
    body = ", ".join(k if k == "$v" else f"{k}: {value}" for k, value in entries)
    program = "$v" if raw_value else "{" + body + "}"
    compare(["jq", "-n"] + flags + ["--arg", "v", v, "--arg", "w", w, program], FILES)


JSON = st.recursive(st.none() | st.booleans() | st.integers(-10 ** 18, 10 ** 18) | st.floats(allow_nan=False) | TEXT,
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3), max_leaves=8)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(JSON, min_size=0, max_size=3), st.sampled_from([".", ".a", ".[0]", "{a}", "[., .]", ".a.b"]),
       st.sampled_from([[], ["-c"], ["-r"], ["-S"]]))
def test_input_values_generated(values, program, flags):
    """JSON texts read from a file, printed back or picked apart."""
    import json
    text = "\n".join(json.dumps(v, ensure_ascii=False) for v in values).encode()
    compare(["jq"] + flags + [program, "in.json"], {"in.json": text})


PROGRAMS = ['{message: $v}', '{"message": $v, n: 1}', '{$v, a: [$w, {b: "x y"}]}', '.a | {b: .c}', '[.[0], "s"]',
            '{a: 1, b: [1, 2], c: {d: $v}} | .c', '{m: "a\\($v)b\\("c\\($w)")"} | .m + "!"',
            '{k: ([$w] + [1 -1])} | .k[], (.k | length, keys, tojson)', '.message = $v | .n = ($w + "!")']


@settings(max_examples=examples(100), deadline=None)
@given(st.sampled_from(PROGRAMS), st.lists(st.integers(0, 40), min_size=1, max_size=3), st.booleans())
def test_damaged_filters_generated(program, cuts, quotes_lost):
    """A filter that lost characters or its double quotes on the way: jq's compile error, or
    what the filter still does."""
    if quotes_lost:
        program = program.replace('"', "")
    for cut in cuts:
        program = program[:cut] + program[cut + 1:]
    compare(["jq", "-n", "--arg", "v", "x", "--arg", "w", "y", program], FILES)


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(['{"message": "hello"}', '[1, "a b", {"k": null}]', '{"a": {"b": [true, 2]}}']),
       st.lists(st.integers(0, 30), min_size=1, max_size=2), st.booleans())
def test_damaged_input_generated(text, cuts, quotes_lost):
    """JSON written by a reply whose quotes were lost on the way: jq's parse error or the values."""
    if quotes_lost:
        text = text.replace('"', "")
    for cut in cuts:
        text = text[:cut] + text[cut + 1:]
    compare(["jq", "-c", ".", "in.json"], {"in.json": text.encode()})


@pytest.mark.parametrize("argv, files, why", [
    (["jq", "-n", " | ".join(["(1,2)"] * 40)], {}, "filter steps"),  # 2**40 outputs
    (["jq", "-n", "(" * 5000 + "1" + ")" * 5000], {}, "nesting"),
    (["jq", "-n", " | ".join(["[., .]"] * 40)], {}, "bytes of output"),  # shared in memory, 2**40 in print
    (["jq", "-n", "\"x\" | " + " | ".join([". + ."] * 40)], {}, "items"),
    (["jq", "-n", "\"" + "\\(1, 2)" * 40 + "\""], {}, "filter steps"),
    (["jq", ".", "deep.json"], {"deep.json": b"[" * 100000 + b"]" * 100000}, "nesting"),
])
def test_runaway_filters_and_inputs_end_as_unknown(argv, files, why):
    """Bounded in steps and by the stack, never a hang or a crash."""
    tree = VirtualTree.from_listing({"/task": None, **{"/task/" + k: v for k, v in files.items()}})
    result = MODELS["jq"](CommandContext(argv=argv, stdin=b"", cwd="/task", env={}, tree=tree))
    assert result.unknown is not None and why in result.unknown


def test_the_bare_names_jq_defines_are_jq_1_6s():
    """The model's list of jq's builtins that take no argument, against jq's own."""
    import subprocess
    from qbcore.model.utilities import jq
    found = subprocess.run(["jq", "-n", "-r", 'builtins | map(select(endswith("/0")) | rtrimstr("/0")) | .[]'],
                           capture_output=True, check=True).stdout.decode().split()
    assert jq._BUILTINS_0 == set(found)
