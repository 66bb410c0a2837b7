"""Build the 56 task files (14 families x 4 tiers) of the QuoteBench core suite from their payloads.

Task ids, tiers, hazard tags, payload bytes, fixtures, validators and the
naive commands are those of the public QuoteBench artifact, so a stored
QuoteBench reply gets the verdict the artifact gives it; the instructions
are qbcore's own words around the same ⟪payloads⟫. Oracles are assembled
from the payloads through ``qbcore.harness.quoting``, never escaped by hand.
``python -m qbcore.suite.build`` rewrites the JSON files next to this
module; a test checks they are current.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from qbcore.harness.quoting import json_string, sed_pattern, sed_replacement, single_quote as sq

HERE = Path(__file__).resolve().parent
FAMILIES = ("write-file", "sed-replace", "grep-count", "field-lookup", "hostile-filenames", "find-glob",
            "ssh-nested", "json-write", "git-commit", "env-passing", "argv-passing", "bulk-rename",
            "heredoc-write", "ssh-heredoc")
# the identity the benchmark's repository is configured with before the reply runs
GIT_IDENTITY = {"name": "QuoteBench", "email": "qb@example.com"}
REMOTE_NOTE = ("The program ./remote stands in for ssh: it joins all its arguments with single spaces and has "
               "a \"remote\" shell run the joined text. That shell starts in the directory remote_root/ and "
               "sees an environment variable REMOTE_TOKEN which your own shell does not have.")


def token(task_id: str) -> str:
    """The remote-only value a task's validator expects (fixed by the task id)."""
    return "qbtok" + hashlib.md5(task_id.encode()).hexdigest()[:8]


def q(text: str) -> str:
    """A literal payload as the instruction shows it."""
    return f"⟪{text}⟫"


def tempting_quote(text: str) -> str:
    """The quoting a hurried writer reaches for: single quotes when the text only has apostrophes
    to worry about (and they then collide), double quotes otherwise (and ``$``/backticks expand)."""
    if "'" in text and not any(c in text for c in '"$`'):
        return f"'{text}'"
    return f'"{text}"'


def text_file(path: str, text: str, mode: str = "0644") -> dict:
    return {"path": path, "text": text, "mode": mode}


def make(family: str, tier: int, name: str, *, hazards, instruction, payloads, fixture, checks,
         allowed_new, oracle, naive) -> dict:
    fixture = {"dirs": [], "files": [], "programs": [], "git": None, **fixture}
    return {"id": f"{family}/{name}", "family": family, "tier": tier, "hazards": list(hazards),
            "instruction": instruction, "payloads": payloads, "fixture": fixture, "checks": checks,
            "allowed_new": sorted(allowed_new), "oracle": oracle, "naive": naive}


def file_bytes(path: str, text: str) -> dict:
    return {"kind": "file-bytes", "path": path, "text": text}


# --- write-file ---------------------------------------------------------------

def write_file():
    cases = [
        ("t0-plain", 0, "hello world", ["control"]),
        ("t1-apostrophe", 1, "it's a test", ["apostrophe"]),
        ("t2-mixed", 2, 'she said "it\'s done, $HOME stays"',
         ["apostrophe", "double-quote", "dollar", "SC2016:wrong-quote-type"]),
        ("t3-gnarly", 3, "back\\slash and `date` here\n'single' \"double\" $(pwd) 100%",
         ["backslash", "backtick", "command-substitution", "multiline", "mixed-quotes"]),
    ]
    for name, tier, text, hazards in cases:
        yield make(
            "write-file", tier, name, hazards=hazards,
            instruction=(f"Write a file out.txt holding the text {q(text)} and then one newline, and nothing "
                         "more."),
            payloads={"content": text},
            fixture={}, checks=[file_bytes("out.txt", text + "\n")], allowed_new=["out.txt"],
            oracle=f"printf {sq('%s' + chr(92) + 'n')} {sq(text)} > out.txt",
            naive=f"echo {tempting_quote(text)} > out.txt")


# --- sed-replace --------------------------------------------------------------

