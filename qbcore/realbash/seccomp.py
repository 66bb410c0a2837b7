"""The sandbox's seccomp filter, as a classic BPF program built here (no libseccomp needed).

A reply must not inspect or steer another process (ptrace, process_vm_*,
pidfd_getfd), make namespaces of its own (unshare, clone or setns with a
CLONE_NEW* flag), mount anything, or reach kernel facilities a shell never
needs (keyrings, bpf, perf, modules, io_uring...). Those calls fail with
EPERM; a call from a foreign ABI (i386 or x32 on x86_64) ends the process,
so no second syscall table slips past the filter. The program is handed to
bubblewrap's ``--seccomp FD`` or installed with prctl by the zygote.
"""

from __future__ import annotations

import errno
import platform
import struct

__all__ = ["program", "DENIED", "NAMESPACE_FLAGS"]

# struct seccomp_data: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6]
_NR, _ARCH, _ARG0_LOW = 0, 4, 16

_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JGE_K = 0x35
_JSET_K = 0x45
_RET_K = 0x06

_ALLOW = 0x7FFF0000
_KILL_PROCESS = 0x80000000


def _errno(number: int) -> int:
    return 0x00050000 | number


AUDIT_ARCH_X86_64 = 0xC000003E
AUDIT_ARCH_AARCH64 = 0xC00000B7
_X32_BIT = 0x40000000

# CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME
NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x80

# name -> (x86_64 number, aarch64 number); None where the call does not exist
DENIED = {
    "ptrace": (101, 117), "process_vm_readv": (310, 270), "process_vm_writev": (311, 271),
    "pidfd_getfd": (438, 438), "kcmp": (312, 272), "process_madvise": (440, 440),
    "setns": (308, 268), "mount": (165, 40), "umount2": (166, 39), "pivot_root": (155, 41),
    "chroot": (161, 51), "open_tree": (428, 428), "move_mount": (429, 429), "fsopen": (430, 430),
    "fsconfig": (431, 431), "fsmount": (432, 432), "fspick": (433, 433), "mount_setattr": (442, 442),
    "keyctl": (250, 219), "add_key": (248, 217), "request_key": (249, 218), "bpf": (321, 280),
    "perf_event_open": (298, 241), "userfaultfd": (323, 282), "kexec_load": (246, 104),
    "kexec_file_load": (320, 294), "init_module": (175, 105), "finit_module": (313, 273),
    "delete_module": (176, 106), "reboot": (169, 142), "swapon": (167, 224), "swapoff": (168, 225),
    "acct": (163, 89), "syslog": (103, 116), "quotactl": (179, 60), "lookup_dcookie": (212, 18),
    "name_to_handle_at": (303, 264), "open_by_handle_at": (304, 265), "iopl": (172, None),
    "ioperm": (173, None), "io_uring_setup": (425, 425), "io_uring_enter": (426, 426),
    "io_uring_register": (427, 427), "settimeofday": (164, 170), "clock_settime": (227, 112),
    "adjtimex": (159, 171), "clock_adjtime": (305, 266), "vhangup": (153, 58),
}
# allowed unless the flags (first argument) ask for a new namespace
_FLAG_CHECKED = {"unshare": (272, 97), "clone": (56, 220)}
# its flags sit in a struct the filter cannot read: ENOSYS makes libc fall back to clone
_NOT_IMPLEMENTED = {"clone3": (435, 435)}

_ARCHES = ((AUDIT_ARCH_X86_64, 0), (AUDIT_ARCH_AARCH64, 1))


class _Assembler:
    """Instructions with symbolic jump targets, resolved to BPF's forward offsets."""

    def __init__(self):
        self.code: list[tuple[int, object, object, int]] = []
        self.labels: dict[str, int] = {}

    def label(self, name: str):
        self.labels[name] = len(self.code)

    def op(self, code: int, k: int = 0, jt: object = 0, jf: object = 0):
        self.code.append((code, jt, jf, k))

    def assemble(self) -> bytes:
        out = bytearray()
        for index, (code, jt, jf, k) in enumerate(self.code):
            offsets = []
            for target in (jt, jf):
                offset = self.labels[target] - index - 1 if isinstance(target, str) else target
                if not 0 <= offset <= 255:
                    raise ValueError("seccomp jump out of range")
                offsets.append(offset)
            out += struct.pack("=HBBI", code, offsets[0], offsets[1], k)
        return bytes(out)


def program(deny_errno: int = errno.EPERM) -> bytes:
    """The filter for x86_64 and aarch64 (struct sock_filter[], native byte order)."""
    asm = _Assembler()
    asm.op(_LD_W_ABS, _ARCH)
    for arch, _ in _ARCHES:
        asm.op(_JEQ_K, arch, f"arch{arch}", 0)
    asm.op(_RET_K, _KILL_PROCESS)
    for arch, column in _ARCHES:
        asm.label(f"arch{arch}")
        asm.op(_LD_W_ABS, _NR)
        if arch == AUDIT_ARCH_X86_64:
            asm.op(_JGE_K, _X32_BIT, "kill", 0)
        # the busiest calls (read, write, open, mmap...) have the lowest numbers: allow them at once
        lowest = min(numbers[column] for table in (DENIED, _NOT_IMPLEMENTED, _FLAG_CHECKED)
                     for numbers in table.values() if numbers[column] is not None)
        asm.op(_JGE_K, lowest, 0, f"allow{arch}")
        for numbers in DENIED.values():
            if numbers[column] is not None:
                asm.op(_JEQ_K, numbers[column], "deny", 0)
        for numbers in _NOT_IMPLEMENTED.values():
            asm.op(_JEQ_K, numbers[column], "enosys", 0)
        for numbers in _FLAG_CHECKED.values():
            asm.op(_JEQ_K, numbers[column], "flags", 0)
        asm.label(f"allow{arch}")
        asm.op(_RET_K, _ALLOW)
    asm.label("flags")
    asm.op(_LD_W_ABS, _ARG0_LOW)
    asm.op(_JSET_K, NAMESPACE_FLAGS, "deny", 0)
    asm.op(_RET_K, _ALLOW)
    asm.label("deny")
    asm.op(_RET_K, _errno(deny_errno))
    asm.label("enosys")
    asm.op(_RET_K, _errno(errno.ENOSYS))
    asm.label("kill")
    asm.op(_RET_K, _KILL_PROCESS)
    return asm.assemble()


def supported() -> bool:
    """True on the machines the filter knows the syscall numbers of."""
    return platform.machine() in ("x86_64", "aarch64")
