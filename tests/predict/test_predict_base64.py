"""Replies that carry their bytes as base64 past every layer of quoting (`echo … | base64 -d
> f`), decoded as coreutils decodes them: text that survives the layers passes under every
transport; a payload cut short or damaged writes what its blocks still give, and fails."""

from predicting import ListedReplies, decided_share

WRITE_MIXED = "write-file/t2-mixed"
MIXED = "c2hlIHNhaWQgIml0J3MgZG9uZSwgJEhPTUUgc3RheXMiCg=="  # she said "it's done, $HOME stays"\n
JSON = "eyJtZXNzYWdlIjogIkhlIHNhaWQ6IFwibWl4ICRIT01FICYgQzpcXG5ld1wiICgxMDAlKSJ9Cg=="
DOC = "YmFsYW5jZTogJEhPTUUgYW5kIGB3aG9hbWlgCnNlY29uZCBsaW5lIGhlcmUK"
GREETING = "c2hlIHNhaWQgImRvbid0IHN0b3AifA=="  # she said "don't stop"|

# (task, reply, passes under raw)
REPLIES = [
    (WRITE_MIXED, f"echo {MIXED} | base64 -d > out.txt", True),
    (WRITE_MIXED, f"base64 -d <<< '{MIXED}' > out.txt", True),
    (WRITE_MIXED, f"printf '%s' {MIXED[:20]}'\n'{MIXED[20:]} | base64 --decode > out.txt", True),
    (WRITE_MIXED, f"base64 -d > out.txt <<'EOF'\n{MIXED[:40]}\n{MIXED[40:]}\nEOF", True),
    # padding lost: every byte, then the message and status 1; a block lost: the text cut short
    (WRITE_MIXED, f"echo {MIXED[:-2]} | base64 -d > out.txt", True),
    (WRITE_MIXED, f"echo {MIXED[:-5]} | base64 -d > out.txt", False),
    (WRITE_MIXED, f"echo {MIXED[:-2]} | base64 -d > out.txt || rm -f out.txt", False),
    (WRITE_MIXED, f"echo '{MIXED[:10]} {MIXED[10:]}' | base64 -di > out.txt", True),
    (WRITE_MIXED, f"echo '{MIXED[:10]} {MIXED[10:]}' | base64 -d > out.txt", False),
    (WRITE_MIXED, "printf '%s\\n' 'she said \"it'\\''s done, $HOME stays\"' | base64 -w 8 | base64 -d > out.txt",
     True),
    (WRITE_MIXED, "printf 'x' | base64 -w x > out.txt; echo done", False),
    ("json-write/t3-gnarly", f"echo {JSON} | base64 -d > config.json", True),
    ("heredoc-write/t1-expansion", f"echo {DOC} | base64 -d > doc.txt && wc -l doc.txt", True),
    ("ssh-nested/t2-double-quotes",
     f"./remote 'printf \"%s%s\\n\" \"$(echo {GREETING} | base64 -d)\" \"$REMOTE_TOKEN\" > greeting.txt'", True),
]
TRANSPORTS = ("raw", "nested", "single", "double-nested")


class TestBase64Payloads(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS


def test_every_listed_pair_is_decided():
    assert decided_share(REPLIES, TRANSPORTS) == 1.0
