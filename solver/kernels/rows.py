"""Rows at one instant (Schmitt §4, §7): every joint row's Jacobian J, its impulse response
W = M^-1 J^T (4.5, 4.6), and the collision matrix K = J M^-1 J^T, factorised; the same for the
joint axes that drives act on. K holds while time stands still, so this is built once per instant.

A row couples two bodies: row_jacobian[r, side] (6,) is its block for body a (side 0) and body b
(side 1), linear part first; an impulse +lambda of the row changes the twist of body `side` by
lambda * row_response[r, side].
"""
import numpy as np

from ..codes import ITERATIVE
from ..drives import MOTOR_POSITION, MOTOR_VELOCITY
from . import joints, sparse
from .jit import borrowing_entry_kernel, borrowing_kernel, column_count, entry, kernel

# Schmitt §5's own blocks: one joint's rows are independent, and a relative ridge this small leaves
# them untouched while keeping a block that touches only fixed bodies invertible. (The §7 system drops
# dependent rows in its factorisation instead: kernels/sparse.py says why a ridge there costs energy.)
RIDGE = 1e-10
# The Jacobian components (bits: linear x, y, z, angular x, y, z) of the rows in the plane normal to
# world axis c (the linear ones across c, the angular one about c), and of those across it.
IN_PLANE = np.array([1 << (c + 1) % 3 | 1 << (c + 2) % 3 | 1 << 3 + c for c in range(3)])
ACROSS = np.array([1 << c | 1 << 3 + (c + 1) % 3 | 1 << 3 + (c + 2) % 3 for c in range(3)])
# A right side whose misfit along K's null space is below this fraction of its largest entry is one
# the rows can meet (round-off: in a planar mechanism it is exactly 0), and needs no projection.
CONSISTENT = 1e-12
# An axis row whose stiffness through the joints is this small is locked by them: nothing to drive.
LOCKED = 1e-9


@borrowing_kernel
def _jacobian_pair(linear, angular, lever_a, lever_b, jacobian):
    """jacobian[0] = -[A, r_a x A + B], jacobian[1] = [A, r_b x A + B]: a row's rate is
    A.(v_b + w_b x r_b - v_a - w_a x r_a) + B.(w_b - w_a), and w x r . A = w . (r x A)."""
    for side in range(2):
        lever = lever_a if side == 0 else lever_b
        sign = -1.0 if side == 0 else 1.0
        jacobian[side, 0] = sign * linear[0]
        jacobian[side, 1] = sign * linear[1]
        jacobian[side, 2] = sign * linear[2]
        jacobian[side, 3] = sign * (lever[1] * linear[2] - lever[2] * linear[1] + angular[0])
        jacobian[side, 4] = sign * (lever[2] * linear[0] - lever[0] * linear[2] + angular[1])
        jacobian[side, 5] = sign * (lever[0] * linear[1] - lever[1] * linear[0] + angular[2])


@borrowing_kernel
def response_of(model, inv_inertia_world, body, jacobian, out):
    """out = M^-1 J^T for one body's block (zero for the world and fixed bodies)."""
    inv_mass = model.body_inv_mass[body]
    for i in range(3):
        out[i] = inv_mass * jacobian[i]
    for i in range(3):
        out[3 + i] = (inv_inertia_world[body, i, 0] * jacobian[3] + inv_inertia_world[body, i, 1] * jacobian[4]
                      + inv_inertia_world[body, i, 2] * jacobian[5])


@borrowing_kernel
def _fill_row(model, rows, body_a, body_b, linear, angular, lever_a, lever_b, jacobian, response):
    _jacobian_pair(linear, angular, lever_a, lever_b, jacobian)
    response_of(model, rows.inv_inertia_world, body_a, jacobian[0], response[0])
    response_of(model, rows.inv_inertia_world, body_b, jacobian[1], response[1])


@borrowing_kernel
def dot6(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5]


