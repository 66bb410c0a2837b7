"""The pure-Python lexing engine: the mode table of ``lexdef`` run by a Python loop.

It is the fallback when the compiled engine is missing or disabled
(QBCORE_NO_EXTENSIONS=1) and the reference the compiled engine is tested
against; both follow the same table and the same actions, without recursion.
"""

import re

from . import lexdef as D
from .errors import ShellSyntaxError
from .lexdef import A, F, K, M

__all__ = ["lex", "Tokens"]

_KINDS = D.KINDS
_COMMENT = D.K.COMMENT
_LINE_CONT = D.K.LINE_CONT
_DISPATCH = D.DISPATCH
_RULES = D.COMPILED_RULES
_DEFAULTS = D.DEFAULTS
_MERGING = D.MERGING_KINDS
_META = D.META
_PLAIN = D.PLAIN_WORD
_NAME_START = D.NAME_START
_NAME_CHAR = D.NAME_CHAR
_ASSIGNMENT_START = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*\+?=")
_DIGIT = D.DIGIT
_COMMAND_FRAMES = D.COMMAND_FRAMES

# frame slots
# the characters that make an array's `[subscript]` be read again as words: quotes, expansions
_SUBSCRIPT_QUOTING = frozenset(b"\"$'\\`")
_FT, _START, _DEPTH, _FLAGS, _ROLE, _EXPECT, _WSTART, _AUX, _AUX2, _AUX3, _AUX4 = range(11)

_FRESH = D.FL_RESERVED_OK | D.FL_ASSIGN_OK
_WORD_ROLES_NEEDING_WORD = (D.ROLE_REDIR_TARGET, D.ROLE_HEREDOC, D.ROLE_HEREDOC_STRIP,
                            D.ROLE_FOR_NAME, D.ROLE_CASE_WORD, D.ROLE_FUNC_NAME)


class Tokens:
    """The token stream: a sequence of (kind, start, end) in source order."""

    __slots__ = ("_flat",)

    def __init__(self, flat=()):
        self._flat = list(flat)

    def __len__(self):
        return len(self._flat) // 3

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        count = len(self._flat) // 3
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError("token index out of range")
        flat = self._flat
        base = 3 * index
        return (_KINDS[flat[base]], flat[base + 1], flat[base + 2])

    def __iter__(self):
        flat = self._flat
        for base in range(0, len(flat), 3):
            yield (_KINDS[flat[base]], flat[base + 1], flat[base + 2])

    def __eq__(self, other):
        if isinstance(other, Tokens):
            return self._flat == other._flat
        try:
            return len(self) == len(other) and all(a == tuple(b) for a, b in zip(self, other))
        except TypeError:
            return NotImplemented

    __hash__ = None

    def __repr__(self):
        return f"Tokens({list(self)!r})"

    def grammar_tokens(self, source):
        """The tokens the parser reads, each (kind, start, end, text), comments left out;
        ``text`` is ``source`` sliced at the offsets, which are its indexes when it is
        ASCII (the caller's to know). None when a line continuation is among them:
        whether one joins a word is the parser's to decide."""
        flat = self._flat
        out = []
        for base in range(0, len(flat), 3):
            kind = flat[base]
            if kind == _COMMENT:
                continue
            if kind == _LINE_CONT:
                return None
            start, end = flat[base + 1], flat[base + 2]
            out.append((_KINDS[kind], start, end, source[start:end]))
        return out


def lex(source):
    """Lex bash source (str, or bytes taken as they are) into Tokens.

    Raises ShellSyntaxError for input bash would reject while reading it.
    """
    return Tokens(_Lexer(D.source_bytes(source)).run())


