"""Contact rows at one instant: each contact's rows along d directions at its point, over the twists
of its two bodies, and their impulse responses through the joints over the bodies those joints join
(Schmitt §11's contact pairs act on a mechanism as its drives do: through the Schur complement of K,
rows.joints_coupling). The arrays are arrays.ContactRowArrays; twists are (6 n,), linear | angular."""
import numpy as np

from ...arrays import ContactRowArrays
from .held_motors import remove_held_part
from ..jit import borrowing_kernel, entry_kernel, kernel
from ..rows import joints_coupling, response_of, solve_system, take_joints_answer
from ..vector import body_point, cross, dot, rotate, unrotate
from .narrow_phase import separations


@entry_kernel
def contact_rows_at(model, rows, jointed, position, rotation, body_island, island_start, island_body, island_jointed,
                    body_a, body_b, probe_b, radius, surface_a, normal_a, hold, held_inverse):
    """The rows of m contacts (contact/detection.Contacts' fields) in the frames given, in one call:
    (ContactRowArrays, (m, 3, 3) their directions and (m, 2, 3) their points as material points of a
    and b (contact_frames), (m, 3, 3) each contact's own block of K (blocks), (m,) its separation).
    The rest as jacobian_and_response takes it."""
    point, directions, local = contact_frames(position, rotation, body_a, body_b, probe_b, radius, normal_a)
    m = body_a.shape[0]
    body = np.empty((m, 2), dtype=np.int64)
    for c in range(m):
        body[c, 0], body[c, 1] = body_a[c], body_b[c]
    contact = ContactRowArrays(body, *jacobian_and_response(model, rows, jointed, position, body_island, island_start,
                                                             island_body, island_jointed, body_a, body_b, point,
                                                             directions, hold, held_inverse))
    gap = separations(position, rotation, body_a, body_b, probe_b, radius, surface_a, normal_a)
    return contact, directions, local, blocks(contact), gap


@entry_kernel
def jacobian_and_response(model, rows, jointed, position, body_island, island_start, island_body, island_jointed,
                          body_a, body_b, point, directions, hold, held_inverse):
    """For m contacts of bodies a and b (m,) at world points (m, 3) with (m, d, 3) unit directions: the
    arrays of ContactRowArrays after `body`. A row's rate is A.(v_b + w_b x r_b - v_a - w_a x r_a); an
    impulse lambda of row k of contact c changes the twist of each body its response lists by lambda
    times that entry's row k, through the joints and with the motor axes `hold` (q,) marks held
    (kernels/contact/held_motors.py, `held_inverse` their C_HH^-1). Only the islands of a and b
    (arrays.joint_islands) answer, so each contact's response lists those bodies alone. jointed: None
    for a model without joints (arrays.joints_flag), whose responses are the bodies' own."""
    m, d = directions.shape[0], directions.shape[1]
    n, q = position.shape[0], hold.shape[0]
    holding = False
    for a in range(q):
        holding = holding or hold[a]
    held_impulse = np.zeros((m, d, q))
    jacobian = np.zeros((m, d, 2, 6))
    start = np.zeros(m + 1, dtype=np.int64)
    for c in range(m):
        island_a, island_b = body_island[body_a[c]], body_island[body_b[c]]
        size = 0 if island_a < 0 else island_start[island_a + 1] - island_start[island_a]
        if island_b >= 0 and island_b != island_a:
            size += island_start[island_b + 1] - island_start[island_b]
        start[c + 1] = start[c] + size
    response_body = np.empty(start[m], dtype=np.int64)
    response = np.empty((start[m], d, 6))
    block = np.empty(6)
    plain = np.empty((m, d, 2, 6))  # each row's M^-1 J^T on bodies a and b
    joined = np.zeros(m, dtype=np.bool_)  # a or b is held by joints: the response goes through them
    for c in range(m):
        entry = start[c]
        for side in range(2):
            island = body_island[body_a[c] if side == 0 else body_b[c]]
            if island < 0 or (side == 1 and island == body_island[body_a[c]]):
                continue
            for k in range(island_start[island], island_start[island + 1]):
                response_body[entry] = island_body[k]
                entry += 1
        for side in range(2):
            island = body_island[body_a[c] if side == 0 else body_b[c]]
            joined[c] = joined[c] or (island >= 0 and island_jointed[island])
        for k in range(d):
            for side in range(2):
                body = body_a[c] if side == 0 else body_b[c]
                sign = -1.0 if side == 0 else 1.0
                r0 = point[c, 0] - position[body, 0]  # the lever, by element (no array made)
                r1 = point[c, 1] - position[body, 1]
                r2 = point[c, 2] - position[body, 2]
                a0, a1, a2 = directions[c, k, 0], directions[c, k, 1], directions[c, k, 2]
                # w x r . A = w . (r x A)
                block[0], block[1], block[2] = sign * a0, sign * a1, sign * a2
                block[3] = sign * (r1 * a2 - r2 * a1)
                block[4] = sign * (r2 * a0 - r0 * a2)
                block[5] = sign * (r0 * a1 - r1 * a0)
                for i in range(6):
                    jacobian[c, k, side, i] = block[i]
                response_of(model, rows.inv_inertia_world, body, block, plain[c, k, side])
    if jointed is not None:
        solution = _joints_answers(model, rows, body_a, body_b, plain, joined)
    else:
        solution = np.empty((0, 0))
    through = np.zeros((n, 6))
    column = 0
    for c in range(m):
        for k in range(d):
            if jointed is not None and joined[c]:  # every body: the joints answer, and the held motors read
                through[:, :] = 0.0
            for i in range(6):
                through[body_a[c], i] = plain[c, k, 0, i]
                through[body_b[c], i] = plain[c, k, 1, i]
            if jointed is not None and joined[c]:
                take_joints_answer(model, rows, solution, column, through)
                column += 1
                if holding:
                    remove_held_part(model, rows, hold, held_inverse, through, held_impulse[c, k])
            for e in range(start[c], start[c + 1]):
                for i in range(6):
                    response[e, k, i] = through[response_body[e], i]
    return jacobian, start, response_body, response, held_impulse


