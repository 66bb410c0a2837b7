"""simulate throughput per transport, on the engine loaded, beside tree-sitter-bash parsing.

Run: python -m pytest bench/bench_simulate.py -s                          (compiled engine)
     QBCORE_NO_EXTENSIONS=1 python -m pytest bench/bench_simulate.py -s   (pure-Python engine)
(the tables are printed at the end; each run times tree-sitter too, so its ratios are from one run)

The machine's speed drifts during a run, by more than the differences measured,
so each transport is timed in the same window as tree-sitter rounds of its
own: before every timed simulate round, one tree-sitter round to warm up, one
timed, and one simulate round to warm up. The ratio is tree-sitter's best
round over simulate's best round, both from those 15 pairs; the table prints
the tree-sitter figure of each row.

Every tool reads the same strings in the same run: the short agent commands
of tests/support/corpus/ (single-line ones) and the single-line QuoteBench reply
shapes of tests/support/corpus_replies.py. The engine is the one the process
loaded (``qbcore.engine``): the model's modules are compiled from their own
source, so the engines cannot be swapped inside one process.
The "typical reply" figure is the median, over the replies, of the
per-reply ratio tree-sitter parse time / simulate(nested) time (best of
several rounds each, to shed other load on the machine).
"""

import statistics
import time

import pytest
import tree_sitter
import tree_sitter_bash
from corpus_replies import CORPUS
from lexcorpus import agent_commands

import qbcore
from qbcore.harness.simulate import simulate
from qbcore.harness.transports import NAMES

PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
COMMANDS = [c for c in agent_commands() if "\n" not in c]
REPLIES = [r for _, r in CORPUS if "\n" not in r]
CORPORA = {"agent-commands": COMMANDS, "quotebench-replies": REPLIES}
ENGINE = qbcore.engine
ENCODED = {name: [s.encode() for s in strings] for name, strings in CORPORA.items()}
RESULTS = {}  # (corpus, transport or "tree-sitter") -> best seconds for all of the corpus
PARSE_BESIDE = {}  # (corpus, transport) -> best seconds of the tree-sitter rounds beside it
TYPICAL = {}  # corpus name -> (median ratio, share of strings at >= 5x, median us simulate, median us parse)


class Summary:
    """Prints the tables at the end of the session."""

    def pytest_terminal_summary(self, terminalreporter):
        write = terminalreporter.write_line
        for corpus, strings in CORPORA.items():
            parse = RESULTS.get((corpus, "tree-sitter"))
            if parse is None:
                continue
            write("")
            write(f"simulate on {len(strings)} {corpus} (engine: {ENGINE}; best round; "
                  f"tree-sitter-bash parses the same strings: {parse / len(strings) * 1e6:.2f} us each)")
            write(f"{'transport':<15} {'us/string':>10} {'strings/s':>11} {'tree-sitter us':>15} "
                  f"{'parse/simulate':>15}")
            for name in NAMES:
                seconds = RESULTS.get((corpus, name))
                if seconds is None:
                    continue
                per = seconds / len(strings) * 1e6
                beside = PARSE_BESIDE[corpus, name]
                write(f"{name:<15} {per:>10.2f} {len(strings) / seconds:>11.0f} "
                      f"{beside / len(strings) * 1e6:>15.2f} {beside / seconds:>15.2f}")
        for corpus, (median, share, sim_us, parse_us) in TYPICAL.items():
            write(f"typical reply ({corpus}): simulate(nested, {ENGINE}) {sim_us:.2f} us vs tree-sitter parse "
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


@pytest.mark.parametrize("corpus", list(CORPORA))
def bench_tree_sitter_parse(benchmark, corpus):
    benchmark.pedantic(each(PARSER.parse, ENCODED[corpus]), rounds=7, iterations=1, warmup_rounds=1)
    RESULTS[corpus, "tree-sitter"] = benchmark.stats.stats.min


@pytest.mark.parametrize("transport", NAMES)
@pytest.mark.parametrize("corpus", list(CORPORA))
def bench_simulate(benchmark, corpus, transport):
    parse = each(PARSER.parse, ENCODED[corpus])
    run = each(lambda c: simulate(c, transport, cwd="/nonexistent/qbcore"), CORPORA[corpus])
    parses = []

    def pair():
        parse()
        start = time.perf_counter()
        parse()
        parses.append(time.perf_counter() - start)
        run()

    benchmark.pedantic(run, setup=pair, rounds=15, iterations=1)
    RESULTS[corpus, transport] = benchmark.stats.stats.min
    PARSE_BESIDE[corpus, transport] = min(parses)


def _best(function, argument, reps):
    best = float("inf")
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(reps):
            function(argument)
        best = min(best, (time.perf_counter() - start) / reps)
    return best


@pytest.mark.parametrize("corpus", ["quotebench-replies", "agent-commands"])
def bench_typical_reply_nested(benchmark, corpus):
    strings = CORPORA[corpus]
    ratios, sims, parses = [], [], []

    def measure():
        ratios.clear(), sims.clear(), parses.clear()
        for text in strings:
            sim = _best(lambda r: simulate(r, "nested", cwd="/nonexistent/qbcore"), text, 20)
            parse = _best(PARSER.parse, text.encode(), 20)
            ratios.append(parse / sim)
            sims.append(sim)
            parses.append(parse)

    benchmark.pedantic(measure, rounds=1, iterations=1)
    TYPICAL[corpus] = (statistics.median(ratios), sum(r >= 5 for r in ratios) / len(ratios),
                       statistics.median(sims) * 1e6, statistics.median(parses) * 1e6)
