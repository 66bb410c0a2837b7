"""Generated replies for the suite's tasks, predicted and executed: wherever the prediction
is certain it agrees with the executor.

Replies are the tasks' oracle and naive replies bent the ways quoting goes
wrong (a quote dropped, quotes swapped, a backslash added, the command
wrapped in another shell, a group or env, output sent elsewhere, sed's
substitution given to perl, shell options that change globs set first). Seeded from
QBCORE_SEED (probing.SEED); QBCORE_LONG=1 draws many more.
"""

import random
import re

import probing
import sandboxing
from predicting import disagreement
from qbcore import suite
from qbcore.harness.quoting import single_quote
from qbcore.predict import predict
from qbcore.realbash import executor

COUNT = 1200 if probing.LONG else 160
# the transports QuoteBench's crossover compares; the others run in a test of their own
TRANSPORTS = ("raw", "nested", "single", "double-nested")
OTHER_TRANSPORTS = ("script", "stdin", "ssh", "ssh-argv", "heredoc-ssh")


def _drop_quote(reply, rng):
    spots = [n for n, c in enumerate(reply) if c in "'\""]
    if not spots:
        return reply
    n = rng.choice(spots)
    return reply[:n] + reply[n + 1:]


def _insert(reply, rng, text):
    n = rng.randrange(len(reply) + 1)
    return reply[:n] + text + reply[n:]


MUTATIONS = [
    _drop_quote,
    lambda r, rng: r.translate(str.maketrans({"'": '"', '"': "'"})),
    lambda r, rng: _insert(r, rng, "\\"),
    lambda r, rng: _insert(r, rng, rng.choice(["$", "`", "!", "*", " ", "\n", ";", "&", "|"])),
    lambda r, rng: r + rng.choice([" 2>/dev/null", " >/dev/null", "; true", "; false", " && echo done",
                                   " || exit 3", " | cat"]),
    lambda r, rng: rng.choice(["( {} )", "{{ {}; }}", "bash -c {q}", "eval {q}", "set -e; {}",
                               "cd . && {}", "{} 2>&1 | cat"]).format(r, q=single_quote(r)),
    lambda r, rng: f"{r}; {r}",
    lambda r, rng: r.replace(" ", "\n", 1),
    # what an outer layer does to the whole reply: its backslashes or one kind of quote eaten,
    # its variables expanded to nothing
    lambda r, rng: r.replace("\\", ""),
    lambda r, rng: r.replace(rng.choice("'\""), ""),
    lambda r, rng: re.sub(r"\$(\w+|\{[^}]*\})", "", r),
    # the command started through env (its program is never a builtin or a function)
    lambda r, rng: rng.choice(["env ", "env -- ", "env -u UNSET_NAME ", "env X=1 "]) + r,
    # sed's substitution handed to perl, which reads the same text as a perl regex and string
    lambda r, rng: r.replace("sed -i -e", rng.choice(["perl -pi -e", "perl -pe"])),
    # shell options that change what globs match, first; a locale set through env
    lambda r, rng: rng.choice(["shopt -s nullglob; ", "shopt -s dotglob; ", "shopt -s globstar; ",
                               "shopt -s nullglob dotglob; ", "shopt -s extglob; "]) + r,
    lambda r, rng: r.replace("LC_ALL=C ", "env LC_ALL=C ").replace("mv -- ", "mv -v -- "),
]


def _replies(transports, count, seed):
    rng = random.Random(seed)
    tasks = suite.load()
    for _ in range(count):
        task = rng.choice(tasks)
        reply = getattr(task, rng.choice(["oracle", "naive"]))
        for _ in range(rng.choice([1, 1, 2])):
            reply = rng.choice(MUTATIONS)(reply, rng)
        yield task, reply, rng.choice(transports)


def test_generated_replies_agree_with_the_executor():
    _agree(_replies(TRANSPORTS, COUNT, probing.SEED))


def test_generated_replies_agree_under_the_other_transports():
    _agree(_replies(OTHER_TRANSPORTS, COUNT // 2, probing.SEED + 1))


def _agree(replies):
    sandboxing.need_sandbox()
    cases = [(task, reply, transport) for task, reply, transport in replies if "\0" not in reply]
    predicted = {n: predict(task, reply, transport) for n, (task, reply, transport) in enumerate(cases)}
    certain = [n for n, found in predicted.items() if found.certain]
    jobs = [executor.Job(cases[n][0].id, cases[n][1], cases[n][2], str(n)) for n in certain]
    wrong = []
    for job, attempt in executor.run_many(jobs, workers=2):
        found = predicted[int(job.label)]
        line = disagreement(found, attempt, f"{job.task_id} {job.transport} {job.reply!r}")
        if line:
            wrong.append(line)
    print(f"decided {len(certain)}/{len(cases)}; seed {probing.SEED}")
    assert not wrong, f"{len(wrong)} disagreement(s), QBCORE_SEED={probing.SEED}:\n" + "\n".join(wrong[:20])
