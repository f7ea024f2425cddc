"""Ballistic motion of every body (Schmitt §3), the look-ahead (3.7) and P-step 3.

The centre of mass falls freely (3.4); the rotation follows Euler's equation (3.3) expanded in a
Taylor series of the chosen order, summed over pieces of the step short enough for it to converge.
Bodies that cannot turn (the world, fixed bodies, particles) keep their rotation exactly; animated
bodies are where their motion puts them.
"""
from math import comb, factorial

import numpy as np

from ..codes import MAX_HALVINGS
from .jit import borrowing_entry_kernel, borrowing_kernel
from .motion import is_animated, motion_at

MAX_ORDER = 12  # the settings allow Taylor orders 1..12
BINOMIAL = np.array([[comb(k, j) for j in range(MAX_ORDER + 2)] for k in range(MAX_ORDER + 2)], dtype=np.float64)
INVERSE_FACTORIAL = np.array([1.0 / factorial(k) for k in range(MAX_ORDER + 2)])
ORTHONORMAL_TOLERANCE = 1e-13
ORTHONORMAL_PASSES = 4
# the largest angle by which omega turns the body, or omega_1 turns omega, in one piece of a turn
MAX_PIECE_TURN = 0.25
# ... at the default order 3 and above; below it a piece is as short as makes the first term the series
# leaves out, x^(k+1) / (k+1)!, no larger than order 3's at MAX_PIECE_TURN
PIECE_TURN = np.array([min(MAX_PIECE_TURN, (MAX_PIECE_TURN**4 / 24 * factorial(k + 1)) ** (1 / (k + 1)))
                       for k in range(MAX_ORDER + 1)])
MAX_PIECES = 64  # pieces of one turn at most: 16 rad a step
# the largest angle by which a jointed body's gyroscopic mode turns in one sub-step (whirl_rate)
MAX_WHIRL_TURN = 1.0


@borrowing_kernel
def omega_derivatives(omega_body, inertia, inv_inertia, order, terms):
    """terms[k] = omega_k, the k-th derivative of omega in the body frame, k = 0..order (3 each).

    Schmitt §3: omega_{k+1} = -J^-1 sum_j C(k, j) omega_j x J omega_{k-j}. A zero moment gives a
    zero inverse, which drops that component from the equation as the paper prescribes."""
    for i in range(3):
        terms[0, i] = omega_body[i]
    for k in range(order):
        total0 = total1 = total2 = 0.0
        for j in range(k + 1):
            w = terms[j]
            l0 = inertia[0] * terms[k - j, 0]
            l1 = inertia[1] * terms[k - j, 1]
            l2 = inertia[2] * terms[k - j, 2]
            c = BINOMIAL[k, j]
            total0 += c * (w[1] * l2 - w[2] * l1)
            total1 += c * (w[2] * l0 - w[0] * l2)
            total2 += c * (w[0] * l1 - w[1] * l0)
        terms[k + 1, 0] = -inv_inertia[0] * total0
        terms[k + 1, 1] = -inv_inertia[1] * total1
        terms[k + 1, 2] = -inv_inertia[2] * total2


@borrowing_kernel
def rotation_increment(terms, order, h, derivatives, increment):
    """U over h with R(t+h) = R(t) U (3x3 into `increment`).

    A body-fixed vector obeys dU/dt = U Omega(t), Omega = skew(omega in the moving body frame), so
    U^(k) = sum_j C(k-1, j) U^(k-1-j) Omega_j; row r of D Omega_j is D[r] x omega_j. Schmitt's
    vector form multiplies the other way round; both agree to second order, this one at every order."""
    for r in range(3):
        for c in range(3):
            derivatives[0, r, c] = 1.0 if r == c else 0.0
            increment[r, c] = derivatives[0, r, c]
    power = 1.0
    for k in range(1, order + 2):
        power *= h
        weight = power * INVERSE_FACTORIAL[k]
        for r in range(3):
            s0 = s1 = s2 = 0.0
            for j in range(k):
                w = terms[j]
                if w[0] == 0.0 and w[1] == 0.0 and w[2] == 0.0:  # adds nothing: a body turning about a principal
                    continue                                      # axis (every planar one) has omega_j = 0 for j > 0
                d = derivatives[k - 1 - j, r]
                c = BINOMIAL[k - 1, j]
                s0 += c * (d[1] * w[2] - d[2] * w[1])
                s1 += c * (d[2] * w[0] - d[0] * w[2])
                s2 += c * (d[0] * w[1] - d[1] * w[0])
            derivatives[k, r, 0] = s0
            derivatives[k, r, 1] = s1
            derivatives[k, r, 2] = s2
            increment[r, 0] += weight * s0
            increment[r, 1] += weight * s1
            increment[r, 2] += weight * s2


