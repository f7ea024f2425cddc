"""The Model compiled into arrays for the kernels (as warp.sim's ModelBuilder.finalize), and the
buffers a Simulation keeps. Everything here is plain numpy: kernels never see dicts, dataclasses or
names; names come back only in errors and stats, looked up by index.

Index 0 of every body array is the world. n bodies, m joints, R joint rows, q joint axes (coordinates
that drives act on), D drives.
"""
from collections import namedtuple

import numpy as np

from .codes import LEVER_NAMES, SOLVER_NAMES

# K's null space is kept for at most this many dependent rows (a planar loop of hinges has 3, IFToMM's
# A02 with N = 40 windows 120); beyond it a dependent row is still dropped, but its misfit is not shared.
NULL_CAPACITY = 256

ModelArrays = namedtuple("ModelArrays", [
    "body_inv_mass",  # (n,) 1/kg, 0 for the world and fixed bodies
    "body_inertia",  # (n, 3) principal moments, kg m^2
    "body_inv_inertia",  # (n, 3) their inverses, 0 where the body cannot turn
    "body_gravity",  # (n, 3) m/s^2, world; 0 where gravity does not act
    "body_rotates",  # (n,) bool: a dynamic body with an inertia (not a particle, not fixed)
    "joint_kind",  # (m,) joints.BALL ... joints.SPRING
    "joint_body",  # (m, 2) body a, body b
    "joint_point",  # (m, 2, 3) see joints.JointArrays for the slots
    "joint_direction",  # (m, 4, 3)
    "joint_reference",  # (m, 2, 3)
    "joint_rest",  # (m, 3, 3)
    "joint_length",  # (m,)
    "joint_row_start",  # (m + 1,) joint j's rows are joint_row_start[j]:joint_row_start[j + 1]
    "row_joint",  # (R,) the joint of each row
    "color_start",  # (colours + 1,) the iterative solver's colours: color_joint[color_start[c]:color_start[c + 1]]
    "color_joint",  # (joints with rows,) joints ordered by colour
    "axis_joint",  # (q,) the joint whose coordinate axis row a is
    "axis_is_angle",  # (q,) bool: an angle (unwrapped across turns), else a length
    "axis_driven",  # (q,) bool: a drive acts on the axis (only those axes' rows are built)
    "drive_kind",  # (D,) drives.LOWER_LIMIT ... drives.EFFORT
    "drive_axis",  # (D,)
    "drive_max_effort",  # (D,) N m or N; inf: unlimited
    "drive_offset",  # (D,) raw coordinate at the start
    "drive_schedule",  # (D, 4) schedules of value, stiffness, damping, target
    "schedule_start",  # (S + 1,)
    "schedule_time",  # (points,) s
    "schedule_value",  # (points,)
    "schedule_stop",  # (points,) where the value next stops moving from each point on (drives.run_ends)
    "system_order",  # (R,) the row eliminated at each position of the sparse factorisation
    "k_start",  # (R + 1,) K's upper triangle by columns (elimination.SystemPattern)
    "k_index",  # (nnz,)
    "k_contribution",  # (C, 5)
    "ldl_start",  # (R + 1,) L's pattern by columns
    "ldl_row_start", "ldl_row_column", "ldl_row_position",  # (R + 1,), (nnz of L,) x 2: L's pattern by rows
    "body_motion_start",  # (n + 1,) animated body b's samples are body_motion_start[b]:body_motion_start[b + 1]
    "motion_time",  # (S,) s
    "motion_position",  # (S, 3) centre of mass, world
    "motion_velocity",  # (S, 3) its rate at each sample
    "motion_quaternion",  # (S, 4) body frame -> world (w, x, y, z)
    "motion_quaternion_rate",  # (S, 4) its rate at each sample
])

# m contacts of d rows each, at one instant (kernels/contact/contact_rows.py)
ContactRowArrays = namedtuple("ContactRowArrays", [
    "body",  # (m, 2) body a, body b
    "jacobian",  # (m, d, 2, 6) each row's block for body a and body b: linear | angular, world
    "response_start",  # (m + 1,) contact c's response is entries response_start[c]:response_start[c + 1] below
    "response_body",  # (entries,) the body each entry moves: those joined to a or b by joints
    "response",  # (entries, d, 6) the change of that body's twist per unit impulse of each row, through the joints
    "held_impulse",  # (m, d, q) the held motors' impulse along each axis per unit impulse of each row
])

