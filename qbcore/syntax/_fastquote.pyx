# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled lexing engine: the mode table of ``lexdef`` as C arrays and a typed byte loop.

It runs the same rules and actions as ``_purequote`` (the reference it is
tested against), over the UTF-8 bytes, with an explicit frame stack and the
tokens kept in a C int array; tuples are only built when a token is read.
"""

from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memchr, memcpy, memset
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE

from . import lexdef as D
from .errors import ShellSyntaxError

cdef extern from "Python.h":
    const char* PyUnicode_AsUTF8AndSize(object text, Py_ssize_t* size) except NULL

__all__ = ["lex", "Tokens"]

# ------------------------------------------------------------------ the table as C data
cdef enum:
    MAX_RULES = 256
    NMODES = 10
    INITIAL_FRAMES = 16
    INITIAL_TOKENS = 32

cdef int N_RULES = len(D.COMPILED_RULES)
cdef unsigned char RULE_LEN[MAX_RULES]
cdef int RULE_ACTION[MAX_RULES]
cdef int RULE_KIND[MAX_RULES]
cdef int RULE_ARG[MAX_RULES]
cdef unsigned char RULE_CLASS[MAX_RULES][3][256]
cdef int DISP_START[NMODES][256]
cdef int DISP_COUNT[NMODES][256]
cdef int DISP_LIST[MAX_RULES * 256]
cdef int DEFAULT_ACTION[NMODES]
cdef int DEFAULT_KIND[NMODES]
cdef unsigned char IS_META[256]
cdef unsigned char IS_PLAIN[256]
cdef unsigned char IS_NAME_START[256]
cdef unsigned char IS_NAME_CHAR[256]
cdef unsigned char IS_DIGIT[256]
cdef unsigned char IS_EXTGLOB[256]
cdef unsigned char IS_MERGING[64]
cdef unsigned char IS_COMMAND_FRAME[16]
cdef int FRAME_MODE[16]


cdef void _fill(unsigned char* table, object members):
    cdef int i
    for i in range(256):
        table[i] = 1 if i in members else 0


cdef int _build_tables() except -1:
    cdef int r, j, b, mode, count, pos
    if N_RULES > MAX_RULES or len(D.MODES) != NMODES:
        raise RuntimeError("qbcore: lexer table larger than the compiled engine allows")
    memset(RULE_CLASS, 0, sizeof(RULE_CLASS))
    for r, (classes, action, kind, arg) in enumerate(D.COMPILED_RULES):
        if len(classes) > 3:
            raise RuntimeError("qbcore: a lexer rule is longer than 3 bytes")
        RULE_LEN[r] = len(classes)
        RULE_ACTION[r] = action
        RULE_KIND[r] = kind
        RULE_ARG[r] = arg
        for j in range(len(classes)):
            for b in classes[j]:
                RULE_CLASS[r][j][b] = 1
    pos = 0
    for mode in range(NMODES):
        for b in range(256):
            entry = D.DISPATCH[mode][b]
            DISP_START[mode][b] = pos
            DISP_COUNT[mode][b] = len(entry)
            for r in entry:
                DISP_LIST[pos] = r
                pos += 1
        DEFAULT_ACTION[mode], DEFAULT_KIND[mode] = D.DEFAULTS[mode]
    _fill(IS_META, D.META)
    _fill(IS_PLAIN, D.PLAIN_WORD)
    _fill(IS_NAME_START, D.NAME_START)
    _fill(IS_NAME_CHAR, D.NAME_CHAR)
    _fill(IS_DIGIT, D.DIGIT)
    _fill(IS_EXTGLOB, D.EXTGLOB_PREFIX)
    for b in range(64):
        IS_MERGING[b] = 1 if b in D.MERGING_KINDS else 0
    for b in range(16):
        IS_COMMAND_FRAME[b] = 1 if b in D.COMMAND_FRAMES else 0
        FRAME_MODE[b] = -1
    FRAME_MODE[D.F.DQ] = D.M.DQ
    FRAME_MODE[D.F.PARAM] = D.M.PARAM
    FRAME_MODE[D.F.ARITH] = D.M.ARITH
    FRAME_MODE[D.F.DOC] = D.M.DOC
    FRAME_MODE[D.F.EXTPAT] = D.M.EXTPAT
    FRAME_MODE[D.F.SUBSCRIPT] = D.M.SUBSCRIPT
    return 0


_build_tables()

# ids copied from the table module so the two engines share one numbering
cdef int A_EMIT = D.A.EMIT, A_ESCAPE = D.A.ESCAPE, A_VAR_NAME = D.A.VAR_NAME, A_SQ = D.A.SQ
cdef int A_ANSI = D.A.ANSI, A_BACKTICK = D.A.BACKTICK, A_PUSH = D.A.PUSH, A_POP = D.A.POP
cdef int A_ARITH_OPEN = D.A.ARITH_OPEN, A_ARITH_BRACKET = D.A.ARITH_BRACKET, A_CMDSUB = D.A.CMDSUB
cdef int A_PROCSUB = D.A.PROCSUB, A_PAREN_IN = D.A.PAREN_IN, A_PAREN_OUT = D.A.PAREN_OUT
cdef int A_BRACKET_IN = D.A.BRACKET_IN
cdef int A_BRACKET_OUT = D.A.BRACKET_OUT, A_BLANKS = D.A.BLANKS, A_NEWLINE = D.A.NEWLINE
cdef int A_COMMENT = D.A.COMMENT, A_OPERATOR = D.A.OPERATOR, A_WORD_BEGIN = D.A.WORD_BEGIN
cdef int A_WORD_END = D.A.WORD_END, A_COND_OP = D.A.COND_OP

cdef int K_LIT = D.K.LIT, K_ESCAPE = D.K.ESCAPE, K_VAR = D.K.VAR, K_BACKTICK_OPEN = D.K.BACKTICK_OPEN
cdef int K_BACKTICK_BODY = D.K.BACKTICK_BODY, K_BACKTICK_CLOSE = D.K.BACKTICK_CLOSE
cdef int K_ARITH_LIT = D.K.ARITH_LIT, K_ARITH_CLOSE = D.K.ARITH_CLOSE, K_ARITH_CMD_OPEN = D.K.ARITH_CMD_OPEN
cdef int K_ARITH_CMD_CLOSE = D.K.ARITH_CMD_CLOSE, K_CMDSUB_OPEN = D.K.CMDSUB_OPEN
cdef int K_CMDSUB_CLOSE = D.K.CMDSUB_CLOSE, K_PROCSUB_CLOSE = D.K.PROCSUB_CLOSE, K_PARAM_LIT = D.K.PARAM_LIT
cdef int K_LPAREN = D.K.LPAREN, K_RPAREN = D.K.RPAREN, K_OP = D.K.OP, K_REDIR = D.K.REDIR
cdef int K_HEREDOC_OP = D.K.HEREDOC_OP, K_HEREDOC_BODY = D.K.HEREDOC_BODY, K_HEREDOC_END = D.K.HEREDOC_END
cdef int K_DOC_LIT = D.K.DOC_LIT, K_NEWLINE = D.K.NEWLINE, K_RESERVED = D.K.RESERVED, K_ASSIGN = D.K.ASSIGN
cdef int K_COND_OP = D.K.COND_OP, K_COMMENT = D.K.COMMENT

cdef int F_TOP = D.F.TOP, F_CMDSUB = D.F.CMDSUB, F_PROCSUB = D.F.PROCSUB, F_CASE = D.F.CASE
cdef int F_COND = D.F.COND, F_ARRAY = D.F.ARRAY, F_DQ = D.F.DQ, F_PARAM = D.F.PARAM
cdef int F_ARITH = D.F.ARITH, F_DOC = D.F.DOC, F_EXTPAT = D.F.EXTPAT, F_SUBSCRIPT = D.F.SUBSCRIPT
cdef int M_CMD_START = D.M.CMD_START, M_CMD_WORD = D.M.CMD_WORD, M_COND_START = D.M.COND_START
cdef int M_BRACKET = D.M.BRACKET

cdef int FL_IN_WORD = D.FL_IN_WORD, FL_RESERVED_OK = D.FL_RESERVED_OK, FL_ASSIGN_OK = D.FL_ASSIGN_OK
cdef int FL_NAME_SEEN = D.FL_NAME_SEEN, FL_WORD_ASSIGN = D.FL_WORD_ASSIGN
cdef int FL_REGEX_NEXT = D.FL_REGEX_NEXT, FL_REGEX_WORD = D.FL_REGEX_WORD, FL_PATTERN_WORD = D.FL_PATTERN_WORD
cdef int FL_PATTERN_BAR = D.FL_PATTERN_BAR, FL_PAST_START = D.FL_PAST_START, FL_DECL = D.FL_DECL
cdef int FL_COPROC_NEXT = D.FL_COPROC_NEXT, FL_ARRAY_RESERVED = D.FL_ARRAY_RESERVED, ENDS_ASSIGN_OK = D.ENDS_ASSIGN_OK
cdef int FL_COND_LEFT = D.FL_COND_LEFT, FL_COND_OPERAND = D.FL_COND_OPERAND
cdef int FRESH = D.FL_RESERVED_OK | D.FL_ASSIGN_OK
cdef int ROLE_NORMAL = D.ROLE_NORMAL, ROLE_REDIR_TARGET = D.ROLE_REDIR_TARGET
cdef int ROLE_HEREDOC = D.ROLE_HEREDOC, ROLE_HEREDOC_STRIP = D.ROLE_HEREDOC_STRIP
cdef int ROLE_FOR_NAME = D.ROLE_FOR_NAME, ROLE_CASE_WORD = D.ROLE_CASE_WORD, ROLE_FUNC_NAME = D.ROLE_FUNC_NAME
cdef int EXPECT_NONE = D.EXPECT_NONE, EXPECT_FOR_IN = D.EXPECT_FOR_IN, EXPECT_CASE_IN = D.EXPECT_CASE_IN
cdef int EXPECT_TIME_OPTION = D.EXPECT_TIME_OPTION, EXPECT_COPROC_NAME = D.EXPECT_COPROC_NAME
cdef int CASE_PATTERN = D.CASE_PATTERN, CASE_BODY = D.CASE_BODY
cdef int ARITH_DOLLAR = D.ARITH_DOLLAR, ARITH_COMMAND = D.ARITH_COMMAND, ARITH_BRACKET = D.ARITH_BRACKET
cdef int RW_START = D.RW_START, RW_OPEN = D.RW_OPEN, RW_CLOSE = D.RW_CLOSE, RW_CASE = D.RW_CASE
cdef int RW_FOR = D.RW_FOR, RW_FUNCTION = D.RW_FUNCTION, RW_COND = D.RW_COND, RW_TIME = D.RW_TIME
cdef int RW_COPROC = D.RW_COPROC

cdef tuple KIND_NAMES = D.KINDS
cdef int K_LINE_CONT = D.K.LINE_CONT
cdef list REDIRECTIONS = [(kind, text.encode()) for kind, text in D.REDIRECTIONS]

# Reserved words and declaration builtins as C strings: looked up at every
# command word, so no bytes object is made for the comparison.
cdef enum:
    MAX_WORDS = 32
cdef unsigned char WORD_TEXT[MAX_WORDS][9]
cdef int WORD_LEN[MAX_WORDS]
cdef int WORD_EFFECT[MAX_WORDS]
cdef int N_RESERVED = 0
cdef int N_WORDS = 0


cdef int _add_word(bytes word, int effect) except -1:
    global N_WORDS
    cdef int i
    if N_WORDS >= MAX_WORDS or len(word) > 8:
        raise RuntimeError("qbcore: reserved-word table too large for the compiled engine")
    for i in range(len(word)):
        WORD_TEXT[N_WORDS][i] = word[i]
    WORD_LEN[N_WORDS] = len(word)
    WORD_EFFECT[N_WORDS] = effect
    N_WORDS += 1
    return N_WORDS - 1


for _word, _effect in D.RESERVED_BYTES.items():
    _add_word(_word, _effect)
N_RESERVED = N_WORDS
for _word in sorted(D.DECLARATION_BUILTINS):
    _add_word(_word, 0)
cdef int RW_IN_ID = list(D.RESERVED_BYTES).index(b"in")
cdef int RW_DO_ID = list(D.RESERVED_BYTES).index(b"do")
cdef int RW_ESAC_ID = list(D.RESERVED_BYTES).index(b"esac")
cdef int RW_TIME_ID = list(D.RESERVED_BYTES).index(b"time")
_ARRAY_RESERVED_ERRORS = D.ARRAY_RESERVED_ERRORS


_COND_UNARY = D.COND_UNARY


cdef bint is_array_reserved_error(const unsigned char* w, Py_ssize_t n):
    # rare: only inside the array of the word after coproc's first word
    return (<const char*>w)[:n] in _ARRAY_RESERVED_ERRORS
cdef int RW_CLOSE_COND_ID = list(D.RESERVED_BYTES).index(b"]]")


cdef inline int cond_word(int flags, const unsigned char* w, Py_ssize_t n):
    """lexdef.cond_word, over the word's bytes."""
    if flags & FL_COND_LEFT:  # the binary operator's place
        flags = (flags & ~FL_COND_LEFT) | FL_COND_OPERAND
        return flags | FL_REGEX_NEXT if n == 2 and w[0] == 61 and w[1] == 126 else flags  # =~
    if flags & FL_COND_OPERAND:
        return flags & ~FL_COND_OPERAND
    if n == 2 and w[0] == 45 and (<const char*>w)[:2] in _COND_UNARY:
        return flags | FL_COND_OPERAND
    return flags | FL_COND_LEFT