@borrowing_kernel
def steady_increment(omega, h, increment):
    """U = exp(h Omega) over h for an omega constant in the body frame, Omega = skew(omega): the
    series of rotation_increment summed to every order. omega_1 = 0 makes every later derivative 0
    (Schmitt §3's recursion), as for a body turning about a principal axis (every planar one), and
    then Rodrigues' formula is the exact sum: U = E + sin(a) / w Omega + (1 - cos(a)) / w^2 Omega^2,
    a = w h, with Omega^2 = omega omega^T - w^2 E; orthonormal to round-off."""
    speed = np.sqrt(omega[0] ** 2 + omega[1] ** 2 + omega[2] ** 2)
    angle = speed * h
    if angle == 0.0:
        for r in range(3):
            for c in range(3):
                increment[r, c] = 1.0 if r == c else 0.0
        return
    first = np.sin(angle) / speed
    half = np.sin(0.5 * angle)
    second = 2.0 * half * half / (speed * speed)  # 1 - cos(a), without the cancellation near a = 0
    for r in range(3):
        for c in range(3):
            increment[r, c] = second * omega[r] * omega[c] + (1.0 - second * speed * speed if r == c else 0.0)
    increment[0, 1] -= first * omega[2]
    increment[0, 2] += first * omega[1]
    increment[1, 0] += first * omega[2]
    increment[1, 2] -= first * omega[0]
    increment[2, 0] -= first * omega[1]
    increment[2, 1] += first * omega[0]


@borrowing_kernel
def orthonormality_error(m):
    """The largest entry of |M^T M - E|."""
    worst = 0.0
    for a in range(3):
        for b in range(a, 3):
            product = m[0, a] * m[0, b] + m[1, a] * m[1, b] + m[2, a] * m[2, b]
            worst = max(worst, abs(product - (1.0 if a == b else 0.0)))
    return worst


@borrowing_entry_kernel
def orthonormalize(m):
    """Schmitt §3, in place: normalise the columns, then average each with the cross product of the
    other two (the cofactor matrix). The error squares with every pass (Schmitt: one pass, rarely
    two, to about 13 digits), and no axis is preferred."""
    for _ in range(ORTHONORMAL_PASSES):
        for c in range(3):
            length = np.sqrt(m[0, c] ** 2 + m[1, c] ** 2 + m[2, c] ** 2)
            m[0, c] /= length
            m[1, c] /= length
            m[2, c] /= length
        x0, x1, x2 = m[0, 0], m[1, 0], m[2, 0]
        y0, y1, y2 = m[0, 1], m[1, 1], m[2, 1]
        z0, z1, z2 = m[0, 2], m[1, 2], m[2, 2]
        m[0, 0], m[1, 0], m[2, 0] = 0.5 * (x0 + y1 * z2 - y2 * z1), 0.5 * (x1 + y2 * z0 - y0 * z2), 0.5 * (
            x2 + y0 * z1 - y1 * z0)
        m[0, 1], m[1, 1], m[2, 1] = 0.5 * (y0 + z1 * x2 - z2 * x1), 0.5 * (y1 + z2 * x0 - z0 * x2), 0.5 * (
            y2 + z0 * x1 - z1 * x0)
        m[0, 2], m[1, 2], m[2, 2] = 0.5 * (z0 + x1 * y2 - x2 * y1), 0.5 * (z1 + x2 * y0 - x0 * y2), 0.5 * (
            z2 + x0 * y1 - x1 * y0)
        if orthonormality_error(m) < ORTHONORMAL_TOLERANCE:
            return


