"""Replies whose find -exec or xargs starts `bash -c` or `sh -c` (dash; the careful way agents
loop over names with blanks) or a bash script of the task's by its path (the probes), or that
start `sh -c` themselves: predicted and executed, decided under raw as bash runs them, and
every certain prediction agrees with the executor under the transports that rewrite them."""

import pytest

from predicting import ListedReplies, disagreement, execute
from qbcore.predict import predict

RENAME = 'mv "$1" "done_${1#./}"'
# (task, reply, passes under raw)
REPLIES = [
    ("bulk-rename/t1-spaces", f"find . -maxdepth 1 -name '*.txt' -type f -exec bash -c '{RENAME}' _ {{}} \\;", True),
    ("bulk-rename/t1-spaces", "find . -maxdepth 1 -name '*.txt' -type f -exec bash -c "
                              "'for f; do mv \"$f\" \"done_${f#./}\"; done' _ {} +", True),
    ("bulk-rename/t1-spaces", "find . -maxdepth 1 -name '*.txt' -print0 | xargs -0 -I{} bash -c "
                              "'mv \"$1\" \"done_$(basename \"$1\")\"' _ {}", True),
    ("bulk-rename/t1-spaces", "find . -maxdepth 1 -name '*.txt' -print0 | xargs -0 -n1 bash -c "
                              "'mv -- \"$0\" \"done_${0#./}\"'", True),
    ("bulk-rename/t1-spaces", "find . -maxdepth 1 -name '*.txt' -exec bash -c 'cp \"$1\" \"done_${1#./}\"' _ {} \\;",
     False),
    ("bulk-rename/t2-dash-apostrophe", f"find . -maxdepth 1 -name '*.txt' -exec bash -c '{RENAME}' _ {{}} \\;", True),
    ("bulk-rename/t2-dash-apostrophe", "find . -maxdepth 1 -name '*.txt' -exec bash -c 'mv \"$1\" done_\"$(basename $1)\"' "
                                       "_ {} \\;", True),
    ("sed-replace/t0-plain", "find . -name data.txt -exec bash -c 'sed -i \"s/alpha/omega/g\" \"$1\"' _ {} \\;", True),
    # sort -z takes find's NUL-ended records in any order
    ("bulk-rename/t1-spaces", "find . -maxdepth 1 -name '*.txt' -print0 | sort -z | xargs -0 -I{} sh -c "
                              "'mv \"$1\" \"done_${1#./}\"' _ {}", True),
    # -printf's NUL-ended records, as -print0's
    ("bulk-rename/t1-spaces", "find . -maxdepth 1 -type f -name '*.txt' -printf '%f\\0' | xargs -0 -I{} mv {} done_{}", True),
    # sh -c: dash
    ("bulk-rename/t1-spaces", f"find . -maxdepth 1 -name '*.txt' -type f -exec sh -c '{RENAME}' _ {{}} \\;", True),
    ("bulk-rename/t1-spaces", "find . -maxdepth 1 -name '*.txt' -exec sh -c 'for f do mv \"$f\" \"done_${f#./}\"; done' "
                              "sh {} +", True),
    ("bulk-rename/t1-spaces", "find . -maxdepth 1 -name '*.txt' -print0 | xargs -0 -I{} sh -c "
                              "'mv \"$1\" \"done_$(basename \"$1\")\"' _ {}", True),
    ("bulk-rename/t1-spaces", "find . -maxdepth 1 -name '*.txt' -exec sh -c 'cp \"$1\" \"done_${1#./}\"' _ {} \\;",
     False),
    ("bulk-rename/t2-dash-apostrophe", f"find . -maxdepth 1 -name '*.txt' -exec sh -c '{RENAME}' _ {{}} \\;", True),
    ("sed-replace/t0-plain", "find . -name data.txt -exec sh -c 'sed -i \"s/alpha/omega/g\" \"$1\"' sh {} \\;", True),
    ("sed-replace/t0-plain", "find . -name '*.txt' -print0 | xargs -0 bash -c 'sed -i -e s/alpha/omega/g -- \"$@\"' _",
     True),
    # sh -c run by the reply's own shell: dash too
    ("write-file/t0-plain", "sh -c 'echo \"hello world\" > out.txt'", True),
    ("write-file/t0-plain", "sh -c 'printf \"%s\\n\" \"$1 $2\" > out.txt' _ hello world", True),
    ("write-file/t0-plain", "sh -c 'echo -n hello world > out.txt'", False),
    ("bulk-rename/t1-spaces", "sh -c 'for f in *.txt; do mv \"$f\" \"done_$f\"; done'", True),
    ("sed-replace/t1-apostrophe", "sh -c \"sed -i \\\"s/user's data/admin's data/g\\\" data.txt\"", True),
    # a here-document in dash's script: read and expanded as bash does
    ("write-file/t0-plain", "sh -c 'cat > out.txt <<EOF\nhello world\nEOF'", True),
    ("write-file/t0-plain", "sh -c 'x=world; cat > out.txt <<-\"EOF\"\n\thello $x\n\tEOF'", False),
    ("heredoc-write/t1-expansion", "sh -c 'cat > doc.txt <<\\EOF\nbalance: $HOME and `whoami`\nsecond line here\nEOF'",
     True),
    # a bash that reads its script from a pipe
    ("write-file/t0-plain", "echo 'echo hello world > out.txt' | bash", True),
    ("write-file/t0-plain", "printf '%s\\n' 'echo \"$1 world\" > out.txt' | bash -s hello", True),
    ("write-file/t0-plain", "echo 'echo hello world > out.txt' | sh", True),
    ("bulk-rename/t1-spaces", "printf '%s\\n' 'for f in *.txt; do mv \"$f\" \"done_$f\"; done' | sh", True),
    ("write-file/t0-plain", "sh -s hello <<'EOF'\necho \"$1\" world > out.txt\nEOF", True),
    # a script of the tree by its path: the kernel starts bash on it, $0 the path
    ("argv-passing/t0-plain", "echo alpha beta gamma | xargs ./record", True),
    ("argv-passing/t1-spaces", "printf '%s\\0' 'two words' \"it's\" fine | xargs -0 ./record", True),
    ("argv-passing/t0-plain", "xargs -n1 ./record <<< 'alpha beta gamma'", False),
    ("argv-passing/t0-plain", "find . -maxdepth 1 -name 'rec*' -exec {} alpha beta gamma \\;", True),
    ("argv-passing/t0-plain", "find . -maxdepth 1 -name record -exec {} alpha beta gamma +", False),
    ("env-passing/t0-plain", "echo | MSG=plainvalue xargs ./check_env", True),
    ("argv-passing/t0-plain", "printf '#!/bin/bash\\necho \"$0\" \"$@\" > got.txt\\nexit 3\\n' > s.sh; chmod +x s.sh; "
                              "echo a b | xargs ./s.sh; echo $? > st.txt", False),
    # bash FILE ARGS: a file of the tree, whatever its mode and first line; $0 is FILE as given
    ("write-file/t0-plain", "printf 'echo \"$1 $2\" > out.txt\\n' > s.sh; bash s.sh hello world; rm s.sh", True),
    ("write-file/t0-plain", "printf '[ \"$0\" = ./s.sh ] && echo \"hello world\" > out.txt\\n' > s.sh; bash ./s.sh; rm s.sh",
     True),
    ("write-file/t0-plain", "cat > s.sh <<'EOF'\necho 'hello world' > out.txt\nexit 4\nEOF\nbash s.sh || rm s.sh", True),
    ("write-file/t0-plain", "printf 'nosuchcmd\\n' > s.sh; bash s.sh 2>&1 | grep -q '^s.sh: line 1: nosuchcmd: command not found$' "
                            "&& echo 'hello world' > out.txt; rm s.sh", True),
    ("write-file/t0-plain", "printf 'if\\n' > s.sh; bash s.sh; echo 'hello world' > out.txt; rm s.sh", True),
    ("write-file/t0-plain", "printf 'echo hello world > out.txt\\nrm s.sh\\n' > s.sh; bash s.sh", True),
    ("argv-passing/t0-plain", "bash record alpha beta gamma", True),
    # $_ as a shell starts: bash's own name where the harness started it (raw), the path the
    # outer shell found bash at where an outer shell did (single: /usr/bin/bash)
    ("write-file/t0-plain", "[ \"$_\" = bash ] && echo hello world > out.txt", True),
    ("write-file/t0-plain", "echo hello world > out$_", False),
    ("hostile-filenames/t1-space", "mv -- \"data 1.txt\" data$_.txt", False),
    # a reply sent with its markdown fence: ```bash opens a substitution that runs bash, then the lines
    ("write-file/t0-plain", "```bash\nprintf 'hello world\\n' > out.txt\n```", True),
    ("write-file/t0-plain", "```bash\necho 'hello world' > out.txt\ncat out.txt\n```", True),  # (then runs `hello`)
]
TRANSPORTS = ("raw", "nested", "single", "double-nested", "ssh")


