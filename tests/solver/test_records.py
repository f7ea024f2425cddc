"""Kernels take the model's, the rows' and the work arrays' tuples as records of the same arrays
(solver/kernels/records.py). What a kernel writes through a record, Python reads from the tuple; a
kernel compiled without numba's runtime (a borrowing kernel) reads a record too; a record keeps its
arrays alive."""
import gc
from collections import namedtuple

import numba
import numpy as np

import mechanisms
from scenes import simulate

from mechbake.solver.kernels.records import make_record

Pair = namedtuple("Pair", ["first", "second"])
# not cached: a cache index names the types it was compiled for, and this module's are not the solver's
record_of_pair = numba.njit(make_record)


@numba.njit(_nrt=False)
def add_first_to_second(pair):
    """As a borrowing kernel is compiled: no reference counts, so no runtime to find a field with."""
    for i in range(pair.second.shape[0]):
        pair.second[i] += pair.first[i]


@numba.njit
def total(pair):
    return pair.first.sum() + pair.second.sum()


def test_a_kernel_writes_through_a_record_into_the_tuples_arrays():
    first, second = np.arange(4.0), np.ones(4)
    record = record_of_pair(Pair(first, second))
    add_first_to_second(record)
    assert second.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert first.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_a_record_keeps_its_arrays_alive():
    record = record_of_pair(Pair(np.full(3, 2.0), np.full(5, 0.5)))
    gc.collect()
    for _ in range(3):  # arrays made and freed meanwhile would take over freed memory
        np.full(5, 9.0)
    assert total(record) == 3 * 2.0 + 5 * 0.5


def test_the_rows_a_step_leaves_are_those_python_reads():
    """Two simulations of the same mechanism, one at its start and one stepped and set back to the
    start: the rows the kernels built at that instant, read from each Simulation's own tuple, agree.
    Rows written into a copy the tuple does not share would keep the stepped instant's rows."""
    start = simulate(mechanisms.bricard())
    stepped = simulate(mechanisms.bricard())
    initial = stepped.state.copy()
    stepped.run(0.1)
    stepped.state = initial
    start.instant.invalidate()
    start.instant.ensure_rows()
    stepped.instant.ensure_rows()
    for name in ("row_linear", "row_angular", "joint_lever", "inv_inertia_world"):
        np.testing.assert_array_equal(getattr(stepped.instant.rows, name), getattr(start.instant.rows, name),
                                      err_msg=name)
    assert np.abs(start.instant.rows.row_linear).max() > 0.0
