"""The outer shell's words for the common shapes of a transport's command, without the parser.

A harness's outer shell mostly reads one simple command whose arguments
hold quotes and parameter expansions of variables it knows at its start
(``$HOME``, ``"${PATH}"``, an unset ``$name``, ``${name:-word}``, a pattern
operator on an empty value). ``words`` reads such arguments as bash does
(quote removal, the known values put in, unquoted ones split only when they
hold no blank and no pattern character, a comment), or names the syntax
error that stops bash's parse first (an unclosed quote, a parenthesis);
``document`` reads a here-document body. Both return None at the first
thing they do not decide exactly (an operator, an unknown value…), and
simulate's general path decides then. A command substitution is read here
when its body is plain enough that the first closing parenthesis (or the
next backquote) ends it as it ends bash's parse; the caller's ``substitute``
runs the body (qbcore.harness.outersubst.OuterSubstitutions): its
``run(body, backquoted)`` gives the value as a piece of a word (a str, or a
marked text standing for an unknown output) or None when the general path
must decide, and its ``join(pieces)`` joins the pieces of a word that holds
such a marked text. The differential tests hold both to that general path.
"""

from __future__ import annotations

import re
from typing import Optional

from ..syntax.lexdef import DECLARATION_BUILTINS
from ..syntax.parser import CLOSERS, RESERVED, decode_ansi_c

try:
    import cython
except ImportError:  # the pure engine does not need Cython: it reads runs with regular expressions
    from types import SimpleNamespace

    cython = SimpleNamespace(compiled=False)

__all__ = ["KnownShell", "words", "document"]

_DIGITS = frozenset("0123456789")


# (as character tests, the compiled build makes each a switch over a C character)
def _name_start(c: str) -> bool:
    return c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"


def _name_char(c: str) -> bool:
    return c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"


def _digit(c: str) -> bool:
    return c in "0123456789"


_NAME_RUN = re.compile(r"[a-zA-Z0-9_]*")


def _name_end(text: str, i: int, n: int) -> int:
    """The end of the run of ``_name_char`` characters at ``text[i]``."""
    if not cython.compiled:
        return _NAME_RUN.match(text, i).end()
    while i < n and _name_char(text[i]):
        i += 1
    return i
