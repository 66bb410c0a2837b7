"""An append-only JSONL result file that an interrupted batch resumes from.

Each result is one line keyed by (record id, transport). On open, complete
lines are indexed and a torn last line (the batch died mid-write) is cut off,
so re-running the same batch skips what is done and redoes only the rest.
"""

import json
import os


class ResultLog:
    def __init__(self, path, *, resume: bool = True):
        self.path = os.fspath(path)
        self.done = set()
        if resume and os.path.exists(self.path):
            self._index_and_repair()
        elif os.path.exists(self.path):
            open(self.path, "w").close()
        self._handle = open(self.path, "a", encoding="utf-8")

    @staticmethod
    def key(record: dict):
        return (str(record.get("id")), record.get("transport"))

    def _index_and_repair(self):
        with open(self.path, "rb") as handle:
            data = handle.read()
        keep = len(data)
        if data and not data.endswith(b"\n"):
            keep = data.rfind(b"\n") + 1  # drop the torn line; it will be redone
        for line in data[:keep].splitlines():
            try:
                self.done.add(self.key(json.loads(line)))
            except (ValueError, AttributeError):
                continue  # a damaged line is redone rather than trusted
        if keep != len(data):
            with open(self.path, "r+b") as handle:
                handle.truncate(keep)

    def has(self, record_id, transport) -> bool:
        return (str(record_id), transport) in self.done

    def write(self, record: dict):
        self._handle.write(json.dumps(record) + "\n")
        self._handle.flush()
        self.done.add(self.key(record))

    def close(self):
        self._handle.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
