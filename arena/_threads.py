"""One BLAS thread unless the environment says otherwise, set before numpy loads.

arena's matrices are small (a league's fit solves systems of one row per entrant), and a
tournament's machine is busy with its matches: OpenBLAS's threads, which spin while they
wait, made a 200-entrant league's fit 20 times slower on a loaded 2-core machine
(docs/league.md, "Bounds"). ``OPENBLAS_NUM_THREADS`` (or ``OMP_NUM_THREADS``) set by the
caller wins.
"""

from __future__ import annotations

import os

if "OMP_NUM_THREADS" not in os.environ:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
