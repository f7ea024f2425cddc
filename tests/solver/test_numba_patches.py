"""What the solver's process changes in numba to compile less (kernels/numba_patches.py), each change only in
what is compiled, never in what a kernel computes: an array assigned to a slice of another shape raises
numba's plain ValueError, compile flags compare as numba defines them but faster, an overload's
implementation is compiled once for kernels with and without a Python entry and never with a C entry,
a call's type is resolved once for the same argument types, the variables live at a block's entry are
computed only where asked, reference counts skip the members that hold none, calls into LLVM announce no
event, an array's element or row is lowered as its address, read and written as numpy does, and a loop
over a range runs as Python runs it with numba's iterator built in place."""
import copy
import operator

import numba
import numpy as np
import pytest
import llvmlite.binding as llvm
from llvmlite import ir as llvm_ir
from numba.core import analysis, compiler, errors, event, postproc, types, utils
from numba.core.runtime import _nrt_python, rtsys
from numba.core.compiler import Flags
from numba.core.registry import cpu_target

from mechbake.solver.kernels import numba_patches


class Compiles(event.Listener):
    """The functions numba compiles while installed: (module, qualified name, argument types)."""

    def __init__(self):
        self.compiled = []
        self.options = []

    def on_start(self, ev):
        function = ev.data["dispatcher"].py_func
        self.compiled.append((function.__module__, function.__qualname__, str(ev.data["args"])))
        self.options.append(ev.data["dispatcher"].targetoptions)

    def on_end(self, ev):
        pass


def test_a_slice_of_another_shape_raises_without_compiling_string_code():
    assert numba_patches.PLAIN_SLICE_ERRORS  # the numba the extension bundles has the overload swapped

    @numba.njit
    def assign(target, source):
        target[1:3] = source

    listener = Compiles()
    with event.install_listener("numba:compile", listener):
        target = np.zeros(4)
        assign(target, np.array([1.0, 2.0]))
        with pytest.raises(ValueError, match="cannot assign slice from input of different size"):
            assign(target, np.ones(3))
    assert list(target) == [0.0, 1.0, 2.0, 0.0]
    assert "numba.cpython.unicode" not in {module for module, _, _ in listener.compiled}


def _flags(**values) -> Flags:
    flags = Flags()
    for name, value in values.items():
        setattr(flags, name, value)
    return flags


def test_compile_flags_compare_and_hash_as_numba_defines_them():
    """numba: two sets of flags are equal when every option reads the same, set or by default, and
    hash as the names of their options."""
    assert numba_patches.QUICK_FLAG_COMPARISON
    kinds = [_flags(), _flags(nrt=True), _flags(nrt=False), _flags(nrt=True, no_cpython_wrapper=True),
             _flags(nrt=True, no_cpython_wrapper=False), _flags(nrt=True, no_cpython_wrapper=True),
             _flags(nrt=True, error_model="numpy"), _flags(nrt=True, error_model="python")]
    for first in kinds:
        for second in kinds:
            read_alike = all(getattr(first, name) == getattr(second, name) for name in Flags.options)
            assert (first == second) is read_alike and (first != second) is not read_alike
            if read_alike:
                assert hash(first) == hash(second)
    assert _flags(nrt=True).__eq__(object()) is NotImplemented


def test_an_overload_is_compiled_once_for_kernels_with_and_without_a_python_entry():
    assert numba_patches.OVERLOADS_SHARED_BY_WRAPPERS

    @numba.njit(no_cpython_wrapper=True)
    def inner(n):
        return np.empty((n, 7), dtype=np.uint16)  # a shape and type no other test compiles

    @numba.njit
    def entry(n):
        return inner(n).shape[0] + np.empty((n, 7), dtype=np.uint16).shape[0]

    listener = Compiles()
    with event.install_listener("numba:compile", listener):
        assert entry(3) == 6
    empties = [k for k, (module, name, args) in enumerate(listener.compiled) if name == "ol_np_empty.<locals>.impl"]
    assert [listener.compiled[k][2] for k in empties] == ["(UniTuple(int64, 2), class(uint16))"]
    assert listener.options[empties[0]].get("no_cfunc_wrapper")  # only kernels call it: no C entry


def test_a_call_type_is_resolved_once_for_the_same_argument_types(monkeypatch):
    """numba orders a function's templates once per resolution it makes: counted, a repeated
    resolution makes none, one of other types makes its own, and one that fails fails each time."""
    assert numba_patches.CALL_TYPES_KEPT
    resolutions = []
    ordered = utils.order_by_target_specificity
    monkeypatch.setattr(utils, "order_by_target_specificity",
                        lambda *args, **kwargs: resolutions.append(args) or ordered(*args, **kwargs))
    context = cpu_target.typing_context
    context.refresh()
    getitem = context.resolve_value_type(operator.getitem)
    grid = types.Array(types.uint16, 3, "C")  # a type no kernel indexes
    index = types.UniTuple(types.intp, 3)
    assert getitem.get_call_type(context, (grid, index), {}).return_type == types.uint16
    assert getitem.get_call_type(context, (grid, index), {}).return_type == types.uint16
    assert len(resolutions) == 1
    row = getitem.get_call_type(context, (grid, types.intp), {})
    assert row.return_type == types.Array(types.uint16, 2, "C") and len(resolutions) == 2
    for _ in range(2):
        with pytest.raises(errors.TypingError):
            getitem.get_call_type(context, (grid, types.unicode_type), {})
    assert len(resolutions) == 4


