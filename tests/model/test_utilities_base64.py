"""GNU base64's model against base64 itself (coreutils 9.1): encoding with its wraps, decoding
of base64 and of input that is not (what it still writes, the message, the status), its
options, operands and messages, and generated input of both kinds."""

import base64

import pytest
from hypothesis import given, settings, strategies as st

from tests_settings import examples
from utilities_diff import compare

FILES = {"a": b"hello world\n", "enc": b"aGVsbG8gd29ybGQK\n", "bad": b"aGk", "empty": b"", "d": None,
         "bin": bytes(range(256)), "binenc": base64.encodebytes(bytes(range(256)))}

# (argv, stdin)
CASES = [
    (["base64"], b"hello world\n"), (["base64"], b""), (["base64", "a"], b""), (["base64", "-"], b"hi"),
    (["base64", "bin"], b""), (["base64", "-w", "0", "bin"], b""), (["base64", "-w0"], b"hi"),
    (["base64", "-w", "2"], b"abc"), (["base64", "-w", "1"], b"hi"), (["base64", "--wrap=3"], b"hello"),
    (["base64", "-w", "076", "bin"], b""), (["base64", "-w", "99999999999999999999", "bin"], b""),
    (["base64", "-w", "4"], b"abcdef"),
    (["base64", "-d"], b"aGVsbG8gd29ybGQK\n"), (["base64", "-d", "enc"], b""), (["base64", "-d", "binenc"], b""), (["base64", "--decode"], b"aGk="),
    (["base64", "-d"], b"aGk=aGk="), (["base64", "-d"], b"aG\nk=\n"), (["base64", "-d"], b""),
    (["base64", "-d"], b"\n\n"), (["base64", "-d"], b"aGl="),
    # not base64: the bytes its blocks still give, then the message
    (["base64", "-d"], b"aGk"), (["base64", "-d"], b"aG"), (["base64", "-d"], b"a"), (["base64", "-d"], b"aG k="),
    (["base64", "-d"], b"aGk=="), (["base64", "-d"], b"===="), (["base64", "-d"], b"aGk=x"), (["base64", "-d"], b"=aGk"),
    (["base64", "-d"], b"aGk=\r\n"), (["base64", "-d"], b"aGVsbG8*d29ybGQK"), (["base64", "-d", "bad"], b""),
    (["base64", "-d"], b"aG=k"), (["base64", "-d"], b"aGk=\xc3\xa9"), (["base64", "-d", "bin"], b""),
    # -i drops what is not base64 first
    (["base64", "-di"], b"aG!k=\r\n"), (["base64", "-d", "-i"], b"aGk"), (["base64", "-d", "--ignore-garbage"], b"a G k ="),
    (["base64", "-i"], b"hi"), (["base64", "-d", "-w", "3"], b"aGk="),
    # operands and options refused
    (["base64", "nope"], b""), (["base64", "-d", "nope"], b""), (["base64", "d"], b""), (["base64", "-d", "d"], b""),
    (["base64", "a", "b"], b""), (["base64", "-w", "x"], b""), (["base64", "-w", "-1"], b""), (["base64", "-w", ""], b""),
    (["base64", "-w"], b""), (["base64", "-w", "x", "a", "b"], b""), (["base64", "--", "-d"], b""),
]
UNKNOWN = [(["base64", "-w", " 5"], b"hi"), (["base64", "-w", "+5"], b"hi"), (["base64", "-w", "5x"], b"hi"),
           (["base64", "-w", "-0"], b"hi"), (["base64", "--help"], b""), (["base64", "-z"], b"")]


@pytest.mark.parametrize("argv, stdin", CASES, ids=[f"{' '.join(a)} <{s[:12]!r}" for a, s in CASES])
def test_table(argv, stdin):
    assert compare(argv, FILES, stdin) is True


@pytest.mark.parametrize("argv, stdin", UNKNOWN, ids=[" ".join(a) for a, _ in UNKNOWN])
def test_not_followed(argv, stdin):
    assert compare(argv, FILES, stdin) is None


OPTIONS = st.lists(st.sampled_from([["-d"], ["-i"], ["-w", "0"], ["-w", "1"], ["-w", "5"], ["-w76"]]), max_size=3)
# base64 text with what goes wrong in it: padding anywhere, blanks, a stray byte, newlines
TEXT = st.lists(st.sampled_from([b"aGk=", b"aGVs", b"bG8=", b"YQ==", b"Zm9v", b"=", b"\n", b" ", b"!", b"\r", b"a",
                                 b"QQ", b"/+", b"\xff"]), max_size=10).map(b"".join)


@settings(max_examples=examples(150), deadline=None)
@given(OPTIONS, st.one_of(st.binary(max_size=120), TEXT, st.binary(max_size=120).map(base64.encodebytes)))
def test_generated_input_matches_base64(options, stdin):
    assert compare(["base64", *[word for option in options for word in option]], {}, stdin) is True
