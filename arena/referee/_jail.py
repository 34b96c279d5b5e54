"""The last step into the sandbox: lay out the file system, drop every privilege, filter
system calls, then run the bot and keep it.

Run as ``python -I -S _jail.py SPEC -- PROGRAM...`` inside the namespaces that
bubblewrap or ``unshare`` made, as the first program there (pid 1 of the bot's pid
namespace: bubblewrap runs with ``--as-pid-1``). It imports only the
standard library (it runs before the bot's import path exists) and is not
imported by arena: :mod:`arena.referee._sandbox` builds its ``SPEC`` (JSON):

- ``layout``: the file system to build under the ``unshare`` fallback (a list of
  steps, as bubblewrap's options would; ``null`` under bubblewrap, which built it);
- ``cwd``: where the bot starts (``/`` if that folder is not in the sandbox);
- ``uid``, ``gid``: whom the bot runs as, should this run as root (it does not
  when the namespaces are made as they are: then it is that uid already).

It runs in a user namespace of its own, as uid and gid 65534 there, with the
capabilities of that namespace (bubblewrap has dropped them already). Then every
capability leaves the bounding, effective, permitted, inheritable and ambient
sets, so that no mount made for the sandbox can be undone; ``no_new_privs``; and
a seccomp filter (:data:`DENY`) that refuses the system calls through which two
bots could share a kernel object (file locks and leases, file notifications,
keyrings, io_uring, sockets but TCP/IP ones, anonymous memory files), reach
another process (``ptrace`` and its kin) or undo the sandbox (new namespaces,
mounts). Whatever fails ends the start with one line on stderr (the bot's output
tail) and exit status 126: no bot runs with less containment than asked for.

Then it stays, under the same filter, as the namespace's first process: the bot is
its child, and every process of the bot dies when it ends (:func:`keep`).
"""

from __future__ import annotations

import ctypes
import json
import os
import platform
import signal
import struct
import sys

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
_PR_CAPBSET_READ = 23
_PR_CAPBSET_DROP = 24
_PR_CAP_AMBIENT = 47
_PR_CAP_AMBIENT_CLEAR_ALL = 4


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


def _last_cap() -> int:
    try:
        with open("/proc/sys/kernel/cap_last_cap") as file:
            return int(file.read())
    except (OSError, ValueError):
        return 63


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def drop_privileges(libc: ctypes.CDLL, uid: int, gid: int) -> None:
    """No capability left anywhere (bounding set included), so that nothing can give one
    back; as root, become ``uid``/``gid`` too."""
    for cap in range(_last_cap() + 1):
        if libc.prctl(_PR_CAPBSET_READ, cap, 0, 0, 0) == 1:
            _check(libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0), f"dropping capability {cap}")
    _check(libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "ambient caps")
    if os.geteuid() == 0:
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    _check(libc.capset(ctypes.byref(header), data), "clearing capabilities")


# -- the file system under unshare -----------------------------------------------------

_MS_RDONLY = 1
_MS_NOSUID = 2
_MS_NODEV = 4
_MS_NOEXEC = 8
_MS_REMOUNT = 32
_MS_BIND = 4096
_MS_REC = 16384
_MNT_DETACH = 2
_AT_RECURSIVE = 0x8000
_MOUNT_ATTR_RDONLY = 1
_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}
_MOUNT_SETATTR = 442

_OLD = "/oldroot"
_NEW = "/newroot"


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


class _Mounter:
    def __init__(self, libc: ctypes.CDLL) -> None:
        self.libc = libc

    def mount(self, source: str | None, target: str, fstype: str | None, flags: int,
              data: str | None = None) -> None:
        def enc(text: str | None) -> bytes | None:
            return None if text is None else os.fsencode(text)

        _check(self.libc.mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags),
                               enc(data)), f"mount {target}")

    def read_only(self, target: str, recursive: bool) -> None:
        attr = _MountAttr(_MOUNT_ATTR_RDONLY, 0, 0, 0)
        flags = _AT_RECURSIVE if recursive else 0
        done = self.libc.syscall(_MOUNT_SETATTR, -100, os.fsencode(target), flags,
                                 ctypes.byref(attr), ctypes.sizeof(attr))
        if done != 0:  # a kernel before 5.12: the mount itself, not what lies below it
            self.mount(None, target, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID
                       | _MS_NODEV)

    def pivot(self, new: str, old: str) -> None:
        number = _PIVOT_ROOT[platform.machine()]
        _check(self.libc.syscall(number, os.fsencode(new), os.fsencode(old)), "pivot_root")


def _dest(path: str, like: str) -> str:
    """Make ``path`` under the new root, a folder or an empty file as ``like`` is."""
    target = _NEW + path
    if os.path.isdir(like):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.lexists(target):
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT, 0o644))
    return target


def build(layout: list[list[object]], libc: ctypes.CDLL) -> None:
    """Build the file system of ``layout`` as the root of this mount namespace.

    As bubblewrap does: a tmpfs over ``/tmp`` becomes the root for a moment, the
    host's tree is under ``/oldroot`` and the new one is built in ``/newroot``,
    which then becomes the root; the host's tree is detached, so nothing outside
    the layout remains reachable or listed in ``/proc/self/mountinfo``.
    """
    m = _Mounter(libc)
    m.mount(None, "/", None, _MS_REC | (1 << 18))  # MS_PRIVATE: nothing leaks back out
    m.mount("tmpfs", "/tmp", "tmpfs", _MS_NOSUID | _MS_NODEV, "mode=0755,size=1m")
    os.chdir("/tmp")
    os.mkdir("newroot")
    os.mkdir("oldroot")
    m.pivot("/tmp", "/tmp/oldroot")
    os.chdir("/")
    m.mount("tmpfs", _NEW, "tmpfs", _MS_NOSUID | _MS_NODEV, "mode=0755")
    for step in layout:
        _lay(m, step)
    os.chdir(_NEW)
    m.pivot(".", ".")  # the new root over the old one, then the old one detached
    _check(libc.umount2(b".", _MNT_DETACH), "detaching the host's file system")
    os.chdir("/")
    m.read_only("/", recursive=False)