class TestChildShellReplies(ListedReplies):
    REPLIES = REPLIES
    TRANSPORTS = TRANSPORTS


# sh -c where bash reads its script from stdin: dash shares that stdin, and a command of its script
# that reads it takes the rest of the script, which bash then never runs
# (task, reply, transport, passes)
SHARED_STDIN = [
    ("write-file/t0-plain", "sh -c 'printf \"%s\\n\" \"hello world\" > out.txt'", "stdin", True),
    ("write-file/t0-plain", "sh -c 'printf \"%s\\n\" \"hello world\" > out.txt'", "heredoc-ssh", True),
    ("write-file/t0-plain", "sh -c 'cat > out.txt'\nhello world", "stdin", True),
    ("write-file/t0-plain", "sh -c 'cat > out.txt'\nhello world", "raw", False),
    ("write-file/t0-plain", "sh -c 'cat > out.txt'\nprintf '%s\\n' 'hello world' > out.txt", "stdin", False),
    ("write-file/t0-plain", "sh -c 'cat > out.txt <<EOF\nhello world\nEOF'\necho gone > out.txt", "stdin", False),
    ("write-file/t0-plain", "printf 'hello world\\n' > in; { sh -c 'true'; cat > out.txt; } < in; rm in", "raw", True),
]


@pytest.mark.parametrize("task, reply, transport, passes", SHARED_STDIN)
def test_sh_shares_the_stdin_bash_reads_its_script_from(task, reply, transport, passes):
    found = predict(task, reply, transport)
    assert found.certain and found.passed is passes, found
    (attempt,) = execute([(task, reply, transport)])
    assert disagreement(found, attempt, reply) is None


