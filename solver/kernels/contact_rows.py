"""Contact rows at one instant: each contact's rows along d directions at its point, as dense rows
over every body's twist, and their impulse responses through the joints (Schmitt §11's contact
pairs act on a mechanism as its drives do: through the Schur complement of K, rows.through_joints)."""
import numpy as np

from .jit import kernel
from .rows import response_of, through_joints
from .vector import body_point, cross, dot, rotate, unrotate


@kernel
def jacobian_and_response(model, rows, position, body_a, body_b, point, directions):
    """For m contacts of bodies a and b (m,) at world points (m, 3) with (m, d, 3) unit directions:
    the rows J (d m, 6 n), a row's rate being A.(v_b + w_b x r_b - v_a - w_a x r_a), and their
    responses through the joints W (6 n, d m): an impulse lambda of row r changes the twist by
    lambda W[:, r]. Row c d + k is contact c's direction k."""
    m, d = directions.shape[0], directions.shape[1]
    n = position.shape[0]
    jacobian = np.zeros((d * m, 6 * n))
    response = np.empty((6 * n, d * m))
    block, plain, through = np.empty(6), np.zeros((n, 6)), np.empty((n, 6))
    for c in range(m):
        for k in range(d):
            r = c * d + k
            plain[:, :] = 0.0
            for side in range(2):
                body = body_a[c] if side == 0 else body_b[c]
                sign = -1.0 if side == 0 else 1.0
                lever = point[c] - position[body]
                direction = directions[c, k]
                # w x r . A = w . (r x A)
                block[0], block[1], block[2] = sign * direction[0], sign * direction[1], sign * direction[2]
                block[3] = sign * (lever[1] * direction[2] - lever[2] * direction[1])
                block[4] = sign * (lever[2] * direction[0] - lever[0] * direction[2])
                block[5] = sign * (lever[0] * direction[1] - lever[1] * direction[0])
                for i in range(6):
                    jacobian[r, 6 * body + i] += block[i]
                response_of(model, rows.inv_inertia_world, body, block, through[body])
                for i in range(6):
                    plain[body, i] += through[body, i]
            through_joints(model, rows, plain, through)
            for b in range(n):
                for i in range(6):
                    response[6 * b + i, r] = through[b, i]
    return jacobian, response


@kernel
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
        rotate(rotation[a], normal_a[c], normal)
        body_point(position[b], rotation[b], probe_b[c], probe)
        for i in range(3):
            point[c, i] = probe[i] - radius[c] * normal[i]
        helper[:] = 0.0
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
