"""validators.differences: how a final state differs from the one its task asks for, listed
for every check (not only the first that fails), the new files the task does not allow and
the changes no check judges. The executor lists them from the real state and the prediction
from the virtual one; the prediction tests require the two lists to be equal."""

from qbcore.realbash.validators import Difference, Entry, check, differences, disallowed_new, judge


def file(text: str, mode: int = 0o644) -> Entry:
    return Entry("file", mode, text.encode())


BEFORE = {"data.txt": file("alpha\nbeta\ngamma\n"), "keep.txt": file("k\n"), "sub": Entry("dir", 0o755)}


def listed(checks, after, allowed=(), before=BEFORE, **options):
    return [d.as_dict() for d in differences(checks, "", before, after, allowed, **options)]


def test_a_state_that_passes_lists_only_what_no_check_judges():
    checks = [{"kind": "file-bytes", "path": "data.txt", "text": "alpha\nBETA\ngamma\n"}]
    after = dict(BEFORE, **{"data.txt": file("alpha\nBETA\ngamma\n"), "tmp": Entry("dir", 0o755)})
    assert check(checks, "", BEFORE, after).ok and judge(checks, "", BEFORE, after)[0] == check(checks, "", BEFORE, after)
    assert listed(checks, after) == [{"path": "tmp", "expected": "missing", "found": "a folder", "checked": False}]


def test_file_bytes_are_shown_from_the_first_line_that_differs():
    checks = [{"kind": "file-bytes", "path": "data.txt", "text": "alpha\nBETA\ngamma\n"}]
    after = dict(BEFORE, **{"data.txt": file("alpha\nbeta\ngamma\n")})
    assert listed(checks, after) == [{"path": "data.txt", "expected": "line 2: 'BETA\\ngamma\\n'",
                                      "found": "line 2: 'beta\\ngamma\\n'", "checked": True}]
    assert listed(checks, dict(BEFORE, **{"data.txt": file("x\n")}))[0]["found"] == "'x\\n'"
    # a file cut short: the line where it ends
    assert listed(checks, dict(BEFORE, **{"data.txt": file("alpha\n")}))[0]["found"] == "line 2: ''"


def test_every_check_is_listed_not_only_the_first_that_fails():
    checks = [{"kind": "file-bytes", "path": "out.txt", "text": "x\n"},
              {"kind": "json-value", "path": "c.json", "value": {"a": 1}},
              {"kind": "path-list", "path": "list.txt", "text": "a\nb\n", "strip_prefix": "./"}]
    after = dict(BEFORE, **{"c.json": file('{"a": 2}'), "list.txt": file("./a\r\n./c\n"), "out.txt": Entry("dir")})
    verdict = check(checks, "", BEFORE, after)
    assert verdict.reason == "out.txt is a dir, not a regular file"  # the check stops at the first
    # judge runs each check once and gives check's verdict, the stray files and the differences
    assert judge(checks, "", BEFORE, after, ("c.json",)) == (
        verdict, disallowed_new(BEFORE, after, ("c.json",)), differences(checks, "", BEFORE, after, ("c.json",)))
    assert judge(checks, "", BEFORE, after, ("c.json",))[1] == ["list.txt"]
    assert listed(checks, after, ("c.json", "list.txt")) == [
        {"path": "out.txt", "expected": "'x\\n'", "found": "a dir", "checked": True},
        {"path": "c.json", "expected": 'the JSON value {"a": 1}', "found": 'the JSON value {"a": 2}', "checked": True},
        {"path": "list.txt", "expected": "line 2: 'b\\n'", "found": "line 2: 'c\\n'", "checked": True}]
    assert listed(checks[1:2], dict(BEFORE, **{"c.json": file("{")}))[0]["found"].startswith("not JSON (")


