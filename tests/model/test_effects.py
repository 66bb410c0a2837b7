"""The effect model against bash: the files a script leaves behind, byte for byte.

Each script runs in real bash in a directory holding the fixture, and in the
model over a virtual tree holding the same; where the model is certain the
two final trees must be equal, and every script here must be certain.
"""


import datetime
import subprocess

import pytest

import bashref
from utilities_diff import real_tree, unknown_why, virtual_tree
from qbcore.model.budget import Budget
from qbcore.model.effects import run_effects
from qbcore.model.utilities.hostfacts import SYSTEM_FOLDERS, Facts, stated, system_programs
from qbcore.model.utilities.vfs import UnknownData, VirtualTree

ROOT = "/work/task"
FIXTURE = {"data.txt": b"alpha one\nbeta two\nalpha three\n", "d/x": b"x\n", "notes": b"no newline"}

SCRIPTS = [
    # a utility runs only where PATH leads to the system's program: else bash's not found
    "PATH=/usr/local/sbin; sed -i 's/alpha/A/' data.txt 2> err; echo $? > st",
    "PATH=/usr/local/sbin; env A=1 true 2> err; echo $? > st; bash -c 'echo x > f' 2>> err; echo $? >> st",
    "PATH=/usr/local/sbin:/usr/bin; sed -i 's/alpha/A/' data.txt",
    # a command not found whose name the C locale does not print: bash shows it ANSI-C quoted
    "caf\u00e9 2> err; $'x\\ty' 2>> err; $'a\\\\b\\x7f' 2>> err; it\\'s$'\\x80\\e' 2>> err; echo $? > st",
    # an expansion error in a redirection of a program bash runs in a child ends the child
    # alone: its message, status 127 (set -u, ${x:?}) or 1, and the line goes on
    "set -u; cat < $f > o 2> err; echo same $? >> o\necho next $? >> o",
    "cat < $((1/0)) 2> err; echo same $? > o\necho next $? >> o",
    "set -u; ./nope < ${f:?oops} 2>> err; echo $? > st; sort > o < ${g%.txt} 2>> err; echo $? >> st",
    # a compound command whose redirection bash refuses: set -e and the ERR trap take its 1
    "set -e; while read l; do :; done < nope 2> err; echo after > st",
    "set -e; if true; then :; fi < nope 2> err; echo after > st", "set -e; ! { :; } < nope 2> err; echo after > st",
    "set -e; { :; } < nope 2> err || echo alt > st",
    "trap 'echo trapped >> st' ERR; { :; } < nope 2> err; echo after >> st",
    # redirections write what the command printed
    "echo hello > out",
    "printf '%s\\n' a b > out; printf c >> out",
    "echo one > out; echo two > out",
    "cat data.txt > copy",
    "cat data.txt notes > both",
    ": > empty; > also",
    "echo x >> notes",
    "echo err 1>&2 > f",
    "echo to-null > /dev/null; echo kept > k",
    "grep alpha data.txt > hits; grep -c alpha data.txt > count",
    "sed 's/alpha/omega/g' data.txt > .tmp && mv .tmp data.txt",
    "sed -i -e 's/alpha/ALPHA/' data.txt",
    # the target is truncated before the command reads it
    "cat notes > notes",
    # here-documents and here-strings feed stdin
    "cat <<EOF > doc\nline $((1 + 2))\n'quoted'\nEOF",
    "cat <<'EOF' > doc\nno $expansion here\nEOF",
    "cat > doc <<-EOF\n\tindented\n\tEOF",
    "tr a-z A-Z <<< 'shout' > loud",
    "wc -l < data.txt > lines",
    "sort < data.txt > sorted",
    # commands that never read stdin leave it to the one that does
    "{ mkdir x; echo hi > x/h; cat > f; } <<EOF\nbody\nEOF",
    "printf 'abc' | { cd d; basename /a/b > base; cat > got; }",
    # pipelines hand stdout to the next stdin
    "printf 'b\\na\\nc\\n' | sort > sorted",
    "cat data.txt | grep beta | tr a-z A-Z > upper",
    "printf 'x\\ny\\n' | tee t1 t2 > t3",
    # lines find gives in no known order, read by a loop or a utility run in each of their orders:
    # what they leave is the same in all
    "touch b.txt c.txt; find . -name '*.txt' | while read -r f; do cp \"$f\" \"$f.bak\"; done",
    "touch b.txt; find . -name '*.txt' -print0 | while IFS= read -r -d '' f; do mv \"$f\" \"${f%.txt}.md\"; done",
    "touch b.txt; find . -name '*.txt' | while read -r f; do grep -c alpha \"$f\"; done | sort > counts",
    "find . -name '*.txt' | while read -r f; do sed -i 's/alpha/A/' \"$f\"; done",
    # a find whose -name test a file fails never acts on it: `l` is no race
    "touch b.txt; find . -name '*.txt' | sort > l",
    # a reader the model does not follow (ls -l, cat -A) changes no file: its output alone is unknown
    "ls -la > /dev/null; cat -A data.txt > /dev/null; echo after > a; tail -n 1 -q notes >/dev/null; echo x > b",
    "stat -c %s data.txt > /dev/null; md5sum data.txt d/x > /dev/null; du -s d > /dev/null; echo x > after",
    # find's NUL-ended records in no known order: sort -z and wc -l, -c take them in any order
    "touch d/y d/z; find d -type f -print0 | sort -z > l; find d -type f -print0 | sort -zr >> l; "
    "find d -type f -print0 | wc -lc > n",
    # a test operator with no argument in [[ ]]: bash refuses the line, and what follows it
    "echo a > f\n[[ -f ]] && echo b > g\necho c > h",
    # umask: the mask the model's files are made under, printed or set again
    "umask > m; umask -S >> m; umask -p >> m; umask 022 && umask 0022 && umask u=rwx,g=rx,o=rx && echo x > f",
    # a sort between a listing and a loop: it reads to the end before it writes, so the listing
    # is done before the loop acts
    "touch b.txt c.txt; find . -name '*.txt' | sort | while read -r f; do mv \"$f\" \"$f.md\"; done",
    "touch b.txt; ls | sort -r | xargs -I{} cp {} {}.copy",
    "touch b.txt c.txt; ls | grep '\\.txt$' | while read -r f; do mv \"$f\" \"$f.md\"; done",
    "touch b.txt; ls | grep -v '^d$' | sort | cut -c1- | while read -r f; do cp \"$f\" \"$f.1\"; done",
    # a utility with file operands leaves stdin to the next reader; one without takes the rest
    "printf 'data.txt\\nnotes\\n' > list; while read -r f; do wc -l \"$f\"; done < list > counts",
    "printf 'a\\nb\\nc\\n' | while read -r l; do echo \"$l\" > first; cat > rest; break; done",
    # one write of one chunk: tee writes it to stdout and its file before its reader can stop
    "printf 'x\\ny\\n' | tee t1 | head -1 > h; cat data.txt | tee t2 | grep -q alpha",
    "grep -v alpha data.txt | wc -l > n",
    "echo abc | cut -c2 > c",
    # compound commands redirect as a whole
    "{ echo a; echo b; } > g",
    "{ echo a; cat notes; } >> g2",
    "( echo sub; echo shell ) > s",
    "for w in one two; do echo $w; done > loop",
    "if grep -q beta data.txt; then echo yes > answer; else echo no > answer; fi",
    "f() { echo \"in $1\"; }; f a > fa; f b >> fa",
    # files change through the utilities
    "mkdir -p new/deep && echo hi > new/deep/f",
    "cp data.txt d/copy && rm notes",
    "mv d moved",
    "touch t && ln -s data.txt link",
    "x=$(cat notes); echo \"[$x]\" > wrapped",
    "echo \"$(grep -c alpha data.txt) matches\" > summary",
    "bash -c 'echo \"$0 $1\" > args' zero one",
    "python3 -c 'open(\"py.txt\", \"w\").write(\"from python\\n\")'",
    "echo a > kept\\",
    # stderr sent to stdout reaches a command substitution's value, and the shell's stdout
    "x=$(ls nope 2>&1); echo \"[$x]\" > o", "x=$( { echo a; echo b >&2; } 2>&1 ); echo \"$x\" > o",
    "x=$( (echo a >&2) 2>&1 ); echo \"[$x]\" > o", "f() { echo out; echo err >&2; }; f 2>&1 > o | cat > e",
    "{ echo a; echo b >&2; } 2>&1 | cat > o",
    # a subscript with brackets of its own
    "arr=(a b c); arr[${#arr[@]}]=d; echo \"${arr[@]}\" > o", "y=(1 2); x[y[1]]=b; echo \"${!x[@]}\" > o",
    # a pipeline's commands run at the same time: a listing another's file cannot reach is exact
    "echo *.txt | cat > o", "find d -type f | sort > list",
    # pipefail: a pipeline's status is its last failure's
    "set -o pipefail; false | cat > o; echo $? > st", "set -euo pipefail; printf 'b\\na\\n' | sort | tr a-z A-Z > up",
    "set -eo pipefail; cat nofile | sort > s; echo after > a", "set -o pipefail; set +o pipefail; false | cat; echo $? > st",
    "set -o pipefail; grep -c alpha data.txt | tee n | wc -l > m && echo ok > ok",
    # a substitution in the words of a compound command reads the shell's stdin, inside the
    # compound's own redirections
    'case "$(cat data.txt)" in a*) echo y > o;; esac', "[[ $(cat data.txt) == a* ]] && echo y > o",
    "for w in $(cat data.txt); do echo $w; done > o", "for w in $(cat); do echo $w; done < data.txt > o",
    "echo q | for w in $(cat); do echo $w; done > o", "(( $(wc -l < data.txt) > 2 )) && echo big > o",
    # a bash (or python3) that reads its program from the pipe runs nothing before the writer (echo,
    # printf) has written it all: the file its program makes is not one the writer races with
    "echo 'echo hi > new; ls > l' | bash", "printf 'touch t2; ls > l\\n' | bash -s x", "ls | bash; ls > l",
    "echo 'open(\"new\", \"w\").write(\"hi\")' | python3 -", "echo 'import os; os.mkdir(\"new\")' | python3",
    # a first case arm of `*` runs whatever the word is
    "case $RANDOM in *) echo any > o;; esac",
    "case $RANDOM$$ in **|x) echo any > o;; a) echo a > a;; esac; echo $? > s",
    # each substitution of a command reads the command's stdin, whatever the one before piped
    'echo $(printf "hi\\n" | true) $(cat) w > o', 'x=$(echo hi | true)$(cat) y=$(ls | cat); echo "[$x|$y]" > o',
    'echo "$(echo | cat)" $(cat) < data.txt > o',
    # find lists a directory in the order its file system keeps: a reader that sorts or counts
    # takes its lines in any order; paths that lie one under the other come in one order
    "touch d/y d/a; find d -type f | sort -r > l", "touch d/y; find d -type f | wc -l > n", "find d . -maxdepth 0 > l",
    "find d/x > l", "mkdir -p e/f; find e > l",
    # find -exec: each run a utility model; runs that do not meet each other in either order
    "find . -name '*.txt' -exec sed -i 's/alpha/A/' {} \\;", "find . -type f -name '*.txt' -exec mv {} {}.bak \\;",
    "cp data.txt d/y.txt; x=$(find . -name '*.txt' -exec grep -c alpha {} + | sort); echo \"$x\" > counts",
    "find d -type f -exec cat {} \\; > all",
    # find's lines, in no known order, through xargs (run both ways round) or a read loop: find is
    # done before they act (stdio into a pipe: its output comes when it exits)
    "cp data.txt d/y.txt; find . -name '*.txt' -print0 | xargs -0 sed -i 's/alpha/A/'",
    "cp data.txt d/y.txt; find . -name '*.txt' | xargs rm", "find . -name '*.txt' | while read -r f; do mv \"$f\" \"$f.bak\"; done",
    "cp data.txt d/y.txt; x=$(find . -name '*.txt' | xargs grep -l alpha | sort); echo \"$x\" > o",
    # test's expression parser past four arguments, with file tests
    "test -d d -a -f data.txt && echo ok > o", "[ -f nope -o -s notes ] && echo ok > o2; [ ! -e d -a -d d ]; echo $? > o3",
    # < <(producer): one stdio utility that changes nothing, read by what reads before anything else
    "while read -r f; do mv \"$f\" \"$f.bak\"; done < <(find . -name '*.txt')",
    "while read -r l; do echo \"[$l]\"; done < <(sort data.txt) > o",
    "IFS= read -r first < <(grep alpha data.txt); echo \"$first\" > o", "mapfile -t L < <(ls); echo \"${L[@]}\" > o",
    # lines in no known order through a filter line by line (grep, cut), then sorted or counted
    "touch d/1 d/2 d/3.txt d/4.md d/5; find d -type f | grep -v 1 | sort > o",
    "touch d/1 d/2 d/3.txt d/4.md d/5; find d -type f | grep -e txt -e md | cut -c3- | sort -r > o",
    "touch d/1 d/2 d/3.txt d/4.md d/5; find d | grep -o '[a-z0-9]*$' | sort | uniq -c > o",
    "touch d/1 d/2 d/3.txt d/4.md d/5; find d -type f | grep -x nothing | sort > o; echo $? > st",
    # /dev/stdout and /dev/stderr: what the descriptor holds, a pipe or the harness's stream
    "echo a > /dev/stderr 2> /dev/null; echo b > /dev/stdout > o; echo $? > st",
    "x=$(echo y > /dev/stdout); echo \"$x\" > o", "echo hi > /dev/fd/1 | cat > o", "{ echo e > /dev/stderr; } 2>&1 | cat > o",
    # or echo or printf, which read nothing once their words are expanded
    "read -r a b < <(printf '%s %s\\n' x y); echo \"$b $a\" > o", "mapfile -t L < <(echo \"$(ls)\"); echo \"${L[@]}\" > o",
    "read -r l < <(echo $(cat data.txt)); rm data.txt; echo \"$l\" > o",
    # a writer that changes files only before it writes, or whose reader reads it all
    "touch before; echo 1 | head -1 > h", "for i in 1 2; do echo $i; touch f$i; done | cat > h",
    # bash drops a final backslash when the last line began inside single quotes
    "echo 'a\nb' > w.txt\\", "echo 'a\nb' \"c\nd\" > w.txt\\",
    # a name bash finds nowhere: status 127, and the script goes on
    "EOF; echo $? > status", "second 'line' here > f; echo $? > status", "./nope arg; echo $? > status",
    "up/price = x & echo done > d2",
    # a path out of the task tree with a name missing from a folder the run states: 127
    # a substitution in a later redirection runs with the earlier ones in place
    "cat > out 2> err <<EOF\n$(echo to-err >&2)x\nEOF", "cat 2> err < data.txt > out$(echo e >&2)",
    "{ cat; } 2> err <<EOF\n$(echo to-err >&2; echo in)\nEOF",
    # an expansion error in a later redirection: reported where the earlier ones put stderr
    "cat > out <<EOF\na ${func()} b\nEOF\necho $? > st", "cat 2> /dev/null <<EOF\n${func()}\nEOF\necho $? > st",
    # one open description shared (2>&1, a group, a child): its writes follow each other
    "{ echo a; echo b >&2; bash -c 'echo c'; } > f 2>&1; echo d >> f", "{ echo a > f; echo b >> f; } >> f",
    "$PATH tweaks; echo $? > status", "/usr/local/nope/x 2>/dev/null; echo $? > status", "/usr/bin:/x; echo $? > s",
    # a trailing slash changes nothing there (ENOENT before ENOTDIR)
    "s/alpha/ 2>/dev/null; echo $? > status", "d/nope/ 2>/dev/null; echo $? > s", "/usr/local/nope/ 2>/dev/null; echo $? > s",
    # a path to a folder of the task tree: "Is a directory", status 126
    "./; echo $? > status", "d/ x 2>/dev/null; echo $? > status", "./d | cat; echo $? > s", "d/./ && echo no > n", "ln -s d ld; ./ld/ 2>/dev/null; echo $? > s",
    # grep reads \t as the letter t (sed reads a tab)
    "grep -c 'one\\t' data.txt > n; grep -c 'a\\lpha' data.txt > m",
    # a background job keeps the shell's stdout or stderr: the harness, reading them to their
    # end, waits for it; it and what runs after it use no path in common, so any order ends alike
    "echo a > x & echo b > y", "{ echo a; sed -i 's/alpha/A/' data.txt; } & echo b > y; wc -l < notes > n",
    "echo a > x.log & echo *.txt > y", "false & echo $? > st", "echo a > x & bash -c 'echo b > y'",
    # a new bash inside a command substitution writes its value
    'x=$(bash -c "echo 1"); echo "a$x" > f', '[ "$(bash -c "echo 1")" = 1 ] && echo a > f',
    "mv notes d/n & cat data.txt > copy", "mkdir e & mkdir f; echo b > f/y",
    "for i in 1 2; do echo $i > j$i & done; echo b > y",
    # a prefix assignment is in the utility's environment, also after a substitution in its words
    "N=5 python3 -c 'import os; open(\"n\", \"w\").write(os.environ.get(\"N\", \"none\"))'",
    "N=7 python3 -c \"$(echo 'import os; open(\"m\", \"w\").write(os.environ.get(\"N\", \"none\"))')\"",
    "N=5; python3 -c 'import os; open(\"n\", \"w\").write(os.environ.get(\"N\", \"none\"))'",
    # cat copies what it reads: stdin whose bytes are not known leaves only its output unknown
    "nosuch 2>&1 | cat && echo ok > ok", "set -o pipefail; nosuch 2>&1 | cat; echo $? > st",
    "cat <<EOF && echo ok > ok\n$RANDOM\nEOF", "nosuch 2>&1 | cat - data.txt >/dev/null; echo $? > st",
    # a command name that starts with %: bash runs fg on it before its redirections (`%x > o`
    # makes no o; status 1, `fg: no job control`), and a pipeline's own command searches for it
    "%s%s/x > o 2>&1; echo $? > s", "x=1 %x; echo \"[$x]$?\" > f", "set -e; %x; echo a > f",
    "( %x ) > o; echo $? > s", "%x 2>&1 | cat > o", "true | %x/y 2> err",
    # exec runs a utility in the shell's place, with the descriptors it sets up: nothing after it runs
    "exec cat data.txt > copy; echo never > n", "( exec grep -c alpha data.txt ) > count; echo $? > s",
    "x=$(exec tr a-z A-Z < notes); echo \"$x\" > up", "exec sed -i 's/alpha/A/' data.txt; echo never > n",
    # bash's message about a command it cannot run, into a file or a pipe: `$0: line N: …`
    "nope 2> err; echo $? > s", "nope 2>&1 | cat > o", "./nope 2>&1 | wc -c > o", "./d 2> err",
    "true\n\nnope arg >> err 2>&1", "( nope ) > err 2>&1", "for i in 1 2; do\n  nope $i\ndone 2> err",
    "if true; then\n  ./nope 2> err\nfi", "cat <<EOF 2> err && nope 2>> err\nbody\nEOF",
    # set alone prints every variable (not spelled) and changes nothing
    "set\necho a > f; echo $? > st", "set > /dev/null; echo $? > st",
    # an empty name (a variable expanded on the wrong side) is no such file
    "touch \"$unset\" 2> /dev/null; echo $? > st; echo a | tee \"$unset\" o 2> /dev/null >> st; echo $? >> st\n"
    "rm -f \"$unset\"; echo $? >> st; rm \"$unset\" 2> /dev/null; echo $? >> st; mkdir -p \"$unset\" 2> /dev/null; echo $? >> st",
    # exit's first word is read before the words are counted: not a number, it exits with 2
    "echo a > f; exit } data.tsv > out.txt; echo b >> f",
    # /dev/null as a utility's operand: it exists, is no folder, reads as empty, keeps nothing
    "echo a | tee /dev/null > f; cat /dev/null >> f; head -1 /dev/null >> f; wc -l /dev/null >> f\n"
    "grep -c x /dev/null >> f; cut -f1 /dev/null >> f; echo a | tee -a /dev/null f > /dev/null\n"
    "sort -o /dev/null f; echo $? >> f; touch /dev/null; echo $? >> f",
    # wc: /dev/null is no regular file, so the counts take GNU's minimum width of 7
    "wc /dev/null > f; wc -l data.txt /dev/null >> f; wc -c nope data.txt >> f 2> /dev/null; wc -l /dev/null >> f",
    # ... stdin too, unless it reads a regular file (`<`): a pipe, /dev/null, a short here-document
    "wc < data.txt > f; cat data.txt | wc >> f; wc <<< 'x y' >> f; wc -c notes - < data.txt >> f; wc - notes >> f",
    # sed reads /dev/null as empty; under -i it stops at a name that is no regular file (a
    # folder, /dev/null), the files before it edited, and goes on past a missing one
    "sed -n p /dev/null > f; sed -n '$=' data.txt /dev/null >> f; echo $? >> f",
    "mkdir e; sed -i s/alpha/A/ data.txt e notes 2> err; echo $? > st",
    "sed -i s/alpha/A/ data.txt /dev/null notes 2> err; echo $? > st",
    "sed -i s/beta/B/ nope data.txt 2> err; echo $? > st",
    # python3 runs /dev/null as an empty program; a missing script is its error, status 2
    "python3 /dev/null; echo $? > st; python3 nope 2> /dev/null; echo $? >> st",
    "python3 data.txt/x 2> e; echo $? > st; sed -i 's|/.*/|/|' e",  # [Errno 20] Not a directory
    # perl -i passes over a name that is no regular file with a warning; perl reads /dev/null as empty
    "perl -pi -e s/alpha/A/ /dev/null data.txt 2> err; echo $? > st; perl -pe s/o/0/ /dev/null notes > f",
    # sed reads all its input unless its script quits or may end it (q is no command here)
    "set -o pipefail; seq 1 20000 | sed 's/q/Q/g;/eq/d' > o; echo $? > st",
    "set -o pipefail; seq 1 20000 | sed '3s//x/' > o; echo $? > st",
]