# after `$` inside double quotes, these start an expansion
_EXPANDS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_{(@*#?!$-[")
# an unquoted value holding one of these would be split or matched against files
_SPLITS_OR_MATCHES = frozenset(" \t\n*?[\\")
_UNKNOWN = object()
# runs of characters that stand for themselves: inside double quotes, and outside quotes
_QUOTED_RUN = re.compile(r'[^"\\$`\0]+')
_PLAIN_RUN = re.compile(r"[a-zA-Z0-9_\-./,:%+@=^\]!]+")


def _plain(c: str) -> bool:
    """Whether ``c`` is literal outside quotes, in an argument, with no expansion behind
    it (as quickpath.PLAIN, plus `!`: outside the command's first word it is a plain
    character). The compiled build tests a C character, in a switch."""
    return c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,:%+@=^]!"


def _plain_end(text: str, i: int, n: int) -> int:
    """The end of the run of ``_plain`` characters at ``text[i]`` (``_PLAIN_RUN``)."""
    if not cython.compiled:
        return _PLAIN_RUN.match(text, i).end()
    while i < n and _plain(text[i]):
        i += 1
    return i


def _quoted_end(text: str, i: int, n: int) -> int:
    """The end of the run of characters that stand for themselves inside double quotes
    at ``text[i]`` (``_QUOTED_RUN``)."""
    if not cython.compiled:
        return _QUOTED_RUN.match(text, i).end()
    while i < n and text[i] not in '"\\$`\0':
        i += 1
    return i


class KnownShell:
    """What a shell knows at its start, as far as these readings need it: its
    variables (a str, or None when the model holds no string for it; an absent
    name is unset), ``$0`` and the positional parameters; ``variables`` are the
    model's own (``Env.vars``), which arithmetic reads (None: arithmetic is left
    to the general path); ``named`` maps a variable the model holds no string
    for, but an unknown value with a name, to that name (``HOSTNAME`` ->
    ``$HOSTNAME``)."""

    __slots__ = ("values", "arg0", "positional", "variables", "named", "pattern")

    def __init__(self, values: dict, arg0: str, positional: list, variables: Optional[dict] = None,
                 named: Optional[dict] = None):
        self.values = values
        self.arg0 = arg0
        self.positional = positional
        self.variables = variables
        self.named = named or {}
        self.pattern = None  # made when first asked (a copy for a middle shell never is)

    def mentions_named(self, text: str) -> bool:
        """Whether ``text`` holds ``$NAME`` or ``${NAME`` of a value in ``named``."""
        if not self.named:
            return False
        if self.pattern is None:
            self.pattern = re.compile(r"\$\{?(?:" + "|".join(map(re.escape, sorted(self.named))) +
                                      r")(?![A-Za-z0-9_])")
        return self.pattern.search(text) is not None

    @classmethod
    def of(cls, env) -> "Optional[KnownShell]":
        """The shell an Env (``qbcore.model.expand``) stands for, before it runs anything
        (None when ``$0`` or a positional parameter is not a string)."""
        from ..model.expand import DYNAMIC
        from ..model.values import Opaque

        values = {name: var.value if isinstance(var.value, str) else None for name, var in env.vars.items()}
        for name in DYNAMIC + ("LINENO",):
            values[name] = None
        positional = list(env.positional)
        if not isinstance(env.arg0, str) or not all(isinstance(p, str) for p in positional):
            return None
        # the name the model's expansion gives each unknown value ($LINENO is the line's)
        held = {name: env.get(name) for name, value in values.items() if value is None and name != "LINENO"}
        named = {name: value.name for name, value in held.items() if type(value) is Opaque}
        return cls(values, env.arg0, positional, dict(env.vars), named)

    def value(self, name: str):
        """The value of ``$name`` (``""`` when unset), or _UNKNOWN."""
        if name in _DIGITS:
            n = int(name)
            if n == 0:
                return self.arg0
            return self.positional[n - 1] if n <= len(self.positional) else ""
        value = self.values.get(name, "")
        return _UNKNOWN if value is None else value


def _parameter(text: str, i: int, shell: KnownShell):
    """(value, index after it) for the expansion at ``text[i] == "$"``; None when it is
    not a plain ``$name``, ``$digit``, one of the ``${…}`` forms ``_braced`` decides or
    an arithmetic expansion ``_arithmetic`` decides."""
    n = len(text)
    if i + 1 >= n:
        return None
    c = text[i + 1]
    if c == "(":
        return _arithmetic(text, i, shell) if text[i + 2:i + 3] == "(" else None
    if _digit(c):
        name, end = c, i + 2
    elif _name_start(c):
        end = _name_end(text, i + 2, n)
        name = text[i + 1:end]
    elif c == "{":
        return _braced(text, i + 2, shell)
    elif c == "#":
        return str(len(shell.positional)), i + 2
    else:
        return None
    value = shell.value(name)
    if value is _UNKNOWN:
        return None
    return value, end


# the operators of ``${name OP word}`` whose result is empty when the value is
_EMPTY_STAYS_EMPTY = ("%", "#", "/", "^", ",")
# characters the word of ``${name:-word}`` may hold here: none that quotes, expands, splits
# or matches, so that the word stands for itself in any context
_PLAIN_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,:%+@=^!#")
# characters after which bash's reading of a pattern up to the closing brace is not plain
_NOT_PLAIN_PATTERN = frozenset("{}$`\\'\"\n\0")


def _braced(text: str, start: int, shell: KnownShell):
    """(value, index after it) for ``${`` … ``}`` whose body starts at ``text[start]``:
    ``${name}``; ``${#name}``; ``${name-word}``, ``${name:-word}``, ``${name+word}``,
    ``${name:+word}`` with a plain word; a pattern or case operator (``%``, ``##``,
    ``//``, ``^^``…) on an empty or unset value; an element or the count of an array
    that is not set. None for anything else."""
    n = len(text)
    if start >= n:
        return None
    length = text[start] == "#"
    j = start + 1 if length else start
    if j >= n or not _name_start(text[j]):
        return None  # (`${#}`, `${!x}`, `${1}`… are left to the general path)
    end = _name_end(text, j + 1, n)
    name = text[j:end]
    value = shell.values.get(name, "")
    if value is None:
        return None
    is_set = name in shell.values
    if end < n and text[end] == "[":
        # an element, or all of them, of an array the shell has not set: nothing
        close = text.find("]", end)
        subscript = text[end + 1:close] if close > end else ""
        if is_set or not subscript or close + 1 >= n or text[close + 1] != "}":
            return None
        if not (subscript.isdigit() and subscript.isascii()) and not (length and subscript in ("@", "*")):
            return None
        return ("0" if length else ""), close + 2
    if end >= n:
        return None
    c = text[end]
    if c == "}":
        if length:
            return (str(len(value)), end + 1) if value.isascii() else None
        return value, end + 1
    if length:
        return None
    if c == ":":
        end += 1
        if end >= n or text[end] not in "-+":
            return None  # (a substring, or an assignment)
        use = bool(value)
        c = text[end]
    elif c in "-+":
        use = is_set
    elif c in _EMPTY_STAYS_EMPTY:
        close = end + 1
        while close < n and text[close] not in _NOT_PLAIN_PATTERN:
            close += 1
        if value or close >= n or text[close] != "}":
            return None  # (a value to match or convert: the general path)
        return "", close + 1
    else:
        return None
    close = end + 1
    while close < n and text[close] in _PLAIN_WORD:
        close += 1
    if close >= n or text[close] != "}":
        return None
    word = text[end + 1:close]
    if c == "-":
        return (value if use else word), close + 1
    return (word if use else ""), close + 1


# what an expression of ``$((…))`` may hold here: numbers (in any base), names, operators
# and blanks; nothing that quotes, expands or subscripts, so that the text is the expression
_ARITH_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@# \t+-*/%<>=!&|^~?:,")
# operators that assign (``=`` alone, compound ones, increments): the general path follows them
_ASSIGNING = frozenset(("=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|=", "++", "--"))


def _arithmetic(text: str, i: int, shell: KnownShell):
    """(value, index after it) for ``$((…))`` at ``text[i]`` whose expression reads only
    numbers and variables of the shell and assigns nothing, evaluated by the model's
    arithmetic; None for anything else (an error included: the general path words it)."""
    if shell.variables is None:
        return None
    n = len(text)
    j = i + 3
    depth = 0
    while j < n:
        c = text[j]
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                break
            depth -= 1
        elif c not in _ARITH_CHARS:
            return None
        j += 1
    # bash reads `$((` as arithmetic only when its parentheses close with `))`
    if j + 1 >= n or text[j + 1] != ")":
        return None
    value = _Arithmetic.value(text[i + 3:j], shell.variables)
    return None if value is None else (str(value), j + 2)


class _Arithmetic:
    """The model's arithmetic (``qbcore.model.expand``), imported at first use."""

    loaded = False

    @classmethod
    def value(cls, expression: str, variables: dict):
        """The int ``expression`` stands for over ``variables``, or None when it assigns,
        reads something not known, fails, or goes past the default budget."""
        if not cls.loaded:
            from ..model.budget import BudgetExceeded, Meter
            from ..model.expand import Arithmetic, ArithError, Env
            from ..model.files import FileView

            cls.Arithmetic, cls.Env, cls.Meter = Arithmetic, Env, Meter
            cls.failures = (ArithError, BudgetExceeded, RecursionError)
            cls.files = FileView("/", (), host=False)
            cls.loaded = True
        env = cls.Env(cwd="/", files=cls.files, meter=cls.Meter())
        # a copy: a variable's value is read as an expression too, and one may assign
        env.vars = dict(variables)
        opaque: list = []
        try:
            arithmetic = cls.Arithmetic(expression, env, opaque)
            for kind, token, _ in arithmetic.toks:
                if kind == "error" or kind == "pre" or token in _ASSIGNING:
                    return None
            value = arithmetic.run()
        except cls.failures:
            return None
        if env.vars != variables:
            return None  # it changed the shell: later words would see that
        return value if type(value) is int and not opaque else None


# what a substitution's body may hold outside quotes here: words, blanks, and the
# operators of lists, pipelines and redirections; no parenthesis (a subshell, a case
# pattern, a nested substitution), backquote, backslash, comment or line break, so
# that the first `)` outside quotes is the one that closes the substitution
_BODY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                        "_-./,:%+@=^]![{}~*?|&;<> \t")