@borrowing_entry_kernel
def world_inverse_inertia(model, rotation, rows):
    """rows.inv_inertia_world at the instant: R diag(1/I) R^T of every body (all a model without
    joints needs of its rows)."""
    for b in range(rotation.shape[0]):
        for i in range(3):
            for j in range(3):
                total = 0.0
                for k in range(3):
                    total += rotation[b, i, k] * model.body_inv_inertia[b, k] * rotation[b, j, k]
                rows.inv_inertia_world[b, i, j] = total


@borrowing_entry_kernel
def build(model, solver, position, rotation, rows):
    """Every row at the instant (position, rotation); K factorised for the system solver, each
    joint's own block inverted for the iterative one. Returns the count of non-positive pivots."""
    world_inverse_inertia(model, rotation, rows)
    linear, angular, levers = rows.row_linear, rows.row_angular, rows.joint_lever
    joints.all_rows(model, position, rotation, linear, angular, levers)
    for r in range(model.row_joint.shape[0]):
        j = model.row_joint[r]
        _fill_row(model, rows, model.joint_body[j, 0], model.joint_body[j, 1], linear[r], angular[r], levers[j, 0],
                  levers[j, 1], rows.row_jacobian[r], rows.row_response[r])
    # only the drives read an axis's row (A02's 121 hinges have none)
    linear, angular, levers = rows.axis_linear, rows.axis_angular, rows.axis_lever
    joints.all_axis_rows(model, model.axis_driven, position, rotation, linear, angular, levers)
    for a in range(model.axis_joint.shape[0]):
        if model.axis_driven[a]:
            j = model.axis_joint[a]
            _fill_row(model, rows, model.joint_body[j, 0], model.joint_body[j, 1], linear[a], angular[a], levers[a, 0],
                      levers[a, 1], rows.axis_jacobian[a], rows.axis_response[a])
    rows.drives_ready[0] = False
    if solver == ITERATIVE:
        _invert_joint_blocks(model, rows)
    return _factor_system(model, rows)


@borrowing_kernel
def split_at_plane(model, rows):
    """Whether the instant is planar, and if so which rows act across the plane (rows.row_across).

    A mechanism that moves in a plane normal to a world axis c (every hinge axis along c, every body
    turning about c: A02, a linkage an artist draws in the front view) has rows of two kinds: in the
    plane, whose Jacobian touches only the linear components across c and the angular one about c,
    and across it, which touch only the others. Where every row is of one kind and no body's world
    inertia couples rotation about c with rotation about the other axes (its entries [c, a] and
    [c, b] are exact zeros, as R diag(1/I) R^T gives for R about c), M^-1 keeps the two kinds apart
    and K = J M^-1 J^T splits into two blocks with exact zeros between them: K's rows across the
    plane answer only a right side across it. Returns whether the rows split; row_across is False
    for every row where they do not. A change of row_across asks for the contributions in the plane and
    the block of L's pattern to be listed again (_add_entries, _list_block)."""
    count = model.row_joint.shape[0]
    used = rows.row_used
    planar = 0b111  # bit c: the rows are so far all of one kind for world axis c
    for r in range(count):
        mask = 0  # bit i: component i of the row's Jacobian is not 0 on either side (linear 0-2, angular 3-5)
        for i in range(6):
            mask |= (rows.row_jacobian[r, 0, i] != 0.0 or rows.row_jacobian[r, 1, i] != 0.0) << i
        used[r] = mask
        for c in range(3):
            if mask & IN_PLANE[c] and mask & ACROSS[c]:
                planar &= ~(1 << c)
    for c in range(3):
        if not planar & 1 << c or count == 0:
            continue
        a, b = (c + 1) % 3, (c + 2) % 3
        for body in range(rows.inv_inertia_world.shape[0]):
            if rows.inv_inertia_world[body, c, a] != 0.0 or rows.inv_inertia_world[body, c, b] != 0.0:
                planar &= ~(1 << c)
                break
        if planar & 1 << c:
            for r in range(count):
                _set_across(rows, r, used[r] & ACROSS[c] != 0)
            return True
    for r in range(count):
        _set_across(rows, r, False)
    return False