def _seeded():
    return VirtualTree.from_listing({f"{ROOT}/{path}": data for path, data in FIXTURE.items()})


def _model(script, budget=None, programs=None):
    tree = _seeded()
    # the programs in the system's PATH folders are this machine's, where bashref runs bash
    facts = Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser",
                  programs=system_programs() if programs is None else programs)
    with stated(facts):
        run = run_effects(script, tree, ROOT, bashref.executor_environ(ROOT), budget=budget)
    return run, tree


@pytest.mark.bash
@pytest.mark.parametrize("script", SCRIPTS)
def test_final_files_match_bash(script, tmp_path):
    for path, data in FIXTURE.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)
    real = bashref.run(script, cwd=str(tmp_path))
    run, tree = _model(script)
    assert run.unknown is None and run.files.lost is None, (run.unknown, run.files.lost)
    assert virtual_tree(tree, ROOT) == real_tree(str(tmp_path), ROOT), real.error
    if not isinstance(run.status, object.__class__):
        assert run.status == real.status


@pytest.mark.parametrize("script, why", [
    ("date -d tomorrow > now", "date"),
    # ... which a subshell runs itself, or set -e then ends the shell with 1 (measured)
    ("set -u; ( cat < $f ); echo $? > st", "a child performs"), ("set -eu; cat < $f; echo x > o", "a child performs"),
    # python3 runs the current folder for an empty script name (it once escaped the model)
    ("python3 ''; echo $? > st", "running a directory"),
    # pipefail counts a writer that SIGPIPE may end when its reader stops early
    ("set -o pipefail; printf 'x\\ny\\n' | head -1 > h; echo $? > st", "reader may stop early"),
    # an empty regex ends sed where it runs before any other (PIPESTATUS shows SIGPIPE without pipefail)
    ("seq 1 20000 | sed '3s//x/' > o; echo \"${PIPESTATUS[0]}\" > st", "PIPESTATUS"),
    # a file one command creates where another lists names that it may see
    # a writer whose reader may stop early: SIGPIPE may end it before a file it changes after
    # writing (measured: `for i in 1 2; do echo $i; sleep 0.2; touch f$i; done | true` makes f1 only)
    ("for i in 1 2 3; do echo $i; touch f$i; done | head -1 > h", "may stop reading"),
    ("{ echo 1; echo 2; touch f; } | grep -q 1", "may stop reading"),
    # tee writes each chunk of its input to stdout, then to its files: a reader gone after the first
    # chunk ends it before a later one reaches them (measured: `{ echo 1; sleep 0.2; echo 2; } | tee
    # out | head -1` leaves out with one line)
    ("{ echo 1; echo 2; } | tee out | head -1 > h", "several reads"),
    ("for i in 1 2; do echo $i; done | tee out | grep -q 1", "several reads"),
    ("find . -type f > l", "the order find lists"), ("touch d/y; find d | head -1 > l", "no known order"),
    ("touch b.txt; find . -type f | while read -r f; do echo \"$f\" >> list; done", "no known order"),
    # the middle line is the same up and down: other orders move it
    ("touch b.txt c.txt; find . -name '*.txt' | { read a; read b; cp \"$b\" second; }", "no known order"),
    ("find . ! -name '*.md' | sort > l", "race on l"),
    ("find . -name '*.txt' | { mkdir sub; touch sub/y.txt; cat > l; }", "race on"),
    # input from what the model does not follow is unknown, not empty
    ("cat < <(ls) > o", "its stdin not known"), ('cat < "$RANDOM" > o', "its stdin not known"),
    # grep skips an input that is its output, empty or not, saying so; -r finds it in a folder given
    ("grep x o > o", "where its output goes"), ("grep -r x > o", "where its output goes"),
    ("mkdir -p d; grep -rn -e x d . >> d/o", "where its output goes"),
    # a descriptor holding a file, opened again by its path: truncated, written from its start
    ("{ echo a; echo b > /dev/stdout; } > o", "opened again by its path"),
    ("exec 2>&-; echo e > /dev/stderr; echo x > o", "opened again by its path"),
    # a reader whose output depends on the order of its lines: grep -n numbers them
    ("touch d/1 d/2 d/3.txt d/4.md d/5; find d -type f | grep -n . | sort > o", "the order find lists"),
    ("touch d/1 d/2 d/3.txt d/4.md d/5; find d -type f | grep d > o", "the order find lists"),
    ("while read -r f; do echo $f; done < <(find . -type f) > o", "status of read (its stdin)"),
    # a file open for the shell's output, moved or removed: later output follows it (measured)
    ("{ echo a; mv o p; echo b; } > o", "where its output goes"), ("( rm -f o; echo b ) > o", "open for writing"),
    ("cp data.txt d/y.txt; x=$(find . -name '*.txt' | xargs echo); echo \"$x\" > o", "depend on the order"),
    ("ls | xargs -n1 echo > o", "race on o"),
    # -0 over lines in no known order: one item holding them all, in that order
    ("cp data.txt d/y.txt; find . -name '*.txt' | xargs -0 echo > o", "not the lines"),
    ("cp data.txt d/y.txt; find . -name '*.txt' | sed '1!G;h;$!d' | xargs -0 echo > o", "not the lines"),
    ("ls | cat > o", "race on o"), ("echo *.txt | cat > o.txt", "race on o.txt"),
    ("find . -type f | sort > list", "race on list"),
    # (the loop's own redirection opens its file while find still lists)
    ("find . -type f | sort | while read -r f; do echo \"$f\"; done > list", "race on list"),
    ("find . -type f | head -n 5 | while read -r f; do touch \"$f.x\"; done", "race on"),
    # (head stops reading early: ls may still be listing when the loop starts)
    ("ls | head -n 3 | grep a | while read -r f; do touch \"$f.x\"; done", "race on"),
    # a reader of a path outside the task directory, or one that follows or writes, is not followed
    ("ls -l / > /dev/null; echo x > a", "ls -l"), ("tail -f notes; echo x > a", "tail -f"),
    ("sort --compress-program=gzip data.txt > /dev/null; echo x > a", "compress-program"),
    # (sort without -z reads them as one line, in find's order)
    ("touch d/y; find d -type f -print0 | sort > l", "order"),
    ("file -C; echo x > a", "file -C"), ("umask 077; echo x > a", "umask 077"), ("md5sum /dev/zero; echo x > a", "md5sum"),
    ("false | true; true & echo ${PIPESTATUS[0]} > p; wait", "PIPESTATUS"), ("f() { echo $FUNCNAME > n; }; f", "FUNCNAME"),
    # a utility's stdout and stderr both on the shell's stdout: their order is the utility's buffering
    ("x=$(ls data.txt nope 2>&1); echo \"$x\" > o", "$x"),
    ("shopt -s extglob; x=aaa; echo ${x//+(a)/b} > o", "${x//"),
    ("x[1]=a; declare -p x > o", "declare -p"), ("declare x[1]=a; echo ${x[1]} > o", "declare x[1]=a"),
    ("cat data.txt | sort > data.txt", "race"),
    ("head -n1 data.txt >> data.txt", "where its output goes"),
    ("{ cat; cat; } <<EOF > twice\nabc\nEOF", "stdin"),
    ("ls /etc > listing", "outside the task directory"),
    # a folder whose names the run does not state (the host's /etc, /opt): bash may find the path
    ("/etc/nope; echo $? > s", "/etc/nope"), ("/opt/x:/y; echo $? > s", "/opt/x:/y"),
    # bash's own message, spelled `bash: line 1: …`, into a file or a pipe: a builtin's, or one
    # whose line bash does not take as LINENO (in a function: `environment: line 1: …` under -c;
    # a command split over lines: the line of the token after its first word)
    # a new bash's script with text the model does not know: single quotes there keep it as
    # it came (measured: `bash -c "[ '$RANDOM' = '$RANDOM' ] && echo y > o"` makes no o; the
    # model read both as the same text)
    ("bash -c \"[ '$RANDOM' = '$RANDOM' ] && echo y > o\"", "bash -c"), ("bash -c \"echo '$$' > o\"", "bash -c"),
    ("cat > out 2> err <<EOF\na ${func()} b\nEOF", "error message written to"),
    ("cd \"x\ny\" 2> err", "error message written to"),
    ("f() { nope; }\nf 2> err", "error message written to"), ('nope "a\nb" 2> err', "error message written to"),
    ("eval nope 2> err", "error message written to"), ('x=$(nope 2>&1); echo "$x" > o', "$x"),
    ("echo $RANDOM > r", "RANDOM"),
    # exec of a builtin's name runs its program, of a name not found ends the shell: not followed
    ("exec echo hi > f", "exec echo"), ("exec nosuch; echo a > f", "exec nosuch"),
    # a command name that starts with %: fg's message into a file, bg after & (not followed)
    ("{ %x; } 2> err", "error message written to"), ("%x &", "starts with %"), ("command %x", "starts with %"),
    # a word with an unknown part never reaches a utility as its printed form
    ('touch "$RANDOM"', "does not know"), ('mkdir "d$RANDOM"', "does not know"),
    # a new bash inside a command substitution with its stderr there too: its value is not known
    ('x=$(bash -c "echo 1" 2>&1); echo "a$x" > f', "$x"),
    # nor does an exported value, a prefix assignment's too: the model would read it as unset
    ("N=$RANDOM python3 -c 'import os; open(\"n\", \"w\").write(os.environ.get(\"N\", \"\"))'",
     "unknown values"),
    # sed -i with a replacement escape the sed model leaves unknown: data.txt may have changed
    ("sed -i 's/alpha/x\\U&/' data.txt", "sed"),
    # a grep option the model does not cover: what it counts is unknown
    ("grep -cb one data.txt > n", "grep"),
    # unknown output on a closed stdout: whether the write failed is not known (`set`'s too)
    ("set >&-; echo $? > st", "closed descriptor"),
    # a background job and what runs after it, on a path both use: any interleaving may be the one
    ("echo a > x & cat x > y", "both use"), ("echo a > x & ls > y", "both use"),
    ("mkdir e & echo b > e/y", "both use"), ("echo b >> data.txt & sed -i 's/a/b/' data.txt", "both use"),
    ("sort -o data.txt data.txt & grep -c alpha data.txt > n", "both use"),
    ("echo a > d/new & find d -name x > l", "both use"),
    # a change undone before the job ends still meets a reader in between
    ("mv data.txt c && mv c data.txt & cat data.txt > y", "both use"),
    # a job that lets go of the harness's stdout and stderr may be killed when the shell is done
    ("echo a > x 2>/dev/null & echo b > y", "away from the harness"),
    ("{ echo a > x; } >/dev/null 2>&1 & echo b > y", "away from the harness"),
    # its output into a pipe that what runs after it also writes: the reader sees them in any order
    ("{ echo a & echo b; } | cat > o", "background"),
    # measured: bash prints `b a` (the job's fork comes after the builtin); the model had `a b`
    ('x=$(echo a & echo b); echo "$x" > o', "$x"),
    # a program of that name first on PATH, or a folder whose names the run does not state
    ("mkdir b; printf '#!/bin/bash\\n' > b/cat; chmod +x b/cat; PATH=$PWD/b:$PATH; cat data.txt > o",
     "first on PATH"),
    ("PATH=/nowhere; sed -i 's/alpha/A/' data.txt", "where PATH leads sed"),
    ("mkdir b; printf '#!/bin/bash\\n' > b/rm; chmod +x b/rm; PATH=$PWD/b:$PATH; echo data.txt | xargs rm",
     "where PATH leads it"),
    ("mkdir b; printf '#!/bin/bash\\n' > b/rm; chmod +x b/rm; PATH=$PWD/b:$PATH; find . -name data.txt -exec rm {} +",
     "where PATH leads it"),
])
def test_what_is_not_modelled_is_named(script, why):
    run, tree = _model(script)
    # the run, the files, or the bytes of a file it wrote say why
    reasons = [run.unknown, run.files.lost] + [node.data.why for node in tree.nodes().values()
                                               if type(node.data) is UnknownData]
    assert any(reason is not None and why in reason for reason in reasons), reasons


