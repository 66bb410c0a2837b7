"""The fast path of simulate: the outer shell's words for ``"R"`` when R is simple.

Most replies need no general parse to predict what ``bash -c "R"`` hands on:
if reading ``"R"`` meets only double-quoted text, single-quoted text, plain
word characters, backslash escapes and blanks, the outer shell's words follow
from quote removal alone. ``dq_words`` returns those words, or None as soon as
anything else appears (an expansion, a glob, an operator, a newline outside
quotes, a tilde, a brace, an unterminated quote) -- then the general path
decides. The compiled twin ``qbcore.harness._quickpath`` runs the same rules;
it is used exactly when the lexer's engine is the compiled one (one switch:
``qbcore.syntax._engine``), and simulate follows ``engine`` here.
"""

from ..syntax._engine import engine

__all__ = ["dq_words", "dq_words_pure", "shlex_words", "shlex_words_pure", "engine"]

# characters that stay literal outside quotes, in an argument, with no
# expansion behind them ({ } ~ * ? [ start expansions; the rest are operators,
# blanks or quotes)
PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,:%+@=^]")
# after `$` inside double quotes, these make `$` start an expansion
EXPANDS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_{(@*#?!$-[")


def dq_words_pure(reply: str):
    """The words bash makes of ``"`` + reply + ``"`` when no expansion or operator
    is involved (a list of str), else None."""
    text = reply + '"'
    n = len(text)
    words = []
    current = []
    has_word = True  # the opening quote starts a word, even an empty one
    quoted = True
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
                if nxt == "\n":
                    pass  # a line continuation disappears
                elif nxt in '$`"\\':
                    current.append(nxt)
                else:
                    current.append("\\")
                    current.append(nxt)
                i += 1
            elif c == "$":
                if i + 1 < n and (text[i + 1] in EXPANDS or text[i + 1] == "\\"):
                    return None  # (a backslash-newline there would join `$` to what follows)
                current.append(c)
            elif c == "`" or c == "\0":
                return None  # a NUL: no harness can pass it, the general path says so
            else:
                current.append(c)
        elif c == " " or c == "\t":
            if has_word:
                words.append("".join(current))
                current = []
                has_word = False
        elif c == '"':
            quoted = True
            has_word = True
        elif c == "'":
            end = text.find("'", i + 1)
            if end < 0 or "\0" in text[i + 1:end]:
                return None
            current.append(text[i + 1:end])
            has_word = True
            i = end
        elif c == "\\":
            if i + 1 >= n or text[i + 1] == "\n":
                return None
            current.append(text[i + 1])
            has_word = True
            i += 1
        elif c in PLAIN:
            current.append(c)
            has_word = True
        else:
            return None
        i += 1
    if quoted:
        return None  # the harness's closing quote was taken: an unterminated string
    if has_word:
        words.append("".join(current))
    return words


# Python's shlex.split (POSIX mode, comments off) reads these as blanks
SHLEX_BLANKS = frozenset(" \t\r\n")


def shlex_words_pure(reply: str):
    """``shlex.split(reply)`` in one pass, or None where shlex.split raises (an
    unclosed quote, a trailing backslash): the ssh-argv harness's words."""
    words = []
    current = []
    in_word = False  # a word has started (a quote alone starts one, even an empty word)
    n = len(reply)
    i = 0
    while i < n:
        c = reply[i]
        if c in SHLEX_BLANKS:
            if in_word:
                words.append("".join(current))
                current = []
                in_word = False
        elif c == "'":
            end = reply.find("'", i + 1)
            if end < 0:
                return None
            current.append(reply[i + 1:end])
            in_word = True
            i = end
        elif c == '"':
            i += 1
            while True:
                if i >= n:
                    return None
                c = reply[i]
                if c == '"':
                    break
                if c == "\\":
                    if i + 1 >= n:
                        return None
                    nxt = reply[i + 1]
                    if nxt != '"' and nxt != "\\":
                        current.append("\\")  # only the quote and the backslash are escaped inside
                    current.append(nxt)
                    i += 2
                    continue
                current.append(c)
                i += 1
            in_word = True
        elif c == "\\":
            if i + 1 >= n:
                return None
            current.append(reply[i + 1])
            in_word = True
            i += 1
        else:
            current.append(c)
            in_word = True
        i += 1
    if in_word:
        words.append("".join(current))
    return words


if engine == "cython":
    try:
        from ._quickpath import dq_words, shlex_words
    except ImportError as exc:  # setup.py builds both twins or neither
        raise ImportError(f"qbcore: the compiled engine is only partly built ({exc}); rebuild it "
                          "(python3 setup.py build_ext --inplace) or set QBCORE_NO_EXTENSIONS=1") from exc
else:
    dq_words = dq_words_pure
    shlex_words = shlex_words_pure

