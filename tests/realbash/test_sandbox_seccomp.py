"""The seccomp program, run through a small classic-BPF interpreter for every case it decides.

The sandbox tests show the filter at work in the kernel (ptrace, unshare and
mount fail); these pin each decision, for both architectures, without one.
"""

import errno
import struct

import pytest

from qbcore.realbash import seccomp

ALLOW, KILL = 0x7FFF0000, 0x80000000
EPERM, ENOSYS = 0x00050000 | errno.EPERM, 0x00050000 | errno.ENOSYS
X86_64, AARCH64, I386 = seccomp.AUDIT_ARCH_X86_64, seccomp.AUDIT_ARCH_AARCH64, 0x40000003


def decide(nr: int, arch: int, arg0: int = 0) -> int:
    """Run the program on one struct seccomp_data."""
    data = struct.pack("<iIQ6Q", nr, arch, 0, arg0, 0, 0, 0, 0, 0)
    program = seccomp.program()
    code = [struct.unpack_from("=HBBI", program, at) for at in range(0, len(program), 8)]
    pc, acc = 0, 0
    for _ in range(len(code) + 1):
        op, jt, jf, k = code[pc]
        if op == 0x20:  # ld [k]
            acc = struct.unpack_from("<I", data, k)[0]
            pc += 1
        elif op == 0x15:  # jeq
            pc += 1 + (jt if acc == k else jf)
        elif op == 0x35:  # jge
            pc += 1 + (jt if acc >= k else jf)
        elif op == 0x45:  # jset
            pc += 1 + (jt if acc & k else jf)
        elif op == 0x06:  # ret
            return k
        else:
            raise AssertionError(f"unexpected opcode {op:#x}")
    raise AssertionError("the program did not return")


@pytest.mark.parametrize("name", sorted(seccomp.DENIED))
def test_every_denied_call_fails_with_eperm_on_both_architectures(name):
    for arch, column in ((X86_64, 0), (AARCH64, 1)):
        number = seccomp.DENIED[name][column]
        if number is not None:
            assert decide(number, arch) == EPERM, (name, hex(arch))


@pytest.mark.parametrize("nr_x86, nr_arm", [(0, 63), (1, 64), (59, 221), (57, 1079 - 1079 + 220)])
def test_ordinary_calls_are_allowed(nr_x86, nr_arm):
    # read, write, execve, and fork / clone without flags
    assert decide(nr_x86, X86_64) == ALLOW
    assert decide(nr_arm, AARCH64, 17) == ALLOW  # clone(SIGCHLD)


@pytest.mark.parametrize("flag", [0x10000000, 0x20000000, 0x00020000, 0x40000000, 0x08000000, 0x04000000,
                                  0x02000000, 0x80])
def test_clone_and_unshare_with_a_namespace_flag_are_refused(flag):
    for arch, clone, unshare in ((X86_64, 56, 272), (AARCH64, 220, 97)):
        assert decide(clone, arch, flag | 17) == EPERM
        assert decide(unshare, arch, flag) == EPERM
    # threads: CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | ...
    assert decide(56, X86_64, 0x3D0F00) == ALLOW
    assert decide(272, X86_64, 0x400) == ALLOW  # unshare(CLONE_FILES)


def test_clone3_falls_back_and_foreign_abis_end_the_process():
    assert decide(435, X86_64) == ENOSYS and decide(435, AARCH64) == ENOSYS
    assert decide(0x40000000 + 1, X86_64) == KILL  # x32
    assert decide(26, I386) == KILL  # i386 ptrace through int 0x80
    assert len(seccomp.program()) % 8 == 0 and len(seccomp.program()) // 8 < 4096