def _substitution_body(text: str, start: int):
    """(body, index after the closing parenthesis) for ``$(`` whose body starts at
    ``text[start]``, or None unless the body is plain (``_BODY_CHARS``, quotes that
    hold no expansion but a parameter, no here-document)."""
    n = len(text)
    j = start
    while j < n:
        c = text[j]
        if c == ")":
            body = text[start:j]
            return None if "<<" in body else (body, j + 1)
        if c == "'":
            close = text.find("'", j + 1)
            if close < 0:
                return None
            j = close + 1
            continue
        if c == '"':
            j += 1
            while j < n and text[j] != '"':
                c = text[j]
                if c == "\\" or c == "`" or c == "\n" or c == "\0" or \
                        c == "$" and j + 1 < n and text[j + 1] in "([":
                    return None
                j += 1
            if j >= n:
                return None
            j += 1
            continue
        if c == "$":
            if j + 1 < n and text[j + 1] in "(['\"":
                return None  # (a nested expansion, `$'…'`, `$"…"`)
            j += 1
            continue
        if c not in _BODY_CHARS:
            return None
        j += 1
    return None


def _substitution(text: str, i: int, substitute):
    """(piece, index after it) for the command substitution at ``text[i]`` (``$(`` or
    a backquote), or None."""
    if substitute is None:
        return None
    if text[i] == "`":
        close = text.find("`", i + 1)
        if close < 0:
            return None
        body = text[i + 1:close]
        if "\\" in body or "(" in body or "\n" in body or "\0" in body:
            # (bash removes some backslashes first; brace expansion reads a `$(` in
            # backquotes again, by text, in a word that holds a brace)
            return None
        end = close + 1
        backquoted = True
    else:
        found = _substitution_body(text, i + 2)
        if found is None:
            return None
        body, end = found
        backquoted = False
    piece = substitute.run(body, backquoted)
    return None if piece is None else (piece, end)