@borrowing_kernel
def _set_across(rows, r, across):
    if rows.row_across[r] != across:
        rows.row_across[r] = across
        rows.plane_contribution_count[0] = -1
        rows.listed_block[0] = -1


@borrowing_kernel
def _list_block(model, rows, which):
    """The part of L's pattern the factorisation and the solves walk: the block `which`
    (sparse.list_block), listed again only when it or the split changes."""
    if rows.listed_block[0] != which:
        sparse.list_block(model, rows.ldl_index, rows.row_across, which, rows.ldl_value, rows.block_row_start,
                          rows.block_row_entry, rows.block_column_start, rows.block_column_entry)
        rows.listed_block[0] = which


@borrowing_kernel
def _factor_block(model, rows, across):
    """The rows whose row_across is `across` factorised (sparse.factor); returns how many were dropped."""
    return sparse.factor(model, rows.k_value, rows.row_across, across, rows.block_row_start, rows.block_row_entry,
                         rows.block_column_start, rows.block_column_entry, rows.ldl_index, rows.ldl_value,
                         rows.ldl_diagonal, rows.work, rows.softest_pivot)


@borrowing_kernel
def _solve(model, rows, rhs, null_count, out, permuted, along):
    """out = K^+ rhs through the factor (sparse.solve) over the blocks factorised; returns the misfit."""
    return sparse.solve(model, rows.block_column_start, rows.block_column_entry, rows.ldl_index, rows.ldl_value,
                        rows.ldl_diagonal, rows.null_basis, rows.null_span, rows.null_gram, null_count, along, rhs,
                        permuted, out)


@borrowing_kernel
def _list_plane_contributions(model, rows):
    """rows.plane_contribution: the contributions to K between two rows in the plane (A02 N = 40: 1239
    of 6990), listed once for as long as the split stays (a planar mechanism's: always)."""
    count = 0
    contribution = model.k_contribution
    for c in range(contribution.shape[0]):
        if not rows.row_across[contribution[c, 1]] and not rows.row_across[contribution[c, 3]]:
            rows.plane_contribution[count] = c
            count += 1
    rows.plane_contribution_count[0] = count


@borrowing_kernel
def _add_entries(model, rows, across):
    """K's entries from the rows through their shared bodies (Schmitt 7.1): those between rows in the
    plane (across False) or across it (True); entries between the two kinds are 0 at a planar instant
    (split_at_plane), and every entry is of one kind where the rows do not split."""
    contribution, row_across = model.k_contribution, rows.row_across
    jacobian, response, k_value = rows.row_jacobian, rows.row_response, rows.k_value
    if across:
        for c in range(contribution.shape[0]):
            if row_across[contribution[c, 1]] and row_across[contribution[c, 3]]:
                _add_contribution(contribution, jacobian, response, k_value, c)
        return
    if rows.plane_contribution_count[0] < 0:
        _list_plane_contributions(model, rows)
    plane_contribution = rows.plane_contribution
    for k in range(rows.plane_contribution_count[0]):
        _add_contribution(contribution, jacobian, response, k_value, plane_contribution[k])


@borrowing_kernel
def _add_contribution(contribution, jacobian, response, k_value, c):
    """K[entry] += J[row one, side] . W[row other, side] (elimination.SystemPattern.k_contribution), the
    arrays taken from their records once, by the caller's loop."""
    k_value[contribution[c, 0]] += dot6(jacobian[contribution[c, 1], contribution[c, 2]],
                                        response[contribution[c, 3], contribution[c, 4]])


