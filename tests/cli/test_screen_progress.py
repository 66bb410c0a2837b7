"""`screen`'s progress line: drawn on a terminal only, with the rate and the time left."""

import io

from qbcore.cli._progress import Progress


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_nothing_is_drawn_when_stderr_is_not_a_terminal(tmp_path):
    stream = io.StringIO()
    progress = Progress(None, stream)
    progress.update(10)
    progress.close()
    assert stream.getvalue() == ""


def test_a_file_input_shows_the_fraction_rate_and_time_left(tmp_path):
    path = tmp_path / "replies.jsonl"
    path.write_bytes(b"x" * 1000)
    stream, clock = io.StringIO(), Clock()
    with open(path, "rb") as handle:
        progress = Progress(handle, stream, clock=clock, force=True)
        handle.read(250)
        clock.now += 10
        progress.update(5000)
        line = stream.getvalue()
        assert line.startswith("\r[######") and " 25% " in line
        assert "5,000 pairs  500 pairs/s" in line and "ETA 0:30" in line
        progress.update(6000)  # too soon after the last redraw: not drawn
        assert stream.getvalue() == line
        progress.close()
    assert stream.getvalue().endswith("\r\x1b[K")


def test_a_stream_of_unknown_length_shows_the_count_and_rate():
    stream, clock = io.StringIO(), Clock()
    progress = Progress(io.BytesIO(b""), stream, clock=clock, force=True)
    clock.now += 3725
    progress.update(7450)
    assert "7,450 pairs  2 pairs/s  1h02m" in stream.getvalue() and "ETA" not in stream.getvalue()
