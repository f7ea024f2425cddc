"""Simulation: a Model, a State, and the step that reads as its stages.

    apply_explicit_forces(h/2) -> PositionCorrection (P-steps 1-2, drives) -> ballistic advance (P-step 3)
    -> apply_explicit_forces(h/2) -> correct_velocities (P-step 4)

A step that does not converge is undone from a saved state and retried with half the step (Schmitt
§5); after a run of good sub-steps the step grows back.
"""
import numpy as np

from . import drives
from .corrections import PositionCorrection, apply_explicit_forces, correct_velocities, joint_gaps
from .errors import ModelError, SimulationDiverged
from .frames import Frames
from .integrator import fly
from .model import Model, Settings
from .rotation import orthonormalize
from .contact.detection import find_contacts
from .contact.impulse import TOUCHING, ContactRows, normal_rates, resolve_impacts
from .contact.lcp import apply_lcp_impulses
from .contact.lemke import LemkeFailure
from .rows import Rows, joint_errors
from .state import State, unwrap

LCP_ROUNDS = 6  # turns of the contact LCP and the joint correction within one step
MAX_HALVINGS = 16  # the step may shrink to h / 2^16 before the run is declared diverged
GROW_AFTER = 4  # good sub-steps in a row before a halved step doubles again


class Simulation:
    def __init__(self, model: Model, **setting_overrides):
        if setting_overrides:
            model = Model(model.spec, Settings.read(model.settings.to_dict(), setting_overrides))
        self.model = model
        self.h = model.settings.h
        self.state = State.initial(model)
        self.stats = {"steps": 0, "substeps": 0, "corrections": 0, "solves": 0, "velocity_solves": 0,
                      "halvings": 0, "lcp_fallbacks": 0}
        self._substep = self.h
        self._good_in_a_row = 0
        self._rows: Rows | None = None
        if model.contacts.enabled:  # what touches at the start is resting, not an impact
            contacts = find_contacts(model, self.state.frames, self.state.frames)
            self.state.touching = frozenset(contacts.subset(contacts.separation(self.state.frames) < TOUCHING).key)

    # --- stepping --------------------------------------------------------------------------

    @property
    def time(self) -> float:
        return self.state.time

    @property
    def substep(self) -> float:
        """The internal step now: h, or h halved while the corrections struggle (Schmitt §5)."""
        return self._substep

    def step(self) -> None:
        """Advance the mechanism by one step h."""
        if self.model.settings.extrapolation == "richardson":
            self._richardson_step()
        else:
            self._advance(self.h)
        self.stats["steps"] += 1

    def run(self, duration: float, callback=None) -> None:
        """Advance by `duration` (rounded to whole steps). callback(sim) runs after every step; if it
        returns False the run stops there."""
        for _ in range(int(round(duration / self.h))):
            self.step()
            if callback is not None and callback(self) is False:
                return

    def _advance(self, duration: float) -> None:
        end = self.state.time + duration
        remaining = duration
        while remaining > 1e-9 * duration:
            h = min(self._substep, remaining)
            saved, saved_rows = self.state.copy(), self._rows
            failure = self._try_substep(h)
            if isinstance(failure, float):  # a collision ahead: step exactly to it (Schmitt §11)
                h = failure
                self.state, self._rows = saved.copy(), saved_rows
                failure = self._try_substep(h, shortened=True)
            if failure is None:
                remaining -= h
                self._good_in_a_row += 1
                if self._good_in_a_row >= GROW_AFTER and self._substep < self.h:
                    self._substep, self._good_in_a_row = min(2 * self._substep, self.h), 0
                continue
            self.state, self._rows = saved, saved_rows
            self._substep /= 2
            self._good_in_a_row = 0
            self.stats["halvings"] += 1
            if self._substep < self.h / 2**MAX_HALVINGS:
                joint, gap = failure
                name = self.model.joint_names[joint] if joint is not None else None
                where = f"joint '{name}' kept a gap of {gap:.3g} m" if name else "the state became non-finite"
                raise SimulationDiverged(
                    f"simulation diverged at t = {self.state.time:.6g} s: {where} even at step {2 * self._substep:.3g} s",
                    self.state.time, name)
        self.state.time = end

    def _try_substep(self, h: float, shortened: bool = False):
        """One sub-step of length h; None on success, a shorter step to take instead when a
        collision lies ahead, else (worst joint, its gap) for the report. The stages:
        half the explicit forces -> contacts ahead -> P-steps 1-2 (joints, drives, contact pairs)
        -> P-step 3 (ballistic flight) -> the other half of the forces -> impacts -> P-step 4."""
        model, state = self.model, self.state
        if self._rows is None:
            self._rows = Rows.build(model, state.frames)
        rows = self._rows
        apply_explicit_forces(model, state, rows, 0.5 * h)
        contact_rows, lcp_contacts, impact = self._contacts_ahead(h, shortened)
        if impact is not None:
            return impact
        correction = PositionCorrection(model, state, rows, rows.solve_stages(model), h, self.stats, contact_rows)
        if not correction.run():
            return correction.worst_joint, correction.worst_gap
        if lcp_contacts is not None and len(model.joint_names):
            failure = self._lcp_with_joints(correction, lcp_contacts, h)
            if failure is not None:
                return failure
        flight = correction.flight or fly(model, state.frames, state.twist, h)
        state.frames, state.twist = flight.land()
        state.axis_coordinate = unwrap(model, model.raw_coordinates(state.frames), state.axis_coordinate)
        state.time += h
        if not state.is_finite():
            return correction.worst_joint, np.inf
        rows = Rows.build(model, state.frames)
        apply_explicit_forces(model, state, rows, 0.5 * h)
        touching = self._impacts(rows, h)
        if model.settings.velocity_correction:
            self._correct_velocities(rows, touching, h, correction.accumulated)
        if not state.is_finite():
            return correction.worst_joint, np.inf
        self._rows = rows
        self.stats["substeps"] += 1
        return None

    def _contacts_ahead(self, h: float, shortened: bool):
        """Contacts within reach this step: (contact rows for the loop, contacts the LCP took, a shorter
        step to take first when a pair would collide within this one)."""
        model, state = self.model, self.state
        if not model.contacts.enabled:
            return None, None, None
        ahead = fly(model, state.frames, state.twist, h).frames
        contacts = find_contacts(model, state.frames, ahead)
        if not len(contacts):
            return None, None, None
        if model.settings.contact_method == "lcp":  # Stewart-Trinkle
            lcp_contacts = self._lcp_stage(contacts, h)
            if lcp_contacts is not None:
                return None, lcp_contacts, None
            # Lemke ended on a ray: this step's contacts go the impulse way
            return ContactRows(model, self._rows, contacts, state.frames), None, None
        contact_rows = ContactRows(model, self._rows, contacts, state.frames)
        impact = None if shortened else _first_impact(contact_rows, state, h, ahead)
        return contact_rows, None, impact

    def _impacts(self, rows, h: float):
        """Schmitt §11 impact pairs at the end of the step; the contacts touching now."""
        model, state = self.model, self.state
        if not model.contacts.enabled:
            return None
        contacts = find_contacts(model, state.frames, state.frames)
        touching = contacts.subset(contacts.separation(state.frames) < TOUCHING + 2 * model.settings.dmax)
        fresh = np.array([key not in state.touching for key in touching.key], dtype=bool)
        resolve_impacts(model, rows, touching, state.frames, state.twist.reshape(-1), fresh,
                        2.0 * float(np.linalg.norm(model.gravity)) * h)
        state.touching = frozenset(touching.key)
        return touching

    def _correct_velocities(self, rows, touching, h: float, spent) -> None:
        """P-step 4 for the joints and drives, then for the touching contacts."""
        model, state = self.model, self.state
        correct_velocities(model, state, rows, rows.solve_stages(model), h, spent, self.stats)
        if touching is not None and len(touching):
            contact_rows = ContactRows(model, rows, touching, state.frames)
            for _ in range(model.settings.max_corrections):
                if contact_rows.solve_velocities(state.twist.reshape(-1)) < model.settings.vmax:
                    break

    def _richardson_step(self) -> None:
        """Schmitt §8: p3 = -1/3 p(h) + 4/3 p(h/2 twice), applied to positions, rotations, velocities."""
        start, start_rows = self.state.copy(), self._rows
        self._advance(self.h)
        coarse = self.state
        self.state, self._rows = start, start_rows
        self._advance(0.5 * self.h)
        self._advance(0.5 * self.h)
        fine = self.state

        def blend(a, b):
            return -a / 3.0 + 4.0 * b / 3.0

        rotation = blend(coarse.frames.rotation, fine.frames.rotation)
        rotation[self.model.body_rotates] = orthonormalize(rotation[self.model.body_rotates])
        self.state = State(fine.time, Frames(blend(coarse.frames.position, fine.frames.position), rotation),
                           blend(coarse.twist, fine.twist), blend(coarse.axis_coordinate, fine.axis_coordinate))
        self._rows = None

    def _lcp_with_joints(self, correction, contacts, h: float):
        """The joints' correction may push a contact back in: the LCP and the joints take turns."""
        model, state = self.model, self.state
        for _ in range(LCP_ROUNDS):
            flight = correction.flight or fly(model, state.frames, state.twist, h)
            if contacts.separation(flight.frames).min() >= -0.5 * model.settings.dmax:
                return None
            apply_lcp_impulses(model, self._rows, contacts, state.frames, state.twist, h,
                               np.zeros(len(contacts), dtype=bool))
            if not correction.run():
                return correction.worst_joint, correction.worst_gap
        return None

    def _lcp_stage(self, contacts, h: float):
        """Stewart and Trinkle's LCP for this step's contacts; None (and the state untouched) when
        Lemke's algorithm ends on a ray for every covering vector it tries."""
        model, state, rows = self.model, self.state, self._rows
        gap_now = contacts.separation(state.frames)
        approach = normal_rates(model, contacts, state.frames, state.twist)
        impacting = (gap_now > TOUCHING) | np.array([key not in state.touching for key in contacts.key])
        impacting &= approach < -2.0 * float(np.linalg.norm(model.gravity)) * h
        before = state.twist.copy()
        try:
            apply_lcp_impulses(model, rows, contacts, state.frames, state.twist, h, impacting)
        except LemkeFailure:
            state.twist[:] = before
            self.stats["lcp_fallbacks"] += 1
            return None
        return contacts

    # --- queries ---------------------------------------------------------------------------

    def _body(self, name: str) -> int:
        index = self.model.body_index.get(name)
        if index is None or index == 0:
            raise ModelError(f"body '{name}': no such body in the model")
        return index

    def _joint(self, name: str) -> int:
        index = self.model.joint_index.get(name)
        if index is None:
            raise ModelError(f"joint '{name}': no such joint in the model")
        return index

    def position(self, name: str) -> np.ndarray:
        """Centre of mass in the world, (3,)."""
        return self.state.frames.position[self._body(name)].copy()

    def orientation(self, name: str) -> np.ndarray:
        """Unit quaternion (w, x, y, z), w >= 0, of the body frame given in the file."""
        body = self._body(name)
        return self.model.user_orientation(self.state.frames.rotation[body], body)

    def velocity(self, name: str) -> np.ndarray:
        return self.state.velocity[self._body(name)].copy()

    def angular_velocity(self, name: str) -> np.ndarray:
        return self.state.angular_velocity[self._body(name)].copy()

    def joint_position(self, name: str) -> float:
        """Hinge: angle in rad; slider, rail: displacement in m; spring, distance: length change in m.
        0 at the start, positive by the right-hand rule about / along the joint axis."""
        joint = self._joint(name)
        axis = self.model.axis_of_joint.get(joint)
        if axis is None:
            raise ModelError(f"joint '{name}': a {self.model.joint_type[joint]} joint has no joint position")
        return float(self.state.axis_coordinate[axis] - self.model.axis_coordinate0[axis])

    def energy(self) -> float:
        """Kinetic + gravitational + spring potential energy, J."""
        model, state = self.model, self.state
        moving = model.body_dynamic
        mass = model.body_mass[moving]
        kinetic = 0.5 * np.sum(mass * np.sum(state.velocity[moving] ** 2, axis=1))
        omega_body = np.einsum("nji,nj->ni", state.frames.rotation[moving], state.angular_velocity[moving])
        kinetic += 0.5 * np.sum(model.body_inertia[moving] * omega_body**2)
        potential = -np.sum(mass * (state.frames.position[moving] @ model.gravity))
        return float(kinetic + potential + drives.spring_energy(model.drives, state.axis_coordinate, model.drive_axis, state.time))

    def max_joint_error(self) -> float:
        """Largest positional gap over all joints now, m (angles as rad on a 1 m lever; limits and
        rail stops count by how far they are passed)."""
        model = self.model
        gaps = [float(joint_gaps(model, joint_errors(model, self.state.frames)).max(initial=0.0))]
        for k, drive in enumerate(model.drives):
            overshoot = self.state.axis_coordinate[model.drive_axis[k]] - drive.value(self.state.time)
            if drive.kind == drives.LOWER_LIMIT:
                gaps.append(max(0.0, -overshoot))
            elif drive.kind == drives.UPPER_LIMIT:
                gaps.append(max(0.0, overshoot))
        return max(gaps)


def _first_impact(contact_rows, state, h: float, ahead: Frames) -> float | None:
    """The time within h at which the first pair that is apart now would touch, from a quadratic
    through its gap now, its rate now and its gap at the look-ahead (exact in free fall); None if
    no pair closes within the step."""
    contacts = contact_rows.contacts
    gap_now = contacts.separation(state.frames)
    gap_ahead = contacts.separation(ahead)
    rate = contact_rows.rates(state.twist.reshape(-1))[:, 0]
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


__all__ = ["Simulation", "joint_gaps"]