@borrowing_kernel
def _factor_system(model, rows):
    """K's entries, then L D L^T without the rows that depend on others. At a planar instant only the
    rows in the plane: the block across it waits for a right side across the plane (solve_system),
    which a planar mechanism's gaps and rates never have (A02: 363 of its 605 rows with N = 40).
    Returns how many rows were dropped."""
    rows.k_value[:] = 0.0
    rows.softest_pivot[0] = 1.0
    split = split_at_plane(model, rows)
    _add_entries(model, rows, False)
    _list_block(model, rows, sparse.IN_PLANE_BLOCK)
    dropped = _factor_block(model, rows, False)
    rows.across_pending[0] = split
    rows.null_count[0] = -1 if dropped else 0  # found by the first solve that needs it (solve_system)
    return dropped


@borrowing_entry_kernel
def _factor_across(model, rows):
    """The block of K across the plane, factorised when a right side first has a part across it."""
    _add_entries(model, rows, True)
    _list_block(model, rows, sparse.ACROSS_BLOCK)
    if _factor_block(model, rows, True):
        rows.null_count[0] = -1  # K's null space has vectors across the plane too
    _list_block(model, rows, sparse.BOTH_BLOCKS)  # the solves walk both from now on
    rows.across_pending[0] = False


@borrowing_entry_kernel
def solve_system(model, rows, rhs, out, permuted, along):
    """out = K^+ rhs, the §7 system's solve, for a right side of one column (R,) or several (R, c)
    (sparse.solve; permuted (R[, c]) and along (Q[, c]) workspace, rows.permuted and rows.null_along
    for one column). The block of K across the plane of a planar instant is factorised at the first
    solve whose right side has a part across it; until then those rows get no impulse, which is their
    least-squares answer to a right side of 0. K's null space is found at the first solve of an
    instant whose right side has a part along it (its misfit), and that solve is done again with the
    projection; a right side the rows meet needs neither."""
    if rows.across_pending[0] and _has_part_across(rows, rhs):
        _factor_across(model, rows)
    found = rows.null_count[0] >= 0
    misfit = _solve(model, rows, rhs, rows.null_count[0] if found else 0, out, permuted, along)
    if found or misfit == 0.0 or misfit <= CONSISTENT * largest_magnitude(rhs):
        return
    if rows.across_pending[0]:  # the null space is K's whole one: its vectors across the plane too
        _factor_across(model, rows)
    rows.null_count[0] = sparse.null_space(model, rows.ldl_value, rows.ldl_diagonal, rows.null_basis, rows.null_span,
                                           rows.null_gram, rows.stamp, rows.work)
    _solve(model, rows, rhs, rows.null_count[0], out, permuted, along)


@borrowing_kernel
def _has_part_across(rows, rhs):
    for r in range(rhs.shape[0]):
        if rows.row_across[r]:
            for c in range(column_count(rhs)):
                if entry(rhs, r, c) != 0.0:
                    return True
    return False


@borrowing_kernel
def largest_magnitude(values):
    """The largest |entry| of a (R,) or (R, c) array."""
    largest = 0.0
    for r in range(values.shape[0]):
        for c in range(column_count(values)):
            largest = max(largest, abs(entry(values, r, c)))
    return largest


@kernel
def _invert_joint_blocks(model, rows):
    """Schmitt §5: each joint corrected on its own, with the inverse of its own block of K."""
    block = np.empty((6, 6))
    for j in range(model.joint_kind.shape[0]):
        start, end = model.joint_row_start[j], model.joint_row_start[j + 1]
        d = end - start
        if d == 0:
            continue
        largest = 1e-300
        for r in range(d):
            for c in range(d):
                block[r, c] = (dot6(rows.row_jacobian[start + r, 0], rows.row_response[start + c, 0])
                               + dot6(rows.row_jacobian[start + r, 1], rows.row_response[start + c, 1]))
            largest = max(largest, block[r, r])
        for r in range(d):
            block[r, r] += RIDGE * largest
        invert_small(block, d, rows.block_inverse[j])