def test_a_command_search_needs_the_stated_programs():
    # without the listing of /usr/bin and kin, whether bash finds a name is not known
    run, _ = _model("zz-no-such-program; echo $? > status", programs={})
    assert run.unknown is not None or run.files.lost is not None
    # a stated listing is the whole answer for its folder; a folder not stated stays unknown
    listing = {folder: frozenset({"ls"}) for folder in SYSTEM_FOLDERS}
    run, tree = _model("zz-no-such-program; echo $? > status", programs=listing)
    assert run.unknown is None and run.files.lost is None and tree.read_bytes(f"{ROOT}/status") == b"127\n"
    run, _ = _model("PATH=/usr/lib/x; zz-no-such-program; echo $? > status")
    assert run.unknown is not None or run.files.lost is not None


@pytest.mark.parametrize("source", ["stdin", "file"])
@pytest.mark.parametrize("script", ["echo a > f\\", "echo a\necho b > f\\"])
def test_a_backslash_ending_a_script_read_from_stdin_or_a_file_is_unknown(script, source):
    # measured: `bash -s` and `bash FILE` drop it, one line or several; `bash -c` keeps it
    # (unless the last line began inside single quotes)
    assert "backslash at the end" in run_effects(script, _seeded(), ROOT, bashref.executor_environ(ROOT),
                                                 source=source).unknown
    assert _model(script)[0].unknown is None