@kernel
def _joints_answers(model, rows, body_a, body_b, plain, joined):
    """(R, columns) the joints' answers K_bb^-1 K_bd to the rows (m, d) of the `joined` contacts, a
    column each in their order, in one solve (rows.solve_system)."""
    m, d = plain.shape[0], plain.shape[1]
    count = model.row_joint.shape[0]
    columns = 0
    for c in range(m):
        columns += d if joined[c] else 0
    coupling = np.empty((count, columns))
    column = 0
    for c in range(m):
        if not joined[c]:
            continue
        for k in range(d):
            for r in range(count):
                coupling[r, column] = joints_coupling(model, rows, r, body_a[c], plain[c, k, 0], body_b[c],
                                                      plain[c, k, 1])
            column += 1
    solution = np.empty((count, columns))
    if columns:
        solve_system(model, rows, coupling, solution, np.empty((count, columns)),
                      np.empty((rows.null_along.shape[0], columns)))
    return solution


@borrowing_kernel
def row_rate(contact_rows, c, k, twist):
    """The rate of row k of contact c for the (6 n,) twist."""
    total = 0.0
    for side in range(2):
        body = contact_rows.body[c, side]
        for i in range(6):
            total += contact_rows.jacobian[c, k, side, i] * twist[6 * body + i]
    return total


@borrowing_kernel
def apply_impulse(contact_rows, c, impulse, twist):
    """The (d,) impulse of contact c's rows applied to the (6 n,) twist."""
    for e in range(contact_rows.response_start[c], contact_rows.response_start[c + 1]):
        body = contact_rows.response_body[e]
        for k in range(impulse.shape[0]):
            if impulse[k] != 0.0:
                for i in range(6):
                    twist[6 * body + i] += contact_rows.response[e, k, i] * impulse[k]


@entry_kernel
def rates(contact_rows, twist):
    """(m, d) every row's rate for the (6 n,) twist."""
    m, d = contact_rows.jacobian.shape[0], contact_rows.jacobian.shape[1]
    out = np.empty((m, d))
    for c in range(m):
        for k in range(d):
            out[c, k] = row_rate(contact_rows, c, k, twist)
    return out


@entry_kernel
def apply_impulses(contact_rows, impulses, twist):
    """(m, d) impulses of every contact's rows applied to the (6 n,) twist."""
    for c in range(impulses.shape[0]):
        apply_impulse(contact_rows, c, impulses[c], twist)


