"""Set-up of arena's local Dask workers (imported only where Dask distributed is installed)."""

from __future__ import annotations

import signal
import threading
from typing import Any

from distributed import WorkerPlugin


class IgnoreCtrlC(WorkerPlugin):  # type: ignore[misc]  # distributed is untyped here
    """Workers of a local cluster ignore SIGINT, including those a nanny restarts.

    Ctrl-C reaches the whole process group; only ``arena run`` handles it. The workers
    started with the cluster inherit SIG_IGN; one that a nanny restarts after a crash is
    spawned with the default handler, and this plugin, run in each worker as it joins,
    ignores SIGINT there too (a Ctrl-C in the second or so it takes to start is the only
    one it can see).
    """

    name = "arena-ignore-ctrl-c"

    def setup(self, worker: Any) -> None:
        """Ignore SIGINT in this worker process (from its main thread, where it runs)."""
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)
