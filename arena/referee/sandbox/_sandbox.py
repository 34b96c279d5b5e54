"""Running a stranger's bot in its own Linux namespaces, without any privilege.

A sandboxed bot process (``process`` and ``command`` hosts, with
``limits.sandbox``) runs in its own pid, network, IPC, UTS, cgroup and mount namespaces:

- its own cgroup namespace: ``/proc/self/cgroup`` names no cgroup of arena's;
- its own pid namespace: it sees only its own processes in ``/proc`` and the
  namespace's first process, the launcher that keeps it (:func:`arena.referee.sandbox._jail.keep`);
  when the referee kills it, everything it started dies with it (a child that called
  ``setsid`` included: the namespace ends with its first process, which the bot cannot
  reach);
- no network: only a loopback interface that is down;
- a file system built for it, read-only: every folder of the machine but the
  tournament's private paths (its output folder and config) and the cgroup tree
  (:data:`ABSENT`), which are not there at all (no mount covers them, so
  ``/proc/self/mountinfo`` does not name them); a private ``/tmp`` and
  ``/dev/shm`` (its scratch space, each of at most ``tmp_mb``, gone when it
  ends), beside which what the bot needs to start that lies under ``/tmp`` (a
  checkout, a virtual environment, an import path there) is shown read-only;
- no privilege: when arena runs as root, the bot runs as uid and gid 65534,
  65534 outside too (a user namespace arena makes, :func:`_userns`; a folder closed
  to that uid on the way to what the bot needs is made anew, showing only the way),
  with no capability left (bounding set included) and ``no_new_privs``, so no
  mount can be undone; and a seccomp filter refuses file locks, leases and
  notifications, keyrings, io_uring, sockets but TCP/IP ones, anonymous memory files,
  ``ptrace``, new namespaces and mounts
  (:mod:`arena.referee.sandbox._jail`, the last step into the sandbox).

Bubblewrap (``bwrap``, Debian package ``bubblewrap``) builds it when it works
here; else util-linux ``unshare`` (which needs root) gives the namespaces and
the launcher builds the same file system itself. ``ARENA_SANDBOX=bwrap``,
``unshare`` or ``none`` forces a mechanism. The resource limits
(``RLIMIT_AS``, CPU, files, output size, and the bot's memory cgroup where there is
one: its first process joins it before it starts the sandbox) apply as without a
sandbox.
docs/security.md describes what is and is not contained.
"""

from __future__ import annotations

import ctypes
import functools
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence

from ._layout import ABSENT, BOT_UID, Step, _under_tmp, layout

__all__ = [
    "ABSENT",
    "BOT_UID",
    "MECHANISM_ENV",
    "WRITABLE_ENV",
    "SandboxUnavailable",
    "layout",
    "mechanism",
    "sandbox_argv",
    "sandbox_fds",
    "unavailable_reason",
]

MECHANISM_ENV = "ARENA_SANDBOX"
"""Forces a mechanism: ``bwrap``, ``unshare`` or ``none`` (no sandbox); unset, the first
of bubblewrap and ``unshare`` that works here."""

WRITABLE_ENV = "ARENA_SANDBOX_WRITABLE"
"""Folders (``os.pathsep``-separated) that sandboxed bots may write to, when an organiser
wants to give them one."""

JAIL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_jail.py")
"""The launcher that drops privileges, filters system calls and runs the bot."""

class SandboxUnavailable(RuntimeError):
    """The sandbox was asked for and this machine cannot give it."""


