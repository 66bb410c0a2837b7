# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of qbcore.quickpath.dq_words_pure: the same rules, one typed pass."""


cdef inline bint _plain(Py_UCS4 c):
    # literal outside quotes, in an argument, with no expansion behind it
    return (u'a' <= c <= u'z') or (u'A' <= c <= u'Z') or (u'0' <= c <= u'9') or c in u'_-./,:%+@=^]'


cdef inline bint _expands(Py_UCS4 c):
    # after `$` inside double quotes, these start an expansion
    return (u'a' <= c <= u'z') or (u'A' <= c <= u'Z') or (u'0' <= c <= u'9') or c in u'_{(@*#?!$-['


def dq_words(str reply):
    """The words bash makes of ``"`` + reply + ``"`` when no expansion or operator
    is involved (a list of str), else None."""
    cdef Py_ssize_t n = len(reply)
    cdef Py_ssize_t i = 0, start, end
    cdef Py_UCS4 c, nxt
    cdef bint quoted = True, has_word = True
    cdef list words = []
    cdef list current = []
    # the harness's closing quote is the character at index n
    while i <= n:
        c = reply[i] if i < n else u'"'
        if quoted:
            if c == u'"':
                quoted = False
                i += 1
                continue
            if c == u'\\':
                if i + 1 > n:
                    return None
                nxt = reply[i + 1] if i + 1 < n else u'"'
                if nxt == u'\n':
                    pass
                elif nxt == u'$' or nxt == u'`' or nxt == u'"' or nxt == u'\\':
                    current.append(nxt)
                else:
                    current.append(u'\\')
                    current.append(nxt)
                i += 2
                continue
            if c == u'$':
                nxt = reply[i + 1] if i + 1 < n else u'"'
                if _expands(nxt):
                    return None
                current.append(u'$')
                i += 1
                continue
            if c == u'`':
                return None
            # a run of ordinary characters in one slice
            start = i
            while i < n:
                c = reply[i]
                if c == u'"' or c == u'\\' or c == u'$' or c == u'`':
                    break
                i += 1
            current.append(reply[start:i])
            continue
        if c == u' ' or c == u'\t':
            if has_word:
                words.append(u''.join(current))
                current = []
                has_word = False
        elif c == u'"':
            quoted = True
            has_word = True
        elif c == u"'":
            if i >= n:
                return None
            end = reply.find(u"'", i + 1)
            if end < 0:
                return None
            current.append(reply[i + 1:end])
            has_word = True
            i = end
        elif c == u'\\':
            # the escaped character may be the harness's closing quote
            nxt = reply[i + 1] if i + 1 < n else u'"'
            if i + 1 > n or nxt == u'\n':
                return None
            current.append(nxt)
            has_word = True
            i += 1
        elif _plain(c):
            current.append(c)
            has_word = True
        else:
            return None
        i += 1
    if quoted:
        return None
    if has_word:
        words.append(u''.join(current))
    return words
