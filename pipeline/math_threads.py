"""One thread of numpy's math library per process: OpenBLAS (or MKL, or OpenMP) otherwise runs one a core.

trigsight's processes share two cores with others doing real work: the site's gunicorn workers with
each other, the release's index stage with the payload gate's Chromium. Each math library thread
pool then spins against the rest: on the Node.js docs under 50 clients the chat's p50 was 132 ms,
33 ms with one thread a worker. The libraries read these variables when they load, so the command
sets them before numpy is first imported (cli.py), and a process it starts is started with them; a
value the environment already gives wins. Measured: bench/load/run.py --blas-threads, bench/load/math_threads.py,
and the release's stage timings (bench/corpora/run.py, README "Deploying").
"""
from __future__ import annotations

ONE_MATH_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def with_one_math_thread(environment: dict) -> dict:
    """`environment` with one math thread, unless it says otherwise (for this process, or one it starts)."""
    return {**ONE_MATH_THREAD, **environment}
