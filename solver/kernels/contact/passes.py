"""Schmitt §11's contact rows in kernels: projected Gauss-Seidel passes over the contacts of one step
(in the correction loop and in the velocity correction) and the impacts of contacts that start to
touch or hit. solver/contact/impulse.py builds the rows; the arrays here are:

  contact_rows         arrays.ContactRowArrays of each contact's normal, tangent and binormal rows
                       (kernels/contact/contact_rows.py)
  block (m, 3, 3)      each contact's own 3x3 block of K = J W
  accumulated (m, 3)   the step's normal, tangent and binormal impulses so far
  friction (m,)        Coulomb's mu of each contact
  twist (6 n,)         every body's linear | angular velocity, world, flattened
"""
import numpy as np

from .contact_rows import apply_impulse, row_rate
from ..jit import borrowing_kernel, entry_kernel, kernel

COULOMB_ITERATIONS = 30  # Newton steps of the sliding impulse (converges in a few)
# A direction of a contact's K below this fraction of its largest is one the joints lock: the system
# solve drops dependent joint rows exactly (kernels/sparse.py), so a contact on a hinged body has a
# singular block, and an impulse along such a direction would be infinite
FREE_DIRECTION = 1e-9
# Passes whose largest change is still STALL_RATIO of what it was STALL_PASSES passes before (an even
# number: passes alternate direction) make no progress: a wedge, where pushing one contact out
# presses another in, grows its impulses by the same amount every pass and never settles
STALL_PASSES = 16
STALL_RATIO = 0.99


@borrowing_kernel
def row_rates(contact_rows, c, twist, out):
    """out (3,) = the rates of contact c's three rows."""
    for r in range(3):
        out[r] = row_rate(contact_rows, c, r, twist)


@kernel
def tangent_bases(block):
    """(m, 4) each contact's 2x2 tangential block of K (block (m, 3, 3), rows 1-2) in its eigenbasis:
    cos and sin of the angle of the larger eigenvalue's direction, the smaller and the larger
    eigenvalue. The block stays the same through a call's passes: found once, not in every pass."""
    m = block.shape[0]
    basis = np.empty((m, 4))
    for c in range(m):
        a, b, d = block[c, 1, 1], 0.5 * (block[c, 1, 2] + block[c, 2, 1]), block[c, 2, 2]
        mean, spread = 0.5 * (a + d), np.hypot(0.5 * (a - d), b)
        angle = 0.5 * np.arctan2(2 * b, a - d)
        basis[c, 0], basis[c, 1] = np.cos(angle), np.sin(angle)
        basis[c, 2], basis[c, 3] = mean - spread, mean + spread
    return basis


@borrowing_kernel
def coulomb(current0, current1, slip0, slip1, a, b, c, d, cos, sin, low, high, limit):
    """The tangential impulse of one contact under Coulomb's law, as two numbers, given the current
    impulse (current0, current1), the slip rate with it in effect (slip0, slip1) and the contact's 2x2
    tangential block of K, rows (a, b) and (c, d), with its eigenbasis (tangent_bases: cos, sin, low,
    high).
    If the impulse that stops the slip lies within mu I_n (`limit`) the contact sticks (Schmitt's
    beta clamp).
    Otherwise it slides, and the impulse is the point of the disk nearest the stopping impulse in
    K's metric: there the remaining slip K (l - l_stop) is exactly opposite the friction impulse, the
    fixed point Schmitt's iterative friction direction seeks. (K + s I) l = K l_stop with |l| = limit
    is solved for s >= 0 in K's eigenbasis by Newton's method on 1/|l(s)|, nearly linear in s."""
    free = FREE_DIRECTION * high  # an eigenvalue below this is a direction the joints lock
    # the stopping impulse l_stop = current - K^+ slip: along a locked direction (a contact on a body
    # that a hinge lets move one way only) no impulse can act, and none is asked for
    slip_low, slip_high = -sin * slip0 + cos * slip1, cos * slip0 + sin * slip1
    undo_low = slip_low / low if low > free else 0.0
    undo_high = slip_high / high if high > free else 0.0
    stop0 = current0 - (-sin * undo_low + cos * undo_high)
    stop1 = current1 - (cos * undo_low + sin * undo_high)
    if np.hypot(stop0, stop1) <= limit:
        return stop0, stop1
    if limit <= 0.0 or high <= 0.0:
        return 0.0, 0.0
    pulled0 = a * stop0 + b * stop1  # K l_stop
    pulled1 = c * stop0 + d * stop1
    p_low, p_high = -sin * pulled0 + cos * pulled1, cos * pulled0 + sin * pulled1
    shift = 0.0
    largest = max(low, high)
    low = max(low, 0.0)  # a locked direction: p_low is 0 there, and so is its part
    for _ in range(COULOMB_ITERATIONS):
        part_low, part_high = _part(p_low, low, shift, free), p_high / (high + shift)
        size = np.sqrt(part_low * part_low + part_high * part_high)
        slope = (part_low * part_low / max(low + shift, free) + part_high * part_high / (high + shift)) / size ** 3
        step = (1.0 / limit - 1.0 / size) / slope
        shift = max(shift + step, 0.0)
        if abs(step) <= 1e-12 * (shift + largest):
            break
    part_low, part_high = _part(p_low, low, shift, free), p_high / (high + shift)
    return -sin * part_low + cos * part_high, cos * part_low + sin * part_high


