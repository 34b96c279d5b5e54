"""A command bot that tries one thing an entrant must not do, then plays as entrant_play.py says.

Usage: ``python hostile_entrant.py MARKER MODE [ARGS...]``. What the attempt
achieved goes into the ``version`` of its ``ready`` message (and so into the
record): the only channel out of the sandbox the test relies on. MARKER is
in the command line of every process it starts, so the test can find any
that survive. Modes:

- ``plain``: nothing (the reference entrant);
- ``read PATH...``: read files (the run's config, records, secret seed);
- ``connect PORT``: open a TCP connection to 127.0.0.1:PORT;
- ``write DIR``: create a file in DIR (the run's output folder);
- ``forkbomb``: fork a tree of 255 processes that sleep forever;
- ``setsid``: fork a child that leaves the process group and sleeps forever;
- ``proc``: read the command lines of every process it can see in /proc;
- ``root DIR``: look for privilege (``CapEff``, its uid), try to unmount ``/proc`` and
  to remount ``/`` writable, and look for DIR (the output folder) in the mount table
  and the file system;
- ``locksend FILE`` / ``lockrecv FILE``: pass a number (the sender's seed, modulo 1000)
  from one seat to another through a byte-range lock on FILE, which both can read;
- ``tmpfill``: write up to 64 MiB into ``/tmp``;
- ``outlive``: try to outlive the match: clear its parent-death signal, leave its
  process group (``setsid``) and fork a child that does the same and sleeps forever;
  try to attach to the sandbox's first process with ``ptrace`` to make it do so too;
  and stay after the match's ``quit``;
- ``cgroup``: look for the cgroup tree (``/sys/fs/cgroup``) and the names of arena's
  cgroups in ``/proc/self/cgroup``.
"""

import ctypes
import errno
import fcntl
import json
import os
import socket
import struct
import sys
import time

from entrant_play import answer as play

mode, args = sys.argv[2], sys.argv[3:]


def _errno_name(code: int) -> str:
    return errno.errorcode.get(code, str(code)) if code else "ok"


def _lock_held(fd: int, offset: int) -> bool:
    """Whether another process holds a lock on byte ``offset`` (``F_GETLK``)."""
    query = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, offset, 1, 0)
    answer = fcntl.fcntl(fd, fcntl.F_GETLK, query)
    return struct.unpack("hhqqi4x", answer)[0] != fcntl.F_UNLCK


