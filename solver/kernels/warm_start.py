"""A warm start of the joint correction (P-steps 1-2) for a mechanism with loop drives.

Schmitt's look-ahead starts each sub-step from the bodies' own velocities, so its first sweep finds
the joints as far open as gravity's and the servos' pull over the step takes them, and a servo
tracking a moving target turns the arm within the step enough for a second solve. Started instead
from the impulses the last two sub-steps of the same length needed (per second, extrapolated
linearly to this one), the first look-ahead finds the joints nearly closed and one solve finishes
the step (docs/servo_cost.md). The guess is only a start: the sweeps still close every joint, and
a guess that makes them grow is taken back and the sub-step corrected from its own velocities.
"""
import numpy as np

from ..drives import MOTOR_POSITION, MOTOR_VELOCITY
from . import rows as joint_rows
from .drives import push_along_axis
from .jit import borrowing_kernel
from .rows import LOCKED

# A guessed start closes the joints to this share of Dmax: a guess that happens to leave a gap just
# under Dmax would be accepted there, and the next guess, extrapolated from it, would leave it again
# (IFToMM A02's crank drifted 0.07 rad that way in 10 s).
WARM_SHARE = 0.3
# Two sub-steps follow each other, and share their length, to this share of the length.
SAME_INSTANT = 1e-9


@borrowing_kernel
def applies(work, t, h):
    """Whether the last two kept sub-steps (work.warm_spans) had length h and ended at t and t - h."""
    spans, tolerance = work.warm_spans, SAME_INSTANT * h
    return (abs(spans[0, 0] - t) <= tolerance and abs(spans[1, 0] - (t - h)) <= tolerance
            and abs(spans[0, 1] - h) <= tolerance and abs(spans[1, 1] - h) <= tolerance)


@borrowing_kernel
def guess(model, state, rows, work, h):
    """The guessed impulses applied to state.twist: the joints' rows' along `rows` (the step's start),
    summed into work.row_impulse, and the position and velocity motors' through the joints, within
    what their budgets allow before the flight, into work.accumulated. The twist before is kept in
    work.twist_before for take_back."""
    rates = work.warm_rates
    for b in range(state.twist.shape[0]):
        for i in range(6):
            work.twist_before[b, i] = state.twist[b, i]
    row_count = model.row_joint.shape[0]
    for r in range(row_count):
        work.row_impulse[r] = (2.0 * rates[0, r] - rates[1, r]) * h
    joint_rows.apply_row_impulses(model, rows, work.row_impulse, state.twist)
    joint_rows.prepare_drive_rows(model, rows)
    for k in range(model.drive_kind.shape[0]):
        kind = model.drive_kind[k]
        if kind == MOTOR_POSITION:
            budget = model.drive_max_effort[k] * h
        elif kind == MOTOR_VELOCITY:  # half its budget before the flight (drives.solve_loop_drives)
            budget = 0.5 * model.drive_max_effort[k] * h
        else:
            continue
        a = model.drive_axis[k]
        if rows.drive_stiffness[a] <= LOCKED:
            continue
        impulse = min(max((2.0 * rates[0, row_count + k] - rates[1, row_count + k]) * h, -budget), budget)
        work.accumulated[k] = impulse
        push_along_axis(rows, a, impulse, state.twist)


@borrowing_kernel
def take_back(state, work):
    """The twist as it was before the guess, and no impulse spent."""
    for b in range(state.twist.shape[0]):
        for i in range(6):
            state.twist[b, i] = work.twist_before[b, i]
    work.row_impulse[:] = 0.0
    work.accumulated[:] = 0.0


@borrowing_kernel
def keep(model, work, end, h):
    """A kept sub-step of length h that ended at `end`: its joint correction's impulses (row_impulse,
    accumulated), per second, become the last of the two the next guess extrapolates from."""
    rates, spans = work.warm_rates, work.warm_spans
    row_count = model.row_joint.shape[0]
    for i in range(rates.shape[1]):
        rates[1, i] = rates[0, i]
    for r in range(row_count):
        rates[0, r] = work.row_impulse[r] / h
    for k in range(model.drive_kind.shape[0]):
        rates[0, row_count + k] = work.accumulated[k] / h
    spans[1, 0], spans[1, 1] = spans[0, 0], spans[0, 1]
    spans[0, 0], spans[0, 1] = end, h


@borrowing_kernel
def swap_aside(work):
    """The guesses' history exchanged with work.aside_rates and aside_spans: a step-doubling estimate
    sets the history aside before its halves and brings it back before its whole step, which then
    starts as an uncontrolled run's would."""
    for i in range(work.warm_rates.shape[0]):
        for k in range(work.warm_rates.shape[1]):
            work.warm_rates[i, k], work.aside_rates[i, k] = work.aside_rates[i, k], work.warm_rates[i, k]
        for k in range(2):
            work.warm_spans[i, k], work.aside_spans[i, k] = work.aside_spans[i, k], work.warm_spans[i, k]


def forget(work) -> None:
    """No guess until two new sub-steps are kept (a state set from outside)."""
    work.warm_spans[:] = np.nan
    work.aside_spans[:] = np.nan
