"""mawk 1.3.4 (the awk installed here), the subset one-liners use.

Modelled: -F, -v (with awk's escape processing), BEGIN/END, patterns (expressions
and /ERE/), print and printf to stdout, $N (read and assign), NR, NF, FNR, FS,
OFS, ORS, variables, string/number literals and escapes, arithmetic,
comparisons (strnum rules), concatenation, ~ !~, && || !, ?:, if/else, next,
while/do/for loops (within a step budget), break/continue, exit, arrays with
``in`` and delete, ARGV/ARGC (read and changed in BEGIN: the operands are
taken from them), command-line assignment operands, length/substr/index/
tolower/toupper/split/sub/gsub/int/sprintf, ``for (k in a)`` (over several
keys in three orders, as mawk's hash order is not known: output that differs is
lines in no known order, or unknown). Anything else — functions, getline,
redirection, hex strings, regex intervals — is ``unknown``.
"""

from __future__ import annotations

import re

from .common import Output, OptionUnknown, guarded, scan_options
from .context import OTHER_ORDERS, CommandContext, CommandResult, in_order, mark_other_order
from .posixre import Untranslatable, compile_posix
from .vfs import VfsError

__all__ = ["awk"]

# mawk's escapes in strings, -v values and -F (also octal and \x with one or two hex digits);
# any other backslash stays, with the character after it ("\s" is two characters, "\/" too)
_ESC = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "a": "\a", "b": "\b",
        "f": "\f", "r": "\r", "v": "\v"}


def _unescape(text: str) -> str:
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            d = text[i + 1]
            if d in _ESC:
                out.append(_ESC[d])
                i += 2
                continue
            m = re.match(r"[0-7]{1,3}|x[0-9A-Fa-f]{1,2}", text[i + 1:])
            if m:  # mawk keeps the low byte: "\400" is NUL, "\777" is 0xff (measured)
                digits = m.group(0)
                out.append(chr(int(digits[1:], 16) if d == "x" else int(digits, 8) & 0xFF))
                i += 1 + m.end()
                continue
            if d == "\n":
                raise OptionUnknown("awk: a backslash-newline in a string")
            out.append(c + d)
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


class StrNum(str):
    """A string from input (field, -v): compares as a number when it looks like one."""


class Uninit(StrNum):
    """A variable or element never assigned: "" beside a string, 0 beside a number."""


_UNSET = Uninit("")


_LOOKS_NUMERIC = re.compile(r"[ \t\n]*[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?[ \t\n]*\Z")
_NUM_PREFIX = re.compile(r"[ \t\n]*([-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)")


def to_num(v) -> float:
    if isinstance(v, float):
        return v
    if re.match(r"[ \t\n]*[-+]?0[xX]", v) or re.match(r"[ \t\n]*[-+]?(inf|nan)", v, re.I):
        raise OptionUnknown("awk: hex/inf/nan strings (mawk converts them)")
    m = _NUM_PREFIX.match(v)
    return float(m.group(1)) if m else 0.0


def num_str(v: float, fmt: str = "%.6g") -> str:
    if v == int(v) and abs(v) < 2 ** 31:
        return "%d" % v
    return fmt % v


def to_str(v) -> str:
    return num_str(v) if isinstance(v, float) else v


def _is_num(v) -> bool:
    return isinstance(v, float) or isinstance(v, Uninit) or (isinstance(v, StrNum) and _LOOKS_NUMERIC.match(v) is not None)


def _truth(v) -> bool:
    if _is_num(v):
        return to_num(v) != 0
    return v != ""


# -- lexing -----------------------------------------------------------------
_SEMICOLON_NEXT = re.compile(r"[ \t]*;")
_TOKEN = re.compile(r"""
 (?P<ws>[ \t]+|\\\n|\#[^\n]*)
|(?P<nl>\n)
|(?P<num>(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)
|(?P<str>"(?:[^"\\\n]|\\.)*")
|(?P<name>[A-Za-z_][A-Za-z_0-9]*)
|(?P<op>\+\+|--|\+=|-=|\*=|/=|%=|\^=|==|!=|<=|>=|&&|\|\||!~|[-+*/%^<>!~=(){};,$?:\[\]|])
""", re.X)
_KEYWORDS = {"BEGIN", "END", "print", "printf", "if", "else", "next", "while", "for", "do", "break",
             "continue", "exit", "delete", "in"}
_UNSUPPORTED = {"function", "getline", "return", "nextfile", "func", "match", "system", "close",
                "fflush", "srand", "rand", "sin", "cos", "atan2", "exp", "log", "sqrt"}
_BUILTINS = {"length", "substr", "index", "tolower", "toupper", "split", "sub", "gsub", "int", "sprintf"}
# variables mawk fills itself that the model does not (match's results); ENVIRON is the
# environment's values, read as the program asks for them (_Environ)
_UNMODELLED_VARS = {"RSTART", "RLENGTH"}
# iterations of every loop together, and bytes of output, beyond which the run is not followed
STEP_LIMIT = 200_000
OUTPUT_LIMIT = 1 << 24


def _lex(src: str) -> list:
    toks = []
    i = 0
    while i < len(src):
        prev = toks[-1] if toks else ("nl", "")
        regex_ok = prev[0] in ("nl",) or prev[1] in ("(", ",", "{", "}", ";", "!", "~", "!~", "&&",
                                                     "||", "==", "!=", "<", "<=", ">", ">=",
                                                     "print", "printf", "=", "?", ":", "[",
                                                     "+=", "-=", "*=", "/=", "%=", "in")
        if src[i] == "/" and regex_ok:
            j = i + 1
            while j < len(src) and src[j] != "/":
                if src[j] == "\\":
                    j += 1
                if j < len(src) and src[j] == "\n":
                    raise OptionUnknown("awk: newline in a regex")
                j += 1
            if j >= len(src):
                raise OptionUnknown("awk: unterminated regex")
            toks.append(("re", src[i + 1:j]))
            i = j + 1
            continue
        m = _TOKEN.match(src, i)
        if not m:
            # a backslash before blanks and the line's end is a continuation to mawk (followed
            # by anything else on its line, mawk refuses it)
            if (src[i] in _NEVER_IN_A_PROGRAM or src[i] == '"') and not re.match(r"\\[ \t]*(?:\n|\Z)", src[i:]):
                # mawk's lexer refuses it ("unexpected character", "runaway string constant")
                raise Rejected(f"awk: character {src[i]!r} in a program")
            raise OptionUnknown(f"awk: character {src[i]!r} in a program")
        i = m.end()
        kind = m.lastgroup
        text = m.group(0)
        if kind == "ws":
            if text == "\\\n" and _SEMICOLON_NEXT.match(src, i):
                # mawk refuses `}\<newline>;` though it takes `} ;` (measured): what a
                # continuation before a semicolon means to its grammar is not modelled
                raise OptionUnknown("awk: a semicolon after a line continuation")
            continue
        if kind == "name" and text in _UNSUPPORTED:
            raise OptionUnknown(f"awk: {text}")
        if kind == "op" and text in ("|", "^", "^="):
            raise OptionUnknown(f"awk: operator {text}")
        toks.append((kind, text))
    toks.append(("eof", ""))
    return toks


