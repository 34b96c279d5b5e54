"""Running a stranger's bot in its own Linux namespaces.

A sandboxed bot process (``process`` and ``command`` hosts, with
``limits.sandbox``) runs in its own pid, network, IPC and mount namespaces:

- its own pid namespace: it sees only its own processes in ``/proc``, and
  when the referee kills it, everything it started dies with it (a child
  that called ``setsid`` included: the namespace ends with its first process);
- no network: only a loopback interface that is down;
- a private, empty ``/tmp`` (its scratch space, gone when it ends), but for
  what the bot needs to start that lies under ``/tmp`` (a checkout or a
  virtual environment there), shown read-only (bubblewrap) or, under
  ``unshare``, by leaving ``/tmp`` shared;
- the rest of the file system read-only (bubblewrap), with the tournament's
  private paths (its output folder and config) hidden: an empty directory
  or an empty file in their place.

Bubblewrap (``bwrap``, Debian package ``bubblewrap``) is used when it works
here; else util-linux ``unshare`` (which needs root), which gives the same
namespaces and hidden paths but leaves the file system writable. The
resource limits (``RLIMIT_AS``, CPU, files, output size) apply as without a
sandbox. docs/security.md describes what is and is not contained.
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess
from collections.abc import Sequence

__all__ = ["WRITABLE_ENV", "SandboxUnavailable", "mechanism", "sandbox_argv"]


class SandboxUnavailable(RuntimeError):
    """The sandbox was asked for and this machine cannot give it."""


def _bwrap_argv(bwrap: str, private: Sequence[str], writable: Sequence[str],
                keep: Sequence[str] = ()) -> list[str]:
    argv = [bwrap, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/",
            "--dev", "/dev", "--proc", "/proc", "--perms", "1777", "--tmpfs", "/tmp"]
    for path in keep:  # what the bot needs to start, where it lies under the private /tmp
        argv += ["--ro-bind", path, path]
    for path in writable:
        argv += ["--bind", path, path]
    for path in private:  # after the writable folders: a private path inside one stays covered
        if os.path.isdir(path):
            argv += ["--perms", "0555", "--tmpfs", path, "--remount-ro", path]
        elif os.path.exists(path):
            argv += ["--ro-bind", "/dev/null", path]
    return [*argv, "--"]  # the program starts in the same directory, read-only


def _unshare_argv(unshare: str, private: Sequence[str], writable: Sequence[str],
                  keep: Sequence[str] = ()) -> list[str]:
    # A mount namespace of our own: a private /tmp and the private paths covered, then exec.
    # A tmpfs over /tmp would hide what the bot needs to start when that lies under /tmp
    # (a checkout there): then /tmp stays shared, as the file system does under unshare.
    steps = ["mount --make-rprivate /"]
    if not keep:
        steps.append("mount -t tmpfs -o mode=1777 tmpfs /tmp")
    for path in private:
        if os.path.isdir(path):
            steps.append(f"mount -t tmpfs -o size=1m,mode=0555 tmpfs {shlex.quote(path)}")
        elif os.path.exists(path):
            steps.append(f"mount --bind /dev/null {shlex.quote(path)}")
    del writable  # the file system stays writable under unshare
    script = " && ".join(steps) + ' && exec "$@"'
    return [unshare, "--pid", "--fork", "--kill-child", "--mount-proc", "--net", "--ipc",
            "--uts", "--mount", "--", "/bin/sh", "-c", script, "arena-sandbox"]


def _works(argv: list[str]) -> bool:
    try:
        done = subprocess.run([*argv, "/bin/sh", "-c", "exit 0"], capture_output=True,
                              timeout=20, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


@functools.cache
def mechanism() -> str | None:
    """``"bwrap"`` or ``"unshare"``: the sandbox this machine can give, or ``None``.

    Found once per process by starting a trivial sandboxed program.
    """
    bwrap = shutil.which("bwrap")
    if bwrap and _works(_bwrap_argv(bwrap, (), ())):
        return "bwrap"
    unshare = shutil.which("unshare")
    if unshare and _works(_unshare_argv(unshare, (), ())):
        return "unshare"
    return None


WRITABLE_ENV = "ARENA_SANDBOX_WRITABLE"
"""Folders (``os.pathsep``-separated) that sandboxed bots may write to, when an organiser
wants to give them one (bubblewrap only)."""


def _under_tmp(path: str) -> bool:
    return path == "/tmp" or path.startswith("/tmp/")


def needed_under_tmp(program: Sequence[str] = ()) -> list[str]:
    """What a bot needs to start that lies under ``/tmp``, which the sandbox replaces.

    The working directory (the bot starts there), the Python installation (process
    bots run it) and the folder of each word of ``program`` that names an existing
    file or folder; only those under ``/tmp``, outermost first, each once.
    """
    import sys

    found: list[str] = [os.getcwd(), sys.prefix, sys.base_prefix]
    for word in program:
        path = os.path.abspath(word)
        if os.path.isdir(path):
            found.append(path)
        elif os.path.exists(path):
            found.append(os.path.dirname(path))
    keep: list[str] = []
    for path in sorted({p for p in found if _under_tmp(p)}, key=len):
        if path != "/tmp" and not any(path.startswith(k + "/") or path == k for k in keep):
            keep.append(path)
    return keep


def sandbox_argv(private: Sequence[str] = (), writable: Sequence[str] | None = None,
                 program: Sequence[str] = ()) -> list[str]:
    """The command prefix that runs a program in the sandbox.

    ``private`` paths are hidden from the program; ``writable`` paths stay
    writable (bubblewrap only: an organiser's choice, e.g. a data folder).
    ``program`` is the command line to run: what it names under ``/tmp`` stays
    visible, read-only, beside the private ``/tmp`` (see :func:`needed_under_tmp`).
    Raises :class:`SandboxUnavailable` when this machine has no sandbox.
    """
    kind = mechanism()
    if writable is None:
        writable = os.environ.get(WRITABLE_ENV, "").split(os.pathsep)
    private = [os.path.abspath(p) for p in private if p]
    writable = [os.path.abspath(p) for p in writable if p]
    keep = needed_under_tmp(program)
    if kind == "bwrap":
        return _bwrap_argv(shutil.which("bwrap") or "bwrap", private, writable, keep)
    if kind == "unshare":
        return _unshare_argv(shutil.which("unshare") or "unshare", private, writable, keep)
    raise SandboxUnavailable(
        "no sandbox on this machine: install bubblewrap (apt-get install bubblewrap), or run "
        "as root for unshare"
    )

