"""jq 1.6, the subset replies use to write JSON: ``jq -n --arg k v '{key: $k}'`` and paths.

Filters: ``.``, paths (``.a.b``, ``."a b"``, ``.[0]``, ``.[-1]``, ``.["a"]``), ``.[]``,
``$name``, strings (with interpolation), integers, ``true``/``false``/``null`` literals,
object construction (``{a: …}``, ``{"a b": …}``, ``{$name}``, ``{a}``), arrays,
parentheses, ``,``, ``|``, ``=``, ``|=``, ``+=`` and ``-=`` to a path, ``+`` and ``-``
where they do not fail, and the builtins ``empty length keys tojson tostring type not``.
Options: ``-n -r -c -S -M -e -j -R -s`` (also combined, ``-rn``) and their long names,
``--arg``, ``--argjson``, ``--rawfile``, ``--tab``, ``--indent N``. Output as jq prints it
to a pipe or file (no colour): indented or compact, strings escaped as jq escapes them.

A program jq certainly refuses before reading input (brackets that do not close, tokens its
grammar never puts side by side, a variable or a bare name it does not define: a quote lost
on the way) is its compile error, status 3; input whose first text fails at a bare word is
its parse error, status 4; neither message is spelled. Without a filter jq runs ``.``.
Anything else (other builtins and operators, computed keys, floats, numbers jq would round,
an error jq would report while running) makes the run ``unknown``: jq's messages and its
number printing are not modelled."""

from __future__ import annotations

import json
import re

from .common import Output, OptionUnknown, guarded
from .context import CommandContext, CommandResult
from .vfs import VfsError

__all__ = ["jq"]

_FLAGS = {"n": "null-input", "r": "raw-output", "c": "compact-output", "S": "sort-keys", "M": "monochrome-output",
          "e": "exit-status", "j": "join-output", "R": "raw-input", "s": "slurp"}
_LONG_FLAGS = {v: k for k, v in _FLAGS.items()}
# jq holds numbers as doubles: an integer is exact up to 2**53, and printed ("%.17g") as its
# digits; beyond, as the nearest double (9007199254740993 prints 9007199254740992, measured)
_EXACT = 2 ** 53 + 1
# (jq's lexer reads no sign in a number: `1 -1` is a subtraction; strings are read apart,
# their interpolations holding strings of their own: _string_end)
_TOKEN = re.compile(r'(?:(?P<num>[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)'
                    r'|(?P<field>\.[A-Za-z_][A-Za-z_0-9]*)|(?P<var>\$[A-Za-z_][A-Za-z_0-9]*)'
                    r'|(?P<ident>[A-Za-z_][A-Za-z_0-9]*)|(?P<op>\.\.|\|=|//=?|[-+*/%=!<>]=|=|[-+*/%<>.|,:(){}\[\]]))')
_BLANKS = re.compile(r"\s*")
_KEYWORDS = frozenset("def if then elif else end as reduce foreach try catch label import include and or "
                      "__loc__".split())
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
# jq 1.6's builtins that take no argument (`builtins` run there): another bare name is a
# compile error, "NAME/0 is not defined"
_BUILTINS_0 = frozenset("""
acos acosh add all any arrays ascii_downcase ascii_upcase asin asinh atan atanh booleans builtins cbrt
ceil combinations cos cosh debug empty env erf erfc error exp exp10 exp2 explode expm1 fabs finites first
flatten floor frexp from_entries fromdate fromdateiso8601 fromjson gamma get_jq_origin get_prog_origin
get_search_list gmtime halt halt_error implode infinite input input_filename input_line_number inputs
isfinite isinfinite isnan isnormal iterables j0 j1 keys keys_unsorted last leaf_paths length lgamma
lgamma_r localtime log log10 log1p log2 logb max min mktime modf modulemeta nan nearbyint normals not now
nulls numbers objects paths pow10 recurse recurse_down reverse rint round scalars scalars_or_empty
significand sin sinh sort sqrt stderr strings tan tanh tgamma to_entries todate todateiso8601 tojson
tonumber tostream tostring transpose trunc type unique utf8bytelength values y0 y1""".split())
_PAIRS = {"(": ")", "[": "]", "{": "}"}
# the builtins of the subset, each on its input alone
_CALLS = frozenset("empty length keys tojson tostring type not".split())