@pytest.mark.parametrize("script", [
    "{ echo ab > f; echo X; } > f",
    "cat > doc <<EOF\nfirst`echo two > doc`\nEOF",
    "{ echo one; printf 'long line\\n' > f; echo two; } > f",
])
def test_a_descriptor_whose_end_another_writer_moved_is_unknown(script):
    # the descriptor writes at its own offset, not at the file's end (measured:
    # `{ echo ab > f; echo X; } > f` leaves "X\n\n"): not followed
    run, _ = _model(script)
    assert "another writer moved" in (run.files.lost or ""), run.files.lost


def test_a_loop_that_never_ends_is_unknown():
    run, _ = _model("while :; do echo x >> f; done", Budget(steps=2_000))
    assert run.unknown is not None and "budget" in run.unknown


def test_a_gigabyte_write_is_unknown():
    run, _ = _model("printf '%*s' 1000000000 x > big", Budget())
    assert (run.unknown or run.files.lost) is not None


@pytest.mark.parametrize("environ, cwd, arg0, args", [
    ({}, ROOT, "bash", []),
    (bashref.executor_environ(ROOT), ROOT, "bash", []),
    (dict(bashref.executor_environ(ROOT), PWD=ROOT + "/d", OLDPWD="rel", SHLVL="x", _="/bin/sh"), ROOT + "/d",
     "zero", ["one", "two words"]),
    ({"SHLVL": "41", "IFS": ":", "PATH": "/nowhere", "odd-name": "v"}, "/", "sh", ["-"]),
])
def test_a_new_shells_environment_built_once_is_the_one_built_each_time(environ, cwd, arg0, args):
    from qbcore.model.budget import Meter
    from qbcore.model.effects import TreeFiles, _peek, _StartVariable, new_shell_env
    from qbcore.model.expand import Env

    files, meter = TreeFiles(_seeded(), ROOT), Meter()
    fresh = Env.from_environ(environ, cwd, files=files, meter=meter, arg0=arg0, positional=list(args))
    fresh.pipestatus_empty()  # (new_shell_env starts a shell: its PIPESTATUS is empty)
    for _ in range(3):  # the first builds it, the others copy it
        env = new_shell_env(environ, cwd, files, meter, arg0, args)
        # the same names, values and exports; the text ones watched, shared by every copy
        assert [(name, _peek(var), var.exported) for name, var in env.vars.items()] == \
            [(name, var.value, var.exported) for name, var in fresh.vars.items()]
        assert all(type(var) is _StartVariable for var in env.vars.values() if isinstance(_peek(var), str))
        assert {k: v for k, v in vars(env).items() if k not in ("vars", "start_watch")} == \
            {k: v for k, v in vars(fresh).items() if k != "vars"}
        # a shell replaces a variable, never changes one in place (the copies share them)
        env.set("SHLVL", "changed")
        env.set("arr", {0: "x"})
        env.functions["f"] = None


