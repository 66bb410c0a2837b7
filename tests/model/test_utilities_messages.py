"""A file's name in a utility's message, quoted as that utility quotes it: coreutils' shell
escaping (``'a'$'\\n''b'``), the locale quoting of mkdir and find (``'a\\nb'``), sed's bare
name; each against the real utility."""

import pytest

from utilities_diff import compare

NAMES = ["a b", "it's", "a\nb", "a\\b", 'a"b', "caf\u00e9", "$x", "\t", "'\n", "a\n'b", "a\x7f", "n\x01", "#' ~", "%[ 'a"]
FORMS = [["mv", "{}", "z"], ["cp", "{}", "z"], ["rm", "{}"], ["cat", "{}"], ["sed", "p", "{}"],
         ["sed", "-i", "p", "{}"], ["grep", "x", "{}"], ["touch", "no/{}"], ["head", "{}"], ["tail", "{}"],
         ["wc", "{}"], ["mkdir", "x/{}"], ["mkdir", "-p", "x/{}"], ["ln", "-s", "x", "no/{}"], ["sort", "{}"],
         ["cut", "-c1", "{}"], ["ls", "{}"], ["find", "{}"], ["chmod", "+x", "{}"], ["uniq", "{}"],
         ["mv", "x", "no/{}"], ["cp", "-r", "d", "x/{}"], ["awk", "1", "{}"], ["tr", "a", "b", "{}"]]
CASES = [[w.replace("{}", name) for w in form] for form in FORMS for name in NAMES]




def _left_unknown(argv):
    """ls's messages about a name with a backslash or a control character, and awk's about a
    non-ASCII name, are not modelled;
    gnulib's shell escaping writes a name with an apostrophe before such a character at its
    end in two passes that disagree (``no/'<newline>``), and may cut a message short."""
    name = argv[-1]
    if argv[0] == "ls":
        return "\\" in name or any(c < " " or c == "\x7f" for c in name)
    if argv[0] == "awk":  # the awk model leaves non-ASCII data alone
        return not name.isascii()
    return argv[0] not in ("mkdir", "find", "sed") and any(w.endswith("'\n") and len(w) > 2 for w in argv)


@pytest.mark.parametrize("argv", CASES, ids=[repr(c)[:60] for c in CASES])
def test_a_name_in_a_message_is_quoted_as_the_utility_does(argv):
    assert compare(argv, {"x": b"one\n", "d": None, "d/f": b""}, b"in\n") is (None if _left_unknown(argv) else True)


# getopt prints an option in its message as it is, a quote too (`ls: invalid option -- '''`); the
# models that read their options through common.refuse_invalid_option spell it, the others leave
# such an option unknown
QUOTE_OPTIONS = [[program, option, "x"] for program in ("ls", "cut", "head", "tail", "mv", "cp", "rm", "rmdir",
                                                        "stat", "sort", "grep", "sed")
                 for option in ("-'", "--a'b")]
SPELLED = {("ls", "-'"), ("mv", "-'"), ("cp", "-'"), ("rm", "-'"), ("rmdir", "-'"), ("grep", "-'"), ("sed", "-'")}


@pytest.mark.parametrize("argv", QUOTE_OPTIONS, ids=[repr(c)[:60] for c in QUOTE_OPTIONS])
def test_an_option_with_a_quote_in_a_message_is_printed_as_it_is(argv):
    found = compare(argv, {"x": b"one\n", "d": None, "d/f": b""}, b"in\n")
    assert found is (True if tuple(argv[:2]) in SPELLED else None)
