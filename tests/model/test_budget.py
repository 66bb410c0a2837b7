"""Untrusted replies in the static model: every reply bounded, nothing of the host read.

Work is measured in work units (Python calls, steps the meter counted,
parses), never in wall time; memory with tracemalloc.
"""

import os
import pwd
import sys
import tracemalloc

import pytest

import bashref
from adversarial import FAMILIES, big_reply, placements

from qbcore.batch.screen import delivery
from qbcore.harness.simulate import simulate
from qbcore.harness.transports import NAMES
from qbcore.model.budget import Budget, BudgetExceeded, Meter
from qbcore.model.evaluate import evaluate
from qbcore.model.expand import Env, Opaque, Pattern
from qbcore.syntax import parser as syntax
from qbcore.syntax.parser import parse, parse_prefix

SMALL = Budget(steps=200, bytes=8 << 10)
# Python calls one step or one budgeted byte may cost at most (measured worst: about 340
# a step with 4 calls a byte), plus what parsing and wrapping a reply costs whatever it holds
CALLS_PER_STEP, CALLS_PER_BYTE, CALLS_BASE = 400, 4, 60_000


class _CallCounter:
    def __init__(self):
        self.calls = 0

    def __call__(self, frame, event, arg):
        if event in ("call", "c_call"):
            self.calls += 1

    def run(self, fn, *args, **kwargs):
        sys.setprofile(self)
        try:
            return fn(*args, **kwargs)
        finally:
            sys.setprofile(None)


def _unknown_for_budget(simulation):
    return simulation.opaque and simulation.opaque[0].startswith("budget:")


# ---------------------------------------------------------------- the budget itself


def test_budget_rejects_negative_and_non_integer_limits():
    with pytest.raises(ValueError):
        Budget(steps=-1)
    with pytest.raises(ValueError):
        Budget(bytes=1.5)
    with pytest.raises(TypeError):
        simulate("echo $(echo x)", "heredoc-ssh", budget={"steps": 3})


def test_meter_fails_before_the_work_and_keeps_the_first_reason():
    meter = Meter(Budget(steps=2, bytes=10))
    meter.step(2)
    with pytest.raises(BudgetExceeded) as first:
        meter.step(1, "loop iterations")
    assert "loop iterations" in first.value.reason
    with pytest.raises(BudgetExceeded):
        meter.build(11)
    assert meter.exceeded == first.value.reason


@pytest.mark.parametrize("reply, transport, reason", [
    ("echo $(echo {1..99999999})", "heredoc-ssh", "brace expansion makes more than 65536 words"),
    ("echo $(echo " + "{a,b}" * 22 + ")", "heredoc-ssh", "(brace expansion)"),
    ("echo $(printf '%*s' 999999999 x)", "heredoc-ssh", "printf field width 999999999"),
    ("echo $(printf '%.*d' 999999999 1)", "heredoc-ssh", "printf field width 999999999"),
    ("echo $(x=ab; " + "x=$x$x; " * 64 + ")", "heredoc-ssh", "bytes built"),
    ('" $(while :; do while :; do while :; do :; done; done; done) "', "nested", "budget: more than"),
    ("echo $(for i in {1..10000}; do for j in {1..10000}; do :; done; done)", "heredoc-ssh", "budget: more than"),
    ('" $(f(){ f; f; }; f) "', "nested", "budget: more than"),
    ("echo $(x0=1; " + " ".join(f"x{i + 1}=x{i}+x{i}" for i in range(40)) + "; echo $((x40)))", "heredoc-ssh",
     "steps (arithmetic on $x"),
    ('x" ' + "a " * 600_000 + '"', "nested", "a reply of more than"),
], ids=lambda v: v[:40] if isinstance(v, str) else None)
def test_past_the_budget_the_result_is_unknown_and_names_the_limit(reply, transport, reason):
    simulation = simulate(reply, transport)
    assert not simulation.exact
    assert simulation.opaque[0].startswith("budget:") and reason in simulation.opaque[0]
    assert simulation.inner_script is None and simulation.outer_error is None
    assert delivery(reply, transport, simulation) == "unknown"


