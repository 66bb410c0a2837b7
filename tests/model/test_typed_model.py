"""The model's records and state, typed by .pxd files in the compiled build, behave as
their source says on both engines; an edited .pxd makes its module's build stale."""

import hashlib
from importlib.machinery import EXTENSION_SUFFIXES

import pytest

from qbcore._switch import STAMP_SUFFIX, extension_of, source_sha256
from qbcore.model.evaluate import CommandRecord, RedirectRecord, _Walker, evaluate
from qbcore.model.expand import Env, Fields, Variable
from qbcore.model.values import Opaque
from qbcore.syntax.parser import parse_prefix


def test_a_module_stamp_covers_its_pxd(tmp_path):
    source = tmp_path / "model.py"
    source.write_text("x = 1\n")
    # without a .pxd the stamp is the source's own digest: builds made before stay valid
    assert source_sha256(source) == hashlib.sha256(b"x = 1\n").hexdigest()
    built = tmp_path / ("model" + EXTENSION_SUFFIXES[0])
    built.write_bytes(b"")
    (tmp_path / "model.pxd").write_text("cdef class A:\n    cdef public object x\n")
    (tmp_path / (built.name + STAMP_SUFFIX)).write_text(source_sha256(source) + "\n")
    assert extension_of(str(source)) == (str(built), None)
    (tmp_path / "model.pxd").write_text("cdef class A:\n    cdef readonly object x\n")  # edited after the build
    assert extension_of(str(source))[0] is None and "older source" in extension_of(str(source))[1]


def test_records_are_frozen_values():
    assert Opaque("$x") == Opaque("$x") and hash(Opaque("$x")) == hash(Opaque("$x"))
    assert {Opaque("$x"): 1}[Opaque("$x")] == 1
    assert Fields(("a",), ()) == Fields(("a",), ()) and Fields(("a",), ()).exact
    record = RedirectRecord(">", None, "f", "/t/f", True, True, None, True)
    for value, name in ((Opaque("$x"), "name"), (Fields((), ()), "values"), (record, "path")):
        with pytest.raises(AttributeError):
            setattr(value, name, None)
    assert repr(Opaque("$x")) == "Opaque(name='$x')"


def test_a_command_record_reads_as_written():
    env = Env.default("/tmp", host=False)
    result = evaluate(parse_prefix("x=1 echo hi >/dev/null"), env)
    (record,) = result.commands
    assert isinstance(record, CommandRecord)
    assert (record.argv, record.assignments, record.exact, record.text) == (
        ("echo", "hi"), (("x", "1"),), True, "x=1 echo hi >/dev/null")


def test_a_shell_state_carries_what_its_users_add_and_its_copy_is_its_own():
    env = Env.default("/tmp", host=False)
    env.effects = "kept"  # the effect model carries its own state on an Env
    env.set("a", {0: "x"})
    env.set("s", "v")
    copy = env.copy()
    copy.vars["a"].value[1] = "y"  # an array's elements belong to one shell
    copy.set("s", "w")
    assert env.get("a") == {0: "x"} and env.get("s") == "v" and isinstance(env.vars["s"], Variable)


def test_a_subclass_of_the_walker_keeps_its_own_attributes():
    walkers = []

    class Counting(_Walker):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.commands_seen = 0  # an attribute the typed walker does not declare
            walkers.append(self)

        def command(self, node):
            self.commands_seen += 1
            return super().command(node)

    env = Env.default("/tmp", host=False)
    result = evaluate(parse_prefix("true; false"), env, walker=Counting)
    assert [c.argv for c in result.commands] == [("true",), ("false",)] and result.status == 1
    assert [w.commands_seen for w in walkers] == [2]
