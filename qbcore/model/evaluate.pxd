# The compiled build's view of evaluate.py (Cython's pure-Python mode): the records of an
# evaluation and the walker are typed classes (built without generated Python code, read
# without dictionary lookups). evaluate.py stays the source of both engines.

from qbcore.model.expand cimport Env

cdef class RedirectRecord:
    cdef readonly object op
    cdef readonly object fd
    cdef readonly object target
    cdef readonly object path
    cdef readonly object creates
    cdef readonly object truncates
    cdef readonly object body
    cdef readonly object exact

cdef class SubstitutionRecord:
    cdef readonly object text
    cdef readonly object stdout
    cdef readonly object status
    cdef readonly object commands

cdef class CommandRecord:
    cdef readonly object argv
    cdef readonly object assignments
    cdef readonly object redirects
    cdef readonly object substitutions
    cdef readonly object opaque
    cdef readonly object modelled
    cdef readonly object certain
    cdef readonly object status
    cdef readonly object output
    cdef readonly object error
    cdef readonly object text
    cdef readonly object start
    cdef readonly object end
    cdef readonly object line

cdef class _Walker:
    cdef public Env env
    cdef public object result
    cdef public object script
    cdef public bytes raw
    cdef public object certain
    cdef public object depth
    cdef public object in_condition
    cdef public object stdout_redirected
    cdef public object stdout_closed
    cdef public object substitution_lines
    cdef public object scope
    cdef public object loops
    cdef public object outer_loops
    cdef public object toplevel
    cdef public object in_subshell
    cdef dict __dict__