# -- parsing into nested tuples -----------------------------------------------
class Rejected(OptionUnknown):
    """A program mawk refuses before it runs anything; its messages are not spelled."""


# characters that start no token outside strings, regexes and comments
_NEVER_IN_A_PROGRAM = frozenset("\\'`@.&")


class SyntaxFound(OptionUnknown):
    """A syntax error mawk reports too: an operator whose right operand is missing, an item that
    starts with an operator, a block the program ends inside."""

    def __init__(self, near):
        super().__init__(f"awk: syntax error at {near!r}")


# an operator that needs an operand after it, and tokens that can never begin one
_NEEDS_OPERAND = {"=", "+=", "-=", "*=", "/=", "%=", "==", "!=", "<=", ">=", "<", "&&", "||", "+", "-",
                  "*", "%", "~", "!~", "!"}
_NO_OPERAND = {"}", ")", ";", "]", "==", "!=", "<=", ">=", "&&", "||", "*", "%", ","}
# what an expression must follow at once: a list's comma, and print or printf with arguments
# (`print , x`, `printf %s` where the shell took `$1` and the quotes away)
_LISTS_AN_OPERAND = {("op", ","), ("name", "print"), ("name", "printf")}


# operators that only join two operands, after what an operand must follow: `(`, `[`, and the
# start of a statement (mawk: `{ print ( ) }` prints the record, so `)` is not one of them)
_STARTS_NOTHING = {"==", "!=", "<=", ">=", "&&", "||", "*", "%", "~", "!~", ","}
_OPENS_AN_OPERAND = {("op", "("), ("op", "["), ("op", "{"), ("op", ";")}

# statements that end with a newline, a semicolon or the closing brace
_SIMPLE = frozenset({"expr", "print", "printf", "next", "exit", "break", "continue", "delete", "do"})


