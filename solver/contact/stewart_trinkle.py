"""Stewart and Trinkle's time-stepping LCP (their §3-3.4, multiple contacts (25-29)), as one
stage of MechBake's step, with the joints kept by the impulse correction alongside.

For m contacts with friction cones of k edges d_j, the step's impulses z = (c_n, beta, lambda) solve

    w_n    = A_nn c_n + A_nb beta + gap(t+h) / h      >= 0  complementary to c_n    >= 0
    w_beta = A_bn c_n + A_bb beta + E lambda + slip / h >= 0  complementary to beta  >= 0
    w_lam  = mu c_n - E^T beta                         >= 0  complementary to lambda >= 0

where A = J W is the contact rows' matrix through the joints, gap(t+h) the look-ahead separation and
slip the look-ahead tangential displacement along each edge: position-based, as theirs is, so no
contact ends a step interpenetrating. lambda is the sliding speed and E the contacts' edge incidence.
Curved contacts (spheres, capsules) move their normals within a step; §3.6's fixed-point iteration
re-fits the normals at the end of the step and solves again until the impulses settle.
"""
import numpy as np

from ..frames import Frames
from ..integrator import fly
from .detection import Contacts
from .impulse import KeyedImpulses
from .lcp_solver import lemke
from ..instant import Instant

FIXED_POINT_ITERATIONS = 8
RIDGE = 1e-7
SLIDING_RIDGE = 1e-12


def apply_lcp_impulses(model, instant: Instant, contacts: Contacts, frames: Frames, twist: np.ndarray, h: float,
                       impacting: np.ndarray, gap_target: np.ndarray, supports: dict, hold=None) -> np.ndarray:
    """Solves the step's complementarity problem and applies the impulses to the (n, 6) twist in
    place; returns z.

    Gaps and slips at the look-ahead are not linear in the impulses (bodies turn within the step,
    curved surfaces move their normals), so, as Stewart and Trinkle do for their mildly nonlinear
    problem, a sequence of LCPs is solved, each linearised at the impulses of the last, with the
    tangent planes of curved surfaces re-fitted at the look-ahead (§3.6), until the gaps hold to
    Dmax and the impulses settle. Stewart and Trinkle's impacts are inelastic; for the `impacting`
    contacts restitution asks instead for a separating normal rate of e times the approach.
    gap_target (m,): the least look-ahead gap each contact is held to (impulse.gap_targets).
    supports: {contact key: (2 + k,) bool, which of its c_n, beta and lambda were positive} of the
    last solve, each solve's guess at its own (lemke's `guess`); replaced by this step's.
    hold: the motors that hold their axes against the contacts (motor_hold.MotorHold), or None; a
    motor whose answer overdraws its budget is released and the problem solved again; the motors'
    answers are charged to their budgets (MotorHold.charge)."""
    start = twist.copy()
    while True:
        z, answer = _fixed_point(model, instant, contacts, frames, twist, h, impacting, gap_target, supports, hold)
        if hold is None:
            return z
        overdrawn = hold.overdrawn(answer)
        if not overdrawn.any():
            hold.charge(answer)
            return z
        twist[:] = start
        hold.release(overdrawn, answer, twist)
        start = twist.copy()


def _fixed_point(model, instant: Instant, contacts: Contacts, frames: Frames, twist: np.ndarray, h: float,
                 impacting: np.ndarray, gap_target: np.ndarray, supports: dict, hold) -> tuple:
    """apply_lcp_impulses's sequence of LCPs; returns z and the held motors' answer (q,) to the
    impulses applied."""
    start = twist.copy()
    previous = None
    current = contacts
    answer = np.zeros(0)
    for _ in range(FIXED_POINT_ITERATIONS):
        now = twist.copy()
        twist[:] = start
        contact_rows, impulses, z = _solve(model, instant, current, frames, start, now, h, impacting, gap_target,
                                           supports, hold)
        _kernels().apply_impulses(contact_rows, impulses, twist.reshape(-1))
        answer = np.einsum("mdq,md->q", contact_rows.held_impulse, impulses)
        ahead = fly(model, instant.arrays, frames, twist, h, instant.time)
        settled = previous is not None and np.abs(z - previous).max(initial=0.0) <= 1e-9 * (
            1.0 + np.abs(z).max(initial=0.0))
        if settled or ((current.separation(ahead) - gap_target).min(initial=0.0) >= -0.5 * model.settings.dmax
                       and current.refit(frames, ahead) is current):
            return z, answer
        previous = z
        current = current.refit(frames, ahead)
    return (previous if previous is not None else np.zeros(0)), answer


