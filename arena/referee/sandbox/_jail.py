"""The last step into the sandbox: lay out the file system, drop every privilege, filter
system calls, then run the bot and keep it.

Run as ``python -I -S _jail.py SPEC -- PROGRAM...`` inside the namespaces that
bubblewrap or ``unshare`` made, as the first program there (pid 1 of the bot's pid
namespace: bubblewrap runs with ``--as-pid-1``). It imports only the
standard library and its own folder's :mod:`arena.referee.sandbox._seccomp` (it runs before
the bot's import path exists) and is not imported by arena:
:mod:`arena.referee.sandbox._sandbox` builds its ``SPEC`` (JSON):

- ``layout``: the file system to build under the ``unshare`` fallback (a list of
  steps, as bubblewrap's options would; ``null`` under bubblewrap, which built it);
- ``cwd``: where the bot starts (``/`` if that folder is not in the sandbox);
- ``uid``, ``gid``: whom the bot runs as (under bubblewrap it is that uid already).

It runs in a user namespace of its own with that namespace's capabilities: as root,
one arena made (:func:`arena.referee.sandbox._sandbox._userns`), as root there; else as uid
and gid 65534 there (or bubblewrap has dropped them already). Then every
capability leaves the bounding, effective, permitted, inheritable and ambient
sets, so that no mount made for the sandbox can be undone; ``no_new_privs``; and
a seccomp filter (:mod:`arena.referee.sandbox._seccomp`) that refuses the system calls
through which two bots could share a kernel object (file locks and leases, file notifications,
keyrings, io_uring, sockets but TCP/IP ones, anonymous memory files), reach
another process (``ptrace`` and its kin) or undo the sandbox (new namespaces,
mounts). Whatever fails ends the start with one line on stderr (the bot's output
tail) and exit status 126: no bot runs with less containment than asked for.

Then it stays, under the same filter, as the namespace's first process: the bot is
its child, and every process of the bot dies when it ends (:func:`keep`).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import platform
import signal
import sys

try:
    from ._seccomp import install_filter
except ImportError:  # run as a script (python -I -S _jail.py): from its own folder
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _seccomp import install_filter  # type: ignore[import-not-found,no-redef]
    del sys.path[0]

_PR_CAPBSET_READ = 23
_PR_CAPBSET_DROP = 24
_PR_CAP_AMBIENT = 47
_PR_CAP_AMBIENT_CLEAR_ALL = 4


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


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
    back; become ``uid``/``gid``, with no supplementary group, too."""
    for cap in range(_last_cap() + 1):
        if libc.prctl(_PR_CAPBSET_READ, cap, 0, 0, 0) == 1:
            _check(libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0), f"dropping capability {cap}")
    _check(libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "ambient caps")
    # Whatever this process is in its user namespace (root there, in the one arena made
    # as root); the groups only where the namespace allows it (not where an unprivileged
    # user made it).
    with contextlib.suppress(PermissionError):
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
for a launcher, as ``bwrap`` and ``unshare``
(:data:`arena.referee.sandbox._proctimes.LAUNCHERS`)."""


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