class _Parser:
    def __init__(self, toks):
        self.toks = toks
        self.i = 0

    def peek(self, k=0):
        return self.toks[self.i + k]

    def take(self, text=None):
        tok = self.toks[self.i]
        if text is not None and tok[1] != text:
            raise OptionUnknown(f"awk: syntax near {tok[1]!r} (expected {text!r})")
        self.i += 1
        return tok

    def skip_nl(self):
        while self.peek()[0] == "nl" or self.peek()[1] == ";":
            self.i += 1

    def program(self):
        items = []
        self.skip_only_nl()
        while self.peek()[0] != "eof":
            if self.peek()[1] == ";":
                raise OptionUnknown("awk: a semicolon where mawk expects an item")
            tok = self.peek()
            if tok[1] in ("BEGIN", "END"):
                self.take()
                if self.peek()[1] != "{":
                    # its action must start on its line (`awk BEGIN`, where the shell split the
                    # program at its blanks; `BEGIN` then a newline): mawk's syntax error
                    raise SyntaxFound(self.peek()[1])
                items.append((tok[1], None, self.block()))
            elif tok[1] == "{":
                items.append(("main", None, self.block()))
            else:
                if tok[0] == "op" and tok[1] in _NEVER_FIRST:
                    raise SyntaxFound(tok[1])  # no pattern starts with it (`} == key`)
                pattern = self.expr()
                if self.peek()[1] == ",":
                    raise OptionUnknown("awk: range patterns")
                body = self.block() if self.peek()[1] == "{" else None
                if body is None and self.peek()[1] != ";" and self.peek()[0] not in ("nl", "eof"):
                    raise OptionUnknown("awk: a pattern followed by neither an action nor a newline")
                items.append(("main", pattern, body))
            if self.peek()[1] == ";":
                self.take()  # one semicolon may end an item
            self.skip_only_nl()
        return items

    def block(self):
        self.take("{")
        stmts = []
        self.skip_nl()
        while self.peek()[1] != "}":
            if self.peek()[0] == "eof":
                raise SyntaxFound("end of file")  # mawk: "missing } near end of file"
            stmts.append(self.statement())
            if stmts[-1][0] in _SIMPLE and self.peek()[1] not in (";", "}") and self.peek()[0] not in ("nl", "eof"):
                raise OptionUnknown(f"awk: {self.peek()[1]!r} after a statement")
            self.skip_nl()
        self.take("}")
        return ("block", stmts)

    def statement(self):
        tok = self.peek()
        if tok[1] == "{":
            return self.block()
        if tok[1] == "if":
            self.take()
            self.take("(")
            cond = self.expr()
            self.take(")")
            self.skip_only_nl()
            then = self.statement()
            save = self.i
            self.skip_nl()
            if self.peek()[1] == "else":
                self.take()
                self.skip_only_nl()
                return ("if", cond, then, self.statement())
            self.i = save
            return ("if", cond, then, None)
        if tok[1] == "next":
            self.take()
            return ("next",)
        if tok[1] == "while":
            self.take()
            cond = self.condition()
            if self.peek()[1] == ";":
                self.take()
                return ("while", cond, ("block", []))
            return ("while", cond, self.statement())
        if tok[1] == "do":
            self.take()
            self.skip_only_nl()
            body = self.statement()
            self.skip_nl()
            self.take("while")
            return ("do", body, self.condition())
        if tok[1] == "for":
            return self.for_statement()
        if tok[1] in ("break", "continue"):
            self.take()
            return (tok[1],)
        if tok[1] == "exit":
            self.take()
            code = None
            if self.peek()[1] not in (";", "}") and self.peek()[0] not in ("nl", "eof"):
                code = self.expr()
            return ("exit", code)
        if tok[1] == "delete":
            self.take()
            name = self.take()
            if name[0] != "name" or name[1] in _KEYWORDS or name[1] in _BUILTINS:
                raise OptionUnknown(f"awk: delete {name[1]!r}")
            if self.peek()[1] == "[":
                return ("delete", name[1], self.subscripts())
            return ("delete", name[1], None)
        if tok[1] in ("print", "printf"):
            self.take()
            args = []
            if self.peek()[1] not in (";", "}", ">", ">>") and self.peek()[0] not in ("nl", "eof"):
                if self.peek()[1] == "(":
                    # print (a, b) or print (a) b: parse as a grouping when it closes the list
                    save = self.i
                    self.take("(")
                    inner = [self.expr(no_gt=False)]
                    while self.peek()[1] == ",":
                        self.take()
                        self.skip_only_nl()
                        inner.append(self.expr(no_gt=False))
                    if self.peek()[1] == ")" and self.peek(1)[1] in (";", "}") or \
                            self.peek()[1] == ")" and self.peek(1)[0] in ("nl", "eof"):
                        self.take(")")
                        args = inner
                    else:
                        self.i = save
                        args = self.expr_list()
                else:
                    args = self.expr_list()
            if self.peek()[1] in (">", ">>", "|"):
                raise OptionUnknown("awk: output redirection")
            if tok[1] == "printf" and not args:
                raise OptionUnknown("awk: printf without a format")
            return (tok[1], args)
        return ("expr", self.expr())

    def condition(self):
        self.take("(")
        cond = self.expr()
        self.take(")")
        self.skip_only_nl()
        return cond

    def for_statement(self):
        self.take("for")
        self.take("(")
        if self.peek()[0] == "name" and self.peek(1)[1] == "in" and self.peek(3)[1] == ")":
            var, _, array = self.take(), self.take(), self.take()
            self.take(")")
            self.skip_only_nl()
            if array[0] != "name" or var[1] in _KEYWORDS or array[1] in _KEYWORDS:
                raise OptionUnknown("awk: for (… in …) over a non-array")
            return ("forin", var[1], array[1], self.statement())
        parts = []
        for end in (";", ";", ")"):
            parts.append(None if self.peek()[1] == end else self.expr())
            self.take(end)
            if end == ";":
                self.skip_only_nl()
        self.skip_only_nl()
        if self.peek()[1] == ";":
            self.take()
            return ("for", parts[0], parts[1], parts[2], ("block", []))
        return ("for", parts[0], parts[1], parts[2], self.statement())

    def subscripts(self):
        self.take("[")
        subs = [self.expr()]
        while self.peek()[1] == ",":
            self.take()
            subs.append(self.expr())
        self.take("]")
        return subs

    def skip_only_nl(self):
        while self.peek()[0] == "nl":
            self.i += 1

    def expr_list(self):
        args = [self.expr(no_gt=True)]
        while self.peek()[1] == ",":
            self.take()
            self.skip_only_nl()
            args.append(self.expr(no_gt=True))
        return args

    def expr(self, no_gt=False):
        return self.assignment(no_gt)

    def assignment(self, no_gt):
        left = self.ternary(no_gt)
        tok = self.peek()
        if tok[1] in ("=", "+=", "-=", "*=", "/=", "%="):
            if left[0] not in ("var", "field", "elem"):
                raise OptionUnknown("awk: assignment to a non-variable")
            self.take()
            return ("assign", tok[1], left, self.assignment(no_gt))
        return left

    def ternary(self, no_gt):
        cond = self.or_(no_gt)
        if self.peek()[1] != "?":
            return cond
        self.take()
        self.skip_only_nl()
        yes = self.assignment(no_gt)
        self.skip_only_nl()
        self.take(":")
        self.skip_only_nl()
        return ("cond", cond, yes, self.assignment(no_gt))

    def or_(self, no_gt):
        left = self.and_(no_gt)
        while self.peek()[1] == "||":
            self.take()
            self.skip_only_nl()
            left = ("or", left, self.and_(no_gt))
        return left

    def and_(self, no_gt):
        left = self.in_(no_gt)
        while self.peek()[1] == "&&":
            self.take()
            self.skip_only_nl()
            left = ("and", left, self.in_(no_gt))
        return left

    def in_(self, no_gt):
        left = self.match(no_gt)
        while self.peek()[1] == "in":
            self.take()
            array = self.take()
            if array[0] != "name" or array[1] in _KEYWORDS or array[1] in _BUILTINS:
                raise OptionUnknown(f"awk: in {array[1]!r}")
            left = ("in", [left], array[1])
        return left

    def match(self, no_gt):
        left = self.compare(no_gt)
        while self.peek()[1] in ("~", "!~"):
            op = self.take()[1]
            left = ("match", op, left, self.compare(no_gt))
        return left

    def compare(self, no_gt):
        left = self.concat(no_gt)
        op = self.peek()[1]
        if op in ("<", "<=", "==", "!=", ">=") or (op == ">" and not no_gt):
            self.take()
            right = self.concat(no_gt)
            if self.peek()[1] in ("<", "<=", "==", "!=", ">=", ">"):
                raise OptionUnknown("awk: chained comparison")
            return ("cmp", op, left, right)
        return left

    def concat(self, no_gt):
        left = self.additive()
        while True:
            tok = self.peek()
            starts = (tok[0] in ("num", "str") or (tok[0] == "name" and tok[1] not in _KEYWORDS)
                      or tok[1] in ("$", "("))
            if starts:
                left = ("concat", left, self.additive())
                continue
            if tok[0] == "re":
                raise OptionUnknown("awk: regex in concatenation")
            return left

    def additive(self):
        left = self.term()
        while self.peek()[1] in ("+", "-"):
            op = self.take()[1]
            left = ("arith", op, left, self.term())
        return left

    def term(self):
        left = self.unary()
        while self.peek()[1] in ("*", "/", "%"):
            op = self.take()[1]
            left = ("arith", op, left, self.unary())
        return left

    def unary(self):
        tok = self.peek()
        if tok[1] == "!":
            self.take()
            return ("not", self.unary())
        if tok[1] in ("-", "+"):
            self.take()
            return ("neg" if tok[1] == "-" else "pos", self.unary())
        return self.postfix()

    def postfix(self):
        tok = self.peek()
        if tok[1] in ("++", "--"):
            self.take()
            target = self.primary()
            if target[0] not in ("var", "field", "elem"):
                raise OptionUnknown("awk: ++/-- on a non-variable")
            return ("preinc", tok[1], target)
        node = self.primary()
        if self.peek()[1] in ("++", "--") and node[0] in ("var", "field", "elem"):
            return ("postinc", self.take()[1], node)
        return node

    def primary(self):
        tok = self.take()
        kind, text = tok
        if kind == "num":
            return ("num", float(text))
        if kind == "str":
            return ("str", _unescape(text[1:-1]))
        if kind == "re":
            return ("re", _regex(text))
        if text == "$":
            index = self.primary_for_field()
            if index[0] == "num" and index[1] != int(index[1]):
                raise OptionUnknown("awk: a fractional field index")  # mawk refuses it as it reads
            return ("field", index)
        if text == "(":
            inner = self.expr()
            if self.peek()[1] == ",":
                raise OptionUnknown("awk: (a, b) grouping")
            self.take(")")
            return ("group", inner)
        if kind == "name" and text in _BUILTINS:
            if text != "length" and self.peek()[1] != "(":
                raise OptionUnknown(f"awk: {text} without its arguments")
            args = []
            if self.peek()[1] == "(":
                self.take("(")
                if self.peek()[1] != ")":
                    args = [self.expr()]
                    while self.peek()[1] == ",":
                        self.take()
                        args.append(self.expr())
                self.take(")")
            if text == "split" and (len(args) < 2 or args[1][0] != "var"):
                # mawk refuses it when it reads the program, before any input: its wording is not modelled
                raise OptionUnknown("awk: split whose second argument is not an array name")
            return ("call", text, args)
        if kind == "name" and text not in _KEYWORDS:
            if text in _UNMODELLED_VARS:
                raise OptionUnknown(f"awk: {text}")
            if self.peek()[1] == "(":
                raise OptionUnknown(f"awk: function call {text}")
            if self.peek()[1] == "[":
                return ("elem", text, self.subscripts())
            return ("var", text)
        before = self.toks[self.i - 2] if self.i >= 2 else ("nl", "")
        if kind == "op" and (text in _NO_OPERAND and (before[0] == "op" and before[1] in _NEEDS_OPERAND or
                                                      before in _LISTS_AN_OPERAND) or
                             text in _STARTS_NOTHING and (before in _OPENS_AN_OPERAND or before[0] == "nl") or
                             text == "]" and before == ("op", "[") or text == "["):
            # (`if ( == "x")`, `{ ~ /re/ }`, `x[]`: the shell took `$1` away; no operand starts with [)
            raise SyntaxFound(text)
        raise OptionUnknown(f"awk: syntax at {text!r}")

    def primary_for_field(self):
        tok = self.peek()
        if tok[1] in ("++", "--", "-", "!"):
            raise OptionUnknown("awk: $ applied to an operator expression")
        return self.primary()


