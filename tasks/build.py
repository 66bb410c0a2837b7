"""Build the 56 task files (14 families x 4 tiers) from their literal payloads.

Every oracle and naive command is assembled here from the payloads through
``qbcore.quoting``; nothing is escaped by hand. Tokens come from the task id,
so the output is the same on every run. ``python -m qbcore.suite.build``
rewrites the JSON files next to this module; a test checks they are current.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import sys
from pathlib import Path

from qbcore.quoting import heredoc_delimiter, json_string, sed_pattern, sed_replacement, single_quote as sq

HERE = Path(__file__).resolve().parent
FAMILIES = ("write-file", "sed-replace", "grep-count", "field-lookup", "hostile-filenames", "find-glob",
            "ssh-nested", "json-write", "git-commit", "env-passing", "argv-passing", "bulk-rename",
            "heredoc-write", "ssh-heredoc")
GIT_IDENTITY = {"name": "QB Tester", "email": "tester@qbcore.invalid"}


def token(task_id: str) -> str:
    return hashlib.sha256(task_id.encode()).hexdigest()[:8]


def q(text: str) -> str:
    """A literal payload as the instruction shows it."""
    return f"⟪{text}⟫"


def hz(name: str, shellcheck: str | None = None) -> dict:
    return {"name": name, "shellcheck": shellcheck}


def text_file(path: str, text: str, mode: str = "0644") -> dict:
    return {"path": path, "text": text, "mode": mode}


def make(family: str, tier: int, name: str, *, hazards, instruction, payloads, fixture, checks,
         allowed_new, oracle, naive) -> dict:
    fixture = {"dirs": [], "files": [], "programs": [], "git": None, **fixture}
    return {"id": f"{family}/t{tier}-{name}", "family": family, "tier": tier, "hazards": hazards,
            "instruction": instruction, "payloads": payloads, "fixture": fixture, "checks": checks,
            "allowed_new": allowed_new, "oracle": oracle, "naive": naive}


def tree_check(set_=None, remove=(), ignore=()) -> dict:
    """The whole directory must equal the fixture with these changes (and nothing else)."""
    return {"kind": "tree", "set": set_ or {}, "remove": list(remove), "ignore": list(ignore)}


# --- write-file ---------------------------------------------------------------

def write_file():
    family, target = "write-file", "note.txt"
    cases = [
        (0, "plain", lambda t: f"release notes {t}", []),
        (1, "dollar", lambda t: f"Total: $19.99 plus $TAX_{t} for $USER",
         [hz("dollar-in-content", "SC2016")]),
        (2, "quotes", lambda t: f'She said "don\'t" -- see C:\\new\\{t}\\',
         [hz("apostrophe-in-content", "SC1003"), hz("double-quote-in-content"), hz("backslash-in-content")]),
        (3, "combined", lambda t: f"-n line one {t}\n  `whoami` and $(uname) cost $5\n100% done \\n \"q\" 'a'\n",
         [hz("leading-dash"), hz("multiline-content"), hz("backtick-in-content", "SC2006"),
          hz("command-substitution-in-content", "SC2016"), hz("dollar-in-content", "SC2016"),
          hz("apostrophe-in-content", "SC1003")]),
    ]
    for tier, name, payload, hazards in cases:
        tid = f"{family}/t{tier}-{name}"
        content = payload(token(tid))
        yield make(
            family, tier, name, hazards=[hz("quote-choice")] + hazards,
            instruction=(f"Create the file {q(target)} whose content is exactly {q(content)}, byte for byte, "
                         "with no trailing newline added."),
            payloads={"content": content, "file": target},
            fixture={"files": [text_file("README", "write-file task\n")]},
            checks=[{"kind": "file-bytes", "path": target, "text": content},
                    tree_check({target: {"text": content}})],
            allowed_new=[target],
            oracle=f"printf {sq('%s')} {sq(content)} > {sq(target)}",
            naive=f"printf '%s' \"{content}\" > {target}")


# --- sed-replace --------------------------------------------------------------

def sed_replace():
    family, target = "sed-replace", "app.conf"
    cases = [
        (0, "plain", "localhost", lambda t: f"db-{t}.internal",
         "host=localhost\nport=5432\nbackup_host=localhost\n", []),
        (1, "regex-dot", "1.2.0", lambda t: f"1.3.0-{t}",
         "version=1.2.0\nlegacy=1x2y0\nnote=112.0 is unrelated\n", [hz("regex-vs-literal")]),
        (2, "slashes", "/usr/local/bin", lambda t: f"/opt/app-{t} & tools",
         "PATH=/usr/local/bin:/usr/bin\nlinks=/usr/local/bin\nkeep=/usr/local/binary\n",
         [hz("sed-delimiter-in-payload"), hz("sed-ampersand-in-replacement")]),
        (3, "combined", "$HOME/[cache]*", lambda t: f"C:\\Users\\{t}\\it's & $PATH",
         "dir=$HOME/[cache]*\nother=/root/cache\nmore=$HOME/[cache]*/x\n",
         [hz("dollar-in-content", "SC2016"), hz("regex-vs-literal"), hz("sed-ampersand-in-replacement"),
          hz("backslash-in-content"), hz("apostrophe-in-content", "SC1003")]),
    ]
    for tier, name, old, new_of, content, hazards in cases:
        tid = f"{family}/t{tier}-{name}"
        new = new_of(token(tid))
        result = content.replace(old, new)
        script = "s/" + sed_pattern(old) + "/" + sed_replacement(new) + "/g"
        yield make(
            family, tier, name, hazards=[hz("shell-quoting-x-sed-escaping")] + hazards,
            instruction=(f"In the file {q(target)}, replace every occurrence of the literal text {q(old)} "
                         f"with the literal text {q(new)}, editing the file in place. Change nothing else."),
            payloads={"old": old, "new": new, "file": target},
            fixture={"files": [text_file(target, content)]},
            checks=[{"kind": "file-bytes", "path": target, "text": result},
                    tree_check({target: {"text": result}})],
            allowed_new=[],
            oracle=f"sed -i -e {sq(script)} {sq(target)}",
            naive=f"sed -i \"s/{old}/{new}/g\" {target}")


# --- grep-count ---------------------------------------------------------------

def grep_count():
    family, log, out = "grep-count", "app.log", "count.txt"
    cases = [
        (0, "plain", lambda t: "ERROR",
         lambda t: f"INFO start {t}\nERROR disk full\nINFO retry\nERROR disk full again\nWARN slow\n", []),
        (1, "regex-dot", lambda t: "user.id=42",
         lambda t: f"user.id=42 login\nuser_id=42 login\nuserXid=421 logout\nuser.id=42 logout {t}\n",
         [hz("regex-vs-literal")]),
        (2, "brackets", lambda t: "[WARN]",
         lambda t: f"[WARN] disk {t}\nWARN only\nNo brackets here\n[INFO] fine\n[WARN] memory\n",
         [hz("regex-vs-literal"), hz("glob-lookalike-pattern")]),
        (3, "combined", lambda t: f"-v $USER's \"x\" *",
         lambda t: f"-v $USER's \"x\" * first {t}\nplain line\n-v $USER's \"x\" * second\n-v other\n",
         [hz("leading-dash"), hz("dollar-in-content", "SC2016"), hz("apostrophe-in-content", "SC1003"),
          hz("double-quote-in-content"), hz("regex-vs-literal")]),
    ]
    for tier, name, needle_of, log_of, hazards in cases:
        tid = f"{family}/t{tier}-{name}"
        needle, content = needle_of(token(tid)), log_of(token(tid))
        count = sum(needle in line for line in content.split("\n")[:-1])
        assert count >= 1
        answer = f"{count}\n"
        yield make(
            family, tier, name, hazards=[hz("quote-choice")] + hazards,
            instruction=(f"Count the lines of {q(log)} that contain the literal text {q(needle)} (a fixed "
                         f"string, not a pattern) and write the number followed by a newline to {q(out)}."),
            payloads={"needle": needle, "file": log, "output": out},
            fixture={"files": [text_file(log, content)]},
            checks=[{"kind": "file-bytes", "path": out, "text": answer}, tree_check({out: {"text": answer}})],
            allowed_new=[out],
            oracle=f"grep -c -F -e {sq(needle)} {sq(log)} > {sq(out)}",
            naive=f"grep -c \"{needle}\" {log} > {out}")


# --- field-lookup -------------------------------------------------------------

AWK_LOOKUP = 'BEGIN { key = ARGV[1]; ARGV[1] = "" } $1 == key { print $3 }'


def field_lookup():
    family, table, out = "field-lookup", "accounts.txt", "answer.txt"
    cases = [
        (0, "plain", lambda t: "alice", lambda t: f"Alice Smith {t}",
         lambda k, v: f"bob:x:Bob Jones\n{k}:x:{v}\ncarol:x:Carol White\n", []),
        (1, "dollar", lambda t: "$admin", lambda t: f"Root Admin {t}",
         lambda k, v: f":x:empty key\n{k}:x:{v}\nadmin:x:Not This One\n",
         [hz("dollar-in-content", "SC2016"), hz("dollar-1-shell-vs-awk")]),
        (2, "backslash", lambda t: "CORP\\tom", lambda t: f"Tom in CORP {t}",
         lambda k, v: f"CORP\tom:x:Tab Person\n{k}:x:{v}\ntom:x:Plain Tom\n",
         [hz("backslash-in-content"), hz("awk-v-escape-processing")]),
        (3, "combined", lambda t: f"o'brien $1 \"{t}\"", lambda t: f"Pat O'Brien {t}",
         lambda k, v: f"o'brien:x:Wrong Pat\n{k}:x:{v}\nobrien:x:Also Wrong\n",
         [hz("dollar-1-shell-vs-awk"), hz("apostrophe-in-content", "SC1003"), hz("double-quote-in-content")]),
    ]
    for tier, name, key_of, value_of, table_of, hazards in cases:
        tid = f"{family}/t{tier}-{name}"
        key, value = key_of(token(tid)), value_of(token(tid))
        content = table_of(key, value)
        answer = f"{value}\n"
        yield make(
            family, tier, name, hazards=[hz("quote-choice")] + hazards,
            instruction=(f"In {q(table)} (fields separated by {q(':')}), find the line whose first field is "
                         f"exactly {q(key)} and write its third field followed by a newline to {q(out)}."),
            payloads={"key": key, "file": table, "output": out},
            fixture={"files": [text_file(table, content)]},
            checks=[{"kind": "file-bytes", "path": out, "text": answer}, tree_check({out: {"text": answer}})],
            allowed_new=[out],
            oracle=f"awk -F {sq(':')} {sq(AWK_LOOKUP)} {sq(key)} {sq(table)} > {sq(out)}",
            naive=f"awk -F: -v k=\"{key}\" '$1 == k {{ print $3 }}' {table} > {out}")


# --- hostile-filenames --------------------------------------------------------

def hostile_filenames():
    family = "hostile-filenames"
    cases = [
        (0, "plain", "stale.tmp", ["keep.txt", "notes.md"], [], []),
        (1, "spaces", "old report.txt", ["old", "report.txt", "new report.txt"], [],
         [hz("word-splitting", "SC2086"), hz("spaces-in-name")]),
        (2, "glob", "*.bak", ["a.bak", "b.bak", "keep.txt"], [], [hz("globbing", "SC2035"), hz("glob-lookalike-name")]),
        (3, "combined", "-rf data [1].txt", ["1.txt", "keep.txt", "data/inner.txt", "data/deep/x.txt"], ["data", "data/deep"],
         [hz("leading-dash", "SC2035"), hz("globbing", "SC2035"), hz("word-splitting", "SC2086"),
          hz("collateral-damage")]),
    ]
    for tier, name, target, others, dirs, hazards in cases:
        tid = f"{family}/t{tier}-{name}"
        tok = token(tid)
        files = [text_file(target, f"delete me {tok}\n")] + [text_file(o, f"keep {o} {tok}\n") for o in others]
        yield make(
            family, tier, name, hazards=[hz("collateral-damage")] + [h for h in hazards if h["name"] != "collateral-damage"],
            instruction=(f"Delete the file named exactly {q(target)} in the current directory. Every other file "
                         "and directory must stay as it is."),
            payloads={"name": target},
            fixture={"dirs": dirs, "files": files},
            checks=[tree_check(remove=[target])],
            allowed_new=[],
            oracle=f"rm -f -- {sq(target)}",
            naive=f"rm {target}")


# --- find-glob ----------------------------------------------------------------

def find_glob():
    family, out = "find-glob", "found.txt"
    cases = [
        (0, "plain", "settings.ini", ["conf/settings.ini", "conf/sub/settings.ini", "conf/other.ini"], [], []),
        (1, "trap", "*.cfg", ["conf/a.cfg", "conf/sub/b.cfg", "conf/x.txt", "conf/sub/deeper/c.cfg"], ["main.cfg"],
         [hz("unquoted-find-pattern", "SC2061"), hz("trap-file-in-cwd")]),
        (2, "two-traps", "*.yaml", ["conf/app.yaml", "conf/sub/db.yaml", "conf/readme.md"], ["one.yaml", "two.yaml"],
         [hz("unquoted-find-pattern", "SC2061"), hz("trap-file-in-cwd")]),
        (3, "combined", "[ab]* copy.conf", ["conf/a copy.conf", "conf/sub/b1 copy.conf", "conf/c copy.conf",
                                            "conf/sub/a copy.conf.bak"], ["alpha", "beta copy.conf"],
         [hz("unquoted-find-pattern", "SC2061"), hz("trap-file-in-cwd"), hz("word-splitting", "SC2086"),
          hz("spaces-in-name")]),
    ]
    for tier, name, pattern, tree, traps, hazards in cases:
        tid = f"{family}/t{tier}-{name}"
        tok = token(tid)
        found = sorted((p for p in tree if fnmatch.fnmatchcase(p.rsplit("/", 1)[-1], pattern)),
                       key=lambda p: p.encode())
        answer = "".join(p + "\n" for p in found)
        dirs = sorted({p.rsplit("/", 1)[0] for p in tree})
        files = [text_file(p, f"{p} {tok}\n") for p in tree] + [text_file(t, f"trap {tok}\n") for t in traps]
        yield make(
            family, tier, name, hazards=[hz("globbing")] + hazards,
            instruction=(f"Find every file under {q('conf')} whose name matches the shell pattern {q(pattern)} "
                         f"and write their paths as find prints them (starting with {q('conf/')}), sorted "
                         f"bytewise, one per line, to {q(out)}."),
            payloads={"pattern": pattern, "dir": "conf", "output": out},
            fixture={"dirs": dirs, "files": files},
            checks=[{"kind": "file-bytes", "path": out, "text": answer}, tree_check({out: {"text": answer}})],
            allowed_new=[out],
            oracle=f"find conf -name {sq(pattern)} -print | LC_ALL=C sort > {sq(out)}",
            naive=f"find conf -name {pattern} | sort > {out}")


# --- ssh-nested / ssh-heredoc: the ssh-like wrapper -----------------------------

def ssh_wrapper(tid: str) -> dict:
    return {"path": "rsh", "kind": "ssh-wrapper", "remote_root": "remote_root",
            "variables": {"REMOTE_ROLE": f"role-{token(tid)}"}}


def ssh_nested():
    family = "ssh-nested"
    wrapper_hazards = [hz("double-evaluation"), hz("client-side-expansion", "SC2029")]
    for tier, name in ((0, "plain"), (1, "dollar"), (2, "remote-var"), (3, "combined")):
        tid = f"{family}/t{tier}-{name}"
        tok = token(tid)
        role = f"role-{tok}"
        if tier == 0 or tier == 1:
            target = "greeting.txt"
            content = f"hello remote {tok}" if tier == 0 else f"price $5, user $USER {tok}"
            inner = f"printf {sq('%s')} {sq(content)} > {sq(target)}"
            expected = content
            wording = f"whose content is exactly {q(content)} with no trailing newline"
            payloads = {"content": content, "file": target}
            hazards = [] if tier == 0 else [hz("dollar-in-content", "SC2016")]
        elif tier == 2:
            target = "role.txt"
            inner = f"printf {sq('%s' + chr(92) + 'n')} \"$REMOTE_ROLE\" > {sq(target)}"
            expected = f"{role}\n"
            wording = (f"containing the value of the variable {q('REMOTE_ROLE')} as the remote side sees it, "
                       "followed by a newline")
            payloads = {"variable": "REMOTE_ROLE", "file": target}
            hazards = [hz("remote-only-variable")]
        else:
            target = "report.txt"
            content = f"it's \"{tok}\" at $HOME: "
            inner = f"printf {sq('%s%s' + chr(92) + 'n')} {sq(content)} \"$REMOTE_ROLE\" > {sq(target)}"
            expected = f"{content}{role}\n"
            wording = (f"containing exactly {q(content)} immediately followed by the value of the variable "
                       f"{q('REMOTE_ROLE')} as the remote side sees it, then a newline")
            payloads = {"content": content, "variable": "REMOTE_ROLE", "file": target}
            hazards = [hz("remote-only-variable"), hz("apostrophe-in-content", "SC1003"),
                       hz("double-quote-in-content"), hz("dollar-in-content", "SC2016")]
        remote_path = f"remote_root/{target}"
        yield make(
            family, tier, name, hazards=wrapper_hazards + hazards,
            instruction=(f"The program {q('./rsh')} works like ssh: {q('./rsh box COMMAND...')} joins its "
                         "arguments after the host with spaces and runs the result with bash -c on the remote "
                         f"side, whose working directory is {q('remote_root/')}. Using it, create the remote "
                         f"file {q(target)} {wording}."),
            payloads=payloads,
            fixture={"dirs": ["remote_root"], "programs": [ssh_wrapper(tid)],
                     "files": [text_file("remote_root/.keep", "")]},
            checks=[{"kind": "file-bytes", "path": remote_path, "text": expected},
                    tree_check({remote_path: {"text": expected}})],
            allowed_new=[remote_path],
            oracle=f"./rsh box {sq(inner)}",
            naive=f"./rsh box \"{inner}\"")


def ssh_heredoc():
    family = "ssh-heredoc"
    base_hazards = [hz("heredoc-over-ssh", "SC2087"), hz("client-side-expansion", "SC2029")]
    cases = [
        (0, "plain", lambda t: f"alpha\nbeta {t}", []),
        (1, "expansion", lambda t: f"home is $HOME\nrole is $REMOTE_ROLE {t}\nsum $((1+1))",
         [hz("dollar-in-content", "SC2016"), hz("heredoc-expansion")]),
        (2, "collision", lambda t: f"start {t}\nEOF\nafter the marker", [hz("heredoc-delimiter-collision")]),
        (3, "nested", lambda t: f"it's `literal` $x\nEOF\n\tend {t}",
         [hz("nested-heredoc"), hz("heredoc-delimiter-collision"), hz("heredoc-expansion"),
          hz("remote-only-variable"), hz("backtick-in-content", "SC2006")]),
    ]
    for tier, name, payload, hazards in cases:
        tid = f"{family}/t{tier}-{name}"
        tok = token(tid)
        content = payload(tok)
        target = "notes.txt"
        remote_path = f"remote_root/{target}"
        if tier < 3:
            expected = content + "\n"
            inner = f"cat > {sq(target)}"
            delim = heredoc_delimiter(content, "END")
            oracle = f"./rsh box {sq(inner)} <<'{delim}'\n{content}\n{delim}"
            naive = f"./rsh box \"cat > {target}\" <<EOF\n{content}\nEOF"
            wording = (f"whose content is exactly the lines {q(content)} followed by a newline, sending the "
                       "text to the remote side on standard input (a here-document)")
        else:
            expected = content + f"\nrole-{tok}\n"
            inner_doc = heredoc_delimiter(content, "INNER")
            remote_script = (f"cat > {sq(target)} <<'{inner_doc}'\n{content}\n{inner_doc}\n"
                             f"printf {sq('%s' + chr(92) + 'n')} \"$REMOTE_ROLE\" >> {sq(target)}")
            outer_doc = heredoc_delimiter(remote_script, "OUTER")
            oracle = f"./rsh box bash <<'{outer_doc}'\n{remote_script}\n{outer_doc}"
            naive_script = (f"cat > {target} <<EOF\n{content}\nEOF\n"
                            f"printf '%s\\n' \"$REMOTE_ROLE\" >> {target}")
            naive = f"./rsh box bash <<EOF\n{naive_script}\nEOF"
            wording = (f"whose content is exactly the lines {q(content)}, then a line with the value of the "
                       f"variable {q('REMOTE_ROLE')} as the remote side sees it; do it by sending a script to a "
                       f"remote {q('bash')} on standard input, the script itself writing the file with a "
                       "here-document")
        yield make(
            family, tier, name, hazards=base_hazards + hazards,
            instruction=(f"The program {q('./rsh')} works like ssh: {q('./rsh box COMMAND...')} joins its "
                         "arguments after the host with spaces and runs the result with bash -c on the remote "
                         f"side (working directory {q('remote_root/')}), passing standard input through. Using "
                         f"it, create the remote file {q(target)} {wording}."),
            payloads={"content": content, "file": target},
            fixture={"dirs": ["remote_root"], "programs": [ssh_wrapper(tid)],
                     "files": [text_file("remote_root/.keep", "")]},
            checks=[{"kind": "file-bytes", "path": remote_path, "text": expected},
                    tree_check({remote_path: {"text": expected}})],
            allowed_new=[remote_path],
            oracle=oracle, naive=naive)


# --- json-write ---------------------------------------------------------------

def json_write():
    family, target = "json-write", "data.json"
    cases = [
        (0, "plain", lambda t: f"hello {t}", []),
        (1, "quotes", lambda t: f'He said "ship it" {t}', [hz("double-quote-in-content")]),
        (2, "backslash", lambda t: f"C:\\temp\\{t} isn't $HOME",
         [hz("backslash-in-content"), hz("apostrophe-in-content", "SC1003"), hz("dollar-in-content", "SC2016")]),
        (3, "combined", lambda t: f"line1\n\tindented \"q\" 'a' \\ $x `y` é {t}",
         [hz("multiline-content"), hz("control-characters"), hz("double-quote-in-content"),
          hz("apostrophe-in-content", "SC1003"), hz("backtick-in-content", "SC2006"), hz("non-ascii")]),
    ]
    for tier, name, payload, hazards in cases:
        tid = f"{family}/t{tier}-{name}"
        message = payload(token(tid))
        document = '{"message": ' + json_string(message) + "}"
        yield make(
            family, tier, name, hazards=[hz("json-escaping-x-shell-quoting")] + hazards,
            instruction=(f"Write to {q(target)} a JSON object with exactly one key, {q('message')}, whose "
                         f"string value is exactly {q(message)}."),
            payloads={"message": message, "file": target},
            fixture={"files": [text_file("README", "json-write task\n")]},
            checks=[{"kind": "json-value", "path": target, "value": {"message": message}},
                    tree_check(ignore=[target])],
            allowed_new=[target],
            oracle=f"printf {sq('%s' + chr(92) + 'n')} {sq(document)} > {sq(target)}",
            naive=f"echo '{{\"message\": \"{message}\"}}' > {target}")


# --- git-commit ---------------------------------------------------------------

def git_commit():
    family = "git-commit"
    cases = [
        (0, "plain", lambda t: f"Update README wording {t}", []),
        (1, "dollar", lambda t: f"Raise limit to $20 for {t}", [hz("dollar-in-content", "SC2016")]),
        (2, "quotes", lambda t: f'Fix "it\'s" handling in {t}',
         [hz("apostrophe-in-content", "SC1003"), hz("double-quote-in-content")]),
        (3, "multiline", lambda t: f"Document `make check` and $(nproc) jobs\n\nIt's safer: run \"make\" with {t}.",
         [hz("multiline-content"), hz("backtick-in-content", "SC2006"),
          hz("command-substitution-in-content", "SC2016"), hz("apostrophe-in-content", "SC1003")]),
    ]
    for tier, name, payload, hazards in cases:
        tid = f"{family}/t{tier}-{name}"
        tok = token(tid)
        message = payload(tok)
        readme_before = f"# Project {tok}\n\nFirst draft.\n"
        readme_after = f"# Project {tok}\n\nSecond draft, reworded.\n"
        yield make(
            family, tier, name, hazards=[hz("quote-choice")] + hazards,
            instruction=(f"The current directory is a git repository with an uncommitted change to "
                         f"{q('README.md')}. Commit all changes to tracked files with exactly the commit "
                         f"message {q(message)}."),
            payloads={"message": message},
            fixture={"files": [text_file("README.md", readme_before), text_file("src.txt", f"source {tok}\n")],
                     "git": {"identity": GIT_IDENTITY, "initial_message": "Initial commit",
                             "after_commit": [text_file("README.md", readme_after)]}},
            checks=[{"kind": "git", "message": message, "new_commits": 1, "clean": True,
                     "head_files": {"README.md": readme_after, "src.txt": f"source {tok}\n"}},
                    tree_check(ignore=[".git", ".git/**"])],
            allowed_new=[".git/**"],
            oracle=f"git commit -q -a -m {sq(message)}",
            naive=f"git commit -q -a -m \"{message}\"")


# --- env-passing --------------------------------------------------------------

def env_passing():
    family, variable = "env-passing", "APP_MESSAGE"
    cases = [
        (0, "plain", lambda t: f"hello{t}", []),
        (1, "spaces", lambda t: f"hello big world {t}", [hz("word-splitting", "SC2086"), hz("assignment-quoting")]),
        (2, "operators", lambda t: f"a=b;echo {t}|x&", [hz("assignment-quoting"), hz("control-operators-in-value")]),
        (3, "multiline", lambda t: f"line one\nline 'two' $HOME\n\ttabbed {t}",
         [hz("multiline-value"), hz("assignment-quoting"), hz("apostrophe-in-content", "SC1003"),
          hz("dollar-in-content", "SC2016")]),
    ]
    for tier, name, payload, hazards in cases:
        tid = f"{family}/t{tier}-{name}"
        value = payload(token(tid))
        yield make(
            family, tier, name, hazards=hazards or [hz("assignment-quoting")],
            instruction=(f"Run the program {q('./record-env')} once, with the environment variable "
                         f"{q(variable)} set to exactly {q(value)} for that command."),
            payloads={"variable": variable, "value": value},
            fixture={"programs": [{"path": "record-env", "kind": "env-recorder", "variables": [variable],
                                   "log": "env.log"}]},
            checks=[{"kind": "env", "path": "env.log", "calls": [{variable: value}]},
                    tree_check(ignore=["env.log"])],
            allowed_new=["env.log"],
            oracle=f"{variable}={sq(value)} ./record-env",
            naive=f"{variable}={value} ./record-env")


# --- argv-passing -------------------------------------------------------------

def argv_passing():
    family = "argv-passing"
    cases = [
        (0, "plain", lambda t: ["alpha", "beta", t], []),
        (1, "spaces", lambda t: ["two words", "  padded  ", t], [hz("word-splitting", "SC2086")]),
        (2, "glob", lambda t: ["*.txt", "[ab].txt", "~", t], [hz("globbing", "SC2035"), hz("tilde-expansion")]),
        (3, "combined", lambda t: ["-n", "", "$HOME", "it's", "x\ny", t],
         [hz("leading-dash-n"), hz("empty-argument"), hz("dollar-in-content", "SC2016"),
          hz("apostrophe-in-content", "SC1003"), hz("word-splitting", "SC2086")]),
    ]
    for tier, name, payload, hazards in cases:
        tid = f"{family}/t{tier}-{name}"
        tok = token(tid)
        args = payload(tok)
        shown = " ".join(q(a) for a in args)
        yield make(
            family, tier, name, hazards=hazards or [hz("word-splitting", "SC2086")],
            instruction=(f"Run the program {q('./record-args')} once with exactly {len(args)} arguments, "
                         f"in this order: {shown}."),
            payloads={"args": args},
            fixture={"programs": [{"path": "record-args", "kind": "argv-recorder", "log": "args.log"}],
                     "files": [text_file("a.txt", f"a {tok}\n"), text_file("b.txt", f"b {tok}\n")]},
            checks=[{"kind": "argv", "path": "args.log", "calls": [args]}, tree_check(ignore=["args.log"])],
            allowed_new=["args.log"],
            oracle="./record-args " + " ".join(sq(a) for a in args),
            naive="./record-args " + " ".join(args))


# --- bulk-rename --------------------------------------------------------------

def bulk_rename():
    family = "bulk-rename"
    cases = [
        (0, "plain", ".jpeg", ".jpg", ["beach.jpeg", "city.jpeg", "notes.txt"], []),
        (1, "spaces", ".jpeg", ".jpg", ["summer trip.jpeg", "b.jpeg", "keep.png"],
         [hz("word-splitting", "SC2086"), hz("spaces-in-name")]),
        (2, "glob-names", ".jpeg", ".jpg", ["*.jpeg", "a.jpeg", "b.jpeg", "c.jpg.txt"],
         [hz("globbing", "SC2086"), hz("glob-lookalike-name")]),
        (3, "combined", " (draft).jpeg", ".jpg", ["-cover (draft).jpeg", "two  spaces (draft).jpeg",
                                                  "keep (final).jpeg", "x(draft).jpeg"],
         [hz("leading-dash"), hz("word-splitting", "SC2086"), hz("spaces-in-name"), hz("shell-metacharacters-in-suffix")]),
    ]
    for tier, name, old, new, names, hazards in cases:
        tid = f"{family}/t{tier}-{name}"
        tok = token(tid)
        content = {n: f"{n} {tok}\n" for n in names}
        renamed = {n: n[: -len(old)] + new for n in names if n.endswith(old) and not n.startswith(".")}
        set_ = {f"photos/{renamed[n]}": {"text": content[n]} for n in renamed}
        oracle = (f"old={sq(old)}; new={sq(new)}; for f in photos/*\"$old\"; do [ -e \"$f\" ] || continue; "
                  "mv -- \"$f\" \"${f%\"$old\"}$new\"; done")
        yield make(
            family, tier, name, hazards=[hz("unquoted-loop-variable", "SC2086")] + hazards,
            instruction=(f"In the directory {q('photos')}, rename every file whose name ends with {q(old)} so "
                         f"that the name ends with {q(new)} instead (the rest of the name unchanged). Leave "
                         "every other file alone."),
            payloads={"old_suffix": old, "new_suffix": new, "dir": "photos"},
            fixture={"dirs": ["photos"], "files": [text_file(f"photos/{n}", content[n]) for n in names]},
            checks=[tree_check(set_, remove=[f"photos/{n}" for n in renamed])],
            allowed_new=sorted(set_),
            oracle=oracle,
            naive=f"for f in photos/*{old}; do mv $f ${{f%{old}}}{new}; done")


# --- heredoc-write ------------------------------------------------------------

def heredoc_write():
    family, target = "heredoc-write", "script.sh"
    cases = [
        (0, "plain", lambda t: f"first line\nsecond line {t}", []),
        (1, "expansion", lambda t: f"echo \"$HOME\"\nprice=$(( 2 + 2 )) `date +%Y` {t}",
         [hz("heredoc-expansion"), hz("dollar-in-content", "SC2016"), hz("backtick-in-content", "SC2006")]),
        (2, "collision", lambda t: f"start {t}\nEOF\nafter the marker", [hz("heredoc-delimiter-collision")]),
        (3, "combined", lambda t: f"#!/bin/sh\n\techo \"\\$PATH is $PATH\"\nEOF\ncat <<'EOF'\n  `x` \\\\ back\nEOF\n{t}",
         [hz("heredoc-expansion"), hz("heredoc-delimiter-collision"), hz("backslash-in-content"),
          hz("backtick-in-content", "SC2006"), hz("leading-tabs")]),
    ]
    for tier, name, payload, hazards in cases:
        tid = f"{family}/t{tier}-{name}"
        content = payload(token(tid))
        expected = content + "\n"
        delim = heredoc_delimiter(content, "END")
        yield make(
            family, tier, name, hazards=[hz("heredoc-quoting")] + hazards,
            instruction=(f"Using a here-document, create the file {q(target)} whose content is exactly the "
                         f"lines {q(content)} followed by a newline."),
            payloads={"content": content, "file": target},
            fixture={"files": [text_file("README", "heredoc-write task\n")]},
            checks=[{"kind": "file-bytes", "path": target, "text": expected},
                    tree_check({target: {"text": expected}})],
            allowed_new=[target],
            oracle=f"cat > {sq(target)} <<'{delim}'\n{content}\n{delim}",
            naive=f"cat > {target} <<EOF\n{content}\nEOF")


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
    for rel, text in expected_files().items():
        path = HERE / rel
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(rel)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    verb = "out of date" if args.check else "written"
    for rel in stale:
        print(f"{verb}: {rel}")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