SolverSettings = namedtuple("SolverSettings", [
    "dmax", "vmax", "taylor_order", "max_corrections", "solver", "velocity_correction",
    "levers",  # codes.START or THIRDS
    "energy_rate",  # 1/s, the energy gate's tolerance over the natural time (energy_gate.py): 0 where it is off
    "energy_scale",  # J, what the mechanism's forces trade across its extent (energy_gate.energy_scale)
    "energy_floor",  # J, the least allowance (energy_gate.gap_floor)
])

StateArrays = namedtuple("StateArrays", [
    "position",  # (n, 3) centre of mass, world
    "rotation",  # (n, 3, 3) principal body frame -> world
    "twist",  # (n, 6) velocity of the centre of mass | angular velocity, world
    "axis_coordinate",  # (q,) joint coordinates, angles unwrapped across turns
    "time",  # (1,) s
])

NullBasis = namedtuple("NullBasis", [  # sparse: A02's vectors have at most 10 entries that are not 0 in 605
    "start",  # (Q + 1,) vector q's entries are row[start[q]:start[q + 1]] and value[...], rows ascending
    "row",  # (Q R,) the row of each entry (a vector has at most R)
    "value",  # (Q R,)
])

RowArrays = namedtuple("RowArrays", [
    "inv_inertia_world",  # (n, 3, 3)
    "row_jacobian",  # (R, 2, 6) each row's block for body a and body b: linear | angular
    "row_response",  # (R, 2, 6) M^-1 J^T, the same blocks
    "k_value",  # (nnz,) K's entries in the pattern
    "ldl_index", "ldl_value",  # (nnz of L,) L by columns
    "ldl_diagonal",  # (R,) D, infinite where a row depends on the rows before it (dropped)
    "null_basis",  # NullBasis: K's null space, one vector per dropped row (at most Q = min(R, NULL_CAPACITY)),
    #                elimination order
    "null_span",  # (Q, 4) int: the first and last entry of each that is not 0, where its row of null_gram starts,
    #               the last row of null_gram whose profile reaches its column
    "null_gram",  # (Q, Q) the Cholesky factor of their Gram matrix, lower triangle
    "null_count",  # (1,) how many of null_basis's rows hold it; -1: not found yet at this instant (rows.solve_system)
    "work", "stamp",  # (R,) workspace of the factorisation and of the null space (work: left 0 by both)
    "rhs", "solution", "permuted",  # (R,) workspace of the solves
    "row_across",  # (R,) bool: at a planar instant, the row acts across the plane (rows.split_at_plane)
    "row_used",  # (R,) int: the Jacobian components that are not 0 (bits: linear x, y, z, angular x, y, z)
    "across_pending",  # (1,) bool: the across rows' block of K is not factorised yet (rows.solve_system)
    "softest_pivot",  # (1,) the smallest pivot factorised so far at this instant, as a fraction of its row's
    #                   own K_kk (sparse.factor): 1 far from a singular position
    "plane_contribution",  # (C,) the contributions to K (model.k_contribution) between two rows in the plane, in order
    "plane_contribution_count",  # (1,) how many; -1: to be listed again (row_across has changed)
    # the part of L's pattern that the factorisation and the solves walk (sparse.list_block): L's rows
    # by rows, as indices into the model's pattern by rows, and by columns, as positions in L
    "block_row_start", "block_column_start",  # (R + 1,) each row's and each column's entries in the two below
    "block_row_entry", "block_column_entry",  # (nnz of L,)
    "listed_block",  # (1,) which block they hold (sparse.IN_PLANE_BLOCK ...); -1: to be listed again
    "block_inverse",  # (m, 6, 6) each joint's own block of K, inverted (iterative solver)
    "axis_jacobian", "axis_response",  # (q, 2, 6) the rows of the joint axes that drives act on
    "drive_response",  # (q, n, 6) the axis rows' response through the joints
    "drive_stiffness",  # (q,) the Schur complement's diagonal
    "servo_stiffness",  # (q,) the same with the other motors' axes held (rows.hold_other_motors)
    "servo_load",  # (q,) the axis's acceleration under gravity, through the joints, the other motors' axes held
    "servo_load_rate",  # (q,) its change per unit of the axis's coordinate, the part it moves turning rigidly
    "servo_coupling",  # (q, q) [a, c]: the share of held axis c's rate servo axis a moves with (rows._keep_coupling)
    "drives_ready",  # (1,) bool: drive_response is up to date
    # workspace (the kernels that borrow these create no arrays: kernels/jit.py)
    "row_linear", "row_angular",  # (R, 3) each row's directions (joints.all_rows)
    "joint_lever",  # (m, 2, 3) each joint's levers from body a's and body b's centre of mass
    "axis_linear", "axis_angular",  # (q, 3) the same for the axis rows
    "axis_lever",  # (q, 2, 3)
    "drive_plain",  # (n, 6) workspace (rows._load_rate)
    "null_along",  # (Q,) the right side's coordinates along the null space (sparse.solve)
    # the driven axes' rows through the joints, a column each, in one solve (rows.drive_rows_through_joints)
    "drive_coupling", "drive_solution", "drive_permuted",  # (R, driven axes)
    "drive_along",  # (Q, driven axes)
    "axis_gravity",  # (q,) gravity's acceleration of each axis through the joints (rows.hold_other_motors)
    "axis_held",  # (q,) bool: the axis carries a motor that can act (rows.hold_other_motors)
    "servo_elimination",  # (q, 2 q + 1) the axes' couplings, gravity's column and the rows' combinations, eliminated
    #                       (rows.hold_other_motors)
    # a stage's limit and motor rows as one system, the first `count` entries (kernels/drive_system.py)
    "drive_taking_part",  # (D,) int: the drive of each row
    "drive_asked",  # (D,) the change of its axis's rate it asks
    "drive_lower", "drive_upper",  # (D,) the bounds on its accumulated impulse
    "drive_system",  # (D, D) the rows' couplings through the joints
    "drive_factor",  # (D, D) L D L^T of the free rows' block
    "drive_state",  # (D,) int: free, at its lower or at its upper bound
    "drive_change",  # (D,) the change of its accumulated impulse
    "drive_free",  # (D,) int: the free rows, in order
    "drive_right",  # (D,) the free rows' right side
    "drive_dropped",  # (D,) bool: a free row that depends on those before it
    # what a stage's drives read of their axes and of each other, once a stage (drives.servo_outlook)
    "axis_rate_now",  # (q,) each drive's axis rate
    "servo_left",  # (D,) how far each position servo's axis is from where its target next stops
    "axis_couplings",  # (q, q) [a, b]: how an impulse along driven axis b moves driven axis a through the joints,
    #                    once an instant (rows.prepare_drive_rows)
])