@borrowing_kernel
def flight_pieces(terms, order, h):
    """How many pieces the series of a turn over h is summed in: enough that omega turns the body, or
    omega's own derivative turns omega, by at most PIECE_TURN[order] a piece. Schmitt §3's series in h
    converges as (rate h)^k / k!: the truncated sum is accurate, and better with every order, only
    for a rate h well below 1 rad."""
    speed = np.sqrt(terms[0, 0] ** 2 + terms[0, 1] ** 2 + terms[0, 2] ** 2)
    rate = speed
    if speed > 0.0:
        rate = max(rate, np.sqrt(terms[1, 0] ** 2 + terms[1, 1] ** 2 + terms[1, 2] ** 2) / speed)
    pieces = rate * h / PIECE_TURN[order]
    if not pieces <= MAX_PIECES:  # beyond any series (or not a number): the step's halving takes over
        return MAX_PIECES
    return max(1, int(np.ceil(pieces)))


@borrowing_kernel
def whirl_rate(model, rotation, twist):
    """The fastest gyroscopic mode of the bodies a joint holds, rad/s: the rate at which a free flight
    turns a change of omega (a fast top's nutation about its centre). Euler's equation linearised about
    a body's omega (body frame, principal moments I) has a trace of 0; about a principal axis its
    eigenvalues are 0 and +-lambda with lambda^2 = -sum_k omega_k^2 (I_k - I_i)(I_k - I_j) / (I_i I_j),
    {i, j, k} = {0, 1, 2} (its principal minors' sum), and off the axes that sum's root stays near its
    largest eigenvalue. A joint's impulses act at the step's ends and the flight between them is free,
    so the method is second order in this rate times the step, as Verlet is in a spring's (Schmitt §8):
    steps are kept below MAX_WHIRL_TURN / rate. Bodies nothing holds fly exactly and are left out."""
    fastest = 0.0
    for j in range(model.joint_body.shape[0]):
        for side in range(2):
            b = model.joint_body[j, side]
            if not model.body_rotates[b]:
                continue
            inertia = model.body_inertia[b]
            square = 0.0
            for k in range(3):
                omega = (rotation[b, 0, k] * twist[b, 3] + rotation[b, 1, k] * twist[b, 4]
                         + rotation[b, 2, k] * twist[b, 5])
                i, m = (k + 1) % 3, (k + 2) % 3
                square += omega * omega * (inertia[k] - inertia[i]) * (inertia[k] - inertia[m]) / (
                    inertia[i] * inertia[m])
            fastest = max(fastest, np.sqrt(abs(square)))
    return fastest


@borrowing_entry_kernel
def whirl_step(model, rotation, twist, length, h):
    """`length` halved until the fastest whirl_rate turns at most MAX_WHIRL_TURN in it, but not below
    h / 2^MAX_HALVINGS: the sub-step a spinning body the joints hold allows."""
    whirl = whirl_rate(model, rotation, twist)
    while whirl * length > MAX_WHIRL_TURN and length * 2**MAX_HALVINGS > h:
        length /= 2
    return length


