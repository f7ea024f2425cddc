"""Ballistic motion of every body at once (Schmitt §3): the centre of mass falls freely (3.4) and the
rotation follows Euler's equation (3.3), expanded in a Taylor series to a chosen order.

All arrays are (n, ...) over bodies; fixed bodies and particles have zero inverse inertia, so their
series vanish and they do not turn.
"""
from math import comb, factorial

import numpy as np

from .frames import Frames
from .rotation import cross, orthonormalize, skew


def omega_derivatives(omega_body: np.ndarray, inertia: np.ndarray, inv_inertia: np.ndarray, order: int) -> list:
    """omega_0 ... omega_order in the body frame: the derivatives of Euler's equation at t.

    Schmitt §3: omega_{k+1} = -J^-1 sum_j C(k, j) omega_j x J omega_{k-j}; a zero moment gives a zero
    inverse, which drops that component from the equation as the paper prescribes.
    """
    terms = [omega_body]
    momentum = [inertia * omega_body]
    for k in range(order):
        total = sum(comb(k, j) * cross(terms[j], momentum[k - j]) for j in range(k + 1))
        terms.append(-inv_inertia * total)
        momentum.append(inertia * terms[-1])
    return terms


def rotation_increment(terms: list, h: float) -> np.ndarray:
    """The body-frame rotation U over h, with R(t+h) = R(t) U; (n, 3, 3).

    A body-fixed vector obeys dU/dt = U Omega(t) with Omega = skew(omega in the moving body frame),
    so U^(k) = sum_j C(k-1, j) U^(k-1-j) Omega_j. Schmitt's vector form multiplies the other way
    round; both agree to second order, this one is exact at every order.
    """
    n = terms[0].shape[0]
    omegas = [skew(w) for w in terms]
    derivatives = [np.broadcast_to(np.eye(3), (n, 3, 3))]
    increment = np.broadcast_to(np.eye(3), (n, 3, 3)).copy()
    for k in range(1, len(terms) + 1):
        d = sum(comb(k - 1, j) * (derivatives[k - 1 - j] @ omegas[j]) for j in range(k))
        derivatives.append(d)
        increment += d * (h**k / factorial(k))
    return increment


def ballistic(model, frames: Frames, velocity: np.ndarray, angular_velocity: np.ndarray, h: float,
              with_velocities: bool) -> tuple:
    """Every body moved h along its ballistic path (Schmitt P-step 3, LookAhead 3.7).

    Returns (frames at t+h, velocity at t+h, angular velocity at t+h); the velocities are None unless
    asked for, which the look-ahead does not need.
    """
    position = frames.position + velocity * h + 0.5 * model.body_gravity * h * h  # Schmitt (3.4)
    rotating = model.body_rotates
    rotation = frames.rotation.copy()
    new_angular = angular_velocity.copy() if with_velocities else None
    if rotating.any():
        r = frames.rotation[rotating]
        omega_body = np.einsum("nji,nj->ni", r, angular_velocity[rotating])
        terms = omega_derivatives(omega_body, model.body_inertia[rotating], model.body_inv_inertia[rotating],
                                  model.settings.taylor_order)
        increment = rotation_increment(terms, h)
        if with_velocities:
            increment = orthonormalize(increment)
            omega_h = sum(w * (h**k / factorial(k)) for k, w in enumerate(terms))
            rotated = r @ increment
            new_angular[rotating] = np.einsum("nij,nj->ni", rotated, omega_h)
            rotation[rotating] = rotated
        else:
            rotation[rotating] = r @ increment
    new_velocity = velocity + model.body_gravity * h if with_velocities else None
    return Frames(position, rotation), new_velocity, new_angular
