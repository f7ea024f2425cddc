"""What handing kernels a tuple of arrays costs numba: 30 small kernels, each reading one array of a
group of 40, called from one entry; compiled (CPU seconds, no cache) and called from Python (µs a call),
the group passed as a namedtuple, as the one array each kernel reads, and as a record (records.py).

    python docs/compile_time/tuple_cost.py tuple|array|record      (one process each: numba keeps what it compiled)
"""
import pathlib
import sys
import time
from collections import namedtuple

import numba
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
from checkout import import_checkout_as_mechbake  # noqa: E402

import_checkout_as_mechbake()
from mechbake.solver.kernels.records import make_record  # noqa: E402

ARRAYS, KERNELS = 40, 30
Group = namedtuple("Group", [f"a{i}" for i in range(ARRAYS)])


def kernels_source(handed: str) -> str:
    """The kernels and their entry, reading each array from the group (`tuple`, `record`) or from
    the array itself (`array`)."""
    lines = []
    for k in range(KERNELS):
        read = f"group.a{k % ARRAYS}" if handed != "array" else "group"
        lines += ["@numba.njit(no_cfunc_wrapper=True, no_cpython_wrapper=True)", f"def kernel{k}(group, x):",
                  f"    values = {read}", "    total = 0.0", "    for i in range(values.shape[0]):",
                  "        total += values[i, 0] * x", "    return total", ""]
    calls = " + ".join(f"kernel{k}(group, 1.0)" if handed != "array" else f"kernel{k}(group.a{k % ARRAYS}, 1.0)"
                       for k in range(KERNELS))
    lines += ["@numba.njit", "def entry(group):", f"    return {calls}"]
    return "\n".join(lines)


def main(handed: str) -> None:
    scope = {"numba": numba}
    exec(kernels_source(handed), scope)
    group = Group(*[np.ones((10, 3)) for _ in range(ARRAYS)])
    if handed == "record":
        group = numba.njit(make_record)(group)
    entry = scope["entry"]
    start = time.process_time()
    entry(group)
    compiled = time.process_time() - start
    start = time.perf_counter()
    for _ in range(100_000):
        entry(group)
    print(f"{handed}: compile {compiled:.2f} s CPU, a call from Python {(time.perf_counter() - start) * 10:.2f} µs")


if __name__ == "__main__":
    main(sys.argv[1])