cdef inline int cond_operator(int flags, const unsigned char* w, Py_ssize_t n):
    """lexdef.cond_operator, over the operator's bytes."""
    if n == 1 and (w[0] == 60 or w[0] == 62) and flags & FL_COND_LEFT:  # < >
        return (flags & ~FL_COND_LEFT) | FL_COND_OPERAND
    if n == 1 and w[0] == 33 and flags & (FL_COND_LEFT | FL_COND_OPERAND):  # a lone ! as an operand
        return cond_word(flags, w, n)
    return flags & ~(FL_COND_LEFT | FL_COND_OPERAND)


cdef inline int find_word(const unsigned char* s, Py_ssize_t length, int first, int last):
    """Index of the table word equal to s[:length] among [first, last), or -1."""
    cdef int i, j
    if length > 8:
        return -1
    for i in range(first, last):
        if WORD_LEN[i] == length and WORD_TEXT[i][0] == s[0]:
            j = 1
            while j < length and WORD_TEXT[i][j] == s[j]:
                j += 1
            if j == length:
                return i
    return -1
# ------------------------------------------------------------------ tokens

cdef class Tokens:
    """The token stream: a sequence of (kind, start, end) in source order."""

    cdef int* data
    cdef Py_ssize_t count

    def __cinit__(self):
        self.data = NULL
        self.count = 0

    def __dealloc__(self):
        free(self.data)

    def __len__(self):
        return self.count

    def __getitem__(self, index):
        cdef Py_ssize_t i
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.count))]
        i = index
        if i < 0:
            i += self.count
        if i < 0 or i >= self.count:
            raise IndexError("token index out of range")
        return (KIND_NAMES[self.data[3 * i]], self.data[3 * i + 1], self.data[3 * i + 2])

    def __iter__(self):
        return _TokenIterator(self)

    def __eq__(self, other):
        cdef Tokens them
        cdef Py_ssize_t i
        if isinstance(other, Tokens):
            them = <Tokens>other
            if them.count != self.count:
                return False
            for i in range(3 * self.count):
                if self.data[i] != them.data[i]:
                    return False
            return True
        try:
            if len(other) != self.count:
                return False
            for i, item in enumerate(other):
                if tuple(item) != self[i]:
                    return False
            return True
        except TypeError:
            return NotImplemented

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = None

    def __repr__(self):
        return f"Tokens({list(self)!r})"

    def grammar_tokens(self, source):
        """The tokens the parser reads, each (kind, start, end, text), comments left out;
        ``text`` is ``source`` sliced at the offsets, which are its indexes when it is
        ASCII (the caller's to know). None when a line continuation is among them:
        whether one joins a word is the parser's to decide."""
        cdef Py_ssize_t i, start, end
        cdef int kind
        cdef int* d = self.data
        cdef list out = []
        for i in range(self.count):
            kind = d[3 * i]
            if kind == K_COMMENT:
                continue
            if kind == K_LINE_CONT:
                return None
            start = d[3 * i + 1]
            end = d[3 * i + 2]
            out.append((KIND_NAMES[kind], start, end, source[start:end]))
        return out


