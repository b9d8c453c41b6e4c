"""compat: the differential conformance harness (torch vs shadowgrad)."""

import os

# `python -m compat` runs one worker per core: give each worker's numpy a single BLAS thread
# (more would oversubscribe the cores), unless the user chose otherwise.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
