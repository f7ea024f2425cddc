"""Schmitt §11: contact pairs as temporary rows of the correction loop, impact pairs by Poisson's law.

Each contact has three rows at its point: the normal n (pointing from body a to body b) and two
tangents. In the correction loop the normal row keeps the look-ahead separation from going below
zero with an accumulated impulse that only pushes (I_nsum), and the tangent rows cancel the contact
point's slip over the step, (p(t+h) - p(t)) / h as Schmitt writes it, with an impulse no larger than
mu I_nsum (the beta clamp: friction brakes the slip at most to rest, never reverses it). Rows act
through the joints (the Schur complement of K, as drives do), so a mechanism's whole structure
answers a contact.
"""
from typing import NamedTuple

import numpy as np

from ..codes import TOUCHING
from ..frames import Frames
from .detection import Contacts, joined
from ..instant import Instant

# Bodies that overlap (placed so, or pushed in) come apart at most this fast, and keep no speed from
# it: a box started 50 mm inside the floor must not be launched (it jumped 1.3 m).
SEPARATION_SPEED = 0.2  # m/s
# Rounds of impacts at one instant (kernels/contact/passes.impacts): an impact travels one touching pair
# further each round, so a row of up to this many touching bodies passes it on to its end.
IMPACT_ROUNDS = 64
# A sub-step more than this many times as long as the one before starts its contacts from no impulse:
# a short sub-step's impulses (one that reaches a step's end) are mostly its gaps closed over its
# length, which do not grow with the step as a load's do.
WARM_GROWTH = 2.0


class KeyedImpulses(NamedTuple):
    """Contacts' impulses by key: the normal, tangent and binormal impulse of the contact keyed `key`
    are values[row_of[key]]."""

    row_of: dict
    values: np.ndarray  # (m, 3)

    @classmethod
    def of(cls, keys: list, values: np.ndarray) -> "KeyedImpulses":
        """The (m, 3) values of the m contacts keyed `keys`, in order."""
        return cls(dict(zip(keys, range(len(keys)))), values)

    def rows(self, keys: list) -> np.ndarray:
        """(m,) the row of values of each of these keys, -1 for a key that has none."""
        row_of = self.row_of
        return np.array([row_of.get(key, -1) for key in keys], dtype=np.int64)

    def for_keys(self, keys: list) -> np.ndarray:
        """(m, 3) the impulses of each of these keys, none for a key that has none."""
        rows = self.rows(keys)
        found = rows >= 0
        impulses = np.zeros((len(keys), 3))
        impulses[found] = self.values[rows[found]]
        return impulses


NO_IMPULSES = KeyedImpulses({}, np.zeros((0, 3)))


def overlapping(gap: np.ndarray, dmax: float) -> np.ndarray:
    """(m,) contacts deeper than a resting contact ever is: bodies placed overlapping, or pushed in."""
    return gap < -(TOUCHING + 2 * dmax)


def gap_targets(gap: np.ndarray, overlapping: np.ndarray, h: float) -> np.ndarray:
    """(m,) the least look-ahead gap each contact is held to over a step of h: 0, or for an overlapping
    one its gap now opened by at most SEPARATION_SPEED h."""
    return np.where(overlapping, np.minimum(gap + SEPARATION_SPEED * h, 0.0), 0.0)