def sed_replace():
    cases = [
        ("t0-plain", 0, "alpha", "omega", None, ["control"]),
        ("t1-apostrophe", 1, "user's data", "admin's data", None, ["apostrophe"]),
        ("t2-slashes", 2, "src/main.c", "build/out\\main.o", "value: src/mainXc (decoy)",
         ["sed-delimiter", "slash", "backslash", "regex-vs-literal"]),
        ("t3-gnarly", 3, 'price = "$4" & up', "price = '$5' & down", 'value: price X "$4" & up (decoy)',
         ["apostrophe", "double-quote", "dollar", "sed-ampersand"]),
    ]
    for name, tier, old, new, decoy, hazards in cases:
        lines = ["header line", f"value: {old} (primary)", "untouched middle", f"value: {old} (secondary)",
                 "footer line"]
        if decoy:
            lines.insert(3, decoy)
        before = "".join(line + "\n" for line in lines)
        script = f"s/{sed_pattern(old)}/{sed_replacement(new)}/g"
        yield make(
            "sed-replace", tier, name, hazards=hazards,
            instruction=(f"Edit data.txt so that each occurrence of the literal text {q(old)} becomes the "
                         f"literal text {q(new)}; every other byte of the file stays as it is."),
            payloads={"old": old, "new": new},
            fixture={"files": [text_file("data.txt", before)]},
            checks=[file_bytes("data.txt", before.replace(old, new))], allowed_new=[],
            oracle=f"sed -i -e {sq(script)} data.txt",
            naive=f"sed {tempting_quote(f's/{old}/{new}/g')} data.txt > .qb.tmp && mv .qb.tmp data.txt")


# --- grep-count ---------------------------------------------------------------

def grep_count():
    cases = [
        ("t0-plain", 0, "TODO", ["x TODO one", "clean line", "y TODO two", "z TODO three", "done"], ["control"]),
        ("t1-apostrophe", 1, "don't panic", ["a don't panic b", "dont panic (decoy)", "c don't panic d", "calm"],
         ["apostrophe"]),
        ("t2-regex-trap", 2, "a.b*c",
         ["lit a.b*c one", "axbc regex decoy", "lit a.b*c two", "lit a.b*c three", "lit a.b*c four"],
         ["regex-vs-literal", "glob-chars"]),
        ("t3-bracket-dollar", 3, "[status] $ok", ["x [status] $ok here", "s $ok decoy", "t $ok decoy", "unrelated"],
         ["regex-vs-literal", "dollar", "bracket-expression"]),
    ]
    for name, tier, needle, lines, hazards in cases:
        count = sum(needle in line for line in lines)
        yield make(
            "grep-count", tier, name, hazards=hazards,
            instruction=(f"Into count.txt, write the number of lines in lines.txt that contain {q(needle)} "
                         "as a fixed substring (the text itself, not a regular expression or a pattern), as a "
                         "decimal number followed by a newline."),
            payloads={"needle": needle},
            fixture={"files": [text_file("lines.txt", "".join(line + "\n" for line in lines))]},
            checks=[file_bytes("count.txt", f"{count}\n")], allowed_new=["count.txt"],
            oracle=f"grep -c -F -e {sq(needle)} lines.txt > count.txt",
            naive=f"grep -c {tempting_quote(needle)} lines.txt > count.txt")


# --- field-lookup -------------------------------------------------------------

AWK_LOOKUP = 'BEGIN { key = ARGV[1]; ARGV[1] = "" } $1 == key { print $2 }'


def field_lookup():
    cases = [
        ("t0-plain", 0, "alpha", [("beta", "7"), ("gamma", "9")], ["control"]),
        ("t1-apostrophe", 1, "o'brien", [("obrien", "13"), ("beta", "7")], ["apostrophe"]),
        ("t2-dollar", 2, "$5 fee", [(" fee", "13"), ("5 fee", "21")], ["dollar", "positional-expansion"]),
        ("t3-backslash", 3, 'back\\slash "q"', [('backslash "q"', "13"), ("beta", "7")],
         ["backslash", "double-quote", "awk-escape-processing"]),
    ]
    for name, tier, key, decoys, hazards in cases:
        task_id = f"field-lookup/{name}"
        # the wanted value is unique to the task and its row moves with the
        # tier, so neither a constant nor a row number can stand in for a lookup
        value = "v" + hashlib.md5(task_id.encode()).hexdigest()[:6]
        rows = list(decoys)
        rows.insert(tier % 3, (key, value))
        if "$" in key:
            naive = f'awk -F "\\t" "\\$1 == \\"{key}\\" {{ print \\$2 }}" data.tsv > out.txt'
        else:
            naive = f"awk -F '\\t' '$1 == \"{key}\" {{ print $2 }}' data.tsv > out.txt"
        yield make(
            "field-lookup", tier, name, hazards=hazards,
            instruction=(f"data.tsv has two tab-separated columns. For each row whose first column equals "
                         f"{q(key)} exactly, write that row's second column to out.txt, one value a line."),
            payloads={"key": key},
            fixture={"files": [text_file("data.tsv", "".join(f"{k}\t{v}\n" for k, v in rows))]},
            checks=[file_bytes("out.txt", value + "\n")], allowed_new=["out.txt"],
            oracle=f"awk -F {sq(chr(9))} {sq(AWK_LOOKUP)} {sq(key)} data.tsv > out.txt",
            naive=naive)