cdef class _TokenIterator:
    cdef Tokens tokens
    cdef Py_ssize_t index

    def __cinit__(self, Tokens tokens):
        self.tokens = tokens
        self.index = 0

    def __iter__(self):
        return self

    def __next__(self):
        cdef Py_ssize_t i = self.index
        if i >= self.tokens.count:
            raise StopIteration
        self.index = i + 1
        cdef int* d = self.tokens.data
        return (KIND_NAMES[d[3 * i]], d[3 * i + 1], d[3 * i + 2])


# ------------------------------------------------------------------ the engine

cdef struct Frame:
    int ft
    int flags
    int role
    int expect
    Py_ssize_t start
    Py_ssize_t depth
    Py_ssize_t wstart
    Py_ssize_t aux
    Py_ssize_t aux2
    Py_ssize_t aux3
    Py_ssize_t aux4



def lex(source):
    """Lex bash source (str, or bytes taken as they are) into Tokens.

    Raises ShellSyntaxError for input bash would reject while reading it.
    """
    cdef Py_ssize_t size = 0
    cdef const char* text
    cdef object data
    if type(source) is str:
        try:
            text = PyUnicode_AsUTF8AndSize(source, &size)
            data = source
        except UnicodeEncodeError:  # lone surrogates: lexdef decides their bytes
            data = D.source_bytes(source)
            text = PyBytes_AS_STRING(data)
            size = PyBytes_GET_SIZE(data)
    elif type(source) is bytes:
        data = source
        text = PyBytes_AS_STRING(data)
        size = PyBytes_GET_SIZE(data)
    else:
        data = D.source_bytes(source)
        text = PyBytes_AS_STRING(data)
        size = PyBytes_GET_SIZE(data)
    if size > 0x7FFFFFF0:
        raise ValueError("qbcore: input larger than 2 GiB")
    cdef _Lexer lexer = _Lexer.__new__(_Lexer)
    lexer.owner = data
    lexer.s = <const unsigned char*>text
    lexer.n = size
    lexer.limit = size
    lexer.nodparen = set()
    lexer.pending = []
    lexer.stash = []
    lexer.last_newline = -1
    lexer.cont_at = -1
    cdef Py_ssize_t at = size - 1
    if size and text[at] == 92:
        while at >= 0 and text[at] != 10:
            at -= 1
        lexer.last_newline = at
    lexer.start()
    while True:
        try:
            lexer.run()
            break
        except ShellSyntaxError:
            # bash reads a here-document body as raw lines and parses its
            # expansions only at run time: an error there is not a syntax
            # error of the script, and the body stays literal text
            if not lexer.docs:
                raise
            lexer.abandon_doc()
    cdef Tokens tokens = Tokens.__new__(Tokens)
    tokens.data = lexer.toks
    tokens.count = lexer.ntok // 3
    lexer.toks = NULL
    return tokens


