# The compiled build's view of registry.py (Cython's pure-Python mode): what a command
# returned is a typed record, built without generated Python code.

cdef class Outcome:
    cdef readonly object status
    cdef readonly object stdout
    cdef readonly object error
    cdef readonly object modelled
    cdef readonly object stderr
    cdef readonly object transfer
    cdef readonly object error_first
    cdef readonly object merged
