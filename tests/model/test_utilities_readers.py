"""Readers whose status the model knows without their text (checksums, dumps, stat without a format) and cmp
and diff of two files, against the real tools: status, stdout where it is spelled, stderr."""

import shutil

import pytest

from utilities_diff import compare

FILES = {"a": b"hello world\n", "b": b"hello  world\n", "a2": b"hello world\n", "bin1": b"\0\1", "bin2": b"\0\2",
         "empty": b"", "d": None, "d/in": b"x"}

CASES = [
    ["md5sum", "a"], ["md5sum", "a", "b", "empty"], ["sha256sum", "-b", "a"], ["sha1sum", "--", "a"], ["b2sum", "a"],
    ["cksum", "a", "b"], ["od", "-c", "a"], ["od", "-x", "bin1"], ["nl", "a"], ["base64", "a"], ["base32", "bin1"],
    ["strings", "a"], ["stat", "a", "empty"], ["stat", "d"], ["stat", "a", "nope"], ["hexdump", "-C", "a"], ["xxd", "a"], ["xxd", "-p", "bin1"],
    ["cmp", "a", "a2"], ["cmp", "a", "b"], ["cmp", "-s", "a", "b"], ["cmp", "bin1", "bin2"],
    ["diff", "a", "a2"], ["diff", "a", "b"], ["diff", "-u", "a", "b"], ["diff", "-q", "a", "b"], ["diff", "bin1", "bin2"],
    ["diff", "a", "a"], ["diff", "-c", "empty", "a"],
    # a checksum goes on past a name it cannot read, with the message, and fails
    ["md5sum", "nope"], ["md5sum", "d"], ["sha256sum", "a", "nope", "d"], ["cksum", "nope", "a"],
    ["b2sum", "x y", "it's"], ["sha1sum", "-b", "d/in", "d/nope", "a/x"],
    ["cksum", "d", "a", "nope"],  # cksum's CRC reads a folder as empty
    # not followed: a missing name or a folder for the others, stdin, another option, a second input
    # where it writes or refuses
    ["od", "-c", "nope"], ["nl", "d"], ["md5sum", "a", "-"], ["od", "-An", "a"], ["md5sum", "-c", "a"],
    ["cmp", "a", "nope"], ["diff", "a", "d"], ["diff", "-b", "a", "b"], ["xxd", "a", "out"], ["base32", "a", "b"],
    ["md5sum"],
]
UNKNOWN = {("od", "-c", "nope"), ("nl", "d"), ("md5sum", "a", "-"), ("od", "-An", "a"), ("md5sum", "-c", "a"),
           ("cmp", "a", "nope"), ("diff", "a", "d"), ("diff", "-b", "a", "b"), ("xxd", "a", "out"),
           ("base32", "a", "b"), ("md5sum",)}


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c)[:60] for c in CASES])
def test_table(argv):
    assert shutil.which(argv[0]) is not None, f"{argv[0]} is not installed (.ci/run installs it)"
    got = compare(argv, FILES, b"from stdin\n")
    assert got is (None if tuple(argv) in UNKNOWN else True)
