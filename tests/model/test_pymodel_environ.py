"""os.environ of the python3 model: each value the program reads is told to the shell's
watchers (so a kept shell run is keyed by the values it read), and no way to a value passes
it unread."""

import copy

import pytest

from qbcore.model.pymodel.files import ProgramEnviron


class _Watched(dict):
    """A stand-in for the shell's environment that notes each value read."""

    def __init__(self, **values):
        super().__init__(**values)
        self.read = set()

    def __getitem__(self, name):
        self.read.add(name)
        return dict.__getitem__(self, name)

    def quiet(self):
        return dict(dict.items(self))


@pytest.mark.parametrize("use, read", [
    (lambda e: e["A"], {"A"}), (lambda e: e.get("B"), {"B"}), (lambda e: e.pop("A"), {"A"}),
    (lambda e: e.setdefault("Z", "z"), set()), (lambda e: ("A" in e, len(e), list(e), list(e.keys())), set()),
    (lambda e: dict(e), {"A", "B"}), (lambda e: {**e}, {"A", "B"}), (lambda e: e | {}, {"A", "B"}),
    (lambda e: repr(e), {"A", "B"}), (lambda e: e == {}, {"A", "B"}), (lambda e: list(e.items()), {"A", "B"}),
    (lambda e: list(e.values()), {"A", "B"}), (lambda e: e.copy(), {"A", "B"}), (lambda e: "%(A)s" % e, {"A"}),
    (lambda e: "{B}".format_map(e), {"B"}), (lambda e: copy.copy(e), {"A", "B"}),
])
def test_os_environ_tells_each_value_the_program_reads(use, read):
    """No way to a value of os.environ passes it unread (dict's own fast paths included)."""
    source = _Watched(A="1", B="2")
    use(ProgramEnviron(source))
    assert source.read == read