def test_new_files_the_task_does_not_allow_and_changes_no_check_judges():
    checks = [{"kind": "file-bytes", "path": "data.txt", "text": "alpha\nbeta\ngamma\n"}]
    after = {"data.txt": BEFORE["data.txt"], "keep.txt": file("k\n", 0o444), "sub": Entry("dir", 0o700),
             "stray.txt": file("s"), "ok.txt": file("o"), "link": Entry("symlink", target="data.txt")}
    # a symlink to a file counts as a file, as the benchmark counts new files
    assert listed(checks, after, allowed=("ok.txt",)) == [
        {"path": "link", "expected": "absent (not a new file the task allows)", "found": "a symlink to 'data.txt'",
         "checked": True},
        {"path": "stray.txt", "expected": "absent (not a new file the task allows)", "found": "a file 's'",
         "checked": True},
        {"path": "keep.txt", "expected": "mode 0644", "found": "mode 0444", "checked": False},
        {"path": "ok.txt", "expected": "missing", "found": "a file 'o'", "checked": False},
        {"path": "sub", "expected": "mode 0755", "found": "mode 0700", "checked": False}]
    gone = {"sub": BEFORE["sub"], "data.txt": BEFORE["data.txt"]}
    assert listed(checks, gone) == [{"path": "keep.txt", "expected": "a file 'k\\n'", "found": "missing",
                                     "checked": False}]


def test_a_file_set_judges_every_file():
    checks = [{"kind": "file-set", "files": {"a.txt": "A\n", "b.txt": None, "c.txt": "C\n"}}]
    before = {"a.txt": file("a\n"), "b.txt": file("b\n"), "c.txt": file("C\n"), "d.txt": file("d\n")}
    after = {"a.txt": file("a\n"), "c.txt": file("C\n"), "d.txt": file("d\n"), "sub": Entry("dir", 0o755)}
    assert listed(checks, after, before=before) == [
        {"path": "b.txt", "expected": "a file", "found": "missing", "checked": True},
        {"path": "d.txt", "expected": "absent", "found": "a file 'd\\n'", "checked": True},
        {"path": "a.txt", "expected": "'A\\n'", "found": "'a\\n'", "checked": True},
        {"path": "sub", "expected": "missing", "found": "a folder", "checked": False}]


class Repository:
    """The questions the git check asks, answered from fixed values."""

    def __init__(self, history, message, tracked):
        self._history, self._message, self._tracked = history, message, tracked

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def history(self):
        return (self._history, "") if self._history else (None, "fatal: bad revision 'HEAD'")

    def head_commit(self):
        return b"tree 0\n\n" + self._message.encode()

    def tracked(self):
        return set(self._tracked)


def test_the_git_check_names_what_the_commit_lacks():
    checks = [{"kind": "git", "message": "add feature", "tracked": ["f.txt"], "commits": 1}]
    after = dict(BEFORE, **{".git": Entry("dir", 0o755), ".git/HEAD": file("ref: refs/heads/main\n")})

    def git(history, message, tracked):
        return listed(checks, after, repository=Repository(history, message, tracked))

    assert git(["c1"], "add feature\n", ["f.txt"]) == []  # .git's own entries are the check's alone
    assert git(["c1"], "wip\n", ["f.txt"]) == [{"path": ".git", "expected": "the commit message 'add feature'",
                                               "found": "the commit message 'wip\\n'", "checked": True}]
    assert git(["c1"], "add feature\n", []) == [{"path": "f.txt", "expected": "committed", "found": "not committed",
                                                "checked": True}]
    assert git(["c2", "c1"], "add feature\n", ["f.txt"])[0]["found"] == "2 commits"
    assert git([], "", [])[0]["found"] == "no commit: fatal: bad revision 'HEAD'"


def test_a_long_list_ends_with_how_many_were_left_out():
    after = dict(BEFORE, **{f"new{n:02}": Entry("dir", 0o755) for n in range(30)})
    found = differences([], "", BEFORE, after, limit=20)
    assert len(found) == 21 and found[-1] == Difference("", "", "10 more differences", checked=False)
