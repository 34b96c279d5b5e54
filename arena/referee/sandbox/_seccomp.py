"""The seccomp filter of the sandbox: what a bot's processes may not ask the kernel.

Used by the launcher (:mod:`arena.referee.sandbox._jail`, which loads this module from its own
folder: it imports only the standard library), never by the referee itself. The filter
(:func:`seccomp_program`) refuses the system calls through which two bots could share
a kernel object (file locks and leases, file notifications, keyrings, io_uring, sockets
but TCP/IP ones, anonymous memory files), reach another process (``ptrace`` and its
kin) or undo the sandbox (new namespaces, mounts).
"""

from __future__ import annotations

import ctypes
import os
import platform
import struct

EPERM = 1
ENOSYS = 38

# -- the seccomp filter ----------------------------------------------------------------

_ARCH = {  # machine: (AUDIT_ARCH_*, {name: number})
    "x86_64": (0xC000003E, {
        "fcntl": 72, "flock": 73, "inotify_init": 253, "inotify_init1": 294,
        "fanotify_init": 300, "add_key": 248, "request_key": 249, "keyctl": 250,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
        "unshare": 272, "setns": 308, "clone": 56, "clone3": 435, "mount": 165,
        "umount2": 166, "pivot_root": 155, "open_tree": 428, "move_mount": 429,
        "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
        "userfaultfd": 323, "perf_event_open": 298, "bpf": 321, "cachestat": 451,
        "preadv2": 327, "pwritev2": 328, "socket": 41, "ptrace": 101,
        "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312, "pidfd_getfd": 438,
        "memfd_create": 319, "memfd_secret": 447,
    }),
    "aarch64": (0xC00000B7, {
        "fcntl": 25, "flock": 32, "inotify_init1": 26, "fanotify_init": 262,
        "add_key": 217, "request_key": 218, "keyctl": 219, "io_uring_setup": 425,
        "io_uring_enter": 426, "io_uring_register": 427, "unshare": 97, "setns": 268,
        "clone": 220, "clone3": 435, "mount": 40, "umount2": 39, "pivot_root": 41,
        "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
        "fspick": 433, "mount_setattr": 442, "userfaultfd": 282, "perf_event_open": 241,
        "bpf": 280, "cachestat": 451, "preadv2": 286, "pwritev2": 287, "socket": 198,
        "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271, "kcmp": 272,
        "pidfd_getfd": 438, "memfd_create": 279, "memfd_secret": 447,
    }),
}

DENY = (
    # file locks and leases (a byte range locked by one bot is seen by another that can
    # read the same file), and notifications of another's opens and reads
    "flock", "inotify_init", "inotify_init1", "fanotify_init",
    # keyrings (the user keyring is shared by every process of one uid), io_uring (its
    # operations are not filtered here), and what only undoes or probes the sandbox
    "add_key", "request_key", "keyctl", "io_uring_setup", "io_uring_enter",
    "io_uring_register", "unshare", "setns", "mount", "umount2", "pivot_root", "open_tree",
    "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr", "userfaultfd",
    "perf_event_open", "bpf", "cachestat",
    # another process's memory, registers and files (the sandbox's first process is
    # the bot's keeper, which it must not steer), and memory outside every file system
    # (anonymous files: the private /tmp and /dev/shm are bounded, these are not)
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    "memfd_create", "memfd_secret",
)
"""System calls refused outright (``EPERM``)."""

FCNTL_DENY = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)
"""``fcntl`` commands refused: ``F_GETLK``, ``F_SETLK``, ``F_SETLKW``, ``F_OFD_GETLK``,
``F_OFD_SETLK``, ``F_OFD_SETLKW``, ``F_SETLEASE``, ``F_GETLEASE``, ``F_NOTIFY``."""

