"""Side-by-side benchmarks of torch and shadowgrad (`python -m benchmarks`)."""

import os

# numpy's BLAS pool defaults to every core; torch is pinned per run (see __main__). Start BLAS
# at one thread unless the user says otherwise, so the two libraries start even.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
