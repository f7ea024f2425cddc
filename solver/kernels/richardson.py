"""Schmitt §8's Richardson combination for mechanisms without contacts, in one kernel call: every
step is taken once at h and twice at h/2 from the same start, and the two results are combined as
p = -1/3 p(h) + 4/3 p(h/2, h/2), which cancels the method's O(h^2) error term (positions, rotations
made orthonormal again, velocities and joint coordinates alike), where the combination stays on the
joints. Scenes with contacts take their steps in simulation.py and combine them here as well."""
import numpy as np

from ..codes import DONE, UNCOMBINED
from . import rows as joint_rows
from .correction import advance_steps, copy_state, joint_errors, joint_gaps
from .flight import orthonormalize
from .jit import borrowing_entry_kernel, borrowing_kernel

# Two results within Dmax (Vmax) of the joints combine to within (1/3 + 4/3) of it, plus the joints'
# curvature: results a distance d apart on a lever R combine (2/9) d^2 / R off it. A combination
# further off than both is no small correction of the O(h^2) term (its links turn more than about
# 0.02 rad between the two results: (2/9) d / R > CURVATURE_SHARE) but a step out of the method's
# reach, and the step keeps its two halves
COMBINED_SLACK = 5.0 / 3.0
CURVATURE_SHARE = 0.005


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


@borrowing_kernel
def largest_differences(coarse, fine):
    """How far apart the two results are: the largest distance between a body's centres, and between
    its velocities."""
    apart = apart_speed = 0.0
    for b in range(fine.position.shape[0]):
        distance = speed = 0.0
        for i in range(3):
            distance += (fine.position[b, i] - coarse.position[b, i]) ** 2
            speed += (fine.twist[b, i] - coarse.twist[b, i]) ** 2
        apart, apart_speed = max(apart, np.sqrt(distance)), max(apart_speed, np.sqrt(speed))
    return apart, apart_speed


@borrowing_kernel
def on_the_joints(model, settings, state, rows, work, apart, apart_speed):
    """Whether every joint's gap and rate in `state` (its rows built) is within COMBINED_SLACK of Dmax
    and Vmax or CURVATURE_SHARE of how far apart the two results' centres and velocities were."""
    joint_errors(model, state.position, state.rotation, work)
    worst = joint_gaps(model, work.errors, work.gaps)
    if worst >= 0 and not work.gaps[worst] <= max(COMBINED_SLACK * settings.dmax, CURVATURE_SHARE * apart):
        return False
    joint_rows.rates(model, rows, state.twist, work.errors)
    worst = joint_gaps(model, work.errors, work.gaps)
    return worst < 0 or work.gaps[worst] <= max(COMBINED_SLACK * settings.vmax, CURVATURE_SHARE * apart_speed)


@borrowing_entry_kernel
def combine_on_the_joints(model, settings, coarse, state, saved, rows, work, stats):
    """state = -1/3 coarse + 4/3 state (combine) where that leaves every joint on_the_joints; else
    state as it was, counted as UNCOMBINED. `rows` are built at the state's instant on return; `saved`
    (state arrays of its shapes) is scratch."""
    apart, apart_speed = largest_differences(coarse, state)
    copy_state(state, saved)
    combine(model, coarse, state)
    joint_rows.build(model, settings.solver, state.position, state.rotation, rows)
    if not on_the_joints(model, settings, state, rows, work, apart, apart_speed):
        copy_state(saved, state)
        joint_rows.build(model, settings.solver, state.position, state.rotation, rows)
        stats[UNCOMBINED] += 1


@borrowing_entry_kernel
def richardson_steps(model, settings, state, saved, start, coarse, rows, flight, work, h, steps, control, stats,
                     driven):
    """`steps` steps of h, each combined from one step of h and two of h/2 (advance_steps, with its
    halvings), or the two of h/2 where the combination leaves the joints (on_the_joints; counted as
    UNCOMBINED); `start` and `coarse` are state arrays of the state's shapes. `rows` hold the state's
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
        combine_on_the_joints(model, settings, coarse, state, saved, rows, work, stats)
    return steps, 0, DONE, -1, 0.0, 0.0
