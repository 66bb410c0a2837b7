"""test, ``[`` and ``[[ … ]]``: what is decidable (strings, patterns, integers, the files
a view answers for, and the regular expressions that translate exactly)."""

from __future__ import annotations

import re

from .. import expand as X
from ...syntax import parser as S
from ..expand import Opaque
from ..utilities.posixre import GLIBC_LETTERS, Untranslatable, compile_posix
from ..utilities.vfs import join
from ..values import has_opaque
from .registry import Invocation, Outcome, register

#: an integer operand of `-eq` and the like, blanks around it allowed
_INTEGER = re.compile(r"[ \t\n\v\f\r]*[-+]?[0-9]+[ \t\n\v\f\r]*")


# the binary tests of [[ … ]]
_BINARY_TESTS = frozenset(("==", "=", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "=~"))


class Unknown(Exception):
    """The condition's value depends on something not modelled (named)."""


class TestSyntaxError(Exception):
    """test's own syntax error: bash's message (after ``test: `` or ``[: ``), status 2."""


@register("test", "[")
def test(ctx: Invocation) -> Outcome:
    name, args = ctx.name, ctx.args
    if name == "[":
        if not args or args[-1] != "]":
            return Outcome(2, error="[: missing `]'")
        args = args[:-1]
    try:
        value = evaluate_test(args, ctx.env)
    except TestSyntaxError as exc:
        return Outcome(2, error=f"{name}: {exc}")
    except Unknown as unknown:
        return Outcome(Opaque(f"status of {name} {' '.join(args)} ({unknown})"), modelled=False)
    return Outcome(value)


_STRING_BINARY = {"=": lambda a, b: a == b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
                  "<": lambda a, b: a.encode("utf-8", "surrogateescape") < b.encode("utf-8", "surrogateescape"),
                  ">": lambda a, b: a.encode("utf-8", "surrogateescape") > b.encode("utf-8", "surrogateescape")}
_INT_BINARY = {"-eq": lambda a, b: a == b, "-ne": lambda a, b: a != b, "-lt": lambda a, b: a < b,
               "-le": lambda a, b: a <= b, "-gt": lambda a, b: a > b, "-ge": lambda a, b: a >= b}


def evaluate_test(args: list, env) -> int:
    """``test``/``[`` by argument count, as POSIX specifies (bash's expression parser past that)."""
    if has_opaque(args):
        raise Unknown("opaque operand")
    n = len(args)
    if n == 0:
        return 1
    if n == 1:
        return 0 if args[0] else 1
    if n == 2:
        if args[0] == "!":
            return 1 - evaluate_test(args[1:], env)
        if args[0] == "-n":
            return 0 if args[1] else 1
        if args[0] == "-z":
            return 0 if not args[1] else 1
        if len(args[0]) != 2 or args[0][0] != "-" or args[0][1] not in _UNARY_LETTERS:
            raise TestSyntaxError(f"{args[0]}: unary operator expected")
        return 0 if file_test(args[0], args[1], env) else 1
    if n == 3:
        a, op, b = args
        if op in _STRING_BINARY:
            return 0 if _STRING_BINARY[op](a, b) else 1
        if op in _INT_BINARY:
            x, y = _test_int(a), _test_int(b)
            return 0 if _INT_BINARY[op](x, y) else 1
        if op == "-a" or op == "-o":  # binary with three arguments, before `!`
            return 0 if (bool(a) and bool(b) if op == "-a" else bool(a) or bool(b)) else 1
        if op in ("-nt", "-ot", "-ef"):
            raise Unknown(f"test {op}")
        if a == "!":
            return 1 - evaluate_test(args[1:], env)
        if a == "(" and b == ")":
            return evaluate_test([op], env)
        raise TestSyntaxError(f"{op}: binary operator expected")
    if n == 4 and args[0] == "!":
        return 1 - evaluate_test(args[1:], env)
    if n == 4 and args[0] == "(" and args[3] == ")":
        return evaluate_test(args[1:3], env)
    return 0 if _TestExpression(args, env).run() else 1


