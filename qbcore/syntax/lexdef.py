"""The one declarative table of lexer modes, and the closed set of token kinds.

Both engines (``_purequote`` in Python, ``_fastquote`` compiled) import this
module and interpret the same rules, so they cannot drift: a mode is a list of
rules, a rule is a short sequence of byte classes plus an action, and the
actions are a small closed set that both engines implement.
"""

from .errors import ShellSyntaxError

# ---------------------------------------------------------------- token kinds
# The order fixes the integer ids used inside the engines; the strings are the
# public names (docs/tokens.md).
KINDS = (
    "lit", "escape", "line-cont", "sq", "ansi-sq",
    "dq-open", "dq-close", "locale-open", "dq-lit", "dq-escape",
    "var", "param-open", "param-close", "param-lit",
    "cmdsub-open", "cmdsub-close",
    "backtick-open", "backtick-body", "backtick-close",
    "arith-open", "arith-close", "arith-lit",
    "procsub-open", "procsub-close",
    "newline", "comment", "op", "(", ")", "redir", "heredoc-op",
    "heredoc-body", "doc-lit", "doc-escape", "heredoc-end",
    "reserved", "assign", "arith-cmd-open", "arith-cmd-close", "cond-op",
)
KIND_ID = {name: i for i, name in enumerate(KINDS)}
K = type("K", (), {name.replace("-", "_").replace("(", "LPAREN").replace(")", "RPAREN").upper(): i
                   for i, name in enumerate(KINDS)})

# Adjacent tokens of these kinds merge into one (a lone `$` followed by text
# is one `lit`, `\q` inside double quotes is one `dq-lit` with its neighbours).
MERGING_KINDS = frozenset((K.LIT, K.DQ_LIT, K.PARAM_LIT, K.ARITH_LIT, K.DOC_LIT))

# ---------------------------------------------------------------- byte classes
def _cls(chars):
    return frozenset(chars.encode("latin-1") if isinstance(chars, str) else chars)


