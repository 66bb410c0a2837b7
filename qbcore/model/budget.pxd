# The compiled build's view of budget.py (Cython's pure-Python mode): the limits and the
# running count are typed records, so charging a step costs no dictionary lookups.

cdef class Budget:
    cdef readonly object steps
    cdef readonly object bytes
    cdef readonly object brace_words
    cdef readonly object field_width
    cdef readonly object arith_depth
    cdef readonly object nesting
    cdef readonly object reply_bytes

cdef class Meter:
    cdef public Budget budget
    cdef public Py_ssize_t steps
    cdef public Py_ssize_t bytes
    cdef public Py_ssize_t nesting
    cdef public Py_ssize_t shells
    cdef public object exceeded

    cpdef step(self, count=*, what=*)
    cpdef build(self, size, what=*)
    cpdef scan(self, chars, what=*)