def test_runs_of_one_start_note_their_reads_each_in_its_own_recording():
    """Every copy of a start shares its watched variables: a run recorded inside another run
    of the same start takes the reads while it lasts, and gives them back when it ends."""
    from qbcore.model.budget import Meter
    from qbcore.model.effects import TreeFiles, _unwatch, _watch, new_shell_env

    files = TreeFiles(_seeded(), ROOT)
    environ = {"HOME": ROOT, "PATH": "/usr/bin", "A": "1", "B": "2"}
    outer, inner = (new_shell_env(environ, ROOT, files, Meter(), "bash", []) for _ in range(2))
    outer_reads, inner_reads = {}, {}
    held_outer = _watch(outer, outer_reads, set())
    assert outer.vars["A"].value == "1"
    held_inner = _watch(inner, inner_reads, set())
    assert inner.vars["B"].value == "2"
    _unwatch(held_inner)
    assert outer.vars["PATH"].value == "/usr/bin"
    _unwatch(held_outer)
    assert inner.vars["HOME"].value == ROOT  # no run recorded now: noted nowhere
    assert outer_reads == {"A": "1", "PATH": "/usr/bin"}
    assert inner_reads == {"B": "2"}


FILE_TEST_SETUP = ("mkdir -p dir/sub; : > empty; printf x > full; chmod 755 full; chmod 4000 empty; "
                   "chmod 1777 dir/sub; printf y > ro; chmod 444 ro; ln -s full lf; ln -s nowhere dangling; "
                   "ln -s dir ld; ln -s loop1 loop2; ln -s loop2 loop1; ln -s /etc/passwd out\n")