@kernel
def invert_small(matrix, d, out):
    """out[:d, :d] = matrix[:d, :d]^-1 by Gauss-Jordan elimination with partial pivoting."""
    work = np.empty((6, 12))
    for r in range(d):
        for c in range(d):
            work[r, c] = matrix[r, c]
            work[r, d + c] = 1.0 if r == c else 0.0
    for c in range(d):
        pivot = c
        for r in range(c + 1, d):
            if abs(work[r, c]) > abs(work[pivot, c]):
                pivot = r
        if pivot != c:
            for k in range(2 * d):
                work[c, k], work[pivot, k] = work[pivot, k], work[c, k]
        scale = 1.0 / work[c, c]
        for k in range(2 * d):
            work[c, k] *= scale
        for r in range(d):
            if r != c and work[r, c] != 0.0:
                factor = work[r, c]
                for k in range(2 * d):
                    work[r, k] -= factor * work[c, k]
    for r in range(d):
        for c in range(d):
            out[r, c] = work[r, d + c]


@borrowing_entry_kernel
def rates(model, rows, twist, out):
    """out[r] = J_r . twist: every joint row's rate."""
    row_joint, joint_body, jacobian = model.row_joint, model.joint_body, rows.row_jacobian
    for r in range(row_joint.shape[0]):
        j = row_joint[r]
        out[r] = dot6(jacobian[r, 0], twist[joint_body[j, 0]]) + dot6(jacobian[r, 1], twist[joint_body[j, 1]])


@borrowing_kernel
def axis_rate(model, rows, a, twist):
    j = model.axis_joint[a]
    return dot6(rows.axis_jacobian[a, 0], twist[model.joint_body[j, 0]]) + dot6(
        rows.axis_jacobian[a, 1], twist[model.joint_body[j, 1]])


@borrowing_kernel
def apply_row_impulses(model, rows, impulse, twist):
    """twist += W impulse: every joint row's impulse pair."""
    row_joint, joint_body, response = model.row_joint, model.joint_body, rows.row_response
    for r in range(row_joint.shape[0]):
        if impulse[r] == 0.0:
            continue
        j = row_joint[r]
        a, b = joint_body[j, 0], joint_body[j, 1]
        for i in range(6):
            twist[a, i] += response[r, 0, i] * impulse[r]
            twist[b, i] += response[r, 1, i] * impulse[r]


# Another row (a drive's, a contact's) as the joints let it act: an impulse along a hinge axis turns
# the arm about its pivot, not about its centre of mass. With K_bb the joints' matrix and K_bd their
# coupling to the row, the joints answer an impulse of the row with -K_bb^-1 K_bd of their own, so
# the response is W_d - W_b K_bb^-1 K_bd (the Schur complement's, Schmitt §7). Rows are taken through
# the joints many at once: their couplings the columns of one solve (solve_system), which reads L
# once for all of them.
@borrowing_kernel
def joints_coupling(model, rows, r, body_a, response_a, body_b, response_b):
    """K_bd's entry of joint row r for a row whose plain response M^-1 J^T is `response_a` (6,) on
    body a and `response_b` on body b (zero elsewhere)."""
    total = 0.0
    for side in range(2):
        body = model.joint_body[model.row_joint[r], side]
        if body == body_a:
            total += dot6(rows.row_jacobian[r, side], response_a)
        if body == body_b:
            total += dot6(rows.row_jacobian[r, side], response_b)
    return total


@borrowing_kernel
def take_joints_answer(model, rows, solution, column, out):
    """out (n, 6), a row's plain response, less the joints' answer W_b K_bb^-1 K_bd: the rows'
    responses times column `column` of the solution (R, c) of its couplings."""
    response = rows.row_response
    for r in range(model.row_joint.shape[0]):
        impulse = solution[r, column]
        if impulse == 0.0:
            continue
        a, b = model.joint_body[model.row_joint[r], 0], model.joint_body[model.row_joint[r], 1]
        for i in range(6):
            out[a, i] -= response[r, 0, i] * impulse
            out[b, i] -= response[r, 1, i] * impulse


