"""A redirection that fails is reported where the redirections before it put stderr, predicted
and executed."""

from predicting import certain_disagreements, execute

W = "write-file/t0-plain"
HELLO = "echo hello world > out.txt"

# bash reports a redirection that fails where the redirections before it put stderr: in err
FAILED_REDIRECTIONS = [f"echo x 2>err > {path}; [ -s err ] && {HELLO}; rm err" for path in ("nope/x", "out.txt/x")] + [
    f"{{ echo x; }} 2>err > nope/y; [ -s err ] && {HELLO}; rm err", f"echo x 2>err > nope/x; cat err > out.txt",
    f"echo x 2>/dev/null > nope/x; {HELLO}", f"echo x 2>&1 > nope/x | cat > out.txt"]


def test_a_failed_redirection_s_message_goes_where_the_redirections_before_it_put_stderr():
    cases = [(W, reply, transport) for reply in FAILED_REDIRECTIONS for transport in ("raw", "script")]
    wrong = certain_disagreements(cases, execute(cases))
    assert not wrong, "\n".join(wrong)
