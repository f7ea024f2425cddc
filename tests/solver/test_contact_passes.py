"""The contacts' projected Gauss-Seidel passes (kernels/contact/passes.py): each contact's tangential
block in its eigenbasis, found once a call; passes that converge linearly stop as soon as their rate
shows they cannot reach the tolerance within the passes left, and not before."""
import numpy as np

from mechbake.solver.kernels.contact.passes import STALL_PASSES, out_of_reach, tangent_bases

TOLERANCE = 1e-6


def recent_changes(before: float) -> np.ndarray:
    """The changes of the last STALL_PASSES passes, each `before`."""
    return np.full(STALL_PASSES, before)


def test_passes_halving_their_change_every_stall_window_need_that_many_windows():
    # 1e-3 -> 1e-6 halving every STALL_PASSES passes: log2(1000) = 9.97 windows, 159.4 passes
    needed = STALL_PASSES * np.log2(1e-3 / TOLERANCE)
    change = 1e-3
    assert out_of_reach.py_func(recent_changes(2 * change), STALL_PASSES, change, TOLERANCE, int(needed) - 1)
    assert not out_of_reach.py_func(recent_changes(2 * change), STALL_PASSES, change, TOLERANCE, int(needed) + 1)


def test_passes_not_yet_measured_converged_or_not_falling_are_left_to_the_other_rules():
    change = 1e-3
    # the first STALL_PASSES passes have nothing to compare with
    assert not out_of_reach.py_func(np.full(STALL_PASSES, np.inf), 3, change, TOLERANCE, 0)
    # below the tolerance: converged
    assert not out_of_reach.py_func(recent_changes(1.0), STALL_PASSES, 0.5 * TOLERANCE, TOLERANCE, 0)
    # a change that does not fall is the stall rule's (passes.stalled)
    assert not out_of_reach.py_func(recent_changes(change), STALL_PASSES, change, TOLERANCE, 0)
    assert not out_of_reach.py_func(recent_changes(change), STALL_PASSES, 2 * change, TOLERANCE, 0)


def test_each_tangential_block_is_found_in_its_eigenbasis():
    rng = np.random.default_rng(7)
    block = np.empty((5, 3, 3))
    for c in range(5):
        rows = rng.standard_normal((3, 4))
        block[c] = rows @ rows.T  # a contact's K: symmetric, positive definite
    basis = tangent_bases.py_func(block)
    for c in range(5):
        tangential = block[c, 1:, 1:]
        low, high = np.linalg.eigvalsh(tangential)
        assert np.allclose(basis[c, 2:], [low, high], rtol=1e-12)
        direction = basis[c, :2]  # the larger eigenvalue's
        assert np.allclose(tangential @ direction, high * direction, rtol=1e-12, atol=1e-12 * high)
