"""The one rule the prediction tests judge by: a certain prediction against what the executor did."""

import pytest

# a stored reply the model leaves open under nested and heredoc-ssh: the outer shell expands the
# `$RANDOM` that single quotes keep for raw, and the new shell's script then holds text the model
# does not know (raw: certain fail; executed under nested: fail, as `[ N = x ]` never holds)
UNDECIDED = {"id": "sample-90", "task_id": "write-file/t0-plain", "model": "model-b", "contract": "raw", "trial": 1,
             "reply": "printf 'x\\n' > out.txt; [ '$RANDOM' = x ] && printf '%s\\n' 'hello world' > out.txt"}


def disagreement(found, attempt, what: str):
    """A line naming the disagreement of a certain prediction ``found`` with the executor's
    ``attempt``, or None when they agree: the same pass or fail, the same failure class when
    the prediction names one, and the same differences from the state the task asks for when
    the prediction lists them (Prediction.diff_holds)."""
    if found.passed != attempt.passed or found.failure_class not in (None, attempt.class_):
        return f"{what}: predicted {found.as_dict()}, executed {attempt.class_}: {attempt.reason}"
    if found.diff is not None and not found.diff_holds(attempt.differences):
        return f"{what}: predicted the differences {found.as_dict()['diff']}, executed " \
               f"{attempt.as_dict()['diff']}"
    return None


def judged(pairs):
    """``(decided, [disagreement lines])`` over ``pairs`` of (prediction, attempt, what): how many
    predictions are certain, and each certain one the executor contradicts."""
    decided, wrong = 0, []
    for found, attempt, what in pairs:
        if not found.certain:
            continue
        decided += 1
        line = disagreement(found, attempt, what)
        if line:
            wrong.append(line)
    return decided, wrong


def execute(cases) -> list:
    """The executor's attempt for each of ``cases`` (task id, reply, transport), in order: run
    in the sandbox, two workers (the test is skipped where the sandbox cannot run)."""
    import sandboxing
    from qbcore.realbash import executor

    sandboxing.need_sandbox()
    jobs = [executor.Job(task, reply, transport, str(n)) for n, (task, reply, transport) in enumerate(cases)]
    found = {int(job.label): attempt for job, attempt in executor.run_many(jobs, workers=2)}
    return [found[n] for n in range(len(cases))]


def certain_disagreements(cases, attempts) -> list:
    """A line for each certain prediction of ``cases`` that the executor's ``attempts``
    contradict (see disagreement)."""
    from qbcore import suite
    from qbcore.predict import predict

    return [line for (task, reply, transport), attempt in zip(cases, attempts)
            if (found := predict(suite.get(task), reply, transport)).certain
            and (line := disagreement(found, attempt, f"{task} {reply!r} {transport}"))]


def listed_cases(replies, transports) -> list:
    """``(task, reply, transport)`` for each of ``replies`` (task, reply, passes under raw) under
    each of ``transports``, reply by reply."""
    return [(task, reply, transport) for task, reply, _ in replies for transport in transports]


def raw_surprises(replies, cases, attempts) -> list:
    """A line for each of ``replies`` (task, reply, passes under raw) that raw does not decide as
    listed: a prediction that is unknown or says otherwise, or an executed attempt that does."""
    from qbcore import suite
    from qbcore.predict import predict

    passes = {(task, reply): want for task, reply, want in replies}
    lines = []
    for (task, reply, transport), attempt in zip(cases, attempts):
        if transport != "raw":
            continue
        found = predict(suite.get(task), reply, transport)
        if not found.certain or found.passed is not passes[(task, reply)]:
            lines.append(f"{task} {reply!r}: predicted {found.as_dict()}")
        if attempt.passed is not passes[(task, reply)]:
            lines.append(f"{task} {reply!r}: executed {attempt.class_}: {attempt.reason}")
    return lines


class ListedReplies:
    """The two checks of a listed set of replies, for a test class to take: ``REPLIES``
    (task, reply, passes under raw) under each of ``TRANSPORTS``, predicted and executed once
    for the class. Raw decides each reply as listed, and every certain prediction under every
    transport agrees with the executor. (Not named Test…: only its subclasses are collected.)"""

    REPLIES: list = []
    TRANSPORTS: tuple = ()

    @pytest.fixture(scope="class")
    def outcomes(self, request):
        cases = listed_cases(request.cls.REPLIES, request.cls.TRANSPORTS)
        return cases, execute(cases)

    def test_replies_are_decided_under_raw_as_listed(self, outcomes):
        cases, executed = outcomes
        surprises = raw_surprises(self.REPLIES, cases, executed)
        assert not surprises, "\n".join(surprises)

    def test_every_certain_prediction_agrees_with_the_executor(self, outcomes):
        cases, executed = outcomes
        wrong = certain_disagreements(cases, executed)
        assert not wrong, "\n".join(wrong)


def decided_share(replies, transports) -> float:
    """The share of ``replies`` (task, reply, passes under raw) × ``transports`` predicted for certain."""
    from qbcore import suite
    from qbcore.predict import predict

    cases = listed_cases(replies, transports)
    return sum(predict(suite.get(task), reply, transport).certain for task, reply, transport in cases) / len(cases)