def _compile_error(program: str, variables: dict) -> bool:
    """Whether jq 1.6 certainly refuses ``program`` before it reads any input (status 3): its
    brackets do not close, or it names a variable or a bare function it does not define. Only
    for a program whose every token the model reads, and without a keyword (``as``, ``def``
    and the like define names)."""
    try:
        toks = _tokens(program)
    except _InvalidCharacter:
        return True
    except OptionUnknown:
        return False
    if any(kind == "ident" and value in _KEYWORDS for kind, value in toks):
        return False
    stack, enclosing = [], []  # the closers awaited; each token's innermost closer
    for kind, value in toks:
        enclosing.append(stack[-1] if stack else None)
        if kind != "op":
            continue
        if value in _PAIRS:
            stack.append(_PAIRS[value])
        elif value in (")", "]", "}"):
            if not stack or stack.pop() != value:
                return True
    if stack or _misplaced(toks):
        return True
    for n, (kind, value) in enumerate(toks):
        after = toks[n + 1][1] if n + 1 < len(toks) else None
        before = toks[n - 1][1] if n else None
        if kind == "var" and value[1:] not in variables and value not in _PREDEFINED:
            return True
        if kind != "ident" or value in ("true", "false", "null") or after == "(":
            continue
        if after == ":" or before in ("{", ",") and after in (",", "}") and enclosing[n] == "}":
            continue  # an object's key
        if value not in _BUILTINS_0:
            return True
    return False


#: --indent's values (jq 1.6 refuses one past 7; 0 prints on one line, as -c does)
_INDENTS = {"0": None, **{str(n): " " * n for n in range(1, 8)}}
#: the variables jq 1.6 defines itself (measured: any other a program does not bind is a compile error)
_PREDEFINED = ("$ENV", "$__loc__", "$ARGS")


# operators with an operand on each side (`-` may also stand before one alone: `-1`)
_BINARY = frozenset({"=", "|=", "+=", "-=", "*=", "/=", "%=", "//=", "//", "==", "!=", "<", "<=", ">", ">=",
                     "+", "*", "/", "%"})
# neighbouring tokens no jq 1.6 program has (measured; `{a: 1,}` is one, `[1,]` is not); a
# binary operator where an operand must start (`.a | = 1`, `{a: == 1}`), or before anything
# but an operand (`.a = | 1`: the shell took `$v` away)
_NEVER_AFTER = {":": {"}", ",", ":", ")", "]", "|"} | _BINARY, "{": {",", ":"} | _BINARY,
                "[": {",", ":"} | _BINARY, "(": {",", ")", ":"} | _BINARY, ",": {",", "]", ")", ":", "|"} | _BINARY,
                "|": {"|", ",", ")", "]", "}", ":"} | _BINARY,
                **{op: {"|", ",", ")", "]", "}", ":"} | _BINARY for op in _BINARY | {"-"}}}
_VALUE_END = ("num", "str", "var")


def _misplaced(toks: list) -> bool:
    """Whether two tokens stand where jq's grammar never puts them: an operator with nothing
    on one side, two values side by side (``1 2``, ``$a "b"``, ``} {``)."""
    values = [v for _, v in toks]
    if values[:1] and (values[0] in (",", "|", ":", ")", "]", "}") or values[0] in _BINARY):
        return True
    if values[-1:] and (values[-1] in (",", "|", ":", "(", "[", "{", "-") or values[-1] in _BINARY):
        return True
    for (kind, value), (next_kind, next_value) in zip(toks, toks[1:]):
        if kind == "op" and next_value in _NEVER_AFTER.get(value, ()):
            return True
        ends_value = kind in _VALUE_END or value in (")", "]", "}")
        if ends_value and (next_kind in ("num", "str", "var") or next_value == "{"):
            return True
    return False


# characters outside strings (and before any comment) that jq 1.6's lexer reads as none of its
# tokens, INVALID_CHARACTER: a compile error wherever they stand (`'x'`, `C:\\temp`, `a & b`);
# so is a ! not before =
_INVALID = frozenset("\\'`&~^")


class _InvalidCharacter(OptionUnknown):
    """A filter holding a character jq's lexer refuses (_INVALID)."""


def _tokens(program: str) -> list:
    out, i = [], 0
    while True:
        i = _BLANKS.match(program, i).end()
        if i >= len(program):
            return out
        if program[i] == '"':
            end = _string_end(program, i)
            out.append(("str", program[i:end]))
            i = end
            continue
        m = _TOKEN.match(program, i)
        if not m:
            if program[i] in _INVALID or program[i] == "!" and program[i + 1:i + 2] != "=":
                raise _InvalidCharacter(f"jq filter {program!r} (a character jq's lexer refuses)")
            raise OptionUnknown(f"jq filter {program!r} (outside the modelled subset)")
        i = m.end()
        kind = m.lastgroup
        out.append((kind, m.group(kind)))


