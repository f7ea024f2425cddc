"""Schmitt §8's Richardson combination for mechanisms without contacts, in one kernel call: every
step is taken once at h and twice at h/2 from the same start, and the two results are combined as
p = -1/3 p(h) + 4/3 p(h/2, h/2), which cancels the method's O(h^2) error term (positions, rotations
made orthonormal again, velocities and joint coordinates alike). Scenes with contacts take their
steps in simulation.py and combine them here as well."""
from ..codes import DONE
from . import rows as joint_rows
from .correction import advance_steps, copy_state
from .flight import orthonormalize
from .jit import borrowing_entry_kernel


@borrowing_entry_kernel
def combine(model, coarse, fine):
    """fine = -1/3 coarse + 4/3 fine, in place (Schmitt §8's p3 = -1/3 p1 + 4/3 p2)."""
    for b in range(fine.position.shape[0]):
        for i in range(3):
            fine.position[b, i] = (4.0 * fine.position[b, i] - coarse.position[b, i]) / 3.0
            for k in range(3):
                fine.rotation[b, i, k] = (4.0 * fine.rotation[b, i, k] - coarse.rotation[b, i, k]) / 3.0
        if model.body_rotates[b]:
            orthonormalize(fine.rotation[b])
        for i in range(6):
            fine.twist[b, i] = (4.0 * fine.twist[b, i] - coarse.twist[b, i]) / 3.0
    for a in range(fine.axis_coordinate.shape[0]):
        fine.axis_coordinate[a] = (4.0 * fine.axis_coordinate[a] - coarse.axis_coordinate[a]) / 3.0


@borrowing_entry_kernel
def richardson_steps(model, settings, state, saved, start, coarse, rows, flight, work, h, steps, control, stats,
                     driven):
    """`steps` steps of h, each combined from one step of h and two of h/2 (advance_steps, with its
    halvings); `start` and `coarse` are state arrays of the state's shapes. `rows` hold the state's
    instant on entry and on return. Returns what advance_steps returns, the steps counted whole."""
    for step in range(steps):
        copy_state(state, start)
        done, stopped, status, index, size, length = advance_steps(model, settings, state, saved, rows, flight, work,
                                                                   h, 1, h, control, stats, driven)
        if stopped:
            return step, stopped, status, index, size, length
        copy_state(state, coarse)
        copy_state(start, state)
        joint_rows.build(model, settings.solver, state.position, state.rotation, rows)
        done, stopped, status, index, size, length = advance_steps(model, settings, state, saved, rows, flight, work,
                                                                   0.5 * h, 2, h, control, stats, driven)
        if stopped:
            return step, stopped, status, index, size, length
        combine(model, coarse, state)
        joint_rows.build(model, settings.solver, state.position, state.rotation, rows)
    return steps, 0, DONE, -1, 0.0, 0.0