SOCKET_ALLOW = (2, 10)
"""Socket families allowed (``AF_INET``, ``AF_INET6``: the bot's network namespace has
only a loopback interface that is down); every other is refused: Unix sockets (a
daemon's, shared by every bot), netlink, ``AF_VSOCK`` (the virtual machine's host),
``AF_PACKET``, ``AF_ALG``... Pairs (``socketpair``) stay possible."""

CLONE_NEW = 0x7E020080
"""``clone`` flags that make namespaces (``CLONE_NEWNS`` ... ``CLONE_NEWTIME``): refused."""

RWF_NOWAIT = 0x8
"""``preadv2``/``pwritev2`` flag that tells whether a page is cached: refused."""

_RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000
_RET_KILL = 0x80000000  # SECCOMP_RET_KILL_PROCESS


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


_LD = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JSET = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_JGE = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_RET = 0x06  # BPF_RET | BPF_K


def seccomp_program(machine: str | None = None) -> bytes:
    """The filter for this machine's architecture, as ``struct sock_filter`` bytes.

    Raises ``KeyError`` for an architecture it does not know."""
    arch, numbers = _ARCH[machine or platform.machine()]
    out: list[bytes] = []

    def ret(value: int) -> None:
        out.append(_insn(_RET, value))

    # seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8 * i (low 32 bits, little endian)
    out.append(_insn(_LD, 4))
    out.append(_insn(_JEQ, arch, 1, 0))
    ret(_RET_KILL)  # another ABI (a 32-bit one) would have other numbers
    out.append(_insn(_LD, 0))
    if arch == 0xC000003E:
        out.append(_insn(_JGE, 0x40000000, 0, 1))  # the x32 ABI
        ret(_RET_KILL)
    for name in DENY:
        if name in numbers:
            out.append(_insn(_JEQ, numbers[name], 0, 1))
            ret(_RET_ERRNO | EPERM)
    out.append(_insn(_JEQ, numbers["clone3"], 0, 1))
    ret(_RET_ERRNO | ENOSYS)  # its flags lie in memory, out of reach: libc falls back to clone
    # fcntl with a lock, lease or notification command
    out.append(_insn(_JEQ, numbers["fcntl"], 0, len(FCNTL_DENY) + 3))
    out.append(_insn(_LD, 16 + 8))
    for i, cmd in enumerate(FCNTL_DENY):
        out.append(_insn(_JEQ, cmd, len(FCNTL_DENY) - i, 0))
    ret(_RET_ALLOW)
    ret(_RET_ERRNO | EPERM)
    # clone with a namespace flag
    out.append(_insn(_JEQ, numbers["clone"], 0, 4))
    out.append(_insn(_LD, 16))
    out.append(_insn(_JSET, CLONE_NEW, 0, 1))
    ret(_RET_ERRNO | EPERM)
    ret(_RET_ALLOW)
    # a socket of another family than SOCKET_ALLOW's
    out.append(_insn(_JEQ, numbers["socket"], 0, 2 + 2 * len(SOCKET_ALLOW)))
    out.append(_insn(_LD, 16))
    for family in SOCKET_ALLOW:
        out.append(_insn(_JEQ, family, 0, 1))
        ret(_RET_ALLOW)
    ret(_RET_ERRNO | EPERM)
    # preadv2 / pwritev2 with RWF_NOWAIT (flags: the sixth argument)
    for name in ("preadv2", "pwritev2"):
        out.append(_insn(_JEQ, numbers[name], 0, 4))
        out.append(_insn(_LD, 16 + 8 * 5))
        out.append(_insn(_JSET, RWF_NOWAIT, 0, 1))
        ret(_RET_ERRNO | EPERM)
        ret(_RET_ALLOW)
    ret(_RET_ALLOW)
    return b"".join(out)


class _Fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def install_filter(libc: ctypes.CDLL) -> None:
    """``no_new_privs``, then the seccomp filter, for this process and all it starts."""
    _check(libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    program = seccomp_program()
    buffer = ctypes.create_string_buffer(program, len(program))
    prog = _Fprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    _check(libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0),
           "seccomp")