def _unknown_parameter(text: str, i: int, shell: KnownShell, substitute):
    """(piece, index after it) for a plain ``$NAME`` or ``${NAME}`` at ``text[i]`` of a
    value ``shell`` holds no text for but a name (``shell.named``): the marked piece
    ``substitute`` makes of it, as of an unknown output; None for anything else."""
    n = len(text)
    j = i + 2 if text[i + 1] == "{" else i + 1
    if j >= n or not _name_start(text[j]):
        return None
    end = _name_end(text, j + 1, n)
    name = text[j:end]
    named = shell.named.get(name)
    if named is None:
        return None
    if j == i + 2:
        if end >= n or text[end] != "}":
            return None
        end += 1
    return substitute.unknown(named), end


def _expansion(text: str, i: int, shell: KnownShell, substitute, names: str):
    """(value, index after it) for the expansion at ``text[i]``: a `$` that starts one,
    or a backquote (``names``: the all-positional forms read here); None."""
    if text[i] == "`":
        return _substitution(text, i, substitute)
    expanded = _parameter(text, i, shell) or _all_positional(text, i, shell, names) or \
        _no_keys(text, i, shell, names)
    if expanded is None and substitute is not None:
        if text[i + 1] == "(":
            return _substitution(text, i, substitute)
        return _unknown_parameter(text, i, shell, substitute)
    return expanded


def _ansi_c(text: str, i: int):
    """(value, index after it) for the ``$'…'`` at ``text[i]``, decoded as bash does
    (the parser's own decoding); None when it is not closed, holds a NUL, or may be
    read differently by brace expansion."""
    n = len(text)
    j = i + 2
    while j < n:
        c = text[j]
        if c == "'":
            body = text[i + 2:j]
            if "\0" in body or "\\'" in body and "{" in text:
                # (bash's brace expansion takes a `\'` there as the closing quote, and may
                # then read a `$(` after it: the general path follows that reading)
                return None
            return decode_ansi_c(body), j + 1
        if c == "\\":
            j += 1  # (the escaped character, a quote too, is part of the body)
        j += 1
    return None


_UNCLOSED = "unexpected EOF while looking for matching `"
# after an unquoted `$`, these leave it a character (end of text stands as a blank)
_LONE_DOLLAR = frozenset(" \t./,:%+=^]")


def _unclosed_backquote(text: str, refused: Optional[list]) -> None:
    """A backquote no other one follows: bash's parse reads to the end of the text
    looking for it, and stops there with a syntax error (noted in ``refused``)."""
    if refused is not None and "\0" not in text:
        refused.append(_UNCLOSED + "`")
    return None


def _all_positional(text: str, i: int, shell: KnownShell, names: str):
    """("", index after it) for ``$@``, ``$*``, ``${@}`` or ``${*}`` (those of ``names``)
    when there is no positional parameter, else None."""
    if shell.positional:
        return None
    if text[i + 1:i + 2] in names and text[i + 1:i + 2]:
        return "", i + 2
    if text[i + 1:i + 2] == "{" and text[i + 2:i + 3] in names and text[i + 2:i + 3] and text[i + 3:i + 4] == "}":
        return "", i + 4
    return None


