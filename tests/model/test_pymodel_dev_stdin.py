"""python3 reading its stdin through open("/dev/stdin"), against python3 3.11 under bash 5.2:
a pipe's bytes (a pipeline, a here-document or here-string bash puts in a pipe) from where
stdin stands, a file redirected with `<` opened anew from its start; where reads through
sys.stdin share the pipe, or stdin's kind is not known, unknown."""

import pytest

from utilities_diff import compare_script, script_model, unknown_why

pytestmark = pytest.mark.bash

FIXTURE = {"data.txt": b"alpha\nbeta\n"}
READ = "import sys; sys.stdout.write(open('/dev/stdin').read())"

DECIDED = [
    f"python3 -c \"{READ}\" > out <<'EOF'\nback\\slash and `date` here\n$(pwd) 100%\nEOF",
    f"printf 'a\\nb\\n' | python3 -c \"{READ}\" > out",
    f"python3 -c \"{READ}\" < data.txt > out",
    f"python3 -c \"{READ}\" <<< 'one line' > out",
    f"python3 -c \"{READ}\" < /dev/null > out; echo $? >> out",
    "python3 -c \"print(open('/dev/stdin', 'rb').read())\" <<< 'x' > out",
    "python3 -c \"import sys; print(sys.stdin.read()); print(repr(open('/dev/stdin').read()))\" < data.txt > out",
    "python3 -c \"print(open('/dev/stdin').readlines())\" < data.txt > out",
    "{ read -r first; python3 -c \"print(repr(open('/dev/stdin').read()))\"; } <<EOF > out\none\ntwo\nEOF",
    "python3 -c \"print(repr(open('/dev/fd/0').read()))\" <<< 'fd' > out",
    "python3 - <<'EOF' > out\nprint(repr(open('/dev/stdin').read()))\nEOF",
    f"python3 -c \"{READ}\" > out",  # (bash -c's own stdin, /dev/null as the executor gives it)
    # the program itself through /dev/stdin: the pipe's bytes, named as a file
    "python3 /dev/stdin a b <<'EOF' > out\nimport sys, json\nprint(sys.argv, __file__)\n"
    "print(repr(sys.stdin.read()))\nEOF",
    "python3 /dev/stdin <<'EOF' > out\nprint('x'\nEOF\necho $? >> out",
    "python3 /dev/fd/0 <<'EOF' > out 2>&1\nimport os\nprint(os.getcwd() == os.path.abspath('.'))\nEOF",
]
UNKNOWN = [
    # sys.stdin buffers what it reads of the pipe, and so does the file /dev/stdin opens
    "printf 'a\\nb\\n' | python3 -c \"import sys; sys.stdin.readline(); print(open('/dev/stdin').read())\" > out",
    "printf 'a\\nb\\n' | python3 -c \"import sys; f = open('/dev/stdin'); f.readline(); "
    "print(sys.stdin.read())\" > out",
    # stdin after a read from a file: opened anew, from its start
    "{ read -r first; python3 -c \"print(open('/dev/stdin').read())\"; } < data.txt > out",
    "python3 -c \"open('/dev/stdin', 'w')\" < data.txt > out",
    "python3 /dev/stdin < data.txt > out",
    # its traceback reads the program's lines again from the pipe
    "python3 /dev/stdin <<'EOF' 2> out\nx = 1\ny = x / 0\nEOF",
    "python3 /dev/stdin <<'EOF' 2> out\nprint('x'\nEOF",
]


@pytest.mark.parametrize("script", DECIDED)
def test_dev_stdin_as_python_reads_it(script, tmp_path):
    compare_script(script, FIXTURE, where=tmp_path, certain=True)


@pytest.mark.parametrize("script", UNKNOWN)
def test_dev_stdin_not_followed_is_unknown(script):
    assert unknown_why(*script_model(script, FIXTURE)) is not None
