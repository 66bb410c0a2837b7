# The compiled build's declarations for parser.py (Cython's pure-Python mode):
# the syntax nodes become extension types with typed fields, and the parser's
# internals typed locals and C-level calls. The .py stays the one source; the
# pure engine never reads this file. Spans are plain objects: the other model
# modules read them as Python ints, which a C field would box on every read.
# Text fields are plain objects too: the model builds nodes from its values,
# which may be str subclasses (values.Partial) that a `str` field refuses.
# Cython's dataclass takes its field order from these declarations, not from the
# .py: each class lists its fields one per line, in the order of the .py.

cimport cython


cdef class Script:
    cdef public object source
    cdef public tuple chunks
    cdef public object error
    cdef public object parsed_until
    cdef public list _newlines

cdef class Word:
    cdef public tuple parts
    cdef public object start
    cdef public object end

cdef class Lit:
    cdef public object text
    cdef public object start
    cdef public object end

cdef class Escaped:
    cdef public object char
    cdef public object start
    cdef public object end

cdef class SingleQuoted:
    cdef public object text
    cdef public object start
    cdef public object end

cdef class AnsiC:
    cdef public object text
    cdef public object start
    cdef public object end

cdef class DoubleQuoted:
    cdef public tuple parts
    cdef public bint locale
    cdef public object start
    cdef public object end

cdef class Param:
    cdef public object name
    cdef public object index
    cdef public bint length
    cdef public bint indirect
    cdef public object op
    cdef public Word arg
    cdef public Word arg2
    cdef public bint braced
    cdef public object start
    cdef public object end

cdef class CmdSub:
    cdef public Script script
    cdef public bint backtick
    cdef public object start
    cdef public object end

cdef class Arith:
    cdef public tuple parts
    cdef public object start
    cdef public object end

cdef class ProcSub:
    cdef public object direction
    cdef public Script script
    cdef public object start
    cdef public object end

cdef class Heredoc:
    cdef public object delimiter
    cdef public bint quoted
    cdef public bint strip_tabs
    cdef public object raw
    cdef public tuple parts
    cdef public bint terminated
    cdef public object start
    cdef public object end

cdef class Redirect:
    cdef public object op
    cdef public object fd
    cdef public Word target
    cdef public Heredoc heredoc
    cdef public object start
    cdef public object end

cdef class Assignment:
    cdef public object name
    cdef public object index
    cdef public bint append
    cdef public Word value
    cdef public tuple array
    cdef public object start
    cdef public object end

cdef class SimpleCommand:
    cdef public tuple assignments
    cdef public tuple words
    cdef public tuple redirects
    cdef public object start
    cdef public object end
    cdef public object line

cdef class Pipeline:
    cdef public tuple commands
    cdef public bint negated
    cdef public bint timed
    cdef public tuple stderr
    cdef public object start
    cdef public object end

cdef class AndOr:
    cdef public tuple pipelines
    cdef public tuple ops
    cdef public object start
    cdef public object end

cdef class ListItem:
    cdef public AndOr command
    cdef public bint background
    cdef public object start
    cdef public object end

cdef class Group:
    cdef public tuple body
    cdef public tuple redirects
    cdef public object start
    cdef public object end

cdef class Subshell:
    cdef public tuple body
    cdef public tuple redirects
    cdef public object start
    cdef public object end

cdef class If:
    cdef public tuple clauses
    cdef public tuple else_body
    cdef public tuple redirects
    cdef public object start
    cdef public object end

cdef class While:
    cdef public tuple condition
    cdef public tuple body
    cdef public bint until
    cdef public tuple redirects
    cdef public object start
    cdef public object end

cdef class For:
    cdef public object name
    cdef public tuple items
    cdef public tuple body
    cdef public bint select
    cdef public tuple redirects
    cdef public object start
    cdef public object end

cdef class ArithFor:
    cdef public Arith init
    cdef public Arith test
    cdef public Arith step
    cdef public tuple body
    cdef public tuple redirects
    cdef public object start
    cdef public object end

cdef class CaseArm:
    cdef public tuple patterns
    cdef public tuple body
    cdef public object terminator
    cdef public object start
    cdef public object end

cdef class Case:
    cdef public Word word
    cdef public tuple arms
    cdef public tuple redirects
    cdef public object start
    cdef public object end

cdef class CondOp:
    cdef public object op
    cdef public object start
    cdef public object end

cdef class Cond:
    cdef public tuple items
    cdef public tuple redirects
    cdef public object start
    cdef public object end

cdef class ArithCommand:
    cdef public Arith expr
    cdef public tuple redirects
    cdef public object start
    cdef public object end

cdef class FunctionDef:
    cdef public object name
    cdef public object body
    cdef public object start
    cdef public object end

cdef class Coproc:
    cdef public object name
    cdef public object command
    cdef public object start
    cdef public object end

cdef class Chunk:
    cdef public tuple items
    cdef public object start
    cdef public object end
    cdef public object first_line
    cdef public object last_line


# ---------------------------------------------------------------- the parser
#
# Its methods call one another as C functions (a Python method call is most of
# the cost of a method that reads one token); script_chunks is the entry point
# the module-level functions call, so it stays callable from Python.

