# The compiled build's view of values.py (Cython's pure-Python mode): an Opaque is a
# typed record, built and read without an instance dictionary. values.py stays the source.

cdef class Opaque:
    cdef readonly object name

cpdef bint has_opaque(value)