def _regex(text: str):
    if re.search(r"\{", text):
        raise OptionUnknown("awk: braces in a regex (mawk 1.3.4 treats them literally)")
    try:
        return compile_posix(_regex_escapes(text).encode("latin-1"), True, word_anchors=False)
    except (Untranslatable, UnicodeEncodeError) as exc:
        raise OptionUnknown(f"awk regex {text!r}: {exc}") from None


_REGEX_META = set(".[]()*+?{}|^$\\")
_REGEX_ESC = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "b": "\b", "/": "/", '"': '"'}


def _regex_escapes(text: str) -> str:
    """A mawk regex in POSIX ERE spelling: C escapes become their character, a backslash before
    an ordinary character is dropped (mawk has no \\w, \\s, \\< …: they match w, s, <)."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c != "\\" or i + 1 >= len(text):
            out.append(c)
            i += 1
            continue
        d = text[i + 1]
        i += 2
        hexa = re.match(r"[0-9A-Fa-f]{1,2}", text[i:]) if d == "x" else None
        if d in _REGEX_ESC or hexa:
            ch = _REGEX_ESC[d] if d in _REGEX_ESC else chr(int(hexa.group(0), 16))
            if hexa:
                i += hexa.end()
            out.append("\\" + ch if ch in _REGEX_META else ch)
        elif d in "01234567":
            # one to three octal digits, a character taken as it is (measured with mawk 1.3.4:
            # /don\047t/ matches don't, /\056/ no line without a dot, /\044y/ the text $y)
            digits = re.match(r"[0-7]{0,2}", text[i:]).group(0)
            i += len(digits)
            code = int(d + digits, 8)
            if not 0 < code < 256:
                raise OptionUnknown("awk: an octal escape in a regex that is NUL or beyond a byte")
            ch = chr(code)
            out.append("\\" + ch if ch in _REGEX_META else ch)
        elif d in _REGEX_META:
            out.append("\\" + d)
        else:
            out.append(d)
    return "".join(out)


class _Next(Exception):
    pass


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _Exit(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = code


def split_fields(text: str, fs: str) -> list:
    """``text`` cut by the field separator ``fs`` as mawk cuts records (and split() strings)."""
    if fs == " ":
        return re.split(r"[ \t\n]+", text.strip(" \t\n")) if text.strip(" \t\n") else []
    if len(fs) == 1 and fs != "\\":
        return text.split(fs) if text else []
    rx = _regex(fs)
    if rx.groups:
        raise OptionUnknown("awk: FS with groups")
    if rx.search(b"") is not None:
        raise OptionUnknown("awk: a separator that matches the empty string")
    return [p.decode("latin-1") for p in rx.split(text.encode("latin-1"))] if text else []


def _replacement(repl: str):
    """sub/gsub's replacement as pieces: str literal text, None the matched text."""
    pieces, i = [], 0
    while i < len(repl):
        c = repl[i]
        if c == "\\":
            if repl[i + 1:i + 2] != "&":
                raise OptionUnknown("awk: a backslash in a sub/gsub replacement")
            pieces.append("&")
            i += 2
            continue
        pieces.append(None if c == "&" else c)
        i += 1
    return pieces