FILE_TEST_PATHS = ["empty", "full", "lf", "dangling", "ld", "loop1", "dir", "dir/sub", "missing", "full/x", "dir/",
                   "lf/", "", "./dir/../full", "ro", "$PWD/full"]


@pytest.mark.bash
@pytest.mark.parametrize("op", "-e -a -f -d -L -h -s -p -S -b -c -u -g -k -r -w -x".split())
def test_file_tests_match_bash(op, tmp_path):
    # bash here runs as root, whom no permission bit stops; the executor's run never is root,
    # and the model follows it (tests/predict/test_predict_permissions.py)
    paths = [p for p in FILE_TEST_PATHS if not (op in ("-r", "-w") and p in ("empty", "ro"))]
    script = FILE_TEST_SETUP + "".join(f'[ {op} "{p}" ]; echo "[ {op} #{n} ] $?" >> r; [[ {op} "{p}" ]]; '
                                       f'echo "[[ $? ]]" >> r; test ! {op} "{p}"; echo "! $?" >> r\n'
                                       for n, p in enumerate(paths))
    real = bashref.run(script, cwd=str(tmp_path))
    run, tree = _model(script)
    assert run.unknown is None and run.files.lost is None, (run.unknown, run.files.lost)
    assert tree.read_bytes(ROOT + "/r") == (tmp_path / "r").read_bytes(), real.error


