# The compiled build's view of outerwords.py (Cython's pure-Python mode): the readers
# walk their text one character at a time, as C characters and indexes rather than
# one-character strings (``words`` and ``document`` take a str subclass too, and pass
# them a str). outerwords.py stays the source.

import cython

cdef inline bint _plain(Py_UCS4 c)

cdef inline bint _name_start(Py_UCS4 c)

cdef inline bint _name_char(Py_UCS4 c)

cdef inline bint _digit(Py_UCS4 c)

cdef Py_ssize_t _name_end(str text, Py_ssize_t i, Py_ssize_t n) except -1

cdef Py_ssize_t _plain_end(str text, Py_ssize_t i, Py_ssize_t n) except -1

cdef Py_ssize_t _quoted_end(str text, Py_ssize_t i, Py_ssize_t n) except -1

@cython.locals(n=Py_ssize_t, end=Py_ssize_t, c=Py_UCS4)
cpdef _parameter(str text, Py_ssize_t i, shell)

@cython.locals(n=Py_ssize_t, j=Py_ssize_t, end=Py_ssize_t, close=Py_ssize_t, c=Py_UCS4, length=bint)
cpdef _braced(str text, Py_ssize_t start, shell)

@cython.locals(n=Py_ssize_t, j=Py_ssize_t, depth=Py_ssize_t, c=Py_UCS4)
cpdef _arithmetic(str text, Py_ssize_t i, shell)

@cython.locals(n=Py_ssize_t, j=Py_ssize_t, c=Py_UCS4)
cpdef bint _brace_stays(str text, Py_ssize_t i) except -1

@cython.locals(n=Py_ssize_t, j=Py_ssize_t, close=Py_ssize_t, c=Py_UCS4)
cdef _substitution_body(str text, Py_ssize_t start)

@cython.locals(close=Py_ssize_t, end=Py_ssize_t, backquoted=bint)
cdef _substitution(str text, Py_ssize_t i, substitute)

@cython.locals(n=Py_ssize_t, j=Py_ssize_t, c=Py_UCS4)
cdef _ansi_c(str text, Py_ssize_t i)

cdef _unclosed_backquote(str text, list refused)

@cython.locals(n=Py_ssize_t, j=Py_ssize_t, end=Py_ssize_t)
cdef _unknown_parameter(str text, Py_ssize_t i, shell, substitute)

cdef _expansion(str text, Py_ssize_t i, shell, substitute, str names)

@cython.locals(n=Py_ssize_t, end=Py_ssize_t)
cdef _no_keys(str text, Py_ssize_t i, shell, str names)

@cython.locals(n=Py_ssize_t, i=Py_ssize_t, c=Py_UCS4, has_word=bint, quoted=bint, pattern=bint, marked=bint,
               end=Py_ssize_t, current=list, found=list, first=list, joined=str, operator=str, start=Py_ssize_t,
               word_end=Py_ssize_t, redirecting=str, redirect_at=Py_ssize_t,
               redirect_start=Py_ssize_t, numbered=bint, later_globs=list, later_name_end=Py_ssize_t, count=Py_ssize_t)
cdef list _words(str text, shell, list globbed, list refused, substitute, list commands, list redirects)

@cython.locals(n=Py_ssize_t, i=Py_ssize_t, start=Py_ssize_t, c=Py_UCS4, out=list, marked=bint)
cdef _document(str text, shell, substitute, list unexpandable)

cdef Py_ssize_t _command_end(str text, Py_ssize_t start, Py_ssize_t i, Py_ssize_t word_end)
