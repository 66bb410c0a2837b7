"""Test support for checks against the probe: hostile replies, batched drawing, sizing, shrinking.

A probe costs a bash process, so property tests draw their examples with
hypothesis first and probe them in sandboxed batches; a failure is then
shrunk by deleting characters while the probe still disagrees.
"""

import os
import random
import zlib

import pytest
from sandboxing import need_sandbox
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

LONG = os.environ.get("QBCORE_LONG", "") not in ("", "0")
# examples per transport and CI run; QBCORE_LONG=1 for a long local run
EXAMPLES = int(os.environ.get("QBCORE_EXAMPLES", "20000" if LONG else "2000"))
CHUNKS = 4  # tests per transport, so that pytest-xdist spreads the probes

def _session_seed():
    # every pytest-xdist worker of one run shares PYTEST_XDIST_TESTRUNUID, so
    # they draw from one seed, and the seed in a failure message reproduces it
    given = int(os.environ.get("QBCORE_SEED", "0"))
    if given:
        return given
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run:
        return zlib.crc32(run.encode()) or 1
    return random.SystemRandom().randrange(1, 2**31)


SEED = _session_seed()

HOSTILE_CHARS = list("'\"$`\\\n \t*?[]{};&|<>()#~!=") + list("abcxyzEOF") + ["é", "✓", "𝄞", "\u00a0"]
# whole tokens that reach the interesting corners faster than single characters do
HOSTILE_TOKENS = ["EOF", "\nEOF\n", "echo ", "bash -c ", "$(", "${", "$'", "$\"", "$@", "$*", "$#", "$?",
                  "$$", "$!", "$_", "$HOME", "${x:-y}", "\\\n", "-", "--", "'\\''", "\\\"", "`echo q`",
                  "{a,b}", "~/", "x=", "<<", "<<'X'\nx\nX\n", "$((1+2))", "!!", "#", ";", "&&", "||",
                  # constructs the parser once refused (issue 8)
                  "declare -a a=(", "let i=(", "; done }", "f() { ", "[[ x == !(", "[k]="]


def hostile_replies(max_size=24):
    """Replies built from the hostile alphabet of issue 3 (no NUL)."""
    # one sampled_from over both lists: a third of the drawing cost of one_of
    return st.lists(st.sampled_from(HOSTILE_CHARS + HOSTILE_TOKENS), max_size=max_size).map("".join)


def draw(strategy, count, *key):
    """``count`` examples of ``strategy``, reproducible from QBCORE_SEED and ``key``."""
    found = []

    @seed(zlib.crc32(repr((SEED, *key)).encode()))  # str hashes differ between processes
    @settings(max_examples=count, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(example):
        found.append(example)

    collect()
    return found


def chunk_count(total=EXAMPLES, chunks=CHUNKS):
    return [total // chunks + (1 if i < total % chunks else 0) for i in range(chunks)]


def probe_workers():
    """One batch at a time under pytest-xdist (the workers already fill the cores)."""
    return 1 if os.environ.get("PYTEST_XDIST_WORKER") else None


@pytest.fixture(scope="session")
def sandbox_ready():
    need_sandbox()


def shrink(text, fails, *, rounds=200):
    """A shorter text that still ``fails``: delete characters greedily.

    ``fails(candidates) -> list[bool]`` judges a whole batch at once, so each
    round costs one batch of probes.
    """
    for _ in range(rounds):
        candidates = []
        for size in (8, 4, 2, 1):
            candidates += [text[:i] + text[i + size:] for i in range(0, len(text) - size + 1)]
        candidates = list(dict.fromkeys(c for c in candidates if c != text))
        if not candidates:
            return text
        verdicts = fails(candidates)
        smaller = [c for c, bad in zip(candidates, verdicts) if bad]
        if not smaller:
            return text
        text = min(smaller, key=len)
    return text


def describe(failures, limit=5):
    """The shortest failures first, one a line, with the seed that reproduces them."""
    lines = [f"{len(failures)} disagreement(s); reproduce with QBCORE_SEED={SEED}"]
    for item in sorted(failures, key=lambda f: len(repr(f)))[:limit]:
        lines.append(f"  {item}")
    return "\n".join(lines)
