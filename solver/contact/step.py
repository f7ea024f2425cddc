"""The sub-step with contacts, its stages in order (Schmitt §11; Stewart and Trinkle for the LCP):

    1. impacts of touching pairs that close fast (`_touching_impacts`)
    2. half the explicit forces
    3. the contacts ahead: broad and narrow phase now and at the look-ahead, sleeping islands they
       near woken, the first impact of a pair that bounces as a shorter step (`_contacts_ahead`)
    4. P-steps 1-2: the joints and drives with the contact rows (`_correct_positions`), or the LCP
       and the joints in turns (`_lcp_with_joints`)
    5. P-step 3 and the other half of the forces (kernels/correction.advance)
    6. impacts at the end; the contacts touching now (`_impacts`)
    7. P-step 4: the joints' and drives' velocities, then the touching contacts with the motors
       held and friction within the step's cone (`_velocity_contacts`)
    8. the impulses kept to warm-start the next sub-step

A sub-step in which nothing comes near is the jointed one, one kernel call. ContactStep owns what
lives from one sub-step to the next and only contact uses; the stepping (simulation.py) owns the
halving loop, and both share the state's Instant.
"""
import numpy as np

from .. import drives
from ..codes import CONTACTS_UNSETTLED, FIRST_PASSES, GAP, LCP_GAVE_UP, MESH, NON_FINITE, PLANE, STIFF_SPRING
from ..failure import Failure, kernel_failure, non_finite
from ..frames import Frames
from ..instant import Instant
from ..integrator import fly
from ..sleeping import Sleep
from .detection import Contacts, compiled_shapes, find_contacts
from .impulse import (NO_IMPULSES, SEPARATION_SPEED, TOUCHING, ContactRows, KeyedImpulses, gap_targets, normal_rates,
                      overlapping, resolve_impacts, resting_speed)
from .stewart_trinkle import apply_lcp_impulses, impulses_by_key
from .lcp_solver import LemkeFailure
from .motor_hold import MotorHold, holding_motors
from .reduction import four_per_face

LCP_ROUNDS = 6  # turns of the contact LCP and the joint correction within one step
# A resting contact's impulses converge to this fraction of Dmax per step: its errors would add up, step
# after step, into a creep of the stack. A contact of a body that moves by more than Dmax in the step
# converges to Dmax, as a joint does: its error does not add up where the body stands still.
CONTACT_TIGHTNESS = 1e-3
# rounds in which the manifolds at the corrected look-ahead may add points the loop then holds too
REDETECTIONS = 2
UNCOVERED_DEPTH = 0.1  # a point this deep (times Dmax) at the look-ahead is held too: the step may not end deeper


