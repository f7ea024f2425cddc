"""What the solver's process changes in numba to compile less (kernels/jit.py), each change only in
what is compiled, never in what a kernel computes: an array assigned to a slice of another shape raises
numba's plain ValueError, compile flags compare as numba defines them but faster, an overload's
implementation is compiled once for kernels with and without a Python entry, and a call's type is
resolved once for the same argument types."""
import operator

import numba
import numpy as np
import pytest
from numba.core import errors, event, types, utils
from numba.core.compiler import Flags
from numba.core.registry import cpu_target

from mechbake.solver.kernels import jit


class Compiles(event.Listener):
    """The functions numba compiles while installed: (module, qualified name, argument types)."""

    def __init__(self):
        self.compiled = []

    def on_start(self, ev):
        function = ev.data["dispatcher"].py_func
        self.compiled.append((function.__module__, function.__qualname__, str(ev.data["args"])))

    def on_end(self, ev):
        pass


def test_a_slice_of_another_shape_raises_without_compiling_string_code():
    assert jit.PLAIN_SLICE_ERRORS  # the numba the extension bundles has the overload swapped

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
    assert jit.QUICK_FLAG_COMPARISON
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
    assert jit.OVERLOADS_SHARED_BY_WRAPPERS

    @numba.njit(no_cpython_wrapper=True)
    def inner(n):
        return np.empty((n, 7), dtype=np.uint16)  # a shape and type no other test compiles

    @numba.njit
    def entry(n):
        return inner(n).shape[0] + np.empty((n, 7), dtype=np.uint16).shape[0]

    listener = Compiles()
    with event.install_listener("numba:compile", listener):
        assert entry(3) == 6
    empties = [args for module, name, args in listener.compiled if name == "ol_np_empty.<locals>.impl"]
    assert empties == ["(UniTuple(int64, 2), class(uint16))"]


def test_a_call_type_is_resolved_once_for_the_same_argument_types(monkeypatch):
    """numba orders a function's templates once per resolution it makes: counted, a repeated
    resolution makes none, one of other types makes its own, and one that fails fails each time."""
    assert jit.CALL_TYPES_KEPT
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