def _solve(model, instant: Instant, contacts: Contacts, frames: Frames, start: np.ndarray, now: np.ndarray, h: float,
           impacting: np.ndarray, gap_target: np.ndarray, supports: dict, hold):
    """The LCP linearised at the twist `now` (impulses applied so far), for impulses from `start`."""
    m, k = len(contacts), model.settings.friction_directions
    point, basis, local = contacts.frames_at(frames)
    normal, tangent, binormal = basis[:, 0], basis[:, 1], basis[:, 2]
    angles = 2 * np.pi * np.arange(k) / k
    edges = np.cos(angles)[None, :, None] * tangent[:, None] + np.sin(angles)[None, :, None] * binormal[:, None]
    directions = np.concatenate((normal[:, None], edges), axis=1)  # (m, 1 + k, 3)
    contact_rows = instant.rows_through_joints(contacts.body_a, contacts.body_b, point, directions, hold)
    kernels = _kernels()
    matrix = kernels.matrix(contact_rows)
    normal_rows = np.arange(m) * (1 + k)
    edge_rows = (normal_rows[:, None] + 1 + np.arange(k)).ravel()
    ahead = fly(model, instant.arrays, frames, now, h, instant.time)
    gap = contacts.separation(ahead) - gap_target  # overlapping contacts open gently (impulse.gap_targets)
    displacement = ahead.points(contacts.body_b, local[:, 1]) - ahead.points(contacts.body_a, local[:, 0])
    slip = np.einsum("mki,mi->mk", edges, displacement).ravel()
    incidence = np.kron(np.eye(m), np.ones((k, 1)))  # (m k, m): edge -> its contact
    size = m + m * k + m
    lcp = np.zeros((size, size))
    n_, b_, l_ = slice(0, m), slice(m, m + m * k), slice(m + m * k, size)
    lcp[n_, n_] = matrix[np.ix_(normal_rows, normal_rows)]
    lcp[n_, b_] = matrix[np.ix_(normal_rows, edge_rows)]
    lcp[b_, n_] = matrix[np.ix_(edge_rows, normal_rows)]
    lcp[b_, b_] = matrix[np.ix_(edge_rows, edge_rows)]
    # coplanar contacts (a box on its face) and opposite cone edges make the impulse block singular;
    # a vanishing compliance removes the degeneracy Lemke's algorithm would otherwise meet as a ray
    # (a resting body then creeps by about 1e-7 m a second)
    stiffest = max(float(np.abs(np.diag(lcp)[: m + m * k]).max()), 1e-300)  # the largest inverse mass of a row
    lcp[np.arange(m + m * k), np.arange(m + m * k)] += RIDGE * stiffest
    lcp[b_, l_] = incidence
    lcp[l_, n_] = np.diag(contacts.friction)
    lcp[l_, b_] = -incidence.T
    # the sliding-speed rows' own vanishing compliance, a mass: with it and the ridge the matrix is
    # strictly copositive, which Lemke's algorithm always solves (Cottle, Pang and Stone, §4.4), where
    # their zero block let it end on a secondary ray; a contact sliding at lambda m/s then takes
    # SLIDING_RIDGE / stiffest times lambda more friction impulse
    sliding = np.arange(m + m * k, size)
    lcp[sliding, sliding] = SLIDING_RIDGE / stiffest
    rate_start = kernels.rates(contact_rows, start.reshape(-1)).reshape(-1)
    rate_now = kernels.rates(contact_rows, now.reshape(-1)).reshape(-1)
    moved = rate_now - rate_start  # what the impulses of the last linearisation did to every row's rate
    approach = rate_start[normal_rows]
    # restitution only for pairs that close within this step and are not plastic
    bouncing = impacting & (contacts.restitution > 0) & (gap < 0)
    bounce = np.where(bouncing, (1.0 + contacts.restitution) * approach, np.inf)
    q = np.concatenate((np.minimum(gap / h - moved[normal_rows], bounce), slip / h - moved[edge_rows], np.zeros(m)))
    unknowns = _unknowns_of(m, k)
    z = lemke(lcp, q, guess=_guess(supports, contacts.key, unknowns))
    positive = z > 0
    supports.clear()
    supports.update((key, positive[unknowns[c]]) for c, key in enumerate(contacts.key))
    impulses = np.zeros((m, 1 + k))
    impulses[:, 0] = z[n_]
    impulses[:, 1:] = z[b_].reshape(m, k)
    return contact_rows, impulses, z


def impulses_by_key(contacts: Contacts, z: np.ndarray, k: int) -> KeyedImpulses:
    """The normal, tangent and binormal impulse of each contact from the LCP's z (_solve's order),
    its cone edges summed along the tangent and binormal of its frame (Contacts.frames_at)."""
    m = len(contacts)
    angles = 2 * np.pi * np.arange(k) / k
    beta = z[m:m + m * k].reshape(m, k)
    impulses = np.column_stack((z[:m], beta @ np.cos(angles), beta @ np.sin(angles)))
    return KeyedImpulses.of(contacts.key, impulses)


def _kernels():
    from ..kernels.contact import contact_rows  # the kernels load with the first simulation

    return contact_rows


def _unknowns_of(m: int, k: int) -> np.ndarray:
    """(m, 2 + k) where each contact's unknowns are in z, in _solve's order: its c_n, its k betas,
    its lambda."""
    contact = np.arange(m)[:, None]
    return np.hstack((contact, m + k * contact + np.arange(k), m * (1 + k) + contact))


def _guess(supports: dict, keys: list, unknowns: np.ndarray) -> np.ndarray | None:
    """The z expected positive, in _solve's order, from each contact's last support (its unknowns
    as _unknowns_of orders them); None when no contact has one."""
    known = [supports.get(key) for key in keys]
    if all(support is None for support in known):
        return None
    guess = np.zeros(unknowns.size, dtype=bool)
    for c, support in enumerate(known):
        if support is not None:
            guess[unknowns[c]] = support
    return guess
