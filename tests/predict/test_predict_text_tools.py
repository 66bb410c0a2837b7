"""Replies that count, pick and edit with grep -o/-w/-P, egrep and fgrep, sort's keys, awk's
for-in, sed's a, i, c, y, =, blocks and GNU addresses, perl -pi -e and python3's csv, predicted
and executed: decided under raw as the tools run them, and every certain prediction agrees with
the executor under the other transports."""

from predicting import ListedReplies

# (task, reply, passes under raw)
REPLIES = [
    # lines.txt holds the task's marker word, TODO, on lines 1, 3 and 4: count.txt must hold 3
    ("grep-count/t0-plain", "grep -o TODO lines.txt | wc -l > count.txt", True),
    ("grep-count/t0-plain", "grep -cw TODO lines.txt > count.txt", True),
    ("grep-count/t0-plain", "grep -cw TOD lines.txt > count.txt", False),
    ("grep-count/t2-regex-trap", "fgrep -c 'a.b*c' lines.txt > count.txt", True),
    ("grep-count/t2-regex-trap", "egrep -c 'a.b*c' lines.txt > count.txt", False),
    ("grep-count/t0-plain", "grep -oE 'T[A-Z]+' lines.txt | sort | uniq -c | awk '{print $1}' > count.txt", True),
    ("grep-count/t0-plain", "grep TODO lines.txt | sed -n '$=' > count.txt", True),
    # a reader the model does not follow (ls -l, cat -A) leaves the files known: its output alone is not
    ("write-file/t0-plain", "printf 'hello world\\n' > out.txt && ls -la", True),
    ("write-file/t0-plain", "printf 'hello world\\n' > out.txt; cat -A out.txt", True),
    ("write-file/t0-plain", "echo hello > out.txt; ls -l --time-style=long-iso", False),
    ("bulk-rename/t1-spaces", "for f in *.txt; do mv -- \"$f\" \"done_$f\"; done; ls -la", True),
    ("write-file/t0-plain", "printf 'hello world\\n' > out.txt; stat out.txt; md5sum out.txt; file out.txt", True),
    # (read from stdin, md5sum takes the rest of the script: under the stdin transport nothing follows)
    ("write-file/t0-plain", "md5sum\nprintf 'hello world\\n' > out.txt", True),
    ("write-file/t0-plain", "umask 022; printf 'hello world\\n' > out.txt", True),
    # `[[ -f ]]`: bash refuses the line, and keeps the status it had (here 0: silent-wrong, or 1)
    ("write-file/t0-plain", "echo hi > out.txt\n[[ -f ]]", False),
    ("write-file/t0-plain", "echo hi > out.txt; false\n[[ -z ]]", False),
    ("bulk-rename/t1-spaces", "for f in *.txt; do if [[ -f \"$f\" ]]; then mv \"$f\" \"done_$f\"; fi; done", True),
    # `[[ ]]`: bash refuses it without a word, and nothing after it runs; under nested the outer
    # shell makes `[[ $x ]]` that, and `[[ $line == … ]]` a line bash refuses (the status stays 0)
    ("write-file/t0-plain", "printf 'hello world\\n' > out.txt\n[[ ]]\nrm out.txt", True),
    ("write-file/t0-plain", "x=''; printf 'hello world\\n' > out.txt; [[ $x ]] || rm out.txt", False),
    ("grep-count/t0-plain", "n=0; while IFS= read -r line; do [[ $line == *TODO* ]] && ((n++)); done < lines.txt; "
                            "echo $n > count.txt", True),
    # awk: an octal escape in a regex, and ENVIRON (HOME differs under ssh: read, it is followed)
    ("grep-count/t1-apostrophe", "awk '/don\\047t panic/ {n++} END {print n+0}' lines.txt > count.txt", True),
    ("field-lookup/t3-backslash", "KEY='back\\slash \"q\"' awk -F'\\t' '$1 == ENVIRON[\"KEY\"] {print $2}' "
                                  "data.tsv > out.txt", True),
    ("field-lookup/t0-plain", "awk -F'\\t' 'BEGIN { h = ENVIRON[\"HOME\"] } $1 == \"alpha\" { print $2 h }' "
                              "data.tsv > out.txt", False),
    # command -v and type -t: what bash finds for a name
    ("write-file/t0-plain", "command -v printf >/dev/null && printf 'hello world\\n' > out.txt", True),
    ("json-write/t0-plain", "if command -v jq >/dev/null 2>&1; then jq -n '{message: \"hello\"}' > config.json; "
                            "else echo 'no jq'; fi", True),
    ("write-file/t0-plain", "[ \"$(type -t printf)\" = builtin ] && printf 'hello world\\n' > out.txt", True),
    # find -delete, rm -v, and coreutils' printf run by find -exec and xargs
    ("hostile-filenames/t2-glob-name", "find . -maxdepth 1 -name '\\*.txt' -delete", True),
    ("hostile-filenames/t2-glob-name", "find . -name '*.txt' -delete", False),
    ("hostile-filenames/t2-glob-name", "rm -v ./\\*.txt && ls", True),
    ("find-glob/t3-multi-trap", "find tree -type f -name '*.log' -exec printf '%s\\n' {} + | LC_ALL=C sort > list.txt", True),
    ("find-glob/t2-spaces", "find tree -type f -name '*.log' -print0 | xargs -0 printf '%s\\n' | LC_ALL=C sort > list.txt",
     True),
    # a sort between the listing and the loop: the listing is done before the loop renames
    ("bulk-rename/t1-spaces", "find . -maxdepth 1 -name '*.txt' | sort | while IFS= read -r f; do "
                              "mv \"$f\" \"done_${f#./}\"; done", True),
    ("bulk-rename/t1-spaces", "ls *.txt | sort -r | while read f; do mv \"$f\" \"done_$f\"; done", True),
    ("bulk-rename/t1-spaces", "ls *.txt | sort | while read f; do mv $f done_$f; done", False),
    ("bulk-rename/t1-spaces", "ls -1 | grep '\\.txt$' | while IFS= read -r f; do mv \"$f\" \"done_$f\"; done", True),
    # grep -P: PCRE's \t, \b, lookarounds and lazy quantifiers
    ("grep-count/t0-plain", "grep -cP '\\bTODO\\b' lines.txt > count.txt", True),
    ("grep-count/t2-regex-trap", "grep -cP 'a\\.b\\*c' lines.txt > count.txt", True),
    ("grep-count/t2-regex-trap", "grep -cP 'a.b*c' lines.txt > count.txt", False),
    ("field-lookup/t0-plain", "grep -P '^alpha\\t' data.tsv | cut -f2 > out.txt", True),
    ("field-lookup/t0-plain", "grep -oP '(?<=^alpha\\t).*' data.tsv > out.txt", True),
    ("field-lookup/t0-plain", "grep -oP '^alpha\\t\\K.*' data.tsv > out.txt", True),
    ("field-lookup/t1-apostrophe", "grep -P \"^o'brien\\t\" data.tsv | cut -f2 > out.txt", True),
    ("field-lookup/t2-dollar", "grep -P '^\\$5 fee\\t' data.tsv | cut -f2 > out.txt", True),
    ("grep-count/t0-plain", "awk '/TODO/ {c[$1]++} END {for (k in c) n++; print n}' lines.txt > count.txt", True),
    ("grep-count/t0-plain", "awk '{c[$2]++} END {for (k in c) print c[k], k}' lines.txt | sort -k2 | "
                            "awk '$2 == \"TODO\" {print $1}' > count.txt", True),
    # data.tsv: alpha's second column is vf24021
    ("field-lookup/t0-plain", "sort -t \"$(printf '\\t')\" -k1,1 data.tsv | head -1 | cut -f2 > out.txt", True),
    ("field-lookup/t0-plain", "sort -k2 data.tsv | head -1 | cut -f2 > out.txt", False),
    ("field-lookup/t0-plain", "sort -k2,2r data.tsv | head -1 | cut -f2 > out.txt", True),
    # data.txt: alpha on lines 2 and 4 of 5
    ("sed-replace/t0-plain", "sed -i '/alpha/{s/alpha/omega/}' data.txt", True),
    ("sed-replace/t0-plain", "sed -i '2{s/alpha/omega/};4{s/alpha/omega/}' data.txt", True),
    ("sed-replace/t0-plain", "sed -i '2{s/alpha/omega/' data.txt", False),  # unmatched {
    ("sed-replace/t0-plain", "sed -i '$a extra' data.txt && sed -i 's/alpha/omega/g;$d' data.txt", True),
    ("sed-replace/t0-plain", "sed -i '1i top' data.txt; sed -i 's/alpha/omega/g' data.txt", False),
    ("sed-replace/t0-plain", "sed -i '/alpha/c value: omega' data.txt", False),  # the parentheses go
    ("sed-replace/t0-plain", "sed -i 'y/a/A/' data.txt", False),
    # GNU's addresses: 0,/re/ (the first match only), first~step, addr,+N, addr,~N
    ("sed-replace/t0-plain", "sed -i '0,/alpha/s/alpha/omega/' data.txt", False),
    ("sed-replace/t0-plain", "sed -i '0,/alpha/s/alpha/omega/;4s/alpha/omega/' data.txt", True),
    ("sed-replace/t0-plain", "sed -i '2~2s/alpha/omega/' data.txt", True),
    ("sed-replace/t0-plain", "sed -i '1~2s/alpha/omega/' data.txt", False),
    ("sed-replace/t0-plain", "sed -i '/primary/,+2s/alpha/omega/' data.txt", True),
    ("sed-replace/t0-plain", "sed -i '/primary/,~3s/alpha/omega/' data.txt", False),
    # perl -pi -e: its substitutions
    ("sed-replace/t0-plain", "perl -pi -e 's/alpha/omega/g' data.txt", True),
    ("sed-replace/t0-plain", "perl -pi -e 's/alpha/omega/' data.txt", True),
    ("sed-replace/t0-plain", "perl -pi.bak -e 's/alpha/omega/g' data.txt", False),  # data.txt.bak is stray
    ("sed-replace/t0-plain", "perl -pi -e 's/(\\w+): alpha/$1: omega/' data.txt", True),
    ("sed-replace/t2-slashes", "perl -pi -e 's#src/main\\.c#build/out\\\\main.o#g' data.txt", True),
    ("sed-replace/t2-slashes", "perl -pi -e 's/src\\/main\\.c/build\\/out\\main.o/g' data.txt", False),
    ("sed-replace/t1-apostrophe", "perl -pi -e \"s/user's data/admin's data/g\" data.txt", True),
    # quotes inside the program: the transports keep it, cut it short (perl's compile error) or break the line
    ("sed-replace/t1-apostrophe", "perl -pi -e 's/user'\\''s data/admin'\\''s data/g' data.txt", True),
    ("sed-replace/t3-gnarly", "perl -pi -e 's/price = \"\\$4\" & up/price = '\\''\\$5'\\'' & down/g' data.txt", True),
    # ls in another form, to check what was written: its status decides what follows
    ("write-file/t0-plain", "printf 'hello world\\n' > out.txt && ls -la && ls -l out.txt", True),
    ("write-file/t0-plain", "ls -l out.txt 2>/dev/null || printf 'hello world\\n' > out.txt", True),
    ("write-file/t0-plain", "printf 'hello world\\n' > out.txt; ls -lh nope && rm out.txt", True),
    ("write-file/t0-plain", "printf 'hello world\\n' > out.txt; ls -ld . > /dev/null && rm out.txt", False),
    # checksums and dumps to check it, cmp and diff against what was meant
    ("write-file/t0-plain", "printf 'hello world\\n' > out.txt && md5sum out.txt && od -c out.txt && stat out.txt", True),
    # a checksum of a missing name fails, after the line for the one it read
    ("write-file/t0-plain", "printf 'hello world\\n' > out.txt && sha256sum out.txt nope || rm out.txt", False),
    ("write-file/t0-plain", "printf 'hello world\\n' > out.txt; md5sum out.txt nope > /tmp/sums 2>&1 || echo failed", True),
    ("write-file/t0-plain", "printf 'hello world\\n' > out.txt; printf 'hello  world\\n' > /tmp/e; "
                            "cmp -s /tmp/e out.txt || rm out.txt", False),
    ("sed-replace/t0-plain", "cp data.txt /tmp/orig; sed -i 's/alpha/omega/g' data.txt; diff -u /tmp/orig data.txt "
                             "&& cp /tmp/orig data.txt", True),
    # python3's csv reader (the real _csv over the model's files)
    ("field-lookup/t0-plain", "python3 -c \"import csv\nwith open('data.tsv', newline='') as f, open('out.txt', 'w') as o:\n"
                              "    for row in csv.reader(f, delimiter='\\t'):\n        if row[0] == 'alpha':\n"
                              "            o.write(row[1] + '\\n')\"", True),
    ("field-lookup/t3-backslash", "python3 - <<'EOF'\nimport csv\nwith open('data.tsv', newline='') as f, "
                                  "open('out.txt', 'w') as o:\n    for row in csv.reader(f, delimiter='\\t'):\n"
                                  "        if row[0] == 'back\\\\slash \"q\"':\n            print(row[1], file=o)\nEOF", True),
    ("field-lookup/t1-apostrophe", "python3 -c 'import csv,sys\nw = open(\"out.txt\", \"w\")\nfor k, v in "
                                   "csv.reader(open(\"data.tsv\"), dialect=\"excel-tab\"):\n"
                                   "    if k == sys.argv[1]: w.write(v + \"\\n\")' \"o'brien\"", True),
    # dd copies its input whole; its statistics (with a time) go to stderr, which decides nothing here
    ("write-file/t0-plain", "echo hello world | dd of=out.txt status=none", True),
    ("write-file/t0-plain", "echo hello world | dd of=out.txt", True),
    ("write-file/t0-plain", "echo hello world > out.txt; echo J | dd of=out.txt conv=notrunc 2>/dev/null", False),
]
TRANSPORTS = ("raw", "nested", "single", "stdin")


class TestTextToolReplies(ListedReplies):
    REPLIES = REPLIES
    TRANSPORTS = TRANSPORTS
