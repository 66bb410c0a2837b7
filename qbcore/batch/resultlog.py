"""An append-only JSONL result file that an interrupted batch resumes from.

A row is keyed by (record id, transport) and carries the work it answers
(the reply's hash and the options' hash); a later row for a key supersedes an
earlier one. On open the file is checked line by line: a damaged line is
reported and its work redone, a torn last line (the batch died mid-write) is
cut off. The path must be a regular file other than the input.
"""

import json
import os
import re
import stat
import sys

from .replies import bounded_loads

#: the fields every row has; a row without them is from an older format and is redone
_HEX64 = re.compile(r"[0-9a-f]{64}")


def work_of(reply_sha256: str, setup: str) -> str:
    """The compact form of the work a row answers (128 bits of the reply's hash and the options' hash)."""
    return reply_sha256[:32] + ":" + setup


class OutputError(Exception):
    """The result file cannot be used; the message is one line naming the path."""


def _kind(mode) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


class ResultLog:
    """The result file: which work is done, what it found, and where new rows go.

    ``index`` maps (id, transport) to (work, delivered) of the latest valid row found
    on opening;
    ``damaged`` lists (line number, reason) of lines that could not be read;
    ``on_row(key, row)`` is called with every valid row found, in file order.
    """

    def __init__(self, path, *, resume: bool = True, not_same_as=None, on_damaged=None, valid_delivery=None,
                 on_row=None):
        self.path = os.fspath(path)
        self.index: dict = {}
        self._counts: dict = {}  # transport -> {delivered: n}, over the latest row of every pair
        self.damaged: list = []
        self.superseded = 0
        self._last_work, self._last_values = None, {}  # the latest value indexed, to share with the next rows
        self._valid_delivery = valid_delivery
        self._on_damaged = on_damaged
        self._on_row = on_row
        self._failed = False
        fd = self._open(not_same_as)
        try:
            if resume:
                self._index_and_repair(fd)
            else:
                os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_END)
        except OSError as exc:
            os.close(fd)
            raise OutputError(f"cannot use {self.path}: {exc.strerror}") from None
        self._handle = os.fdopen(fd, "wb", buffering=1 << 16)

    def _open(self, not_same_as) -> int:
        # O_NONBLOCK: opening a FIFO must not wait for a reader; the type is checked before any use
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC, 0o666)
        except OSError as exc:
            raise OutputError(f"cannot write {self.path}: {exc.strerror}") from None
        info = os.fstat(fd)
        problem = None
        if not stat.S_ISREG(info.st_mode):
            problem = f"{self.path} is {_kind(info.st_mode)}, not a regular file"
        elif not_same_as is not None and (info.st_dev, info.st_ino) == (not_same_as.st_dev, not_same_as.st_ino):
            problem = f"{self.path} is the input file itself"
        if problem:
            os.close(fd)
            raise OutputError(problem)
        os.set_blocking(fd, True)
        return fd

    def _damage(self, number: int, reason: str):
        self.damaged.append((number, reason))
        if self._on_damaged:
            self._on_damaged(number, reason)

    def _index_and_repair(self, fd):
        offset = 0
        with open(os.dup(fd), "rb", closefd=True) as handle:
            for number, line in enumerate(handle, start=1):
                if not line.endswith(b"\n"):
                    os.ftruncate(fd, offset)  # a torn last line: the batch stopped mid-write
                    self._damage(number, "a torn last line (the run stopped while writing it); cut and redone")
                    break
                offset += len(line)
                reason = self._add(line)
                if reason:
                    self._damage(number, reason)

    def _add(self, line: bytes):
        """Index one complete line; the reason it is damaged, or None."""
        try:
            row = bounded_loads(line.decode("utf-8"))
        except UnicodeDecodeError as exc:
            return f"not valid UTF-8 at byte {exc.start}"
        except ValueError as exc:
            return f"not JSON: {exc}"
        if not isinstance(row, dict):
            return "not a JSON object"
        record_id, transport = row.get("id"), row.get("transport")
        if not isinstance(record_id, str) or not isinstance(transport, str):
            return "no string 'id' and 'transport'"
        reply_hash, setup, delivered = row.get("reply_sha256"), row.get("setup"), row.get("delivered")
        if reply_hash is None and setup is None:
            self.superseded += 1  # a row of the older format: no hash, so its work is redone
            return None
        if not (isinstance(reply_hash, str) and _HEX64.fullmatch(reply_hash) and isinstance(setup, str)):
            return "a malformed 'reply_sha256' or 'setup'"
        if self._valid_delivery is not None and delivered not in self._valid_delivery:
            return f"an unknown 'delivered' value {delivered!r}"
        self._remember((record_id, transport), work_of(reply_hash, setup), delivered)
        if self._on_row is not None:
            self._on_row((record_id, transport), row)
        return None

    def _remember(self, key, work, delivered):
        old = self.index.get(key)
        if old is not None:
            self.superseded += 1
            self._tally(key[1], old[1], -1)
        # shared: the index holds one entry per done pair, and a reply's rows (adjacent in the file)
        # mostly answer the same work with the same outcome, so they share one value
        if work != self._last_work:
            self._last_work, self._last_values = work, {}
        value = self._last_values.get(delivered)
        if value is None:
            value = self._last_values[delivered] = (self._last_work, sys.intern(delivered))
        self.index[(sys.intern(key[0]), sys.intern(key[1]))] = value
        self._tally(key[1], delivered, 1)

    def _tally(self, transport, delivered, step):
        by_outcome = self._counts.setdefault(transport, {})
        by_outcome[delivered] = by_outcome.get(delivered, 0) + step

    def done(self, record_id: str, transport: str, work) -> str | None:
        """What the latest row found for this exact work, or None when the work is to be done."""
        found = self.index.get((record_id, transport))
        if found is None or found[0] != work:
            return None
        return found[1]

    def append(self, key, work, delivered: str, text: str):
        """Append one row already serialised as a JSON line (without the newline).

        A pair new to the file is counted but not indexed: a batch asks about each
        pair once, before its row exists, so the index holds only the rows found on
        opening and memory does not grow with the rows written.
        """
        if key in self.index:
            self._remember(key, work, delivered)
        else:
            self._tally(key[1], delivered, 1)
        self._write(text.encode("utf-8", "surrogatepass") + b"\n")

    def supersede(self, key, work, delivered: str):
        """Note that a row about to be appended replaces the row found for ``key`` on opening."""
        self._remember(key, work, delivered)

    def append_lines(self, data: bytes, tally: dict):
        """Append rows already serialised as JSON lines (each ending in a newline), all of pairs new
        to the file or noted with ``supersede``; ``tally`` counts the new ones as
        {(transport, delivered): n}."""
        for (transport, delivered), n in tally.items():
            if n:
                self._tally(transport, delivered, n)
        self._write(data)

    def write(self, row: dict):
        """Append one row given as a dict with id, transport, reply_sha256, setup and delivered."""
        self.append((row["id"], row["transport"]), work_of(row["reply_sha256"], row["setup"]), row["delivered"],
                    json.dumps(row))

    def _write(self, data: bytes):
        try:
            self._handle.write(data)
        except OSError as exc:
            self._failed = True
            raise OutputError(f"cannot write {self.path}: {exc.strerror}") from None

    def flush(self):
        try:
            self._handle.flush()
        except OSError as exc:
            self._failed = True
            raise OutputError(f"cannot write {self.path}: {exc.strerror}") from None

    def counts(self, transports, deliveries) -> dict:
        """transport -> {delivered: n} over the latest row of every key."""
        counts = {t: dict.fromkeys(deliveries, 0) for t in transports}
        for transport, by_outcome in self._counts.items():
            if transport in counts:
                for delivered, n in by_outcome.items():
                    if delivered in counts[transport]:
                        counts[transport][delivered] += n
        return counts

    def close(self):
        try:
            self._handle.close()
        except OSError as exc:
            if not self._failed:
                raise OutputError(f"cannot write {self.path}: {exc.strerror}") from None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
