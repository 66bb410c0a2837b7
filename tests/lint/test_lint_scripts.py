"""Mode 2 of qbcore lint: the nested invocations written in a script or command.

Each launcher is recognised, what the outer shell does to the string is
reported against the author's evident intent, the inner script is linted in
turn (the layer path in the finding), correct idioms stay silent, and every
safe fix is proven by the simulator and by real bash.
"""

import pytest
from probing import sandbox_ready

from qbcore.lint import Settings, lint_text
from qbcore.lint.fixes import apply_fixes
from qbcore.harness.simulate import simulate

__all__ = ["sandbox_ready"]


def codes(text):
    return {f.code for f in lint_text(text)}


@pytest.mark.parametrize("command, code", [
    ('sh -c "echo $1" _ x', "QB102"),
    ("xargs -I{} sh -c 'echo {}'", "QB203"),
    ("find . -name '*.txt' -exec sh -c 'wc -l {}' \\;", "QB203"),
    ('ssh -p 2222 -i key.pem host ls "my file"', "QB301"),
    ('ssh -o BatchMode=yes host "rm -r $dir"', "QB103"),
    ('ssh host "ls $(pwd)"', "QB104"),
    ('ssh "$host" "rm -rf /srv/$app"', "QB103"),
    ('out=$(ssh h "cat $f")', "QB103"),
    ('diff <(ssh a ls "my dir") b', "QB301"),
    ("while read -r h; do ssh \"$h\" uptime; done < hosts", "QB601"),
    ('sudo sh -c "echo $line >> /etc/hosts"', "QB103"),
    ('su -c "ls $d" root', "QB103"),
    ('docker exec -it web sh -c "cat $f"', "QB103"),
    ('podman exec web bash -c "cat $f"', "QB103"),
    ('kubectl exec pod -n ns -- sh -c "ls $dir"', "QB103"),
    ('env A=1 sh -c "echo $A"', "QB103"),
    ('timeout 5 bash -c "echo $x"', "QB103"),
    ('nohup bash -c "run $x" &', "QB103"),
    ("sh -c 'rm '\"$f\"", "QB202"),
    ("bash -c $cmd", "QB106"),
    ('bash -c "echo "hi there""', "QB101"),
    ('eval echo "a; b"', "QB301"),
    ('watch ls "my dir"', "QB301"),
    ("sh -c '[[ -f x ]] && echo y'", "QB701"),
    ("sh -c 'echo ${x//a/b}'", "QB701"),
    ("sh -c 'cat <<< hi'", "QB701"),
    ("sh -c 'source ./env'", "QB701"),
    ("sh -c '[ a == a ]'", "QB701"),
    ("bash -c 'echo (x'", "QB902"),
    ("ssh host bash <<EOF\necho $x\nEOF", "QB402"),
    ("ssh host <<EOF\necho $(hostname)\nEOF", "QB402"),
    ("bash -s <<'EOF'\ncat\necho never\nEOF", "QB601"),
])
def test_hazard_is_found(command, code):
    assert code in codes(command)


IDIOMS = [
    "sh -c 'echo \"$1\"' _ \"$x\"",
    "sh -c 'for f; do wc -l \"$f\"; done' sh \"$@\"",
    "find . -name '*.log' -exec sh -c 'gzip -- \"$1\"' _ {} \\;",
    "find . -type f -exec sh -c 'for f; do echo \"$f\"; done' _ {} +",
    "printf '%s\\0' *.txt | xargs -0 -n1 sh -c 'echo \"$1\"' _",
    "ssh host \"cd $(printf %q \"$dir\") && ls\"",
    "printf -v q '%q' \"$dir\"; ssh host \"ls $q\"",
    "q=$(printf '%q ' \"$@\"); ssh host \"run $q\"",
    "ssh host 'ls /tmp; echo \"$HOME\"'",
    "ssh -n host uptime",
    "ssh host bash <<'EOF'\necho \"$HOSTNAME\"\nEOF",
    "ssh host bash -s <<\"EOF\"\nfor f in *; do echo \"$f\"; done\nEOF",
    "bash -c 'echo $HOME'",
    "docker exec web sh -c 'echo $(hostname)'",
    "kubectl exec pod -- sh -c 'ls \"$1\"' _ /tmp",
    "sudo bash -c 'echo ok > /etc/motd'",
    "eval \"$(ssh-agent -s)\"",
    "bash -c \"echo \\\"\\$1\\\"\" _ x",
    "sh -c 'echo '\\''quoted'\\'''",
    "bash -c 'ssh host \"echo \\$HOME\"'",
    "watch -n 5 'ls -l /tmp'",
    "timeout 10 ssh host uptime",
    "while read -r h; do ssh -n \"$h\" uptime; done < hosts",
    "sudo -u postgres psql -Atc \"SELECT 1 WHERE x = '$v'\"",
]