def _string_end(text: str, i: int) -> int:
    """Where the string that opens at ``text[i]`` ends (past its closing quote): an
    interpolation ``\\(…)`` runs to its matching parenthesis, strings inside it included."""
    i += 1
    while i < len(text):
        c = text[i]
        if c == '"':
            return i + 1
        if c == "\\" and text[i + 1:i + 2] == "(":
            i = _interpolation_end(text, i + 2) + 1
        else:
            i += 2 if c == "\\" else 1
    raise OptionUnknown("jq string that does not end (jq refuses the program)")


def _interpolation_end(text: str, i: int) -> int:
    """The index of the parenthesis that closes an interpolation whose text starts at ``i``."""
    depth = 1
    while i < len(text):
        c = text[i]
        if c == '"':
            i = _string_end(text, i)
            continue
        depth += (c == "(") - (c == ")")
        if not depth:
            return i
        i += 1
    raise OptionUnknown("jq interpolation that does not end (jq refuses the program)")


def _string_parts(token: str) -> list:
    """A string token's text and interpolated filters, in order: str, node, str, …"""
    body, parts, out, i = token[1:-1], [], [], 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        d = body[i + 1]
        if d in _ESCAPES:
            out.append(_ESCAPES[d])
            i += 2
        elif d == "u" and re.fullmatch(r"[0-9A-Fa-f]{4}", body[i + 2:i + 6]):
            code = int(body[i + 2:i + 6], 16)
            if 0xD800 <= code <= 0xDFFF:
                raise OptionUnknown("jq: a surrogate \\u escape")
            out.append(chr(code))
            i += 6
        elif d == "(":
            end = _interpolation_end(body, i + 2)
            parts += ["".join(out), _Parser(body[i + 2:end]).whole()]
            out, i = [], end + 1
        else:  # an escape jq refuses
            raise OptionUnknown(f"jq string {token!r} (an unknown escape)")
    return parts + ["".join(out)]


def _string(token: str) -> str:
    """A string token without interpolation (an object's key, an index)."""
    parts = _string_parts(token)
    if len(parts) > 1:
        raise OptionUnknown("jq: an interpolated string as a key")
    return parts[0]


#: the assignments of the subset (`*=`, `//=` and the others stay outside it)
_ASSIGNMENTS = ("=", "|=", "+=", "-=")