cdef class _Lexer:
    cdef object owner           # keeps the bytes behind `s` alive
    cdef object copy            # those bytes as a bytes object, when needed
    cdef const unsigned char* s
    cdef Py_ssize_t n, p, limit
    # where a `((` or `$((` was already found not to be arithmetic: each is
    # re-read once, so nested ones cannot make the work exponential
    cdef set nodparen
    cdef int docs               # here-document bodies being lexed (DOC frames on the stack)
    cdef int* toks
    cdef Py_ssize_t ntok, tcap
    cdef Frame* stack
    cdef Py_ssize_t top, fcap   # stack[top] is the current frame
    cdef list pending           # here-documents waiting for the next newline
    cdef list stash             # the queue saved while a body is lexed
    # bash reads a line it starts inside single quotes as if a newline ended it: a
    # backslash that ends the input there is a line continuation (`'a<newline>b' c\`
    # is `c`); cont_at is that backslash's offset once a quote holds the last newline
    cdef Py_ssize_t last_newline, cont_at

    def __dealloc__(self):
        free(self.toks)
        free(self.stack)

    cdef int start(self) except -1:
        self.tcap = INITIAL_TOKENS * 3
        self.toks = <int*>malloc(self.tcap * sizeof(int))
        self.fcap = INITIAL_FRAMES
        self.stack = <Frame*>malloc(self.fcap * sizeof(Frame))
        if self.toks == NULL or self.stack == NULL:
            raise MemoryError()
        self.top = -1
        self.push_command(F_TOP, 0)
        return 0

    # ------------------------------------------------------------ output and frames
    cdef inline int emit(self, int kind, Py_ssize_t start, Py_ssize_t end) except -1:
        cdef Py_ssize_t t = self.ntok
        if IS_MERGING[kind] and t and self.toks[t - 3] == kind and self.toks[t - 1] == start:
            self.toks[t - 1] = <int>end
            return 0
        if t + 3 > self.tcap:
            self.grow_tokens()
        self.toks[t] = kind
        self.toks[t + 1] = <int>start
        self.toks[t + 2] = <int>end
        self.ntok = t + 3
        return 0

    cdef int grow_tokens(self) except -1:
        cdef Py_ssize_t cap = self.tcap * 2
        cdef int* grown = <int*>realloc(self.toks, cap * sizeof(int))
        if grown == NULL:
            raise MemoryError()
        self.toks = grown
        self.tcap = cap
        return 0

    cdef Frame* push(self, int ft, Py_ssize_t start) except NULL:
        cdef Frame* grown
        if self.top + 1 >= self.fcap:
            grown = <Frame*>realloc(self.stack, 2 * self.fcap * sizeof(Frame))
            if grown == NULL:
                raise MemoryError()
            self.stack = grown
            self.fcap *= 2
        self.top += 1
        cdef Frame* f = &self.stack[self.top]
        f.ft = ft
        f.start = start
        f.depth = 0
        f.flags = 0
        f.role = 0
        f.expect = 0
        f.wstart = 0
        f.aux = 0
        f.aux2 = 0
        f.aux3 = 0
        f.aux4 = 0
        return f

    cdef Frame* push_command(self, int ft, Py_ssize_t start) except NULL:
        cdef Frame* f = self.push(ft, start)
        f.flags = FRESH
        f.role = ROLE_NORMAL
        f.expect = EXPECT_NONE
        return f

    cdef object error(self, str message, Py_ssize_t offset, bint at_eof=False):
        return D.syntax_error(self.data_bytes(), message, offset, at_eof)

    cdef object token_error(self, str text, Py_ssize_t offset):
        return D.token_error(self.owner_bytes(), text, offset, self.pending)

    cdef int grammar_error(self, str text, Py_ssize_t offset) except -1:
        """Raise bash's unexpected-token error, unless inside a `$((` re-read
        as `$( (`: bash keeps that as text and parses it only when expanding
        it, so there the lexer goes on (the caller recovers)."""
        cdef Py_ssize_t i
        for i in range(self.top + 1):
            if self.stack[i].ft == F_CMDSUB and self.stack[i].aux2:
                return 0
        raise self.token_error(text, offset)

    cdef bytes data_bytes(self):
        return (<const char*>self.s)[:self.n]

    cdef inline int mode_of(self, Frame* f):
        if IS_COMMAND_FRAME[f.ft]:
            if f.flags & FL_IN_WORD:
                return M_CMD_WORD
            return M_COND_START if f.ft == F_COND else M_CMD_START
        if f.ft == F_ARITH and f.aux == ARITH_BRACKET:
            return M_BRACKET
        return FRAME_MODE[f.ft]

    # ------------------------------------------------------------ main loop
    cdef int run(self) except -1:
        cdef const unsigned char* s = self.s
        cdef Frame* f
        cdef int mode, c, i, r, length, action, kind, arg, j, count, first
        cdef bint ok
        cdef const unsigned char* hit
        cdef Py_ssize_t p, end, limit
        while True:
            p = self.p
            limit = self.limit
            if p >= limit:
                if self.at_limit():
                    return 0
                continue
            f = &self.stack[self.top]
            mode = self.mode_of(f)
            c = s[p]
            count = DISP_COUNT[mode][c]
            first = DISP_START[mode][c]
            action = -1
            for i in range(count):
                r = DISP_LIST[first + i]
                length = RULE_LEN[r]
                if p + length > limit:
                    continue
                ok = True
                for j in range(1, length):
                    if not RULE_CLASS[r][j][s[p + j]]:
                        ok = False
                        break
                if ok:
                    action = RULE_ACTION[r]
                    kind = RULE_KIND[r]
                    arg = RULE_ARG[r]
                    break
            if action == -1:
                if p == self.cont_at and (mode == M_CMD_WORD or mode == M_CMD_START):
                    self.emit(K_LINE_CONT, p, p + 1)
                    self.p = p + 1
                    continue
                action = DEFAULT_ACTION[mode]
                kind = DEFAULT_KIND[mode]
                length = 0
                arg = 0
                if action == A_EMIT:
                    # the run of bytes that have no rule in this mode
                    end = p + 1
                    while end < limit and not DISP_COUNT[mode][s[end]]:
                        end += 1
                    self.emit(kind, p, end)
                    self.p = end
                    continue
            if action == A_EMIT:
                self.emit(kind, p, p + length)
                self.p = p + length
            elif action == A_BLANKS:
                end = p + 1
                while end < limit and (s[end] == 32 or s[end] == 9):
                    end += 1
                self.p = end
            elif action == A_WORD_BEGIN:
                self.word_begin(f)
            elif action == A_WORD_END:
                self.word_end(f)
            elif action == A_VAR_NAME:
                end = p + 2
                while end < limit and IS_NAME_CHAR[s[end]]:
                    end += 1
                self.emit(kind, p, end)
                self.p = end
            elif action == A_OPERATOR:
                self.operator(f, kind, length)
            elif action == A_NEWLINE:
                self.newline(f, kind)
            elif action == A_ESCAPE:
                end = p + 2
                if s[end - 1] >= 0xC0:
                    while end < limit and 0x80 <= s[end] < 0xC0 and end - p < 5:
                        end += 1
                self.emit(kind, p, end)
                self.p = end
            elif action == A_SQ:
                self.single_quote(kind)
            elif action == A_PUSH:
                self.emit(kind, p, p + length)
                self.push(arg, p)
                self.p = p + length
            elif action == A_POP:
                self.emit(kind, p, p + length)
                self.top -= 1
                self.p = p + length
            elif action == A_CMDSUB or action == A_PROCSUB:
                self.emit(kind, p, p + 2)
                self.push_command(F_CMDSUB if action == A_CMDSUB else F_PROCSUB, p)
                self.p = p + 2
            elif action == A_BACKTICK:
                self.backtick()
            elif action == A_COMMENT:
                hit = <const unsigned char*>memchr(s + p, 10, limit - p)
                end = limit if hit == NULL else hit - s
                self.emit(kind, p, end)
                self.p = end
            elif action == A_ANSI:
                self.ansi(kind)
            elif action == A_ARITH_OPEN:
                if self.nodparen and p in self.nodparen:  # `$((` that was not arithmetic: `$(` then `(`
                    self.emit(K_CMDSUB_OPEN, p, p + 2)
                    self.push_command(F_CMDSUB, p).aux2 = 1  # bash names the line of `$((` if left open
                    self.p = p + 2
                else:
                    self.emit(kind, p, p + 3)
                    f = self.push(F_ARITH, p)
                    f.aux = ARITH_DOLLAR
                    f.aux2 = self.ntok - 3
                    self.p = p + 3
            elif action == A_ARITH_BRACKET:
                self.emit(kind, p, p + 2)
                f = self.push(F_ARITH, p)
                f.aux = ARITH_BRACKET
                self.p = p + 2
            elif action == A_PAREN_IN:
                f.depth += 1
                self.emit(kind, p, p + 1)
                self.p = p + 1
            elif action == A_PAREN_OUT:
                self.paren_out(f)
            elif action == A_BRACKET_IN:
                f.depth += 1
                self.emit(kind, p, p + 1)
                self.p = p + 1
            elif action == A_BRACKET_OUT:
                if f.depth:
                    f.depth -= 1
                    self.emit(K_ARITH_LIT, p, p + 1)
                    self.p = p + 1
                elif f.ft == F_SUBSCRIPT:
                    self.subscript_close()
                else:
                    self.emit(kind, p, p + 1)
                    self.top -= 1
                    self.p = p + 1
            elif action == A_COND_OP:
                if f.flags & FL_REGEX_NEXT and s[p] == 40:
                    self.word_begin(f)  # a regex may start with (
                else:
                    self.emit(kind, p, p + length)
                    self.p = p + length
                    f.flags = cond_operator(f.flags, s + p, length)
            else:
                raise RuntimeError(f"qbcore: unknown lexer action {action}")

    # ------------------------------------------------------------ quotes
    cdef int single_quote(self, int kind) except -1:
        cdef Py_ssize_t p = self.p
        cdef const unsigned char* hit = <const unsigned char*>memchr(self.s + p + 1, 39, self.limit - p - 1)
        if hit == NULL:
            return self.unterminated(p, "'")
        cdef Py_ssize_t end = hit - self.s
        if p < self.last_newline < end:
            self.cont_at = self.n - 1
        self.emit(kind, p, end + 1)
        self.p = end + 1
        return 0

    cdef int ansi(self, int kind) except -1:
        cdef const unsigned char* s = self.s
        cdef Py_ssize_t p = self.p
        cdef Py_ssize_t i = p + 2
        while i < self.limit:
            if s[i] == 39:
                if p < self.last_newline < i:
                    self.cont_at = self.n - 1
                self.emit(kind, p, i + 1)
                self.p = i + 1
                return 0
            i += 2 if s[i] == 92 else 1
        return self.unterminated(p, "'")

    cdef int backtick(self) except -1:
        # the body stays raw; a backslash protects the next byte from closing it
        cdef const unsigned char* s = self.s
        cdef Py_ssize_t p = self.p
        cdef Py_ssize_t i = p + 1
        while i < self.limit:
            if s[i] == 96:
                self.emit(K_BACKTICK_OPEN, p, p + 1)
                if i > p + 1:
                    self.emit(K_BACKTICK_BODY, p + 1, i)
                self.emit(K_BACKTICK_CLOSE, i, i + 1)
                self.p = i + 1
                return 0
            i += 2 if s[i] == 92 else 1
        return self.unterminated(p, "`")

    cdef int paren_out(self, Frame* f) except -1:
        cdef Py_ssize_t p = self.p
        cdef Frame* parent
        cdef int flavour
        if f.ft == F_EXTPAT:
            self.emit(K_LIT, p, p + 1)
            self.p = p + 1
            if f.depth:
                f.depth -= 1
            else:
                self.top -= 1
            return 0
        if f.depth:
            f.depth -= 1
            self.emit(K_ARITH_LIT, p, p + 1)
            self.p = p + 1
            return 0
        flavour = f.aux
        if p + 1 < self.limit and self.s[p + 1] == 41:
            self.emit(K_ARITH_CLOSE if flavour == ARITH_DOLLAR else K_ARITH_CMD_CLOSE, p, p + 2)
            self.top -= 1
            self.p = p + 2
            if flavour == ARITH_COMMAND:
                parent = &self.stack[self.top]
                parent.flags = (parent.flags | FL_RESERVED_OK | FL_NAME_SEEN) & ~FL_ASSIGN_OK
            return 0
        # A single `)` closes the first paren: this was `$( (…` or `( (…`,
        # not arithmetic.  bash re-reads it that way; so do we.
        self.ntok = f.aux2
        self.top -= 1
        self.p = f.start
        self.nodparen.add(f.start)
        if flavour == ARITH_COMMAND:
            parent = &self.stack[self.top]
            self.emit(K_LPAREN, self.p, self.p + 1)
            parent.depth += 1
            parent.flags = FRESH
            self.p += 1
        return 0

    # ------------------------------------------------------------ command context
    cdef int need_word(self, Frame* f, Py_ssize_t offset, str text) except -1:
        # a redirection, <<, for, case or function left without its word
        if f.role != ROLE_NORMAL:
            self.grammar_error(text, offset)
            f.role = ROLE_NORMAL
        return 0

    cdef int newline(self, Frame* f, int kind) except -1:
        cdef Py_ssize_t p = self.p
        self.need_word(f, p, "newline")
        if f.flags & (FL_PATTERN_WORD | FL_PATTERN_BAR):  # `case x in a` + newline: `)` was due
            self.grammar_error("newline", p)
        self.emit(kind, p, p + 1)
        self.p = p + 1
        if f.ft == F_COND or f.ft == F_ARRAY:
            f.flags &= FL_REGEX_NEXT | FL_ARRAY_RESERVED | FL_COND_LEFT | FL_COND_OPERAND
        else:
            f.flags = FRESH
        if self.pending:
            self.next_heredoc()
        return 0

    cdef int operator(self, Frame* f, int kind, int length) except -1:
        cdef const unsigned char* s = self.s
        cdef Py_ssize_t p = self.p
        cdef Py_ssize_t end = p + length
        cdef int ft = f.ft
        if kind == K_LPAREN:
            if f.role == ROLE_FOR_NAME or (f.flags & FL_RESERVED_OK and not (self.nodparen and p in self.nodparen)):
                if p + 1 < self.limit and s[p + 1] == 40:
                    f.role = ROLE_NORMAL
                    self.emit(K_ARITH_CMD_OPEN, p, p + 2)
                    f = self.push(F_ARITH, p)
                    f.aux = ARITH_COMMAND
                    f.aux2 = self.ntok - 3
                    self.p = p + 2
                    return 0
            self.need_word(f, p, "(")
            if ft == F_ARRAY:  # bash: `a=( (1) )` is an error
                self.grammar_error("(", p)
            self.emit(K_LPAREN, p, end)
            self.p = end
            if ft == F_CASE and f.aux2 == CASE_PATTERN:
                return 0
            f.depth += 1
            f.flags = FRESH
            f.expect = EXPECT_NONE
            return 0
        if f.role != ROLE_NORMAL:
            self.need_word(f, p, (<const char*>s)[p:end].decode("latin-1"))
        if kind != K_OP and kind != K_RPAREN and ft == F_CASE and f.aux2 == CASE_PATTERN:
            # a redirection where a pattern is due
            self.grammar_error((<const char*>s)[p:end].decode("latin-1"), p)
        if kind == K_RPAREN:
            if ft == F_CASE and f.aux2 == CASE_PATTERN:
                self.emit(K_RPAREN, p, end)
                f.aux2 = CASE_BODY
                f.flags = FRESH
            elif f.depth:
                # `()` defines a function: what follows is read where a command starts
                funcdef = self.ntok >= 3 and self.toks[self.ntok - 3] == K_LPAREN
                self.emit(K_RPAREN, p, end)
                f.depth -= 1
                f.flags = FRESH if funcdef else FRESH | FL_NAME_SEEN
            elif ft == F_CMDSUB or ft == F_PROCSUB:
                if f.aux or f.expect == EXPECT_FOR_IN or f.expect == EXPECT_CASE_IN:
                    self.grammar_error(")", p)
                self.emit(K_CMDSUB_CLOSE if ft == F_CMDSUB else K_PROCSUB_CLOSE, p, end)
                self.top -= 1
            elif ft == F_ARRAY:
                self.emit(K_RPAREN, p, end)
                self.top -= 1
            else:
                self.grammar_error(")", p)
                self.emit(K_RPAREN, p, end)
            self.p = end
            return 0
        self.emit(kind, p, end)
        self.p = end
        if kind == K_OP:
            if s[p] == 59 and length >= 2 and (s[p + 1] == 59 or s[p + 1] == 38):  # ;; ;& ;;&
                if ft != F_CASE or f.aux2 != CASE_BODY or f.depth:
                    self.grammar_error((<const char*>s)[p:end].decode("latin-1"), p)
                else:
                    f.aux2 = CASE_PATTERN
            if ft != F_COND and ft != F_ARRAY:
                f.flags = FRESH
                if ft == F_CASE and f.aux2 == CASE_PATTERN and length == 1 and s[p] == 124:  # |
                    f.flags |= FL_PATTERN_BAR
            f.expect = EXPECT_NONE
        else:
            if kind == K_REDIR:
                f.role = ROLE_REDIR_TARGET
            else:  # here-document operator
                f.role = ROLE_HEREDOC_STRIP if s[end - 1] == 45 else ROLE_HEREDOC
            f.flags &= ~(FL_RESERVED_OK | FL_ASSIGN_OK | FL_DECL | FL_COPROC_NEXT) if f.flags & ENDS_ASSIGN_OK \
                else ~FL_RESERVED_OK
        return 0

    cdef int word_end(self, Frame* f) except -1:
        cdef const unsigned char* s = self.s
        cdef Py_ssize_t p = self.p
        cdef int c = s[p]
        cdef int regex
        if f.ft == F_COND:
            regex = f.flags & FL_REGEX_WORD
            if c == 40 and (regex or IS_EXTGLOB[s[p - 1]]):
                self.emit(K_LIT, p, p + 1)
                self.push(F_EXTPAT, p)
                self.p = p + 1
                return 0
            if c == 124 and regex:  # `|` is part of a =~ regex
                self.emit(K_LIT, p, p + 1)
                self.p = p + 1
                return 0
        return self.finish_word(f)

    cdef int finish_word(self, Frame* f) except -1:
        cdef int flags = f.flags & ~(FL_IN_WORD | FL_COPROC_NEXT)
        cdef int command_position
        cdef int role = f.role
        cdef int ft = f.ft
        cdef const unsigned char* s = self.s
        cdef Py_ssize_t ws = f.wstart
        cdef Py_ssize_t p = self.p
        cdef bint coproc_word = f.expect == EXPECT_COPROC_NAME
        if f.expect == EXPECT_TIME_OPTION or f.expect == EXPECT_COPROC_NAME:
            f.expect = EXPECT_NONE
        if role == ROLE_NORMAL:
            if coproc_word and not flags & FL_WORD_ASSIGN:
                flags |= FL_PAST_START | FL_COPROC_NEXT  # `coproc "x" y=(1)`: command position lasts
            elif ft == F_COND:
                if flags & FL_REGEX_WORD:
                    flags &= ~(FL_REGEX_WORD | FL_COND_OPERAND)  # the regex ends its term
                else:
                    flags = cond_word(flags, s + ws, p - ws)
            elif ft == F_ARRAY:
                pass
            elif ft == F_CASE and f.aux2 == CASE_PATTERN:
                flags = (flags | FL_PATTERN_WORD) & ~FL_PATTERN_BAR
            elif flags & FL_WORD_ASSIGN:
                flags &= ~(FL_WORD_ASSIGN | FL_RESERVED_OK)
            elif flags & FL_NAME_SEEN:
                # a word after `done`, `fi`, `]]`…: reserved words are no longer due
                flags &= ~FL_RESERVED_OK
            else:
                command_position = flags & FL_ASSIGN_OK
                flags = (flags | FL_NAME_SEEN) & ~(FL_RESERVED_OK | FL_ASSIGN_OK)
                if command_position and (flags & FL_DECL or
                                         p - ws >= 3 and find_word(s + ws, p - ws, N_RESERVED, N_WORDS) >= 0):
                    flags |= FL_ASSIGN_OK
        elif role == ROLE_HEREDOC or role == ROLE_HEREDOC_STRIP:
            delimiter, quoted = D.heredoc_delimiter((<const char*>s)[ws:p])
            self.pending.append((delimiter, role == ROLE_HEREDOC_STRIP, quoted))
            f.role = ROLE_NORMAL
        elif role == ROLE_REDIR_TARGET:
            f.role = ROLE_NORMAL
        elif role == ROLE_FOR_NAME:
            f.role = ROLE_NORMAL
            f.expect = EXPECT_FOR_IN
        elif role == ROLE_CASE_WORD:
            f.role = ROLE_NORMAL
            f.expect = EXPECT_CASE_IN
        elif role == ROLE_FUNC_NAME:
            f.role = ROLE_NORMAL
            flags |= FL_RESERVED_OK | FL_ASSIGN_OK  # read where a command starts (`name[` is a pair)
        f.flags = flags
        return 0

    cdef int word_begin(self, Frame* f) except -1:
        cdef const unsigned char* s = self.s
        cdef Py_ssize_t p = self.p
        cdef Py_ssize_t limit = self.limit
        cdef Py_ssize_t q, after
        cdef int ft = f.ft
        cdef int role = f.role
        cdef int flags = f.flags
        cdef bint in_pattern = ft == F_CASE and f.aux2 == CASE_PATTERN
        cdef bint plain_context = ft != F_COND and ft != F_ARRAY and not in_pattern
        cdef int c = s[p]
        cdef Frame* parent
        cdef Frame* sub
        if in_pattern and IS_DIGIT[c]:
            q = p
            while q < limit and IS_DIGIT[s[q]]:
                q += 1
            if q < limit and (s[q] == 60 or s[q] == 62):
                # bash reads a number before `<` or `>` as a descriptor (an int), unexpected here
                number = D.descriptor_number((<const char*>s)[p:q].decode("ascii"))
                if number is not None:
                    self.grammar_error(number, p)
        if in_pattern and flags & FL_PATTERN_WORD:  # two pattern words without `|`
            q = p
            while q < limit and not IS_META[s[q]]:
                q += 1
            self.grammar_error((<const char*>s)[p:q].decode("utf-8", "replace"), p)
        if role == ROLE_NORMAL and plain_context and (IS_DIGIT[c] or c == 123):
            if self.fd_redirection(f, p):
                return 0
        q = p
        while q < limit and IS_PLAIN[s[q]]:
            q += 1
        after = q  # bash drops a line continuation before it reads: `fi\<newline>` then EOF ends `fi`
        while after + 1 < limit and s[after] == 92 and s[after + 1] == 10:
            after += 2
        # `<(` and `>(` go on with the word (bash's read_token_word): `{<(true)` is no `{`
        if q > p and (after == limit or IS_META[s[after]] and not (
                (s[after] == 60 or s[after] == 62) and after + 1 < limit and s[after + 1] == 40)) \
                and role == ROLE_NORMAL:
            if ft == F_COND:
                if not flags & FL_REGEX_NEXT:
                    if q - p == 2 and s[p] == 93 and s[p + 1] == 93:  # ]]
                        self.emit(K_RESERVED, p, q)
                        self.p = q
                        self.top -= 1
                        parent = &self.stack[self.top]
                        parent.flags = (parent.flags | FL_NAME_SEEN | FL_RESERVED_OK) & ~FL_ASSIGN_OK
                        return 0
                    if q - p == 1 and c == 33 and not (q < limit and s[q] == 40):  # ! but not !(
                        self.emit(K_COND_OP, p, q)
                        self.p = q
                        f.flags = cond_operator(flags, s + p, 1)
                        return 0
            elif ft == F_ARRAY:
                if flags & FL_ARRAY_RESERVED and is_array_reserved_error(s + p, q - p):
                    self.grammar_error((<const char*>s)[p:q].decode("latin-1"), p)
            elif f.expect != EXPECT_NONE or in_pattern or flags & FL_RESERVED_OK:
                if self.reserved_word(f, find_word(s + p, q - p, 0, N_RESERVED), p, q, in_pattern):
                    return 0
                f = &self.stack[self.top]
        if ft == F_ARRAY and c == 91 and f.aux4 != p + 1:
            # a word of a compound assignment that starts with `[`: bash reads `[` … `]` as a
            # matched pair, blanks and newlines inside (its frame decides the word when it closes)
            sub = self.push(F_SUBSCRIPT, p)
            sub.aux = self.ntok
            sub.aux2 = p
            self.p = p + 1
            return 0
        if role == ROLE_NORMAL and f.flags & FL_ASSIGN_OK and plain_context:
            if IS_NAME_START[c]:
                if self.assignment(f, p):
                    return 0
            elif (c == 60 or c == 62) and p + 1 < limit and s[p + 1] == 40 and f.flags & ENDS_ASSIGN_OK:
                f.flags &= ~FL_ASSIGN_OK  # a process substitution: bash read `<` or `>` first
        flags = f.flags
        f.wstart = p
        if flags & FL_REGEX_NEXT:
            flags = (flags & ~FL_REGEX_NEXT) | FL_REGEX_WORD
        f.flags = flags | FL_IN_WORD
        return 0

    cdef bint after_pipe(self):
        # bash's time_command_acceptable: right after `|` or `|&`, or after one
        # newline following them, `time` is an ordinary word (`x | time y`)
        cdef Py_ssize_t i = self.ntok - 3
        cdef int kind, start, end
        cdef bint newline = False
        while i >= 0:
            kind = self.toks[i]
            if kind == K_NEWLINE and not newline:
                newline = True
            elif kind != K_COMMENT:
                start = self.toks[i + 1]
                end = self.toks[i + 2]
                return kind == K_OP and self.s[start] == 124 and (end - start == 1 or self.s[start + 1] == 38)
            i -= 3
        return False

    cdef bint assignment_start(self, Py_ssize_t p, Py_ssize_t q):
        # `name=` or `name+=` opens s[p:q]
        cdef const unsigned char* s = self.s
        if not IS_NAME_START[s[p]]:
            return False
        p += 1
        while p < q and IS_NAME_CHAR[s[p]]:
            p += 1
        if p < q and s[p] == 43:
            p += 1
        return p < q and s[p] == 61

    cdef bint fd_redirection(self, Frame* f, Py_ssize_t p) except -1:
        # `2>`, `10<&`, `{fd}>`: the prefix belongs to the redirection
        cdef const unsigned char* s = self.s
        cdef Py_ssize_t limit = self.limit
        cdef Py_ssize_t q = p
        if s[p] == 123:
            q = p + 1
            if q >= limit or not IS_NAME_START[s[q]]:
                return False
            while q < limit and IS_NAME_CHAR[s[q]]:
                q += 1
            if q >= limit or s[q] != 125:
                return False
            q += 1
        else:
            while q < limit and IS_DIGIT[s[q]]:
                q += 1
        if q >= limit or (s[q] != 60 and s[q] != 62) or (q + 1 < limit and s[q + 1] == 40):
            return False  # not a redirection, or a process substitution `2>(…)`
        cdef bytes rest = (<const char*>s)[q:min(q + 3, limit)]
        for kind, text in REDIRECTIONS:
            if rest.startswith(text):
                self.p = p
                self.operator(f, kind, q - p + len(text))
                return True
        return False

    cdef bint reserved_word(self, Frame* f, int word, Py_ssize_t p, Py_ssize_t q,
                            bint in_pattern) except -1:
        # word: index in the reserved-word table, or -1
        cdef int flags = f.flags
        cdef Frame* case
        cdef int effect
        if f.expect == EXPECT_FOR_IN:
            f.expect = EXPECT_NONE
            if word == RW_IN_ID or word == RW_DO_ID:
                self.emit(K_RESERVED, p, q)
                self.p = q
                if word == RW_DO_ID:
                    f.flags = FRESH
                else:
                    f.flags = (flags | FL_NAME_SEEN) & ~(FL_RESERVED_OK | FL_ASSIGN_OK)
                return True
        elif f.expect == EXPECT_TIME_OPTION:
            f.expect = EXPECT_NONE
            if q - p == 2 and self.s[p] == 45 and self.s[p + 1] == 112:  # -p
                self.emit(K_LIT, p, q)
                self.p = q
                return True
        elif f.expect == EXPECT_COPROC_NAME:
            f.expect = EXPECT_NONE
            # `coproc x=(1) cmd`: an assignment word is no name, the command starts there
            if (word < 0 or word == RW_TIME_ID) and not (flags & FL_ASSIGN_OK and self.assignment_start(p, q)):
                self.emit(K_LIT, p, q)
                self.p = q
                f.flags = flags | FL_PAST_START | FL_COPROC_NEXT
                if flags & FL_ASSIGN_OK and q - p >= 3 and \
                        find_word(self.s + p, q - p, N_RESERVED, N_WORDS) >= 0:
                    f.flags |= FL_DECL
                return True
        elif f.expect == EXPECT_CASE_IN:
            f.expect = EXPECT_NONE
            if word == RW_IN_ID:
                self.emit(K_RESERVED, p, q)
                self.p = q
                case = self.push_command(F_CASE, p)
                case.aux2 = CASE_PATTERN
                return True
        if in_pattern:
            if word == RW_ESAC_ID:
                self.emit(K_RESERVED, p, q)
                self.p = q
                self.close_case(f, p)
                return True
            return False
        if not flags & FL_RESERVED_OK:
            return False
        if word < 0 or word == RW_IN_ID or word == RW_CLOSE_COND_ID:
            return False
        effect = WORD_EFFECT[word]
        if effect & RW_TIME and self.after_pipe():
            return False
        self.emit(K_RESERVED, p, q)
        self.p = q
        if word == RW_ESAC_ID:
            if f.ft != F_CASE:
                self.grammar_error("esac", p)
                return True
            self.close_case(f, p)
            return True
        if effect & RW_OPEN:
            f.aux += 1
        if effect & RW_CLOSE:
            f.aux -= 1
            if f.aux < 0:
                self.grammar_error((<const char*>self.s)[p:q].decode("latin-1"), p)
                f.aux = 0
            # bash recognises a reserved word right after `done`, `fi`, `esac`
            # and `}` (its reserved_word_acceptable): `f() { for …; done }`
            f.flags = (flags | FL_NAME_SEEN | FL_RESERVED_OK) & ~FL_ASSIGN_OK
        elif effect & RW_START:
            f.flags = FRESH
            if effect & RW_TIME:
                f.expect = EXPECT_TIME_OPTION
            elif effect & RW_COPROC:
                f.expect = EXPECT_COPROC_NAME
        elif effect & RW_COND:
            f.flags = flags & ~(FL_RESERVED_OK | FL_ASSIGN_OK)
            self.push_command(F_COND, p).flags = 0
        else:
            f.flags = flags & ~(FL_RESERVED_OK | FL_ASSIGN_OK)
            if effect & RW_CASE:
                f.role = ROLE_CASE_WORD
            elif effect & RW_FOR:
                f.role = ROLE_FOR_NAME
            elif effect & RW_FUNCTION:
                f.role = ROLE_FUNC_NAME
        return True

    cdef int close_case(self, Frame* f, Py_ssize_t p) except -1:
        if f.aux or f.depth:
            self.grammar_error("esac", p)
        self.top -= 1
        cdef Frame* parent = &self.stack[self.top]
        parent.flags = (parent.flags | FL_NAME_SEEN | FL_RESERVED_OK) & ~FL_ASSIGN_OK
        return 0

    cdef bint assignment(self, Frame* f, Py_ssize_t p) except -1:
        # name=, name+=, name[subscript]= at the start of an assignment word
        cdef const unsigned char* s = self.s
        cdef Py_ssize_t limit = self.limit
        cdef Py_ssize_t q = p + 1
        cdef Py_ssize_t r
        cdef Frame* sub
        while q < limit and IS_NAME_CHAR[s[q]]:
            q += 1
        if q < limit and s[q] == 91:
            if not f.flags & FL_NAME_SEEN:
                # before the command name bash reads `name[` … `]` as a matched
                # pair: blanks and newlines inside, and one word even without `=`;
                # the subscript's frame decides the word when it closes
                sub = self.push(F_SUBSCRIPT, q)
                sub.aux = self.ntok
                sub.aux2 = p
                self.p = q + 1
                return True
            # an argument of a declaration builtin: a plain subscript only
            r = q + 1
            while r < limit and s[r] != 93 and not IS_META[s[r]]:
                r += 1
            if r >= limit or s[r] != 93:
                return False
            q = r + 1
        if q < limit and s[q] == 43:
            q += 1
        if q >= limit or s[q] != 61:
            return False
        self.assign(f, p, q + 1)
        return True

    cdef int subscript_close(self) except -1:
        """The `]` that closes the subscript of the word at its frame's aux2: the word is
        one token, an assignment when `=` or `+=` follows, else a plain word going on."""
        cdef Frame* sub = &self.stack[self.top]
        cdef Py_ssize_t p = sub.aux2
        cdef Py_ssize_t q = self.p + 1
        cdef const unsigned char* s = self.s
        cdef Py_ssize_t limit = self.limit
        self.ntok = sub.aux
        self.top -= 1
        cdef Frame* f = &self.stack[self.top]
        cdef Py_ssize_t r
        if f.ft == F_ARRAY:
            # `[k]=v` in an array: plain text is one word with its blanks; a subscript with
            # quotes or expansions is read again as words, now that its `]` is known to come
            for r in range(p, q):
                if s[r] in (34, 36, 39, 92, 96):  # " $ ' \ `
                    f.aux4 = p + 1
                    self.p = p
                    return 0
        elif q < limit and s[q] == 61:
            return self.assign(f, p, q + 1)
        elif q + 1 < limit and s[q] == 43 and s[q + 1] == 61:
            return self.assign(f, p, q + 2)
        self.emit(K_LIT, p, q)
        f.wstart = p
        f.flags |= FL_IN_WORD
        self.p = q
        return 0

    cdef int assign(self, Frame* f, Py_ssize_t p, Py_ssize_t q) except -1:
        """The assignment word's head `name…=` over p..q; an array's `(` after it."""
        cdef Frame* array
        cdef int coproc_next
        self.emit(K_ASSIGN, p, q)
        f.wstart = p
        f.flags |= FL_IN_WORD | FL_WORD_ASSIGN | FL_PAST_START
        self.p = q
        if q < self.limit and self.s[q] == 40:
            self.emit(K_LPAREN, q, q + 1)
            coproc_next = f.flags & FL_COPROC_NEXT
            array = self.push_command(F_ARRAY, q)
            array.flags = FL_ARRAY_RESERVED if coproc_next else 0
            self.p = q + 1
        return 0

    # ------------------------------------------------------------ here-documents
    cdef int next_heredoc(self) except -1:
        """Start the body of the first pending here-document at self.p."""
        cdef Py_ssize_t start, body_end, line_start, line_end
        cdef Frame* doc
        while self.pending:
            delimiter, strip, quoted = self.pending.pop(0)
            start = self.p
            body_end, line_start, line_end = D.heredoc_extent(
                self.owner_bytes(), start, self.limit, delimiter, strip, quoted)
            if quoted or body_end == start:
                if body_end > start:
                    self.emit(K_HEREDOC_BODY, start, body_end)
                self.p = body_end
                self.heredoc_end(line_start, line_end)
                continue
            doc = self.push(F_DOC, start)
            doc.aux = self.ntok
            doc.aux2 = self.limit
            doc.aux3 = line_start
            doc.aux4 = line_end
            self.stash.append(self.pending)  # here-documents still queued after this one
            self.pending = []
            self.docs += 1
            self.limit = body_end
            return 0
        return 0

    cdef object owner_bytes(self):
        # here-document bodies are searched with bytes.find: a str input is
        # copied to bytes once, the first time a here-document needs it
        if type(self.owner) is bytes:
            return self.owner
        if self.copy is None:
            self.copy = self.data_bytes()
        return self.copy

    cdef int heredoc_end(self, Py_ssize_t line_start, Py_ssize_t line_end) except -1:
        if line_start < 0:
            return 0
        self.emit(K_HEREDOC_END, line_start, line_end)
        self.p = line_end
        if line_end < self.limit and self.s[line_end] == 10:
            self.emit(K_NEWLINE, line_end, line_end + 1)
            self.p = line_end + 1
        return 0

    cdef bint at_limit(self) except -1:
        """Handle the end of the input or of a here-document body; True when done."""
        cdef Frame* f = &self.stack[self.top]
        cdef int ft = f.ft
        if IS_COMMAND_FRAME[ft] and f.flags & FL_IN_WORD:
            self.finish_word(f)
            return False
        if ft == F_DOC:
            self.top -= 1
            self.docs -= 1
            self.limit = f.aux2
            self.pending = self.stash.pop()
            self.heredoc_end(f.aux3, f.aux4)
            if self.pending:
                self.next_heredoc()
            return False
        if self.docs:
            self.abandon_doc()
            return False
        if ft == F_CASE and f.flags & (FL_PATTERN_WORD | FL_PATTERN_BAR):
            raise self.token_error("newline", self.n)  # bash -c reads a final newline
        if ft == F_TOP:
            self.need_word(f, self.n, "newline")
            if f.depth or f.aux or f.expect == EXPECT_FOR_IN or f.expect == EXPECT_CASE_IN:
                # bash's parser may meet an unexpected token before the end: the tokens go with the error
                error = self.error(D.UNEXPECTED_EOF, self.n, True)
                error.tokens = self.tokens_read()
                raise error
            return True
        raise self.unterminated_frame(f)

    cdef Tokens tokens_read(self):
        """A copy of the tokens read so far."""
        cdef Tokens tokens = Tokens.__new__(Tokens)
        tokens.data = <int*>malloc((self.ntok or 1) * sizeof(int))
        if tokens.data == NULL:
            raise MemoryError()
        memcpy(tokens.data, self.toks, self.ntok * sizeof(int))
        tokens.count = self.ntok // 3
        return tokens

    cdef object unterminated_frame(self, Frame* f):
        cdef int ft = f.ft
        cdef Py_ssize_t start = f.start
        if ft == F_DQ:
            return self.error(D.unterminated('"'), start)
        if ft == F_PARAM:
            return self.error(D.unterminated("}"), start)
        if ft == F_ARITH:
            return self.error(D.unterminated("]" if f.aux == ARITH_BRACKET else ")"), start)
        if ft == F_ARRAY or ft == F_EXTPAT:
            return self.error(D.unterminated(")"), start)
        if ft == F_SUBSCRIPT:
            return self.error(D.unterminated("]"), start)
        if ft == F_COND:
            return self.error("unexpected EOF while looking for `]]'", start)
        if ft == F_CASE:
            return self.error(D.UNEXPECTED_EOF, self.n, True)
        if f.aux2:  # a `$((` re-read as `$( (`
            return self.error(D.unterminated(")"), start)
        return self.error(D.unterminated(")"), self.n, True)  # $( <(

    cdef int unterminated(self, Py_ssize_t start, str closer) except -1:
        if self.docs:
            return self.abandon_doc()
        raise self.error(D.unterminated(closer), start)

    cdef int abandon_doc(self) except -1:
        """An expansion in an unquoted here-document body does not lex.

        It runs past the body or holds a syntax error: bash reads bodies as
        raw lines and expands them only at run time, so this is not a syntax
        error of the script, and the body stays one literal token.
        """
        while self.stack[self.top].ft != F_DOC:
            self.top -= 1
        cdef Frame* doc = &self.stack[self.top]
        self.ntok = doc.aux
        self.emit(K_DOC_LIT, doc.start, self.limit)
        self.p = self.limit
        return 0
