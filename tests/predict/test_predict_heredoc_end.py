"""A script that ends inside a here-document's body: bash warns, and reads the last line as a
whole one, its newline added (`bash -c $'cat <<EOF\\nabc'` prints `abc` and a newline), for
every kind of delimiter. After a lone backslash there bash 5.2 adds the byte 0xff: unknown."""

from predicting import ListedReplies
from qbcore.predict import predict

WRITE = "write-file/t0-plain"

REPLIES = [
    (WRITE, "cat > out.txt <<EOF\nhello world", True),
    (WRITE, "cat > out.txt <<'EOF'\nhello world", True),
    (WRITE, "cat > out.txt <<-EOF\n\thello world", True),
    (WRITE, "cat > out.txt <<-\"EOF\"\nhello world", True),
    (WRITE, "w=world; cat > out.txt <<EOF\nhello $w", True),
    (WRITE, "cat > out.txt <<EOF\nhello $(echo world)", True),
    (WRITE, "cat > out.txt <<EOF\nhello world\n", True),
    (WRITE, "cat > out.txt <<EOF\nhello\nworld", False),
    (WRITE, "cat > out.txt <<EOF\n", False),
    (WRITE, "cat > out.txt <<'EOF'\nhello world\\", False),
]


class TestScriptsEndingInsideABody(ListedReplies):
    REPLIES = REPLIES
    TRANSPORTS = ("raw", "nested", "script", "stdin")


def test_a_lone_backslash_at_the_end_is_unknown():
    found = predict(WRITE, "cat > out.txt <<EOF\nhello world\\", "raw")
    assert not found.certain and "here-document" in found.why


# inside $( ) bash 5.2 ends a body at a line that starts with its delimiter and goes on (`EOF)`),
# warns, and reads the rest of the line as commands (measured): unknown, under every transport
DELIMITER_LINES = [("env-passing/t0-plain", "MSG=$(cat <<'EOF'\nplainvalue\nEOF) ./check_env"),
                   ("git-commit/t0-plain", "git add newfile.txt && git commit -m \"$(cat <<'EOF'\nadd feature\nEOF)\""),
                   (WRITE, "x=$(cat <<EOF\nhello world\nEOFX)\necho \"$x\" > out.txt")]


def test_a_delimiter_that_starts_a_longer_line_in_a_substitution_is_unknown():
    for task, reply in DELIMITER_LINES:
        for transport in ("raw", "nested", "ssh", "stdin"):
            found = predict(task, reply, transport)
            assert not found.certain, (task, reply, transport, found.why)


# such a line after a syntax error that comes before the operator: bash stops at the error
# and never reads the body (nested: the reply's double quotes end the outer string early)
AFTER_AN_ERROR = [(WRITE, "python3 -c \"import sys; sys.stdout.write(open('/dev/stdin').read())\" $(pwd) > out.txt "
                          "<<'EOF'\nhello world\nEOF", True),
                  # (nested: the operator lies in the outer shell's double quotes, `$(` only after it)
                  ("write-file/t3-gnarly", "python3 - <<EOF\ntext = \"back\\\\\\\\slash and \\`date\\` here\\n'single' "
                   "\\\"double\\\" \\$(pwd) 100%\\n\"\nopen(\"out.txt\", \"w\").write(text)\nEOF", True)]


class TestADelimiterLineAfterASyntaxError(ListedReplies):
    REPLIES = AFTER_AN_ERROR
    TRANSPORTS = ("raw", "nested")


def test_a_delimiter_line_after_a_syntax_error_is_decided():
    for task, reply, _ in AFTER_AN_ERROR:
        assert predict(task, reply, "nested").certain
