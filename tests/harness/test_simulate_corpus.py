"""The QuoteBench reply shapes through every transport: simulate against real bash.

Every reply of tests/support/corpus_replies.py goes through every transport twice,
statically and with the probe, in a working directory holding the corpus
fixture. Where the simulation claims exactness it must match bash byte for
byte; and it must claim exactness on at least 99% of the pairs.
"""

import pytest
from corpus_replies import CORPUS, FIXTURE
from probing import probe_workers, sandbox_ready
from test_simulate_probe import disagreement

from qbcore.realbash.probe import probe_many
from qbcore.harness.simulate import simulate
from qbcore.harness.transports import NAMES

pytestmark = pytest.mark.bash
__all__ = ["sandbox_ready"]  # a fixture, imported for its name


def _run(replies, root):
    items = [(reply, transport) for reply in replies for transport in NAMES]
    results = probe_many(items, fixture=FIXTURE, root=root, workers=probe_workers())
    return [(reply, transport, got, simulate(reply, transport, cwd=got.cwd, environ=got.environ,
                                                   listing=list(FIXTURE)))
            for (reply, transport), got in zip(items, results)]


@pytest.fixture(scope="module")
def corpus_results(tmp_path_factory, sandbox_ready):
    return _run([reply for _, reply in CORPUS], str(tmp_path_factory.mktemp("corpus")))


def _check(results, transport):
    wrong = []
    for reply, t, got, sim in results:
        why = disagreement(sim, got) if t == transport and sim.exact else None
        if why:
            wrong.append((reply, why))
    assert not wrong, "\n".join(f"{reply!r}: {why}" for reply, why in wrong)


def test_the_corpus_covers_every_family():
    families = {family for family, _ in CORPUS}
    assert families == {"write-file", "sed-replace", "grep-count", "field-lookup", "hostile-filenames",
                        "find-glob", "ssh-nested", "json-write", "git-commit", "env-passing", "argv-passing",
                        "bulk-rename", "heredoc-write", "ssh-heredoc"}


@pytest.mark.parametrize("transport", NAMES)
def test_exact_predictions_match_bash(transport, corpus_results):
    _check(corpus_results, transport)


def test_the_agent_command_corpus_agrees_too(tmp_path, sandbox_ready):
    # the lexer's corpus of everyday agent commands (tests/support/corpus/agent_commands.txt)
    from lexcorpus import agent_commands

    results = _run(agent_commands(), str(tmp_path))
    for transport in NAMES:
        _check(results, transport)


def test_exactness_is_claimed_on_at_least_99_percent(corpus_results):
    inexact = [(reply, transport, sim.opaque) for reply, transport, _, sim in corpus_results if not sim.exact]
    share = 1 - len(inexact) / len(corpus_results)
    assert share >= 0.99, f"exact on {share:.1%}; not exact:\n" + "\n".join(map(repr, inexact))