@borrowing_kernel
def drive_rows_through_joints(model, rows):
    """rows.drive_response[a] for every driven axis a: its row through the joints, all in one solve."""
    column = 0
    for a in range(model.axis_joint.shape[0]):
        if not model.axis_driven[a]:
            continue
        j = model.axis_joint[a]
        for r in range(model.row_joint.shape[0]):
            rows.drive_coupling[r, column] = joints_coupling(model, rows, r, model.joint_body[j, 0],
                                                             rows.axis_response[a, 0], model.joint_body[j, 1],
                                                             rows.axis_response[a, 1])
        column += 1
    solve_system(model, rows, rows.drive_coupling, rows.drive_solution, rows.drive_permuted, rows.drive_along)
    column = 0
    for a in range(model.axis_joint.shape[0]):
        if not model.axis_driven[a]:
            continue
        j = model.axis_joint[a]
        out = rows.drive_response[a]
        out[:, :] = 0.0
        for i in range(6):
            out[model.joint_body[j, 0], i] += rows.axis_response[a, 0, i]
            out[model.joint_body[j, 1], i] += rows.axis_response[a, 1, i]
        take_joints_answer(model, rows, rows.drive_solution, column, out)
        column += 1


@borrowing_kernel
def prepare_drive_rows(model, rows):
    """The axis rows of the drives through the joints (response (q, n, 6), their couplings (q, q) and
    stiffness (q,), the couplings' diagonal), once per instant; axes without a drive are left alone
    (each would be one more column of the joints' solve)."""
    if rows.drives_ready[0]:
        return
    drive_rows_through_joints(model, rows)
    for a in range(model.axis_joint.shape[0]):
        if not model.axis_driven[a]:
            continue
        for b in range(model.axis_joint.shape[0]):
            if model.axis_driven[b]:
                rows.axis_couplings[a, b] = _coupling_through_joints(model, rows, a, b)
        rows.drive_stiffness[a] = max(rows.axis_couplings[a, a], 0.0)
    hold_other_motors(model, rows)
    rows.drives_ready[0] = True


@borrowing_kernel
def hold_other_motors(model, rows):
    """What a position servo's torque moves: its axis's inverse inertia and gravity's acceleration of it
    through the joints with the other motors' axes held (rows.servo_stiffness, servo_load), and how
    that acceleration changes as the axis turns (servo_load_rate). A motor that is not at its limit
    holds its axis against the servo's reaction, so the servo turns what lies beyond it too. With C
    the axes' couplings through the joints (C_ab = J_a M^-1 J_b^T through them, Schmitt §7) and g
    gravity's accelerations, both are the Schur complement's over the held axes H:
    s = C_aa - C_aH C_HH^-1 C_Ha, load = g_a - C_aH C_HH^-1 g_H. Holding more can only lower s (a
    motor at its limit moves with the servo), so T s never promises more than the servo can brake."""
    held = rows.axis_held
    held[:] = False
    servos = False
    for k in range(model.drive_kind.shape[0]):
        kind = model.drive_kind[k]
        a = model.drive_axis[k]
        if (kind == MOTOR_POSITION or kind == MOTOR_VELOCITY) and model.drive_max_effort[k] > 0.0:
            held[a] = held[a] or rows.drive_stiffness[a] > LOCKED
        servos = servos or kind == MOTOR_POSITION
    if not servos:
        return
    every_servo_held = True
    for k in range(model.drive_kind.shape[0]):
        a = model.drive_axis[k]
        if model.drive_kind[k] == MOTOR_POSITION and rows.drive_stiffness[a] > LOCKED and not held[a]:
            every_servo_held = False
    for a in range(model.axis_joint.shape[0]):
        if held[a]:
            rows.axis_gravity[a] = _gravity_acceleration(model, rows, a)
    inverted = every_servo_held and _invert_held(model, rows)
    for k in range(model.drive_kind.shape[0]):
        a = model.drive_axis[k]
        if model.drive_kind[k] == MOTOR_POSITION:
            if not held[a]:  # a held axis's is computed above
                rows.axis_gravity[a] = _gravity_acceleration(model, rows, a)
            rows.servo_stiffness[a], rows.servo_load[a], rows.servo_load_rate[a] = rows.drive_stiffness[a], 0.0, 0.0
            rows.servo_coupling[a, :] = 0.0
            if rows.drive_stiffness[a] > LOCKED:
                if inverted:
                    _take_held_row(model, rows, a)
                else:
                    _eliminate_held(model, rows, a)
                _load_rate(model, rows, a)
                _keep_coupling(model, rows, a)


