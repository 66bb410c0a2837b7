"""escape round-trips through real bash: the inner shell receives exactly the reply.

For every transport, hostile replies are escaped, wrapped, and run by the
probe; the inner shell must receive the reply byte for byte (plus the final
newline of the stdin-fed transports) and nothing may run in the outer shell.
"""

import pytest
from probing import (EXAMPLES, chunk_count, describe, draw, hostile_replies, probe_workers, sandbox_ready,
                     shrink)

from qbcore.realbash.probe import probe_many
from qbcore.harness.transports import NAMES, TRANSPORTS, escape

pytestmark = pytest.mark.bash
__all__ = ["sandbox_ready"]  # a fixture, imported for its name


def _expected(reply, transport):
    return reply + "\n" if TRANSPORTS[transport].adds_final_newline else reply


def _disagreements(replies, transport, root):
    results = probe_many([(escape(r, transport), transport) for r in replies], root=root,
                         workers=probe_workers())
    found = []
    for reply, got in zip(replies, results):
        trouble = []
        if got.inner_script != _expected(reply, transport):
            trouble.append(f"received {got.inner_script!r}")
        if got.inner_args:
            trouble.append(f"args {got.inner_args!r}")
        if len(got.received) != 1:
            trouble.append(f"{len(got.received)} inner shells started")
        if got.stdout or got.exit_code != 0 or got.harness_error:
            trouble.append(f"outer status {got.exit_code} {got.harness_error or ''} "
                           f"stdout {got.stdout[:80]!r} stderr {got.stderr[:200]!r}")
        found.append(trouble)
    return found


@pytest.mark.parametrize("chunk", range(len(chunk_count())))
@pytest.mark.parametrize("transport", NAMES)
def test_escaped_reply_arrives_byte_for_byte(transport, chunk, sandbox_ready, tmp_path):
    replies = draw(hostile_replies(), chunk_count()[chunk], "escape", transport, chunk)
    assert len(replies) >= chunk_count()[chunk] * 9 // 10  # hypothesis may drop a few duplicates
    verdicts = _disagreements(replies, transport, str(tmp_path))
    failures = [(r, t) for r, t in zip(replies, verdicts) if t]
    if failures:
        smallest = shrink(min((r for r, _ in failures), key=len),
                          lambda cs: [bool(t) for t in _disagreements(cs, transport, str(tmp_path))])
        pytest.fail(f"{transport}: smallest failing reply {smallest!r}\n" + describe(failures))


def test_the_ci_run_checks_enough_examples():
    assert sum(chunk_count()) == EXAMPLES >= 2000
