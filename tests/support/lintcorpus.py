"""The labelled corpus of nesting hazards and correct nested commands (tests/support/corpus/lint).

Each case is a command with the inner script its author evidently meant.
Labelling runs it with real bash in the sandbox, with recorders standing in
for the programs that start the inner shell (sh, bash, ssh, sudo, su,
docker, podman, kubectl, watch, eval), and records what the inner shell
received. A hazard is confirmed when that differs from the intent; for
bash-only syntax under sh, when dash and bash disagree on the received
script; for stdin swallowing, when the script's last line never runs, or a
loop starts its program fewer times than it has input lines.
``python tests/support/lintcorpus.py`` rewrites labels.jsonl.
"""

import json
import os
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "lint")
CASES = os.path.join(HERE, "cases.jsonl")
LABELS = os.path.join(HERE, "labels.jsonl")
RECORDED = ("sh", "bash", "dash", "ssh", "sudo", "su", "docker", "podman", "kubectl", "watch")
# a recorder appends its name, arguments and (without -c) its stdin to $REC;
# the names in $REC_PASS run the real program instead
RECORDER = b"""#!/bin/sh
n=${0##*/}
case " $REC_PASS " in *" $n "*) exec "/usr/bin/$n" "$@";; esac
{ printf '%s\\0' "$n" "$@"; printf '\\036'
  case " $* " in *" -c "*|*" -n "*) ;; *) cat;; esac
  printf '\\035'; } >> "$REC"
"""
PRELUDE = """x='a b'; dir='my dir;touch pwned'; f="it's here.txt"; line='1.2.3.4 h'; cmd='echo one two'; n=41
eval() { { printf '%s\\0' eval "$@"; printf '\\036\\035'; } >> "$REC"; }
"""
FIXTURE = ("it's.txt", "a b.txt", "my file", "key.pem")


def load_cases():
    with open(CASES, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def load_labels():
    with open(LABELS, encoding="utf-8") as handle:
        return {label["id"]: label for label in (json.loads(line) for line in handle if line.strip())}


def _sandbox_run(argv, workdir, stdin=b"", env_extra=None):
    from qbcore.realbash import sandbox

    env = {"PATH": "/tmp/rec:/usr/bin:/bin", "LC_ALL": "C", "HOME": workdir, "REC": os.path.join(workdir, ".rec")}
    env.update(env_extra or {})
    programs = {f"/tmp/rec/{name}": RECORDER for name in RECORDED}
    return sandbox.run(argv, workdir=workdir, env=env, stdin=stdin, programs=programs)


def _records(workdir):
    path = os.path.join(workdir, ".rec")
    if not os.path.exists(path):
        return []
    data = open(path, "rb").read().decode("utf-8", "surrogateescape")
    found = []
    for entry in data.split("\x1d")[:-1]:
        argv, _, stdin = entry.partition("\x1e")
        found.append((argv.split("\0")[:-1], stdin))
    return found


def _received(case, records):
    """(script, args) the inner shell received, by the case's way of starting it."""
    from qbcore.harness.transports import ssh_call

    via = case["via"]
    for argv, stdin in records:
        name, args = argv[0], argv[1:]
        if via == "c" and "-c" in args:
            at = args.index("-c")
            return args[at + 1], args[at + 2:]
        if via == "ssh" and name == "ssh":
            call = ssh_call(args)
            return (call.command if call.command else stdin), []
        if via == "stdin" and name in ("ssh", "bash", "sh"):
            return stdin, []
        if via == "join" and name in ("eval", "watch"):
            while name == "watch" and args and args[0].startswith("-"):
                args = args[2:] if args[0] in ("-n", "--interval") else args[1:]
            return " ".join(args), []
    return None, []


def label(case, workdir):
    """What real bash delivered for one case, and whether the hazard is confirmed."""
    for name in FIXTURE:
        open(os.path.join(workdir, name), "w").close()
    script = PRELUDE + case["command"] + "\n"
    done = _sandbox_run(["/usr/bin/bash", "-c", script, "outer0", "p 1", "p2"], workdir,
                        env_extra={"REC_PASS": " ".join(case.get("pass", []))})
    received, args = _received(case, _records(workdir))
    result = {"id": case["id"], "kind": case["kind"], "received": received, "received_args": args,
              "outer_status": done.exit_code}
    confirm = case.get("confirm", "argv")
    if received is None and confirm != "count":
        confirmed = True
    elif confirm == "dash":
        runs = [_sandbox_run([shell, "-c", received], workdir) for shell in ("/usr/bin/dash", "/usr/bin/bash")]
        result["dash"] = [runs[0].exit_code, runs[0].stdout.decode("utf-8", "replace")]
        result["bash"] = [runs[1].exit_code, runs[1].stdout.decode("utf-8", "replace")]
        confirmed = result["dash"] != result["bash"]
    elif confirm == "count":
        starts = sum(1 for argv, _ in _records(workdir) if argv[0] == case["program"])
        result["starts"] = starts
        confirmed = starts != case["starts"]
    elif confirm == "stdin":
        run = _sandbox_run(["/usr/bin/bash", "-s"], workdir, stdin=received.encode("utf-8", "surrogateescape"))
        confirmed = b"END" not in run.stdout.split(b"\n")
    else:
        intended = case.get("intended")
        confirmed = (intended is not None and received != intended) or (
            "intended_args" in case and args != case["intended_args"])
    result["confirmed"] = confirmed
    return result


def label_all(root):
    labels = []
    for n, case in enumerate(load_cases()):
        workdir = os.path.join(root, f"case{n}")
        os.makedirs(workdir)
        labels.append(label(case, workdir))
    return labels


if __name__ == "__main__":
    import tempfile

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    with tempfile.TemporaryDirectory() as root:
        labels = label_all(root)
    with open(LABELS, "w", encoding="utf-8") as out:
        for entry in labels:
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")
    confirmed = sum(1 for e in labels if e["kind"] == "hazard" and e["confirmed"])
    print(f"{len(labels)} cases; {confirmed} hazards confirmed by bash; "
          f"{sum(1 for e in labels if e['kind'] == 'idiom' and e['confirmed'])} idioms with damage")
    for e in labels:
        if (e["kind"] == "hazard") != e["confirmed"]:
            print("  label differs from intent:", e["id"], repr(e["received"]))