@borrowing_kernel
def _invert_held(model, rows):
    """Gauss-Jordan elimination of every held axis from [C g E] at once, for all the servos in one
    elimination instead of one each (_eliminate_held): afterwards each held axis's row is 0 at every
    other held axis (_take_held_row reads a servo's). Returns False, the table unfinished, where a held
    axis depends on those before it (a loop's), which _eliminate_held skips servo by servo."""
    q = model.axis_joint.shape[0]
    held, table = rows.axis_held, rows.servo_elimination
    for b in range(q):
        if not held[b]:
            continue
        for c in range(q):
            table[b, c] = axis_coupling(model, rows, b, c) if held[c] else 0.0
            table[b, q + 1 + c] = 1.0 if c == b else 0.0
        table[b, q] = rows.axis_gravity[b]
    for p in range(q):
        if not held[p]:
            continue
        if table[p, p] <= LOCKED * rows.drive_stiffness[p]:
            return False
        for r in range(q):
            if r == p or not held[r] or table[r, p] == 0.0:
                continue
            factor = table[r, p] / table[p, p]
            for c in range(2 * q + 1):
                table[r, c] -= factor * table[p, c]
    return True


@borrowing_kernel
def _take_held_row(model, rows, a):
    """rows.servo_stiffness[a] and servo_load[a] from servo a's row after _invert_held. That row is the
    combination E' of the held axes' rows that is 0 at every other held axis, so E' is row a of
    C_HH^-1 times a's pivot; scaled to E'_aa = 1 it is _eliminate_held's row: s = 1 / (C_HH^-1)_aa,
    load = (C_HH^-1 g)_a / (C_HH^-1)_aa, the Schur complement's over the other held axes."""
    q = model.axis_joint.shape[0]
    table = rows.servo_elimination
    scale = table[a, q + 1 + a]
    for c in range(2 * q + 1):
        table[a, c] /= scale
    rows.servo_stiffness[a] = max(table[a, a], 0.0)
    rows.servo_load[a] = table[a, q]


@borrowing_kernel
def _keep_coupling(model, rows, a):
    """rows.servo_coupling[a]: servo a's row of the elimination (E'_aa = 1) read as rates. The held axes'
    own impulses leave w = v_a - sum_c G_ac v_c unchanged (E' is 0 at every held axis), so when the
    held axes' motors move them by dv_c, axis a moves by G_ac dv_c: G_ac = -E'_ac."""
    q = model.axis_joint.shape[0]
    table = rows.servo_elimination
    for c in range(q):
        if c != a and rows.axis_held[c]:
            rows.servo_coupling[a, c] = -table[a, q + 1 + c]