@borrowing_kernel
def stalled(recent, made, change):
    """Whether the pass numbered `made` has stalled: its `change` is still STALL_RATIO of the change
    STALL_PASSES passes before, kept in `recent` (STALL_PASSES,), where it is recorded in turn."""
    slot = made % STALL_PASSES
    stopped = change >= STALL_RATIO * recent[slot]
    recent[slot] = change
    return stopped


@borrowing_kernel
def _part(pulled, eigenvalue, shift, free):
    """pulled / (eigenvalue + shift), 0 along a locked direction (eigenvalue + shift below `free`)."""
    return pulled / (eigenvalue + shift) if eigenvalue + shift > free else 0.0


@borrowing_kernel
def _project(contact_rows, block, basis, accumulated, friction, c, residual, normal_floor, carried, carried_row,
             twist, change):
    """Impulse change for contact c: the normal part only pushes (I_nsum >= normal_floor, 0 but for
    overlapping contacts in the velocity correction), the tangential part cancels the slip but stays
    within mu I_nsum (Schmitt's beta clamp). Coulomb's law bounds the step's whole impulse, so the
    cone holds carried[carried_row] (3,), what the contact took earlier in the step, plus I_sum. Returns
    the change's size as the largest row change it makes. change (3,): workspace, allocated by the
    caller once for all its contacts. Rows are read by index, not taken as views (a view costs a
    reference count)."""
    k00, k11, k22 = block[c, 0, 0], block[c, 1, 1], block[c, 2, 2]
    if not k00 > FREE_DIRECTION * (k00 + k11 + k22):
        return 0.0  # the joints lock the contact's normal: no impulse there can move it
    total_n = max(accumulated[c, 0] - residual[0] / k00, normal_floor)
    change0 = total_n - accumulated[c, 0]
    slip0 = residual[1] + block[c, 1, 0] * change0
    slip1 = residual[2] + block[c, 2, 0] * change0
    t0, t1 = coulomb(carried[carried_row, 1] + accumulated[c, 1], carried[carried_row, 2] + accumulated[c, 2],
                     slip0, slip1, block[c, 1, 1], block[c, 1, 2], block[c, 2, 1], block[c, 2, 2],
                     basis[c, 0], basis[c, 1], basis[c, 2], basis[c, 3],
                     friction[c] * max(carried[carried_row, 0] + total_n, 0.0))
    t0 -= carried[carried_row, 1]
    t1 -= carried[carried_row, 2]
    change[0] = change0
    change[1] = t0 - accumulated[c, 1]
    change[2] = t1 - accumulated[c, 2]
    accumulated[c, 0] = total_n
    accumulated[c, 1] = t0
    accumulated[c, 2] = t1
    apply_impulse(contact_rows, c, change, twist)
    largest = 0.0
    for r in range(3):
        largest = max(largest, abs(block[c, r, 0] * change[0] + block[c, r, 1] * change[1]
                                   + block[c, r, 2] * change[2]))
    return largest


@borrowing_kernel
def look_ahead_residual(contact_rows, gap_h, slip_h, rates_at_look, twist, h, c, rates, out):
    """out (3,): what is left of contact c's look-ahead gap and slip, moved on by what the impulses
    since the look-ahead changed, per unit of h (`rates` (3,) workspace)."""
    row_rates(contact_rows, c, twist, rates)
    out[0] = (gap_h[c] + h * (rates[0] - rates_at_look[c, 0])) / h
    out[1] = (slip_h[c, 0] + h * (rates[1] - rates_at_look[c, 1])) / h
    out[2] = (slip_h[c, 1] + h * (rates[2] - rates_at_look[c, 2])) / h


@borrowing_kernel
def position_pass(contact_rows, block, basis, accumulated, friction, gap_h, slip_h, rates_at_look, twist, h,
                  backwards, tightness, nothing_carried, scratch):
    """One projected Gauss-Seidel pass in the correction loop; the largest change, as a distance over
    h, and the largest over each contact's `tightness` (m,). What must vanish is the look-ahead gap (if
    negative) and slip, moved on by what the impulses since the look-ahead changed, per unit of h.
    Passes alternate direction (symmetric Gauss-Seidel): the contacts of one body share its load
    instead of the first in line taking it all. nothing_carried (1, 3) zeros and scratch (3, 3): the
    caller's, allocated once for all its passes."""
    m = block.shape[0]
    rates, residual, change = scratch[0], scratch[1], scratch[2]
    largest, measured = 0.0, 0.0
    for k in range(m):
        c = m - 1 - k if backwards else k
        look_ahead_residual(contact_rows, gap_h, slip_h, rates_at_look, twist, h, c, rates, residual)
        moved = _project(contact_rows, block, basis, accumulated, friction, c, residual, 0.0, nothing_carried, 0,
                         twist, change) * h
        largest = max(largest, moved)
        measured = max(measured, moved / tightness[c])
    return largest, measured


