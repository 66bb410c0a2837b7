"""Executor throughput: the suite's 112 oracle and naive attempts, sandboxed over the pool vs unsandboxed in turn.

Both sides do the whole attempt (fresh directory, fixture, `bash -c`,
validator, failure class) through ``qbcore.realbash.executor``; the baseline passes
``unsafe_no_sandbox`` and runs one attempt after another, the measured side
runs every attempt sandboxed over ``run_many``'s process pool (its default
size, one worker more than CPUs; each worker starts one bubblewrap, its
zygote, and every attempt gets fresh pid and mount namespaces from it). Both are measured in
the same session and the ratio of their best rounds is printed at the end,
with the CPU time of every process per attempt (less sensitive to other
load than the wall clock), and the CPU time of a zygote's start (its
bubblewrap and its Python), which the pool pays once per worker and batch
instead of a bubblewrap once per attempt.

Run: python -m pytest bench/bench_executor.py   (QBCORE_LONG=1 for more rounds)
"""

import ctypes
import os
import resource
import shutil

import pytest

from qbcore.realbash import cgroups, executor, sandbox
from qbcore import suite

ROUNDS = 5 if os.environ.get("QBCORE_LONG") else 3
BEST = {}  # side -> (best seconds, outcomes, CPU seconds of the best round)


def _jobs():
    jobs = []
    for task in suite.load():
        jobs.append(executor.Job(task.id, task.oracle, "raw", "oracle"))
        jobs.append(executor.Job(task.id, task.naive, "raw", "naive"))
    return jobs


def _outcomes(pairs):
    return sorted((job.task_id, job.label, attempt.class_) for job, attempt in pairs)


def _report(capsys):
    """Print both sides and their ratio once both have been measured (the sandboxed side runs last)."""
    if len(BEST) < 2:
        return
    base_s, base_outcomes, base_cpu = BEST["unsandboxed sequential"]
    fast_s, fast_outcomes, fast_cpu = BEST["sandboxed parallel"]
    count = len(base_outcomes)
    workers = executor.default_workers(_jobs())
    lines = [
        "",
        f"executor throughput, {count} attempts (56 oracles + 56 naive commands, raw), best of {ROUNDS} rounds, "
        f"{os.cpu_count()} CPUs",
        f"  unsandboxed, one by one:        {base_s:7.2f} s  {count / base_s:7.1f} attempts/s",
        f"  sandboxed, {workers} pool workers:    {fast_s:7.2f} s  {count / fast_s:7.1f} attempts/s",
        f"  sandboxed-parallel rate / unsandboxed-sequential rate: {base_s / fast_s:.2f}x (target >= 1.5x)",
        f"  same failure class for every attempt in both modes: {'yes' if base_outcomes == fast_outcomes else 'NO'}",
        f"  CPU time per attempt (all processes): unsandboxed {base_cpu / count * 1e3:.1f} ms, "
        f"sandboxed {fast_cpu / count * 1e3:.1f} ms; on {os.cpu_count()} idle CPUs the ratio could reach "
        f"{(os.cpu_count() or 1) * base_cpu / fast_cpu:.2f}x",
        f"  load average while measuring: {' '.join(f'{x:.1f}' for x in os.getloadavg())}",
    ]
    if "zygote start" in BEST:
        start_cpu = BEST["zygote start"][2] / ZYGOTE_STARTS
        lines.insert(-1, f"  a zygote's start and end (bubblewrap, its Python): {start_cpu * 1e3:.1f} ms CPU, paid "
                         f"once per worker and round ({workers} starts for {count} attempts, "
                         f"{workers * start_cpu / count * 1e3:.2f} ms an attempt)")
    layout = cgroups.layout()
    lines.insert(-1, "  one memory and process cap per worker: "
                     + (f"cgroup {layout[0]}" if layout else "none (no writable cgroup; rlimits only)"))
    with capsys.disabled():
        print("\n".join(lines))


def _adopt_orphans():
    """Become the reaper of orphaned descendants, so their CPU time is counted too.

    bwrap's monitor can exit before the kernel has reaped every process of
    the sandbox; without this, their CPU time would be lost from
    RUSAGE_CHILDREN and the sandboxed side would look cheaper than it is.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


def _reap_orphans():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if not pid:
            return


def _cpu_seconds() -> float:
    # this process and every descendant it (or they) waited for: the pool
    # workers, bwrap, the shells, the tools, and (see _adopt_orphans) orphans
    _reap_orphans()
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _measure(benchmark, side, run):
    _adopt_orphans()
    results, cpu = [], []

    def once():
        before = _cpu_seconds()
        results.append(run())
        cpu.append(_cpu_seconds() - before)

    benchmark.pedantic(once, rounds=ROUNDS, iterations=1, warmup_rounds=0)
    best = min(range(len(benchmark.stats.stats.data)), key=benchmark.stats.stats.data.__getitem__)
    BEST[side] = (benchmark.stats.stats.min, _outcomes(results[-1]), cpu[best])
    benchmark.extra_info["attempts_per_s"] = len(results[-1]) / benchmark.stats.stats.min


def bench_executor_unsandboxed_sequential(benchmark, capsys):
    jobs = _jobs()
    _measure(benchmark, "unsandboxed sequential",
             lambda: [(job, executor.run(job.task_id, job.reply, job.transport, unsafe_no_sandbox=True))
                      for job in jobs])


ZYGOTE_STARTS = 16


def bench_zygote_start(benchmark):
    if not sandbox.available():
        pytest.skip(f"bubblewrap cannot run here: {sandbox.unavailable_reason()}")
    bwrap = shutil.which("bwrap")

    def starts():
        for _ in range(ZYGOTE_STARTS):
            sandbox._Zygote(bwrap).close()
        return []

    _measure(benchmark, "zygote start", starts)


def bench_executor_sandboxed_parallel(benchmark, capsys):
    if not sandbox.available():
        pytest.skip(f"bubblewrap cannot run here: {sandbox.unavailable_reason()}")
    jobs = _jobs()
    _measure(benchmark, "sandboxed parallel", lambda: list(executor.run_many(jobs)))
    _report(capsys)