@borrowing_kernel
def _gravity_acceleration(model, rows, a):
    """Gravity's acceleration of axis a through the joints: its response's rates dotted with the weights
    (the response through the joints is symmetric, so an axis's rate under forces F is W_a . F)."""
    total = 0.0
    for b in range(rows.drive_response.shape[1]):
        if model.body_inv_mass[b] > 0.0:
            total += (rows.drive_response[a, b, 0] * model.body_gravity[b, 0]
                      + rows.drive_response[a, b, 1] * model.body_gravity[b, 1]
                      + rows.drive_response[a, b, 2] * model.body_gravity[b, 2]) / model.body_inv_mass[b]
    return total


@borrowing_kernel
def _eliminate_held(model, rows, a):
    """rows.servo_stiffness[a] and servo_load[a] (hold_other_motors) by Gaussian elimination of the
    held axes other than a from [C g E]; row a of E ends as the combination of the axes' rows that is
    a's with the others held. A held axis that depends on those before it is skipped."""
    q = model.axis_joint.shape[0]
    held, table = rows.axis_held, rows.servo_elimination
    for b in range(q):
        if not (held[b] or b == a):
            continue
        for c in range(q):
            table[b, c] = axis_coupling(model, rows, b, c) if held[c] or c == a else 0.0
            table[b, q + 1 + c] = 1.0 if c == b else 0.0
        table[b, q] = rows.axis_gravity[b]
    for p in range(q):
        if not held[p] or p == a or table[p, p] <= LOCKED * rows.drive_stiffness[p]:
            continue
        for r in range(q):
            if r == p or not (held[r] or r == a) or table[r, p] == 0.0:
                continue
            factor = table[r, p] / table[p, p]
            for c in range(2 * q + 1):
                table[r, c] -= factor * table[p, c]
    rows.servo_stiffness[a] = max(table[a, a], 0.0)
    rows.servo_load[a] = table[a, q]


@borrowing_kernel
def _load_rate(model, rows, a):
    """rows.servo_load_rate[a]: d(load)/d(coordinate) as what the servo moves turns rigidly with its axis.
    Per unit rate of the axis each body moves with the twist (v, w) / s, (v, w) the held response,
    and its centre's acceleration along the turn is (w x v) / s^2, so the load changes by
    s sum m g . (w x v) / s^2 = sum m g . (w x v) / s."""
    q = model.axis_joint.shape[0]
    stiffness = rows.servo_stiffness[a]
    if not stiffness > LOCKED * rows.drive_stiffness[a]:
        return
    table, response, inv_mass = rows.servo_elimination, rows.drive_response, model.body_inv_mass
    total = 0.0
    for b in range(response.shape[1]):
        if not inv_mass[b] > 0.0:
            continue
        twist = rows.drive_plain[b]
        twist[:] = 0.0
        for c in range(q):
            weight = table[a, q + 1 + c]
            if weight != 0.0:
                for i in range(6):
                    twist[i] += weight * response[c, b, i]
        turn_x = twist[4] * twist[2] - twist[5] * twist[1]
        turn_y = twist[5] * twist[0] - twist[3] * twist[2]
        turn_z = twist[3] * twist[1] - twist[4] * twist[0]
        total += (model.body_gravity[b, 0] * turn_x + model.body_gravity[b, 1] * turn_y
                  + model.body_gravity[b, 2] * turn_z) / inv_mass[b]
    rows.servo_load_rate[a] = total / stiffness


@borrowing_kernel
def axis_coupling(model, rows, a, b):
    """How an impulse along driven axis b moves driven axis a, through the joints, at this instant
    (prepare_drive_rows): each stage's drive system and the servos' elimination read them."""
    return rows.axis_couplings[a, b]


@borrowing_kernel
def _coupling_through_joints(model, rows, a, b):
    """J_a (M^-1 J_b^T through the joints): axis b's row through the joints seen by axis a."""
    j = model.axis_joint[a]
    return dot6(rows.axis_jacobian[a, 0], rows.drive_response[b, model.joint_body[j, 0]]) + dot6(
        rows.axis_jacobian[a, 1], rows.drive_response[b, model.joint_body[j, 1]])