class ContactRows:
    """The rows of m contacts at the instant's frames now, solved alongside the joints."""

    def __init__(self, model, instant: Instant, contacts: Contacts, pushed_out: frozenset | set = frozenset(),
                 hold=None):
        """pushed_out: keys of contacts the step's loop was pushing apart (their normal rate is held at
        zero in the velocity correction even once they no longer overlap). hold: the motors that hold
        their axes against these contacts (motor_hold.MotorHold), or None."""
        self.contacts = contacts
        # (m, 3, 3) rows n, t1, t2; (m, 2, 3) the contact point as a material point of a and b; (m, 3, 3)
        # each contact's own K; (m,) its separation now
        self.rows, self.directions, self.local, self.block, self.gap_now = instant.contact_rows(contacts, hold)
        m = len(contacts)
        from ..kernels.contact import contact_rows, passes, velocity_correction  # loaded with the first simulation

        self._kernels, self._rows_kernels, self._velocity = passes, contact_rows, velocity_correction
        self.accumulated = np.zeros((m, 3))  # normal, tangent, binormal impulses this step
        self.passes = 0
        self.settled = True  # whether the correction loop's passes settled these contacts (contact_loop kernels)
        # overlapping contacts (deeper than a resting one ever is) are pushed out gently: the loop
        # asks the look-ahead gap to close by at most SEPARATION_SPEED h, and the velocity
        # correction holds their normal rate at zero (two-sided), so no speed is left from it
        self.overlapping = overlapping(self.gap_now, model.settings.dmax)  # (m,)
        pushing = self.overlapping
        if pushed_out:
            pushing = pushing | np.array([key in pushed_out for key in contacts.key], dtype=bool)
        self.normal_floor = np.where(pushing, -np.inf, 0.0)  # (m,) least normal impulse of P-step 4

    def with_more(self, model, instant: Instant, more: Contacts) -> "ContactRows":
        """These rows and those of `more` (at the same instant): these keep the impulses they have
        taken this step (the twist holds them already), the new ones start from none."""
        extended = ContactRows(model, instant, joined(self.contacts, more))
        extended.accumulated[:len(self.contacts)] = self.accumulated
        extended.passes = self.passes
        return extended

    def warm_start(self, previous: KeyedImpulses, twist: np.ndarray, scale: float) -> None:
        """Starts each contact from the impulses it took in the same pass of the last sub-step (by key,
        times `scale`, the ratio of the sub-steps' lengths) and applies them: a resting stack's are
        nearly this step's, so the passes only correct them (Box2D's warm starting) instead of building
        the stack's support from nothing every step. A sub-step more than WARM_GROWTH times as long
        as the last starts from none (kernels/contact/held_contacts.py finds a resting stack's support then)."""
        if scale > WARM_GROWTH:
            return
        rows = previous.rows(self.contacts.key)
        found = rows >= 0
        if found.any():
            self.accumulated[found] = scale * previous.values[rows[found]]
        if self.accumulated.any():
            self._rows_kernels.apply_impulses(self.rows, self.accumulated, twist)

    def impulses(self) -> KeyedImpulses:
        """This step's impulses by key, for the next one's warm start."""
        return KeyedImpulses.of(self.contacts.key, self.accumulated.copy())

    def overlapping_keys(self) -> set:
        return {key for key, overlapping in zip(self.contacts.key, self.overlapping) if overlapping}

    def motor_answer(self) -> np.ndarray:
        """(q,) the held motors' impulses that answer this step's contact impulses."""
        return np.einsum("mdq,md->q", self.rows.held_impulse, self.accumulated)

    def take_back(self, twist: np.ndarray) -> None:
        """Takes this step's impulses out of the (6 n,) twist again; they are kept for a warm start."""
        self._rows_kernels.apply_impulses(self.rows, -self.accumulated, twist)

    def rates(self, twist: np.ndarray) -> np.ndarray:
        return self._rows_kernels.rates(self.rows, twist)

    def loop_arrays(self, h: float) -> tuple:
        """What kernels/contact/contact_loop.correct_positions takes of these contacts over a step of h, in its
        order: from body to friction."""
        c = self.contacts
        return (np.column_stack((c.body_a, c.body_b)), c.probe_b, c.radius, c.surface_a, c.normal_a,
                self.local, self.directions,
                gap_targets(self.gap_now, self.overlapping, h), self.rows, self.block,
                self.accumulated, c.friction)

    def impacts(self, twist: np.ndarray, impact_speed: float, passes: int, tolerance: float) -> int:
        """The contacts approaching faster than impact_speed as impact pairs, in rounds of compression
        and Poisson's reflex, each round's passes until none changes a rate by `tolerance`
        (kernels/contact/passes.impacts); returns the rounds that found an impact."""
        return self._kernels.impacts(self.rows, self.block, self.contacts.friction,
                                     self.contacts.restitution, twist, impact_speed, IMPACT_ROUNDS, passes, tolerance)

    def solve_velocities(self, twist: np.ndarray, limit: int, vmax: float, settle_wait: int,
                         carried: KeyedImpulses) -> int:
        """P-step 4 for the contacts (kernels/contact/velocity_correction.py): passes until none changes a
        rate by vmax, at most `limit`, each contact's friction within its cone together with the
        impulses it took in the step's loop, `carried` (ContactRows.impulses), with the
        direct step for the contacts that press and stick tried after `settle_wait` passes. Returns the
        passes the next call waits before its direct step."""
        earlier = carried.for_keys(self.contacts.key)
        self.passes, wait = self._velocity.velocity_correction(
            self.rows, self.block, self.accumulated, self.contacts.friction, self.normal_floor, earlier, twist,
            self.passes, limit, settle_wait, vmax)
        return wait


def resting_speed(model, h: float) -> float:
    """A pair that closes no faster than this is coming to rest: a contact pair for the loop and the
    velocity correction, not an impact (no reflex, no rattling). Two steps of gravity; without
    gravity, a closing of Dmax over the step, which the correction loop cannot tell from rest."""
    return max(2.0 * float(np.linalg.norm(model.gravity)) * h, model.settings.dmax / h)


def resolve_impacts(model, instant: Instant, contacts: Contacts, frames: Frames, twist: np.ndarray,
                    candidates: np.ndarray, h: float) -> None:
    """Schmitt §11 impact pairs among the `candidates` (m,) bool of these contacts: those closing
    faster than resting_speed(h) are compressed together and reflected by Poisson's law, in rounds
    (kernels/contact/passes.impacts). frames: the instant's now."""
    speed = resting_speed(model, h)
    if not candidates.any() or not (normal_rates(contacts, frames, twist)[candidates] < -speed).any():
        return
    ContactRows(model, instant, contacts.subset(candidates)).impacts(
        twist, speed, model.settings.max_corrections, model.settings.vmax)


def normal_rates(contacts: Contacts, frames: Frames, twist: np.ndarray) -> np.ndarray:
    """(m,) how fast each contact opens now (negative: closing) for the (n, 6) twist
    (kernels/contact/contact_rows.normal_rates)."""
    from ..kernels.contact.contact_rows import normal_rates as rates  # the kernels load with the first simulation

    return rates(frames.position, frames.rotation, contacts.body_a, contacts.body_b, contacts.probe_b,
                 contacts.radius, contacts.normal_a, twist.reshape(-1, 6))