# arrays bash may hold at its start, or makes as it runs, that no environment sets
_SHELL_ARRAYS = ("BASH", "COMP", "FUNCNAME", "PIPESTATUS", "DIRSTACK", "GROUPS", "READLINE")


def _no_keys(text: str, i: int, shell: KnownShell, names: str):
    """("", index after it) for ``${!name[@]}`` or ``${!name[*]}`` (the subscripts of
    ``names``), the keys of an array the shell has not set: none, as ``$@`` without
    positional parameters; else None."""
    if text[i + 1:i + 3] != "{!":
        return None
    n = len(text)
    if i + 3 >= n or not _name_start(text[i + 3]):
        return None
    end = _name_end(text, i + 4, n)
    name = text[i + 3:end]
    if text[end:end + 1] != "[" or text[end + 1:end + 2] not in names or not text[end + 1:end + 2] or \
            text[end + 2:end + 4] != "]}" or name in shell.values or name.startswith(_SHELL_ARRAYS):
        return None
    return "", end + 4


def _brace_stays(text: str, i: int) -> bool:
    """Whether the unquoted ``{`` at ``text[i]`` is a character: bash expands a brace only
    around a comma or a ``..`` in the same word, so none must come before the word ends
    at a blank outside quotes (or the text does)."""
    n = len(text)
    quote = ""
    j = i + 1
    while j < n:
        c = text[j]
        if c == "," or c == "." and text[j + 1:j + 2] == ".":
            return False
        if quote == "'":
            if c == "'":
                quote = ""
        elif c == "\\":
            j += 1
        elif quote == '"':
            if c == '"':
                quote = ""
        elif c == '"' or c == "'":
            quote = c
        elif c == " " or c == "\t" or c == "\n":
            return True
        j += 1
    return True


# a later command's first word that may name a function (the parenthesis after it begins
# a definition) or a program: one bash reads as it stands, no declaration, no assignment
_LATER_NAME = re.compile(r"[A-Za-z0-9_./,:%+@^-]+")
_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# (after these bash reads `name=(…)` as an array, not as a parenthesis)
_DECLARATIONS = frozenset(name.decode() for name in DECLARATION_BUILTINS)
# what follows `name(`: a word bash reads as it stands, which is not the `)` it wants
_FUNCTION_TOKEN = re.compile(r"[ \t]*([A-Za-z0-9_./,:%+@^=-]+)(?:[ \t;&|()<>]|\Z)")


def _command_end(text: str, start: int, i: int, word_end: int) -> int:
    """Where the command that starts at ``start`` and ends before ``i`` ends as bash
    prints it: at its last word, or at an expansion to nothing after it."""
    end = start + len(text[start:i].rstrip(" \t"))
    return end if end > word_end else word_end  # (a word may end in an escaped blank)


def _later_name(name: str) -> bool:
    return _LATER_NAME.fullmatch(name) is not None and name not in _DECLARATIONS


def _reserved(name: str, refused: Optional[list]) -> bool:
    """Whether ``name``, a later command's first word as typed, is a reserved word: one
    that closes a compound command (none is open) is bash's syntax error, noted in
    ``refused``; any other starts grammar the general path reads."""
    if name not in RESERVED:
        return False
    if name in CLOSERS and refused is not None:
        refused.append(f"syntax error near unexpected token `{name}")
    return True


def words(text: str, shell: KnownShell, globbed: Optional[list] = None,
          refused: Optional[list] = None, substitute=None, commands: Optional[list] = None,
          redirects: Optional[list] = None) -> Optional[list]:
    """The words bash makes of ``text``, the arguments of a simple command (not its
    name), read from a word boundary; None unless every part is decided here.

    A word that is a pattern to bash (an unquoted ``*`` or ``?``, or ``[`` with an unquoted
    ``]`` after it in the same path component; from the text, never from
    a value) is matched against files: None, unless ``globbed`` is a list, which
    then receives each such word as it stands (the caller knows that no file can
    be looked at, so the word stays as it is). A ``#`` that starts a word starts a
    comment: the words end there when no other line follows. When bash's parse stops
    at a syntax error that everything before it leaves certain (the text ends inside
    quotes, or a parenthesis stands outside them), and ``refused`` is a list, it
    receives the error as bash words it after ``line N:``. A command substitution is
    read only with a ``substitute``; an unknown output stays one piece of its word,
    as the model's expansion keeps it.

    With ``commands`` a list, the text may go on past the command as a list of
    simple commands joined by ``;``, ``|``, ``&&`` or ``||`` (no ``|&``, and only the
    first command may run in the background): the words returned are the first
    command's, and ``commands`` receives ``(operator, words, source, end, globs)`` for
    each command of the list: ``source`` its text as bash prints it (first word to
    last), ``end`` where that ends in ``text``, ``globs`` the words that hold a
    pattern (left as they stand). The first command comes first, as ``("&", None,
    …)`` when it runs in the background, else ``("", None, …)``; ``words`` is empty for
    a later command whose words all expanded to nothing. A later command that starts
    with an opening parenthesis is a subshell: None.

    With ``redirects`` a list, the first command may redirect its input or output,
    ``<``, ``>`` or ``>>`` (no descriptor) to a word of text: ``redirects`` receives
    ``(operator, target, source)`` for each, in order, ``source`` its text."""
    return _words(text if type(text) is str else str.__str__(text), shell, globbed, refused, substitute,
                  commands, redirects)