def _loops(n):  # a function no kernel is: blocks with different variables live at their entries
    total, count = 0.0, 0
    for i in range(n):
        if i % 3:
            total += i
        else:
            count += 1
    return total * count


def test_the_variables_live_at_a_block_entry_are_computed_only_when_asked(monkeypatch):
    assert numba_patches.LIVE_VARIABLES_WHEN_ASKED
    computed = []
    compute = analysis.compute_live_variables
    monkeypatch.setattr(analysis, "compute_live_variables", lambda *args: computed.append(1) or compute(*args))
    assert numba.njit(_loops)(7) == 12.0 * 3
    assert computed == []  # a whole compile, and none asked

    lazy = compiler.run_frontend(_loops)
    eager = copy.deepcopy(lazy)
    postproc.PostProcessor.run.numba_run(postproc.PostProcessor(eager))
    asked = {offset: lazy.get_block_entry_vars(block) for offset, block in lazy.blocks.items()}
    assert asked == {offset: eager.get_block_entry_vars(block) for offset, block in eager.blocks.items()}
    assert len(set(map(frozenset, asked.values()))) > 2
    assert len(computed) == 2  # numba's and the lazy one, once for all the blocks


def test_reference_counts_skip_the_members_that_hold_none():
    """Incrementing a (float, array, (int, int, int)) extracts the array and its MemInfo, nothing else."""
    assert numba_patches.MEMINFOS_FOUND_DIRECTLY
    context = cpu_target.target_context.subtarget(enable_nrt=True)
    held = types.Tuple((types.float64, types.Array(types.float64, 2, "C"), types.UniTuple(types.intp, 3)))
    module = llvm_ir.Module()
    function = llvm_ir.Function(module, llvm_ir.FunctionType(llvm_ir.VoidType(), [context.get_value_type(held)]),
                                "held")
    builder = llvm_ir.IRBuilder(function.append_basic_block())
    context.nrt.incref(builder, held, function.args[0])
    operations = [instruction.opname for instruction in builder.block.instructions]
    assert operations == ["extractvalue", "extractvalue", "call"]
    assert "NRT_incref" in str(builder.block.instructions[-1])


@numba.njit(no_cpython_wrapper=True)
def _first_row_sum(pair):
    return pair[1][0][0].sum() + pair[0]


@numba.njit
def _pairs_summed(n):
    total = 0.0
    for i in range(n):
        pair = (float(i), (np.ones((2, 3)) * i, 7), np.zeros(2))
        total += _first_row_sum(pair)
    return total


def test_arrays_inside_tuples_are_freed_once():
    _pairs_summed(1)  # compiled before the count
    _nrt_python.memsys_enable_stats()
    try:
        allocated = rtsys.get_allocation_stats()
        assert _pairs_summed(5) == sum(i + 3.0 * i for i in range(5))
        after = rtsys.get_allocation_stats()
    finally:
        _nrt_python.memsys_disable_stats()
    assert after.alloc - allocated.alloc == after.free - allocated.free >= 10
    assert after.mi_alloc - allocated.mi_alloc == after.mi_free - allocated.mi_free


class Announced(event.Listener):
    def __init__(self):
        self.events = 0

    def on_start(self, ev):
        self.events += 1

    def on_end(self, ev):
        self.events += 1


def test_calls_into_llvm_announce_no_event():
    assert numba_patches.LLVM_CALLS_UNANNOUNCED
    announced = Announced()
    with event.install_listener("numba:llvm_lock", announced):
        llvm.parse_assembly("define i32 @one() {\n  ret i32 1\n}").verify()
    assert announced.events == 0


def _accesses(vector, matrix, grid, flags, index):
    """Reads and writes of elements and rows with positive, negative, literal and narrow indices."""
    i, j = index, np.int32(-1)
    matrix[i, j] = vector[-1] + matrix[0, 2]
    grid[1, -2, i] = 7  # an int stored into a float array
    flags[j] = not flags[0]
    row = matrix[-2]  # a row: written through, it writes the matrix
    row[1] = grid[i, i, -1] * 2.0
    plane = grid[-1]
    plane[0, 0] = vector[i] + plane[-1, 2]
    line = grid[1, 0]
    line[i] += 0.5
    return matrix[i, j] + grid[-1, -1, i] + row[i] + line[-1] + vector[i - 1]


def test_elements_and_rows_are_read_and_written_as_numpy_does():
    assert numba_patches.ELEMENTS_LOWERED_DIRECTLY
    compiled = numba.njit(_accesses)
    for index in (0, 1, -2):
        arrays = [np.arange(3.0) + 1, np.arange(9.0).reshape(3, 3), np.arange(27.0).reshape(3, 3, 3),
                  np.array([True, False, True])]
        expected = [array.copy() for array in arrays]
        assert compiled(*arrays, index) == _accesses(*expected, index)
        for got, wanted in zip(arrays, expected):
            np.testing.assert_array_equal(got, wanted)