@pytest.mark.parametrize("command", IDIOMS)
def test_correct_idiom_gets_no_error_or_warning(command):
    assert [f for f in lint_text(command) if f.severity in ("error", "warning")] == []


def test_layer_path_names_each_invocation_three_deep():
    text = "bash -c 'ssh web \"sudo sh -c \\\"[[ -f x ]]\\\"\"'"
    (found,) = [f for f in lint_text(text) if f.code == "QB701"]
    assert found.layers == ("bash -c", "ssh web", "sudo > sh -c")
    assert text[found.start:found.end] == "[["


def test_depth_limits_the_layers_followed():
    text = "bash -c 'bash -c \"sh -c '\\''[[ 1 ]]'\\''\"'"
    assert "QB701" in codes(text)
    assert "QB701" not in {f.code for f in lint_text(text, depth=2)}


def test_inner_spans_point_into_the_file():
    text = "x=1\nbash -c 'ssh h \"echo $y\"'\n"
    (f,) = [f for f in lint_text(text) if f.code == "QB103"]
    assert (f.line, f.column, text[f.start:f.end]) == (2, 22, "$y")


def test_select_and_ignore_take_prefixes():
    text = 'sh -c "echo $1" _ x; ssh h ls "a b"'
    assert {f.code for f in lint_text(text, settings=Settings(select=("QB3",)))} == {"QB301"}
    assert "QB102" not in {f.code for f in lint_text(text, settings=Settings(ignore=("QB1",)))}


SAFE = [
    ('sh -c "echo $1" _ x', "echo $1", ["_", "x"]),
    ('bash -c "printf \'%s\\n\' \\"$@\\"" _ a "b c"', "printf '%s\\n' \"$@\"", ["_", "a", "b c"]),
    ('ssh -p 22 qbhost ls "my file" \'$HOME\'', "ls 'my file' '$HOME'", []),
    ('eval printf "%s|" "a b" \'$x\'', None, None),
]


@pytest.mark.parametrize("command, inner, args", SAFE)
def test_safe_fix_is_proven_by_the_simulator(command, inner, args):
    findings = lint_text(command)
    safe = [f for f in findings if f.fix is not None and f.fix.applicability == "safe"]
    assert safe, findings
    for f in safe:
        # the replacement is one word: the simulator's single / nested / ssh transports wrap exactly such a
        # word, so simulating its content under them is the proof that it delivers the intended text
        word = f.fix.replacement
        transport = "single" if word.startswith("'") else "ssh" if command.startswith("ssh") else "nested"
        delivered = simulate(word[1:-1], transport)
        assert delivered.exact and not delivered.outer_effects and not delivered.inner_args
        if inner is not None:
            assert delivered.inner_script == inner
    fixed, _ = apply_fixes(command, findings)
    assert [f for f in lint_text(fixed) if f.severity in ("error", "warning")] == []


RECORDER = b"#!/bin/sh\nprintf '%s\\0' \"$@\"\n"


def recorded_argv(command, tmp_path):
    """The arguments real bash passes to the nested program (sh, bash, ssh: a recorder) when it runs ``command``."""
    from qbcore.realbash import sandbox

    programs = {f"/tmp/rec/{name}": RECORDER for name in ("sh", "bash", "ssh")}
    done = sandbox.run(["/usr/bin/bash", "-c", command], workdir=str(tmp_path),
                       env={"PATH": "/tmp/rec:/usr/bin:/bin", "LC_ALL": "C"}, programs=programs)
    assert done.exit_code == 0, done.stderr
    return done.stdout.decode().split("\0")[:-1]


