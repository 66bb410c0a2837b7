# The compiled build's declarations for parser.py (Cython's pure-Python mode):
# the syntax nodes become extension types with typed fields, and the parser's
# internals typed locals and C-level calls. The .py stays the one source; the
# pure engine never reads this file. Spans are plain objects: the other model
# modules read them as Python ints, which a C field would box on every read.
# Cython's dataclass takes its field order from these declarations, not from the
# .py: each class lists its fields one per line, in the order of the .py.

cdef class Script:
    cdef public str source
    cdef public tuple chunks
    cdef public object error
    cdef public object parsed_until
    cdef public list _newlines

cdef class Word:
    cdef public tuple parts
    cdef public object start
    cdef public object end

cdef class Lit:
    cdef public str text
    cdef public object start
    cdef public object end

cdef class Escaped:
    cdef public str char
    cdef public object start
    cdef public object end

cdef class SingleQuoted:
    cdef public str text
    cdef public object start
    cdef public object end

cdef class AnsiC:
    cdef public str text
    cdef public object start
    cdef public object end

cdef class DoubleQuoted:
    cdef public tuple parts
    cdef public bint locale
    cdef public object start
    cdef public object end

cdef class Param:
    cdef public str name
    cdef public str index
    cdef public bint length
    cdef public bint indirect
    cdef public str op
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
    cdef public str direction
    cdef public Script script
    cdef public object start
    cdef public object end

cdef class Heredoc:
    cdef public str delimiter
    cdef public bint quoted
    cdef public bint strip_tabs
    cdef public str raw
    cdef public tuple parts
    cdef public bint terminated
    cdef public object start
    cdef public object end

cdef class Redirect:
    cdef public str op
    cdef public str fd
    cdef public Word target
    cdef public Heredoc heredoc
    cdef public object start
    cdef public object end

cdef class Assignment:
    cdef public str name
    cdef public str index
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
    cdef public str name
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
    cdef public str terminator
    cdef public object start
    cdef public object end

cdef class Case:
    cdef public Word word
    cdef public tuple arms
    cdef public tuple redirects
    cdef public object start
    cdef public object end

cdef class CondOp:
    cdef public str op
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
    cdef public str name
    cdef public object body
    cdef public object start
    cdef public object end

cdef class Coproc:
    cdef public str name
    cdef public object command
    cdef public object start
    cdef public object end

cdef class Chunk:
    cdef public tuple items
    cdef public object start
    cdef public object end
    cdef public object first_line
    cdef public object last_line