class _TestExpression:
    """test's parser for more arguments (bash's test.c: expr, or, and, term): ``-o`` below
    ``-a``, ``!`` and parentheses, a binary operator where three arguments are left, then
    a unary one, then a string. A syntax error is bash's message and status 2: unknown."""

    def __init__(self, args: list, env):
        self.args, self.env, self.pos = args, env, 0

    def run(self) -> bool:
        value = self.either()
        if self.pos != len(self.args):
            # (bash's test_command: a word left over that starts with - is named)
            left = self.args[self.pos]
            raise TestSyntaxError(f"syntax error: `{left}' unexpected" if left.startswith("-") else "too many arguments")
        return value

    def either(self) -> bool:
        value = self.both()
        while self.pos < len(self.args) and self.args[self.pos] == "-o":
            self.pos += 1
            right = self.both()
            value = value or right
        return value

    def both(self) -> bool:
        value = self.term()
        while self.pos < len(self.args) and self.args[self.pos] == "-a":
            self.pos += 1
            right = self.term()
            value = value and right
        return value

    def term(self) -> bool:
        args, n = self.args, len(self.args)
        if self.pos >= n:
            raise Unknown("test: argument expected")
        if args[self.pos] == "!":
            negations = 0
            while self.pos < n and args[self.pos] == "!":
                negations += 1
                self.pos += 1
            return self.term() != bool(negations % 2)
        if args[self.pos] == "(":
            self.pos += 1
            value = self.either()
            if self.pos >= n or args[self.pos] != ")":
                raise Unknown("test: `)' expected")
            self.pos += 1
            return value
        if self.pos + 3 <= n and args[self.pos + 1] in _TEST_BINARY:
            left, op, right = args[self.pos], args[self.pos + 1], args[self.pos + 2]
            self.pos += 3
            return evaluate_test([left, op, right], self.env) == 0
        word = args[self.pos]
        if len(word) == 2 and word[0] == "-" and word != "--":
            if word[1] not in _UNARY_LETTERS or self.pos + 1 >= n:
                raise Unknown(f"test {word}: a unary operator bash reads differently")
            operand = args[self.pos + 1]
            self.pos += 2
            return evaluate_test([word, operand], self.env) == 0
        self.pos += 1
        return word != ""


_TEST_BINARY = frozenset("= == != < > -eq -ne -lt -le -gt -ge -nt -ot -ef".split())
_UNARY_LETTERS = frozenset("abcdefghknoprstuvwxzGLNORS")


def file_test(op: str, operand: str, env) -> bool:
    """The unary file test ``op`` on ``operand`` (relative to the working directory), as
    the shell's file view answers it; Unknown when it does not. ``-t`` asks whether the
    descriptor ``operand`` is a terminal, which the file view knows where it knows the run."""
    if op == "-t":
        ask = getattr(env.files, "terminal", None)
        found = None if ask is None else ask(operand)
        if found is None:
            raise Unknown("test -t")
        return found
    if not operand.startswith("/"):
        if not env.cwd_known:
            raise Unknown(f"test {op} (the working directory)")
        operand = join(env.cwd, operand) if operand else ""
    found = env.files.file_test(op, operand) if operand else (False if op in _FILE_TESTS else None)
    if found is None:
        raise Unknown(f"test {op}")
    return found


# the unary file tests (an empty name is none of them)
_FILE_TESTS = frozenset("-a -b -c -d -e -f -g -h -k -p -r -s -u -w -x -G -L -N -O -S".split())


def _test_int(text: str) -> int:
    if not _INTEGER.fullmatch(text):
        raise TestSyntaxError(f"{text}: integer expression expected")
    return int(text)


_EXTGLOB_GROUP = re.compile(r"[?*+@!]\(")
# what bash escapes in a quoted part of the right side of =~, so that it matches itself
_ERE_SPECIAL = re.compile(r"[\\.\[\]()*+?{}|^$]")
_REGEX_SUBJECT_LIMIT = 1 << 16


