"""A curated corpus of the reply shapes QuoteBench models produce, one family at a time.

Each entry is (family, reply). The replies are written the way command-issuing
models write them: quoted for a plain ``bash -c`` (most of them), some already
escaped for an extra layer, some with the classic mistakes. They use the
payload hazards of the benchmark: quotes of both kinds, ``$`` and backticks
in content, backslashes, globs, spaces and leading dashes in names, multiline
text, heredoc delimiters. FIXTURE is the working directory they run in.
"""

FIXTURE = {
    "notes.txt": b"alpha\nbeta $HOME\n",
    "data.csv": b"id,name\n1,ann\n2,bob\n",
    "a b.txt": b"spaced\n",
    "-n": b"dash\n",
    "src/main.c": b"int main(void) { return 0; }\n",
    "src/util.h": b"#pragma once\n",
    "msg.txt": b"commit message\n",
}

CORPUS = [
    # write-file: printf and echo with hostile content
    ("write-file", "printf '%s\\n' 'He said \"hi\" & left; cost: $5' > out.txt"),
    ("write-file", "printf '%s\\n' \"It's \\$HOME, not \\`pwd\\`\" > out.txt"),
    ("write-file", "echo 'a*b?c[d]' > out.txt"),
    ("write-file", "echo \"tab\there\" > out.txt"),
    ("write-file", "printf 'line one\\nline two\\n' > out.txt"),
    ("write-file", "printf '%s' 'no newline' > out.txt"),
    ("write-file", "echo -n 'x' > out.txt"),
    ("write-file", "printf '%s\\n' 'it'\\''s' > out.txt"),
    ("write-file", "printf \"%s\\n\" \"double \\\"quoted\\\"\" > out.txt"),
    # sed-replace: BRE, replacement escaping, in place
    ("sed-replace", "sed -i 's/alpha/ALPHA/' notes.txt"),
    ("sed-replace", "sed -i 's|/usr/local|/opt|g' notes.txt"),
    ("sed-replace", "sed -i 's/\\$HOME/~/g' notes.txt"),
    ("sed-replace", "sed -i \"s/beta/gamma \\& delta/\" notes.txt"),
    ("sed-replace", "sed -i 's/a\\.b/a_b/; s/[0-9]\\+/N/g' notes.txt"),
    ("sed-replace", "sed -e '1i\\\nheader' notes.txt > out.txt"),
    # grep-count: regex vs literal
    ("grep-count", "grep -c 'alpha' notes.txt"),
    ("grep-count", "grep -Fc '$HOME' notes.txt"),
    ("grep-count", "grep -F -c -- '-n' notes.txt"),
    ("grep-count", "grep -cE '^(alpha|beta)' notes.txt"),
    ("grep-count", "grep -c \"beta \\$HOME\" notes.txt"),
    # field-lookup: awk's $1 against the shell's
    ("field-lookup", "awk -F, '$2 == \"bob\" {print $1}' data.csv"),
    ("field-lookup", "awk -F, 'NR > 1 {print $2}' data.csv > out.txt"),
    ("field-lookup", "awk -F, \"\\$1 == 2 {print \\$2}\" data.csv"),
    ("field-lookup", "cut -d, -f2 data.csv | tail -n +2"),
    # hostile-filenames: spaces, leading dashes, globs
    ("hostile-filenames", "cat -- 'a b.txt'"),
    ("hostile-filenames", "rm -- -n"),
    ("hostile-filenames", "mv -- 'a b.txt' 'c d.txt'"),
    ("hostile-filenames", "cat ./-n \"a b.txt\""),
    ("hostile-filenames", "touch -- '*.txt' && ls -- '*.txt'"),
    # find-glob: unquoted -name patterns meet files in the cwd
    ("find-glob", "find . -name '*.c' -type f"),
    ("find-glob", "find src -name \"*.h\""),
    ("find-glob", "find . -name '*.txt' -exec wc -l {} +"),
    ("find-glob", "find . -type f -name 'main.*' -print0 | xargs -0 ls -l"),
    ("find-glob", "ls src/*.c"),
    # ssh-nested: the ssh-like wrapper and client-side expansion
    ("ssh-nested", "./rsh 'printf \"%s\\n\" \"$REMOTE_VAR\"'"),
    ("ssh-nested", "./rsh \"printf '%s\\n' \\\"\\$REMOTE_VAR\\\"\""),
    ("ssh-nested", "./rsh 'cd /srv && ls -la'"),
    ("ssh-nested", "./rsh \"echo \\$HOME\""),
    # json-write: JSON escaping inside shell quoting
    ("json-write", "printf '%s\\n' '{\"name\": \"O\\u0027Brien\", \"tags\": [\"a\", \"b\"]}' > out.json"),
    ("json-write", "echo '{\"path\": \"C:\\\\temp\", \"ok\": true}' > out.json"),
    ("json-write", "printf '{\"cost\": \"$%d\"}\\n' 5 > out.json"),
    ("json-write", "python3 -c 'import json; print(json.dumps({\"q\": \"it\\u0027s\"}))' > out.json"),
    # git-commit: apostrophes, multiline, substitution in messages
    ("git-commit", "git add -A && git commit -q -m 'Fix the parser'\"'\"'s quoting'"),
    ("git-commit", "git commit -q -am \"Don't expand \\$PATH or \\`cmd\\`\""),
    ("git-commit", "git commit -q -m 'Subject line' -m 'Body line one\nBody line two'"),
    ("git-commit", "git commit -q -F msg.txt"),
    ("git-commit", "git commit -q -m \"Release v1.2 (50% faster)\""),
    # env-passing: assignment quoting and multiline values
    ("env-passing", "GREETING='hello world' ./show-env"),
    ("env-passing", "export TOKEN='a$b`c'; ./show-env"),
    ("env-passing", "env 'MULTI=line1\nline2' ./show-env"),
    ("env-passing", "X=\"a  b\" Y='c*d' ./show-env"),
    ("env-passing", "export PATH=\"$PATH:/opt/bin\" && ./show-env"),
    # argv-passing: word splitting, globbing and a leading -n
    ("argv-passing", "./show-args 'a b' '*' -- -n"),
    ("argv-passing", "./show-args \"$HOME\" '$HOME' ~"),
    ("argv-passing", "./show-args -n -e 'x\\ty'"),
    ("argv-passing", "./show-args '' \"\" 'tab\tsep'"),
    ("argv-passing", "set -- 'one two' three; ./show-args \"$@\""),
    # bulk-rename: loops over hostile names
    ("bulk-rename", "for f in *.txt; do mv -- \"$f\" \"${f%.txt}.md\"; done"),
    ("bulk-rename", "for f in src/*; do cp -- \"$f\" \"$f.bak\"; done"),
    ("bulk-rename", "for n in 1 2 3; do touch \"file $n.log\"; done"),
    ("bulk-rename", "find . -name '*.txt' | while IFS= read -r f; do echo \"$f\"; done"),
    # heredoc-write: quoted and unquoted delimiters, collisions
    ("heredoc-write", "cat > out.txt <<'EOF'\nCost: $5 and `cmd`\nIt's \"quoted\"\nEOF"),
    ("heredoc-write", "cat > out.txt <<EOF\nhome is $HOME\nliteral \\$HOME\nEOF"),
    ("heredoc-write", "cat > out.txt <<'END'\nEOF inside\nEND"),
    ("heredoc-write", "cat <<-EOF > out.txt\n\tindented\n\tEOF"),
    ("heredoc-write", "cat > out.sh <<'SCRIPT'\n#!/bin/sh\necho \"$1\"\nSCRIPT\nchmod +x out.sh"),
    # ssh-heredoc: a heredoc through the ssh-like wrapper
    ("ssh-heredoc", "./rsh bash <<'EOF'\necho \"$REMOTE_VAR\"\nEOF"),
    ("ssh-heredoc", "./rsh 'cat > remote.txt' <<'EOF'\nremote $content\nEOF"),
    ("ssh-heredoc", "./rsh bash <<EOF\necho \\$HOME\nEOF"),
    # shapes that cut across families
    ("argv-passing", "printf '[%s]\\n' a\\ b c"),
    ("write-file", "echo \"$(printf '%s' hi)\" > out.txt"),
    ("write-file", "echo 'a' && echo 'b' || echo 'c'"),
    ("write-file", "{ echo one; echo two; } > out.txt"),
    ("write-file", "( cd src && ls ) > out.txt"),
    ("env-passing", "if [ -f notes.txt ]; then echo yes; else echo no; fi"),
    ("grep-count", "grep -c alpha notes.txt || true"),
    ("field-lookup", "awk '{ print length($0) }' notes.txt"),
    ("sed-replace", "sed -n '/^beta/p' notes.txt"),
    ("hostile-filenames", "printf '%s\\0' *.txt | xargs -0 cat"),
]
