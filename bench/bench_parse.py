"""qbcore's parser beside tree-sitter-bash, on the strings simulate reads.

Run: python -m pytest bench/bench_parse.py -s -c bench/pytest.ini                          (compiled engine)
     QBCORE_NO_EXTENSIONS=1 python -m pytest bench/bench_parse.py -s -c bench/pytest.ini   (pure-Python engine)
(the table is printed at the end; tree-sitter parses the same strings in the same run)

The corpora are those of bench_simulate.py: the single-line agent commands of
tests/support/corpus/ and the single-line QuoteBench reply shapes. Each string
is parsed as it is ("reply") and as the command line the nested transport
hands to the outer bash, ``bash -c "R"`` ("nested"): that outer line is what
simulate parses first for every reply that leaves its fast path. qbcore parses
with ``parse_prefix`` (replies may not parse; it never raises), which includes
lexing; tree-sitter-bash builds its tree from the UTF-8 bytes.
"""

import pytest
import tree_sitter
import tree_sitter_bash
from corpus_replies import CORPUS
from lexcorpus import agent_commands

import qbcore
from qbcore.syntax import parser as syntax
from qbcore.syntax.parser import parse_prefix

TREE_SITTER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
CORPORA = {"agent-commands": [c for c in agent_commands() if "\n" not in c],
           "quotebench-replies": [r for _, r in CORPUS if "\n" not in r]}
FORMS = {"reply": lambda text: text, "nested": lambda text: 'bash -c "' + text + '"'}
ENGINE = qbcore.engine
# the parser's own engine: with a stale or missing build it runs from its source
PARSER_ENGINE = "cython" if syntax.__file__.endswith((".so", ".pyd")) else "python"
RESULTS = {}  # (corpus, form, tool) -> best seconds for all of the corpus


def _table(write):
    for corpus, strings in CORPORA.items():
        write("")
        write(f"parse on {len(strings)} {corpus} (engine: {ENGINE}, parser: {PARSER_ENGINE}; best round)")
        write(f"{'form':<8} {'qbcore us':>10} {'tree-sitter us':>15} {'tree-sitter/qbcore':>19}")
        for form in FORMS:
            ours, theirs = RESULTS.get((corpus, form, "qbcore")), RESULTS.get((corpus, form, "tree-sitter"))
            if ours is None or theirs is None:
                continue
            n = len(strings)
            write(f"{form:<8} {ours / n * 1e6:>10.2f} {theirs / n * 1e6:>15.2f} {theirs / ours:>19.2f}")


@pytest.fixture(scope="session", autouse=True)
def summary(request):
    yield
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        _table(reporter.write_line)


def each(function, items):
    def run():
        for item in items:
            function(item)
    return run


@pytest.mark.parametrize("form", list(FORMS))
@pytest.mark.parametrize("corpus", list(CORPORA))
def bench_tree_sitter(benchmark, corpus, form):
    strings = [FORMS[form](text).encode() for text in CORPORA[corpus]]
    benchmark.pedantic(each(TREE_SITTER.parse, strings), rounds=9, iterations=1, warmup_rounds=1)
    RESULTS[corpus, form, "tree-sitter"] = benchmark.stats.stats.min


@pytest.mark.parametrize("form", list(FORMS))
@pytest.mark.parametrize("corpus", list(CORPORA))
def bench_qbcore(benchmark, corpus, form):
    strings = [FORMS[form](text) for text in CORPORA[corpus]]
    benchmark.pedantic(each(parse_prefix, strings), rounds=9, iterations=1, warmup_rounds=1)
    RESULTS[corpus, form, "qbcore"] = benchmark.stats.stats.min