# --- hostile-filenames --------------------------------------------------------

def hostile_filenames():
    dash_name = "-alpha's file.txt"
    cases = [
        ("t0-plain", 0, {"notes.txt": "notes body\n", "readme.md": "readme body\n"},
         ("rename", "notes.txt", "archive.txt"), "mv notes.txt archive.txt", ["control"]),
        ("t1-space", 1, {"data 1.txt": "one\n", "data 2.txt": "two\n", "readme.md": "readme\n"},
         ("rename", "data 1.txt", "data_1.txt"), "mv data 1.txt data_1.txt", ["space", "SC2086:word-splitting"]),
        ("t2-glob-name", 2, {"*.txt": "the glob file\n", "a.txt": "keep a\n", "b.txt": "keep b\n"},
         ("delete", "*.txt", None), "rm *.txt", ["glob-name", "collateral-damage"]),
        ("t3-dash-apostrophe", 3, {dash_name: "dash body\n", "alpha.txt": "keep\n"},
         ("rename", dash_name, "fixed.txt"), "mv -alpha's file.txt fixed.txt",
         ["leading-dash", "apostrophe", "option-injection"]),
    ]
    for name, tier, files, (action, target, new_name), naive, hazards in cases:
        after = dict(files)
        body = after.pop(target)
        if action == "rename":
            after[new_name] = body
            instruction = (f"Give the file {q(target)} the new name {q(new_name)}. Leave every other file "
                           "exactly as it is.")
            oracle = f"mv -- {sq(target)} {sq(new_name)}"
            payloads = {"name": target, "new_name": new_name}
        else:
            instruction = (f"Remove the one file whose name is literally {q(target)} (an asterisk, then "
                           ".txt) and no other: all remaining files stay untouched.")
            oracle = f"rm -f -- {sq(target)}"
            payloads = {"name": target}
        yield make(
            "hostile-filenames", tier, name, hazards=hazards, instruction=instruction, payloads=payloads,
            fixture={"files": [text_file(path, text) for path, text in files.items()]},
            checks=[{"kind": "file-set", "files": after}], allowed_new=set(after) - set(files),
            oracle=oracle, naive=naive)


# --- find-glob ----------------------------------------------------------------

def find_glob():
    cases = [
        ("t0-plain", 0, ["tree/alpha.log", "tree/sub/beta.log"], ["tree/notes.md"], [], ["control"]),
        ("t1-cwd-trap", 1, ["tree/alpha.log", "tree/sub/beta.log", "tree/gamma.log"], ["tree/notes.md"],
         ["local.log"], ["glob-expansion", "SC2061:unquoted-name-pattern"]),
        ("t2-spaces", 2, ["tree/app server.log", "tree/deep dir/query.log", "tree/runner.log"], ["tree/notes.md"],
         ["local.log"], ["glob-expansion", "space"]),
        ("t3-multi-trap", 3, ["tree/app server.log", "tree/deep dir/it's.log", "tree/$cache.log",
                              "tree/runner.log"], ["tree/notes.md"], ["local.log", "extra.log"],
         ["glob-expansion", "apostrophe", "dollar", "space"]),
    ]
    for name, tier, logs, others, traps, hazards in cases:
        files = [text_file(path, f"log data for {path}\n") for path in logs + others + traps]
        listing = "".join(path + "\n" for path in sorted(logs))
        yield make(
            "find-glob", tier, name, hazards=hazards,
            instruction=("List in list.txt every regular file below tree/ whose name ends in .log: one path "
                         "per line, each starting with tree/, in byte order (the C locale's sort)."),
            payloads={},
            fixture={"files": files},
            # a path spelled ./tree/... is the same path: the check drops a leading ./
            checks=[{"kind": "path-list", "path": "list.txt", "text": listing, "strip_prefix": "./"}],
            allowed_new=["list.txt"],
            oracle=f"find tree -type f -name {sq('*.log')} | LC_ALL=C sort > list.txt",
            naive="find tree -type f -name *.log | sort > list.txt")