FlightArrays = namedtuple("FlightArrays", [
    "position",  # (n, 3) at t + h
    "rotation",  # (n, 3, 3) at t + h, orthonormalised
    "velocity",  # (n, 3) at t + h
    "spin",  # (n, 3) angular velocity at t + h, world
    "omega_terms",  # (n, order + 1, 3) omega and its derivatives at the start of the turn's last piece, body frame
    # workspace of one body's turn (flight.fly)
    "derivatives",  # (order + 2, 3, 3) the rotation's derivatives
    "increment",  # (3, 3) its turn over h, body frame
    "omega_body",  # (3,) omega in the body frame
])

WorkArrays = namedtuple("WorkArrays", [
    "errors",  # (R,) row errors at the look-ahead (row rates in the velocity correction)
    "gaps",  # (m,)
    "coordinate_h",  # (q,) joint coordinates at the look-ahead
    "rate_at_look",  # (q,) axis rates when the look-ahead was taken
    "accumulated",  # (D,) drive impulses of the position correction
    "velocity_accumulated",  # (D,) of the velocity correction
    "joint_scratch",  # (8, 3) workspace of one joint's equations (kernels/joints)
    "coordinate_raw",  # (q,) joint coordinates before unwrapping (correction.axis_coordinates)
    "lever_flight",  # FlightArrays: the flight to where the impulses take their levers (settings.levers "thirds")
    "lever_rows",  # RowArrays: the rows there
    "twist_before",  # (n, 6) the twist before the joint correction's first sweep (levers at thirds)
    "levers_ready",  # (1,) bool: this step's joint correction took its levers at thirds, so the velocity
    #                  correction takes its at two thirds (not after the contact loop's, at the step's start)
    # the warm start of the joint correction (kernels/warm_start.py)
    "row_impulse",  # (R,) the joints' impulses of this sub-step's joint correction, summed
    "warm_rates",  # (2, R + D) the last two kept sub-steps' row impulses, then drive impulses, per second
    "warm_spans",  # (2, 2) their end times and lengths, s (NaN: none kept)
    "aside_rates", "aside_spans",  # the same, set aside while a step-doubling estimate takes its halves
])