class _Parser:
    """A filter of the subset into nested tuples: ("pipe", a, b), ("comma", a, b), ("dot",),
    ("path", base, key), ("each", base), ("var", name), ("lit", value), ("fmt", parts),
    ("obj", [(key, value)]), ("arr", f), ("set", keys, f), ("update", path, keys, op, f),
    ("+", a, b), ("-", a, b), ("call", builtin)."""

    def __init__(self, program: str):
        self.toks = _tokens(program)
        self.i = 0

    def peek(self, value=None):
        if self.i >= len(self.toks):
            return None
        tok = self.toks[self.i]
        return tok if value is None or tok[1] == value else None

    def take(self, value):
        if not self.peek(value):
            raise OptionUnknown("jq filter the model does not parse (a syntax error, or outside its grammar)")
        self.i += 1

    def whole(self):
        tree = self.pipe()
        if self.i != len(self.toks):
            raise OptionUnknown("jq filter with more than the modelled subset")
        return tree

    def joined(self, op: str, kind: str, operand):
        """``operand`` terms joined by ``op``, to the left."""
        left = operand()
        while self.peek(op):
            self.i += 1
            left = (kind, left, operand())
        return left

    def pipe(self):
        return self.joined("|", "pipe", self.comma)

    def comma(self):
        return self.joined(",", "comma", self.assignment)

    def assignment(self):
        """``PATH = VALUE``, ``PATH |= F``, ``PATH += VALUE`` and ``PATH -= VALUE`` (jq's
        assignments, which bind tighter than `,` and looser than the terms, and do not chain);
        the path is a chain of keys and indexes from ``.``."""
        node = self.additive()
        op = next((op for op in _ASSIGNMENTS if self.peek(op)), None)
        if op is None:
            return node
        self.i += 1
        keys = _path_keys(node)
        if keys is None:
            raise OptionUnknown("jq: an assignment to other than a path of keys and indexes from .")
        if op == "=":
            return ("set", keys, self.additive())
        return ("update", node, keys, op, self.additive())

    def additive(self):
        """Terms joined by ``+`` and ``-``, to the left (tighter than ``=``; ``*`` and the
        comparisons stay outside the subset)."""
        left = self.postfix()
        while self.peek("+") or self.peek("-"):
            op = self.toks[self.i][1]
            self.i += 1
            left = (op, left, self.postfix())
        return left

    def object_value(self):
        # jq's object values: a term, or terms joined by | (a , would end the entry)
        return self.joined("|", "pipe", self.postfix)

    def postfix(self):
        node = self.primary()
        while True:
            tok = self.peek()
            if tok is None:
                return node
            if tok[0] == "field":
                self.i += 1
                node = ("path", node, tok[1][1:])
            elif tok[1] == "." and self.i + 1 < len(self.toks) and self.toks[self.i + 1][0] == "str":
                self.i += 2
                node = ("path", node, _string(self.toks[self.i - 1][1]))
            elif tok[1] == "[":
                self.i += 1
                node = self.index(node)
            else:
                return node

    def index(self, base):
        """``base[…]``, its ``[`` taken: a key, an index (``-1`` from the end) or ``[]``."""
        if self.peek("]"):
            self.i += 1
            return ("each", base)
        sign = -1 if self.peek("-") else 1
        self.i += sign == -1
        kind, value = self.toks[self.i] if self.i < len(self.toks) else (None, None)
        if kind == "num" and re.fullmatch(r"[0-9]+", value):
            key = sign * int(value)
        elif kind == "str" and sign == 1:
            key = _string(value)
        else:
            raise OptionUnknown("jq: an index other than a number or a string (slices, iteration)")
        self.i += 1
        self.take("]")
        return ("path", base, key)

    def primary(self):
        tok = self.peek()
        if tok is None:
            raise OptionUnknown("jq filter the model does not parse (it ends early, or outside its grammar)")
        kind, value = tok
        self.i += 1
        if kind == "field":
            return ("path", ("dot",), value[1:])
        if value == ".":
            nxt = self.peek()
            if nxt and nxt[0] == "str":  # ."key"
                self.i += 1
                return ("path", ("dot",), _string(nxt[1]))
            if nxt and nxt[1] == "[":  # .[0], .["key"], .[]
                self.i += 1
                return self.index(("dot",))
            return ("dot",)
        if kind == "var":
            return ("var", value[1:])
        if kind == "str":
            parts = _string_parts(value)
            return ("lit", parts[0]) if len(parts) == 1 else ("fmt", parts)
        sign = 1
        if value == "-" and self.peek() and self.peek()[0] == "num":  # a negative number
            sign, (kind, value) = -1, self.toks[self.i]
            self.i += 1
        if kind == "num":
            if not re.fullmatch(r"[0-9]+", value) or int(value) >= _EXACT:
                raise OptionUnknown(f"jq number {value} (jq prints it as a double)")
            return ("lit", sign * int(value))
        if kind == "ident" and value in ("true", "false", "null"):
            return ("lit", {"true": True, "false": False, "null": None}[value])
        if kind == "ident" and value in _CALLS and not self.peek("("):
            return ("call", value)
        if value == "(":
            inner = self.pipe()
            self.take(")")
            return inner
        if value == "[":
            if self.peek("]"):
                self.i += 1
                return ("arr", None)
            inner = self.pipe()
            self.take("]")
            return ("arr", inner)
        if value == "{":
            return self.object()
        raise OptionUnknown(f"jq filter: {value!r} (a builtin or an operator outside the modelled subset)")

    def object(self):
        entries = []
        while not self.peek("}"):
            tok = self.peek()
            if tok is None:
                raise OptionUnknown("jq filter jq would refuse (an unclosed object)")
            kind, value = tok
            self.i += 1
            if kind == "var":
                entries.append((value[1:], ("var", value[1:])))
            elif kind in ("ident", "str"):
                if kind == "ident" and value in _KEYWORDS:
                    raise OptionUnknown(f"jq: the keyword {value} as an object key")
                key = value if kind == "ident" else _string(value)
                if self.peek(":"):
                    self.i += 1
                    entries.append((key, self.object_value()))
                else:
                    entries.append((key, ("path", ("dot",), key)))
            else:
                raise OptionUnknown("jq: a computed or unusual object key")
            if self.peek(","):
                self.i += 1
            elif not self.peek("}"):
                raise OptionUnknown("jq filter jq would refuse (an object entry)")
        self.i += 1
        return ("obj", entries)


def _path_keys(node):
    """The keys of a path from ``.`` (``.a.b[0]``), in order; None for any other filter."""
    keys = []
    while node[0] == "path":
        keys.append(node[2])
        node = node[1]
    return keys[::-1] if node == ("dot",) else None