def attempt(start: dict) -> str:
    if mode == "read":
        seen = []
        for path in args:
            try:
                with open(path, "rb") as file:
                    seen.append(f"{len(file.read())}B")
            except OSError as exc:
                seen.append(type(exc).__name__)
        return "read:" + ",".join(seen)
    if mode == "connect":
        try:
            socket.create_connection(("127.0.0.1", int(args[0])), timeout=2).close()
            return "connect:ok"
        except OSError as exc:
            return f"connect:{type(exc).__name__}"
    if mode == "write":
        try:
            with open(os.path.join(args[0], "planted.txt"), "w") as file:
                file.write("planted")
            return "write:ok"
        except OSError as exc:
            return f"write:{type(exc).__name__}"
    if mode == "forkbomb":
        if os.fork() == 0:
            # Each process forks once a round and both go on: 2**8 processes after 8 rounds,
            # the first and its 255 descendants, each then asleep. (Forking twice a round
            # tripled them: 6,561 processes, which together outgrew memory_mb, and the
            # kernel killed the bot for it: a fault, rightly, but not this test's.)
            for _ in range(8):
                os.fork()
            while True:
                time.sleep(60)
        return "forkbomb:started"
    if mode == "setsid":
        if os.fork() == 0:
            os.setsid()
            while True:
                time.sleep(60)
        return "setsid:started"
    if mode == "proc":
        lines = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/cmdline", "rb") as file:
                        lines.append(file.read().replace(b"\0", b" ").decode(errors="replace"))
                except OSError:
                    pass
        # Counted, not listed: a recorded version keeps 80 characters (docs/records.md).
        keeper = [line for line in lines if "/arena/referee/sandbox/_jail.py " in line]
        own = [line for line in lines if line not in keeper and "hostile_entrant.py" in line]
        test = sum("pytest" in line for line in lines if line not in keeper)
        return f"proc:n={len(lines)},own={len(own)},keeper={len(keeper)},pytest={test}"
    if mode == "root":
        with open("/proc/self/status") as file:
            status = dict(line.split(":\t", 1) for line in file.read().splitlines()
                          if ":\t" in line)
        libc = ctypes.CDLL(None, use_errno=True)
        umount = libc.umount2(b"/proc", 2) and ctypes.get_errno()  # MNT_DETACH
        remount = libc.mount(None, b"/", None, ctypes.c_ulong(32 | 4096), None) \
            and ctypes.get_errno()  # MS_REMOUNT | MS_BIND: writable again
        with open("/proc/self/mountinfo") as file:
            trace = args[0] in file.read() or os.path.exists(args[0])
        # Compact: a recorded version keeps 80 characters (docs/records.md).
        return (f"root:cap={int(status['CapEff'], 16):x},bnd={int(status['CapBnd'], 16):x},"
                f"nnp={status['NoNewPrivs'].strip()},uid={os.getuid()},"
                f"umount={_errno_name(umount)},remount={_errno_name(remount)},trace={trace}")
    if mode == "locksend":
        secret = start["seed"] % 1000
        fd = os.open(args[0], os.O_RDONLY)  # kept open: the lock lasts as long as the bot
        try:
            fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, secret)
        except OSError as exc:
            return f"locksend:{secret}:{_errno_name(exc.errno or 0)}"
        return f"locksend:{secret}:ok"
    if mode == "lockrecv":
        fd = os.open(args[0], os.O_RDONLY)
        until = time.monotonic() + 8
        while time.monotonic() < until:
            try:
                held = [offset for offset in range(1000) if _lock_held(fd, offset)]
            except OSError as exc:
                return f"lockrecv:{_errno_name(exc.errno or 0)}"
            if held:
                return f"lockrecv:{held[0]}"
            time.sleep(0.05)
        return "lockrecv:nothing"
    if mode == "tmpfill":
        written = 0
        try:
            with open("/tmp/fill", "wb") as file:
                while written < 64:
                    file.write(b"x" * (1 << 20))
                    file.flush()
                    written += 1
        except OSError as exc:
            return f"tmpfill:{written}:{_errno_name(exc.errno or 0)}"
        return f"tmpfill:{written}:ok"
    if mode == "outlive":
        libc = ctypes.CDLL(None, use_errno=True)
        traced = libc.ptrace(16, 1, None, None) and ctypes.get_errno()  # PTRACE_ATTACH
        if os.fork() == 0:
            os.setsid()
            libc.prctl(1, 0, 0, 0, 0)  # PR_SET_PDEATHSIG: none
            while True:
                time.sleep(60)
        libc.prctl(1, 0, 0, 0, 0)
        os.setsid()
        return f"outlive:started:ptrace={_errno_name(traced)}"
    if mode == "cgroup":
        with open("/proc/self/cgroup") as file:
            named = "arena-" in file.read()
        return (f"cgroup:tree={os.path.exists('/sys/fs/cgroup')},"
                f"fs={os.path.isdir('/sys/fs')},named={named}")
    return "plain"


for raw in sys.stdin.buffer:
    msg = json.loads(raw)
    if msg["type"] == "start":
        out = {"type": "ready", "id": msg["id"], "name": "entrant",
               "version": attempt(msg)[:4000]}
    elif msg["type"] in ("play", "exchange"):
        out = play(msg)
    elif msg["type"] == "quit":
        break
    else:
        continue
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()

while mode == "outlive":  # after its quit too: only a kill ends it
    time.sleep(60)
