"""A progress line on a terminal: pairs done, rate and time left, redrawn in place.

Drawn on stderr only when stderr is a terminal (a log file or a pipe gets
nothing), at most a few times a second. The fraction done comes from the
bytes of the input read so far, when its size is known (a regular file).
"""

import os
import sys
import time

#: seconds between two redraws
INTERVAL = 0.2
WIDTH = 24


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 60}:{seconds % 60:02d}"


class Progress:
    """``update(pairs)`` as rows are written; ``close()`` clears the line."""

    def __init__(self, handle=None, stream=None, *, clock=time.monotonic, force=False):
        self.stream = stream or sys.stderr
        self.enabled = force or _is_terminal(self.stream)
        self.clock = clock
        self.handle = handle
        self.size = _size(handle) if self.enabled else None
        self.start = clock()
        self.shown = 0.0
        self.drawn = False

    def update(self, pairs: int):
        if not self.enabled:
            return
        now = self.clock()
        if now - self.shown < INTERVAL:
            return
        self.shown = now
        self.stream.write("\r" + self.line(pairs, now) + "\x1b[K")
        self.stream.flush()
        self.drawn = True

    def line(self, pairs: int, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        text = f"{pairs:,} pairs  {pairs / elapsed:,.0f} pairs/s"
        fraction = self._fraction()
        if fraction is None:
            return f"screening: {text}  {_duration(elapsed)}"
        filled = int(fraction * WIDTH)
        bar = "#" * filled + "-" * (WIDTH - filled)
        left = elapsed * (1 - fraction) / fraction if fraction > 0 else None
        eta = f"ETA {_duration(left)}" if left is not None else "ETA ?"
        return f"[{bar}] {fraction:4.0%}  {text}  {eta}"

    def _fraction(self):
        if not self.size:
            return None
        try:
            return min(self.handle.tell() / self.size, 1.0)
        except (OSError, ValueError):
            return None

    def close(self):
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.drawn = False


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _size(handle):
    """The input's size in bytes when it is a regular file, else None."""
    try:
        info = os.fstat(handle.fileno())
    except (AttributeError, OSError, ValueError):
        return None
    import stat

    return info.st_size if stat.S_ISREG(info.st_mode) and info.st_size > 0 else None