def test_the_budget_is_an_option():
    reply = "echo $(for i in {1..1000}; do :; done; echo done)"
    assert simulate(reply, "heredoc-ssh").inner_script == "echo done\n"
    tight = simulate(reply, "heredoc-ssh", budget=Budget(steps=100))
    assert _unknown_for_budget(tight) and "100 steps" in tight.opaque[0]


def test_evaluate_stops_at_the_budget_with_an_opaque_status():
    env = Env.default("/tmp", meter=Meter(Budget(steps=50)))
    result = evaluate(parse("while :; do :; done; echo after"), env)
    assert isinstance(result.status, Opaque) and result.opaque[-1].startswith("budget:")
    assert env.meter.exceeded is not None


# ---------------------------------------------------------------- the adversarial corpus


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_adversarial_reply_ends_within_the_budget_in_work_units(family):
    bound = CALLS_PER_STEP * SMALL.steps + CALLS_PER_BYTE * SMALL.bytes + CALLS_BASE
    for attack in FAMILIES[family](1):
        for reply in placements(attack):
            for transport in NAMES:
                counter = _CallCounter()
                simulation = counter.run(simulate, reply, transport, budget=SMALL)
                assert counter.calls <= bound, (reply, transport, counter.calls)
                assert simulation.exact or simulation.opaque


MEMORY = Budget(steps=5000, bytes=256 << 10)


@pytest.mark.parametrize("family", ["braces", "printf", "doubling", "records", "replacements", "loops"])
def test_adversarial_replies_use_memory_bounded_by_the_budget(family):
    peak_bound = 16 << 20  # 256 KiB of values, with Python's overhead on them and the parse
    for attack in FAMILIES[family](1):
        for reply, transport in ((f"echo $({attack})", "heredoc-ssh"), (f'x"; {attack}; "', "nested")):
            tracemalloc.start()
            try:
                simulate(reply, transport, budget=MEMORY)
                _, peak = tracemalloc.get_traced_memory()
            finally:
                tracemalloc.stop()
            assert peak <= peak_bound, (reply, transport, peak)


def test_a_big_leaked_reply_is_refused_before_it_is_parsed():
    reply = big_reply(2 << 20)
    counter = _CallCounter()
    simulation = counter.run(simulate, reply, "nested")
    assert _unknown_for_budget(simulation) and "reply of more than" in simulation.opaque[0]
    assert counter.calls < 1000


def test_generated_families_grow_in_size_not_in_work():
    # the same attacks at twice and four times the size cost about the same: the budget, not the reply, bounds them
    bound = CALLS_PER_STEP * SMALL.steps + CALLS_PER_BYTE * SMALL.bytes + CALLS_BASE
    for family in ("loops", "braces", "doubling"):
        for scale in (2, 4):
            for attack in FAMILIES[family](scale):
                counter = _CallCounter()
                counter.run(simulate, f"echo $({attack})", "heredoc-ssh", budget=SMALL)
                assert counter.calls <= bound, (attack, counter.calls)


# ---------------------------------------------------------------- linear-time patterns


def _pattern(text: str, meter=None) -> Pattern:
    return Pattern([(ch, True) for ch in text], meter=meter)


def test_a_backtracking_glob_matches_in_one_scan():
    pattern = _pattern("*a" * 10 + "*b")
    counts = []
    for n in (600, 1200):
        counter = _CallCounter()
        assert counter.run(pattern.matches, "a" * n) is False
        counts.append(counter.calls)
    assert counts[1] <= 2.2 * counts[0]  # linear in the text
    meter = Meter()
    _pattern("*a" * 10 + "*b", meter).matches("a" * 60)
    assert meter.steps == 1


