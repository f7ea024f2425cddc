"""An array assigned to a slice of another shape raises numba's plain ValueError in the solver's
process (kernels/jit._plain_slice_errors): still an error, but without the string code that named
both shapes, which numba compiled into every kernel holding such an assignment."""
import numba
import numpy as np
import pytest
from numba.core import event

from mechbake.solver.kernels import jit


class CompiledModules(event.Listener):
    def __init__(self):
        self.modules = set()

    def on_start(self, ev):
        self.modules.add(ev.data["dispatcher"].py_func.__module__)

    def on_end(self, ev):
        pass


def test_a_slice_of_another_shape_raises_without_compiling_string_code():
    assert jit.PLAIN_SLICE_ERRORS  # the numba the extension bundles has the overload swapped

    @numba.njit
    def assign(target, source):
        target[1:3] = source

    listener = CompiledModules()
    with event.install_listener("numba:compile", listener):
        target = np.zeros(4)
        assign(target, np.array([1.0, 2.0]))
        with pytest.raises(ValueError, match="cannot assign slice from input of different size"):
            assign(target, np.ones(3))
    assert list(target) == [0.0, 1.0, 2.0, 0.0]
    assert "numba.cpython.unicode" not in listener.modules