@functools.cache
def _userns() -> int | None:
    """As root, a user namespace in which :data:`BOT_UID` is :data:`BOT_UID` outside too
    (uid and gid), made once per process: the descriptor of it that the mechanisms enter,
    so that a bot reads by permission only what every user may (never a file of root's
    mode 0600, such as another run's ``secret-seed``). Root is root there, for the
    launchers that build the sandbox (they read what they show as root does); the bot,
    without a capability and with ``no_new_privs``, can never become it. None when arena
    is not root, or the kernel refuses (root of a container that may not map uids):
    then the bot's uid maps to the user who runs arena, as the kernel allows."""
    if os.geteuid() != 0:
        return None
    libc = ctypes.CDLL(None, use_errno=True)

    def unshare() -> None:
        if libc.unshare(0x10000000) != 0:  # CLONE_NEWUSER
            raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWUSER)")

    try:
        helper = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                  preexec_fn=unshare)  # in its namespace once it runs cat
    except (OSError, subprocess.SubprocessError):
        return None  # root without the right to (a container's): as the kernel allows
    try:
        for name in ("uid_map", "gid_map"):
            with open(f"/proc/{helper.pid}/{name}", "w") as file:
                file.write(f"0 0 1\n{BOT_UID} {BOT_UID} 1\n")
        return os.open(f"/proc/{helper.pid}/ns/user", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    finally:
        assert helper.stdin is not None
        helper.stdin.close()
        helper.wait()


def sandbox_fds() -> tuple[int, ...]:
    """The descriptors a sandboxed program's launcher must inherit (the user namespace
    arena made, as root): ``pass_fds`` of its ``subprocess.Popen``."""
    userns = _userns() if mechanism() is not None else None
    return () if userns is None else (userns,)


def _bwrap_argv(bwrap: str, steps: Sequence[Step], root: bool) -> list[str]:
    # A user namespace in which the bot is uid 65534 with no capability (as root too:
    # bubblewrap would keep root's otherwise): the mounts belong to it, and it cannot
    # undo them. The launcher is the pid namespace's first process, where bubblewrap's
    # own would be outside the filter: it keeps the bot (_jail.keep).
    # As root, arena's user namespace (_userns) instead, in which bubblewrap stays root,
    # with its capabilities there (it would set the uid before the gid, which then fails):
    # the launcher drops them and becomes 65534.
    userns = _userns() if root else None
    argv = [bwrap, *(["--userns", str(userns)] if userns is not None else [
        "--unshare-user", "--uid", str(BOT_UID), "--gid", str(BOT_UID)]),
            "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--die-with-parent", "--as-pid-1"]
    if root and userns is None:
        argv += ["--cap-drop", "ALL"]
    for step in steps:
        kind = str(step[0])
        if kind == "tmpfs":
            argv += ["--perms", "1777"]
            if step[2]:
                argv += ["--size", str(step[2])]
            argv += ["--tmpfs", str(step[1])]
        elif kind == "cover":  # an empty folder or file, read-only, over a private path
            path = str(step[1])
            argv += (["--perms", "0555", "--size", "4096", "--tmpfs", path, "--remount-ro", path]
                     if os.path.isdir(path) else ["--ro-bind", "/dev/null", path])
        elif kind in ("dev", "proc", "dir", "remount-ro"):
            argv += [f"--{kind}", str(step[1])]
        elif kind == "ro-bind":  # a path gone since the layout was drawn is simply absent
            argv += ["--ro-bind-try", str(step[1]), str(step[2])]
        else:  # bind (an output folder: it must be there), symlink
            argv += [f"--{kind}", str(step[1]), str(step[2])]
    return [*argv, "--remount-ro", "/", "--"]


def _jail(layout_steps: Sequence[Step] | None) -> list[str]:
    spec = {"layout": None if layout_steps is None else [list(s) for s in layout_steps],
            "cwd": os.getcwd(), "uid": BOT_UID, "gid": BOT_UID}
    return [sys.executable, "-I", "-S", JAIL, json.dumps(spec), "--"]


def _unshare_argv(unshare: str) -> list[str]:
    # A user namespace first, so that the others belong to it: the launcher, uid 65534
    # there with that namespace's capabilities (--keep-caps), builds the file system,
    # then drops every capability before the bot runs. As root, the namespace is
    # arena's (_userns), entered as its root; the launcher becomes 65534. A cgroup
    # namespace, as
    # bubblewrap's --unshare-cgroup-try: /proc/self/cgroup names no arena cgroup.
    userns = _userns()
    enter = ([shutil.which("nsenter") or "nsenter", f"--user=/proc/self/fd/{userns}", "--",
              unshare] if userns is not None
             else [unshare, "--user", f"--map-user={BOT_UID}", f"--map-group={BOT_UID}",
                   "--keep-caps"])
    return [*enter, "--pid", "--fork", "--kill-child", "--net", "--ipc", "--uts",
            "--cgroup", "--mount", "--propagation", "private", "--"]


def _argv(kind: str, steps: Sequence[Step]) -> list[str]:
    if kind == "bwrap":
        return [*_bwrap_argv(shutil.which("bwrap") or "bwrap", steps, os.geteuid() == 0),
                *_jail(None)]
    return [*_unshare_argv(shutil.which("unshare") or "unshare"), *_jail(steps)]


def _try(kind: str) -> str | None:
    """Why ``kind`` cannot sandbox a bot here (one line), or None if a trivial sandboxed
    program runs and finds itself without privilege."""
    program = "bwrap" if kind == "bwrap" else "unshare"
    if shutil.which(program) is None:
        return (f"{program} is not installed" + (" (apt-get install bubblewrap)"
                                                 if kind == "bwrap" else ""))
    check = ("import os, sys; s = open('/proc/self/status').read(); "
             "sys.exit(0 if 'CapEff:\t0000000000000000' in s and "
             "(os.getuid() != 0 or not os.geteuid() == 0) else 3)")
    try:
        steps = layout((), (), needed_under_tmp([sys.executable]), 1 << 20,
                       needed([sys.executable]))
        argv = [*_argv(kind, steps), sys.executable, "-I", "-S", "-c", check]
        userns = _userns()
        done = subprocess.run(argv, capture_output=True, timeout=20, stdin=subprocess.DEVNULL,
                              pass_fds=() if userns is None else (userns,))
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{program} did not run: {exc}"
    if done.returncode == 3:
        return f"under {program} the bot would keep root or a capability"
    if done.returncode != 0:
        lines = done.stderr.decode(errors="replace").strip().splitlines()
        return f"{program} failed: " + (lines[-1] if lines else f"exit status {done.returncode}")
    return None


@functools.cache
def _probe(choice: str) -> tuple[str | None, str]:
    """(the mechanism, or None; why not, for each that was tried)."""
    if choice in ("none", "off"):
        return None, f"{MECHANISM_ENV}={choice}"
    if choice and choice not in ("bwrap", "unshare"):
        return None, f"{MECHANISM_ENV}={choice!r} is not one of bwrap, unshare, none"
    reasons = []
    for kind in [choice] if choice else ["bwrap", "unshare"]:
        why = _try(kind)
        if why is None:
            return kind, ""
        reasons.append(why)
    return None, "; ".join(reasons)


def mechanism() -> str | None:
    """``"bwrap"`` or ``"unshare"``: the sandbox this machine can give, or ``None``.

    Found once per process (per value of ``ARENA_SANDBOX``; ``_probe.cache_clear()``
    forgets) by starting a trivial sandboxed program that must find itself without
    privilege.
    """
    return _probe(os.environ.get(MECHANISM_ENV, "").strip().lower())[0]


def unavailable_reason() -> str | None:
    """One line saying why this machine cannot sandbox bots, or None when it can."""
    kind, why = _probe(os.environ.get(MECHANISM_ENV, "").strip().lower())
    return None if kind else f"no sandbox on this machine: {why}"


def needed_under_tmp(program: Sequence[str] = ()) -> list[str]:
    """What a bot needs to start that lies under ``/tmp``, which the sandbox replaces.

    The working directory (the bot starts there), the Python installation and the
    import path that process bots get (``sys.path`` and the folders of the packages an
    editable install serves, :func:`arena.referee.sandbox._import_path.import_path`), the
    launcher, the folders on ``PATH`` (a bot's ``PATH``, as ``clean_environment``
    passes it on), and the folder of each word of ``program`` that names an existing
    file or folder; only those under ``/tmp``, outermost first, each once.
    """
    keep: list[str] = []
    for path in needed(program):
        if (_under_tmp(path) and path != "/tmp"
                and not any(path.startswith(k + "/") or path == k for k in keep)):
            keep.append(path)
    return keep


def needed(program: Sequence[str] = ()) -> list[str]:
    """What a bot needs to start, wherever it lies (see :func:`needed_under_tmp`): real
    paths, shortest first, each once."""
    from ._import_path import import_path

    found: list[str] = [os.getcwd(), sys.prefix, sys.base_prefix, os.path.dirname(JAIL),
                        os.path.dirname(os.path.realpath(sys.executable)), *import_path()]
    found += [p for p in os.environ.get("PATH", os.defpath).split(os.pathsep)
              if os.path.isabs(p) and os.path.isdir(p)]  # where a command's programs are
    for word in program:
        path = os.path.abspath(word)
        if os.path.isdir(path):
            found.append(path)
        elif os.path.exists(path):
            found.append(os.path.dirname(path))
    return sorted({os.path.realpath(p) for p in found}, key=len)


def sandbox_argv(private: Sequence[str] = (), writable: Sequence[str] | None = None,
                 program: Sequence[str] = (), tmp_mb: int | None = None) -> list[str]:
    """The command prefix that runs a program in the sandbox.

    ``private`` paths are absent from the program's file system; ``writable`` paths
    stay writable (an organiser's choice, e.g. a data folder; default: those in
    ``ARENA_SANDBOX_WRITABLE``). ``program`` is the command line to run: what it names
    under ``/tmp`` stays visible, read-only, beside the private ``/tmp`` (see
    :func:`needed_under_tmp`). ``tmp_mb`` bounds the private ``/tmp`` and
    ``/dev/shm`` (each; ``None``: unbounded). Raises :class:`SandboxUnavailable`
    (with :func:`unavailable_reason`) when this machine has no sandbox.
    """
    kind = mechanism()
    if kind is None:
        raise SandboxUnavailable(unavailable_reason() or "no sandbox on this machine")
    if writable is None:
        writable = os.environ.get(WRITABLE_ENV, "").split(os.pathsep)
    private = [os.path.abspath(p) for p in private if p]
    writable = [os.path.abspath(p) for p in writable if p]
    steps = layout(private, writable, needed_under_tmp(program),
                   None if tmp_mb is None else int(tmp_mb) << 20,
                   needed(program) if _userns() is not None else ())
    return _argv(kind, steps)