def _set_path(value, keys: list, new):
    """jq's setpath: ``value`` with ``new`` at ``keys``; null becomes the object or array a key
    or index needs, an array grows with nulls up to an index past its end. Any other case
    (a key of a number, a negative index) is jq's error, not followed."""
    if not keys:
        return new
    key, rest = keys[0], keys[1:]
    if isinstance(key, str) and (value is None or isinstance(value, dict)):
        found = dict(value or {})
        found[key] = _set_path(found.get(key), rest, new)
        return found
    if isinstance(key, int) and key >= 0 and (value is None or isinstance(value, list)):
        found = list(value or [])
        found.extend([None] * (key + 1 - len(found)))
        found[key] = _set_path(found[key], rest, new)
        return found
    raise OptionUnknown("jq: a path set where jq fails (a key of a number, a negative index)")


STEP_LIMIT = 200_000  # filter steps, as awk's model bounds its own: `(1,2) | (1,2) | …` doubles
OUTPUT_LIMIT = 1 << 24


def _charge(steps: list, count: int) -> None:
    steps[0] += count
    if steps[0] > STEP_LIMIT:
        raise OptionUnknown(f"jq: more than {STEP_LIMIT} filter steps")


def _is_number(value) -> bool:
    return type(value) is int


def _arith(op: str, a, b):
    """jq's ``a + b`` and ``a - b`` where they do not fail: null added to anything, integers
    (while exact as doubles), strings, arrays and objects (the right's keys win)."""
    if op == "+" and (a is None or b is None):
        return b if a is None else a
    if _is_number(a) and _is_number(b):
        found = a + b if op == "+" else a - b
        if abs(found) >= 2 ** 53:
            raise OptionUnknown("jq: a sum past 2^53 (jq holds numbers as doubles)")
        return found
    if op == "+" and type(a) is type(b) and type(a) in (str, list):
        if len(a) + len(b) > OUTPUT_LIMIT:
            raise OptionUnknown(f"jq: a value of more than {OUTPUT_LIMIT} items")
        return a + b
    if op == "+" and type(a) is dict and type(b) is dict:
        return {**a, **b}
    raise OptionUnknown(f"jq: {op} of a {_type(a)} and a {_type(b)} (jq's error, or arrays taken apart)")


def _type(value) -> str:
    if value is None:
        return "null"
    if value is True or value is False:
        return "boolean"
    return {int: "number", float: "number", str: "string", list: "array", dict: "object"}[type(value)]


def _text(value) -> str:
    """jq's tostring: a string as it is, any other value as compact JSON."""
    return value if isinstance(value, str) else _dump(value, None, False)


def _call(name: str, value) -> list:
    if name == "empty":
        return []
    if name == "not":
        return [value is None or value is False]
    if name == "type":
        return [_type(value)]
    if name == "tostring":
        return [_text(value)]
    if name == "tojson":
        return [_dump(value, None, False)]
    if name == "length" and (value is None or _is_number(value)):
        return [abs(value or 0)]
    if name == "length" and isinstance(value, (str, list, dict)):
        return [len(value)]
    if name == "keys" and isinstance(value, (list, dict)):
        return [sorted(value) if isinstance(value, dict) else list(range(len(value)))]
    raise OptionUnknown(f"jq: {name} of a {_type(value)} (jq's error)")


def _update(node, value, variables, steps: list) -> list:
    """jq 1.6's ``PATH |= F``: the path set to F's first output on what it holds (F with no
    output deletes the path: not followed); ``PATH += V`` and ``-=``: for each output of V on
    ``.``, in turn, the path set to what it holds plus (minus) that output (measured)."""
    _, path, keys, op, f = node
    (old,) = _run(path, value, variables, steps)  # (a path of keys from . has one output)
    if op == "|=":
        found = _run(f, old, variables, steps)
        if not found:
            raise OptionUnknown("jq: |= with no output (jq deletes the path)")
        return [_set_path(value, keys, found[0])]
    return [_set_path(value, keys, _arith(op[0], old, new)) for new in _run(f, value, variables, steps)]