@numba.njit
def _last_row(n):
    return np.arange(3.0 * n).reshape(n, 3)[-1]


def test_a_row_keeps_its_array_and_frees_it_once():
    _last_row(2)  # compiled before the count
    _nrt_python.memsys_enable_stats()
    try:
        allocated = rtsys.get_allocation_stats()
        row = _last_row(4)
        assert list(row) == [9.0, 10.0, 11.0]
        del row
        after = rtsys.get_allocation_stats()
    finally:
        _nrt_python.memsys_disable_stats()
    assert after.alloc - allocated.alloc == after.free - allocated.free == 1


def test_an_element_is_lowered_as_its_address_and_a_load():
    """a[i, j] of a C matrix: its indices, wrapped, its address and the load, in less than half of
    numba's own lowering (which copies the array to the stack and reads every stride)."""
    from numba.np import arrayobj
    context = cpu_target.target_context
    context.refresh()
    matrix, index = types.Array(types.float64, 2, "C"), types.UniTuple(types.intp, 2)
    signature = types.float64(matrix, index)

    def lowered(lower) -> list[str]:
        module = llvm_ir.Module()
        kind = llvm_ir.FunctionType(context.get_value_type(types.float64),
                                    [context.get_value_type(matrix), context.get_value_type(index)])
        function = llvm_ir.Function(module, kind, "element")
        builder = llvm_ir.IRBuilder(function.append_basic_block())
        lower(builder, function.args)
        return [instruction.opname for instruction in function.blocks[0].instructions]

    chosen = context._defns[operator.getitem].find(signature.args)  # the implementation numba picks
    direct = lowered(lambda builder, args: chosen(context, builder, signature, args))
    numba_own = lowered(lambda builder, args: arrayobj.getitem_array_tuple(context, builder, signature, args))
    assert direct[-2:] == ["getelementptr", "load"] and direct.count("select") == 2
    assert 2 * len(direct) < len(numba_own)


def test_with_bounds_checking_an_index_out_of_range_still_raises():
    @numba.njit(boundscheck=True)
    def read(vector, i):
        return vector[i]

    assert read(np.arange(3.0), -3) == 0.0
    with pytest.raises(IndexError):
        read(np.arange(3.0), 3)


def _ranges(n, start):
    """Loops over ranges made in place (one or two arguments), kept in a variable, and of other steps."""
    total, last = 0, -100
    for i in range(n):
        total += i
        last = i
    for i in range(start, n):
        if i == 5:
            continue
        if i > 40:
            break
        for j in range(i, start, -1):
            total += i * j
    kept = range(start, n)
    for i in kept:
        total -= i
    for i in range(n, start, -2):
        total += 3 * i
    return total, last


def test_range_loops_run_as_python_runs_them():
    assert numba_patches.RANGES_LOWERED_DIRECTLY
    compiled = numba.njit(_ranges)
    for n, start in ((0, 0), (1, 0), (7, 2), (7, 9), (-3, -8), (60, -4), (3, 10**12)):
        assert compiled(n, start) == _ranges(n, start)


def test_a_zero_step_still_raises():
    @numba.njit
    def stepped(n, step):
        total = 0
        for i in range(0, n, step):
            total += i
        return total

    assert stepped(7, 3) == 9
    with pytest.raises(ValueError, match="must not be zero"):
        stepped(7, 0)


def test_a_range_made_in_place_is_iterated_without_its_zero_step_check_or_division():
    context = cpu_target.target_context
    context.refresh()
    state_type, iterator_type = types.range_state64_type, types.range_iter64_type
    module = llvm_ir.Module()
    function = llvm_ir.Function(module, llvm_ir.FunctionType(llvm_ir.VoidType(), [llvm_ir.IntType(64)]), "loop")
    builder = llvm_ir.IRBuilder(function.append_basic_block())
    make = context._defns[range].find((types.int64,))
    state = make(context, builder, state_type(types.int64), function.args)
    iterate = context._defns["getiter"].find((state_type,))
    iterate(context, builder, iterator_type(state_type), (state,))
    operations = [instruction.opname for block in function.blocks for instruction in block.instructions]
    assert "sdiv" not in operations and "srem" not in operations and len(function.blocks) == 1
    assert len(operations) < 20


def _nested(records, i):
    vector = records[i]["v"]
    vector[0] = vector[-1] + 2.0
    return vector[1] + records[-1]["v"][i]


def test_an_array_inside_a_record_is_read_and_written_as_numpy_does():
    compiled = numba.njit(_nested)
    got, expected = (np.zeros(2, dtype=[("v", "f8", (3,))]) for _ in range(2))
    for records in (got, expected):
        records["v"] = np.arange(6.0).reshape(2, 3)
    assert compiled(got, 1) == _nested(expected, 1)
    np.testing.assert_array_equal(got["v"], expected["v"])