@pytest.mark.parametrize("op", ["//b/c", "//0/ab", "//?/&&", "//*0/z", "/#*0/z", "/%0*/z", "##*0", "%%0*", "#0", "%0"])
def test_removal_and_replacement_scale_linearly(op):
    counts = []
    for n in (4000, 8000):
        env = Env.default("/tmp", meter=Meter(Budget(steps=10**6, bytes=10**8)))
        env.set("x", "0" * n)
        script = parse(f"y=${{x{op}}}")
        counter = _CallCounter()
        counter.run(evaluate, script, env)
        counts.append(counter.calls)
    assert counts[1] <= 2.3 * counts[0], counts


def test_case_and_double_bracket_match_without_backtracking():
    reply = "echo $(case " + "a" * 60 + " in *a*a*a*a*a*a*a*a*a*a*b) echo y;; *) echo n;; esac; " \
            "[[ " + "a" * 60 + " == *a*a*a*a*a*a*a*a*a*a*b ]] || echo no)"
    counter = _CallCounter()
    simulation = counter.run(simulate, reply, "heredoc-ssh")
    assert simulation.inner_script == "echo n\nno\n"
    assert counter.calls < 100_000


# ---------------------------------------------------------------- here-document recovery


def test_here_document_recovery_parses_a_bounded_number_of_times(monkeypatch):
    counts = {}
    for depth in (9, 18, 36):
        calls = []
        real = syntax.parse_prefix

        def counting(text, *args, **kwargs):
            calls.append(len(text))
            return real(text, *args, **kwargs)

        monkeypatch.setattr(syntax, "parse_prefix", counting)
        body = "$(x" + "`x" * depth
        syntax.parse(f"ssh h bash <<EOF\n{body}\nEOF\n")
        monkeypatch.setattr(syntax, "parse_prefix", real)
        counts[depth] = len(calls)
    # one parse a probe at most, never 2^depth
    assert counts[9] <= 9 + 2 and counts[18] <= 18 + 2
    assert counts[36] <= syntax.RECOVERY_PROBES + 2


def test_recovery_still_expands_what_comes_before_the_broken_construct():
    simulation = simulate("echo $(echo hi) `x", "heredoc-ssh")
    bare = simulate("echo hi `x", "heredoc-ssh")
    assert simulation.outer_error == bare.outer_error
    assert simulation.outer_effects and simulation.outer_effects[0].kind == "substitution"


# ---------------------------------------------------------------- the host is never read


HOST_REPLIES = [r for attack in FAMILIES["host"](1) for r in placements(attack)]


def _forbid_host(monkeypatch):
    """Make every file-system and user-database look-up made from qbcore's code fail the test."""
    # the whole qbcore package (simulate lives in qbcore/harness, the model in qbcore/model)
    model = os.path.dirname(os.path.dirname(os.path.abspath(simulate.__code__.co_filename))) + os.sep

    def guarded(real):
        def refuse(*args, **kwargs):
            frame = sys._getframe(1)
            while frame is not None and frame.f_code.co_filename.startswith("<frozen"):
                frame = frame.f_back  # os.path's own helpers
            if frame is not None and frame.f_code.co_filename.startswith(model):
                raise AssertionError(f"the model read the host: {real.__name__}{args!r}")
            return real(*args, **kwargs)
        return refuse

    for name in ("listdir", "scandir", "stat", "lstat"):
        monkeypatch.setattr(os, name, guarded(getattr(os, name)))
    for name in ("isdir", "exists", "lexists", "isfile", "samefile"):
        monkeypatch.setattr(os.path, name, guarded(getattr(os.path, name)))
    monkeypatch.setattr(pwd, "getpwnam", guarded(pwd.getpwnam))
    monkeypatch.setattr(pwd, "getpwuid", guarded(pwd.getpwuid))


@pytest.mark.parametrize("transport", NAMES)
def test_without_cwd_or_listing_the_host_is_never_read(monkeypatch, transport):
    _forbid_host(monkeypatch)
    for reply in HOST_REPLIES:
        simulate(reply, transport)


