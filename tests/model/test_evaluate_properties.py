"""Property: whenever the model knows what printf and echo write, bash writes exactly that.

Formats and arguments are drawn from escapes, conversions, flags, widths,
invalid numbers and multi-byte text; each hypothesis example is a batch run
by one bash process (QBCORE_LONG=1 runs ten times more).
"""

import os

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import bashref

LONG = os.environ.get("QBCORE_LONG", "") not in ("", "0")
BATCH = 100
EXAMPLES = 150 if LONG else 15

FORMAT_PIECES = ["%s", "%d", "%5s", "%-4s|", "%b", "%q", "%c", "%x", "%%", "\\n", "\\t", "%05d", "%.2s", "%i", "%o",
                 "%X", "%u", "a", " ", "\\\\", "\\0101", "\\x41", "%*s", "%-*d", "%.0s", "\\c", "%+d", "% d", "%#x",
                 "%3.1s", "é", "\\351", "\\xe9", "\\'", "\\q", "%#o", "%.3d", "%08.2x", "%-05s", "%5%", "%",
                 "\\x", "\\u0041", "%.*s", "%+u", "%5c", "%.0c", "~", "#", ",", "\\\"", "\\?"]
ARGUMENTS = ["a", "'b c'", "12", "-3", "0x1f", "010", "\"'A\"", "''", "\\\\n", "'a\\tb'", "x=1", "'%s'", "é",
             "' 7'", "'1a'", "3.5", "'\\c'", "'\\351'", "'a~'", "'x,y'", "'#a'", "08", "0x", "' 5 '", "-5",
             "'\\u0041'", "$'\\x01'", "$'\\xe9'", "18446744073709551615"]
ECHO_WORDS = ["-n", "-e", "-E", "-ne", "a", "'b\\tc'", "'\\n'", "'\\0101'", "'\\x41'", "'\\c'", "--", "-", "'a  b'",
              "'\\e'", "é", "'\\u0041'", "'\\101'", "-nE", "'\\x'"]

PRINTF = st.tuples(st.lists(st.sampled_from(FORMAT_PIECES), min_size=1, max_size=4),
                   st.lists(st.sampled_from(ARGUMENTS), max_size=4)).map(
    lambda fa: "printf '" + "".join(fa[0]) + "' " + " ".join(fa[1]))
ECHO = st.lists(st.sampled_from(ECHO_WORDS), min_size=1, max_size=4).map(lambda ws: "echo " + " ".join(ws))
SCRIPT = st.one_of(PRINTF, ECHO).map(lambda s: s + '; echo "[$?]"')


@settings(max_examples=EXAMPLES, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(SCRIPT, min_size=BATCH, max_size=BATCH))
def test_known_output_agrees_with_bash(tmp_path_factory, batch):
    cwd = str(tmp_path_factory.mktemp("printf"))
    wrong = bashref.stdout_disagreements(batch, cwd=cwd)
    assert not wrong, "model vs bash:\n" + "\n".join(f"{s!r}: {m!r} != {b!r}" for s, m, b in wrong)