class CondEval:
    """``[[ … ]]`` for what is decidable: strings, patterns, integers. Files are opaque."""

    def __init__(self, env, items: list):
        self.env = env
        self.items = items
        self.i = 0
        self.skipping = 0  # >0 on a side a short circuit skips: parsed, nothing expanded
        # bash's messages for integer operands its arithmetic refuses: such an operand
        # makes its test false, and the rest of the condition goes on
        self.errors: list = []

    def run(self) -> bool:
        value = self.or_expr()
        if self.i != len(self.items):
            raise Unknown("unsupported expression")
        return value

    def peek_op(self):
        if self.i < len(self.items) and isinstance(self.items[self.i], S.CondOp):
            return self.items[self.i].op
        return None

    def or_expr(self):
        value = self.and_expr()
        while self.peek_op() == "||":
            self.i += 1
            if value:
                self.skip(self.and_expr)
            else:
                value = self.and_expr()
        return value

    def and_expr(self):
        value = self.not_expr()
        while self.peek_op() == "&&":
            self.i += 1
            if value:
                value = self.not_expr()
            else:
                self.skip(self.not_expr)
        return value

    def skip(self, rule):
        """Parse the side a short circuit leaves: bash expands none of its words."""
        self.skipping += 1
        try:
            rule()
        finally:
            self.skipping -= 1

    def not_expr(self):
        if self.peek_op() == "!":
            self.i += 1
            return not self.not_expr()
        if self.peek_op() == "(":
            self.i += 1
            value = self.or_expr()
            if self.peek_op() != ")":
                raise Unknown("unbalanced parentheses")
            self.i += 1
            return value
        return self.primary()

    def word_text(self, word) -> str:
        text = X.expand([word], self.env, X.CASE_WORD)
        if not text.exact:
            raise Unknown(", ".join(text.opaque))
        return text.values[0]

    def regex_match(self, left: str, word) -> bool:
        """``left =~ word``: a search for the extended regular expression (glibc's, in the C
        locale) anywhere in ``left``; BASH_REMATCH holds the match and its groups. glibc reads
        it as grep does: ``\\t`` is ``t``, a backslash in brackets is itself."""
        env = self.env
        env.set("BASH_REMATCH", Opaque("${BASH_REMATCH[@]} (a regular expression match not followed)"))
        pieces, opaque = X.regex_pieces(word, env)
        if opaque:
            raise Unknown(", ".join(opaque))
        regex = "".join(_ERE_SPECIAL.sub(r"\\\g<0>", text) if quoted else text for text, quoted in pieces)
        if not env.locale_is_c and not (left + regex).isascii():
            raise Unknown("a regular expression match outside the C locale")
        if len(left) > _REGEX_SUBJECT_LIMIT:
            raise Unknown("a regular expression match over a long string")
        if "\n" in left and ("^" in regex or "$" in regex):
            # measured: bash's glibc matches `.^` in $'\n' and `a$.` in $'a\nb' (its anchors meet
            # a newline inside the string), which the translator does not follow
            raise Unknown("an anchor of a regular expression over a string with a newline")
        try:
            compiled = compile_posix(regex.encode("utf-8", "surrogateescape"), extended=True, escapes=GLIBC_LETTERS,
                                    plain_backslash=True)
        except Untranslatable as exc:
            raise Unknown(f"the regular expression {regex} ({exc})") from None
        env.meter.scan(len(left))
        found = compiled.search(left.encode("utf-8", "surrogateescape"))
        if found is None:
            env.set("BASH_REMATCH", {})
            return False
        env.set("BASH_REMATCH", {n: (group or b"").decode("utf-8", "surrogateescape")
                                 for n, group in enumerate((found.group(0),) + found.groups())})
        return True

    def raw(self, n):
        item = self.items[n] if n < len(self.items) else None
        if isinstance(item, S.Word) and len(item.parts) == 1 and isinstance(item.parts[0], S.Lit):
            return item.parts[0].text
        if isinstance(item, S.CondOp) and item.op in ("<", ">"):
            return item.op
        return None

    def primary(self):
        items = self.items
        i = self.i
        if i >= len(items) or not isinstance(items[i], S.Word):
            raise Unknown("unsupported expression")
        op = self.raw(i + 1)
        # bash's cond_term: a unary operator before a word is a unary test, whatever that word is
        # (`[[ -f != || b ]]` tests a file named !=); else a binary operator between two words
        unary = self.raw(i)
        unary = unary if unary and len(unary) == 2 and unary[0] == "-" and unary[1] in _UNARY_LETTERS and \
            i + 1 < len(items) and isinstance(items[i + 1], S.Word) else None
        binary = unary is None and op in _BINARY_TESTS and i + 2 < len(items) and isinstance(items[i + 2], S.Word)
        if self.skipping:
            self.i = i + (3 if binary else 2 if unary else 1)
            return False
        if binary:
            right_word = items[i + 2]
            self.i = i + 3
            left = self.word_text(items[i])
            if op in ("==", "=", "!="):
                if any(isinstance(p, S.Lit) and _EXTGLOB_GROUP.search(p.text) for p in right_word.parts):
                    # [[ ]] matches `@(a|b)`, `!(x)`… as extended globs: not modelled
                    raise Unknown("extended glob pattern")
                pattern = X.pattern(right_word, self.env)
                if pattern.opaque:
                    raise Unknown(", ".join(pattern.opaque))
                return pattern.matches(left) == (op != "!=")
            right = self.word_text(right_word)
            if op == "<":
                return left.encode("utf-8", "surrogateescape") < right.encode("utf-8", "surrogateescape")
            if op == ">":
                return left.encode("utf-8", "surrogateescape") > right.encode("utf-8", "surrogateescape")
            if op == "=~":
                return self.regex_match(left, right_word)
            try:
                a = X.arithmetic(left, self.env) if left.strip() else 0
                b = X.arithmetic(right, self.env) if right.strip() else 0
            except X.ArithError as exc:
                self.errors.append(exc.message)
                return False
            if isinstance(a, Opaque) or isinstance(b, Opaque):
                raise Unknown("opaque operand")
            return {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b, "-gt": a > b,
                    "-ge": a >= b}[op]
        if unary in ("-n", "-z"):
            self.i = i + 2
            return bool(self.word_text(items[i + 1])) == (unary == "-n")
        if unary:
            self.i = i + 2
            return file_test(unary, self.word_text(items[i + 1]), self.env)
        self.i = i + 1
        return bool(self.word_text(items[i]))
