"""Kernels take the model's, the rows' and the work arrays' tuples as records of the same arrays
(solver/kernels/records.py). What a kernel writes through a record, Python reads from the tuple; a
kernel compiled without numba's runtime (a borrowing kernel) reads a record too; a record keeps its
arrays alive. Records are written from Python (`record_from_python`) as numba's compiled maker lays
them out."""
import ctypes
import gc
import weakref
from collections import namedtuple

import numba
import numpy as np

import mechanisms
from scenes import simulate

from mechbake.solver.kernels import jit
from mechbake.solver.kernels.records import RecordType, make_record, record_from_python

Pair = namedtuple("Pair", ["first", "second"])
Nested = namedtuple("Nested", ["grid", "pair", "inner", "flags"])
# not cached: a cache index names the types it was compiled for, and this module's are not the solver's
record_by_numba = numba.njit(make_record)


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
    record = record_from_python(Pair(first, second))
    add_first_to_second(record)
    assert second.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert first.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_a_record_keeps_its_arrays_alive():
    first, second = np.full(3, 2.0), np.full(5, 0.5)
    first_alive, second_alive = weakref.ref(first), weakref.ref(second)
    record = record_from_python(Pair(first, second))
    del first, second
    gc.collect()
    for _ in range(3):  # arrays made and freed meanwhile would take over freed memory
        np.full(5, 9.0)
    assert total(record) == 3 * 2.0 + 5 * 0.5
    assert first_alive() is not None and second_alive() is not None
    del record
    gc.collect()
    assert first_alive() is None and second_alive() is None


def _payload_words(record) -> np.ndarray:
    """The record's fields as numba's 8-byte words, read from its memory."""
    size = numba.core.registry.cpu_target.target_context.get_abi_sizeof(
        numba.core.registry.cpu_target.target_context.data_model_manager[
            record._type.get_data_type()].get_value_type())
    return np.frombuffer(ctypes.string_at(record._meminfo.data, size), np.uint64)


def _meminfo_words(kinds, start=0) -> list[int]:
    """Where numba's layout of fields of types `kinds` holds MemInfo pointers, in words."""
    found, word = [], start
    for kind in kinds:
        if isinstance(kind, numba.types.Array):
            found.append(word)
            word += 5 + 2 * kind.ndim
        elif isinstance(kind, RecordType):
            word += 1
        else:
            inner = _meminfo_words(kind.types, word)
            found += inner[:-1]
            word = inner[-1]
    return found + [word]


def _assert_laid_out_alike(made_here, made_by_numba):
    """Word for word the same but for the arrays' MemInfos (each maker wraps every array in one of its own)."""
    assert made_here._type == made_by_numba._type
    here, numba_words = _payload_words(made_here), _payload_words(made_by_numba)
    meminfos = _meminfo_words(made_here._type.field_dict.values())
    assert meminfos[-1] == len(here) == len(numba_words)
    others = np.setdiff1d(np.arange(len(here)), meminfos[:-1])
    np.testing.assert_array_equal(here[others], numba_words[others])
    assert np.all(here[meminfos[:-1]] != 0)


def test_a_record_written_in_python_is_the_one_numba_makes():
    """Arrays of one to three dimensions, a tuple of arrays inside and a record inside, laid out as
    numba's compiled maker lays them out."""
    inner = record_from_python(Pair(np.arange(3.0), np.ones((2, 2))))
    nested = Nested(np.arange(12).reshape(3, 4), Pair(np.zeros(2), np.ones((1, 2, 3))), inner, np.ones(4, bool))
    _assert_laid_out_alike(record_from_python(nested), record_by_numba(nested))


def test_the_solver_s_records_are_the_ones_numba_makes():
    """The model's, the rows' and the work arrays' records of a scene with contacts."""
    simulation = simulate(mechanisms.four_balls())
    simulation.step()
    assert len(jit._records) >= 3
    for group, record in list(jit._records.values()):
        _assert_laid_out_alike(record, jit._make_record(jit.with_inner_records(group)))


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


def test_a_field_python_cannot_write_leaves_the_record_to_numba():
    """A number among the arrays is not a field `record_from_python` writes: it declines, and the
    solver's records then come from numba's maker (jit._record)."""
    assert record_from_python(Pair(np.zeros(2), 1.5)) is None
