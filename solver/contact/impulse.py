"""Schmitt §11: contact pairs as temporary rows of the correction loop, impact pairs by Poisson's law.

Each contact has three rows at its point: the normal n (pointing from body a to body b) and two
tangents. In the correction loop the normal row keeps the look-ahead separation from going below
zero with an accumulated impulse that only pushes (I_nsum), and the tangent rows cancel the contact
point's slip over the step, (p(t+h) - p(t)) / h as Schmitt writes it, with an impulse no larger than
mu I_nsum (the beta clamp: friction brakes the slip at most to rest, never reverses it). Rows act
through the joints (the Schur complement of K, as drives do), so a mechanism's whole structure
answers a contact.
"""
import numpy as np

from ..frames import Frames
from ..rotation import perpendicular_basis
from .jacobian import contact_jacobian
from .detection import Contacts

# Separations below this count as touching (a contact pair); above it a pair that closes within the
# step is a collision ahead, which shortens the step.
TOUCHING = 1e-6


class ContactRows:
    """The rows of m contacts at one instant, solved alongside the joints."""

    def __init__(self, model, rows, contacts: Contacts, frames: Frames):
        self.contacts = contacts
        point, normal = contacts.geometry(frames)
        tangent, binormal = perpendicular_basis(normal)
        self.directions = np.stack((normal, tangent, binormal), axis=1)  # (m, 3, 3) rows n, t1, t2
        self.local_a = frames.to_local_points(contacts.body_a, point)  # the contact point as a material point of a
        self.local_b = frames.to_local_points(contacts.body_b, point)  # and of b
        self.jacobian = contact_jacobian(model, frames, contacts.body_a, contacts.body_b, point, self.directions)
        self.response, matrix = rows.through_joints_of(model, self.jacobian)
        m = len(contacts)
        index = np.arange(3 * m).reshape(m, 3)
        self.block = matrix[index[:, :, None], index[:, None, :]]  # (m, 3, 3) each contact's own K
        self.index = index
        self.accumulated = np.zeros((m, 3))  # normal, tangent, binormal impulses this step
        self.passes = 0

    def slip_and_gap(self, frames_h: Frames) -> tuple[np.ndarray, np.ndarray]:
        """At the look-ahead: (m,) separations and (m, 2) tangential displacement of b against a."""
        displacement = frames_h.points(self.contacts.body_b, self.local_b) - frames_h.points(self.contacts.body_a,
                                                                                           self.local_a)
        slip = np.einsum("mki,mi->mk", self.directions[:, 1:], displacement)
        return self.contacts.separation(frames_h), slip

    def rates(self, twist: np.ndarray) -> np.ndarray:
        return (self.jacobian @ twist).reshape(-1, 3)

    def solve(self, twist: np.ndarray, gap_h, slip_h, rates_at_look, h: float) -> float:
        """One projected Gauss-Seidel pass in the correction loop; the largest change, as a distance
        over h. What must vanish is the look-ahead gap (if negative) and slip, moved on by what the
        impulses since the look-ahead changed, per unit of h."""
        largest = 0.0
        self.passes += 1
        for c in self._order():
            moved = h * ((self.jacobian[self.index[c]] @ twist) - rates_at_look[c])
            residual = np.concatenate(([gap_h[c] + moved[0]], slip_h[c] + moved[1:])) / h
            largest = max(largest, self._project(c, residual, twist) * h)
        return largest

    def solve_velocities(self, twist: np.ndarray) -> float:
        """One pass of P-step 4 for the contacts: no approaching normal rate, and the slip braked within
        mu times this pass's normal impulse. Friction belongs here too: the support of a resting body
        is shared between the loop (half a step of gravity) and this correction (the other half)."""
        largest = 0.0
        self.passes += 1
        for c in self._order():
            residual = self.jacobian[self.index[c]] @ twist
            if residual[0] > 0 and self.accumulated[c, 0] == 0:
                continue  # separating and not pressed: nothing to do
            largest = max(largest, self._project(c, residual, twist))
        return largest

    def _order(self) -> range:
        """Forwards and backwards in turn (symmetric Gauss-Seidel): the contacts of one body share its
        load evenly instead of the first in line taking it all."""
        m = len(self.contacts)
        return range(m) if self.passes % 2 else range(m - 1, -1, -1)

    def _project(self, c: int, residual: np.ndarray, twist: np.ndarray) -> float:
        """Impulse change for one contact: the normal part only pushes (I_nsum >= 0), the tangential
        part cancels the slip but stays within mu I_nsum (Schmitt's beta clamp)."""
        block = self.block[c]
        total_n = max(self.accumulated[c, 0] - residual[0] / block[0, 0], 0.0)
        change_n = total_n - self.accumulated[c, 0]
        slip = residual[1:] + block[1:, 0] * change_n
        total_t = _coulomb(self.accumulated[c, 1:], slip, block[1:, 1:], self.contacts.friction[c] * total_n)
        change = np.concatenate(([change_n], total_t - self.accumulated[c, 1:]))
        self.accumulated[c] = np.concatenate(([total_n], total_t))
        twist += self.response[:, self.index[c]] @ change
        return float(np.abs(block @ change).max())