# --- the ssh-like wrapper -----------------------------------------------------

def remote_fixture(task_id: str) -> dict:
    return {"dirs": ["remote_root"],
            "programs": [{"path": "remote", "kind": "remote-shell", "remote_root": "remote_root",
                          "variables": {"REMOTE_TOKEN": token(task_id)}}]}


def ssh_nested():
    cases = [
        ("t0-plain", 0, "hello remote", ["control", "multi-layer"]),
        ("t1-apostrophe", 1, "it's alive out here", ["apostrophe", "multi-layer", "SC2029:client-side-expansion"]),
        ("t2-double-quotes", 2, 'she said "don\'t stop"',
         ["apostrophe", "double-quote", "multi-layer", "SC2029:client-side-expansion"]),
        ("t3-gnarly", 3, "mix: '$(pwd)' & \\slash \"end\"",
         ["command-substitution", "backslash", "mixed-quotes", "multi-layer", "SC2029:client-side-expansion"]),
    ]
    for name, tier, text, hazards in cases:
        task_id = f"ssh-nested/{name}"
        inner = f"printf {sq('%s%s' + chr(92) + 'n')} {sq(text + '|')} \"$REMOTE_TOKEN\" > greeting.txt"
        yield make(
            "ssh-nested", tier, name, hazards=hazards,
            instruction=(REMOTE_NOTE
                         + "\nThrough ./remote, make the remote side write greeting.txt (so it lands at "
                         f"remote_root/greeting.txt) holding the text {q(text)}, one | character, the "
                         "value of REMOTE_TOKEN and a newline. Only the remote side knows REMOTE_TOKEN, so "
                         "it must be read there."),
            payloads={"content": text},
            fixture=remote_fixture(task_id),
            checks=[file_bytes("remote_root/greeting.txt", f"{text}|{token(task_id)}\n")],
            allowed_new=["remote_root/greeting.txt"],
            oracle=f"./remote {sq(inner)}",
            naive=f"./remote 'printf \"%s%s\\n\" \"{text}|\" \"$REMOTE_TOKEN\" > greeting.txt'")


def ssh_heredoc():
    cases = [
        ("t0-plain", 0, "hello world\nsecond line", ["control", "multiline", "multi-layer"]),
        ("t1-apostrophe-code", 1, "print('it works')\nvalue = 'test'",
         ["apostrophe", "multiline", "multi-layer", "SC2029:client-side-expansion"]),
        ("t2-mixed-quotes", 2, "msg = \"it's done\"\nprint(msg)",
         ["apostrophe", "double-quote", "multiline", "multi-layer"]),
        ("t3-template-literal", 3, "const s = `${func()} costs $5`;\nrun(s)",
         ["backtick", "dollar-brace", "dollar", "multiline", "multi-layer", "SC2087:unquoted-heredoc-delimiter"]),
    ]
    for name, tier, text, hazards in cases:
        task_id = f"ssh-heredoc/{name}"
        inner = f"printf {sq('%s' + chr(92) + 'n')} {sq(text)} \"$REMOTE_TOKEN\" > notes.txt"
        yield make(
            "ssh-heredoc", tier, name, hazards=hazards,
            instruction=(REMOTE_NOTE
                         + "\nThrough ./remote, make the remote side write notes.txt (it lands at "
                         f"remote_root/notes.txt): first the lines {q(text)}, then one last line holding the "
                         "value of REMOTE_TOKEN, then a newline. REMOTE_TOKEN has to be read on the remote "
                         "side."),
            payloads={"content": text},
            fixture=remote_fixture(task_id),
            checks=[file_bytes("remote_root/notes.txt", f"{text}\n{token(task_id)}\n")],
            allowed_new=["remote_root/notes.txt"],
            oracle=f"./remote {sq(inner)}",
            naive=f"./remote 'cat > notes.txt <<EOF\n{text}\n$REMOTE_TOKEN\nEOF'")


# --- json-write ---------------------------------------------------------------