def drives_flag(model_arrays) -> bool | None:
    """What the kernels take as `driven`: True when the model has drives or animated bodies, else None.
    numba removes a branch on `driven is not None` before typing when `driven` is None, so a model
    without them compiles none of their kernels (about 40 % of the jointed step's compile)."""
    return True if len(model_arrays.drive_kind) or model_arrays.body_motion_start[-1] > 0 else None


def joints_flag(model_arrays) -> bool | None:
    """What the contact step's kernels take as `jointed`: True when the model has joints, else None,
    so that a stack or a pile compiles none of the joints' code (as drives_flag does for drives)."""
    return True if len(model_arrays.joint_kind) else None


def solver_settings(settings, energy_gate: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> SolverSettings:
    """energy_gate: (energy_rate, energy_scale, energy_floor), energy_gate.gate_settings."""
    return SolverSettings(float(settings.dmax), float(settings.vmax), int(settings.taylor_order),
                          int(settings.max_corrections), SOLVER_NAMES.index(settings.solver),
                          bool(settings.velocity_correction), LEVER_NAMES.index(settings.levers),
                          *(float(value) for value in energy_gate))


def row_arrays(model) -> RowArrays:
    a = model.arrays
    n, m, rows, q = len(a.body_inv_mass), len(a.joint_kind), len(a.row_joint), len(a.axis_joint)
    d = len(a.drive_kind)
    kept = min(rows, NULL_CAPACITY)  # null space vectors
    driven = int(np.count_nonzero(a.axis_driven))
    ldl_index = np.empty(a.ldl_start[-1], dtype=np.int64)  # the row of each entry of L by columns: fixed by the pattern
    ldl_index[a.ldl_row_position] = np.repeat(np.arange(rows), np.diff(a.ldl_row_start))
    return RowArrays(np.zeros((n, 3, 3)), np.zeros((rows, 2, 6)), np.zeros((rows, 2, 6)), np.zeros(len(a.k_index)),
                     ldl_index, np.zeros(a.ldl_start[-1]),
                     np.zeros(rows),
                     NullBasis(np.zeros(kept + 1, dtype=np.int64), np.zeros(kept * rows, dtype=np.int64),
                               np.zeros(kept * rows)),
                     np.zeros((kept, 4), dtype=np.int64), np.zeros((kept, kept)),
                     np.zeros(1, dtype=np.int64), np.zeros(rows),
                     np.zeros(rows, dtype=np.int64), np.zeros(rows), np.zeros(rows),
                     np.zeros(rows), np.zeros(rows, dtype=np.bool_), np.zeros(rows, dtype=np.int64),
                     np.zeros(1, dtype=np.bool_), np.ones(1), np.zeros(len(a.k_contribution), dtype=np.int64),
                     np.full(1, -1, dtype=np.int64), np.zeros(rows + 1, dtype=np.int64),
                     np.zeros(rows + 1, dtype=np.int64), np.zeros(a.ldl_start[-1], dtype=np.int64),
                     np.zeros(a.ldl_start[-1], dtype=np.int64), np.full(1, -1, dtype=np.int64),
                     np.zeros((m, 6, 6)), np.zeros((q, 2, 6)), np.zeros((q, 2, 6)),
                     np.zeros((q, n, 6)), np.zeros(q), np.zeros(q), np.zeros(q), np.zeros(q), np.zeros((q, q)),
                     np.zeros(1, dtype=np.bool_),
                     np.zeros((rows, 3)), np.zeros((rows, 3)), np.zeros((m, 2, 3)), np.zeros((q, 3)), np.zeros((q, 3)),
                     np.zeros((q, 2, 3)), np.zeros((n, 6)), np.zeros(kept),
                     np.zeros((rows, driven)), np.zeros((rows, driven)), np.zeros((rows, driven)),
                     np.zeros((kept, driven)),
                     np.zeros(q), np.zeros(q, dtype=np.bool_),
                     np.zeros((q, 2 * q + 1)),
                     np.zeros(d, dtype=np.int64), np.zeros(d), np.zeros(d), np.zeros(d),
                     np.zeros((d, d)), np.zeros((d, d)), np.zeros(d, dtype=np.int64), np.zeros(d),
                     np.zeros(d, dtype=np.int64), np.zeros(d), np.zeros(d, dtype=np.bool_),
                     np.zeros(q), np.zeros(d), np.zeros((q, q)))


def flight_arrays(model) -> FlightArrays:
    n, order = len(model.body_names), model.settings.taylor_order
    return FlightArrays(np.zeros((n, 3)), np.zeros((n, 3, 3)), np.zeros((n, 3)), np.zeros((n, 3)),
                        np.zeros((n, order + 1, 3)), np.zeros((order + 2, 3, 3)), np.zeros((3, 3)), np.zeros(3))


def work_arrays(model) -> WorkArrays:
    a = model.arrays
    q, d = len(a.axis_joint), len(a.drive_kind)
    return WorkArrays(np.zeros(len(a.row_joint)), np.zeros(len(a.joint_kind)), np.zeros(q), np.zeros(q),
                      np.zeros(d), np.zeros(d), np.zeros((8, 3)), np.zeros(q), flight_arrays(model), row_arrays(model),
                      np.zeros((len(a.body_inv_mass), 6)), np.zeros(1, dtype=np.bool_),
                      np.zeros(len(a.row_joint)), np.zeros((2, len(a.row_joint) + d)), np.full((2, 2), np.nan),
                      np.zeros((2, len(a.row_joint) + d)), np.full((2, 2), np.nan))


def joint_islands(model_arrays) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The bodies joined by joints with rows, through bodies that can move (the world and fixed bodies
    pass nothing on): (n,) each body's island, -1 for a body that cannot move; (islands + 1,) where
    each island's bodies start in (bodies that move,) the bodies by island; (islands,) bool, whether
    a joint holds the island (to the world, too). An impulse on a body moves its island only."""
    a = model_arrays
    n = len(a.body_inv_mass)
    moves = (a.body_inv_mass > 0) | (a.body_inv_inertia > 0).any(axis=1)
    parent = np.arange(n)

    def root(b):
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        return b

    jointed = np.zeros(n, dtype=bool)
    for j in np.flatnonzero(np.diff(a.joint_row_start) > 0):
        body_a, body_b = a.joint_body[j]
        jointed[[body_a, body_b]] = True
        if moves[body_a] and moves[body_b]:
            parent[root(body_a)] = root(body_b)
    roots = np.array([root(b) for b in range(n)])
    island = np.full(n, -1, dtype=np.int64)
    order: list[np.ndarray] = []
    for r in np.unique(roots[moves]):
        members = np.flatnonzero(moves & (roots == r))
        island[members] = len(order)
        order.append(members)
    start = np.concatenate(([0], np.cumsum([len(members) for members in order]))).astype(np.int64)
    bodies = np.concatenate([np.zeros(0, dtype=np.int64)] + [members.astype(np.int64) for members in order])
    return island, start, bodies, np.array([jointed[members].any() for members in order], dtype=bool)