class _Environ(dict):
    """mawk's ENVIRON: the environment awk started with, each value read from it only when the
    program asks for that name (a cache of runs learns which it read: context.Environ); going
    through all of them, or deleting, reads them all first. A value that is not plain text
    leaves the run unknown."""

    def __init__(self, environ):
        super().__init__()
        self.environ = environ
        self.fetched: set = set()
        self.whole = False

    def _fetch(self, key):
        if self.whole or key in self.fetched:
            return
        self.fetched.add(key)
        if key in self.environ:
            value = self.environ[key]
            if type(value) is not str:
                raise OptionUnknown(f"awk: ENVIRON[{key!r}], a value the model does not know")
            dict.__setitem__(self, key, StrNum(value))

    def _fetch_all(self):
        for name in list(self.environ):
            self._fetch(name)
        self.whole = True

    def setdefault(self, key, default=None):
        self._fetch(key)
        return dict.setdefault(self, key, default)

    def __getitem__(self, key):
        self._fetch(key)
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        self._fetch(key)
        return dict.get(self, key, default)

    def __contains__(self, key):
        self._fetch(key)
        return dict.__contains__(self, key)

    def __setitem__(self, key, value):
        self.fetched.add(key)
        dict.__setitem__(self, key, value)

    def __iter__(self):
        self._fetch_all()
        return dict.__iter__(self)

    def keys(self):
        self._fetch_all()
        return dict.keys(self)

    def __len__(self):
        self._fetch_all()
        return dict.__len__(self)

    def pop(self, key, *default):
        self._fetch(key)
        return dict.pop(self, key, *default)

    def clear(self):
        self._fetch_all()
        dict.clear(self)