@borrowing_kernel
def velocity_pass(contact_rows, block, basis, accumulated, friction, normal_floor, carried, twist, backwards, scratch):
    """One pass of P-step 4 for the contacts: no approaching normal rate, and the slip braked within mu
    times the step's normal impulse, the loop's `carried` (m, 3) with this correction's. Friction
    belongs here too: the support of a resting body is shared between the loop (half a step of
    gravity) and this correction (the other half), while a motor drives or brakes its wheel here. An
    overlapping contact (normal_floor (m,) -inf) may also pull: its normal rate is brought to zero,
    so being pushed out leaves no speed. scratch (2, 3): the caller's, allocated once for all its passes."""
    m = block.shape[0]
    residual, change = scratch[0], scratch[1]
    largest = 0.0
    for k in range(m):
        c = m - 1 - k if backwards else k
        row_rates(contact_rows, c, twist, residual)
        if residual[0] > 0 and accumulated[c, 0] == 0 and normal_floor[c] == 0.0:
            continue  # separating and not pressed: nothing to do
        moved = _project(contact_rows, block, basis, accumulated, friction, c, residual, normal_floor[c], carried, c,
                         twist, change)
        largest = max(largest, moved)
    return largest


@borrowing_kernel
def out_of_reach(recent, made, change, tolerance, left):
    """Whether passes whose change fell from recent[made % STALL_PASSES] (STALL_PASSES passes before) to
    `change` would need more than `left` further passes to bring it below `tolerance` at that rate:
    passes converging linearly (a ratio near 1 a pass, as on leaning bodies whose friction slides) that
    would spend the budget and still stop above the tolerance. Read before `stalled` records `change`."""
    before = recent[made % STALL_PASSES]
    if not change < before or before == np.inf or change < tolerance:
        return False
    return STALL_PASSES * np.log(tolerance / change) / np.log(change / before) > left


@kernel
def velocity_passes(contact_rows, block, basis, accumulated, friction, normal_floor, carried, twist, passes, limit,
                    vmax, foresee):
    """velocity_pass until a pass changes no rate by vmax or more, or the passes have stalled
    (STALL_PASSES), at most `limit` passes, each the other way round from the one before (`passes`
    made so far). With `foresee` (nothing after these passes but the budget's end) they also stop
    where they are out_of_reach of vmax within the limit. Returns the passes made in all."""
    recent = np.full(STALL_PASSES, np.inf)  # the last STALL_PASSES passes' changes, by pass number
    scratch = np.empty((2, 3))
    for made in range(limit):
        passes += 1
        change = velocity_pass(contact_rows, block, basis, accumulated, friction, normal_floor, carried, twist,
                               passes % 2 == 0, scratch)
        # out_of_reach reads the change STALL_PASSES passes before, which stalled then overwrites
        if (change < vmax or (foresee and out_of_reach(recent, made, change, vmax, limit - made - 1))
                or stalled(recent, made, change)):
            break
    return passes


@entry_kernel
def impacts(contact_rows, block, friction, restitution, twist, impact_speed, rounds, passes, tolerance):
    """Schmitt §11 impact pairs, in rounds; returns the rounds that found an impact. A round takes the
    contacts approaching faster than `impact_speed` and solves their compression together: projected
    Gauss-Seidel on each contact's accumulated impulse, I_n >= 0 and |I_t| <= mu I_n (stick or slide
    as the braking impulse I_0 of one impact pair), passes until none changes a rate by `tolerance`,
    at most `passes`. Summed per contact, corners landing together share the compression instead of
    each taking a whole one. Then Poisson's reflex e I_n at each (e the usual coefficient: 0
    plastic, 1 elastic; the paper's e is 1 minus ours). A reflex that sets a touching contact
    approaching makes it the next round's impact: the push travels along a row of touching bodies."""
    m = block.shape[0]
    basis = tangent_bases(block)
    active = np.zeros(m, dtype=np.bool_)
    accumulated = np.zeros((m, 3))
    nothing_carried = np.zeros((1, 3))
    rates = np.empty(3)
    reflex = np.zeros(3)
    change = np.empty(3)
    for made in range(rounds):
        found = False
        for c in range(m):
            row_rates(contact_rows, c, twist, rates)
            k = block[c]
            locked = not k[0, 0] > FREE_DIRECTION * (k[0, 0] + k[1, 1] + k[2, 2])  # the joints lock its normal
            active[c] = rates[0] < -impact_speed and not locked
            found = found or active[c]
        if not found:
            return made
        accumulated[:] = 0.0
        for p in range(passes):
            largest = 0.0
            for k in range(m):
                c = m - 1 - k if p % 2 == 1 else k
                if active[c]:
                    row_rates(contact_rows, c, twist, rates)
                    largest = max(largest, _project(contact_rows, block, basis, accumulated, friction, c, rates, 0.0,
                                                    nothing_carried, 0, twist, change))
            if largest < tolerance:
                break
        for c in range(m):
            if active[c] and restitution[c] > 0.0:
                reflex[0] = restitution[c] * accumulated[c, 0]
                apply_impulse(contact_rows, c, reflex, twist)
    return rounds