def test_globs_redirections_and_user_homes_are_unknown_and_named_by_default():
    leaked = simulate('x" /* ~root "', "nested")
    assert leaked.opaque == ["glob /* (this machine's files are not read)", "~root (the user database is not read)"]
    substituted = simulate("echo $(echo /*)", "heredoc-ssh")
    assert not substituted.exact and "$(echo /*)" in substituted.opaque
    redirect = simulate('" <//x "', "nested")
    assert not redirect.exact and "not read" in redirect.opaque[0]


def test_a_given_cwd_is_read(tmp_path):
    bashref.make_tree(str(tmp_path), ["a.txt", "b.txt"])
    simulation = simulate("echo $(echo *.txt)", "heredoc-ssh", cwd=str(tmp_path))
    assert simulation.exact and simulation.inner_script == "echo a.txt b.txt\n"


def test_a_listing_alone_answers_inside_the_tree_and_nothing_outside(monkeypatch):
    _forbid_host(monkeypatch)
    inside = simulate("echo $(echo *.txt)", "heredoc-ssh", listing=["a.txt", "sub/"])
    assert inside.exact and inside.inner_script == "echo a.txt\n"
    outside = simulate("echo $(echo /*)", "heredoc-ssh", listing=["a.txt"])
    assert not outside.exact


def test_rewrite_reads_the_current_directory_by_default(tmp_path):
    import subprocess

    bashref.make_tree(str(tmp_path), ["only.txt"])
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the checkout
    proc = subprocess.run([sys.executable, "-m", "qbcore", "rewrite", "-t", "heredoc-ssh", "--format", "json",
                           "--", "echo $(echo *.txt)"], cwd=tmp_path, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=root))
    assert '"inner_script": "echo only.txt\\n"' in proc.stdout, proc.stderr


# ---------------------------------------------------------------- `//` in paths, against bash


SLASH_SCRIPTS = [
    "cd //tmp; pwd", "cd //tmp/; echo $PWD", "cd ///tmp; pwd", "cd //; pwd; cd ..; pwd",
    "cd //tmp/./qb_missing/..; echo $?; pwd", "cd //tmp/../; pwd", "cd sub/..; pwd", "cd sub//..//; echo $PWD",
    "cd file/..; echo $?", "cd //tmp//; pwd", ": <//qb_missing_x; echo $?", "cd qb_missing/../sub; echo $?",
]


def test_paths_with_double_slashes_as_in_bash(tmp_path):
    cwd = str(tmp_path)
    bashref.make_tree(cwd, ["sub/", "file"])
    for script in SLASH_SCRIPTS:
        result = evaluate(parse(script), Env.default(cwd))
        assert not isinstance(result.stdout, Opaque), script  # compared, not skipped
    wrong = bashref.stdout_disagreements(SLASH_SCRIPTS, cwd=cwd)
    assert not wrong, wrong


@pytest.mark.parametrize("reply, transport", [('" <//x "', "nested"), ('x"; cd //tmp; "', "nested"),
                                              ("echo $(>//tmp/qb_f)", "heredoc-ssh"),
                                              ('" <' + "//x" * 50 + ' "', "double-nested")])
def test_double_slash_paths_end(reply, transport):
    counter = _CallCounter()
    counter.run(simulate, reply, transport)
    assert counter.calls < 200_000


# ---------------------------------------------------------------- the long fuzz run

LONG = os.environ.get("QBCORE_LONG", "") not in ("", "0")


class _Hang(Exception):
    pass