def _words(text: str, shell: KnownShell, globbed: Optional[list], refused: Optional[list],
           substitute, commands: Optional[list], redirects: Optional[list]) -> Optional[list]:
    if "\\\n" in text:
        return None  # bash joins the lines before it reads a name or a quote
    n = len(text)
    found = []
    current = []
    has_word = False
    quoted = False
    pattern = False  # the current word is a pattern to bash (unquoted_glob_pattern_p)
    bracket = False  # an unquoted `[` is open in the current word's path component
    marked = False  # the current word holds an unknown output
    first = None  # with ``commands``: the first command's words, once an operator ended it
    later_globs = None  # the words of the later command being read that hold a pattern
    later_name_end = 0  # where the first word of the later command being read ends
    joined = ""  # the operator before the command being read
    start = 0  # where that command's first word starts
    word_end = 0  # where the last word read ends
    redirecting = ""  # the redirection operator whose target word comes next
    redirect_at = 0  # where the text after it starts
    redirect_start = 0  # where it starts
    numbered = False  # the last word read may name a descriptor
    i = 0
    while i < n:
        c = text[i]
        if quoted:
            if c == '"':
                quoted = False
            elif c == "\\":
                if i + 1 >= n:
                    return None
                nxt = text[i + 1]
                if nxt in '$`"\\':
                    current.append(nxt)
                else:
                    current.append("\\")
                    current.append(nxt)
                i += 1
            elif c == "$" or c == "`":
                if c == "`" and text.find("`", i + 1) < 0:
                    return _unclosed_backquote(text, refused)
                nxt = text[i + 1] if i + 1 < n else ""
                if c == "$" and (not nxt or nxt not in _EXPANDS):
                    if nxt == "\\":
                        return None  # a backslash-newline there would join `$` to what follows
                    current.append(c)
                    i += 1
                    continue
                expanded = _expansion(text, i, shell, substitute, "*")
                if expanded is None:
                    return None
                if type(expanded[0]) is not str:
                    marked = True
                current.append(expanded[0])
                i = expanded[1]
                continue
            elif c == "\0":
                return None
            else:
                end = _quoted_end(text, i, n)
                current.append(text[i:end])
                i = end
                continue
        elif c == " " or c == "\t" or (c == ";" or c == "|" or c == "&") and commands is not None or \
                (c == ">" or c == "<") and redirects is not None and first is None:
            if redirecting and not has_word and text[redirect_at:i].strip(" \t"):
                return None  # a target that expanded to nothing: an ambiguous redirect
            if has_word:
                if redirecting and (pattern or marked):
                    return None  # a target to match against files, or an unknown one
                found.append(substitute.join(current) if marked else "".join(current))
                current = []
                has_word = False
                marked = False
                word_end = i
                # a word a `>` or `<` right after it may read as a descriptor (`2>`, `{fd}>`)
                numbered = found[-1].isdigit() or found[-1][-1:] == "}"
                if pattern:
                    (globbed if first is None else later_globs).append(found[-1])
                    pattern = False
                bracket = False
                if redirecting:
                    if not found[-1]:
                        return None  # bash cannot open an empty name
                    redirects.append((redirecting, found.pop(), text[redirect_start:i]))
                    redirecting = ""
                elif first is not None and len(found) == 1:
                    if _reserved(text[start:i], refused):
                        return None
                    later_name_end = i
            if c == ">" or c == "<":
                if redirecting or word_end == i and numbered:
                    return None  # `> >`, or a word that may name the descriptor
                redirect_start = i
                redirecting = ">>" if text[i:i + 2] == ">>" else c
                i += len(redirecting)
                if i < n and (text[i] == "&" or text[i] == "|" or text[i] == "(" or text[i] == ">" or
                              text[i] == "<"):
                    return None  # a descriptor, a clobbering one, a process substitution, a here-document
                redirect_at = i
                continue
            if c != " " and c != "\t":
                if redirecting or redirects:
                    return None  # an operator where the target should stand; or after a redirection
                # an operator ends the command (the caller reads the list: see ``words``)
                operator = text[i:i + 2]
                if operator != "&&" and operator != "||":
                    if c == "&" and (first is not None or operator == "&>") or operator == "|&" or \
                            operator == ";;" or operator == ";&":
                        return None  # a later background job, `|&`, or what only a `case` reads
                    operator = c
                if not found and (first is None or not text[start:i].strip(" \t")):
                    return None  # an operator with no command before it
                end = _command_end(text, start, i, word_end)
                if first is None:
                    first = found
                    # the first command, maybe run in the background
                    commands.append(("&" if operator == "&" else "", None, text[:end], end, []))
                    if operator == "&":
                        operator = ";"
                else:
                    # (a command whose words all expanded to nothing runs with no name)
                    commands.append((joined, found, text[start:end], end, later_globs))
                later_globs = []
                found = []
                joined = operator
                i += len(operator)
                while i < n and (text[i] == " " or text[i] == "\t"):
                    i += 1
                start = i
                if i < n and (text[i] == "(" or text[i] == ")"):
                    if text[i] == ")" and refused is not None:
                        refused.append("syntax error near unexpected token `)")
                    return None  # a subshell, or a parenthesis that closes nothing
                continue
        elif c == '"':
            quoted = True
            has_word = True
        elif c == "'":
            end = text.find("'", i + 1)
            if end < 0:
                if refused is not None and "\0" not in text:
                    refused.append(_UNCLOSED + "'")
                return None
            if "\0" in text[i + 1:end]:
                return None
            current.append(text[i + 1:end])
            has_word = True
            i = end
        elif c == "\\":
            if i + 1 >= n or text[i + 1] == "\n" or text[i + 1] == "\0":
                return None
            current.append(text[i + 1])
            has_word = True
            i += 1
        elif c == "$" or c == "`":
            if c == "`" and text.find("`", i + 1) < 0:
                return _unclosed_backquote(text, refused)
            nxt = text[i + 1] if i + 1 < n else " "
            if c == "$" and nxt in _LONE_DOLLAR:
                current.append(c)  # a `$` that starts no expansion is a character
                has_word = True
                i += 1
                continue
            if c == "$" and nxt == "'":
                quoted_text = _ansi_c(text, i)  # ANSI-C quoting: quoted, like '…'
                if quoted_text is None:
                    return None
                current.append(quoted_text[0])
                has_word = True
                i = quoted_text[1]
                continue
            expanded = _expansion(text, i, shell, substitute, "@*")
            if expanded is None:
                return None
            value, i = expanded
            if type(value) is not str:
                current.append(value)  # an unknown output: one piece, not split
                has_word = True
                marked = True
            elif value:
                for ch in value:
                    if ch in _SPLITS_OR_MATCHES:
                        return None
                current.append(value)
                has_word = True
            continue
        elif _plain(c):
            end = _plain_end(text, i, n)
            current.append(text[i:end])
            has_word = True
            if bracket:
                for ch in text[i:end]:
                    if ch == "/":
                        bracket = False
                    elif ch == "]" and bracket:
                        pattern = True
            i = end
            continue
        elif c == "}" or c == "{" and _brace_stays(text, i):
            # (a closing brace reached here closes no brace that expands)
            current.append(c)
            has_word = True
        elif c == "~" and has_word and _plain(text[i - 1]) and text[i - 1] != "=" and text[i - 1] != ":":
            current.append(c)  # inside a word, and not after `=` or `:`: no tilde expansion
        elif c == "#":
            if has_word or i > 0 and text[i - 1] != " " and text[i - 1] != "\t" and text[i - 1] != ";" and \
                    text[i - 1] != "|" and text[i - 1] != "&" and text[i - 1] != ">" and text[i - 1] != "<":
                # inside a word (`$x#` after an empty value too): no comment starts there
                current.append(c)
                has_word = True
            elif "\n" in text[i:]:
                return None  # a comment ends its line, and a command may follow on the next
            else:
                break
        elif (c == "(" or c == ")") and refused is not None and text[i - 1] != "$":
            # an operator where only words may stand (the command is no declaration; after
            # an escaped `$` the general path reads a command substitution, bash does not)
            count = len(found) + has_word  # the words of the command so far
            if first is None:
                refused.append(f"syntax error near unexpected token `{c}")
            elif count == 1:
                # right after a later command's first word
                name = text[start:i] if has_word else text[start:later_name_end]
                if _reserved(name, refused) or not _later_name(name):
                    return None
                if c == "(":
                    # a function's definition: bash wants `)` next
                    token = _FUNCTION_TOKEN.match(text, i + 1)
                    if token is None:
                        return None
                    refused.append(f"syntax error near unexpected token `{token.group(1)}")
                else:
                    refused.append("syntax error near unexpected token `)")
            elif count > 1 and _later_name(text[start:later_name_end]):
                refused.append(f"syntax error near unexpected token `{c}")  # among its words
            return None
        elif (c == "*" or c == "?" or c == "[") and globbed is not None:
            if c == "[" and first is not None and (
                    "=" in text[start:i] if found else _VARIABLE.fullmatch(text, start, i) is not None):
                return None  # before a later command's name, bash reads `name[` as a subscript
            current.append(c)
            has_word = True
            if c == "[":
                bracket = True  # a pattern once an unquoted `]` follows in the same component
            else:
                pattern = True
        else:
            return None
        i += 1
    if quoted:
        if refused is not None:
            refused.append(_UNCLOSED + '"')
        return None
    if redirecting and not has_word and text[redirect_at:i].strip(" \t"):
        return None
    if has_word:
        if redirecting and (pattern or marked):
            return None
        found.append(substitute.join(current) if marked else "".join(current))
        if first is not None and len(found) == 1 and _reserved(text[start:i], refused):
            return None
        word_end = n
        if pattern:
            (globbed if first is None else later_globs).append(found[-1])
        if redirecting:
            if not found[-1]:
                return None
            redirects.append((redirecting, found.pop(), text[redirect_start:n]))
            redirecting = ""
    if redirecting:
        return None  # no target: bash's syntax error
    if first is None:
        return found
    if found or text[start:i].strip(" \t"):
        end = _command_end(text, start, i, word_end)
        commands.append((joined, found, text[start:end], end, later_globs))  # (found empty: no name)
    elif joined != ";":
        return None  # `&&`, `||` or `|` with nothing after it: bash's syntax error
    elif len(commands) == 1 and not commands[0][0]:
        commands.pop()  # a lone command ended by `;`
    return first


