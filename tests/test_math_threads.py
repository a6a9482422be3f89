"""trigsight computes on one math thread a process: numpy's OpenBLAS otherwise runs one a core, and the release's
index stage beside the payload gate's Chromium, or gunicorn workers beside each other, spin against each other."""
import os
import subprocess
import sys

import pytest
from trigsight.math_threads import ONE_MATH_THREAD

# After a trigsight command has started (its group reads the settings first), numpy is loaded and asked how
# many threads its OpenBLAS runs, from the library's own function.
PROBE = """
import ctypes, re, sys
from trigsight.cli import main
try:
    main(["releases", "--release", sys.argv[1]], standalone_mode=False)
except (Exception, SystemExit):
    pass                                    # no releases there: the command's own error, after the group ran
import numpy
blas = numpy.show_config(mode="dicts")["Build Dependencies"]["blas"]["name"]
if "openblas" not in blas.lower():
    print("blas", blas)
    raise SystemExit
found = sorted(set(re.findall(r"(/\\S*openblas\\S*\\.so\\S*)", open("/proc/self/maps").read())))
library = ctypes.CDLL(found[0])
count = next(getattr(library, name) for name in ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads",
                                                 "openblas_get_num_threads64_", "openblas_get_num_threads")
             if hasattr(library, name))
print(count())
"""


@pytest.mark.parametrize("operator_sets, threads", [
    ({}, "1"),
    ({"OPENBLAS_NUM_THREADS": "2"}, "2"),       # an operator's own setting wins
])
def test_a_trigsight_command_runs_numpy_on_one_math_thread_unless_told_otherwise(tmp_path, operator_sets, threads):
    environment = {key: value for key, value in os.environ.items() if key not in ONE_MATH_THREAD}
    done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "release")], capture_output=True, text=True,
                          env={**environment, **operator_sets}, timeout=120)
    assert done.returncode == 0, done.stderr
    if done.stdout.startswith("blas "):     # numpy's own build says it has another library: these variables do not apply
        pytest.skip(f"numpy is built with {done.stdout.split(' ', 1)[1].strip()}, not OpenBLAS")
    assert done.stdout.strip() == threads
