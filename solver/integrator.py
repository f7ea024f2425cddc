"""Ballistic motion of every body at once (Schmitt §3): the centre of mass falls freely (3.4) and the
rotation follows Euler's equation (3.3), expanded in a Taylor series to a chosen order.

All arrays are (n, ...) over bodies; fixed bodies and particles have zero inverse inertia, so their
series vanish and they do not turn.
"""
from dataclasses import dataclass
from math import comb, factorial

import numpy as np

from .frames import Frames
from .rotation import SKEW_MAP, orthonormalize


FACTORIALS = np.array([factorial(k) for k in range(16)], dtype=float)
# weights of the Leibniz rule, shaped to scale stacked (k+1, n, 3, *) arrays: C(k, j)
BINOMIAL = [np.array([comb(k, j) for j in range(k + 1)], dtype=float)[:, None, None, None] for k in range(16)]


def omega_derivatives(omega_body: np.ndarray, inertia: np.ndarray, inv_inertia: np.ndarray, order: int):
    """omega_0 ... omega_order in the body frame, (order+1, n, 3), and their skew matrices (order+1, n, 3, 3).

    Schmitt §3: omega_{k+1} = -J^-1 sum_j C(k, j) omega_j x J omega_{k-j}; a zero moment gives a zero
    inverse, which drops that component from the equation as the paper prescribes.
    """
    n = len(omega_body)
    terms = np.empty((order + 1, n, 3, 1))
    skews = np.empty((order + 1, n, 3, 3))
    momentum = np.empty((order + 1, n, 3, 1))
    inertia, inv_inertia = inertia[:, :, None], inv_inertia[:, :, None]
    terms[0] = omega_body[:, :, None]
    for k in range(order + 1):
        skews[k] = (terms[k, :, :, 0] @ SKEW_MAP).reshape(n, 3, 3)
        np.multiply(inertia, terms[k], out=momentum[k])
        if k < order:
            total = (skews[: k + 1] @ (momentum[k::-1] * BINOMIAL[k])).sum(axis=0)
            np.multiply(-inv_inertia, total, out=terms[k + 1])
    return terms[..., 0], skews


def rotation_increment(skews: np.ndarray, h: float) -> np.ndarray:
    """The body-frame rotation U over h, with R(t+h) = R(t) U; (n, 3, 3).

    A body-fixed vector obeys dU/dt = U Omega(t) with Omega = skew(omega in the moving body frame),
    so U^(k) = sum_j C(k-1, j) U^(k-1-j) Omega_j. Schmitt's vector form multiplies the other way
    round; both agree to second order, this one is exact at every order.
    """
    derivatives = np.empty((len(skews) + 1,) + skews.shape[1:])
    derivatives[0] = np.eye(3)
    increment = derivatives[0].copy()
    for k in range(1, len(skews) + 1):
        derivatives[k] = (derivatives[k - 1::-1] @ (skews[:k] * BINOMIAL[k - 1])).sum(axis=0)
        increment += derivatives[k] * (h**k / FACTORIALS[k])
    return increment


@dataclass
class Flight:
    """Every body moved h along its ballistic path from one state (Schmitt LookAhead 3.7)."""

    frames: Frames  # at t+h, rotations orthonormalised: exactly where P-step 3 will put the bodies
    velocity: np.ndarray  # (n, 3) at t+h
    omega_terms: np.ndarray  # (order+1, n, 3) omega derivatives at t, body frame
    h: float

    def land(self) -> tuple[Frames, np.ndarray]:
        """Schmitt P-step 3: the frames at t+h and the twist at t+h."""
        rotation = self.frames.rotation
        powers = (self.h ** np.arange(len(self.omega_terms)) / FACTORIALS[: len(self.omega_terms)])[:, None, None]
        omega_body = (powers * self.omega_terms).sum(axis=0)
        angular = (rotation @ omega_body[:, :, None])[:, :, 0]
        return self.frames, np.concatenate((self.velocity, angular), axis=1)


def fly(model, frames: Frames, twist: np.ndarray, h: float) -> Flight:
    """Ballistic motion of every body over h: free fall of the centre of mass (3.4) and the Taylor
    series of Euler's equation for the rotation (3.5-3.9). Bodies that cannot turn have omega = 0,
    so their series is exactly the identity."""
    velocity = twist[:, :3]
    position = frames.position + velocity * h + (0.5 * h * h) * model.body_gravity  # Schmitt (3.4)
    omega_body = (twist[:, None, 3:] @ frames.rotation)[:, 0, :]  # R^T omega
    terms, skews = omega_derivatives(omega_body, model.body_inertia, model.body_inv_inertia, model.settings.taylor_order)
    # Schmitt (3.8, 3.9): R(t+h) = M_rot R(t), orthonormalised here so that the look-ahead is exactly
    # the motion P-step 3 performs; otherwise the truncation error of the series reaches Dmax
    rotation = orthonormalize(frames.rotation @ rotation_increment(skews, h))
    return Flight(Frames(position, rotation), velocity + h * model.body_gravity, terms, h)