@pytest.mark.parametrize("test", ['[[ -e out ]]', '[ -f out ]',
                                  '[ full -nt ro ]', '[[ -O full ]]', '[[ -v x ]]'])
def test_file_tests_the_tree_does_not_decide_are_unknown(test):
    assert unknown_why(*_model(FILE_TEST_SETUP + test + "; echo $? > r")) is not None


def test_no_descriptor_of_a_run_is_a_terminal():
    # the executor's bash reads /dev/null or a pipe and writes to pipes (tests/predict checks it there)
    script = "[ -t 0 ]; a=$?; [[ -t 1 ]]; b=$?; test -t 2; c=$?; [ -t x ]; echo $a$b$c$? > r"
    run, tree = _model(script)
    assert unknown_why(run, tree) is None and tree.read_bytes(ROOT + "/r") == b"1111\n"


@pytest.mark.bash
@pytest.mark.parametrize("script, warns", [
    ("LC_ALL=xx", True), ("LC_ALL=xx true", True), ("export LC_ALL=xx", True), ("LC_ALL='C sort'", True),
    ("LC_ALL=xx 2>/dev/null", True), ("f() { :; }; LC_ALL=xx f", True),
    ("LC_ALL=; LC_CTYPE=xx", True), ("unset LC_ALL; LC_TIME=xx", True), ("LC_ALL= LC_MESSAGES=xx true", True),
    ("LC_ALL=C", False), ("LC_ALL=C.UTF-8", False), ("LC_ALL=POSIX; LC_ALL=", False), ("LANG=xx", False),
    ("LC_ALL=xx ls > /dev/null", False), ("LANGUAGE=xx", False), ("LC_CTYPE=xx", False),
    ("LC_ALL=; LANG=xx", False),
])
def test_a_locale_bash_may_not_have_leaves_its_stderr_unknown(script, warns, tmp_path):
    # bash sets its own locale and warns where the host has no such one (which locales a
    # host has is not the model's to know), on its stderr before the command's redirections;
    # the executor's LC_ALL=C rules the other categories
    real = bashref.run(script + "; echo done > f", cwd=str(tmp_path))
    assert ("setlocale" in real.error) == warns
    run, tree = _model(script + "; echo done > f")
    assert run.unknown is None and run.files.lost is None and tree.read_bytes(f"{ROOT}/f") == b"done\n"
    assert (run.effects.stderr_unknown is not None and "locale" in run.effects.stderr_unknown) == warns


