# The compiled build's view of files.py (Cython's pure-Python mode): a file view is a
# typed record, so building one for a redirection and asking it about a path cost no
# dictionary work.

cdef class FileQuestions:
    pass

cdef class FileView(FileQuestions):
    cdef public object root
    cdef public object listing
    cdef public bint host
    cdef public bint real
    cdef public set created
    cdef public object _lost
    cdef public object _pending
