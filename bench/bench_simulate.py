"""simulate throughput per transport, compiled vs pure engine, beside tree-sitter-bash parsing.

Run: python -m pytest bench/bench_simulate.py -s   (the tables are printed at the end)

Every tool reads the same strings in the same run: the short agent commands
of tests/support/corpus/ (single-line ones) and the single-line QuoteBench reply
shapes of tests/support/corpus_replies.py. The engines are switched in-process: the
lexer behind the parser, the fast path's scanner and the Simulation class are
swapped together.
The "typical reply" figure is the median, over the replies, of the
per-reply ratio tree-sitter parse time / simulate(nested) time (best of
several rounds each, to shed other load on the machine).
"""

import statistics
import sys
import time
from contextlib import contextmanager

import pytest
import tree_sitter
import tree_sitter_bash
from corpus_replies import CORPUS
from lexcorpus import agent_commands

from qbcore.syntax import _purequote
from qbcore.harness import quickpath
from qbcore.harness.simulate import simulate
from qbcore.harness.transports import NAMES

try:
    from qbcore.syntax import _fastquote
    from qbcore.harness import _quickpath
except ImportError:  # measured only when built
    _fastquote = _quickpath = None

PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
COMMANDS = [c for c in agent_commands() if "\n" not in c]
REPLIES = [r for _, r in CORPUS if "\n" not in r]
ENGINES = ["compiled", "pure"]
RESULTS = {}  # (transport or "tree-sitter", engine) -> best seconds for all COMMANDS
TYPICAL = {}  # corpus name -> (median ratio, share of strings at >= 5x, median us simulate, median us parse)
needs_compiled = pytest.mark.skipif(_fastquote is None or _quickpath is None, reason="compiled engine not built")


@contextmanager
def engine(name):
    """Swap the lexer behind the parser, the fast path and the Simulation class together."""
    engine_module, simulate_module = sys.modules["qbcore.syntax._engine"], sys.modules["qbcore.harness.simulate"]
    names = ("dq_words", "Simulation", "_nested_fast")
    saved = engine_module.lex, [getattr(simulate_module, n) for n in names]
    if name == "pure":
        engine_module.lex = _purequote.lex
        chosen = (quickpath.dq_words_pure, simulate_module.PureSimulation, None)
    else:
        engine_module.lex = _fastquote.lex
        chosen = (_quickpath.dq_words, _quickpath.Simulation, _quickpath.nested)
    for n, value in zip(names, chosen):
        setattr(simulate_module, n, value)
    try:
        yield
    finally:
        engine_module.lex = saved[0]
        for n, value in zip(names, saved[1]):
            setattr(simulate_module, n, value)


class Summary:
    """Prints the tables at the end of the session."""

    def pytest_terminal_summary(self, terminalreporter):
        write = terminalreporter.write_line
        if RESULTS:
            write("")
            write(f"simulate throughput on {len(COMMANDS)} short agent commands (best round; "
                  f"tree-sitter-bash parses the same strings)")
            parse = RESULTS.get(("tree-sitter", "-"))
            write(f"{'transport':<15} {'engine':<9} {'us/command':>11} {'commands/s':>11} {'parse/simulate':>15}")
            for (name, eng), seconds in sorted(RESULTS.items(), key=lambda kv: (kv[0][0] == "tree-sitter",
                                                                                   NAMES.index(kv[0][0])
                                                                                   if kv[0][0] in NAMES else 0,
                                                                                   kv[0][1])):
                per = seconds / len(COMMANDS) * 1e6
                ratio = f"{parse / seconds:.2f}" if parse and name != "tree-sitter" else "-"
                write(f"{name:<15} {eng:<9} {per:>11.2f} {len(COMMANDS) / seconds:>11.0f} {ratio:>15}")
        for corpus, (median, share, sim_us, parse_us) in TYPICAL.items():
            write(f"typical reply ({corpus}): simulate(nested, compiled) {sim_us:.2f} us vs tree-sitter parse "
                  f"{parse_us:.2f} us (medians); median per-reply speedup {median:.1f}x, "
                  f"{share:.0%} of them at 5x or more")


@pytest.fixture(scope="session", autouse=True)
def summary(request):
    # printed when the session's fixtures end, just before pytest-benchmark's own table
    yield
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        Summary().pytest_terminal_summary(reporter)


def each(function, items):
    def run():
        for item in items:
            function(item)
    return run


def bench_tree_sitter_parse(benchmark):
    encoded = [c.encode() for c in COMMANDS]
    benchmark(each(PARSER.parse, encoded))
    RESULTS["tree-sitter", "-"] = benchmark.stats.stats.min


@pytest.mark.parametrize("eng", ENGINES)
@pytest.mark.parametrize("transport", NAMES)
def bench_simulate(benchmark, transport, eng):
    if eng == "compiled" and (_fastquote is None or _quickpath is None):
        pytest.skip("compiled engine not built")
    with engine(eng):
        benchmark.pedantic(each(lambda c: simulate(c, transport, cwd="/nonexistent/qbcore"), COMMANDS),
                           rounds=5, iterations=1, warmup_rounds=1)
    RESULTS[transport, eng] = benchmark.stats.stats.min


def _best(function, argument, reps):
    best = float("inf")
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(reps):
            function(argument)
        best = min(best, (time.perf_counter() - start) / reps)
    return best


@needs_compiled
@pytest.mark.parametrize("corpus", ["quotebench-replies", "agent-commands"])
def bench_typical_reply_nested(benchmark, corpus):
    strings = REPLIES if corpus == "quotebench-replies" else COMMANDS
    ratios, sims, parses = [], [], []

    def measure():
        ratios.clear(), sims.clear(), parses.clear()
        with engine("compiled"):
            for text in strings:
                sim = _best(lambda r: simulate(r, "nested", cwd="/nonexistent/qbcore"), text, 20)
                parse = _best(PARSER.parse, text.encode(), 20)
                ratios.append(parse / sim)
                sims.append(sim)
                parses.append(parse)

    benchmark.pedantic(measure, rounds=1, iterations=1)
    TYPICAL[corpus] = (statistics.median(ratios), sum(r >= 5 for r in ratios) / len(ratios),
                       statistics.median(sims) * 1e6, statistics.median(parses) * 1e6)
