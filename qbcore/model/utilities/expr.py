"""GNU expr (coreutils 9.1, with GMP: integers of any size) in the C locale: its grammar
(``|``, ``&``, comparisons, ``+ -``, ``* / %``, ``length``, ``substr``, ``index``, ``+ TOKEN``,
parentheses), its value printed on a line, and its status: 0, 1 for a null value (an empty
string, or one of zeros), 2 for its usage and syntax errors, non-integer arguments and a
division by zero.

Not followed: ``:`` and ``match`` (regular expressions), another locale (comparisons,
lengths and quotes in messages change with it), ``--help`` and ``--version``, and the
syntax errors other than a missing or an unexpected argument.
"""

from __future__ import annotations

import re

from .common import OptionUnknown, guarded
from .context import CommandContext, CommandResult

__all__ = ["expr"]

_INTEGER = re.compile(r"-?[0-9]+")
_COMPARE = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, "=": lambda a, b: a == b,
            "==": lambda a, b: a == b, "!=": lambda a, b: a != b, ">=": lambda a, b: a >= b,
            ">": lambda a, b: a > b}
_STEP_LIMIT = 10_000
_DIGIT_LIMIT = 4000  # digits of a value: past them, expr's run time and memory are not followed (and
# Python's own limit on converting integers to and from text is near)
_BIT_LIMIT = 13_000  # (fewer than 4,000 decimal digits)


class _Failure(Exception):
    """expr's own error: its message (after ``expr: ``) and status."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


def _is_integer(value) -> bool:
    return type(value) is int or _INTEGER.fullmatch(value) is not None


def _integer(value) -> int:
    if type(value) is int:
        return value
    if _INTEGER.fullmatch(value) is None:
        raise _Failure("non-integer argument")
    if len(value) > _DIGIT_LIMIT:
        raise OptionUnknown("expr of a number of more digits than the model follows")
    return int(value)


def _bounded(value: int) -> int:
    if value.bit_length() > _BIT_LIMIT:
        raise OptionUnknown("expr of a number of more digits than the model follows")
    return value


def _apply(op: str, a: int, b: int) -> int:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        raise _Failure("division by zero")
    quotient = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)  # C's: toward zero
    return quotient if op == "/" else a - b * quotient


def _null(value) -> bool:
    """expr's null: the integer 0, an empty string, or a string of zeros after one ``-``."""
    if type(value) is int:
        return value == 0
    digits = value[1:] if value[:1] == "-" else value
    return value == "" or digits != "" and set(digits) == {"0"}


def _text(value) -> bytes:
    return (str(value) if type(value) is int else value).encode("utf-8", "surrogateescape")