def _run(node, value, variables, steps: list) -> list:
    """The outputs of ``node`` on one input ``value``; ``steps`` counts every node run."""
    steps[0] += 1
    if steps[0] > STEP_LIMIT:
        raise OptionUnknown(f"jq: more than {STEP_LIMIT} filter steps")
    kind = node[0]
    if kind == "dot":
        return [value]
    if kind == "lit":
        return [node[1]]
    if kind == "var":
        if node[1] == "ARGS" and "ARGS" not in variables:
            # the values of --arg and --argjson by name, in the order given; no --args here
            return [{"positional": [], "named": dict(variables)}]
        if node[1] not in variables:  # $ENV, $__loc__ (any other is a compile error, found first)
            raise OptionUnknown(f"jq's predefined ${node[1]}")
        return [variables[node[1]]]
    if kind == "pipe":
        return [out for mid in _run(node[1], value, variables, steps) for out in _run(node[2], mid, variables, steps)]
    if kind == "set":
        return [_set_path(value, node[1], new) for new in _run(node[2], value, variables, steps)]
    if kind == "update":
        return _update(node, value, variables, steps)
    if kind == "comma":
        return _run(node[1], value, variables, steps) + _run(node[2], value, variables, steps)
    if kind in ("+", "-"):
        # jq's order: the right side's outputs outside, the left's inside ((1,2)+(10,20) is 11 12 21 22)
        rights, lefts = _run(node[2], value, variables, steps), _run(node[1], value, variables, steps)
        _charge(steps, len(rights) * len(lefts))
        return [_arith(kind, a, b) for b in rights for a in lefts]
    if kind == "fmt":
        # interpolation, as `+` of strings: the later part's outputs outside
        texts = [""]
        for part in node[1]:
            found = [part] if type(part) is str else [_text(v) for v in _run(part, value, variables, steps)]
            texts = [t + f for f in found for t in texts]
            _charge(steps, len(texts) + sum(map(len, texts)) // 64)
        return texts
    if kind == "call":
        return _call(node[1], value)
    if kind == "each":
        out = []
        for base in _run(node[1], value, variables, steps):
            if not isinstance(base, (list, dict)):
                raise OptionUnknown("jq: .[] on a scalar (jq's error, Cannot iterate over …)")
            out += base if isinstance(base, list) else list(base.values())
        return out
    if kind == "path":
        out = []
        for base in _run(node[1], value, variables, steps):
            key = node[2]
            if base is None:
                out.append(None)
            elif isinstance(key, str) and isinstance(base, dict):
                out.append(base.get(key))
            elif isinstance(key, int) and isinstance(base, list):
                out.append(base[key] if -len(base) <= key < len(base) else None)
            else:
                raise OptionUnknown("jq: an index jq reports as an error (Cannot index …)")
        return out
    if kind == "arr":
        return [[] if node[1] is None else _run(node[1], value, variables, steps)]
    obj = {}
    for key, sub in node[1]:
        found = _run(sub, value, variables, steps)
        if len(found) != 1:
            raise OptionUnknown("jq: an object value with other than one output")
        obj[key] = found[0]
    return [obj]


_DUMP_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _dump_string(text: str) -> str:
    out = ['"']
    for c in text:
        if c in _DUMP_ESCAPES:
            out.append(_DUMP_ESCAPES[c])
        elif c < " " or c == "\x7f":
            out.append("\\u%04x" % ord(c))
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _dump(value, unit, sort: bool, depth: int = 0, left: list = None) -> str:
    """``value`` as jq prints it: on one line when ``unit`` is None, else an item a line,
    indented by ``unit`` (spaces, or a tab) at each depth. ``left`` bounds the characters:
    a value built by sharing (``[., .] | [., .] | …``) is small in memory, not in print."""
    left = [OUTPUT_LIMIT] if left is None else left
    left[0] -= 2 + depth * len(unit or "") + (len(value) if isinstance(value, str) else 0)
    if left[0] < 0:
        raise OptionUnknown(f"jq: more than {OUTPUT_LIMIT} bytes of output")
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        if abs(value) >= _EXACT:
            raise OptionUnknown("jq: a number it prints as a double")
        return str(value)
    if isinstance(value, float):
        raise OptionUnknown("jq: a number with a fraction or exponent (its printing is not modelled)")
    if isinstance(value, str):
        return _dump_string(value)
    if isinstance(value, list):
        items = [_dump(v, unit, sort, depth + 1, left) for v in value]
    else:
        keys = sorted(value) if sort else list(value)
        items = [_dump_string(k) + (":" if unit is None else ": ") + _dump(value[k], unit, sort, depth + 1, left)
                 for k in keys]
    open_, close = ("[", "]") if isinstance(value, list) else ("{", "}")
    if not items:
        return open_ + close
    if unit is None:
        return open_ + ",".join(items) + close
    pad = unit * (depth + 1)
    return open_ + "\n" + ",\n".join(pad + item for item in items) + "\n" + unit * depth + close


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise OptionUnknown("jq: an object with a key twice")
    return dict(pairs)


def _json_values(text: bytes) -> list:
    """The JSON texts of jq's input, one after another; what jq would refuse is unknown."""
    try:
        source = text.decode("utf-8")
    except UnicodeDecodeError:
        raise OptionUnknown("jq input that is not UTF-8") from None
    decoder = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_constant=_refuse_constant)
    values, i = [], 0
    while True:
        while i < len(source) and source[i] in " \t\n\r":
            i += 1
        if i >= len(source):
            return values
        try:
            value, i = decoder.raw_decode(source, i)
        except json.JSONDecodeError as exc:
            if not values and _bareword_at(source, exc.pos):
                # jq's lexer ends the word at a blank, a quote or a bracket, comma or colon (none:
                # at the end of the input), where it finds the word no literal
                end = _LITERAL_END.search(source, exc.pos)
                raise _ParseError(None if end is None else len(source[:end.start()].encode("utf-8"))) from None
            raise OptionUnknown("jq input it cannot parse (its message is not modelled)") from None
        if i < len(source) and source[i] not in " \t\n\r":
            raise OptionUnknown("jq input whose texts are not apart (jq reads 01 as one number)")
        if _has_surrogate(value):
            raise OptionUnknown("jq input with a lone surrogate escape (jq refuses it)")
        values.append(value)


