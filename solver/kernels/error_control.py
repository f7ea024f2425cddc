"""Error control's steps in one kernel call (solver/error_control.py has the rule and its constants;
docs/error_control.md the design). Each checked sub-step is taken as two halves and then, from the
same start, whole, which is kept when its estimated local error (Schmitt §8's step doubling) per unit
time is within the tolerance, else undone and retried shorter; while the estimate finds the steps
accurate with room, steps run unchecked in between. Every sub-step is advance_steps' own, with its
halvings (Schmitt §5) as the net inside each piece.

control (error_control.CONTROL_SIZE,) is carried from call to call (its places are named there).
"""
import numpy as np

from ..codes import DONE, TOO_INACCURATE
from ..error_control import (ACCURATE, CHECK_EVERY, GAP_NOISE, LARGEST_RATIO, LEAST_FACTOR, MOST_FACTOR,
                             MOST_UNCHECKED, PROPOSED, REJECTED, SAFETY, SHORTEST, SMALLEST_SUBSTEP, UNCHECKED_LEFT)
from . import rows as joint_rows, warm_start
from .correction import advance_steps, copy_state
from .jit import borrowing_entry_kernel, borrowing_kernel


@borrowing_entry_kernel
def length_factor(error_ratio):
    """How much the next sub-step is to grow (or shrink) after one whose error per unit time was
    error_ratio times the tolerance: that error goes as the length squared."""
    if error_ratio <= 0.0:
        return MOST_FACTOR
    return min(max(SAFETY * error_ratio**-0.5, LEAST_FACTOR), MOST_FACTOR)


@borrowing_kernel
def local_error(model, lengths, whole, halves, error):
    """error (n,) <- the local error of one step, m, estimated from it (`whole`) and two steps of half
    its length from the same start (`halves`): the error is c L^3, so p(L) - p(L/2, L/2) = 3/4 c L^3,
    and the estimate is 4/3 of their difference, the centre's plus the rotation's angle times the body's
    radius of gyration (`lengths` (n,), error_control.body_lengths). Bodies the step does not move
    count 0."""
    for b in range(error.shape[0]):
        error[b] = 0.0
        if not model.body_inv_mass[b] > 0.0:  # the world, fixed and animated bodies
            continue
        centre = 0.0
        for i in range(3):
            centre += (halves.position[b, i] - whole.position[b, i]) ** 2
        whole_b, halves_b = whole.rotation[b], halves.rotation[b]
        sine = 0.5 * np.sqrt((_relative(whole_b, halves_b, 2, 1) - _relative(whole_b, halves_b, 1, 2)) ** 2
                             + (_relative(whole_b, halves_b, 0, 2) - _relative(whole_b, halves_b, 2, 0)) ** 2
                             + (_relative(whole_b, halves_b, 1, 0) - _relative(whole_b, halves_b, 0, 1)) ** 2)
        cosine = 0.5 * (_relative(whole_b, halves_b, 0, 0) + _relative(whole_b, halves_b, 1, 1)
                        + _relative(whole_b, halves_b, 2, 2) - 1.0)
        error[b] = 4.0 / 3.0 * (np.sqrt(centre) + np.arctan2(sine, cosine) * lengths[b])


@borrowing_kernel
def _relative(whole, halves, i, k):
    """(R_whole^T R_halves)[i, k] of two (3, 3) rotations."""
    return whole[0, i] * halves[0, k] + whole[1, i] * halves[1, k] + whole[2, i] * halves[2, k]