def _lay(m: _Mounter, step: list[object]) -> None:
    """One step of a layout, in ``/newroot``, its sources under ``/oldroot``."""
    kind = step[0]
    if kind in ("ro-bind", "bind"):
        source, path = _OLD + str(step[1]), str(step[2])
        if kind == "ro-bind" and not os.path.lexists(source):
            return  # gone since the layout was drawn (a neighbour's folder): simply absent
        target = _dest(path, source)
        m.mount(source, target, None, _MS_BIND | _MS_REC)
        if kind == "ro-bind":
            m.read_only(target, recursive=True)
    elif kind == "dir":
        os.makedirs(_NEW + str(step[1]), mode=0o755, exist_ok=True)
    elif kind == "symlink":
        os.makedirs(os.path.dirname(_NEW + str(step[2])), exist_ok=True)
        os.symlink(str(step[1]), _NEW + str(step[2]))
    elif kind == "tmpfs":
        target = _NEW + str(step[1])
        os.makedirs(target, exist_ok=True)
        size = f",size={int(step[2])}" if step[2] else ""  # type: ignore[call-overload]
        m.mount("tmpfs", target, "tmpfs", _MS_NOSUID | _MS_NODEV, "mode=1777" + size)
    elif kind == "proc":
        target = _NEW + str(step[1])
        os.makedirs(target, exist_ok=True)
        m.mount("proc", target, "proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC)
    elif kind == "dev":
        _dev(m, _NEW + str(step[1]))
    elif kind == "cover":
        target = _NEW + str(step[1])
        if os.path.isdir(target):
            m.mount("tmpfs", target, "tmpfs", _MS_NOSUID | _MS_NODEV, "mode=0555,size=4k")
            m.read_only(target, recursive=False)
        else:
            m.mount(f"{_OLD}/dev/null", target, None, _MS_BIND)
            m.read_only(target, recursive=False)
    elif kind == "remount-ro":
        m.read_only(_NEW + str(step[1]), recursive=False)
    else:
        raise ValueError(f"unknown layout step {kind!r}")


def _dev(m: _Mounter, target: str) -> None:
    """A small ``/dev``: the host's harmless nodes bound in, and the links to ``/proc``."""
    os.makedirs(target, exist_ok=True)
    m.mount("tmpfs", target, "tmpfs", _MS_NOSUID, "mode=0755,size=64k")
    for node in ("null", "zero", "full", "random", "urandom", "tty"):
        host = f"{_OLD}/dev/{node}"
        if os.path.exists(host):
            os.close(os.open(f"{target}/{node}", os.O_WRONLY | os.O_CREAT, 0o666))
            m.mount(host, f"{target}/{node}", None, _MS_BIND)
    for name, link in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                       ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
        os.symlink(link, f"{target}/{name}")


_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_NAME = 15

KEEPER_NAME = b"arena-jail"
"""The keeper's process name (``/proc/PID/comm``), by which the referee's clocks know it
for a launcher, as ``bwrap`` and ``unshare`` (:data:`arena.referee._proctimes.LAUNCHERS`)."""


def keep(libc: ctypes.CDLL, program: list[str]) -> int:
    """Run ``program`` as this process's child and stay the sandbox's first process, its
    keeper, until that child ends; then end with its status (``128 + N`` for signal N).

    The kernel kills every process of a pid namespace when its first process ends, so
    the bot lives exactly as long as the keeper: which dies with the launcher that
    started it (its parent-death signal, set again here since the change of uid cleared
    it), which the referee kills. The bot cannot undo that: the keeper is not dumpable
    (no ``ptrace``, no ``/proc/1/mem``, no file descriptor of it for a process without
    a capability; the filter refuses ``ptrace`` anyway), a signal sent to it from inside
    its namespace is dropped unless it handles it, and it handles none; it reaps every
    orphan of the namespace.
    """
    _check(libc.prctl(_PR_SET_PDEATHSIG, 9, 0, 0, 0), "parent-death signal")
    _check(libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0), "not dumpable")
    libc.prctl(_PR_SET_NAME, KEEPER_NAME, 0, 0, 0)
    child = os.fork()
    if child == 0:
        try:
            os.execvp(program[0], program)
        except OSError as exc:
            sys.stderr.write(f"arena sandbox: cannot run {program[0]!r}: {exc}\n")
        os._exit(127)
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(number, signal.SIG_IGN)
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:  # pragma: no cover - the child is ours until reaped
            return 127
        if pid == child:
            return (128 + os.WTERMSIG(status) if os.WIFSIGNALED(status)
                    else os.WEXITSTATUS(status))


def main(argv: list[str]) -> int:
    try:
        spec = json.loads(argv[1])
        program = argv[3:] if argv[2] == "--" else []
        if not program:
            raise ValueError("no program to run")
        libc = ctypes.CDLL(None, use_errno=True)
        if spec.get("layout") is not None:
            build(spec["layout"], libc)
        try:
            os.chdir(spec.get("cwd") or "/")
        except OSError:
            os.chdir("/")
        drop_privileges(libc, int(spec.get("uid", 65534)), int(spec.get("gid", 65534)))
        install_filter(libc)
        return keep(libc, program)
    except (OSError, ValueError, KeyError, IndexError) as exc:
        sys.stderr.write(f"arena sandbox: cannot contain the bot: {exc}\n")
        return 126


if __name__ == "__main__":
    sys.exit(main(sys.argv))