class _ParseError(OptionUnknown):
    """Input jq certainly refuses at its first text: a bare word where a value must be;
    ``at`` the byte of the input where jq finds it so (None: at the end of the input)."""

    def __init__(self, at):
        super().__init__("jq input it cannot parse")
        self.at = at


#: what ends a literal to jq's lexer (jv_parse.c: whitespace, a quote, structure)
_LITERAL_END = re.compile(r'[ \t\r\n"\[,\]{:}]')


def _bareword_at(source: str, pos: int) -> bool:
    """Whether the first text fails at a word of letters JSON has no use for (a quote lost on
    the way: ``{message: hello}``). All before it is plain JSON, which jq reads alike; nan and
    infinity, in any case, jq 1.6 reads by rules of its own, so they leave it open."""
    word = re.match(r"[A-Za-z_]+", source[pos:])
    return word is not None and word.group().lower() not in ("nan", "infinity", "inf", "true", "false", "null")


def _has_surrogate(value) -> bool:
    if isinstance(value, str):
        return any("\ud800" <= c <= "\udfff" for c in value)
    if isinstance(value, list):
        return any(_has_surrogate(v) for v in value)
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    return False


def _refuse_constant(name):
    raise OptionUnknown(f"jq input with {name}")


def _arguments(argv: list):
    """(flags, {name: value}, the filter, the files, the indent unit) as jq 1.6 reads its
    command line: the unit is two spaces, a tab (``--tab``), N spaces (``--indent N``) or
    None for one line (``-c``, ``--indent 0``), the last of these options deciding."""
    flags, variables, words = set(), {}, []
    unit = "  "
    args = argv[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg.startswith("--") and len(arg) > 2:
            name = arg[2:]
            if name in ("arg", "argjson", "rawfile"):
                if i + 1 >= len(args):
                    raise OptionUnknown(f"jq {arg} without its name and value")
                key, text = args[i], args[i + 1]
                i += 2
                if key in variables:
                    raise OptionUnknown(f"jq {arg} {key} twice")
                if name == "arg":
                    variables[key] = text
                elif name == "rawfile":
                    variables[key] = _FileText(text)  # read when jq starts (_jq)
                else:
                    values = _json_values(text.encode("utf-8", "surrogateescape"))
                    if len(values) != 1:
                        raise OptionUnknown("jq --argjson with other than one JSON text")
                    variables[key] = values[0]
                continue
            if name == "tab":
                unit = "\t"
                continue
            if name == "indent":
                if i >= len(args) or args[i] not in _INDENTS:
                    raise OptionUnknown("jq --indent with other than 0 to 7")
                unit = _INDENTS[args[i]]
                i += 1
                continue
            if name not in _LONG_FLAGS:
                raise OptionUnknown(f"jq {arg}")
            flags.add(_LONG_FLAGS[name])
            unit = None if name == "compact-output" else unit
            continue
        if arg[:1] == "-" and arg[1:2].isalpha():  # (`-1`, `-.a`, `- 1`: a program, measured)
            if not all(c in _FLAGS for c in arg[1:]):
                raise OptionUnknown(f"jq {arg}")
            flags.update(arg[1:])
            unit = None if "c" in arg else unit
            continue
        words.append(arg)
    if not words:  # jq 1.6 runs `.` when stdin or stdout is no terminal, as always here
        words = ["."]
    for value in variables.values():
        if type(value) is str and any("\udc80" <= c <= "\udcff" for c in value):
            raise OptionUnknown("jq --arg with bytes that are not UTF-8")
    return flags, variables, words[0], words[1:], unit


class _FileText(str):
    """The name of a file whose text ``--rawfile`` binds."""


def _utf8(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise OptionUnknown(f"jq {what} that is not UTF-8 (jq puts U+FFFD in)") from None


#: the buffer jq 1.6 reads its input into a line at a time (fgets)
_LINE_BUFFER = 4096


def _raw_inputs(data: bytes, slurp: bool) -> list:
    """``-R``: each line of the input a string (a last line without its newline too), or
    with ``-s`` the whole text one string. jq 1.6 reads lines with fgets, and of a last line
    without its newline keeps up to its last byte that is no NUL (one NUL if all are)."""
    last = data[data.rfind(b"\n") + 1:]
    if last.endswith(b"\0"):
        if len(last) >= _LINE_BUFFER:
            raise OptionUnknown("jq -R: a last line of NULs past jq's line buffer")
        data = data[:len(data) - len(last)] + (last.rstrip(b"\0") or b"\0")
    text = _utf8(data, "raw input")
    if slurp:
        return [text]
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines


@guarded
def jq(ctx: CommandContext) -> CommandResult:
    try:
        return _jq(ctx)
    except RecursionError:  # nesting deeper than Python's stack (a program or JSON text)
        raise OptionUnknown("jq: nesting deeper than the model follows") from None


def _jq(ctx: CommandContext) -> CommandResult:
    flags, variables, program, names, unit = _arguments(ctx.argv)
    out = Output("jq")
    if _compile_error(program, variables):
        out.status = 3
        found = out.result()
        found.stderr_unknown = "jq's compile error (its message quotes the program)"
        return found
    tree = _Parser(program).whole()
    for key, value in variables.items():
        if type(value) is _FileText:
            try:
                variables[key] = _utf8(ctx.files.read_bytes(value), "--rawfile text")
            except VfsError:
                raise OptionUnknown("jq --rawfile of a file it cannot read") from None
    if "n" in flags:
        inputs = [None]
    else:
        if "R" in flags and len(names) > 1:
            raise OptionUnknown("jq -R reading more than one file (a line may run on into the next)")
        data = b""
        if not names:
            data = ctx.stdin
        unopened = []  # (where in the input jq would have opened it, its message)
        for name in names:
            if name == "-":
                raise OptionUnknown("jq reading - (stdin among files)")
            try:
                if ctx.files.is_dir(name):
                    raise OptionUnknown("jq reading a directory")
                data += ctx.files.read_bytes(name)
            except VfsError as exc:
                unopened.append((len(data), f"error: Could not open file {name}: {exc.strerror}"))
        try:
            if "R" in flags:
                inputs = _raw_inputs(data, "s" in flags)
            else:
                inputs = [_json_values(data)] if "s" in flags else _json_values(data)
        except _ParseError as exc:
            if "s" in flags:
                raise OptionUnknown("jq -s reading input it cannot parse") from None
            # jq opens each file when it needs more input: those after the byte where it met the
            # error were never opened (measured: `jq . bad.json nope` is 4, `jq . nope bad.json` 2)
            for at, message in unopened:
                if exc.at is None or at <= exc.at:
                    out.error(message, 2)
            out.status = 2 if out.status == 2 else 4  # jq 1.6's status for input it cannot parse (measured)
            found = out.result()
            found.stderr_unknown = "jq's parse error (its message names a line and column)"
            return found
        for _, message in unopened:
            out.error(message, 2)
    raw, sort = "r" in flags or "j" in flags, "S" in flags
    end = b"" if "j" in flags else b"\n"  # -j: raw output, nothing after each result
    status = out.status
    steps = [0]
    for value in inputs:
        # -e: the status the last input leaves (jq 1.6, measured): 4 when it gave no result,
        # 1 when its last result is null or false, else 0; no input at all leaves 0
        last = 4
        for result in _run(tree, value, variables, steps):
            last = 1 if result is None or result is False else 0
            if raw and isinstance(result, str):
                out.out += result.encode("utf-8") + end
            else:
                out.out += _dump(result, unit, sort).encode("utf-8") + end
            if len(out.out) > OUTPUT_LIMIT:
                raise OptionUnknown(f"jq: more than {OUTPUT_LIMIT} bytes of output")
    out.status = last if "e" in flags and status == 0 and inputs else status
    return out.result()