@borrowing_kernel
def coupling(contact_rows, c, k, e, j):
    """K's entry between row k of contact c and row j of contact e: the rate of c's row k per unit
    impulse of e's row j."""
    total = 0.0
    for side in range(2):
        body = contact_rows.body[c, side]
        for entry in range(contact_rows.response_start[e], contact_rows.response_start[e + 1]):
            if contact_rows.response_body[entry] == body:
                for i in range(6):
                    total += contact_rows.jacobian[c, k, side, i] * contact_rows.response[entry, j, i]
    return total


@entry_kernel
def matrix(contact_rows):
    """(d m, d m) K = J W over every row, row c d + k for contact c's row k; entries between contacts
    that share no island are 0."""
    m, d = contact_rows.jacobian.shape[0], contact_rows.jacobian.shape[1]
    out = np.zeros((d * m, d * m))
    for c in range(m):
        for e in range(m):
            for k in range(d):
                for j in range(d):
                    out[c * d + k, e * d + j] = coupling(contact_rows, c, k, e, j)
    return out


@entry_kernel
def blocks(contact_rows):
    """(m, d, d) each contact's own block of K."""
    m, d = contact_rows.jacobian.shape[0], contact_rows.jacobian.shape[1]
    out = np.empty((m, d, d))
    for c in range(m):
        for k in range(d):
            for j in range(d):
                out[c, k, j] = coupling(contact_rows, c, k, c, j)
    return out


@borrowing_kernel
def contact_point(position, rotation, a, b, probe_b, radius, normal_a, point, normal):
    """One contact's point on b's surface and its unit normal from a towards b (3,) in the frames given,
    from its probe (probe_b, radius, b's principal frame) and its normal (normal_a, a's)."""
    rotate(rotation[a], normal_a, normal)
    body_point(position[b], rotation[b], probe_b, point)
    for i in range(3):
        point[i] -= radius * normal[i]


@entry_kernel
def contact_frames(position, rotation, body_a, body_b, probe_b, radius, normal_a):
    """Where m contacts are in the frames given: (m, 3) the points on b's surface, (m, 3, 3) their
    directions (the unit normal from a towards b, a tangent and the binormal completing a
    right-handed frame), and (m, 2, 3) the points as material points of a and of b (their principal
    frames)."""
    m = body_b.shape[0]
    point, directions, local = np.empty((m, 3)), np.empty((m, 3, 3)), np.empty((m, 2, 3))
    probe, helper = np.empty(3), np.zeros(3)
    for c in range(m):
        a, b = body_a[c], body_b[c]
        normal, tangent, binormal = directions[c, 0], directions[c, 1], directions[c, 2]
        contact_point(position, rotation, a, b, probe_b[c], radius[c], normal_a[c], point[c], normal)
        helper[0] = helper[1] = helper[2] = 0.0
        helper[0 if abs(normal[0]) < 0.9 else 1] = 1.0  # any axis well away from the normal
        cross(normal, helper, tangent)
        length = np.sqrt(dot(tangent, tangent))
        for i in range(3):
            tangent[i] /= length
        cross(normal, tangent, binormal)
        for side in range(2):
            body = a if side == 0 else b
            for i in range(3):
                probe[i] = point[c, i] - position[body, i]
            unrotate(rotation[body], probe, local[c, side])
    return point, directions, local


@entry_kernel
def normal_rates(position, rotation, body_a, body_b, probe_b, radius, normal_a, twist):
    """(m,) how fast each of m contacts opens in the frames given (negative: closing), for the (n, 6)
    twist (linear, angular): n . (v_b + w_b x r_b - v_a - w_a x r_a) at its point on b's surface."""
    m = body_b.shape[0]
    rate = np.empty(m)
    normal, point, lever, spin, turn = np.empty(3), np.empty(3), np.empty(3), np.empty(3), np.empty(3)
    relative = np.empty(3)
    for c in range(m):
        contact_point(position, rotation, body_a[c], body_b[c], probe_b[c], radius[c], normal_a[c], point, normal)
        for side in range(2):
            body = body_a[c] if side == 0 else body_b[c]
            for i in range(3):
                lever[i] = point[i] - position[body, i]
                spin[i] = twist[body, 3 + i]
            cross(spin, lever, turn)
            for i in range(3):
                if side == 0:
                    relative[i] = twist[body, i] + turn[i]
                else:
                    relative[i] = twist[body, i] + turn[i] - relative[i]
        rate[c] = relative[0] * normal[0] + relative[1] * normal[1] + relative[2] * normal[2]
    return rate
