"""The csv module as the modelled program sees it: rows read from and written to its model
files by the real ``_csv`` reader and writer, which do no I/O of their own (they take lines
from an iterator and give text to a ``write`` method).

csv.reader and csv.writer are C code: an error they raise reaches the program as python3
raises it, its traceback the program's own frames. DictReader and DictWriter are Python
code in csv.py, whose frames a traceback would show: an error inside them is not modelled.
"""

from __future__ import annotations

import csv

from .signals import NotModelled, PyRaise, written_in_c

#: the values a written row may hold: what csv writes as python3 would, by str()
_PLAIN = (str, int, float, bool, type(None))
#: the format parameters a dialect may be overridden with, and the dialects csv registers
_FORMAT = frozenset({"delimiter", "quotechar", "escapechar", "doublequote", "skipinitialspace",
                     "lineterminator", "quoting", "strict"})
_DIALECTS = frozenset({"excel", "excel-tab", "unix"})
#: what ``next`` gives at the end of the rows (a StopIteration would be the program's error)
_END = object()


def make_csv(interp, module_class):
    """The csv module bound to ``interp`` (``module_class``: modules.Module)."""

    def checked(args, kwargs):
        """A dialect (the one positional argument after the file, or ``dialect=``) by a name
        csv registers, and format keywords of plain values; anything else is not modelled."""
        dialects = [*args, *([kwargs["dialect"]] if "dialect" in kwargs else [])]
        if len(args) > 1 or any(not isinstance(d, str) or d not in _DIALECTS for d in dialects):
            raise NotModelled("a csv dialect other than excel, excel-tab or unix by name")
        for name, value in kwargs.items():
            if name not in _FORMAT and name != "dialect":
                raise NotModelled(f"csv's keyword {name}")
            if name in _FORMAT and not isinstance(value, _PLAIN):
                raise NotModelled(f"csv's {name} given a {type(value).__name__}")

    def lines(source):
        """The lines of ``source`` (a model file, sys.stdin, a list…) as the real reader takes
        them; like the reader, which asks for its iterator first, a closed file fails here."""
        found = interp.iterate(source)

        def each():
            for line in found:
                interp.tick()
                yield line
        return each()

    @written_in_c
    def reader(source, *args, **kwargs):
        checked(args, kwargs)
        return Rows(interp.real(csv.reader, lines(source), *args, **kwargs), "_csv.reader", own=True)

    @written_in_c
    def writer(target, *args, **kwargs):
        checked(args, kwargs)
        return Writer(interp.real(csv.writer, target, *args, **kwargs), "_csv.writer", own=True)

    def dict_reader(source, fieldnames=None, restkey=None, restval=None, *args, **kwargs):
        checked(args, kwargs)
        for value in (restkey, restval):
            if not isinstance(value, _PLAIN):
                raise NotModelled("csv.DictReader's restkey or restval given a value not plain")
        if fieldnames is not None:
            fieldnames = plain_row(fieldnames)
        real = inside(lambda: csv.DictReader(lines(source), fieldnames, restkey, restval, *args, **kwargs))
        return Rows(real, "DictReader", own=False)

    def dict_writer(target, fieldnames, restval="", extrasaction="raise", *args, **kwargs):
        checked(args, kwargs)
        if extrasaction not in ("raise", "ignore") or not isinstance(restval, _PLAIN):
            raise NotModelled("csv.DictWriter's extrasaction or restval")
        real = inside(csv.DictWriter, target, plain_row(fieldnames), restval, extrasaction, *args, **kwargs)
        return Writer(real, "DictWriter", own=False)

    def plain_row(row):
        values = list(interp.iterate(row)) if not isinstance(row, (list, tuple)) else list(row)
        for value in values:
            if not isinstance(value, _PLAIN):
                raise NotModelled(f"a csv field that is a {type(value).__name__}")
        return values

    def inside(func, *args, **kwargs):
        try:
            return func(*args, **kwargs)
        except NotModelled:
            raise
        except (PyRaise, Exception) as exc:  # (PyRaise, the program's own error, is no Exception)
            raise NotModelled(f"an error inside csv.py ({type(exc).__name__}), whose frames python3 shows") from None

    class Rows:
        """csv.reader's or DictReader's rows, one line (or more, in a quoted field) at a time."""

        def __init__(self, real, name, own):
            self.model_name = name
            self._real, self._own = real, own

        def model_iter(self):
            return self

        def __iter__(self):
            return self

        def __next__(self):
            row = interp.real(next, self._real, _END) if self._own else inside(next, self._real, _END)
            if row is _END:
                raise StopIteration
            return row

        def model_attr(self, name):
            if name == "line_num":
                return self._real.line_num
            if name == "fieldnames" and not self._own:
                return inside(getattr, self._real, "fieldnames")
            if name == "__next__":
                return self.__next__
            raise NotModelled(f"the {self.model_name} attribute {name}")

        def __repr__(self):
            raise NotModelled(f"the text of a {self.model_name}")

    class Writer:
        """csv.writer or DictWriter: each row written through the target's write method."""

        def __init__(self, real, name, own):
            self.model_name = name
            self._real, self._own = real, own
            self.written_in_c = own  # (_csv's writer; DictWriter is csv.py's)

        def model_attr(self, name):
            if name == "writerow":
                return self.writerow
            if name == "writerows":
                return self.writerows
            if name == "writeheader" and not self._own:
                return lambda: inside(self._real.writeheader)
            raise NotModelled(f"the {self.model_name} attribute {name}")

        def writerow(self, *args, **kwargs):
            interp.tick()
            if len(args) != 1 or kwargs:
                if self._own:  # the C method's own TypeError, as python3 gives it
                    return interp.real(self._real.writerow, *args, **kwargs)
                raise NotModelled("DictWriter.writerow called with other than one row")
            row = args[0]
            if self._own:
                return interp.real(self._real.writerow, plain_row(row))
            if not isinstance(row, dict):
                raise NotModelled("a DictWriter row that is not a dict")
            plain_row(row.values())
            return inside(self._real.writerow, row)

        def writerows(self, *args, **kwargs):
            if len(args) != 1 or kwargs:
                if self._own:
                    return interp.real(self._real.writerows, *args, **kwargs)
                raise NotModelled("DictWriter.writerows called with other than one iterable")
            for row in interp.iterate(args[0]):
                self.writerow(row)

        def __repr__(self):
            raise NotModelled(f"the text of a {self.model_name}")

    attrs = {"reader": reader, "writer": writer, "DictReader": dict_reader, "DictWriter": dict_writer,
             "Error": csv.Error}
    for name in ("QUOTE_MINIMAL", "QUOTE_ALL", "QUOTE_NONNUMERIC", "QUOTE_NONE"):
        attrs[name] = getattr(csv, name)
    return module_class("csv", attrs, csv)
