"""The referee's room of the sandbox: what a bot's process may see, use and spend.

``_sandbox`` chooses the mechanism (bubblewrap or unshare) and builds its command line
from ``_layout``'s drawing of the file system; ``_jail`` is the launcher inside the
namespaces, which installs ``_seccomp``'s filter; ``_cgroup`` and ``_cgroup_find`` bound a
bot's memory; ``_cputime`` and ``_proctimes`` measure the CPU time of its process tree;
``_import_path`` is the path a Python child imports from. Private: the faces are
:mod:`arena.referee` and :mod:`arena.referee.lowlevel` (docs/security.md).
"""