class _Machine:
    def __init__(self, env_vars, out, order="name"):
        self.vars = {"FS": " ", "OFS": " ", "ORS": "\n", "NR": 0.0, "FNR": 0.0, "RS": "\n",
                     "SUBSEP": "\x1c", "CONVFMT": "%.6g", "OFMT": "%.6g", "FILENAME": ""}
        self.vars.update(env_vars)
        self.arrays: dict = {}
        self.out = out
        self.record = ""
        self.fields: list = []
        self.steps = 0
        # the order for (k in a) takes: mawk's hash order, which the model does not know, so
        # a run that went through several elements is made again in two other orders
        self.order = order
        self.order_used = False

    def tick(self):
        self.steps += 1
        if self.steps > STEP_LIMIT or len(self.out) > OUTPUT_LIMIT:
            raise OptionUnknown("awk: a loop beyond the evaluation limit")

    def array(self, name) -> dict:
        if name in self.vars or name in ("NF",):
            raise OptionUnknown(f"awk: {name} used as an array and a scalar")
        return self.arrays.setdefault(name, {})

    def key(self, subs) -> str:
        return to_str(self.vars["SUBSEP"]).join(to_str(self.ev(e)) for e in subs)

    # records and fields
    def set_record(self, text: str):
        self.record = StrNum(text)
        self.fields = [StrNum(p) for p in split_fields(text, to_str(self.vars["FS"]))]

    def get_field(self, n: int):
        if n < 0:
            raise OptionUnknown("awk: negative field")
        if n == 0:
            return self.record
        return self.fields[n - 1] if n <= len(self.fields) else StrNum("")

    def set_field(self, n: int, value):
        if n == 0:
            self.set_record(to_str(value))
            return
        while len(self.fields) < n:
            self.fields.append(StrNum(""))
        self.fields[n - 1] = value
        self.record = StrNum(to_str(self.vars["OFS"]).join(to_str(f) for f in self.fields))

    # evaluation
    def ev(self, node):
        kind = node[0]
        if kind == "num":
            return node[1]
        if kind == "str":
            return node[1]
        if kind == "re":
            return 1.0 if node[1].search(self.record.encode("latin-1")) else 0.0
        if kind == "group":
            return self.ev(node[1])
        if kind == "var":
            name = node[1]
            if name == "NF":
                return float(len(self.fields))
            if name in self.arrays:
                raise OptionUnknown(f"awk: array {name} used as a scalar")
            return self.vars.get(name, _UNSET)
        if kind == "elem":
            return self.array(node[1]).setdefault(self.key(node[2]), _UNSET)
        if kind == "in":
            return 1.0 if self.key(node[1]) in self.array(node[2]) else 0.0
        if kind == "cond":
            return self.ev(node[2]) if _truth(self.ev(node[1])) else self.ev(node[3])
        if kind == "field":
            n = to_num(self.ev(node[1]))
            if n != int(n):
                raise OptionUnknown("awk: a fractional field index")
            return self.get_field(int(n))
        if kind == "concat":
            return to_str(self.ev(node[1])) + to_str(self.ev(node[2]))
        if kind == "arith":
            a, b = to_num(self.ev(node[2])), to_num(self.ev(node[3]))
            return _arith(node[1], a, b)
        if kind == "neg":
            return -to_num(self.ev(node[1]))
        if kind == "pos":
            return to_num(self.ev(node[1]))
        if kind == "not":
            return 0.0 if _truth(self.ev(node[1])) else 1.0
        if kind == "and":
            return 1.0 if _truth(self.ev(node[1])) and _truth(self.ev(node[2])) else 0.0
        if kind == "or":
            return 1.0 if _truth(self.ev(node[1])) or _truth(self.ev(node[2])) else 0.0
        if kind == "cmp":
            a, b = self.ev(node[2]), self.ev(node[3])
            if _is_num(a) and _is_num(b):
                x, y = to_num(a), to_num(b)
            else:
                x, y = to_str(a), to_str(b)
            op = node[1]
            res = {"<": x < y, "<=": x <= y, "==": x == y, "!=": x != y, ">": x > y,
                   ">=": x >= y}[op]
            return 1.0 if res else 0.0
        if kind == "match":
            target = to_str(self.ev(node[2]))
            rx = node[3][1] if node[3][0] == "re" else _regex(to_str(self.ev(node[3])))
            hit = rx.search(target.encode("latin-1")) is not None
            return 1.0 if hit == (node[1] == "~") else 0.0
        if kind == "assign":
            op, target = node[1], node[2]
            value = self.ev(node[3])
            if op != "=":
                value = _arith(op[0], to_num(self.ev(target)), to_num(value))
            self.store(target, value)
            return value
        if kind in ("preinc", "postinc"):
            old = to_num(self.ev(node[2]))
            new = old + (1 if node[1] == "++" else -1)
            self.store(node[2], new)
            return new if kind == "preinc" else old
        if kind == "call":
            name, args = node[1], node[2]
            if name == "split":
                return self.split(args)
            if name in ("sub", "gsub"):
                return self.substitute(name == "gsub", args)
            if name == "length" and len(args) == 1 and args[0][0] == "var" and args[0][1] in self.arrays:
                return float(len(self.arrays[args[0][1]]))
            return self.call(name, [self.ev(a) for a in args])
        raise OptionUnknown(f"awk: {kind}")

    def store(self, target, value):
        if target[0] == "field":
            n = to_num(self.ev(target[1]))
            if n != int(n):
                raise OptionUnknown("awk: a fractional field index")
            self.set_field(int(n), value)
            return
        if target[0] == "elem":
            self.array(target[1])[self.key(target[2])] = value
            return
        name = target[1]
        if name in self.arrays:
            raise OptionUnknown(f"awk: array {name} assigned as a scalar")
        if name in ("NF", "RS", "SUBSEP", "CONVFMT", "OFMT", "NR", "FNR"):
            raise OptionUnknown(f"awk: assignment to {name}")
        self.vars[name] = value

    def split(self, args):
        if len(args) not in (2, 3) or args[1][0] != "var":
            raise OptionUnknown("awk: split's arguments")
        text = to_str(self.ev(args[0]))
        if len(args) == 3 and args[2][0] == "re":
            raise OptionUnknown("awk: split by a regex constant")
        fs = to_str(self.ev(args[2])) if len(args) == 3 else to_str(self.vars["FS"])
        parts = split_fields(text, fs)
        array = self.array(args[1][1])
        array.clear()
        for n, part in enumerate(parts, 1):
            array[str(n)] = StrNum(part)
        return float(len(parts))

    def substitute(self, every, args):
        if len(args) not in (2, 3):
            raise OptionUnknown("awk: sub/gsub's arguments")
        target = args[2] if len(args) == 3 else ("field", ("num", 0.0))
        if target[0] not in ("var", "field", "elem"):
            raise OptionUnknown("awk: sub/gsub on a non-variable")
        rx = args[0][1] if args[0][0] == "re" else _regex(to_str(self.ev(args[0])))
        if rx.search(b"") is not None:
            raise OptionUnknown("awk: sub/gsub with a regex that matches the empty string")
        pieces = _replacement(to_str(self.ev(args[1])))
        text = to_str(self.ev(target)).encode("latin-1")
        out, at, count = [], 0, 0
        for m in rx.finditer(text):
            matched = m.group(0).decode("latin-1")
            out.append(text[at:m.start()].decode("latin-1"))
            out.append("".join(matched if p is None else p for p in pieces))
            at, count = m.end(), count + 1
            if not every:
                break
        if count:
            out.append(text[at:].decode("latin-1"))
            self.store(target, "".join(out))
        return float(count)

    def call(self, name, args):
        if name == "length":
            if len(args) > 1:
                raise OptionUnknown("awk: length with more than one argument")
            return float(len(to_str(args[0]) if args else self.record))
        if name in ("tolower", "toupper") and len(args) == 1:
            s = to_str(args[0])
            if any(ord(c) > 127 for c in s):
                raise OptionUnknown("awk: case mapping of non-ASCII")
            return s.lower() if name == "tolower" else s.upper()
        if name == "index" and len(args) == 2:
            return float(to_str(args[0]).find(to_str(args[1])) + 1)
        if name == "substr" and len(args) in (2, 3):
            text = to_str(args[0])
            start = to_num(args[1])
            count = to_num(args[2]) if len(args) == 3 else float(len(text))
            if start != int(start) or count != int(count) or start < 1:
                raise OptionUnknown("awk: substr before the first character or at a fractional position (mawk's rounding)")
            first, last = max(int(start), 1), min(int(start) + int(count) - 1, len(text))
            return text[first - 1:last] if last >= first else ""
        if name == "int" and len(args) == 1:
            return float(int(to_num(args[0])))
        if name == "sprintf" and args:
            return _format(to_str(args[0]), args[1:])
        raise OptionUnknown(f"awk: {name} with {len(args)} arguments")

    def run(self, stmt):
        kind = stmt[0]
        if kind == "block":
            for s in stmt[1]:
                self.run(s)
        elif kind == "expr":
            self.ev(stmt[1])
        elif kind == "if":
            if _truth(self.ev(stmt[1])):
                self.run(stmt[2])
            elif stmt[3] is not None:
                self.run(stmt[3])
        elif kind == "next":
            raise _Next()
        elif kind in ("while", "do", "for"):
            self.loop(stmt)
        elif kind == "forin":
            keys = list(self.array(stmt[2]))  # mawk too goes through the keys it had at the start
            if len(keys) > 1:
                self.order_used = True
                keys = in_order(keys, self.order)
            for key in keys:
                self.tick()
                self.store(("var", stmt[1]), StrNum(key))
                try:
                    self.run(stmt[3])
                except _Continue:
                    continue
                except _Break:
                    break
        elif kind == "break":
            raise _Break()
        elif kind == "continue":
            raise _Continue()
        elif kind == "exit":
            raise _Exit(None if stmt[1] is None else int(to_num(self.ev(stmt[1]))) & 0xFF)
        elif kind == "delete":
            array = self.array(stmt[1])
            if stmt[2] is None:
                array.clear()
            else:
                array.pop(self.key(stmt[2]), None)
        elif kind == "print":
            values = [self.ev(a) for a in stmt[1]] if stmt[1] else [self.record]
            text = to_str(self.vars["OFS"]).join(
                num_str(v, to_str(self.vars["OFMT"])) if isinstance(v, float) else v
                for v in values)
            self.out.extend((text + to_str(self.vars["ORS"])).encode("latin-1"))
        elif kind == "printf":
            values = [self.ev(a) for a in stmt[1]]
            self.out.extend(_format(to_str(values[0]), values[1:]).encode("latin-1"))


    def loop(self, stmt):
        kind = stmt[0]
        if kind == "for" and stmt[1] is not None:
            self.ev(stmt[1])
        cond = {"while": 1, "do": 2, "for": 2}[kind]
        cond, body = stmt[cond], stmt[{"while": 2, "do": 1, "for": 4}[kind]]
        first = kind == "do"
        while first or cond is None or _truth(self.ev(cond)):
            first = False
            self.tick()
            try:
                self.run(body)
            except _Break:
                break
            except _Continue:
                pass
            if kind == "for" and stmt[3] is not None:
                self.ev(stmt[3])