class ContactStep:
    def __init__(self, model, instant: Instant, sleep: Sleep, stats: dict):
        """stats: the Simulation's, which the contact step's counts go into."""
        from ..kernels import correction, drives as drive_kernels, jit  # the kernels load with the first simulation
        from ..kernels.contact import contact_loop, held_motors

        self._kernels, self._drive_kernels = correction, drive_kernels
        self._contact_loop, self._held_motors = contact_loop, held_motors
        self.model, self.instant, self.sleep, self.stats = model, instant, sleep, stats
        self._has_motors = bool(holding_motors(instant.arrays).any())
        self._loop_drives = bool(np.any(~np.isin(instant.arrays.drive_kind, drives.EXPLICIT_KINDS)))
        self._lcp_gap_now, self._lcp_overlapping = np.zeros(0), np.zeros(0, dtype=bool)  # the LCP's contacts now
        # which of each contact's LCP unknowns were positive last (stewart_trinkle.apply_lcp_impulses)
        self._lcp_supports: dict = {}
        # each contact's LCP impulses this step (stewart_trinkle.impulses_by_key)
        self._lcp_impulses = NO_IMPULSES
        # each contact's impulses in the last sub-step's position loop and velocity correction, and
        # that sub-step's length: where this sub-step's passes start (ContactRows.warm_start)
        self._warm_position = NO_IMPULSES
        self._warm_velocity = NO_IMPULSES
        self._warm_h = model.settings.h
        self._settle_wait = 1  # passes before the contact loop's first direct step (contact_loop.correct_positions)
        self._velocity_settle_wait = FIRST_PASSES  # the same in the velocity correction (ContactRows.solve_velocities)
        self._found_at: tuple | None = None  # (position, rotation, contacts, their gaps) of the last _contacts_at
        # (position, twist) where the last sub-step's P-step 4 left its touching contacts, none closing
        self._settled_at: tuple | None = None
        # (m,) bodies a and b of the contacts touching at the end of the last sub-step (sleeping.py's islands)
        self.touching_bodies = (np.zeros(0, dtype=int), np.zeros(0, dtype=int))
        self._moving = np.zeros(len(model.body_names), dtype=bool)  # (n,) bodies that move this sub-step
        self._shapes = compiled_shapes(model.contacts, jit.cache_complete())  # the narrow phase's kinds of shape

    def start(self) -> list[str]:
        """What touches at the start is resting, not an impact (state.touching); returns one warning per
        pair of shapes that start overlapping."""
        state = self.instant.state
        contacts = find_contacts(self.model, state.frames, state.frames, shapes=self._shapes)
        gap = contacts.separation(state.frames)
        state.touching = frozenset(contacts.subset(gap < TOUCHING).key)
        return _overlap_warnings(self.model, contacts, gap)

    # --- sleeping ----------------------------------------------------------------------------

    def fall_asleep(self, h: float, start: Frames) -> None:
        """Islands that have rested long enough since the step of h began at `start` fall asleep."""
        state = self.instant.state
        if len(self.sleep.note_step(h, start, state.frames, state.twist, *self.touching_bodies)):
            self._after_sleep_change()
        self.stats["asleep"] = int(self.sleep.asleep.sum())

    def _wake(self, bodies: np.ndarray) -> None:
        """Wakes sleeping bodies, at rest where they are (gravity acts in the flight, which is taken again)."""
        self.sleep.wake(bodies)
        self._after_sleep_change()
        self.instant.ensure_rows()
        self.stats["wakes"] += 1

    def _after_sleep_change(self) -> None:
        """The rows, the look-ahead and the contacts found hold for the old sleepers only."""
        self.instant.invalidate()
        self._found_at = self._settled_at = None

    # --- the sub-step ------------------------------------------------------------------------

    def substep(self, h: float, shortened: bool, lcp: bool) -> Failure | float | None:
        """One sub-step of h with contacts, its stages in order: None when it stood, a shorter step to
        take instead when a pair that bounces collides within this one, else why it failed. shortened:
        this is such a shorter step; lcp: the contacts by Stewart and Trinkle's LCP."""
        k, instant = self._kernels, self.instant
        state, arrays = instant.state, instant.state_arrays()
        driven = instant.driven is not None  # a model without drives compiles none of their kernels
        if driven:
            spring, load = self._drive_kernels.unstable_explicit_spring(instant.arrays, instant.rows, state.time, h)
            if spring >= 0:
                return Failure(STIFF_SPRING, spring, h / np.sqrt(load))
        self._touching_impacts(h)
        # (n,) bodies that move by more than Dmax over the step, before the forces (CONTACT_TIGHTNESS)
        self._moving = self.sleep.speeds(state.twist) * h > self.model.settings.dmax
        instant.work.accumulated[:] = 0.0  # the drives' impulses this step, the held motors' answers to the LCP's too
        if driven:
            k.apply_explicit_forces(instant.arrays, instant.rows, state.twist, state.axis_coordinate, state.time,
                                    0.5 * h)
        contact_rows, lcp_contacts, impact = self._contacts_ahead(h, shortened, lcp)
        if impact is not None:
            return impact
        if contact_rows is None and lcp_contacts is None and not state.touching:
            # nothing within reach now or at the look-ahead, so nothing touches at the end either
            self.touching_bodies = (np.zeros(0, dtype=int), np.zeros(0, dtype=int))
            return self._jointed_substep(h)
        self.stats["contact_substeps"] += 1
        converged, joint, gap, contact_rows = self._correct_positions(arrays, h, contact_rows)
        if not converged:
            return Failure(GAP, joint, gap)
        if contact_rows is not None and not contact_rows.settled:
            return self._unsettled(contact_rows, h)
        if lcp_contacts is not None and len(self.model.joint_names):
            failure = self._lcp_with_joints(arrays, lcp_contacts, h)
            if failure is not None:
                return failure
        instant.fly(h)
        finite = k.advance(instant.arrays, instant.settings, arrays, instant.rows, instant.flight, instant.work, h,
                           instant.driven, instant.jointed)
        state.time = float(arrays.time[0])
        instant.flight_valid = False
        if not finite:
            return non_finite(state)
        position_impulses, velocity_impulses = None, None
        carried = NO_IMPULSES  # each contact's impulses in the step so far
        if contact_rows is not None:
            position_impulses = carried = contact_rows.impulses()
            pushed_out = contact_rows.overlapping_keys()
        elif lcp_contacts is not None:
            carried = self._lcp_impulses
            pushed_out = {key for key, deep in zip(lcp_contacts.key, self._lcp_overlapping) if deep}
        else:
            pushed_out = set()
        touching = self._impacts(h)
        if self.model.settings.velocity_correction:
            if instant.jointed is not None:  # without joints there is nothing for it to correct
                k.correct_velocities(instant.arrays, instant.settings, arrays, instant.rows, instant.work, h,
                                     instant.counters, instant.driven, instant.jointed)
            if len(touching):
                velocity_impulses = self._velocity_contacts(touching, pushed_out, carried, h).impulses()
        if not k.is_finite(arrays):
            return non_finite(state)
        settled = self.model.settings.velocity_correction
        self._settled_at = (state.frames.position.copy(), state.twist.copy()) if settled else None
        # the next sub-step's passes start from this one's impulses, never from a failed one's
        if position_impulses is not None:
            self._warm_position = position_impulses
        if velocity_impulses is not None:
            self._warm_velocity = velocity_impulses
        self._warm_h = h
        return None

    def _jointed_substep(self, h: float) -> Failure | None:
        """A sub-step without contacts, after the first half of the explicit forces: one kernel call."""
        instant = self.instant
        arrays = instant.state_arrays()
        status, index, size = self._kernels.substep(instant.arrays, instant.settings, arrays, instant.rows,
                                                    instant.flight, instant.work, h, instant.counters, instant.driven,
                                                    instant.jointed, False)
        instant.state.time = float(arrays.time[0])
        if status == NON_FINITE:
            return non_finite(instant.state)
        return kernel_failure(status, index, size, h)

    # --- stage 1 and 6: impacts --------------------------------------------------------------

    def _touching_impacts(self, h: float) -> None:
        """Schmitt §11 impact pairs at the start of the step among the pairs touching now: the step's
        loop (or LCP) would stop a touching pair that closes fast plastically, whatever its
        restitution. Such a pair is one an impact passes along (a Newton's cradle) or one that
        starts closing."""
        state = self.instant.state
        settled = self._settled_at
        if not state.touching or (settled is not None and np.array_equal(settled[0], state.frames.position)
                                  and np.array_equal(settled[1], state.twist)):
            return  # nothing touches, or P-step 4 left no touching pair closing at these frames and speeds
        contacts, touching = self._touching()
        resolve_impacts(self.model, self.instant, contacts, state.frames, state.twist.reshape(-1), touching, h)

    def _impacts(self, h: float) -> Contacts:
        """Schmitt §11 impact pairs at the end of the step; the contacts touching now."""
        state = self.instant.state
        contacts, touching = self._touching()
        resolve_impacts(self.model, self.instant, contacts, state.frames, state.twist.reshape(-1), touching, h)
        touching = contacts.subset(touching)
        state.touching = frozenset(touching.key)
        self.touching_bodies = (touching.body_a, touching.body_b)
        return touching

    def _touching(self):
        """The contacts found now and which of them touch (m,) bool."""
        state = self.instant.state
        contacts, gap = self._contacts_at(state.frames)
        return contacts, gap < TOUCHING + 2 * self.model.settings.dmax

    def _contacts_at(self, frames: Frames) -> tuple[Contacts, np.ndarray]:
        """The contacts at one instant (find_contacts) and their (m,) separations there. The corrected
        look-ahead that _uncovered looks at is where the step ends, which _impacts looks at again: the
        second time they are not found anew."""
        found = self._found_at
        if found is not None and np.array_equal(found[0], frames.position) and np.array_equal(found[1],
                                                                                              frames.rotation):
            return found[2], found[3]
        contacts = find_contacts(self.model, frames, frames, self.sleep.active, self._shapes)
        gap = contacts.separation(frames)
        self._found_at = (frames.position.copy(), frames.rotation.copy(), contacts, gap)
        return contacts, gap

    # --- stage 3: the contacts ahead ---------------------------------------------------------

    def _contacts_ahead(self, h: float, shortened: bool, lcp: bool):
        """Contacts within reach this step: (contact rows for the loop, contacts the LCP took, a shorter
        step to take first when a pair that bounces would collide within this one). A moving body
        that comes within reach of a sleeping island wakes it first."""
        model, instant = self.model, self.instant
        state = instant.state
        while True:  # a moving body that nears a sleeping island wakes it whole, to take part in this step
            ahead = fly(model, instant.arrays, state.frames, state.twist, h, state.time)
            contacts = find_contacts(model, state.frames, ahead, self.sleep.active, self._shapes)
            woken = self.sleep.woken_by(contacts.body_a, contacts.body_b)
            if not len(woken):
                break
            self._wake(woken)
        if not len(contacts):
            return None, None, None
        if lcp:  # Stewart-Trinkle
            # a pair that bounces is stepped to as the impulse method does: the LCP's restitution acts at
            # the start of its step, where the bodies are still apart, and the rebound would start there
            bouncing = contacts.subset(contacts.restitution > 0)
            impact = None if shortened or not len(bouncing) else _first_impact(
                bouncing, normal_rates(bouncing, state.frames, state.twist), state, h, ahead)
            if impact is not None:
                return None, None, impact
            lcp_contacts = self._lcp_stage(contacts, h, shortened)
            if lcp_contacts is not None:
                return None, lcp_contacts, None
            # Lemke ended on a ray: this step's contacts go the impulse way
            return ContactRows(model, instant, contacts), None, None
        contact_rows = ContactRows(model, instant, contacts)
        bounces = contacts.restitution > 0
        impact = None if shortened or not bounces.any() else _first_impact(
            contacts.subset(bounces), contact_rows.rates(state.twist.reshape(-1))[bounces, 0], state, h, ahead)
        return contact_rows, None, impact

    # --- stage 4: P-steps 1-2 ----------------------------------------------------------------

    def _correct_positions(self, arrays, h: float, contact_rows):
        """P-steps 1 and 2 with the drives and, when there are any, Schmitt §11's contact pairs:
        (the joints converged, worst joint, its gap, the contact rows held in the end, whose `settled`
        says whether the contacts converged too)."""
        k, instant = self._kernels, self.instant
        a, s, work = instant.arrays, instant.settings, instant.work
        if contact_rows is None:
            converged, joint, gap = k.correct_positions(a, s, arrays, instant.rows, instant.flight, work, h,
                                                        instant.counters, instant.driven, instant.jointed, False)
            instant.flight_valid = bool(converged)
            return converged, joint, gap, None
        contact_rows.warm_start(self._warm_position, instant.state.twist.reshape(-1), h / self._warm_h)
        for _ in range(REDETECTIONS + 1):
            converged, contact_rows.settled, joint, gap, contact_rows.passes, flight_valid, self._settle_wait = (
                self._contact_loop.correct_positions(a, s, arrays, instant.rows, instant.flight, work, h,
                                                     instant.counters, self._loop_drives, instant.driven,
                                                     instant.jointed,
                                                     *contact_rows.loop_arrays(h), self._tightness(contact_rows),
                                                     contact_rows.passes, self._settle_wait))
            instant.flight_valid = bool(flight_valid)
            if not (converged and contact_rows.settled):
                break
            instant.fly(h)  # where the step ends: the last pass moved the bodies by less than Dmax
            more = self._uncovered(contact_rows)
            if not len(more):
                break
            contact_rows = contact_rows.with_more(self.model, instant, more)
        if not contact_rows.settled:  # the passes could not do it alone: the next try starts with the direct step
            self._settle_wait = 1
        self.stats["contact_passes"] += contact_rows.passes
        return bool(converged), int(joint), float(gap), contact_rows

    def _tightness(self, contact_rows: ContactRows) -> np.ndarray:
        """(m,) the fraction of Dmax each contact's impulses converge to: CONTACT_TIGHTNESS where both its
        bodies rest, 1 where one moves."""
        contacts = contact_rows.contacts
        return np.where(self._moving[contacts.body_a] | self._moving[contacts.body_b], 1.0, CONTACT_TIGHTNESS)

    def _uncovered(self, contact_rows: ContactRows) -> Contacts:
        """The points of the manifolds at the corrected look-ahead whose features the rows do not hold
        and that lie deeper than UNCOVERED_DEPTH Dmax."""
        flight = self.instant.flight
        ahead = Frames(flight.position, flight.rotation)
        later, gap = self._contacts_at(ahead)
        held = set(contact_rows.contacts.key)
        return later.subset((gap < -UNCOVERED_DEPTH * self.model.settings.dmax)
                            & np.array([key not in held for key in later.key], dtype=bool))

    def _unsettled(self, contact_rows: ContactRows, h: float) -> Failure:
        """The failure of a sub-step whose contacts did not settle, naming a body of the contact that
        lies deepest below its target at the look-ahead."""
        self.instant.fly(h)
        flight = self.instant.flight
        contacts = contact_rows.contacts
        below = contacts.separation(Frames(flight.position, flight.rotation)) - gap_targets(
            contact_rows.gap_now, contact_rows.overlapping, h)
        worst = int(np.argmin(below))
        body = contacts.body_b[worst] if self.model.body_dynamic[contacts.body_b[worst]] else contacts.body_a[worst]
        return Failure(CONTACTS_UNSETTLED, int(body), float(max(-below[worst], 0.0)))

    def _lcp_stage(self, contacts: Contacts, h: float, shortened: bool) -> Contacts | None:
        """Stewart and Trinkle's LCP for this step's contacts, after the joints' and drives' correction
        when motors hold against them; None (and the LCP's impulses taken back) when Lemke's algorithm
        ends on a ray for every covering vector it tries. A step shortened to an
        impact ends where its pairs touch: they bounce there (_impacts), not in the LCP."""
        model, state = self.model, self.instant.state
        contacts = four_per_face(contacts, state.frames)
        gap_now = contacts.separation(state.frames)
        approach = normal_rates(contacts, state.frames, state.twist)
        impacting = (gap_now > TOUCHING) | np.array([key not in state.touching for key in contacts.key])
        impacting &= (approach < -resting_speed(model, h)) & (not shortened)
        if self._has_motors:
            # the joints and drives first, as in P-step 4, so that the motors hold the axes they have
            # brought to their goals and those at their limits push on; the correction after the LCP
            # says whether the joints converged
            self._correct_positions(self.instant.state_arrays(), h, None)
        before = state.twist.copy()
        self._lcp_gap_now, self._lcp_overlapping = gap_now, overlapping(gap_now, model.settings.dmax)
        try:
            z = apply_lcp_impulses(model, self.instant, contacts, state.frames, state.twist, h, impacting,
                                   gap_targets(gap_now, self._lcp_overlapping, h), self._lcp_supports,
                                   self._motor_hold(self.instant.work.accumulated, h, before_flight=True))
        except LemkeFailure:
            state.twist[:] = before
            self.stats["lcp_fallbacks"] += 1
            return None
        self._lcp_impulses = impulses_by_key(contacts, z, model.settings.friction_directions)
        return contacts

    def _lcp_with_joints(self, arrays, contacts: Contacts, h: float) -> Failure | None:
        """The joints' correction may push a contact back in: the LCP and the joints take turns."""
        model, instant = self.model, self.instant
        state = instant.state
        for _ in range(LCP_ROUNDS):
            instant.fly(h)
            target = gap_targets(self._lcp_gap_now, self._lcp_overlapping, h)
            ahead = Frames(instant.flight.position, instant.flight.rotation)
            if (contacts.separation(ahead) - target).min() >= -0.5 * model.settings.dmax:
                instant.flight_valid = True
                return None
            try:
                z = apply_lcp_impulses(model, instant, contacts, state.frames, state.twist, h,
                                       np.zeros(len(contacts), dtype=bool), target, self._lcp_supports,
                                       self._motor_hold(instant.work.accumulated, h, before_flight=True))
            except LemkeFailure:  # with the joints' impulses in, Lemke ended on a ray
                return Failure(LCP_GAVE_UP, -1, 0.0)
            more = impulses_by_key(contacts, z, model.settings.friction_directions)
            self._lcp_impulses = KeyedImpulses.of(contacts.key, self._lcp_impulses.for_keys(contacts.key) + more.values)
            converged, joint, gap, _ = self._correct_positions(arrays, h, None)
            if not converged:
                return Failure(GAP, joint, gap)
        return None

    # --- stage 7: P-step 4 -------------------------------------------------------------------

    def _motor_hold(self, spent_by_drive: np.ndarray, h: float, before_flight: bool = False) -> MotorHold | None:
        """The motors that hold their axes against contacts now, each drive having spent (D,) so far
        this step, in the position stage (before_flight) or P-step 4; None without motors."""
        if not self._has_motors:
            return None
        self.instant.ensure_rows()
        return MotorHold(self.instant.arrays, self.instant.rows, spent_by_drive, h, self._held_motors, before_flight)

    def _velocity_contacts(self, touching: Contacts, pushed_out: set, carried: KeyedImpulses,
                           h: float) -> ContactRows:
        """P-step 4 for the touching contacts, after the joints' and drives': the motors hold their axes
        within their budgets (contact/motor_hold.py), and each contact's friction stays within its cone
        with what it took in the step's loop (`carried`, ContactRows.impulses)."""
        model, instant = self.model, self.instant
        settings, twist = model.settings, instant.state.twist.reshape(-1)
        hold = self._motor_hold(instant.work.velocity_accumulated, h)
        contact_rows = ContactRows(model, instant, touching, pushed_out, hold)
        contact_rows.warm_start(self._warm_velocity, twist, h / self._warm_h)
        while True:
            self._velocity_settle_wait = contact_rows.solve_velocities(twist, settings.max_corrections, settings.vmax,
                                                                       self._velocity_settle_wait, carried)
            self.stats["contact_velocity_passes"] += contact_rows.passes
            if hold is None:
                return contact_rows
            answer = contact_rows.motor_answer()
            overdrawn = hold.overdrawn(answer)
            if not overdrawn.any():
                hold.charge(answer)
                return contact_rows
            contact_rows.take_back(twist)
            hold.release(overdrawn, answer, twist.reshape(-1, 6))
            impulses = contact_rows.impulses()
            contact_rows = ContactRows(model, instant, touching, pushed_out, hold)
            contact_rows.warm_start(impulses, twist, 1.0)


