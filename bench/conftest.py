"""Benchmark inputs, and the throughput table printed at the end of the session.

Every tool lexes the same inputs in the same run; the table reports MB/s,
microseconds per command and each tool's ratio to qbcore's compiled engine,
from the best round of each benchmark (the least disturbed by other load).
"""

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "support"))

from lexcorpus import agent_commands, scripts  # noqa: E402

SCRIPT_SIZE = 400_000  # bytes of the large-script input


def _accepted_by_every_tool(commands):
    import shlex

    import bashlex

    kept = []
    for command in commands:
        try:
            bashlex.parse(command)
            shlex.split(command, comments=True)
        except Exception:  # noqa: BLE001 - a baseline that cannot read it is left out for all
            continue
        kept.append(command)
    return kept


def _repeat(text, size):
    return text * (size // len(text) + 1)


class Inputs:
    """The benchmark inputs, built once."""

    def __init__(self):
        every = agent_commands()
        self.commands = [c for c in _accepted_by_every_tool(every) if "\n" not in c]
        self.commands_dropped = len(every) - len(self.commands)
        self.commands_bytes = [c.encode() for c in self.commands]
        all_scripts = "\n".join(s.decode() for s in scripts().values())
        self.script = _repeat(all_scripts, SCRIPT_SIZE)
        self.script_bytes = self.script.encode()
        # bashlex refuses most real scripts (arrays, [[ ]], case…); it is
        # measured on the one corpus script it reads, repeated to the same size
        self.bashlex_script = _repeat(scripts()["backup.sh"].decode(), SCRIPT_SIZE)
        self.bashlex_script_bytes = self.bashlex_script.encode()


_INPUTS = None
RESULTS = {}  # (corpus, tool) -> (best seconds, bytes, commands)


@pytest.fixture(scope="session")
def inputs():
    global _INPUTS
    if _INPUTS is None:
        _INPUTS = Inputs()
    return _INPUTS


@pytest.fixture
def record(benchmark):
    """record(corpus, tool, nbytes, ncommands) after benchmark(...) has run."""
    def done(corpus, tool, nbytes, ncommands):
        RESULTS[corpus, tool] = (benchmark.stats.stats.min, nbytes, ncommands)
    return done


CORPUS_TITLES = {
    "commands": "(a) short agent-style commands",
    "script": "(b) large real-world-style script",
    "bashlex-script": "(b') script bashlex can read",
}
TOOLS = ["qbcore-compiled", "qbcore-pure", "tree-sitter-bash", "bashlex", "shlex"]


def pytest_terminal_summary(terminalreporter):
    if not RESULTS:
        return
    write = terminalreporter.write_line
    write("")
    write("lexing throughput (best round of each; ratio = tool time / qbcore-compiled time)")
    if _INPUTS is not None:
        write(f"(a) {len(_INPUTS.commands)} commands, {sum(map(len, _INPUTS.commands_bytes))} bytes "
              f"({_INPUTS.commands_dropped} corpus commands left out: a baseline cannot read them); "
              f"(b) {len(_INPUTS.script_bytes)} bytes; (b') {len(_INPUTS.bashlex_script_bytes)} bytes")
    write(f"{'input':<36} {'tool':<18} {'MB/s':>9} {'us/command':>11} {'x slower than compiled':>23}")
    for corpus, title in CORPUS_TITLES.items():
        base = RESULTS.get((corpus, "qbcore-compiled"))
        for tool in TOOLS:
            if (corpus, tool) not in RESULTS:
                continue
            seconds, nbytes, ncommands = RESULTS[corpus, tool]
            rate = nbytes / seconds / 1e6
            per = f"{seconds / ncommands * 1e6:.2f}" if ncommands > 1 else "-"
            ratio = f"{seconds / base[0]:.1f}" if base else "-"
            write(f"{title:<36} {tool:<18} {rate:>9.2f} {per:>11} {ratio:>23}")
