# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twins of qbcore.harness.quickpath's dq_words_pure and shlex_words_pure (the same
rules, one typed pass each), of simulate's two records, and of its quick readings of
nested and double-nested."""


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
                if _expands(nxt) or nxt == u'\\':
                    return None  # (a backslash-newline there would join `$` to what follows)
                current.append(u'$')
                i += 1
                continue
            if c == u'`' or c == 0:
                return None  # a NUL: no harness can pass it, the general path says so
            # a run of ordinary characters in one slice
            start = i
            while i < n:
                c = reply[i]
                if c == u'"' or c == u'\\' or c == u'$' or c == u'`' or c == 0:
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
            if end < 0 or u"\0" in reply[i + 1:end]:
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


cdef inline bint _shlex_blank(Py_UCS4 c):
    return c == u' ' or c == u'\t' or c == u'\r' or c == u'\n'


def shlex_words(str reply):
    """``shlex.split(reply)`` (POSIX mode, comments off), or None where it raises."""
    cdef Py_ssize_t n = len(reply)
    cdef Py_ssize_t i = 0, start, end
    cdef Py_UCS4 c, nxt
    cdef bint in_word = False
    cdef list words = []
    cdef list current = []
    while i < n:
        c = reply[i]
        if _shlex_blank(c):
            if in_word:
                words.append(u''.join(current))
                current = []
                in_word = False
        elif c == u"'":
            end = reply.find(u"'", i + 1)
            if end < 0:
                return None
            current.append(reply[i + 1:end])
            in_word = True
            i = end
        elif c == u'"':
            i += 1
            while True:
                if i >= n:
                    return None
                c = reply[i]
                if c == u'"':
                    break
                if c == u'\\':
                    if i + 1 >= n:
                        return None
                    nxt = reply[i + 1]
                    if nxt != u'"' and nxt != u'\\':
                        current.append(u'\\')  # only the quote and the backslash are escaped inside
                    current.append(nxt)
                    i += 2
                    continue
                # a run of ordinary characters in one slice
                start = i
                while i < n:
                    c = reply[i]
                    if c == u'"' or c == u'\\':
                        break
                    i += 1
                current.append(reply[start:i])
            in_word = True
        elif c == u'\\':
            if i + 1 >= n:
                return None
            current.append(reply[i + 1])
            in_word = True
            i += 1
        else:
            start = i
            while i + 1 < n:
                c = reply[i + 1]
                if _shlex_blank(c) or c == u"'" or c == u'"' or c == u'\\':
                    break
                i += 1
            current.append(reply[start:i + 1])
            in_word = True
        i += 1
    if in_word:
        words.append(u''.join(current))
    return words


cdef class Simulation:
    """Compiled twin of qbcore.simulate.PureSimulation: the same fields and methods.

    A Python dataclass costs about half a microsecond to build, more than
    the fast path's whole scan; this one is filled in C.
    """
    cdef public object transport, reply, inner_script, inner_args, opaque, outer_effects, outer_error
    cdef public object inner_starts

    def __init__(self, transport, reply, inner_script, inner_args=None, opaque=None, outer_effects=None,
                 outer_error=None, inner_starts=0):
        self.transport = transport
        self.reply = reply
        self.inner_script = inner_script
        self.inner_args = [] if inner_args is None else inner_args
        self.opaque = [] if opaque is None else opaque
        self.outer_effects = [] if outer_effects is None else outer_effects
        self.outer_error = outer_error
        self.inner_starts = inner_starts

    @property
    def exact(self):
        return not self.opaque

    def as_dict(self):
        """The JSON shape of ``qbcore rewrite --format json``."""
        return {"transport": self.transport, "reply": self.reply, "inner_script": self.inner_script,
                "inner_args": list(self.inner_args), "exact": self.exact, "opaque": list(self.opaque),
                "outer_effects": [e.as_dict() for e in self.outer_effects], "outer_error": self.outer_error}

    def _fields(self):
        return (self.transport, self.reply, self.inner_script, self.inner_args, self.opaque,
                self.outer_effects, self.outer_error, self.inner_starts)

    def __eq__(self, other):
        if not isinstance(other, Simulation):
            return NotImplemented
        return self._fields() == (<Simulation>other)._fields()

    __hash__ = None

    def __repr__(self):
        names = ("transport", "reply", "inner_script", "inner_args", "opaque", "outer_effects",
                 "outer_error", "inner_starts")
        return "Simulation(" + ", ".join(f"{n}={v!r}" for n, v in zip(names, self._fields())) + ")"

    def __reduce__(self):
        return (Simulation, self._fields())


cdef class OuterEffect:
    """Compiled twin of qbcore.simulate.PureOuterEffect: the same fields, read-only,
    and the same methods. The frozen dataclass costs a microsecond to build, and a
    leaked list makes one for every command it runs."""
    cdef readonly object kind, text, argv, path, certain, layer

    def __init__(self, kind, text, argv=(), path=None, certain=True, layer=1):
        self.kind = kind
        self.text = text
        self.argv = argv
        self.path = path
        self.certain = certain
        self.layer = layer

    def as_dict(self):
        found = {"kind": self.kind, "text": self.text, "certain": self.certain, "layer": self.layer}
        if self.argv:
            found["argv"] = list(self.argv)
        if self.path is not None:
            found["path"] = self.path
        return found

    def _fields(self):
        return (self.kind, self.text, self.argv, self.path, self.certain, self.layer)

    def __eq__(self, other):
        if not isinstance(other, OuterEffect):
            return NotImplemented
        return self._fields() == (<OuterEffect>other)._fields()

    def __hash__(self):
        return hash(self._fields())

    def __repr__(self):
        names = ("kind", "text", "argv", "path", "certain", "layer")
        return "OuterEffect(" + ", ".join(f"{n}={v!r}" for n, v in zip(names, self._fields())) + ")"

    def __reduce__(self):
        return (OuterEffect, self._fields())


def nested(str reply):
    """simulate(reply, "nested") when the fast path applies, else None."""
    words = dq_words(reply)
    if words is None:
        return None
    cdef str first = words[0]
    if first and (first[0] == u'-' or first[0] == u'+'):
        return None  # bash would read the script word as options: the general path says so
    return _delivered(u"nested", reply, first, words[1:])


cdef Simulation _delivered(str transport, str reply, str script, list args):
    """A fast-path result: the script reaches the inner shell with no note and no effect."""
    cdef Simulation found = Simulation.__new__(Simulation)
    found.transport = transport
    found.reply = reply
    found.inner_script = script
    found.inner_args = args
    found.opaque = []
    found.outer_effects = []
    found.outer_error = None
    found.inner_starts = 1
    return found


def double_nested(str reply):
    """simulate(reply, "double-nested") when neither the outer nor the middle shell meets
    an expansion or an operator, else None: qbcore.harness.simulate's _quick_double_nested
    in one typed pass. A reply with no double quote, backslash, `$` or backquote passes
    both quote removals as it is."""
    cdef Py_ssize_t i, n = len(reply)
    cdef Py_UCS4 c
    cdef bint plain = True
    for i in range(n):
        c = reply[i]
        if c == u'$' or c == u'`' or c == 0:
            return None  # (an expansion: the expanding reading; a NUL: the general path)
        if c == u'"' or c == u'\\':
            plain = False
    if plain and n and reply[0] != u'-' and reply[0] != u'+':
        return _delivered(u"double-nested", reply, reply, [])
    # a blank the reply's own double quotes leave outside quotes splits the outer shell's
    # word in two (the `\\"` after the reply makes a second one): no reading here
    cdef bint quoted = True
    i = 0
    while i < n:
        c = reply[i]
        if c == u'\\':
            i += 1
        elif c == u'"':
            quoted = not quoted
        elif not quoted:
            if c == u' ' or c == u'\t' or c == u'\n':
                return None
            if c == u"'":
                i = reply.find(u"'", i + 1)
                if i < 0:
                    return None
        i += 1
    words = dq_words(u'bash -c \\"' + reply + u'\\"')
    if words is None or len(words) != 1:
        return None
    cdef str script = words[0]  # `bash -c "…`: what follows `bash -c ` are the middle shell's words
    n = len(script)
    if n < 10 or script[8] != u'"' or script[n - 1] != u'"':
        return None
    words = dq_words(script[9:n - 1])
    if words is None:
        return None
    cdef str first = words[0]
    if first and (first[0] == u'-' or first[0] == u'+'):
        return None
    return _delivered(u"double-nested", reply, first, words[1:])
