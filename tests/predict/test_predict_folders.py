"""Replies that make folders (python3's os.makedirs, mkdir -p of an absolute path) and meet
missing files, predicted and executed: the model looks no higher than the first folder that
exists, as python3 and mkdir do, so the task directory's parents (outside its tree) are never
asked for; and a path outside the tree is never a python3 exception of the model's making."""

import pytest

from predicting import ListedReplies
from qbcore.predict import predict

# (task, reply, passes under raw)
REPLIES = [
    ("write-file/t0-plain", "python3 -c \"import os; os.makedirs('d', exist_ok=True); "
                            "open('out.txt','w').write('hello world\\n')\"", True),
    ("write-file/t0-plain", "python3 -c \"import os; os.makedirs('a/b/c'); os.makedirs('a/b/c', exist_ok=True); "
                            "open('out.txt','w').write('hello world\\n')\"", True),
    ("write-file/t0-plain", "python3 -c \"import os; os.makedirs(os.path.abspath('x/y')); "
                            "open('out.txt','w').write('hello world\\n')\"", True),
    ("write-file/t0-plain", "python3 -c \"open('nope/x')\" 2> out.txt || printf 'hello world\\n' > out.txt", True),
    ("write-file/t0-plain", "printf 'hello world\\n' > out.txt; python3 -c \"open('out.txt/x', 'w')\"", True),
    ("write-file/t0-plain", "mkdir -p \"$PWD/sub/deeper\" && printf 'hello world\\n' > sub/deeper/../../out.txt", True),
    ("write-file/t0-plain", "mkdir -p \"$(pwd)/a/b\" /tmp/w/x && printf 'hello world\\n' > out.txt", True),
]
TRANSPORTS = ("raw", "nested", "single", "double-nested", "script", "stdin", "ssh", "ssh-argv", "heredoc-ssh")


class TestFolderReplies(ListedReplies):
    REPLIES = REPLIES
    TRANSPORTS = TRANSPORTS


@pytest.mark.parametrize("reply", [
    "python3 -c \"import os; print(os.listdir('/'))\" > out.txt",
    "python3 -c \"import os; os.makedirs('/srv/x', exist_ok=True)\"; printf 'hello world\\n' > out.txt",
])
def test_paths_outside_the_task_directory_are_unknown(reply):
    found = predict("write-file/t0-plain", reply, "raw")
    assert not found.certain and "outside" in found.why, found