class _Lexer:
    __slots__ = ("s", "n", "p", "limit", "toks", "stack", "pending", "nodparen", "docs", "last_newline", "cont_at")

    def __init__(self, data):
        self.s = data
        self.n = len(data)
        self.p = 0
        self.limit = self.n
        self.toks = []
        self.stack = [self._command_frame(F.TOP, 0)]
        self.pending = []       # here-documents waiting for the next newline
        # where a `((` or `$((` was already found not to be arithmetic: each
        # is re-read once, so nested ones cannot make the work exponential
        self.nodparen = set()
        self.docs = 0           # here-document bodies being lexed (DOC frames on the stack)
        # bash reads a line it starts inside single quotes as if a newline ended it: a
        # backslash that ends the input there is a line continuation (`'a<newline>b' c\`
        # is `c`); cont_at is that backslash's offset once a quote holds the last newline
        self.last_newline = data.rfind(b"\n") if data.endswith(b"\\") else -1
        self.cont_at = -1

    @staticmethod
    def _command_frame(ftype, start):
        return [ftype, start, 0, _FRESH, D.ROLE_NORMAL, D.EXPECT_NONE, 0, 0, 0, 0, 0]

    @staticmethod
    def _frame(ftype, start, aux=0, aux2=0):
        return [ftype, start, 0, 0, 0, 0, 0, aux, aux2, 0, 0]

    # ------------------------------------------------------------ output
    def emit(self, kind, start, end):
        toks = self.toks
        if kind in _MERGING and toks and toks[-3] == kind and toks[-1] == start:
            toks[-1] = end
        else:
            toks.append(kind)
            toks.append(start)
            toks.append(end)

    def error(self, message, offset, at_eof=False):
        return D.syntax_error(self.s, message, offset, at_eof)

    def token_error(self, text, offset):
        return D.token_error(self.s, text, offset, self.pending)

    def grammar_error(self, text, offset):
        """Raise bash's unexpected-token error, unless inside a `$((` re-read
        as `$( (`: bash keeps that as text and parses it only when expanding
        it, so there the lexer goes on (the caller recovers)."""
        for frame in self.stack:
            if frame[_FT] == F.CMDSUB and frame[_AUX2]:
                return
        raise self.token_error(text, offset)

    # ------------------------------------------------------------ main loop
    def run(self):
        while True:
            try:
                return self.loop()
            except ShellSyntaxError:
                # bash reads a here-document body as raw lines and parses its
                # expansions only at run time: an error there is not a syntax
                # error of the script, and the body stays literal text
                if not self.docs:
                    raise
                self.abandon_doc()

    def loop(self):
        s = self.s
        stack = self.stack
        while True:
            p = self.p
            if p >= self.limit:
                if self.at_limit():
                    return self.toks
                continue
            frame = stack[-1]
            ft = frame[_FT]
            if ft in _COMMAND_FRAMES:
                if frame[_FLAGS] & D.FL_IN_WORD:
                    mode = M.CMD_WORD
                elif ft == F.COND:
                    mode = M.COND_START
                else:
                    mode = M.CMD_START
            elif ft == F.ARITH and frame[_AUX] == D.ARITH_BRACKET:
                mode = M.BRACKET
            else:
                mode = _FRAME_MODE[ft]
            c = s[p]
            for index in _DISPATCH[mode][c]:
                classes, action, kind, arg = _RULES[index]
                length = len(classes)
                if p + length <= self.limit and all(
                        s[p + i] in classes[i] for i in range(1, length)):
                    break
            else:
                if p == self.cont_at and (mode == M.CMD_WORD or mode == M.CMD_START):
                    self.emit(K.LINE_CONT, p, p + 1)
                    self.p = p + 1
                    continue
                action, kind = _DEFAULTS[mode]
                length = 0
                arg = 0
            _ACTIONS[action](self, frame, kind, length, arg)

    # ------------------------------------------------------------ simple actions
    def a_emit(self, frame, kind, length, arg):
        p = self.p
        if length == 0:  # the mode's default: the run of bytes without a rule
            table = _DISPATCH[_mode_of(frame)]
            s = self.s
            end = p + 1
            limit = self.limit
            while end < limit and not table[s[end]]:
                end += 1
            self.emit(kind, p, end)
            self.p = end
        else:
            self.emit(kind, p, p + length)
            self.p = p + length

    def a_escape(self, frame, kind, length, arg):
        # `\` and the whole character after it (UTF-8 continuation bytes too)
        s = self.s
        end = self.p + 2
        limit = self.limit
        if s[end - 1] >= 0xC0:
            while end < limit and 0x80 <= s[end] < 0xC0 and end - self.p < 5:
                end += 1
        self.emit(kind, self.p, end)
        self.p = end

    def a_var_name(self, frame, kind, length, arg):
        s = self.s
        end = self.p + 2
        limit = self.limit
        while end < limit and s[end] in _NAME_CHAR:
            end += 1
        self.emit(kind, self.p, end)
        self.p = end

    def a_sq(self, frame, kind, length, arg):
        p = self.p
        end = self.s.find(b"'", p + 1, self.limit)
        if end < 0:
            return self.unterminated(p, "'")
        if p < self.last_newline < end:
            self.cont_at = self.n - 1
        self.emit(kind, p, end + 1)
        self.p = end + 1

    def a_ansi(self, frame, kind, length, arg):
        s = self.s
        p = self.p
        i = p + 2
        limit = self.limit
        while i < limit:
            c = s[i]
            if c == 0x27:
                if p < self.last_newline < i:
                    self.cont_at = self.n - 1
                self.emit(kind, p, i + 1)
                self.p = i + 1
                return
            i += 2 if c == 0x5C else 1
        return self.unterminated(p, "'")

    def a_backtick(self, frame, kind, length, arg):
        # the body stays raw; a backslash protects the next byte from closing it
        s = self.s
        p = self.p
        i = p + 1
        limit = self.limit
        while i < limit:
            c = s[i]
            if c == 0x60:
                self.emit(K.BACKTICK_OPEN, p, p + 1)
                if i > p + 1:
                    self.emit(K.BACKTICK_BODY, p + 1, i)
                self.emit(K.BACKTICK_CLOSE, i, i + 1)
                self.p = i + 1
                return
            i += 2 if c == 0x5C else 1
        return self.unterminated(p, "`")

    def a_push(self, frame, kind, length, arg):
        p = self.p
        self.emit(kind, p, p + length)
        self.stack.append(self._frame(arg, p))
        self.p = p + length

    def a_pop(self, frame, kind, length, arg):
        p = self.p
        self.emit(kind, p, p + length)
        self.stack.pop()
        self.p = p + length

    def a_arith_open(self, frame, kind, length, arg):
        p = self.p
        if p in self.nodparen:  # `$((` that was not arithmetic: `$(` then `(`
            self.a_cmdsub(frame, K.CMDSUB_OPEN, 2, 0)
            self.stack[-1][_AUX2] = 1  # bash names the line of `$((` if it is left open
            return
        self.emit(kind, p, p + 3)
        self.stack.append(self._frame(F.ARITH, p, D.ARITH_DOLLAR, len(self.toks) - 3))
        self.p = p + 3

    def a_arith_bracket(self, frame, kind, length, arg):
        p = self.p
        self.emit(kind, p, p + 2)
        self.stack.append(self._frame(F.ARITH, p, D.ARITH_BRACKET))
        self.p = p + 2

    def a_cmdsub(self, frame, kind, length, arg):
        p = self.p
        self.emit(kind, p, p + 2)
        self.stack.append(self._command_frame(F.CMDSUB, p))
        self.p = p + 2

    def a_procsub(self, frame, kind, length, arg):
        p = self.p
        self.emit(kind, p, p + 2)
        self.stack.append(self._command_frame(F.PROCSUB, p))
        self.p = p + 2

    def a_paren_in(self, frame, kind, length, arg):
        frame[_DEPTH] += 1
        self.a_emit(frame, kind, 1, 0)

    def a_paren_out(self, frame, kind, length, arg):
        p = self.p
        if frame[_FT] == F.EXTPAT:
            self.a_emit(frame, K.LIT, 1, 0)
            if frame[_DEPTH]:
                frame[_DEPTH] -= 1
            else:
                self.stack.pop()
            return
        if frame[_DEPTH]:
            frame[_DEPTH] -= 1
            return self.a_emit(frame, K.ARITH_LIT, 1, 0)
        if p + 1 < self.limit and self.s[p + 1] == 0x29:
            closer = K.ARITH_CLOSE if frame[_AUX] == D.ARITH_DOLLAR else K.ARITH_CMD_CLOSE
            self.emit(closer, p, p + 2)
            self.stack.pop()
            self.p = p + 2
            if frame[_AUX] == D.ARITH_COMMAND:
                parent = self.stack[-1]
                parent[_FLAGS] = (parent[_FLAGS] | D.FL_RESERVED_OK | D.FL_NAME_SEEN) & ~D.FL_ASSIGN_OK
            return
        # A single `)` closes the first paren: this was `$( (…` or `( (…`,
        # not arithmetic.  bash re-reads it that way; so do we.
        del self.toks[frame[_AUX2]:]
        del self.stack[-1]
        self.p = frame[_START]
        self.nodparen.add(self.p)
        if frame[_AUX] == D.ARITH_COMMAND:
            parent = self.stack[-1]
            self.emit(K.LPAREN, self.p, self.p + 1)
            parent[_DEPTH] += 1
            parent[_FLAGS] = _FRESH
            self.p += 1

    def a_bracket_in(self, frame, kind, length, arg):
        frame[_DEPTH] += 1
        self.a_emit(frame, kind, 1, 0)

    def a_bracket_out(self, frame, kind, length, arg):
        if frame[_DEPTH]:
            frame[_DEPTH] -= 1
            return self.a_emit(frame, K.ARITH_LIT, 1, 0)
        if frame[_FT] == F.SUBSCRIPT:
            return self.subscript_close(frame)
        self.a_pop(frame, kind, 1, 0)

    # ------------------------------------------------------------ command context
    def a_blanks(self, frame, kind, length, arg):
        s = self.s
        p = self.p + 1
        limit = self.limit
        while p < limit and s[p] in (0x20, 0x09):
            p += 1
        self.p = p

    def a_comment(self, frame, kind, length, arg):
        p = self.p
        end = self.s.find(b"\n", p, self.limit)
        if end < 0:
            end = self.limit
        self.emit(kind, p, end)
        self.p = end

    def need_word(self, frame, offset, text):
        # a redirection, <<, for, case or function left without its word
        if frame[_ROLE] in _WORD_ROLES_NEEDING_WORD:
            self.grammar_error(text, offset)
            frame[_ROLE] = D.ROLE_NORMAL

    def a_newline(self, frame, kind, length, arg):
        p = self.p
        self.need_word(frame, p, "newline")
        if frame[_FLAGS] & (D.FL_PATTERN_WORD | D.FL_PATTERN_BAR):  # `case x in a` + newline: `)` was due
            self.grammar_error("newline", p)
        self.emit(kind, p, p + 1)
        self.p = p + 1
        if frame[_FT] in (F.COND, F.ARRAY):
            frame[_FLAGS] &= D.FL_REGEX_NEXT | D.FL_ARRAY_RESERVED | D.FL_COND_LEFT | D.FL_COND_OPERAND
        else:
            frame[_FLAGS] = _FRESH
        if self.pending:
            self.next_heredoc()

    def a_operator(self, frame, kind, length, arg):
        s = self.s
        p = self.p
        end = p + length
        ft = frame[_FT]
        role = frame[_ROLE]
        if kind == K.LPAREN:
            if role == D.ROLE_FOR_NAME or (frame[_FLAGS] & D.FL_RESERVED_OK and p not in self.nodparen):
                if p + 1 < self.limit and s[p + 1] == 0x28:
                    frame[_ROLE] = D.ROLE_NORMAL
                    self.emit(K.ARITH_CMD_OPEN, p, p + 2)
                    self.stack.append(self._frame(F.ARITH, p, D.ARITH_COMMAND, len(self.toks) - 3))
                    self.p = p + 2
                    return
            self.need_word(frame, p, "(")
            if ft == F.ARRAY:  # bash: `a=( (1) )` is an error
                self.grammar_error("(", p)
            self.emit(K.LPAREN, p, end)
            self.p = end
            if ft == F.CASE and frame[_AUX2] == D.CASE_PATTERN:
                return
            frame[_DEPTH] += 1
            frame[_FLAGS] = _FRESH
            frame[_EXPECT] = D.EXPECT_NONE
            return
        text = s[p:end].decode("latin-1")
        self.need_word(frame, p, text)
        if kind != K.OP and kind != K.RPAREN and ft == F.CASE and frame[_AUX2] == D.CASE_PATTERN:
            self.grammar_error(text, p)  # a redirection where a pattern is due
        if kind == K.RPAREN:
            if ft == F.CASE and frame[_AUX2] == D.CASE_PATTERN:
                self.emit(K.RPAREN, p, end)
                frame[_AUX2] = D.CASE_BODY
                frame[_FLAGS] = _FRESH
            elif frame[_DEPTH]:
                # `()` defines a function: what follows is read where a command starts
                funcdef = len(self.toks) >= 3 and self.toks[-3] == K.LPAREN
                self.emit(K.RPAREN, p, end)
                frame[_DEPTH] -= 1
                frame[_FLAGS] = _FRESH if funcdef else _FRESH | D.FL_NAME_SEEN
            elif ft in (F.CMDSUB, F.PROCSUB):
                if frame[_AUX] or frame[_EXPECT] in (D.EXPECT_FOR_IN, D.EXPECT_CASE_IN):
                    self.grammar_error(")", p)
                self.emit(K.CMDSUB_CLOSE if ft == F.CMDSUB else K.PROCSUB_CLOSE, p, end)
                self.stack.pop()
            elif ft == F.ARRAY:
                self.emit(K.RPAREN, p, end)
                self.stack.pop()
            else:
                self.grammar_error(")", p)
                self.emit(K.RPAREN, p, end)
            self.p = end
            return
        self.emit(kind, p, end)
        self.p = end
        if kind == K.OP:
            if text in (";;", ";&", ";;&"):
                if ft != F.CASE or frame[_AUX2] != D.CASE_BODY or frame[_DEPTH]:
                    self.grammar_error(text, p)
                else:
                    frame[_AUX2] = D.CASE_PATTERN
            if ft != F.COND and ft != F.ARRAY:
                frame[_FLAGS] = _FRESH
                if ft == F.CASE and frame[_AUX2] == D.CASE_PATTERN and text == "|":
                    frame[_FLAGS] |= D.FL_PATTERN_BAR
            frame[_EXPECT] = D.EXPECT_NONE
        else:
            if kind == K.REDIR:
                frame[_ROLE] = D.ROLE_REDIR_TARGET
            else:  # here-document operator
                frame[_ROLE] = D.ROLE_HEREDOC_STRIP if text.endswith("-") else D.ROLE_HEREDOC
            frame[_FLAGS] &= ~(D.FL_RESERVED_OK | D.FL_ASSIGN_OK | D.FL_DECL | D.FL_COPROC_NEXT) \
                if frame[_FLAGS] & D.ENDS_ASSIGN_OK else ~D.FL_RESERVED_OK

    def a_cond_op(self, frame, kind, length, arg):
        p = self.p
        if frame[_FLAGS] & D.FL_REGEX_NEXT and self.s[p] == 0x28:
            return self.a_word_begin(frame, 0, 0, 0)  # a regex may start with (
        self.emit(kind, p, p + length)
        self.p = p + length
        frame[_FLAGS] = D.cond_operator(frame[_FLAGS], self.s[p:p + length])

    def a_word_end(self, frame, kind, length, arg):
        s = self.s
        p = self.p
        c = s[p]
        if frame[_FT] == F.COND:
            regex = frame[_FLAGS] & D.FL_REGEX_WORD
            if c == 0x28 and (regex or s[p - 1] in D.EXTGLOB_PREFIX):
                self.emit(K.LIT, p, p + 1)
                self.stack.append(self._frame(F.EXTPAT, p))
                self.p = p + 1
                return
            if c == 0x7C and regex:  # `|` is part of a =~ regex
                self.emit(K.LIT, p, p + 1)
                self.p = p + 1
                return
        self.finish_word(frame)

    def finish_word(self, frame):
        flags = frame[_FLAGS] & ~(D.FL_IN_WORD | D.FL_COPROC_NEXT)
        role = frame[_ROLE]
        ft = frame[_FT]
        coproc_word = frame[_EXPECT] == D.EXPECT_COPROC_NAME
        if frame[_EXPECT] in (D.EXPECT_TIME_OPTION, D.EXPECT_COPROC_NAME):
            frame[_EXPECT] = D.EXPECT_NONE
        if role == D.ROLE_NORMAL:
            if coproc_word and not flags & D.FL_WORD_ASSIGN:
                flags |= D.FL_PAST_START | D.FL_COPROC_NEXT  # `coproc "x" y=(1)`: command position lasts
            elif ft == F.COND:
                if flags & D.FL_REGEX_WORD:
                    flags &= ~(D.FL_REGEX_WORD | D.FL_COND_OPERAND)  # the regex ends its term
                elif self.p - frame[_WSTART] <= 2:
                    flags = D.cond_word(flags, self.s[frame[_WSTART]:self.p])
                else:
                    flags = D.cond_word(flags, b"")  # (=~ and the unary operators, told apart, are 2 long)
            elif ft == F.ARRAY:
                pass
            elif ft == F.CASE and frame[_AUX2] == D.CASE_PATTERN:
                flags = (flags | D.FL_PATTERN_WORD) & ~D.FL_PATTERN_BAR
            elif flags & D.FL_WORD_ASSIGN:
                flags &= ~(D.FL_WORD_ASSIGN | D.FL_RESERVED_OK)
            elif flags & D.FL_NAME_SEEN:
                # a word after `done`, `fi`, `]]`…: reserved words are no longer due
                flags &= ~D.FL_RESERVED_OK
            else:
                command_position = flags & D.FL_ASSIGN_OK
                flags = (flags | D.FL_NAME_SEEN) & ~(D.FL_RESERVED_OK | D.FL_ASSIGN_OK)
                # length first: slicing a long word at every nesting level would be quadratic
                if command_position and (flags & D.FL_DECL or 3 <= self.p - frame[_WSTART] <= 8 and
                                         self.s[frame[_WSTART]:self.p] in D.DECLARATION_BUILTINS):
                    flags |= D.FL_ASSIGN_OK
        elif role in (D.ROLE_HEREDOC, D.ROLE_HEREDOC_STRIP):
            delimiter, quoted = D.heredoc_delimiter(self.s[frame[_WSTART]:self.p])
            self.pending.append((delimiter, role == D.ROLE_HEREDOC_STRIP, quoted))
            frame[_ROLE] = D.ROLE_NORMAL
        elif role == D.ROLE_REDIR_TARGET:
            frame[_ROLE] = D.ROLE_NORMAL
        elif role == D.ROLE_FOR_NAME:
            frame[_ROLE] = D.ROLE_NORMAL
            frame[_EXPECT] = D.EXPECT_FOR_IN
        elif role == D.ROLE_CASE_WORD:
            frame[_ROLE] = D.ROLE_NORMAL
            frame[_EXPECT] = D.EXPECT_CASE_IN
        elif role == D.ROLE_FUNC_NAME:
            frame[_ROLE] = D.ROLE_NORMAL
            flags |= D.FL_RESERVED_OK | D.FL_ASSIGN_OK  # read where a command starts (`name[` is a pair)
        frame[_FLAGS] = flags

    def a_word_begin(self, frame, kind, length, arg):
        s = self.s
        p = self.p
        limit = self.limit
        ft = frame[_FT]
        role = frame[_ROLE]
        flags = frame[_FLAGS]
        in_pattern = ft == F.CASE and frame[_AUX2] == D.CASE_PATTERN
        plain_context = ft != F.COND and ft != F.ARRAY and not in_pattern
        c = s[p]
        if in_pattern and c in _DIGIT:
            q = p
            while q < limit and s[q] in _DIGIT:
                q += 1
            if q < limit and s[q] in (0x3C, 0x3E):
                # bash reads a number before `<` or `>` as a descriptor (an int), unexpected here
                number = D.descriptor_number(s[p:q].decode("ascii"))
                if number is not None:
                    self.grammar_error(number, p)
        if in_pattern and flags & D.FL_PATTERN_WORD:  # two pattern words without `|`
            q = p
            while q < limit and s[q] not in _META:
                q += 1
            self.grammar_error(s[p:q].decode("utf-8", "replace"), p)
        if role == D.ROLE_NORMAL and plain_context and (c in _DIGIT or c == 0x7B):
            if self.fd_redirection(frame, p):
                return
        # reserved words: a whole word of plain characters
        q = p
        while q < limit and s[q] in _PLAIN:
            q += 1
        after = q  # bash drops a line continuation before it reads: `fi\<newline>` then EOF ends `fi`
        while after + 1 < limit and s[after] == 0x5C and s[after + 1] == 0x0A:
            after += 2
        # `<(` and `>(` go on with the word (bash's read_token_word): `{<(true)` is no `{`
        if q > p and (after == limit or s[after] in _META and not (
                (s[after] == 0x3C or s[after] == 0x3E) and after + 1 < limit and s[after + 1] == 0x28)) \
                and role == D.ROLE_NORMAL:
            word = s[p:q]
            if ft == F.COND:
                if not flags & D.FL_REGEX_NEXT:
                    if word == b"]]":
                        self.emit(K.RESERVED, p, q)
                        self.p = q
                        self.stack.pop()
                        parent = self.stack[-1]
                        parent[_FLAGS] = (parent[_FLAGS] | D.FL_NAME_SEEN | D.FL_RESERVED_OK) & \
                            ~D.FL_ASSIGN_OK
                        return
                    if word == b"!" and not (q < limit and s[q] == 0x28):
                        # `!(…)` is an extglob word, a lone `!` negates
                        self.emit(K.COND_OP, p, q)
                        self.p = q
                        frame[_FLAGS] = D.cond_operator(flags, word)
                        return
            elif ft == F.ARRAY:
                if flags & D.FL_ARRAY_RESERVED and word in D.ARRAY_RESERVED_ERRORS:
                    self.grammar_error(word.decode("latin-1"), p)
            elif self.reserved_word(frame, word, p, q, in_pattern):
                return
        if ft == F.ARRAY and c == 0x5B and frame[_AUX4] != p + 1:
            # a word of a compound assignment that starts with `[`: bash reads `[` … `]` as a
            # matched pair, blanks and newlines inside (its frame decides the word when it closes)
            self.stack.append(self._frame(F.SUBSCRIPT, p, len(self.toks), p))
            self.p = p + 1
            return
        if role == D.ROLE_NORMAL and flags & D.FL_ASSIGN_OK and plain_context:
            if c in _NAME_START:
                if self.assignment(frame, p):
                    return
            elif (c == 0x3C or c == 0x3E) and p + 1 < limit and s[p + 1] == 0x28 and \
                    flags & D.ENDS_ASSIGN_OK:
                flags &= ~D.FL_ASSIGN_OK  # a process substitution: bash read `<` or `>` first
        frame[_WSTART] = p
        if flags & D.FL_REGEX_NEXT:
            flags = (flags & ~D.FL_REGEX_NEXT) | D.FL_REGEX_WORD
        frame[_FLAGS] = flags | D.FL_IN_WORD

    def fd_redirection(self, frame, p):
        # `2>`, `10<&`, `{fd}>`: the prefix belongs to the redirection
        s = self.s
        limit = self.limit
        q = p
        if s[p] == 0x7B:
            q = p + 1
            if q >= limit or s[q] not in _NAME_START:
                return False
            while q < limit and s[q] in _NAME_CHAR:
                q += 1
            if q >= limit or s[q] != 0x7D:
                return False
            q += 1
        else:
            while q < limit and s[q] in _DIGIT:
                q += 1
        if q >= limit or s[q] not in (0x3C, 0x3E) or (q + 1 < limit and s[q + 1] == 0x28):
            return False  # not a redirection, or a process substitution `2>(…)`
        for kind, text in _REDIRECTIONS:
            if s.startswith(text, q) and q + len(text) <= limit:
                self.p = p
                self.a_operator(frame, kind, q - p + len(text), 0)
                return True
        return False

    def reserved_word(self, frame, word, p, q, in_pattern):
        expect = frame[_EXPECT]
        flags = frame[_FLAGS]
        if expect == D.EXPECT_FOR_IN:
            frame[_EXPECT] = D.EXPECT_NONE
            if word == b"in" or word == b"do":
                self.emit(K.RESERVED, p, q)
                self.p = q
                if word == b"do":
                    frame[_FLAGS] = _FRESH
                else:
                    frame[_FLAGS] = (flags | D.FL_NAME_SEEN) & ~(D.FL_RESERVED_OK | D.FL_ASSIGN_OK)
                return True
        elif expect == D.EXPECT_TIME_OPTION:
            frame[_EXPECT] = D.EXPECT_NONE
            if word == b"-p":
                self.emit(K.LIT, p, q)
                self.p = q
                return True
        elif expect == D.EXPECT_COPROC_NAME:
            frame[_EXPECT] = D.EXPECT_NONE
            # `coproc x=(1) cmd`: an assignment word is no name, the command starts there
            if (word not in D.RESERVED_BYTES or word == b"time") and not (flags & D.FL_ASSIGN_OK and _ASSIGNMENT_START.match(word)):
                self.emit(K.LIT, p, q)
                self.p = q
                frame[_FLAGS] = flags | D.FL_PAST_START | D.FL_COPROC_NEXT | \
                    (D.FL_DECL if flags & D.FL_ASSIGN_OK and word in D.DECLARATION_BUILTINS else 0)
                return True
        elif expect == D.EXPECT_CASE_IN:
            frame[_EXPECT] = D.EXPECT_NONE
            if word == b"in":
                self.emit(K.RESERVED, p, q)
                self.p = q
                case = self._command_frame(F.CASE, p)
                case[_AUX2] = D.CASE_PATTERN
                self.stack.append(case)
                return True
        if in_pattern:
            if word == b"esac":
                self.close_case(frame, p, q)
                return True
            return False
        if not flags & D.FL_RESERVED_OK:
            return False
        effect = D.RESERVED_BYTES.get(word)
        if effect is None or word == b"in" or word == b"]]":
            return False
        if effect & D.RW_TIME and self.after_pipe():
            return False
        self.emit(K.RESERVED, p, q)
        self.p = q
        if word == b"esac":
            if frame[_FT] != F.CASE:
                self.grammar_error("esac", p)
                return True
            self.close_case(frame, p, q, emitted=True)
            return True
        if effect & D.RW_OPEN:
            frame[_AUX] += 1
        if effect & D.RW_CLOSE:
            frame[_AUX] -= 1
            if frame[_AUX] < 0:
                self.grammar_error(word.decode("latin-1"), p)
                frame[_AUX] = 0
            # bash recognises a reserved word right after `done`, `fi`, `esac`
            # and `}` (its reserved_word_acceptable): `f() { for …; done }`
            frame[_FLAGS] = (flags | D.FL_NAME_SEEN | D.FL_RESERVED_OK) & ~D.FL_ASSIGN_OK
        elif effect & D.RW_START:
            frame[_FLAGS] = _FRESH
            if effect & D.RW_TIME:
                frame[_EXPECT] = D.EXPECT_TIME_OPTION
            elif effect & D.RW_COPROC:
                frame[_EXPECT] = D.EXPECT_COPROC_NAME
        elif effect & D.RW_COND:
            frame[_FLAGS] = flags & ~(D.FL_RESERVED_OK | D.FL_ASSIGN_OK)
            self.stack.append(self._command_frame(F.COND, p))
            self.stack[-1][_FLAGS] = 0
        else:
            frame[_FLAGS] = flags & ~(D.FL_RESERVED_OK | D.FL_ASSIGN_OK)
            if effect & D.RW_CASE:
                frame[_ROLE] = D.ROLE_CASE_WORD
            elif effect & D.RW_FOR:
                frame[_ROLE] = D.ROLE_FOR_NAME
            elif effect & D.RW_FUNCTION:
                frame[_ROLE] = D.ROLE_FUNC_NAME
        return True

    def after_pipe(self):
        # bash's time_command_acceptable: right after `|` or `|&`, or after one
        # newline following them, `time` is an ordinary word (`x | time y`)
        toks = self.toks
        i = len(toks) - 3
        newlines = 0
        while i >= 0:
            kind = toks[i]
            if kind == K.NEWLINE and not newlines:
                newlines = 1
            elif kind != K.COMMENT:
                start, end = toks[i + 1], toks[i + 2]
                return kind == K.OP and self.s[start] == 0x7C and (end - start == 1 or self.s[start + 1] == 0x26)
            i -= 3
        return False

    def close_case(self, frame, p, q, emitted=False):
        if not emitted:
            self.emit(K.RESERVED, p, q)
            self.p = q
        if frame[_AUX] or frame[_DEPTH]:
            self.grammar_error("esac", p)
        self.stack.pop()
        parent = self.stack[-1]
        parent[_FLAGS] = (parent[_FLAGS] | D.FL_NAME_SEEN | D.FL_RESERVED_OK) & ~D.FL_ASSIGN_OK

    def assignment(self, frame, p):
        # name=, name+=, name[subscript]= at the start of an assignment word
        s = self.s
        limit = self.limit
        q = p + 1
        while q < limit and s[q] in _NAME_CHAR:
            q += 1
        if q < limit and s[q] == 0x5B:
            if not frame[_FLAGS] & D.FL_NAME_SEEN:
                # before the command name bash reads `name[` … `]` as a matched
                # pair: blanks and newlines inside, and one word even without `=`;
                # the subscript's frame decides the word when it closes
                self.stack.append(self._frame(F.SUBSCRIPT, q, len(self.toks), p))
                self.p = q + 1
                return True
            # an argument of a declaration builtin: a plain subscript only
            r = q + 1
            while r < limit and s[r] != 0x5D and s[r] not in _META:
                r += 1
            if r >= limit or s[r] != 0x5D:
                return False
            q = r + 1
        if q < limit and s[q] == 0x2B:
            q += 1
        if q >= limit or s[q] != 0x3D:
            return False
        self.assign(frame, p, q + 1)
        return True

    def subscript_close(self, sub):
        """The `]` that closes the subscript of the word at sub[_AUX2]: the word is one
        token, an assignment when `=` or `+=` follows, else a plain word going on."""
        self.stack.pop()
        del self.toks[sub[_AUX]:]
        frame = self.stack[-1]
        p = sub[_AUX2]
        q = self.p + 1
        s = self.s
        limit = self.limit
        if frame[_FT] == F.ARRAY:
            # `[k]=v` in an array: plain text is one word with its blanks; a subscript with
            # quotes or expansions is read again as words, now that its `]` is known to come
            if any(ch in _SUBSCRIPT_QUOTING for ch in s[p:q]):
                frame[_AUX4] = p + 1
                self.p = p
                return
        elif q < limit and s[q] == 0x3D:
            return self.assign(frame, p, q + 1)
        elif q + 1 < limit and s[q] == 0x2B and s[q + 1] == 0x3D:
            return self.assign(frame, p, q + 2)
        self.emit(K.LIT, p, q)
        frame[_WSTART] = p
        frame[_FLAGS] |= D.FL_IN_WORD
        self.p = q

    def assign(self, frame, p, q):
        """The assignment word's head `name…=` over p..q; an array's `(` after it."""
        self.emit(K.ASSIGN, p, q)
        frame[_WSTART] = p
        frame[_FLAGS] |= D.FL_IN_WORD | D.FL_WORD_ASSIGN | D.FL_PAST_START
        self.p = q
        if q < self.limit and self.s[q] == 0x28:
            self.emit(K.LPAREN, q, q + 1)
            array = self._command_frame(F.ARRAY, q)
            array[_FLAGS] = D.FL_ARRAY_RESERVED if frame[_FLAGS] & D.FL_COPROC_NEXT else 0
            self.stack.append(array)
            self.p = q + 1

    # ------------------------------------------------------------ here-documents
    def next_heredoc(self):
        """Start the body of the first pending here-document at self.p."""
        while self.pending:
            delimiter, strip, quoted = self.pending.pop(0)
            start = self.p
            body_end, line_start, line_end = D.heredoc_extent(
                self.s, start, self.limit, delimiter, strip, quoted)
            if quoted or body_end == start:
                if body_end > start:
                    self.emit(K.HEREDOC_BODY, start, body_end)
                self.p = body_end
                self.heredoc_end(line_start, line_end)
                continue
            doc = self._frame(F.DOC, start, len(self.toks), self.limit)
            doc[_AUX3] = line_start
            doc[_AUX4] = line_end
            doc[_ROLE] = self.pending  # here-documents still queued after this one
            self.pending = []
            self.stack.append(doc)
            self.docs += 1
            self.limit = body_end
            return

    def heredoc_end(self, line_start, line_end):
        if line_start < 0:
            return
        self.emit(K.HEREDOC_END, line_start, line_end)
        self.p = line_end
        if line_end < self.limit and self.s[line_end] == 0x0A:
            self.emit(K.NEWLINE, line_end, line_end + 1)
            self.p = line_end + 1

    def at_limit(self):
        """Handle the end of the input or of a here-document body; True when done."""
        stack = self.stack
        frame = stack[-1]
        ft = frame[_FT]
        if ft in _COMMAND_FRAMES and frame[_FLAGS] & D.FL_IN_WORD:
            self.finish_word(frame)
            return False
        if ft == F.DOC:
            stack.pop()
            self.docs -= 1
            self.limit = frame[_AUX2]
            self.pending = frame[_ROLE]
            self.heredoc_end(frame[_AUX3], frame[_AUX4])
            if self.pending:
                self.next_heredoc()
            return False
        if self.docs:
            self.abandon_doc()
            return False
        if ft == F.CASE and frame[_FLAGS] & (D.FL_PATTERN_WORD | D.FL_PATTERN_BAR):
            raise self.token_error("newline", self.n)  # bash -c reads a final newline
        if ft == F.TOP:
            self.need_word(frame, self.n, "newline")
            if frame[_DEPTH] or frame[_AUX] or frame[_EXPECT] in (D.EXPECT_FOR_IN, D.EXPECT_CASE_IN):
                # bash's parser may meet an unexpected token before the end: the tokens go with the error
                error = self.error(D.UNEXPECTED_EOF, self.n, at_eof=True)
                error.tokens = Tokens(self.toks)
                raise error
            return True
        raise self.unterminated_frame(frame)

    def unterminated_frame(self, frame):
        ft = frame[_FT]
        start = frame[_START]
        if ft == F.DQ:
            return self.error(D.unterminated('"'), start)
        if ft == F.PARAM:
            return self.error(D.unterminated("}"), start)
        if ft == F.ARITH:
            return self.error(D.unterminated("]" if frame[_AUX] == D.ARITH_BRACKET else ")"), start)
        if ft in (F.ARRAY, F.EXTPAT):
            return self.error(D.unterminated(")"), start)
        if ft == F.SUBSCRIPT:
            return self.error(D.unterminated("]"), start)
        if ft == F.COND:
            return self.error("unexpected EOF while looking for `]]'", start)
        if ft == F.CASE:
            return self.error(D.UNEXPECTED_EOF, self.n, at_eof=True)
        if frame[_AUX2]:  # a `$((` re-read as `$( (`
            return self.error(D.unterminated(")"), start)
        return self.error(D.unterminated(")"), self.n, at_eof=True)  # $( <(

    def unterminated(self, start, closer):
        if self.docs:
            return self.abandon_doc()
        raise self.error(D.unterminated(closer), start)

    def abandon_doc(self):
        """An expansion in an unquoted here-document body does not lex.

        It runs past the body or holds a syntax error: bash reads bodies as
        raw lines and expands them only at run time, so this is not a syntax
        error of the script, and the body stays one literal token.
        """
        stack = self.stack
        while stack[-1][_FT] != F.DOC:
            stack.pop()
        doc = stack[-1]
        del self.toks[doc[_AUX]:]
        self.emit(K.DOC_LIT, doc[_START], self.limit)
        self.p = self.limit


def _mode_of(frame):
    ft = frame[_FT]
    if ft in _COMMAND_FRAMES:
        if frame[_FLAGS] & D.FL_IN_WORD:
            return M.CMD_WORD
        return M.COND_START if ft == F.COND else M.CMD_START
    if ft == F.ARITH and frame[_AUX] == D.ARITH_BRACKET:
        return M.BRACKET
    return _FRAME_MODE[ft]


_FRAME_MODE = {F.DQ: M.DQ, F.PARAM: M.PARAM, F.ARITH: M.ARITH, F.DOC: M.DOC, F.EXTPAT: M.EXTPAT,
               F.SUBSCRIPT: M.SUBSCRIPT}
_REDIRECTIONS = [(kind, text.encode()) for kind, text in D.REDIRECTIONS]
_ACTIONS = [getattr(_Lexer, "a_" + name.lower()) for name in D.ACTIONS]
