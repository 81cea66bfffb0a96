"""One BLAS thread for the ratings, set before numpy is first imported.

The matrices here are small (a row per bot) and the arena shares its cores with bots, runners
and other readers: OpenBLAS's own threads then spin against each other, and one 100 × 100
solve took 0.14 s instead of 73 µs on a busy 2-core machine. A value the user set is kept.
"""

from __future__ import annotations

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