@pytest.mark.parametrize("reply", [
    "sh -c 'head -c 3 > /dev/null'\nprintf '%s\\n' 'hello world' > out.txt",  # how much of the script it takes
    "sh -c 'cat > out.txt <<EOF\nhello world'",  # a here-document the script's end ends: dash adds no newline
    "sh -c 'cat > out.txt <<EOF\n$(false)$?\nEOF'",  # dash sets $? from the substitution after the command
])
def test_sh_over_what_is_not_followed_is_unknown(reply):
    assert not predict("write-file/t0-plain", reply, "stdin").certain


@pytest.mark.parametrize("reply", [
    "echo alpha | xargs ./nothere",  # no such file: xargs's message, not followed
    "printf 'echo hi\\n' > s.sh; chmod +x s.sh; echo a | xargs ./s.sh",  # no #!/bin/bash: the kernel refuses it
    "echo alpha | xargs record",  # no slash: PATH, which does not hold it
])
def test_children_that_are_not_bash_scripts_of_the_tree_are_unknown(reply):
    found = predict("argv-passing/t0-plain", reply, "raw")
    assert not found.certain and "xargs" in found.why, found


@pytest.mark.parametrize("reply", [
    # bash reads its script file as it goes: a line the run adds to it runs too
    "printf 'echo hello world > out.txt\\necho \"echo gone > out.txt\" >> s.sh\\n' > s.sh; bash s.sh; rm s.sh",
    "printf '#!/bin/bash\\necho hello world > out.txt\\necho \"echo gone > out.txt\" >> \"$0\"\\n' > s.sh; "
    "chmod +x s.sh; ./s.sh; rm s.sh",
    "printf '#!/bin/bash\\necho \"$1 world\" > out.txt\\necho \"echo gone > out.txt\" >> \"$0\"\\n' > s.sh; "
    "chmod +x s.sh; echo hello | xargs ./s.sh; rm s.sh",
])
def test_a_script_file_the_run_changes_is_unknown(reply):
    found = predict("write-file/t0-plain", reply, "raw")
    assert not found.certain and "changed while it ran" in found.why, found


def test_a_script_file_bash_reads_as_it_goes(tmp_path):
    # the measurement behind it: the line the script appends to itself runs
    import subprocess
    (tmp_path / "s.sh").write_text('echo one\necho "echo two" >> s.sh\n')
    assert subprocess.run(["bash", "s.sh"], cwd=tmp_path, capture_output=True).stdout == b"one\ntwo\n"


@pytest.mark.parametrize("reply", ["bash nothere.sh", "bash -x record a b c", "bash -- record a b c",
                                   # bash's words for a syntax error, where they are read: not spelled
                                   "printf 'if\\n' > s.sh; bash s.sh 2>&1 | grep -q 'line 2: syntax' && ./record a b c",
                                   "bash -c 'echo )' 2> err.txt; grep -q 'line 1' err.txt && ./record a b c"])
def test_bash_of_a_file_not_followed_is_unknown(reply):
    assert not predict("argv-passing/t0-plain", reply, "raw").certain
