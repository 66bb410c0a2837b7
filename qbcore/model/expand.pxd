# The compiled build's view of expand.py (Cython's pure-Python mode): the shell state, the
# expander and the records expansion returns are typed classes, so the expander reaches
# its state without dictionary lookups. expand.py stays the source of both engines.

cdef class Fields:
    cdef readonly object values
    cdef readonly object opaque

cdef class Text:
    cdef readonly object value
    cdef readonly object opaque

cdef class Env:
    cdef public dict vars
    cdef public object cwd
    cdef public object cwd_known
    cdef public object positional
    cdef public object arg0
    cdef public object status
    cdef public object flags
    cdef public object noglob
    cdef public object globopts
    cdef public object globignore
    cdef public object pipefail
    cdef public object lineno
    cdef public object last_bg
    cdef public object files
    cdef public object substitute
    cdef public object list_dir
    cdef public dict functions
    cdef public dict descriptors
    cdef public object readonly
    cdef public object export_pending
    cdef public object meter
    cdef public object pipestatus
    cdef dict __dict__  # the effect model carries its own state on a shell's Env

    cpdef get(self, name)
    cpdef ifs(self)

cdef class Context:
    cdef readonly object name
    cdef readonly object brace
    cdef readonly object tilde
    cdef readonly object split
    cdef readonly object glob
    cdef readonly object one_field
    cdef readonly object quoted

cdef class Expander:
    cdef public Env env
    cdef public list opaque
    cdef public list substitutions
    cdef public object in_document
    cdef public object in_quotes

    cpdef note(self, name)
    cpdef list parts(self, parts, quoted)
    cpdef part(self, part, quoted, list pieces)

cdef class _Many:
    cdef public object items
    cdef public object star
    cdef public object glue

cdef class Arithmetic:
    cdef public Env env
    cdef public object text
    cdef public list opaque
    cdef public Py_ssize_t depth
    cdef public tuple toks
    cdef public Py_ssize_t i
    cdef public Py_ssize_t nesting
    cdef public Py_ssize_t noeval
    cdef public object unsure

    cpdef peek(self)
    cpdef binary(self, Py_ssize_t level)
    cpdef climb(self, left, Py_ssize_t level)
    cpdef power(self)
    cpdef unary(self)
    cpdef var(self, name)
    cpdef store(self, name, value)
    cpdef binop(self, op, a, b, Py_ssize_t at)
