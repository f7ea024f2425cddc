"""P-steps 1 and 2 with contact pairs (Schmitt §11): the correction loop in which the joints, the loop
drives and the step's contact rows take turns until every joint gap is below Dmax and the contact
impulses have settled, one kernel call per sub-step (contact/impulse.ContactRows builds the rows).

Contact arrays, m contacts (as kernels/contact/passes.py, plus their geometry):
  body (m, 2)            body a (the surface), body b (the probe)
  probe_b (m, 3)         the probe, b's principal frame; radius (m,) its radius
  surface_a (m, 3)       a point of the tangent plane, a's principal frame; normal_a (m, 3) its normal
  local (m, 2, 3)        the contact point as a material point of a and of b
  directions (m, 3, 3)   rows: normal, tangent, binormal, world, at the start of the step
  targets (m,)           the least look-ahead gap each contact is held to (contact/impulse.gap_targets)
"""
import numpy as np

from ...codes import SETTLE_RETRY_WORK, TOUCHING
from .passes import STALL_PASSES, look_ahead_residual, position_pass, row_rates, stalled, tangent_bases
from ..correction import correct_joints_and_drives, hand_over, solves_whole, watched_look
from ..flight import fly
from .held_contacts import settle
from ..jit import borrowing_kernel, entry_kernel
from .narrow_phase import separation_of
from ..vector import rotated_component


@borrowing_kernel
def gaps_and_slips(body, probe_b, radius, surface_a, normal_a, local, directions, position, rotation, gap, slip):
    """In the frames given (position (n, 3), rotation (n, 3, 3)): each contact's separation (m,)
    (negative: overlapping) and the displacement (m, 2) of b's contact point against a's along the
    two tangents."""
    for c in range(body.shape[0]):
        a, b = body[c, 0], body[c, 1]
        gap[c] = separation_of(position, rotation, a, b, probe_b, radius, surface_a, normal_a, c)
        slip[c, 0], slip[c, 1] = 0.0, 0.0
        for i in range(3):
            apart = (material_point(position, rotation, b, local, c, 1, i)
                     - material_point(position, rotation, a, local, c, 0, i))
            slip[c, 0] += directions[c, 1, i] * apart
            slip[c, 1] += directions[c, 2, i] * apart


@borrowing_kernel
def close_enough(contact_rows, gap_h, slip_h, rates_at_look, twist, h, largest_change, dmax, loose, scratch):
    """Whether a loop that cannot settle its contacts further keeps its step: its last pass changed no gap
    by Dmax, or (`loose`) by codes.TOUCHING and left no contact deeper than TOUCHING below its target at
    the look-ahead (passes.look_ahead_residual). scratch (2, 3): workspace."""
    if largest_change < dmax:
        return True
    if not (loose and largest_change < TOUCHING):
        return False
    rates, residual = scratch[0], scratch[1]
    for c in range(gap_h.shape[0]):
        look_ahead_residual(contact_rows, gap_h, slip_h, rates_at_look, twist, h, c, rates, residual)
        if residual[0] * h < -TOUCHING:
            return False
    return True


@borrowing_kernel
def material_point(position, rotation, body, local, c, side, i):
    """Coordinate i in the world of contact c's point as a material point of `body`, its `side` (0: a,
    1: b) of local (m, 2, 3)."""
    return (rotated_component(rotation, body, i, local[c, side, 0], local[c, side, 1], local[c, side, 2])
            + position[body, i])