@borrowing_entry_kernel
def estimated_substep(model, settings, state, saved, start, halves, rows, flight, work, length, h, inner, lengths,
                      error, stats, driven):
    """A sub-step of `length` taken as two halves and then, from the same start, whole, which it keeps
    (an accurate step is then the step an uncontrolled run takes: sub-steps of changing length cost a
    symmetric method its long-run energy); error (n,) <- each body's estimated local error of the whole
    sub-step, m (local_error). `inner` is advance_steps' control. Returns what advance_steps returns."""
    copy_state(state, start)
    warm_start.swap_aside(work)  # the halves keep the warm start's history of the run apart
    inner[0], inner[1] = 0.5 * length, 0.0
    done, stopped, status, index, size, failed = advance_steps(model, settings, state, saved, rows, flight, work,
                                                               0.5 * length, 2, h, inner, stats, driven)
    if stopped:
        return done, stopped, status, index, size, failed
    copy_state(state, halves)
    copy_state(start, state)
    warm_start.swap_aside(work)
    joint_rows.build(model, settings.solver, state.position, state.rotation, rows)
    inner[0], inner[1] = length, 0.0
    done, stopped, status, index, size, failed = advance_steps(model, settings, state, saved, rows, flight, work,
                                                               length, 1, h, inner, stats, driven)
    if stopped:
        return done, stopped, status, index, size, failed
    local_error(model, lengths, state, halves, error)
    return 1, 0, DONE, -1, 0.0, 0.0


@borrowing_entry_kernel
def controlled_steps(model, settings, state, saved, start, halves, rows, flight, work, steps, h, tolerance, lengths,
                     error, control, inner, stats, driven):
    """`steps` steps of h for a mechanism without contacts under error control; `rows` hold the state's
    instant on entry and on return. A checked step is cut into even pieces that end on its end (a
    frame's keys stay on frames), each kept when its error per unit time is within `tolerance` (errors
    within GAP_NOISE Dmax are the joints' own closing, which no shorter step removes), else undone and
    retried at the length the estimate allows; an accurate step lets the next 1, 3, 7, ... run
    unchecked. Returns (steps done, why they stopped (0, advance_steps' reasons, or TOO_INACCURATE),
    the failure's status, index, size and sub-step length): for TOO_INACCURATE the body with the
    largest error, that error and the length it was met at."""
    floor = GAP_NOISE * settings.dmax
    for step in range(steps):
        if control[UNCHECKED_LEFT] > 0.0 and control[PROPOSED] >= h:
            done, stopped, status, index, size, failed = advance_steps(model, settings, state, saved, rows, flight,
                                                                       work, h, 1, h, inner, stats, driven)
            if stopped:
                return step, stopped, status, index, size, failed
            control[UNCHECKED_LEFT] -= 1.0
            continue
        end, remaining = state.time[0] + h, h
        accurate = True
        while remaining > 1e-9 * h:
            proposal = control[PROPOSED]
            length = remaining / np.ceil(remaining / proposal - 1e-9)  # the rest of the step in even pieces
            done, stopped, status, index, size, failed = estimated_substep(
                model, settings, state, saved, start, halves, rows, flight, work, length, h, inner, lengths, error,
                stats, driven)
            if stopped:
                return step, stopped, status, index, size, failed
            largest = 0.0
            for b in range(error.shape[0]):
                largest = max(largest, error[b])
            ratio = largest / max(tolerance * length, floor)
            control[LARGEST_RATIO] = max(control[LARGEST_RATIO], ratio)
            factor = length_factor(ratio)
            if ratio > 1.0:
                copy_state(start, state)
                joint_rows.build(model, settings.solver, state.position, state.rotation, rows)
                control[REJECTED] += 1.0
                control[PROPOSED] = length * min(factor, SAFETY)
                accurate = False
                if control[PROPOSED] < h * SHORTEST:
                    return step, TOO_INACCURATE, DONE, np.argmax(error), largest, length
                continue
            remaining -= length
            control[SMALLEST_SUBSTEP] = min(control[SMALLEST_SUBSTEP], length)
            accurate = accurate and ratio < ACCURATE and length >= h
            grown = length * factor  # a piece shortened to fit the step says nothing against the proposal
            control[PROPOSED] = min(h, max(grown, proposal) if factor >= 1.0 else grown)
        state.time[0] = end
        inner[0], inner[1] = control[PROPOSED], 0.0
        control[CHECK_EVERY] = min(2.0 * control[CHECK_EVERY], MOST_UNCHECKED) if accurate else 1.0
        control[UNCHECKED_LEFT] = control[CHECK_EVERY] - 1.0
    return steps, 0, DONE, -1, 0.0, 0.0