def resolve_impacts(model, rows, contacts: Contacts, frames: Frames, twist: np.ndarray, fresh: np.ndarray,
                    resting_speed: float) -> None:
    """Schmitt §11 impact pairs: for each newly touching contact that approaches, the braking impulse
    I_0 that stops its point; stick if |I_t| <= mu |I_n|, else slide with friction mu |I_n| against
    the slip, whose direction is iterated; then Poisson's reflex e I_n (e the usual coefficient:
    0 plastic, 1 elastic; the paper's e is 1 minus ours)."""
    if not fresh.any():
        return
    # a pair that closes no faster than a couple of steps of gravity would bring it is coming to rest:
    # it is a contact pair for the velocity correction, not an impact (no reflex, no rattling)
    approach = normal_rates(model, contacts, frames, twist)
    impacts = contacts.subset(fresh & (approach < -resting_speed))
    if not len(impacts):
        return
    contact_rows = ContactRows(model, rows, impacts, frames)
    for _ in range(4):  # simultaneous impacts: a few Gauss-Seidel passes over them
        for c in range(len(impacts)):
            _impact(contact_rows, c, twist)


def normal_rates(model, contacts: Contacts, frames: Frames, twist: np.ndarray) -> np.ndarray:
    """(m,) how fast each contact opens now (negative: closing); needs the rows' directions only."""
    point, normal = contacts.geometry(frames)
    return contact_jacobian(model, frames, contacts.body_a, contacts.body_b, point, normal[:, None]) @ twist.reshape(-1)


def _impact(contact_rows: ContactRows, c: int, twist: np.ndarray) -> None:
    rows = contact_rows.index[c]
    velocity = contact_rows.jacobian[rows] @ twist  # normal, tangent, binormal rates
    if velocity[0] >= 0:
        return
    block = contact_rows.block[c]
    braking = -np.linalg.solve(block, velocity)  # I_0: brings the contact point to rest
    normal = max(braking[0], 0.0)
    friction = contact_rows.contacts.friction[c]
    restitution = contact_rows.contacts.restitution[c]
    if np.linalg.norm(braking[1:]) <= friction * normal:  # sticking: I_t stays, the point stops
        impulse = braking.copy()
    else:  # sliding: the normal part stops the approach, friction opposes the slip, found iteratively
        impulse = np.array([-velocity[0] / block[0, 0], 0.0, 0.0])
        limit = friction * impulse[0]
        for _ in range(50):
            tangential = _coulomb(impulse[1:], velocity[1:] + block[1:] @ impulse, block[1:, 1:], limit)
            if np.allclose(tangential, impulse[1:], rtol=0, atol=1e-12 * max(1.0, limit)):
                break
            impulse[1:] = tangential
    impulse[0] *= 1.0 + restitution  # Poisson: the reflex impulse is e times the compression impulse
    twist += contact_rows.response[:, rows] @ impulse


def _coulomb(current: np.ndarray, slip: np.ndarray, block: np.ndarray, limit: float) -> np.ndarray:
    """The tangential impulse of one contact under Coulomb's law, given the slip rate with the current
    impulse in effect. If the impulse that stops the slip lies within mu I_n, the contact sticks
    (Schmitt's beta clamp). Otherwise it slides, and the impulse is the point of the disk nearest the
    stopping impulse in the contact's own effective-mass metric K: there the remaining slip
    K (l - l_stop) is exactly opposite the friction impulse, the fixed point Schmitt's iterative
    friction direction seeks, found here directly (and without flipping when the slip is nearly 0).
    (K + s I) l = K l_stop with |l| = limit is solved for s >= 0 in K's eigenbasis."""
    stopping = current - _solve2(block, slip)
    if float(np.hypot(stopping[0], stopping[1])) <= limit:
        return stopping
    if limit <= 0.0:
        return np.zeros(2)
    moments, axes = _eigh2(block)
    pulled = axes.T @ (block @ stopping)
    shift = 0.0  # Newton on 1/|l(s)| = 1/limit, which is nearly linear in s
    for _ in range(30):
        parts = pulled / (moments + shift)
        size = float(np.sqrt(parts @ parts))
        slope = float(parts @ (parts / (moments + shift))) / size**3  # d(1/|l|)/ds
        step = (1.0 / limit - 1.0 / size) / slope
        shift = max(shift + step, 0.0)
        if abs(step) <= 1e-12 * (shift + moments.max()):
            break
    return axes @ (pulled / (moments + shift))


def _solve2(block: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """A 2x2 solve in closed form (np.linalg.solve costs far more than the arithmetic here)."""
    a, b, c, d = block[0, 0], block[0, 1], block[1, 0], block[1, 1]
    det = a * d - b * c
    return np.array([(d * rhs[0] - b * rhs[1]) / det, (a * rhs[1] - c * rhs[0]) / det])


def _eigh2(block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues (ascending) and eigenvectors (columns) of a symmetric 2x2 matrix, in closed form."""
    a, b, d = block[0, 0], 0.5 * (block[0, 1] + block[1, 0]), block[1, 1]
    mean, spread = 0.5 * (a + d), float(np.hypot(0.5 * (a - d), b))
    angle = 0.5 * np.arctan2(2 * b, a - d)  # the direction of the larger eigenvalue
    cos, sin = np.cos(angle), np.sin(angle)
    return np.array([mean - spread, mean + spread]), np.array([[-sin, cos], [cos, sin]])