@pytest.mark.bash
@pytest.mark.parametrize("command, inner, args", [c for c in SAFE if c[1] is not None])
def test_safe_fix_delivers_the_intended_script_through_real_bash(command, inner, args, sandbox_ready, tmp_path):
    fixed, applied = apply_fixes(command, lint_text(command))
    assert applied
    argv = recorded_argv(fixed, tmp_path)
    if command.startswith("ssh"):
        assert " ".join(argv[argv.index("qbhost") + 1:]) == inner  # ssh joins what follows the host
    else:
        assert argv == ["-c", inner, *args]
    # and the hazard was real: the original command delivers something else
    assert recorded_argv(command, tmp_path) != argv


def test_unsafe_fix_is_applied_only_when_asked():
    command = 'ssh host "rm -r $dir"'
    findings = lint_text(command)
    assert apply_fixes(command, findings)[0] == command
    assert apply_fixes(command, findings, unsafe=True)[0] == "ssh host 'rm -r $dir'"


def test_a_file_qbcore_cannot_parse_is_noted_not_failed():
    (found,) = lint_text("echo ok\necho (\n")
    assert (found.code, found.severity, found.line) == ("QB903", "info", 2)


def test_findings_say_what_the_inner_shell_receives():
    (found,) = lint_text('ssh h "rm -r $dir"')
    assert found.inner_script == "rm -r "  # the local $dir, unset here, is gone before ssh runs
    (found,) = [f for f in lint_text('sh -c "echo $1" _ x') if f.code == "QB102"]
    assert found.inner_script == "echo "


TOKENS = ["a", "b ", " ", "$1", "$2", "$@", "$#", "\\$", "\\\\", "\\\"", "'", ";", "|", "*", "{a,b}", "~", "\n",
          "\\`", "é", "!", "\\\n", "%s", "\\n"]


def _generated_commands(count=80):
    import random

    rng = random.Random(12)
    commands = []
    while len(commands) < count:
        body = "".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 12)))
        if "$" in body.replace("\\$", ""):
            commands.append((f'sh -c "{body}" _ x "y z"', body))
    return commands


def _double_quote_value(body):
    """What bash's double quotes make of ``body`` when every `$` is kept as written: a backslash
    before $, `, ", \\ is dropped, a backslash-newline vanishes, any other backslash stays."""
    out, i = [], 0
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body) and body[i + 1] in "$`\"\\\n":
            if body[i + 1] != "\n":
                out.append(body[i + 1])
            i += 2
        else:
            out.append(body[i])
            i += 1
    return "".join(out)


# appends each start's arguments to $REC, one record ending in \x1d
APPENDING_RECORDER = b"#!/bin/sh\n{ printf '%s\\0' \"$@\"; printf '\\035'; } >> \"$REC\"\n"


@pytest.mark.bash
def test_generated_safe_fixes_deliver_the_intended_script_through_real_bash(sandbox_ready, tmp_path):
    """Hostile double-quoted scripts with positional parameters: the safe fix makes real bash hand the
    inner shell exactly the script as written, with its arguments; one sandbox run records them all."""
    cases = []
    for command, body in _generated_commands():
        fixed, applied = apply_fixes(command, lint_text(command))
        assert applied and all(f.applicability == "safe" for f in applied), command
        cases.append((fixed, _double_quote_value(body)))
    from qbcore.realbash import sandbox

    programs = {"/tmp/rec/sh": APPENDING_RECORDER}
    script = "\n".join(fixed for fixed, _ in cases) + "\n"
    rec = str(tmp_path / ".rec")
    done = sandbox.run(["/usr/bin/bash", "-c", script], workdir=str(tmp_path),
                       env={"PATH": "/tmp/rec:/usr/bin:/bin", "LC_ALL": "C.UTF-8", "REC": rec}, programs=programs)
    assert done.exit_code == 0, done.stderr
    entries = open(rec, "rb").read().decode().split("\x1d")[:-1]
    assert len(entries) == len(cases)
    for (fixed, intended), entry in zip(cases, entries):
        assert entry.split("\0")[:-1] == ["-c", intended, "_", "x", "y z"], fixed