@pytest.mark.bash
@pytest.mark.parametrize("script", [
    # a reader takes what bash has not read of the script it reads from stdin (from a pipe, a
    # byte at a time): a utility the rest, and bash ends with the line; read a line, and bash
    # reads on after it, its line numbers counting only the lines it read itself
    "cat > got\necho later > late", "x=$(cat); echo \"[$x]\" > got\necho later > late",
    "read x; echo \"$x\" > got\nskipped > nope\necho $LINENO > line",
    "read x\nread y\nnope 2> err\necho \"$x|$y|$LINENO\" > got",
    "read x\ncat <<EOF > doc\nbody\nEOF\necho $LINENO > line",
    "bash\nexit 4\necho $? > status\necho $LINENO > line", "bash\necho inner > got; exit\necho outer > more",
    "mapfile lines\necho never > got", "{ cat; echo after > a; }\necho never > got",
    "wc -l > count\necho never > got\n", "head -n 1 > got\necho never > never",
])
def test_a_script_read_from_stdin_meets_its_readers_as_bash_does(script, tmp_path):
    for path, data in FIXTURE.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)
    subprocess.run(["bash", "-s"], executable=bashref.BASH, input=script.encode(), cwd=str(tmp_path),
                   capture_output=True, env=bashref.executor_environ(str(tmp_path)), timeout=20, check=False)
    tree = _seeded()
    facts = Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser", programs=system_programs())
    with stated(facts):
        run = run_effects(script, tree, ROOT, bashref.executor_environ(ROOT), source="stdin")
    assert run.unknown is None and run.files.lost is None, (run.unknown, run.files.lost)
    assert virtual_tree(tree, ROOT) == real_tree(str(tmp_path), ROOT)


@pytest.mark.parametrize("script", [
    "head -c 3\necho a > f", "cat <&0 &\necho a > f", "f() { :; }\nread x\necho a > f\necho b > g",
    "bash\nif\necho a > f",
])
def test_a_script_read_from_stdin_read_in_an_unknown_share_is_unknown(script):
    with bashref.host_facts():
        run = run_effects(script, _seeded(), ROOT, bashref.executor_environ(ROOT), source="stdin")
    assert "rest of" in (run.unknown or run.files.lost or "")


@pytest.mark.bash
def test_what_a_writer_says_after_its_reader_may_be_gone_is_unknown(tmp_path):
    # measured: a writer whose reader has exited dies of SIGPIPE at its next write, and what it
    # would have said on stderr after that never comes
    real = bashref.run("{ sleep 0.2; echo a; nosuch; } | true", cwd=str(tmp_path))
    assert "nosuch" not in real.error
    for script in ("{ echo a; nosuch; } | true", "{ printf 'a\\n'; nosuch; } | head -c 1"):
        run, _ = _model(script + "; echo x > f")
        assert "may stop reading" in (run.effects.stderr_unknown or ""), script
    # a reader that reads all its input leaves the writer to the end
    run, _ = _model("{ echo a; nosuch; } | cat > o")
    assert run.effects.stderr_unknown is None and any("nosuch" in line for line in run.effects.stderr)