def _arith(op, a, b):
    if op in "/%" and b == 0:
        raise OptionUnknown("awk: division by zero")
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return a / b
    import math
    return math.fmod(a, b)


_FMT = re.compile(r"%([-+ #0]*)(\*|[0-9]*)(?:\.(\*|[0-9]*))?([a-zA-Z%])")


def _format(fmt: str, args: list) -> str:
    out = []
    i = 0
    k = 0

    def nxt():
        nonlocal k
        if k >= len(args):
            raise OptionUnknown("awk: printf with too few arguments")
        k += 1
        return args[k - 1]

    while i < len(fmt):
        c = fmt[i]
        if c != "%":
            out.append(c)
            i += 1
            continue
        m = _FMT.match(fmt, i)
        if not m:
            raise OptionUnknown("awk: printf directive")
        i = m.end()
        flags, width, prec, conv = m.groups()
        if conv == "%":
            out.append("%")
            continue
        if width == "*":
            width = str(int(to_num(nxt())))
        if prec == "*":
            prec = str(int(to_num(nxt())))
        spec = "%" + flags + width + ("." + prec if prec is not None else "")
        v = nxt()
        if conv == "s":
            out.append((spec + "s") % to_str(v))
        elif conv in "di":
            out.append((spec + "d") % int(to_num(v)))
        elif conv in "oxXu":
            n = int(to_num(v))
            if n < 0:
                raise OptionUnknown("awk: printf of a negative number as unsigned")
            out.append((spec + ("d" if conv == "u" else conv)) % n)
        elif conv in "feEgG":
            out.append((spec + conv) % to_num(v))
        elif conv == "c":
            if isinstance(v, float):
                if not 0 <= v < 256:
                    raise OptionUnknown("awk: %c of a large number")
                ch = chr(int(v))
            else:
                ch = v[:1] or "\0"  # mawk prints a NUL for an empty string
            out.append((spec + "s") % ch)
        else:
            raise OptionUnknown(f"awk: printf %{conv}")
    return "".join(out)


def _check_types(items):
    """mawk fixes at parse time whether a name is an array or a scalar; a name used as both is its
    error, which the model does not spell."""
    scalars, arrays = set(), set()

    def visit(node):
        if isinstance(node, list):
            for item in node:
                visit(item)
            return
        if not isinstance(node, tuple) or not node:
            return
        kind = node[0]
        # mawk compiles a string constant used as a regex as it reads the program
        if kind == "call" and node[1] in ("sub", "gsub") and node[2] and node[2][0][0] == "str":
            _regex(node[2][0][1])
        elif kind == "call" and node[1] == "split" and len(node[2]) == 3 and node[2][2][0] == "str":
            if len(node[2][2][1]) > 1:
                _regex(node[2][2][1])
        elif kind == "match" and node[3][0] == "str":
            _regex(node[3][1])
        if kind == "var":
            scalars.add(node[1])
        elif kind in ("elem", "delete"):
            arrays.add(node[1])
        elif kind == "in":
            arrays.add(node[2])
        elif kind == "forin":
            scalars.add(node[1])
            arrays.add(node[2])
        elif kind == "call" and node[1] == "split" and len(node[2]) >= 2 and node[2][1][0] == "var":
            arrays.add(node[2][1][1])
            visit([node[2][0]] + list(node[2][2:]))
            return
        elif kind == "call" and node[1] == "length" and len(node[2]) == 1 and node[2][0][0] == "var":
            # an array's length only once the array was seen (mawk reads the program in order)
            if node[2][0][1] not in arrays:
                scalars.add(node[2][0][1])
            return
        for part in node[1:]:
            visit(part)

    visit(list(items))
    both = (scalars | {"ARGC", "NR", "NF", "FNR", "FS", "OFS", "ORS", "RS", "SUBSEP", "FILENAME"}) & \
        (arrays | {"ARGV"})
    if both:
        raise OptionUnknown(f"awk: {sorted(both)[0]} used as an array and a scalar")


# tokens that can only follow an expression: a program that starts with one is mawk's syntax error
_NEVER_FIRST = {"==", "!=", "<=", ">=", "&&", "||", "*", "%", "]", ",", "=", "~", "!~", "<", ">", "["}
_OPTION_ARGS = ("-F", "-v", "-f")


def _parse(program: str, out: Output):
    """The program's items, or None after mawk's syntax error (status 2) where the model knows it."""
    try:
        toks = _lex(program)
    except Rejected:
        return _refused(out)
    first = next((t for t in toks if t[0] != "nl"), ("eof", ""))
    if first[0] == "op" and first[1] in _NEVER_FIRST:
        return _refused(out)
    try:
        items = _Parser(toks).program()
    except Rejected:
        raise
    except SyntaxFound:
        # which error mawk reports first (an unbalanced brace is "extra '}'") and what follows
        # is not modelled: its name starts the message
        return _refused(out)
    _check_types(items)
    return items


def _refused(out: Output):
    """mawk refused the program: status 2, nothing run; its messages start with its name."""
    out.err += f"{out.name}: ".encode()
    out.status = 2
    out.more_errors = "mawk's messages about the program it refused"
    return None


def _option_lacks_argument(argv) -> str | None:
    """The option mawk reports as missing its argument (the last word, before any program)."""
    for n, arg in enumerate(argv[1:], 1):
        if arg == "--" or not arg.startswith("-") or arg == "-":
            return None
        if arg in _OPTION_ARGS and n == len(argv) - 1:
            return arg
        if arg in _OPTION_ARGS:
            return None if n + 1 >= len(argv) else _option_lacks_argument([argv[0]] + argv[n + 2:])
    return None