@borrowing_kernel
def turn(model, order, b, h, rotation, flight):
    """Body b's rotation and body-frame omega after a torque-free turn over h: flight.rotation[b] from
    `rotation` (3x3), flight.omega_body from flight.omega_body, both in place. omega_terms[b] holds
    the series at the turn's start on entry and at its last piece's start on return."""
    derivatives, increment, omega_body = flight.derivatives, flight.increment, flight.omega_body
    terms = flight.omega_terms[b]
    for r in range(3):
        for c in range(3):
            flight.rotation[b, r, c] = rotation[r, c]
    omega_derivatives(omega_body, model.body_inertia[b], model.body_inv_inertia[b], order, terms)
    pieces = flight_pieces(terms, order, h)
    piece = h / pieces
    for p in range(pieces):
        if p > 0:
            omega_derivatives(omega_body, model.body_inertia[b], model.body_inv_inertia[b], order, terms)
        steady = terms[1, 0] == 0.0 and terms[1, 1] == 0.0 and terms[1, 2] == 0.0
        if steady:
            steady_increment(omega_body, piece, increment)
        else:
            rotation_increment(terms, order, piece, derivatives, increment)
        for r in range(3):  # Schmitt (3.8, 3.9): R(t+h) = R(t) U
            a0, a1, a2 = flight.rotation[b, r, 0], flight.rotation[b, r, 1], flight.rotation[b, r, 2]
            for c in range(3):
                flight.rotation[b, r, c] = a0 * increment[0, c] + a1 * increment[1, c] + a2 * increment[2, c]
        # a steady turn's U is orthonormal: only round-off, a pass once in many steps, to undo
        if not steady or orthonormality_error(flight.rotation[b]) >= ORTHONORMAL_TOLERANCE:
            orthonormalize(flight.rotation[b])
        w0 = w1 = w2 = 0.0  # omega at the piece's end from its series
        power = 1.0
        for k in range(order + 1):
            weight = power * INVERSE_FACTORIAL[k]
            w0 += weight * terms[k, 0]
            w1 += weight * terms[k, 1]
            w2 += weight * terms[k, 2]
            power *= piece
        omega_body[0], omega_body[1], omega_body[2] = w0, w1, w2


@borrowing_entry_kernel
def fly(model, order, time, position, rotation, twist, h, flight, driven):
    """Every body moved h along its ballistic path from (position, rotation, twist) at `time`; fills
    the flight's position, rotation (orthonormalised: exactly where P-step 3 puts the bodies, or the
    series' truncation error would reach Dmax), velocity and spin at t + h. An animated body goes
    where its motion is at t + h, whatever its state (driven: arrays.drives_flag)."""
    n = position.shape[0]
    omega_body = flight.omega_body
    for b in range(n):
        for i in range(3):
            g = model.body_gravity[b, i]
            flight.position[b, i] = position[b, i] + h * twist[b, i] + 0.5 * h * h * g  # Schmitt (3.4)
            flight.velocity[b, i] = twist[b, i] + h * g
        if not model.body_rotates[b]:
            for i in range(3):
                flight.spin[b, i] = 0.0
                for k in range(flight.omega_terms.shape[1]):
                    flight.omega_terms[b, k, i] = 0.0
                for k in range(3):
                    flight.rotation[b, i, k] = rotation[b, i, k]
            if driven is not None and is_animated(model, b):
                motion_at(model, b, time + h, flight.position[b], flight.rotation[b], flight.velocity[b],
                          flight.spin[b])
            continue
        for i in range(3):  # omega in the body frame: R^T omega
            omega_body[i] = rotation[b, 0, i] * twist[b, 3] + rotation[b, 1, i] * twist[b, 4] + rotation[
                b, 2, i] * twist[b, 5]
        turn(model, order, b, h, rotation[b], flight)
        for i in range(3):
            flight.spin[b, i] = (flight.rotation[b, i, 0] * omega_body[0] + flight.rotation[b, i, 1] * omega_body[1]
                                 + flight.rotation[b, i, 2] * omega_body[2])


@borrowing_kernel
def land(flight, position, rotation, twist):
    """Schmitt P-step 3: the bodies take the flight's frames and their velocities at t+h."""
    for b in range(position.shape[0]):
        for i in range(3):
            position[b, i] = flight.position[b, i]
            twist[b, i] = flight.velocity[b, i]
            twist[b, 3 + i] = flight.spin[b, i]
            for k in range(3):
                rotation[b, i, k] = flight.rotation[b, i, k]