def _overlap_warnings(model, contacts: Contacts, gap: np.ndarray) -> list[str]:
    """One warning per pair of shapes that overlap at the start, naming both and the depth."""
    deepest: dict[tuple[str, str], float] = {}
    for key, body_a, body_b, depth in zip(contacts.key, contacts.body_a, contacts.body_b, -gap):
        kind, index = key[0], key[1]
        if kind == PLANE:
            other = f"obstacle '{model.contacts.planes[index]['name']}'"
        elif kind == MESH:
            other = f"obstacle '{model.contacts.meshes[index][0]['name']}'"
        else:
            other = f"body '{model.body_names[body_a]}'"
        pair = (f"body '{model.body_names[body_b]}'", other)
        deepest[pair] = max(deepest.get(pair, 0.0), float(depth))
    return [f"{body} starts {1000 * depth:.3g} mm inside {other}; they are pushed apart at up to "
            f"{SEPARATION_SPEED} m/s" for (body, other), depth in deepest.items()
            if depth > TOUCHING + 2 * model.settings.dmax]


def _first_impact(contacts: Contacts, rate: np.ndarray, state, h: float, ahead: Frames) -> float | None:
    """The time within h at which the first pair that is apart now would touch, from a quadratic
    through its gap now, its normal rate now (m,) and its gap at the look-ahead (exact in free
    fall); None if no pair closes within the step."""
    gap_now = contacts.separation(state.frames)
    gap_ahead = contacts.separation(ahead)
    closing = (gap_now > TOUCHING) & (gap_ahead < 0)
    if not closing.any():
        return None
    first = h
    for k in np.flatnonzero(closing):
        curvature = 2.0 * (gap_ahead[k] - gap_now[k] - rate[k] * h) / (h * h)
        first = min(first, _first_root(gap_now[k], rate[k], curvature, h))
    return first if 1e-9 * h < first < h * (1 - 1e-9) else None


def _first_root(gap: float, rate: float, curvature: float, h: float) -> float:
    """Smallest tau in (0, h] with gap + rate tau + curvature tau^2 / 2 = 0."""
    if abs(curvature) < 1e-12:
        return gap / -rate if rate < 0 else h
    disc = rate * rate - 2.0 * curvature * gap
    if disc < 0:
        return h
    roots = [(-rate - np.sqrt(disc)) / curvature, (-rate + np.sqrt(disc)) / curvature]
    return min([r for r in roots if 0 < r <= h], default=h)