class _Parser:
    """expr.c's eval … eval7 over the arguments, each call one level of precedence. The side
    of ``|`` or ``&`` that decides nothing is read without being evaluated (``evaluating``
    off): its non-integers and divisions by zero are no errors."""

    def __init__(self, args: list):
        self.args, self.pos, self.steps, self.evaluating = args, 0, 0, True

    def unevaluated_if(self, skip: bool, rule):
        saved = self.evaluating
        self.evaluating = saved and not skip
        try:
            return rule()
        finally:
            self.evaluating = saved

    def next_is(self, word: str) -> bool:
        if self.pos < len(self.args) and self.args[self.pos] == word:
            self.pos += 1
            return True
        return False

    def step(self):
        self.steps += 1
        if self.steps > _STEP_LIMIT:
            raise OptionUnknown("expr with more steps than the model follows")

    def either(self):  # eval: `|`
        left = self.both()
        while self.next_is("|"):
            right = self.unevaluated_if(not _null(left), self.both)
            if _null(left):
                left = right if not _null(right) else 0
        return left

    def both(self):  # eval1: `&`
        left = self.compare()
        while self.next_is("&"):
            right = self.unevaluated_if(_null(left), self.compare)
            if _null(left) or _null(right):
                left = 0
        return left

    def compare(self):  # eval2
        left = self.sum()
        while self.pos < len(self.args) and self.args[self.pos] in _COMPARE:
            op = self.args[self.pos]
            self.pos += 1
            right = self.sum()
            if not self.evaluating:
                left = 0
                continue
            if _is_integer(left) and _is_integer(right):
                a, b = _integer(left), _integer(right)
            else:
                a, b = _text(left), _text(right)  # strcoll in the C locale: the bytes
            left = int(_COMPARE[op](a, b))
        return left

    def sum(self):  # eval3
        return self.arithmetic(("+", "-"), self.product)

    def product(self):  # eval4
        return self.arithmetic(("*", "/", "%"), self.colon)

    def arithmetic(self, ops: tuple, operand):
        """One level of expr's integer operators, left to right, over ``operand``'s level."""
        left = operand()
        while self.pos < len(self.args) and self.args[self.pos] in ops:
            op = self.args[self.pos]
            self.pos += 1
            right = operand()
            left = _bounded(_apply(op, _integer(left), _integer(right))) if self.evaluating else 0
        return left

    def colon(self):  # eval5
        left = self.keyword()
        if self.pos < len(self.args) and self.args[self.pos] == ":":
            raise OptionUnknown("expr : (a regular expression match)")
        return left

    def keyword(self):  # eval6
        self.step()
        if self.next_is("+"):
            return self.token()
        if self.next_is("length"):
            return len(_text(self.keyword()))
        if self.pos < len(self.args) and self.args[self.pos] == "match":
            raise OptionUnknown("expr match (a regular expression match)")
        if self.next_is("substr"):
            text, start, length = _text(self.keyword()), self.keyword(), self.keyword()
            if not (_is_integer(start) and _is_integer(length)):
                return ""
            start, length = _integer(start), _integer(length)
            if start <= 0 or length <= 0 or start > len(text):
                return ""
            return text[start - 1:start - 1 + length].decode("utf-8", "surrogateescape")
        if self.next_is("index"):
            text, chars = _text(self.keyword()), set(_text(self.keyword()))
            return next((n for n, byte in enumerate(text, 1) if byte in chars), 0)
        return self.primary()

    def primary(self):  # eval7
        if self.next_is("("):
            value = self.either()
            if not self.next_is(")"):
                raise OptionUnknown("expr with an unclosed parenthesis (its syntax error)")
            return value
        if self.pos < len(self.args) and self.args[self.pos] == ")":
            raise OptionUnknown("expr with a ) where a value goes (its syntax error)")
        return self.token()

    def token(self):
        if self.pos >= len(self.args):
            raise _Failure(f"syntax error: missing argument after '{self.args[self.pos - 1]}'")
        self.pos += 1
        return self.args[self.pos - 1]


@guarded
def expr(ctx: CommandContext) -> CommandResult:
    args = list(ctx.argv[1:])
    if ctx.env.get("LC_ALL") not in ("C", "POSIX"):
        raise OptionUnknown("expr outside the C locale (its comparisons, lengths and quotes)")
    if args[:1] == ["--"]:
        args = args[1:]
    elif args[:1] in (["--help"], ["--version"]):
        raise OptionUnknown(f"expr {args[0]}")
    if not args:
        return CommandResult(2, b"", b"expr: missing operand\nTry 'expr --help' for more information.\n")
    if any("'" in a or not a.isprintable() for a in args):
        raise OptionUnknown("expr of a word its messages would quote otherwise")
    parser = _Parser(args)
    try:
        value = parser.either()
        if parser.pos < len(args):
            raise _Failure(f"syntax error: unexpected argument '{args[parser.pos]}'")
    except _Failure as failure:
        return CommandResult(failure.status, b"", f"expr: {failure}\n".encode("utf-8", "surrogateescape"))
    return CommandResult(1 if _null(value) else 0, _text(value) + b"\n", b"")