def json_write():
    cases = [
        ("t0-plain", 0, "hello", ["control"]),
        ("t1-quotes", 1, "it's a \"test\"", ["apostrophe", "double-quote", "json-escaping"]),
        ("t2-backslash", 2, "C:\\temp\\new folder", ["backslash", "json-escaping"]),
        ("t3-gnarly", 3, 'He said: "mix $HOME & C:\\new" (100%)',
         ["backslash", "double-quote", "dollar", "json-escaping"]),
    ]
    for name, tier, message, hazards in cases:
        document = '{"message": ' + json_string(message) + "}"
        yield make(
            "json-write", tier, name, hazards=hazards,
            instruction=(f"Write config.json: valid JSON, one object with the single key \"message\", whose "
                         f"value is the string {q(message)}."),
            payloads={"message": message},
            fixture={},
            checks=[{"kind": "json-value", "path": "config.json", "value": {"message": message}}],
            allowed_new=["config.json"],
            oracle=f"printf {sq('%s' + chr(92) + 'n')} {sq(document)} > config.json",
            naive=f'echo "{{\\"message\\": \\"{message}\\"}}" > config.json')


# --- git-commit ---------------------------------------------------------------

def git_commit():
    cases = [
        ("t0-plain", 0, "add feature", ["control"]),
        ("t1-apostrophe", 1, "fix: don't crash on empty input", ["apostrophe"]),
        ("t2-multiline", 2, "release notes\n\nincludes 'quoted' and \"double\" bits",
         ["multiline", "apostrophe", "double-quote"]),
        ("t3-backtick", 3, "sync `hostname` output & $PATH tweaks", ["backtick", "dollar", "SC2016:wrong-quote-type"]),
    ]
    for name, tier, message, hazards in cases:
        yield make(
            "git-commit", tier, name, hazards=hazards,
            instruction=("Here is a git repository with no commits yet and one new file, newfile.txt. Add "
                         f"newfile.txt and make one commit whose whole message is {q(message)}."),
            payloads={"message": message},
            fixture={"git": {"identity": GIT_IDENTITY, "initial_commit": False},
                     "files": [text_file("newfile.txt", "payload data\n")]},
            checks=[{"kind": "git", "message": message, "tracked": ["newfile.txt"], "commits": 1}],
            allowed_new=[],
            oracle=f"git add newfile.txt && git commit -q -m {sq(message)}",
            naive=f"git add newfile.txt && git commit -q -m {tempting_quote(message)}")


# --- env-passing --------------------------------------------------------------

def env_passing():
    cases = [
        ("t0-plain", 0, "plainvalue", ["control"]),
        ("t1-spaces", 1, "two words & it's fine", ["space", "apostrophe", "ampersand"]),
        ("t2-dollar", 2, "$HOME is not expanded here", ["dollar", "SC2016:wrong-quote-type"]),
        ("t3-multiline", 3, "first line\nsecond 'line' \"here\"", ["multiline", "apostrophe", "double-quote"]),
    ]
    for name, tier, value, hazards in cases:
        yield make(
            "env-passing", tier, name, hazards=hazards,
            instruction=(f"Start the program ./check_env with the environment variable MSG holding exactly "
                         f"{q(value)}. The program records the value it sees in got.txt."),
            payloads={"value": value},
            fixture={"programs": [{"path": "check_env", "kind": "env-recorder", "variable": "MSG",
                                   "log": "got.txt"}]},
            checks=[file_bytes("got.txt", value)], allowed_new=["got.txt"],
            oracle=f"MSG={sq(value)} ./check_env",
            naive=f"MSG={tempting_quote(value)} ./check_env")


# --- argv-passing -------------------------------------------------------------

def argv_passing():
    cases = [
        ("t0-plain", 0, ["alpha", "beta", "gamma"], ["control"]),
        ("t1-spaces", 1, ["two words", "it's", "fine"], ["space", "apostrophe", "SC2086:word-splitting"]),
        ("t2-glob-dollar", 2, ["*.txt", "$USER", "a  b"], ["glob-expansion", "dollar", "whitespace-collapse"]),
        ("t3-gnarly", 3, ["-n", "back\\slash", "mix 'sq' \"dq\" $x"],
         ["leading-dash", "backslash", "mixed-quotes", "dollar"]),
    ]
    for name, tier, args, hazards in cases:
        listed = "\n".join(f"  argument {i}: {q(a)}" for i, a in enumerate(args, 1))
        yield make(
            "argv-passing", tier, name, hazards=hazards,
            instruction=f"Call the program ./record once, with these three arguments and no others:\n{listed}",
            payloads={"args": args},
            fixture={"programs": [{"path": "record", "kind": "argv-recorder", "log": "got.bin"}],
                     "files": [text_file("seed1.txt", "seed\n"), text_file("seed2.txt", "seed\n")]},
            checks=[file_bytes("got.bin", "".join(a + "\0" for a in args))], allowed_new=["got.bin"],
            oracle="./record " + " ".join(sq(a) for a in args),
            naive="./record " + " ".join(args))