_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*=")


@guarded
def awk(ctx: CommandContext) -> CommandResult:
    result, machine = _awk(ctx, "name")
    if machine is not None and machine.order_used:
        # for (k in a) went through several keys: in two other orders, what the program says
        # may be the same, the same lines in another order, or other (then unknown)
        why = "the order for (k in a) takes (mawk's hash order)"
        for order in OTHER_ORDERS:
            again, _ = _awk(ctx, order)
            if again.stderr != result.stderr or again.stderr_unknown != result.stderr_unknown:
                raise OptionUnknown(f"awk: {why}, which changes what it says on stderr")
            mark_other_order(result, again, why)
    return result


def _awk(ctx: CommandContext, order: str):
    """One run of the program, ``for (k in a)`` going through keys in ``order``: (the
    result, the machine that ran it, or None when nothing ran)."""
    out = Output(ctx.argv[0] if ctx.argv[0] in ("awk", "mawk") else "awk")
    lacking = _option_lacks_argument(ctx.argv)
    if lacking is not None:
        out.error(f"option {lacking} lacks argument", 2)
        return out.result(), None
    opts, operands = scan_options(ctx.argv, "", with_arg="Fvf", permute=False)
    assigns = {}
    fs = None
    for o, v in opts:
        if o == "F":
            fs = _unescape(v)  # -F t is the letter t to mawk, not a tab (measured)
        elif o == "v":
            name, eq, value = v.partition("=")
            if not eq or not re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", name):
                raise OptionUnknown(f"awk -v {v!r}")
            assigns[name] = StrNum(_unescape(value))
        else:
            raise OptionUnknown("awk -f")
    if not operands:
        if len(ctx.argv) == 1:
            # mawk's usage, on stderr, and success; the model spells its first line only
            out.err += b"Usage: mawk [Options] [Program] [file ...]\n"
            found = out.result()
            found.stderr_unknown = "the rest of mawk's usage text"
            return found, None
        return out.result(), None  # options and no program: mawk does nothing
    program = operands.pop(0)
    if any(ord(c) > 127 for c in program) or any(
            ord(c) > 127 for a in operands for c in a):
        raise OptionUnknown("awk: non-ASCII program or operand")
    items = _parse(program, out)
    if items is None:
        found = out.result()
        found.stderr_unknown = out.more_errors
        return found, None
    for name in assigns:
        if name in ("NF", "RS", "SUBSEP", "CONVFMT", "OFMT", "NR", "FNR", "ARGV", "ARGC", "ENVIRON") or \
                name in _UNMODELLED_VARS:
            raise OptionUnknown(f"awk -v {name}")
    machine = _Machine(assigns, out.out, order)
    if fs is not None:
        machine.vars["FS"] = fs
    machine.arrays["ARGV"] = {str(n): StrNum(a) for n, a in enumerate([out.name] + operands)}
    machine.arrays["ENVIRON"] = _Environ(ctx.env)
    machine.vars["ARGC"] = float(len(operands) + 1)
    status = None
    try:
        for kind, _, body in items:
            if kind == "BEGIN":
                try:
                    machine.run(body)
                except _Next:
                    raise OptionUnknown("awk: next in BEGIN")
                except (_Break, _Continue):
                    raise OptionUnknown("awk: break or continue outside a loop")
        if any(kind != "BEGIN" for kind, _, _ in items):
            error = _read_operands(ctx, machine, items)
            if error:
                out.error(error, 2)
                return out.result(), machine
    except _Exit as exc:
        status = exc.code
    try:
        for kind, _, body in items:
            if kind == "END":
                try:
                    machine.run(body)
                except _Next:
                    raise OptionUnknown("awk: next in END")
                except (_Break, _Continue):
                    raise OptionUnknown("awk: break or continue outside a loop")
    except _Exit as exc:
        status = exc.code if exc.code is not None else status
    if status:
        out.status = status
    return out.result(), machine


def _read_operands(ctx, machine, items):
    """Run the main items over each input ARGV names when it is reached; an error message, if any."""
    n, read = 1, False
    while n < to_num(machine.vars["ARGC"]) or not read:
        if n >= to_num(machine.vars["ARGC"]):
            name = "-"  # no file operand: standard input
        else:
            name = to_str(machine.arrays["ARGV"].get(str(n), ""))
            n += 1
            if name == "":
                continue
            if _ASSIGNMENT.match(name):
                var, _, value = name.partition("=")
                if var in ("ARGV", "ARGC", "ENVIRON") or var in _UNMODELLED_VARS:
                    raise OptionUnknown(f"awk: command-line assignment to {var}")
                machine.store(("var", var), StrNum(_unescape(value)))
                continue
        read = True
        if name == "-":
            data = ctx.stdin
        else:
            try:
                if ctx.files.is_dir(name):
                    raise OptionUnknown("awk reading a directory")
                data = ctx.files.read_bytes(name)
            except VfsError as exc:
                return f"cannot open {name} ({exc.strerror})"
        if any(b > 127 for b in data) or b"\0" in data:
            raise OptionUnknown("awk: non-ASCII or NUL input")
        if to_str(machine.vars["RS"]) != "\n":
            raise OptionUnknown("awk: RS other than a newline")
        records = data.decode("latin-1").split("\n")
        if records[-1] == "":
            records.pop()
        machine.vars["FNR"] = 0.0
        machine.vars["FILENAME"] = name
        for rec in records:
            machine.vars["NR"] = machine.vars["NR"] + 1
            machine.vars["FNR"] = machine.vars["FNR"] + 1
            machine.set_record(rec)
            try:
                for kind, pattern, body in items:
                    if kind != "main":
                        continue
                    if pattern is not None and not _truth(machine.ev(pattern)):
                        continue
                    if body is None:
                        machine.run(("print", []))
                    else:
                        machine.run(body)
            except _Next:
                continue
            except (_Break, _Continue):
                raise OptionUnknown("awk: break or continue outside a loop")
        if name == "-" and n >= to_num(machine.vars["ARGC"]):
            break
    return None