def document(text: str, shell: KnownShell, substitute=None, unexpandable: Optional[list] = None) -> Optional[str]:
    """A here-document body with an unquoted delimiter as bash expands it (parameters,
    command substitutions with a ``substitute``, and backslashes before ``$ ` \\``);
    None unless decided here (a line continuation included).

    A backquote no other one follows leaves the body one bash cannot expand: when
    ``unexpandable`` is a list, its index is put there (the substitutions before it
    have run) and None is returned."""
    return _document(text if type(text) is str else str.__str__(text), shell, substitute, unexpandable)


def _document(text: str, shell: KnownShell, substitute, unexpandable: Optional[list]) -> Optional[str]:
    if "\\\n" in text:
        return None  # bash joins the lines before it reads a name
    n = len(text)
    out = []
    marked = False  # the body holds an unknown output
    i = 0
    start = 0
    while i < n:
        c = text[i]
        if c == "\\":
            if i + 1 >= n:
                return None
            nxt = text[i + 1]
            out.append(text[start:i])
            if nxt in "$`\\":
                out.append(nxt)
            else:
                out.append("\\")
                out.append(nxt)
            i += 2
            start = i
            continue
        if c == "$" or c == "`":
            nxt = text[i + 1] if i + 1 < n else ""
            if c == "$" and (not nxt or nxt not in _EXPANDS):
                if nxt == "\\":
                    return None
                i += 1
                continue
            if c == "`" and unexpandable is not None and text.find("`", i + 1) < 0:
                unexpandable.append(i)  # (the lexer keeps it as text, and bash fails there)
                return None
            expanded = _expansion(text, i, shell, substitute, "@*")
            if expanded is None:
                return None
            out.append(text[start:i])
            out.append(expanded[0])
            marked = marked or type(expanded[0]) is not str
            i = start = expanded[1]
            continue
        elif c == "\0":
            return None
        i += 1
    out.append(text[start:])
    return substitute.join(out) if marked else "".join(out)