@entry_kernel
def correct_positions(model, settings, state, rows, flight, work, h, stats, loop_drives, driven, jointed, body, probe_b,
                      radius, surface_a, normal_a, local, directions, targets, contact_rows, block, accumulated,
                      friction, tightness, passes, settle_wait):
    """The loop of sweeps: look ahead, correct the joints (and the loop drives), one projected
    Gauss-Seidel pass over the contacts; it ends when no joint is off by Dmax, the drives have
    settled and each contact's impulses change by less than its `tightness` (m,) times Dmax. Returns
    (the joints and drives converged, the contacts did, the worst joint, its gap, passes made, whether the last
    look-ahead still holds, the passes the next call waits before its direct step). Out of sweeps, the
    contacts count as converged if their last pass changed no gap by Dmax or the direct step closed
    them: only their tight tolerance is missing, which a smaller step would not reach faster. So do
    they, without waiting for the sweeps to run out, once the passes have stalled (STALL_PASSES). A
    loop that cannot reach Dmax so (stalled, or out of at least STALL_PASSES sweeps) keeps its step
    while its contacts stay touching (close_enough): passes on sliding contacts whose friction follows
    the normals can cycle without end (the problem is not monotone: docs/limits.md), and a halving
    shrinks the cycle only as h^2. A direct
    step that fails is tried again only after passes that did a multiple of its work, in this call or the next
    (`settle_wait` passes in, the rest out), so that failing tries cost at most a fraction of the passes
    (codes.SETTLE_RETRY_WORK).
    The joints' impulses take their levers at the step's start here, whatever settings.levers says
    (and so the velocity correction's at its end: work.levers_ready). jointed: None for a model
    without joints (arrays.joints_flag): a sweep is then the look-ahead's flight and a pass."""
    work.levers_ready[0] = False
    m = body.shape[0]
    gap_h, slip_h = np.empty(m), np.empty((m, 2))
    rates_at_look = np.empty((m, 3))
    twist = state.twist.reshape(-1)
    first_worst = -1.0
    joints_settled = False
    flight_valid = False
    next_settle = passes + settle_wait  # the pass after which the direct step for the held contacts is tried
    settled = False  # the last sweep ended in a direct step
    contact_change = largest_change = np.inf
    joint, gap = -1, 0.0
    whole = solves_whole(model, settings, rows)
    # a loop that cannot reach Dmax (stalled, or out of at least STALL_PASSES passes) may keep TOUCHING
    loose = settings.max_corrections >= STALL_PASSES and TOUCHING > settings.dmax
    recent = np.full(STALL_PASSES, np.inf)  # the last STALL_PASSES passes' changes, by pass number
    basis = tangent_bases(block)  # each contact's tangential block in its eigenbasis, the same in every pass
    nothing_carried, scratch = np.zeros((1, 3)), np.empty((3, 3))  # position_pass's
    checkpoint = np.inf  # the worst joint gap correction.RATE_WINDOW sweeps ago
    for sweep in range(settings.max_corrections):
        if jointed is not None:
            joint, gap, first_worst, going = watched_look(model, settings, state, rows, flight, work, h, first_worst,
                                                          driven)
            if not going and whole:
                return False, False, joint, gap, passes, False, max(next_settle - passes, 1)
            whole, first_worst, checkpoint = hand_over(settings, sweep, going, whole, gap, first_worst, checkpoint)
        else:
            fly(model, settings.taylor_order, state.time[0], state.position, state.rotation, state.twist, h, flight,
                driven)
        gaps_and_slips(body, probe_b, radius, surface_a, normal_a, local, directions, flight.position,
                       flight.rotation, gap_h, slip_h)
        for c in range(m):
            gap_h[c] -= targets[c]
            row_rates(contact_rows, c, twist, rates_at_look[c])
        corrected, drive_change, drives_moved = 0, 0.0, False
        if jointed is not None:
            corrected, drive_change, drives_moved = correct_joints_and_drives(
                model, settings, state, rows, flight, work, h, stats, loop_drives, whole, driven, settings.dmax)
        joints_settled = corrected == 0 and drive_change < settings.dmax
        passes += 1
        # each contact to its own tightness: a resting body's far below Dmax, so that it does not creep
        largest_change, contact_change = position_pass(contact_rows, block, basis, accumulated, friction, gap_h, slip_h,
                                                       rates_at_look, twist, h, passes % 2 == 0, tightness,
                                                       nothing_carried, scratch)
        flight_valid = corrected == 0 and not drives_moved and contact_change == 0.0
        passes_stalled = stalled(recent, sweep, contact_change)
        if joints_settled and (contact_change < settings.dmax or (passes_stalled and close_enough(
                contact_rows, gap_h, slip_h, rates_at_look, twist, h, largest_change, settings.dmax, loose, scratch))):
            return True, True, joint, gap, passes, flight_valid, max(next_settle - passes, 1)
        settled = False
        if passes >= next_settle and contact_change >= settings.dmax:  # the next sweep's pass measures what is left
            # islands may hold alone where a pass follows to measure the ones left to the passes
            a_pass_follows = sweep + 1 < settings.max_corrections
            settled, settle_work = settle(contact_rows, accumulated, friction, gap_h, slip_h, rates_at_look, twist, h,
                                          tightness * (settings.dmax / h), a_pass_follows)
            # tried again once the passes have doubled (they may have found the support by then) and
            # done SETTLE_RETRY_WORK times the work this try did
            if not settled:
                next_settle = max(2 * passes, passes + SETTLE_RETRY_WORK * settle_work // max(m, 1))
    kept = settled or close_enough(contact_rows, gap_h, slip_h, rates_at_look, twist, h, largest_change, settings.dmax,
                                   loose, scratch)
    return (joints_settled, kept, joint, gap, passes, flight_valid,
            max(next_settle - passes, 1))