# --- bulk-rename --------------------------------------------------------------

def bulk_rename():
    cases = [
        ("t0-plain", 0, ["a.txt", "b.txt", "c.txt"], ["control"]),
        ("t1-spaces", 1, ["alpha one.txt", "beta two.txt", "plain.txt"], ["space", "SC2086:word-splitting"]),
        ("t2-dash-apostrophe", 2, ["-dash.txt", "it's.txt", "plain.txt"],
         ["leading-dash", "apostrophe", "option-injection"]),
        ("t3-gnarly", 3, ["sp  ace.txt", "star*.txt", "-it's mix.txt", "plain.txt"],
         ["space", "glob-name", "leading-dash", "apostrophe", "whitespace-collapse"]),
    ]
    for name, tier, names, hazards in cases:
        files = {n: f"content of {n}\n" for n in names}
        files["notes.md"] = "keep me\n"
        after = {("done_" + n if n.endswith(".txt") else n): text for n, text in files.items()}
        yield make(
            "bulk-rename", tier, name, hazards=hazards,
            instruction=("In the current directory, put the prefix done_ in front of the name of every file "
                         "ending in .txt (plain.txt turns into done_plain.txt, say). No other file changes."),
            payloads={},
            fixture={"files": [text_file(path, text) for path, text in files.items()]},
            checks=[{"kind": "file-set", "files": after}], allowed_new=set(after) - set(files),
            oracle='for f in *.txt; do mv -- "$f" "done_$f"; done',
            naive="for f in *.txt; do mv $f done_$f; done")


# --- heredoc-write ------------------------------------------------------------

def heredoc_write():
    cases = [
        ("t0-plain", 0, "first line\nsecond line\nthird line", ["control", "multiline"]),
        ("t1-expansion", 1, "balance: $HOME and `whoami`\nsecond line here",
         ["dollar", "backtick", "SC2087:unquoted-heredoc-delimiter", "multiline"]),
        ("t2-delimiter-collision", 2, "first part\nEOF\nlast part", ["heredoc-delimiter-collision", "multiline"]),
        ("t3-gnarly", 3, "a $X line\nEOF\nb `date` 'end'\nsay \"done\"",
         ["dollar", "backtick", "heredoc-delimiter-collision", "mixed-quotes", "multiline"]),
    ]
    for name, tier, text, hazards in cases:
        yield make(
            "heredoc-write", tier, name, hazards=hazards,
            instruction=f"Make doc.txt hold exactly the lines {q(text)} and then one newline.",
            payloads={"content": text},
            fixture={}, checks=[file_bytes("doc.txt", text + "\n")], allowed_new=["doc.txt"],
            oracle=f"printf {sq('%s' + chr(92) + 'n')} {sq(text)} > doc.txt",
            naive=f"cat > doc.txt <<EOF\n{text}\nEOF")


BUILDERS = {"write-file": write_file, "sed-replace": sed_replace, "grep-count": grep_count,
            "field-lookup": field_lookup, "hostile-filenames": hostile_filenames, "find-glob": find_glob,
            "ssh-nested": ssh_nested, "json-write": json_write, "git-commit": git_commit,
            "env-passing": env_passing, "argv-passing": argv_passing, "bulk-rename": bulk_rename,
            "heredoc-write": heredoc_write, "ssh-heredoc": ssh_heredoc}


def build_all() -> list[dict]:
    tasks = [t for family in FAMILIES for t in BUILDERS[family]()]
    ids = [t["id"] for t in tasks]
    assert len(ids) == len(set(ids)) == 56, "the suite is 14 families x 4 tiers with unique ids"
    return tasks


def render(task: dict) -> str:
    return json.dumps(task, ensure_ascii=False, indent=2) + "\n"


def expected_files() -> dict[str, str]:
    """Relative path of each task file -> its text."""
    return {f"{t['id']}.json": render(t) for t in build_all()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m qbcore.suite.build", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report files that are out of date")
    args = parser.parse_args(argv)
    stale = []
    expected = expected_files()
    for rel, text in expected.items():
        path = HERE / rel
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(rel)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    # task files of ids the suite no longer has
    for family in FAMILIES:
        for path in sorted((HERE / family).glob("*.json")):
            rel = f"{family}/{path.name}"
            if rel not in expected:
                stale.append(rel)
                if not args.check:
                    path.unlink()
    verb = "out of date" if args.check else "written"
    for rel in stale:
        print(f"{verb}: {rel}")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