ANY = frozenset(range(256))
BLANK = _cls(" \t")
# bash's metacharacters: they end a word in command context
META = _cls(" \t\n;&|()<>")
NAME_START = _cls("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
NAME_CHAR = NAME_START | _cls("0123456789")
DIGIT = _cls("0123456789")
# $@ $* $# $? $- $$ $! and $0..$9 (one digit: $10 is $1 then 0)
SPECIAL_PARAM = _cls("@*#?-$!0123456789")
DQ_ESCAPABLE = _cls("$`\"\\")
DOC_ESCAPABLE = _cls("$`\\")
# a word made only of these can be a reserved word (no quoting, no expansion)
PLAIN_WORD = ANY - META - _cls("'\"\\`$")
# characters that turn a following `(` into an extended-glob group in [[ ]]
EXTGLOB_PREFIX = _cls("?*+@!")

# ---------------------------------------------------------------- modes
# Dispatch modes.  Command contexts (top level, $(…), <(…), case, [[ ]],
# array assignment) dispatch in CMD_START between words and CMD_WORD inside
# one; [[ ]] uses COND_START between words.
MODES = ("CMD_START", "CMD_WORD", "COND_START", "DQ", "PARAM", "ARITH", "DOC", "EXTPAT", "BRACKET", "SUBSCRIPT")
M = type("M", (), {name: i for i, name in enumerate(MODES)})

# ---------------------------------------------------------------- actions
ACTIONS = (
    "EMIT",          # emit KIND over the matched bytes
    "ESCAPE",        # emit KIND over `\` and the whole (UTF-8) character after it
    "VAR_NAME",      # emit KIND over `$` and the longest name after it
    "SQ",            # '…' up to the next quote
    "ANSI",          # $'…' with backslash escapes
    "BACKTICK",      # `…` kept raw: open, body, close
    "PUSH",          # emit KIND, push frame ARG
    "POP",           # emit KIND, pop the frame
    "ARITH_OPEN",    # $(( : arithmetic, or $( ( when the parens do not pair as ))
    "ARITH_BRACKET", # $[
    "CMDSUB",        # $( : a nested command context
    "PROCSUB",       # <( >( : a nested command context
    "PAREN_IN",      # ( inside ${…}/arithmetic/extglob: nesting depth
    "PAREN_OUT",     # ) inside ${…}/arithmetic/extglob: depth, or the close
    "BRACKET_IN",    # [ inside $[…] or a subscript: nesting depth
    "BRACKET_OUT",   # ] inside $[…] or a subscript: depth, or the close
    "BLANKS",        # spaces and tabs between words: no token
    "NEWLINE",       # newline token, then pending here-document bodies
    "COMMENT",       # # to the end of the line
    "OPERATOR",      # a control operator or redirection (KIND says which)
    "WORD_BEGIN",    # reserved words, assignments, fd prefixes, then the word
    "WORD_END",      # a metacharacter ends the word (or opens an extglob group)
    "COND_OP",       # an operator inside [[ ]]
)
A = type("A", (), {name: i for i, name in enumerate(ACTIONS)})

# Frame types on the explicit stack.
FRAMES = ("TOP", "CMDSUB", "PROCSUB", "CASE", "COND", "ARRAY",
          "DQ", "PARAM", "ARITH", "DOC", "EXTPAT", "SUBSCRIPT")
F = type("F", (), {name: i for i, name in enumerate(FRAMES)})
COMMAND_FRAMES = frozenset((F.TOP, F.CMDSUB, F.PROCSUB, F.CASE, F.COND, F.ARRAY))


def _lit(text):
    return tuple(_cls(ch) for ch in text)


# Rules shared by every mode in which `$` and backticks expand.
_DOLLAR = [
    (_lit("$(("), A.ARITH_OPEN, K.ARITH_OPEN, 0),
    (_lit("$("), A.CMDSUB, K.CMDSUB_OPEN, 0),
    (_lit("${"), A.PUSH, K.PARAM_OPEN, F.PARAM),
    (_lit("$["), A.ARITH_BRACKET, K.ARITH_OPEN, 0),
    ((_cls("$"), NAME_START), A.VAR_NAME, K.VAR, 0),
    ((_cls("$"), SPECIAL_PARAM), A.EMIT, K.VAR, 0),
    (_lit("`"), A.BACKTICK, K.BACKTICK_OPEN, 0),
]
# Quotes that open inside words, ${…}, arithmetic and extglob groups.
_QUOTES = [
    (_lit("'"), A.SQ, K.SQ, 0),
    (_lit('"'), A.PUSH, K.DQ_OPEN, F.DQ),
    (_lit("$'"), A.ANSI, K.ANSI_SQ, 0),
    (_lit('$"'), A.PUSH, K.LOCALE_OPEN, F.DQ),
]
# `$[…]` is read by its brackets (bash's parse_matched_pair): `${` opens nothing there
_DOLLAR_IN_BRACKETS = [rule for rule in _DOLLAR if rule[0] != _lit("${")]
_LINE_CONT = [(_lit("\\\n"), A.EMIT, K.LINE_CONT, 0)]
_ESCAPE = [((_cls("\\"), ANY), A.ESCAPE, K.ESCAPE, 0)]

# Operators of the command context, longest first within a first byte.
# (KIND, text): `(`/`)` are their own kinds, redirections and here-doc
# operators are distinguished because the next word has a role.
OPERATORS = [
    (K.OP, ";;&"), (K.OP, ";;"), (K.OP, ";&"), (K.OP, ";"),
    (K.OP, "&&"), (K.REDIR, "&>>"), (K.REDIR, "&>"), (K.OP, "&"),
    (K.OP, "||"), (K.OP, "|&"), (K.OP, "|"),
    (K.REDIR, "<<<"), (K.HEREDOC_OP, "<<-"), (K.HEREDOC_OP, "<<"),
    (K.REDIR, "<>"), (K.REDIR, "<&"), (K.REDIR, "<"),
    (K.REDIR, ">>"), (K.REDIR, ">|"), (K.REDIR, ">&"), (K.REDIR, ">"),
    (K.LPAREN, "("), (K.RPAREN, ")"),
]
# Operators that may carry an fd prefix (`2>&`, `{fd}<`).
REDIRECTIONS = [(kind, text) for kind, text in OPERATORS if kind in (K.REDIR, K.HEREDOC_OP)
                and not text.startswith("&")]

RULES = {
    M.CMD_START: _LINE_CONT + [
        (_lit("<("), A.WORD_BEGIN, 0, 0),
        (_lit(">("), A.WORD_BEGIN, 0, 0),
        ((BLANK,), A.BLANKS, 0, 0),
        (_lit("\n"), A.NEWLINE, K.NEWLINE, 0),
        (_lit("#"), A.COMMENT, K.COMMENT, 0),
    ] + [(_lit(text), A.OPERATOR, kind, 0) for kind, text in OPERATORS],
    M.CMD_WORD: _LINE_CONT + _ESCAPE + _QUOTES + _DOLLAR + [
        (_lit("<("), A.PROCSUB, K.PROCSUB_OPEN, 0),
        (_lit(">("), A.PROCSUB, K.PROCSUB_OPEN, 0),
        ((META,), A.WORD_END, 0, 0),
    ],
    M.COND_START: _LINE_CONT + [
        ((BLANK,), A.BLANKS, 0, 0),
        (_lit("\n"), A.NEWLINE, K.NEWLINE, 0),
        (_lit("#"), A.COMMENT, K.COMMENT, 0),
        (_lit("&&"), A.COND_OP, K.COND_OP, 0),
        (_lit("||"), A.COND_OP, K.COND_OP, 0),
        (_lit("("), A.COND_OP, K.COND_OP, 0),
        (_lit(")"), A.COND_OP, K.COND_OP, 0),
        (_lit("<"), A.COND_OP, K.COND_OP, 0),
        (_lit(">"), A.COND_OP, K.COND_OP, 0),
        # bash rejects these inside [[ ]]; lexed as operators all the same
        (_lit(";"), A.OPERATOR, K.OP, 0),
        (_lit("&"), A.OPERATOR, K.OP, 0),
        (_lit("|"), A.OPERATOR, K.OP, 0),
    ],
    # Inside "…": a backslash is special only before $ ` " \ and newline;
    # `$'` and `$"` are not quotes here (the $ is literal).
    M.DQ: _LINE_CONT + [
        (_lit('"'), A.POP, K.DQ_CLOSE, 0),
        ((_cls("\\"), DQ_ESCAPABLE), A.EMIT, K.DQ_ESCAPE, 0),
    ] + _DOLLAR,
    # ${…}: bash's parse_matched_pair honours quotes, even when the ${…}
    # itself sits inside double quotes; a bare `{` does not nest (only `${`
    # does), so `${x:-{a}b}` is `{a` followed by `b}`.
    # bash also reads `<(…)`/`>(…)` there as process substitution, even
    # inside double quotes (it only expands it unquoted).
    M.PARAM: _LINE_CONT + _ESCAPE + _QUOTES + _DOLLAR + [
        (_lit("}"), A.POP, K.PARAM_CLOSE, 0),
        (_lit("<("), A.PROCSUB, K.PROCSUB_OPEN, 0),
        (_lit(">("), A.PROCSUB, K.PROCSUB_OPEN, 0),
    ],
    # $((…)), ((…)): parens nest; quotes are parsed.
    M.ARITH: _LINE_CONT + _ESCAPE + _QUOTES + _DOLLAR + [
        (_lit("("), A.PAREN_IN, K.ARITH_LIT, 0),
        (_lit(")"), A.PAREN_OUT, K.ARITH_CLOSE, 0),
    ],
    # $[…]: bash matches it by its brackets, honouring quotes, backslashes,
    # backticks, $( and $((; parentheses and `${` are plain text inside.
    M.BRACKET: _LINE_CONT + _ESCAPE + _QUOTES + _DOLLAR_IN_BRACKETS + [
        (_lit("["), A.BRACKET_IN, K.ARITH_LIT, 0),
        (_lit("]"), A.BRACKET_OUT, K.ARITH_CLOSE, 0),
    ],
    # `name[…]` before the command name: bash reads the subscript as a matched
    # pair (parse_matched_pair with P_ARRAYSUB) in which brackets nest, quotes,
    # backslashes and backticks are honoured, and `$(`, `$((`, `${`, `$[`, `<(`
    # and `>(` are read whole, so a `]` inside them does not close it. A `<` or
    # `>` opens a process substitution only when the run of them before the `(`
    # is odd (bash toggles the flag at each).
    M.SUBSCRIPT: _LINE_CONT + _ESCAPE + _QUOTES + _DOLLAR + [
        (_lit(pair), A.EMIT, K.LIT, 0) for pair in ("<<", "<>", "><", ">>")
    ] + [
        (_lit("<("), A.PROCSUB, K.PROCSUB_OPEN, 0),
        (_lit(">("), A.PROCSUB, K.PROCSUB_OPEN, 0),
        (_lit("["), A.BRACKET_IN, K.LIT, 0),
        (_lit("]"), A.BRACKET_OUT, K.LIT, 0),
    ],
    # An unquoted here-document body: like double quotes, but `"` is literal
    # and `\"` keeps its backslash.
    M.DOC: _LINE_CONT + [
        ((_cls("\\"), DOC_ESCAPABLE), A.EMIT, K.DOC_ESCAPE, 0),
    ] + _DOLLAR,
    # An extglob group `@(…)` or a parenthesised =~ regex inside [[ ]]:
    # blanks and `|` are part of the word until the parens balance.
    M.EXTPAT: _LINE_CONT + _ESCAPE + _QUOTES + _DOLLAR + [
        (_lit("("), A.PAREN_IN, K.LIT, 0),
        (_lit(")"), A.PAREN_OUT, K.LIT, 0),
    ],
}

# What a byte that no rule matches becomes: (action, kind).  The default
# action extends over the run of bytes that have no rule in the mode.
DEFAULTS = {
    M.CMD_START: (A.WORD_BEGIN, 0),
    M.CMD_WORD: (A.EMIT, K.LIT),
    M.COND_START: (A.WORD_BEGIN, 0),
    M.DQ: (A.EMIT, K.DQ_LIT),
    M.PARAM: (A.EMIT, K.PARAM_LIT),
    M.ARITH: (A.EMIT, K.ARITH_LIT),
    M.DOC: (A.EMIT, K.DOC_LIT),
    M.EXTPAT: (A.EMIT, K.LIT),
    M.BRACKET: (A.EMIT, K.ARITH_LIT),
    M.SUBSCRIPT: (A.EMIT, K.LIT),
}

# ---------------------------------------------------------------- command state
# Reserved words and what they do to the command context.
RW_START = 1      # the next word is in command position again (then, do, !, …)
RW_OPEN = 2       # opens a compound command closed by a later reserved word
RW_CLOSE = 4      # closes one
RW_CASE = 8       # the next word is the case subject, then `in`
RW_FOR = 16       # the next word is a loop variable, then `in` or `do`
RW_FUNCTION = 32  # the next word is a function name
RW_COND = 64      # [[ opens a conditional expression
RW_TIME = 128     # `time -p`: the option keeps the command position
RW_COPROC = 256   # `coproc NAME {…}`: a name that is not a reserved word keeps it too
RESERVED = {
    "if": RW_START | RW_OPEN, "then": RW_START, "elif": RW_START, "else": RW_START,
    "fi": RW_CLOSE, "case": RW_CASE, "esac": RW_CLOSE,
    "for": RW_FOR | RW_OPEN, "select": RW_FOR | RW_OPEN,
    "while": RW_START | RW_OPEN, "until": RW_START | RW_OPEN,
    "do": RW_START, "done": RW_CLOSE, "in": 0, "function": RW_FUNCTION,
    "time": RW_START | RW_TIME, "coproc": RW_START | RW_COPROC, "!": RW_START,
    "{": RW_START | RW_OPEN, "}": RW_CLOSE, "[[": RW_COND, "]]": 0,
}
RESERVED_BYTES = {word.encode(): flags for word, flags in RESERVED.items()}
# Command names after which bash still parses `name=(…)` arguments as compound
# assignments (its PST_ASSIGNOK): the assignment builtins, and eval and let
# (`export a=(1 2)`, `let i=(3+4)`).  Only the bare word counts: `\declare`,
# `"declare"`, `builtin declare` and `command declare` do not.
DECLARATION_BUILTINS = frozenset(w.encode() for w in
                                 ("declare", "typeset", "export", "local", "readonly",
                                  "alias", "eval", "let"))

# Word roles: what the word being lexed is for.
ROLE_NORMAL, ROLE_REDIR_TARGET, ROLE_HEREDOC, ROLE_HEREDOC_STRIP, ROLE_FOR_NAME, \
    ROLE_CASE_WORD, ROLE_FUNC_NAME = range(7)
# What the context expects after that word.
EXPECT_NONE, EXPECT_FOR_IN, EXPECT_CASE_IN, EXPECT_TIME_OPTION, EXPECT_COPROC_NAME = range(5)
# Phases of a case frame.
CASE_PATTERN, CASE_BODY = range(2)
# Arithmetic frame flavours: which token closes them.
ARITH_DOLLAR, ARITH_COMMAND, ARITH_BRACKET = range(3)

# Context flags (bit set in a command frame).
FL_IN_WORD = 1        # inside a word
FL_RESERVED_OK = 2    # a reserved word would be recognised here
FL_ASSIGN_OK = 4      # an assignment word would be recognised here
FL_NAME_SEEN = 8      # the simple command already has its name
FL_WORD_ASSIGN = 16   # the current word began with an assignment
FL_REGEX_NEXT = 32    # [[ … =~ : the next word is a regex
FL_REGEX_WORD = 64    # the current word is that regex
FL_DECL = 128         # coproc's first word was a declaration builtin
FL_PATTERN_WORD = 256  # a case pattern word was read: `|` or `)` must follow
FL_PATTERN_BAR = 512   # a `|` between case patterns was read: a pattern must follow
FL_PAST_START = 1024   # the command has read an assignment word or coproc's first word
# bash reads `name=(` as a compound assignment only while its PST_ASSIGNOK (after
# a declaration builtin) or command position lasts.  A redirection operator or a
# word opening with `<(`/`>(` ends both once the command has a name, an
# assignment word or coproc's first word: `declare >f a=(1)`,
# `x=1 >f declare a=(1)` and `x=1 >f y=(1) c` are syntax errors, while
# `>f declare a=(1)` is not.  The word after coproc's first word is still in
# command position (it may have been the coproc's name): `coproc x y=(1) c`,
# `coproc declare -r a=(1)`; FL_DECL carries a declaration builtin read there.
ENDS_ASSIGN_OK = FL_NAME_SEEN | FL_PAST_START
FL_COPROC_NEXT = 2048  # the word after coproc's first word is due
# bash reads the elements of that word's `name=(…)` in reserved-word position:
# `coproc x a=(fi)` is a syntax error (all but `time`, and `[[`, left alone)
FL_ARRAY_RESERVED = 4096  # (array frame) a reserved word element is a syntax error
ARRAY_RESERVED_ERRORS = frozenset(w for w in RESERVED_BYTES if w not in (b"time", b"[["))
# Where a word stands in its [[ ]] term (bash's cond_term). The first word of a term leaves
# FL_COND_LEFT, unless it is a unary operator, and only the word after such a first word is
# a binary operator: `=~` there makes the next word a regex, while `[[ =~ ]]` and
# `[[ -n =~ ]]` test the word =~ (measured). A unary or binary operator leaves
# FL_COND_OPERAND: the word after it ends the term. `&&`, `||`, `(`, `)` and `!` start anew.
FL_COND_LEFT = 8192
FL_COND_OPERAND = 16384
COND_UNARY = frozenset(b"-a -b -c -d -e -f -g -h -k -n -o -p -r -s -t -u -v -w -x -z -G -L -N -O -R -S".split())


def cond_word(flags, word):
    """A [[ ]] frame's flags after its word ``word`` (see FL_COND_LEFT)."""
    if flags & FL_COND_LEFT:  # the binary operator's place
        flags = (flags & ~FL_COND_LEFT) | FL_COND_OPERAND
        return flags | FL_REGEX_NEXT if word == b"=~" else flags
    if flags & FL_COND_OPERAND:
        return flags & ~FL_COND_OPERAND
    return flags | (FL_COND_OPERAND if word in COND_UNARY else FL_COND_LEFT)


def cond_operator(flags, op):
    """A [[ ]] frame's flags after the operator ``op``: `<` and `>` compare where a binary
    operator stands; any other starts a term anew (a lone `!` where an operand is due is
    that operand: cond_word)."""
    if op in (b"<", b">") and flags & FL_COND_LEFT:
        return (flags & ~FL_COND_LEFT) | FL_COND_OPERAND
    if op == b"!" and flags & (FL_COND_LEFT | FL_COND_OPERAND):
        return cond_word(flags, op)
    return flags & ~(FL_COND_LEFT | FL_COND_OPERAND)

# bash's wording for an unterminated construct, by the character it wants.
def unterminated(closer):
    return f"unexpected EOF while looking for matching `{closer}'"


UNEXPECTED_EOF = "syntax error: unexpected end of file"


def descriptor_number(digits):
    """bash's NUMBER token for ``digits`` before `<` or `>`, as its syntax errors print it
    back (``02`` is ``2``), or None when the number does not fit a C int (then the digits
    are a word)."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > 10 or int(significant) > 2147483647:
        return None
    return significant


def unexpected_token(text):
    return f"syntax error near unexpected token `{text}'"


# ---------------------------------------------------------------- compiled form
def compile_rules():
    """The table as flat data both engines use.

    Returns (dispatch, rules): ``dispatch[mode][byte]`` is a tuple of rule
    indices to try in order (longest match first); ``rules[i]`` is
    ``(classes, action, kind, arg)`` where classes is a tuple of frozensets.
    """
    rules = []
    dispatch = []
    for mode in range(len(MODES)):
        table = [[] for _ in range(256)]
        for classes, action, kind, arg in RULES[mode]:
            index = len(rules)
            rules.append((classes, action, kind, arg))
            for byte in classes[0]:
                table[byte].append(index)
        for byte in range(256):
            # stable sort: longer rules first, table order among equals
            table[byte].sort(key=lambda i: -len(rules[i][0]))
        dispatch.append(tuple(tuple(entry) for entry in table))
    return tuple(dispatch), tuple(rules)


DISPATCH, COMPILED_RULES = compile_rules()


# ---------------------------------------------------------------- shared helpers
# Rare paths that both engines call as they are, so they cannot drift either.


def source_bytes(source):
    """The bytes to lex: str is UTF-8 encoded, bytes are taken as they are.

    Lone surrogates (what ``surrogateescape`` decoding leaves for undecodable
    bytes) are turned back into those bytes, so a reply read from a file with
    invalid UTF-8 round-trips.
    """
    if isinstance(source, str):
        try:
            return source.encode("utf-8")
        except UnicodeEncodeError:
            try:
                return source.encode("utf-8", "surrogateescape")
            except UnicodeEncodeError:
                return source.encode("utf-8", "surrogatepass")
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    raise TypeError(f"lex() takes str or bytes, not {type(source).__name__}")


def syntax_error(data, message, offset, at_eof=False):
    """A ShellSyntaxError placed where bash reports it.

    bash names the line where an unterminated quote, ${, $((, backtick or
    [[ began, but the line of the end of input for $( and <( (it parses those
    recursively and runs into the end).  `bash -c` sees a final newline even
    when the string has none, so that line is one past the last line then;
    the column is 1 there.
    """
    if at_eof:
        offset = len(data)
        line = data.count(b"\n") + 1
        if data and not data.endswith(b"\n"):
            line += 1
        return ShellSyntaxError(message, offset, line, 1)
    line = data.count(b"\n", 0, offset) + 1
    column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return ShellSyntaxError(message, offset, line, column)


def token_error(data, text, offset, pending=()):
    """bash's "syntax error near unexpected token" at ``offset``.

    bash reads the here-document bodies of the line before it reports an
    error on that line, so while bodies are pending (``pending``: the queue
    of (delimiter, strip_tabs, quoted)) it names the line where the last
    body ends; offset and column still point at the token.
    """
    error = syntax_error(data, unexpected_token(text), offset)
    end = data.find(b"\n", offset) if pending else -1
    if end < 0:
        return error
    start, last = end + 1, end + 1
    for delimiter, strip_tabs, quoted in pending:
        _, line_start, line_end = heredoc_extent(data, start, len(data), delimiter, strip_tabs, quoted)
        if line_start < 0:  # delimited by the end of input
            last = len(data) - 1 if data.endswith(b"\n") else len(data)
            break
        last, start = line_start, line_end + 1
    return ShellSyntaxError(error.message, offset, data.count(b"\n", 0, last) + 1, error.column)


def heredoc_delimiter(word):
    """(delimiter, quoted) for the raw bytes of the word after << or <<-.

    bash removes quotes from the word; any quoting (\\x, '…', "…") turns
    expansion in the body off.
    """
    out = bytearray()
    quoted = False
    i, n = 0, len(word)
    while i < n:
        c = word[i]
        if c == 0x5C:  # backslash
            quoted = True
            if i + 1 < n:
                out.append(word[i + 1])
            i += 2
        elif c == 0x27:  # '
            quoted = True
            j = word.find(b"'", i + 1)
            j = n if j < 0 else j
            out += word[i + 1:j]
            i = j + 1
        elif c == 0x22:  # "
            quoted = True
            i += 1
            while i < n and word[i] != 0x22:
                if word[i] == 0x5C and i + 1 < n and word[i + 1] in DQ_ESCAPABLE:
                    i += 1
                out.append(word[i])
                i += 1
            i += 1
        elif c == 0x24 and i + 1 < n and word[i + 1] in (0x27, 0x22):
            i += 1  # $'…' and $"…": the quotes count, the $ goes
        else:
            out.append(c)
            i += 1
    return bytes(out), quoted


def heredoc_extent(data, start, limit, delimiter, strip_tabs, quoted=True):
    """Where a here-document body ends: (body_end, line_start, line_end).

    The body runs from ``start`` to the first line equal to the delimiter
    (after leading tabs for <<-), matched on the raw line before any
    expansion.  In an unquoted body a line ending in an odd number of
    backslashes continues on the next one before the comparison, as bash
    reads it (`E\\` newline `` compares as `E`).  Without such a line the
    body runs to ``limit`` and line_start is -1 (bash accepts it with a
    warning).
    """
    q = start
    while q < limit:
        e = data.find(b"\n", q, limit)
        if e < 0:
            e = limit
        line = data[q:e]
        if strip_tabs:
            line = line.lstrip(b"\t")
        if not quoted:
            physical = line
            while e < limit and (len(physical) - len(physical.rstrip(b"\\"))) % 2:
                following = data.find(b"\n", e + 1, limit)
                following = limit if following < 0 else following
                physical = data[e + 1:following]
                if line is not None:
                    # once longer than the delimiter it cannot match: stop
                    # joining, so long continued lines stay linear
                    line = line[:-1] + physical if len(line) - 1 <= len(delimiter) else None
                e = following
        if line == delimiter:
            return q, q, e
        q = e + 1
    return limit, -1, -1