@pytest.mark.skipif(not LONG, reason="long fuzz run: set QBCORE_LONG=1")
def test_fuzz_random_and_adversarial_replies_never_hang_or_raise():
    """QBCORE_FUZZ_REPLIES replies (random shell fragments, some around an adversarial
    one) from seed QBCORE_FUZZ_SEED, each through every transport."""
    import random
    import signal

    from adversarial import random_reply

    seed = int(os.environ.get("QBCORE_FUZZ_SEED", "9"))
    count = int(os.environ.get("QBCORE_FUZZ_REPLIES", "2000"))
    rng = random.Random(seed)
    attacks = [attack for make in FAMILIES.values() for attack in make(1)]

    def hang(signum, frame):
        raise _Hang()

    outcomes: dict = {}
    previous = signal.signal(signal.SIGALRM, hang)
    try:
        for _ in range(count):
            reply = random_reply(rng, attacks)
            if rng.random() < 0.01:
                reply += "\0"
            for transport in NAMES:
                signal.alarm(60)  # a hang detector for the long run, not a timing assertion
                try:
                    simulation = simulate(reply, transport)
                except ValueError as exc:
                    assert "NUL" in str(exc), (reply, transport, exc)
                    continue
                except _Hang:
                    pytest.fail(f"hang: {reply!r} under {transport}")
                finally:
                    signal.alarm(0)
                assert simulation.exact or simulation.opaque or simulation.outer_error is not None or \
                    simulation.inner_script is None
                outcomes[_outcome(simulation)] = outcomes.get(_outcome(simulation), 0) + 1
    finally:
        signal.signal(signal.SIGALRM, previous)
    print(f"\nfuzz: seed {seed}, {count} replies x {len(NAMES)} transports: {outcomes}")


def _outcome(simulation):
    if _unknown_for_budget(simulation):
        return "past the budget"
    if simulation.outer_error is not None:
        return "broken"
    return "exact" if simulation.exact else "unknown"


@pytest.mark.parametrize("reply", [
    "x='eval \"$x\"'; eval \"$x\"",
    "g(){ echo $(g); }; g",
    "x='echo $(eval \"$x\")'; eval \"$x\"",
])
def test_code_nested_in_itself_stops_at_the_nesting_budget(reply):
    # compiled frames use the C stack faster than Python's recursion limit notices:
    # the meter's own nesting count must end these long before either
    env = Env.default("/nonexistent-task-dir", meter=Meter(Budget(steps=10**6, bytes=1 << 24)))
    result = evaluate(parse(reply), env)
    assert any("nested more than 64 deep" in name for name in result.opaque), result.opaque
    assert env.meter.nesting == 0


def test_the_nesting_budget_is_a_budget_field():
    with pytest.raises(ValueError):
        Budget(nesting=-1)
    assert Budget().nesting == 64


DEEP = 5000


@pytest.mark.parametrize("reply", [
    "echo " + "$(" * DEEP + "x" + ")" * DEEP,
    "(" * DEEP + "x" + ")" * DEEP,
    "echo $((" + "(" * DEEP + "1" + ")" * DEEP + "))",
    "echo $((" + "a=" * DEEP + "1))",
    "echo $((" + "1?" * DEEP + "1" + ":1" * DEEP + "))",
    "if true; then " * DEEP + "x" + "; fi" * DEEP,
])
def test_deeply_nested_replies_end_as_unknown_on_either_engine(reply):
    # a few kilobytes nested thousands deep: the compiled modules would run out of C stack
    # (a crash, not an exception) unless the parser and the model count their own depth
    for transport in NAMES:
        simulation = simulate(reply, transport)
        assert simulation.exact or simulation.opaque, transport


SED = "sed -i -e 's/alpha/omega/g' data.txt"


@pytest.mark.parametrize("reply", [
    f'{SED}; echo "bash < s.sh" > s.sh; bash < s.sh; rm s.sh',
    f'{SED}; echo "bash -c \\"bash < s.sh\\"" > s.sh; bash < s.sh; rm s.sh',
    f'{SED}; printf "%s\\n" "cat s.sh | bash" > s.sh; bash < s.sh; rm -f s.sh',
    f'{SED}; x=\'bash -c "$x"\'; export x; bash -c "$x"; rm -f s.sh',
])
def test_a_shell_that_starts_itself_ends_as_unknown(reply):
    # bash would start shells until the sandbox's process cap or its clock ends the attempt:
    # the files after it are not known, whatever the rest of the script does
    from qbcore.predict import predict

    found = predict("sed-replace/t0-plain", reply, "raw")
    assert not found.certain, found
    assert "nested" in found.why, found.why
