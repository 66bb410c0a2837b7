"""Replies that start the env-passing probe through GNU env or timeout, that read one variable
of their environment with printenv or python3 (on the remote side too), and that ask which for
a program, or that export with set -a, predicted and executed: decided under raw as they run, and every certain prediction
agrees with the executor under the transports that rewrite them."""

from predicting import ListedReplies

# (task, reply, passes under raw); check_env records what it got for MSG in got.txt
REPLIES = [
    ("env-passing/t0-plain", "env MSG=plainvalue ./check_env", True),
    ("env-passing/t0-plain", "env -- MSG='plainvalue' ./check_env", True),
    ("env-passing/t0-plain", "export MSG=other; env MSG=plainvalue ./check_env", True),
    ("env-passing/t0-plain", "MSG=plainvalue env -u MSG ./check_env", False),
    ("env-passing/t0-plain", "env MSG=plainvalue check_env", False),  # not on PATH: env's 127
    ("env-passing/t0-plain", "env MSG=plainvalue bash -c ./check_env", True),
    ("env-passing/t1-spaces", "env MSG='two words & it'\\''s fine' ./check_env", True),
    ("env-passing/t1-spaces", "env MSG=\"two words & it's fine\" ./check_env", True),
    ("env-passing/t2-dollar", "env MSG='$HOME is not expanded here' ./check_env", True),
    ("env-passing/t2-dollar", "env MSG=\"$HOME is not expanded here\" ./check_env", False),
    ("env-passing/t3-multiline", "env MSG=\"$(printf 'first line\\nsecond %sline%s \"here\"' \"'\" \"'\")\" ./check_env",
     True),
    ("env-passing/t3-multiline", "env -u MSG MSG=$'first line\\nsecond \\'line\\' \"here\"' ./check_env", True),
    ("env-passing/t0-plain", "timeout 10 env MSG=plainvalue ./check_env", True),
    # set -a (allexport): the assignments made while it is on export
    ("env-passing/t2-dollar", "set -a\nMSG='$HOME is not expanded here'\nset +a\n./check_env", True),
    ("env-passing/t3-multiline", "set -a; MSG=$'first line\\nsecond \\'line\\' \"here\"'; set +a; ./check_env", True),
    ("env-passing/t1-spaces", "printf '%s\\n' \"MSG='two words & it'\\''s fine'\" > .env\nset -a; . ./.env; set +a\n"
                              "./check_env; rm .env", True),
    ("env-passing/t0-plain", "MSG=plainvalue; set -a; ./check_env", False),  # MSG was set before set -a
    ("env-passing/t0-plain", "MSG=plainvalue timeout 1m ./check_env", True),
    # python3 reads only the values it asks for (not SHLVL, which bash lowers before a last exec)
    ("ssh-nested/t0-plain", "./remote 'python3 -c \"import os; print(\\\"hello remote|\\\" + "
                            "os.environ[\\\"REMOTE_TOKEN\\\"])\" > greeting.txt'", True),
    ("ssh-heredoc/t0-plain", "./remote 'python3 -' <<'EOF'\nimport os\nwith open('notes.txt', 'w') as f:\n"
                             "    f.write('hello world\\nsecond line\\n' + os.environ.get('REMOTE_TOKEN', '') + '\\n')\nEOF",
     True),
    # printenv NAME: the value bash passed on
    ("ssh-nested/t0-plain", "./remote 'printf \"hello remote|%s\\n\" \"$(printenv REMOTE_TOKEN)\" > greeting.txt'", True),
    ("env-passing/t0-plain", "export MSG=plainvalue; printenv MSG > /dev/null && ./check_env", True),
    ("env-passing/t0-plain", "MSG=plainvalue; printenv MSG > /dev/null && ./check_env", False),
    # which: where PATH leads
    ("write-file/t0-plain", "which sed > /dev/null && printf 'hello world\\n' > out.txt", True),
    ("write-file/t0-plain", "which nosuch || printf 'hello world\\n' > out.txt", True),
    ("write-file/t0-plain", "which -a printf bash > out.txt", False),
    # a utility gets its own path as $_, not the shell's last argument, known or not
    ("write-file/t0-plain", "echo $RANDOM > /dev/null; chmod 755 .; printf 'hello world\\n' > out.txt", True),
    ("write-file/t0-plain", "echo \"$SECONDS\" > /dev/null; wc -c < /dev/null && printf 'hello world\\n' > out.txt", True),
]
TRANSPORTS = ("raw", "nested", "single", "double-nested", "ssh")


class TestEnvReplies(ListedReplies):
    REPLIES = REPLIES
    TRANSPORTS = TRANSPORTS


def test_a_utility_that_reads_its_own_path_from_the_environment_is_unknown():
    from qbcore.predict import predict

    # bash puts the utility's path there (/usr/bin/python3, /usr/bin/awk), not the shell's $_
    for reply in ("echo hi; python3 -c 'import os; print(os.environ[\"_\"])' > out.txt",
                  "echo $RANDOM; awk 'BEGIN { print ENVIRON[\"_\"] }' > out.txt"):
        found = predict("write-file/t0-plain", reply, "raw")
        assert not found.certain and "a value the model does not know" in found.why, found