cdef class _Parser:
    cdef public object source  # the caller's text: a str subclass too
    cdef public bytes raw
    cdef public list toks
    cdef public Py_ssize_t n, i, nesting
    cdef public list newlines
    cdef public list pending_heredocs

    cdef str text(self, tuple tok)
    @cython.locals(toks=list, kept=list, i=Py_ssize_t, kind=str)
    cdef _prepare(self)
    @cython.locals(toks=list, j=Py_ssize_t)
    cdef bint _joins_word(self, Py_ssize_t i) except -1
    cdef tuple peek(self)
    cdef str kind(self)
    cdef tuple take(self)
    cdef fail(self, tuple tok=*)
    @cython.locals(j=Py_ssize_t, depth=Py_ssize_t, nxt=tuple)
    cdef str _word_text_at(self, tuple tok)
    @cython.locals(j=Py_ssize_t, remaining=Py_ssize_t)
    cdef _report_offset(self, tuple tok)
    @cython.locals(tok=tuple, kind=str, text=str)
    cdef str reserved(self)
    cdef bint _adjacent_part(self, Py_ssize_t i) except -1
    cdef tuple expect_reserved(self, str word)
    @cython.locals(tok=tuple)
    cdef bint is_op(self, tuple ops) except -1

    @cython.locals(tok=tuple, pending=list)
    cdef tuple newline(self)
    cdef linebreak(self)
    @cython.locals(tok=tuple, kind=str, raw_parts=list, parts=list, mark=Py_ssize_t, pending=list)
    cdef Heredoc _heredoc_body(self, bint strip, Word delim_word)
    @cython.locals(first=tuple, last=tuple, tok=tuple, kind=str, depth=Py_ssize_t)
    cdef Lit _unparsed_rest_of_body(self)

    @cython.locals(tok=tuple, items=list)
    cpdef script_chunks(self, list chunks)
    @cython.locals(items=list, andor=AndOr, sep=tuple, tok=tuple)
    cdef list line_items(self)
    cdef tuple compound_list(self, tuple closers)
    cdef enter(self)
    @cython.locals(items=list, tok=tuple, word=str, andor=AndOr, sep=tuple)
    cdef tuple _compound_list(self, tuple closers)
    @cython.locals(pipelines=list, ops=list)
    cdef AndOr and_or(self)
    @cython.locals(start_tok=tuple, tok=tuple, commands=list, stderr=list)
    cdef Pipeline pipeline(self)

    @cython.locals(tok=tuple, word=str, kind=str)
    cdef command(self)
    cdef _end(self)
    @cython.locals(out=list, kind=str)
    cdef tuple redirects(self)
    @cython.locals(tok=tuple, target=Word)
    cdef Redirect redirect(self)
    @cython.locals(tok=tuple, delim=Word, redirect=Redirect)
    cdef Redirect heredoc_redirect(self)
    @cython.locals(assignments=list, words=list, redirects=list, elements=Py_ssize_t, tok=tuple, kind=str,
                   word=Word, assignment=Assignment)
    cdef simple_command(self)
    @cython.locals(tok=tuple)
    cdef _line_after(self, offset)
    @cython.locals(tok=tuple, text=str, open_tok=tuple, close=tuple, elements=list, kind=str, word=Word,
                   tail=Word)
    cdef Assignment assignment(self)
    cdef FunctionDef function_def(self, Word name_word, start)
    @cython.locals(word=str, tok=tuple)
    cdef function_body(self)
    @cython.locals(name_word=Word)
    cdef FunctionDef function_keyword(self)
    @cython.locals(tok=tuple, nxt=tuple)
    cdef Coproc coproc(self)
    cdef Group group(self)
    cdef Subshell subshell(self)
    @cython.locals(clauses=list, word=str)
    cdef If if_clause(self)
    @cython.locals(tok=tuple)
    cdef While while_clause(self)
    @cython.locals(word=str)
    cdef tuple do_group(self)
    @cython.locals(tok=tuple, name_word=Word, kind=str)
    cdef for_clause(self)
    @cython.locals(expr=Arith, pieces=list)
    cdef ArithFor arith_for(self, start)
    @cython.locals(word=Word, arms=list, tok=tuple, patterns=list, pattern=Word, terminator=str)
    cdef Case case_clause(self)
    @cython.locals(items=list, tok=tuple, close=tuple)
    cdef Cond cond(self)

    @cython.locals(i=Py_ssize_t, tok=tuple, kind=str, parts=list)
    cdef Word word(self)
    @cython.locals(tok=tuple, kind=str, text=str, parts=list, inner=tuple)
    cdef part(self, quoted_context)
    cdef Script nested_script(self, str close_kind)
    @cython.locals(items=list, saved_pending=list, tok=tuple, andor=AndOr, sep=tuple, close=tuple, chunk=Chunk)
    cdef Script _nested_script(self, str close_kind)
    @cython.locals(start=Py_ssize_t, saved=list, depth=Py_ssize_t, kind=str, close=tuple, body=str)
    cdef CmdSub unarithmetic_substitution(self, tuple open_tok)
    @cython.locals(open_tok=tuple, body=str, inner=str)
    cdef CmdSub backtick(self, quoted_context)
    @cython.locals(open_tok=tuple, parts=list, tok=tuple)
    cdef Arith arith_body(self, str open_kind, str close_kind)
    @cython.locals(open_tok=tuple, items=list, tok=tuple, inner=str)
    cdef Param param(self, quoted_context)
