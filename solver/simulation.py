"""Simulation: a Model, a State, and the step that reads as its stages.

    [impacts of touching pairs] -> apply_explicit_forces(h/2) -> correct_positions (P-steps 1-2,
    drives) -> advance (P-step 3, rows at t+h, apply_explicit_forces(h/2)) -> [impacts] ->
    correct_velocities (P-step 4)

The stages are compiled kernels (kernels/correction.py); a mechanism without contacts takes one
kernel call per sub-step. Contacts are found and solved here, between the kernels' stages. A step
that does not converge is undone from a saved state and retried with half the step (Schmitt §5);
after a run of good sub-steps the step grows back.
"""
import warnings
from typing import NamedTuple

import numpy as np

from . import drives
from .codes import (CONTACTS_UNSETTLED, COUNTER_NAMES, DONE, GAP, GROW_AFTER, LCP_GAVE_UP, MAX_HALVINGS,
                    MAX_STEPS_PER_RUN, MAX_SUBSTEPS, NON_FINITE, SLOW_SUBSTEPS, SLOW_TOTAL, STIFF_SPRING,
                    TOO_MANY_SUBSTEPS)
from .arrays import (ContactRowArrays, StateArrays, flight_arrays, joint_islands, row_arrays, solver_settings,
                     work_arrays)
from . import error_control
from .errors import ModelError, SimulationDiverged
from .frames import Frames
from .free_turn import check_free_turns, free_bodies, rotation_energy
from .integrator import fly
from .mass_fault import extreme_body
from .model import Model, Settings
from .servo_fault import cannot_follow, servo_at_fault
from .sleeping import Sleep
from .contact.detection import Contacts, find_contacts
from .contact.impulse import (FIRST_PASSES, SEPARATION_SPEED, TOUCHING, ContactRows, gap_targets, normal_rates,
                              overlapping, resolve_impacts, resting_speed)
from .contact.lcp import apply_lcp_impulses, impulses_by_key
from .contact.lemke import LemkeFailure
from .contact.motor_hold import MotorHold, holding_motors
from .contact.reduction import four_per_face
from .state import State

# a run without a callback takes all its steps in one kernel call, or calls of this many when free bodies are watched
FREE_TURN_STEPS = 100
LCP_ROUNDS = 6  # turns of the contact LCP and the joint correction within one step
CONTACT_TIGHTNESS = 1e-3  # contact impulses converge to this fraction of Dmax per step
# rounds in which the manifolds at the corrected look-ahead may add points the loop then holds too
REDETECTIONS = 2
UNCOVERED_DEPTH = 0.1  # a point this deep (times Dmax) at the look-ahead is held too: the step may not end deeper


class Failure(NamedTuple):
    """Why a sub-step could not stand, as the statuses of codes.py say: GAP (the culprit a joint,
    size its gap, m), NON_FINITE (a body), STIFF_SPRING (a drive, size the longest step it is stable
    at, about: kernels.drives.unstable_explicit_spring); or CONTACTS_UNSETTLED, LCP_GAVE_UP."""

    status: int
    culprit: int
    size: float


class Simulation:
    # a run that cannot go on asks whether a servo without a torque limit is the cause (servo_fault.py)
    blames_servos = True

    def __init__(self, model: Model, **setting_overrides):
        if setting_overrides:
            model = Model(model.spec, Settings.read(model.settings.to_dict(), setting_overrides))
        # numba and the compiled kernels load here, not on import
        from .kernels import correction, drives as drive_kernels, flight, motion, richardson, rows
        from .kernels.contact import contact_loop, contact_rows, held_motors

        self._kernels, self._fly_kernel, self._rows_kernels = correction, flight.fly, rows
        self._richardson_steps, self._combine = richardson.richardson_steps, richardson.combine
        self._drive_kernels = drive_kernels
        self._contact_loop, self._contact_rows, self._held_motors = contact_loop, contact_rows, held_motors
        self.model = model
        self.h = model.settings.h
        self.state = State.initial(model)
        self.stats = {"steps": 0, "substeps": 0, "corrections": 0, "solves": 0, "velocity_solves": 0,
                      "halvings": 0, "lcp_fallbacks": 0, "contact_substeps": 0, "contact_passes": 0, "asleep": 0,
                      "wakes": 0, "rejected": 0, "smallest_substep": self.h, "largest_error_ratio": 0.0}
        self._substep = self.h
        self._good_in_a_row = 0
        self._sleep = Sleep(model, model.arrays)  # resting islands that sleep (sleeping.py)
        self._arrays = self._sleep.arrays  # the model's, the sleeping bodies fixed
        self._settings = solver_settings(model.settings)
        self._rows = row_arrays(model)  # the rows at the state's instant, when _rows_valid
        self._rows_valid = False
        self._flight = flight_arrays(model)  # the last look-ahead, valid for P-step 3 when _flight_valid
        self._flight_valid = False
        self._work = work_arrays(model)
        self._islands = joint_islands(self._arrays)  # what a contact's impulse can move (rows_through_joints)
        # (q,) no motor holds its axis against contacts (rows_through_joints)
        self._nothing_held = np.zeros(len(self._arrays.axis_joint), dtype=bool)
        self._has_motors = bool(holding_motors(self._arrays).any())
        self._counters = np.zeros(len(COUNTER_NAMES), dtype=np.int64)
        state = self.state
        # where a compiled step keeps the state its sub-step starts from (kernels/correction.advance_steps)
        self._saved = self._spare_state()
        # where a compiled Richardson step keeps its start and its step of h (kernels/richardson)
        extrapolated = model.settings.extrapolation == "richardson"
        self._start: StateArrays | None = self._spare_state() if extrapolated else None
        self._coarse: StateArrays | None = self._spare_state() if extrapolated else None
        # error control (error_control.py): the mechanism's steps without contacts or extrapolation
        self._controlled = (model.settings.error_tolerance > 0 and not model.contacts.enabled
                            and not extrapolated)
        self._body_lengths = error_control.body_lengths(model.body_mass, model.body_inertia)  # (n,) m
        self._controlled_length = self.h  # the sub-step the controller proposes next
        self._check_every = 1  # steps from one estimate to the next while the steps are accurate
        self._unchecked_left = 0  # steps to take before the next estimate
        for body in np.flatnonzero(model.body_animated):  # where its motion is at the start, and how it moves
            motion.motion_at(self._arrays, body, 0.0, state.frames.position[body], state.frames.rotation[body],
                             state.twist[body, :3], state.twist[body, 3:])
        self._free_bodies = free_bodies(model)  # (f,) bodies that turn torque-free, watched (free_turn.py)
        self._free_energy = rotation_energy(model, self._free_bodies, state.frames.rotation, state.twist)  # (f,) J
        self._lcp_gap_now, self._lcp_overlapping = np.zeros(0), np.zeros(0, dtype=bool)  # the LCP's contacts now
        # which of each contact's LCP unknowns were positive last (lcp.apply_lcp_impulses)
        self._lcp_supports: dict = {}
        self._lcp_impulses: dict = {}  # each contact's LCP impulses this step ({key: (3,)}, lcp.impulses_by_key)
        # each contact's impulses in the last sub-step's position loop and velocity correction, and
        # that sub-step's length: where this sub-step's passes start (ContactRows.warm_start)
        self._warm_position: dict = {}
        self._warm_velocity: dict = {}
        self._warm_h = self.h
        self._settle_wait = 1  # passes before the contact loop's first direct step (contact_loop.correct_positions)
        self._velocity_settle_wait = FIRST_PASSES  # the same in the velocity correction (ContactRows.solve_velocities)
        self._found_at: tuple | None = None  # (position, rotation, contacts) of the last _contacts_at
        # (position, twist) where the last sub-step's P-step 4 left its touching contacts, none closing
        self._settled_at: tuple | None = None
        # (m,) bodies a and b of the contacts touching at the end of the last sub-step (sleeping.py's islands)
        self._touching_bodies = (np.zeros(0, dtype=int), np.zeros(0, dtype=int))
        self.warnings: list[str] = []  # what runs but may not be what was meant, each naming its bodies
        if model.contacts.enabled:  # what touches at the start is resting, not an impact
            contacts = find_contacts(model, self.state.frames, self.state.frames)
            gap = contacts.separation(self.state.frames)
            self.state.touching = frozenset(contacts.subset(gap < TOUCHING).key)
            self.warnings += _overlap_warnings(model, contacts, gap)

    # --- stepping --------------------------------------------------------------------------

    @property
    def time(self) -> float:
        return self.state.time

    @property
    def arrays(self):
        """The model's arrays as the kernels see them now: ModelArrays with the sleeping bodies fixed."""
        return self._arrays

    @property
    def substep(self) -> float:
        """The internal step now: h, h halved while the corrections struggle (Schmitt §5), or the
        length the error controller proposes (error_tolerance)."""
        return self._substep

    def step(self) -> None:
        """Advance the mechanism by one step h."""
        if self._controlled:
            self._advance_controlled(1)
        elif not self.model.contacts.enabled:
            self._advance_jointed(self.h, 1, counted=False)
        elif self._sleep.nothing_moves:  # every body asleep and none animated: nothing can wake them
            self.state.time += self.h
        else:
            start = Frames(self.state.frames.position.copy(), self.state.frames.rotation.copy())
            if self.model.settings.extrapolation == "richardson":
                self._richardson_step()
            else:
                self._advance(self.h)
            self._fall_asleep(start)
        self.stats["steps"] += 1
        self._watch_free_turns()

    def _fall_asleep(self, start: Frames) -> None:
        """Islands that have rested long enough since the step began at `start` fall asleep (sleeping.py)."""
        state = self.state
        if len(self._sleep.note_step(self.h, start, state.frames, state.twist, *self._touching_bodies)):
            self._after_sleep_change()
        self.stats["asleep"] = int(self._sleep.asleep.sum())

    def _wake(self, bodies: np.ndarray) -> None:
        """Wakes sleeping bodies, at rest where they are (gravity acts in the flight, which is taken again)."""
        self._sleep.wake(bodies)
        self._after_sleep_change()
        self._ensure_rows()
        self.stats["wakes"] += 1

    def _after_sleep_change(self) -> None:
        """The rows, the look-ahead and the contacts found hold for the old sleepers only."""
        self._rows_valid = self._flight_valid = False
        self._found_at = self._settled_at = None

    def _watch_free_turns(self) -> None:
        """A free body whose energy of rotation grew ends the run (free_turn.check_free_turns)."""
        if self._free_bodies.size:
            check_free_turns(self.model, self._free_bodies, self._free_energy, self.state)

    def run(self, duration: float, callback=None) -> None:
        """Advance by `duration` (rounded to whole steps). callback(sim) runs after every step; if it
        returns False the run stops there. Without a callback, a mechanism without contacts takes all
        its steps in one kernel call."""
        steps = self._steps_in(duration)
        if steps == 0:
            return
        substeps = self.stats["substeps"]
        self.step()  # the first alone: its pace foretells the run's (SLOW_SUBSTEPS)
        self._note_pace(int(self.stats["substeps"] - substeps), steps - 1)
        if callback is not None and callback(self) is False:
            return
        if callback is None and not self.model.contacts.enabled:
            left = steps - 1
            while left:  # the free bodies watched every FREE_TURN_STEPS steps
                taken = min(left, FREE_TURN_STEPS) if self._free_bodies.size else left
                if self._controlled:
                    self._advance_controlled(taken)
                    self.stats["steps"] += taken
                else:
                    self._advance_jointed(self.h, taken, counted=True)
                self._watch_free_turns()
                left -= taken
            return
        for _ in range(steps - 1):
            self.step()
            if callback is not None and callback(self) is False:
                return

    def _note_pace(self, substeps: int, steps_left: int) -> None:
        """Warns at once (warnings.warn, and sim.warnings) when a run's first step was cut into so many
        sub-steps that the rest will take long: the motion is too fast or stiff for h."""
        if substeps < SLOW_SUBSTEPS or substeps * steps_left < SLOW_TOTAL:
            return
        message = (f"at t = {self.time:.3g} s a step of {self.h:.3g} s needed {substeps} sub-steps: at this pace the "
                   f"{steps_left} steps left take about {substeps * steps_left:.2g} sub-steps, {substeps} times the "
                   f"work of their steps; the motion is too fast or stiff for the step (a body with a tiny moment "
                   f"of inertia or mass on springs or joints): a shorter h or mass properties in scale are faster")
        self.warnings.append(message)
        warnings.warn(message, RuntimeWarning, stacklevel=3)

    def _steps_in(self, duration) -> int:
        """The whole steps h in `duration`, or a ModelError naming what is wrong with it."""
        if not isinstance(duration, (int, float, np.integer, np.floating)) or isinstance(duration, (bool, np.bool_)):
            raise ModelError(f"run: duration must be a number of seconds, got {duration!r}")
        if not np.isfinite(duration) or duration < 0:
            raise ModelError(f"run: duration must be a finite number of seconds, at least 0, got {duration!r}")
        steps = round(float(duration) / self.h)
        if duration > 0 and steps == 0:
            raise ModelError(f"run: duration {float(duration):.3g} s is less than half a step (h = {self.h:.3g} s); "
                             f"no step would be taken")
        if steps > MAX_STEPS_PER_RUN:
            raise ModelError(f"run: duration {float(duration):.3g} s at h = {self.h:.3g} s is {steps:.3g} steps, more "
                             f"than {MAX_STEPS_PER_RUN:.0e} (hours of work at the least): check the units of h and "
                             f"of the duration")
        return steps

    def _advance(self, duration: float) -> None:
        """`duration` of a scene with contacts, in sub-steps that halve when the corrections fail and
        shorten to the next impact of a pair that bounces."""
        end = self.state.time + duration
        remaining = duration
        substeps = 0
        last_failure = None  # why the step was last halved
        while remaining > 1e-9 * duration:
            substeps += 1
            if substeps > MAX_SUBSTEPS:
                raise self._diverged(last_failure, f"the step needed more than {MAX_SUBSTEPS} sub-steps")
            h = min(self._substep, remaining)
            saved = self.state.copy()
            failure = self._try_substep(h)
            lcp = self.model.settings.contact_method == "lcp"
            if isinstance(failure, Failure) and failure.status == LCP_GAVE_UP:  # this sub-step, the impulse way
                self.stats["lcp_fallbacks"] += 1
                self._restore(saved.copy())
                lcp = False
                failure = self._try_substep(h, lcp=lcp)
            if isinstance(failure, float):  # a bouncing collision ahead: step exactly to it (Schmitt §11)
                h = failure
                self._restore(saved.copy())
                failure = self._try_substep(h, shortened=True, lcp=lcp)
            if failure is None:
                remaining -= h
                self._good_in_a_row += 1
                if self._good_in_a_row >= GROW_AFTER and self._substep < self.h:
                    self._substep, self._good_in_a_row = min(2 * self._substep, self.h), 0
                continue
            last_failure = failure
            self._restore(saved)
            self._substep /= 2
            self._good_in_a_row = 0
            self.stats["halvings"] += 1
            if self._substep < self.h / 2**MAX_HALVINGS:
                raise self._diverged(failure, f"even at step {2 * self._substep:.3g} s", h)
        self.state.time = end

    def _advance_jointed(self, duration: float, steps: int, counted: bool) -> None:
        """`steps` steps of `duration` for a mechanism without contacts, sub-steps and their halvings
        as in _advance, in one kernel call (kernels/correction.advance_steps; each step of h combined
        from steps of h and h/2 when the extrapolation is Richardson's, kernels/richardson). counted:
        the steps go into stats["steps"] (step() counts its own)."""
        k = self._kernels
        self._ensure_rows()
        arrays = self._state_arrays()
        control = np.array([self._substep, self._good_in_a_row], dtype=np.float64)
        if self._start is not None:  # Richardson's steps are whole steps of h
            assert duration == self.h
            done, stopped, status, index, size, length = self._richardson_steps(
                self._arrays, self._settings, arrays, self._saved, self._start, self._coarse, self._rows, self._flight,
                self._work, self.h, steps, control, self._counters)
        else:
            done, stopped, status, index, size, length = k.advance_steps(
                self._arrays, self._settings, arrays, self._saved, self._rows, self._flight, self._work, duration,
                steps, self.h, control, self._counters)
        self.state.time = float(arrays.time[0])
        self._substep, self._good_in_a_row = float(control[0]), int(control[1])
        self._count()
        if counted:
            self.stats["steps"] += done
        if stopped:
            failure = None if status == DONE else self._failure(status, index, size, length)
            limit = (f"the step needed more than {MAX_SUBSTEPS} sub-steps" if stopped == TOO_MANY_SUBSTEPS
                     else f"even at step {2 * self._substep:.3g} s")
            raise self._diverged(failure, limit, length)

    def _advance_controlled(self, steps: int) -> None:
        """`steps` steps of h for a mechanism without contacts under error control (error_control.py):
        while the estimate finds the steps accurate with room, it runs on every few steps only
        (_check_every, up to error_control.MOST_UNCHECKED), the steps between taken as
        _advance_jointed takes them."""
        left = steps
        while left:
            if self._unchecked_left and self._controlled_length >= self.h:
                taken = min(left, self._unchecked_left)
                self._advance_jointed(self.h, taken, counted=False)
                self._unchecked_left -= taken
                left -= taken
                continue
            self._controlled_step()
            left -= 1

    def _controlled_step(self) -> None:
        """One step of h in sub-steps whose estimated error per unit time stays within the tolerance:
        each sub-step taken twice in halves and once whole from the same start, the whole one kept when
        the estimate (error_control.local_error) is within it, else undone and retried shorter. The
        sub-steps end on the step's end (a frame's keys stay on frames)."""
        h, state, tolerance = self.h, self.state, self.model.settings.error_tolerance
        end, remaining = state.time + h, h
        accurate = True
        while remaining > 1e-9 * h:
            proposal = self._controlled_length
            length = remaining / np.ceil(remaining / proposal - 1e-9)  # the rest of the step in even pieces
            start = state.copy()
            error = self._estimated_substep(length)
            state = self.state
            # an error within a few Dmax is the joints' own closing, which no shorter step removes
            floor = error_control.GAP_NOISE * self.model.settings.dmax
            ratio = float(error.max(initial=0.0)) / max(tolerance * length, floor)
            self.stats["largest_error_ratio"] = max(self.stats["largest_error_ratio"], ratio)
            factor = error_control.length_factor(ratio)
            if ratio > 1.0:
                self._restore(start)
                state = self.state
                self.stats["rejected"] += 1
                self._controlled_length = length * min(factor, error_control.SAFETY)
                accurate = False
                if self._controlled_length < h * error_control.SHORTEST:
                    body = self.model.body_names[int(np.argmax(error))]
                    raise SimulationDiverged(
                        f"simulation diverged at t = {state.time:.6g} s: body '{body}' kept a step's error of "
                        f"{error.max():.3g} m at a step of {length:.3g} s, above error_tolerance "
                        f"{tolerance:g} m/s; the steps may not shrink below h / 2^16", state.time, None, body)
                continue
            remaining -= length
            self.stats["smallest_substep"] = min(self.stats["smallest_substep"], length)
            accurate = accurate and ratio < error_control.ACCURATE and length >= h
            grown = length * factor  # a piece shortened to fit the step says nothing against the proposal
            self._controlled_length = min(h, max(grown, proposal) if factor >= 1.0 else grown)
        state.time = end
        self._substep, self._good_in_a_row = self._controlled_length, 0
        self._check_every = min(2 * self._check_every, error_control.MOST_UNCHECKED) if accurate else 1
        self._unchecked_left = self._check_every - 1

    def local_error(self, length: float) -> np.ndarray:
        """(n,) each body's estimated local error, m, of a sub-step of `length` s from the state now
        (error_control.local_error); the state and the sub-step length are left as they were. A
        mechanism without contacts."""
        start, substep = self.state.copy(), (self._substep, self._good_in_a_row)
        error = self._estimated_substep(length)
        self._restore(start)
        self._substep, self._good_in_a_row = substep
        return error

    def _estimated_substep(self, length: float) -> np.ndarray:
        """Takes a sub-step of `length` as two halves and then, from the same start, whole, which it
        keeps (an accurate step is then the step an uncontrolled run takes: sub-steps of changing
        length cost a symmetric method its long-run energy); returns each body's estimated local
        error of the whole sub-step, m (Schmitt §8)."""
        start = self.state.copy()
        self._substep, self._good_in_a_row = 0.5 * length, 0
        self._advance_jointed(0.5 * length, 2, counted=False)
        halves = self.state.frames
        self._restore(start.copy())
        self._substep, self._good_in_a_row = length, 0
        self._advance_jointed(length, 1, counted=False)
        return error_control.local_error(self.model.body_dynamic, self._body_lengths, self.state.frames.position,
                                         self.state.frames.rotation, halves.position, halves.rotation)

    def _failure(self, status: int, index: int, size: float, h: float) -> "Failure | None":
        """A kernel's (status, index, size) for a sub-step of length h as a Failure (None: it stood)."""
        if status == DONE:
            return None
        if status == STIFF_SPRING:
            return Failure(status, index, h / np.sqrt(size))
        return Failure(status, index, size)

    def _diverged(self, failure: "Failure | None", limit: str, length: float = 0.0) -> SimulationDiverged:
        """The error for a run that cannot go on, naming the joint, spring, servo or body at fault; the
        state is where the failed sub-step of `length` started."""
        model, joint = self.model, None
        servo = None
        if (self.blames_servos and failure is not None and length > 0
                and failure.status in (GAP, NON_FINITE)):
            servo = servo_at_fault(self, length)
        if servo is not None:
            joint = model.joint_names[model.drives[servo].joint]
            cause = cannot_follow(model, servo, self.state.time)
        elif failure is None:
            cause = "impacts kept shortening the step"
        elif failure.status == STIFF_SPRING:
            joint = model.joint_names[model.axis_joint[model.drive_axis[failure.culprit]]]
            cause = (f"joint '{joint}': its impulse spring is too stiff for the step (stable below steps of about "
                     f"{failure.size:.3g} s); give it the soft method or more substeps")
        elif failure.status == NON_FINITE:
            cause = f"body '{model.body_names[failure.culprit]}' reached an infinite or undefined state"
        elif failure.status == CONTACTS_UNSETTLED:
            cause = (f"the contacts of body '{model.body_names[failure.culprit]}' did not settle in "
                     f"{model.settings.max_corrections} passes (max_corrections; one {failure.size:.3g} m deep)")
        else:
            joint = model.joint_names[failure.culprit] if failure.culprit >= 0 else None
            cause = f"joint '{joint}' kept a gap of {failure.size:.3g} m" if joint else "no joint closed"
        extreme = extreme_body(model) if servo is None else None
        if extreme is not None:
            cause = f"body '{extreme[0]}': {extreme[1]}, too far apart to keep the mechanism finite ({cause})"
        return SimulationDiverged(f"simulation diverged at t = {self.state.time:.6g} s: {cause} ({limit})",
                                  self.state.time, joint, extreme[0] if extreme is not None else None)

    def _spare_state(self) -> StateArrays:
        """State arrays of the state's shapes, for a kernel to keep a copy in."""
        state = self.state
        return StateArrays(np.empty_like(state.frames.position), np.empty_like(state.frames.rotation),
                           np.empty_like(state.twist), np.empty_like(state.axis_coordinate), np.zeros(1))

    def _restore(self, state: State) -> None:
        self.state = state
        self._rows_valid = self._flight_valid = False

    def _state_arrays(self) -> StateArrays:
        state = self.state
        return StateArrays(state.frames.position, state.frames.rotation, state.twist, state.axis_coordinate,
                           np.array([state.time]))

    def _ensure_rows(self) -> None:
        if not self._rows_valid:
            self._rows_kernels.build(self._arrays, self._settings.solver, self.state.frames.position,
                                     self.state.frames.rotation, self._rows)
            self._rows_valid = True

    def _count(self) -> None:
        for name, count in zip(COUNTER_NAMES, self._counters):
            self.stats[name] += int(count)
        self._counters[:] = 0

    def _try_substep(self, h: float, shortened: bool = False, lcp: bool | None = None):
        """One sub-step of length h with contacts; None on success, a shorter step to take instead when a
        collision lies ahead, else (worst joint, its gap) for the report."""
        self._ensure_rows()
        failure = self._contact_substep(h, shortened, self.model.settings.contact_method == "lcp" if lcp is None
                                        else lcp)
        self._count()
        if failure is not None:
            return failure
        self._rows_valid = True  # the kernels built the rows at the new instant
        self.stats["substeps"] += 1
        return None

    def _jointed_substep(self, h: float):
        """A sub-step without contacts, after the first half of the explicit forces: one kernel call."""
        arrays = self._state_arrays()
        status, index, size = self._kernels.substep(self._arrays, self._settings, arrays, self._rows, self._flight,
                                                    self._work, h, self._counters)
        self.state.time = float(arrays.time[0])
        if status == NON_FINITE:
            return self._non_finite()
        return self._failure(status, index, size, h)

    def _non_finite(self) -> Failure:
        """The failure of a state that became infinite or NaN, naming the first such body."""
        state = self.state
        bad = ~(np.isfinite(state.frames.position).all(axis=1) & np.isfinite(state.twist).all(axis=1)
                & np.isfinite(state.frames.rotation).all(axis=(1, 2)))
        return Failure(NON_FINITE, int(np.argmax(bad)), np.inf)

    def _contact_substep(self, h: float, shortened: bool, lcp: bool):
        """The stages of a sub-step with contacts: impacts of touching pairs -> half the explicit
        forces -> contacts ahead -> P-steps 1-2 (joints, drives, contact pairs) -> P-step 3 -> the
        other half of the forces -> impacts -> P-step 4."""
        k, state = self._kernels, self.state
        arrays = self._state_arrays()
        spring, load = self._drive_kernels.unstable_explicit_spring(self._arrays, self._rows, state.time, h)
        if spring >= 0:
            return Failure(STIFF_SPRING, spring, h / np.sqrt(load))
        self._touching_impacts(h)
        self._work.accumulated[:] = 0.0  # the drives' impulses this step, the held motors' answers to the LCP's too
        k.apply_explicit_forces(self._arrays, self._rows, state.twist, state.axis_coordinate, state.time, 0.5 * h)
        contact_rows, lcp_contacts, impact = self._contacts_ahead(h, shortened, lcp)
        if impact is not None:
            return impact
        if contact_rows is None and lcp_contacts is None and not state.touching:
            # nothing within reach now or at the look-ahead, so nothing touches at the end either
            self._touching_bodies = (np.zeros(0, dtype=int), np.zeros(0, dtype=int))
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
        self._fly(h)
        k.prepare_velocity_levers(self._arrays, self._settings, arrays, self._flight, self._work)
        finite = k.advance(self._arrays, self._settings, arrays, self._rows, self._flight, self._work, h)
        state.time = float(arrays.time[0])
        self._flight_valid = False
        if not finite:
            return self._non_finite()
        position_impulses, velocity_impulses = None, None
        carried: dict = {}  # each contact's impulses in the step so far ({key: (3,)})
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
            k.correct_velocities(self._arrays, self._settings, arrays, self._rows, self._work, h, self._counters)
            if touching is not None and len(touching):
                velocity_impulses = self._velocity_contacts(touching, pushed_out, carried, h).impulses()
        if not k.is_finite(arrays):
            return self._non_finite()
        velocities_corrected = self.model.settings.velocity_correction and touching is not None
        self._settled_at = (state.frames.position.copy(), state.twist.copy()) if velocities_corrected else None
        # the next sub-step's passes start from this one's impulses, never from a failed one's
        if position_impulses is not None:
            self._warm_position = position_impulses
        if velocity_impulses is not None:
            self._warm_velocity = velocity_impulses
        self._warm_h = h
        return None

    def _unsettled(self, contact_rows: ContactRows, h: float) -> Failure:
        """The failure of a sub-step whose contacts did not settle, naming a body of the contact that
        lies deepest below its target at the look-ahead."""
        self._fly(h)
        contacts = contact_rows.contacts
        below = contacts.separation(Frames(self._flight.position, self._flight.rotation)) - gap_targets(
            contact_rows.gap_now, contact_rows.overlapping, h)
        worst = int(np.argmin(below))
        body = contacts.body_b[worst] if self.model.body_dynamic[contacts.body_b[worst]] else contacts.body_a[worst]
        return Failure(CONTACTS_UNSETTLED, int(body), float(max(-below[worst], 0.0)))

    def _correct_positions(self, arrays: StateArrays, h: float, contact_rows):
        """P-steps 1 and 2 with the drives and, when there are any, Schmitt §11's contact pairs:
        (the joints converged, worst joint, its gap, the contact rows held in the end, whose `settled`
        says whether the contacts converged too)."""
        k, a, s, work = self._kernels, self._arrays, self._settings, self._work
        if contact_rows is None:
            converged, joint, gap = k.correct_positions(a, s, arrays, self._rows, self._flight, work, h, self._counters)
            self._flight_valid = bool(converged)
            return converged, joint, gap, None
        loop_drives = bool(np.any(~np.isin(a.drive_kind, drives.EXPLICIT_KINDS)))
        contact_rows.warm_start(self._warm_position, self.state.twist.reshape(-1), h / self._warm_h)
        for _ in range(REDETECTIONS + 1):
            converged, contact_rows.settled, joint, gap, contact_rows.passes, flight_valid, self._settle_wait = (
                self._contact_loop.correct_positions(a, s, arrays, self._rows, self._flight, work, h, self._counters,
                                                     loop_drives, *contact_rows.loop_arrays(h), CONTACT_TIGHTNESS,
                                                     contact_rows.passes, self._settle_wait))
            self._flight_valid = bool(flight_valid)
            if not (converged and contact_rows.settled):
                break
            self._fly(h)  # where the step ends: the last pass moved the bodies by less than Dmax
            more = self._uncovered(contact_rows)
            if not len(more):
                break
            contact_rows = contact_rows.with_more(self.model, self, more, self.state.frames)
        if not contact_rows.settled:  # the passes could not do it alone: the next try starts with the direct step
            self._settle_wait = 1
        self.stats["contact_passes"] += contact_rows.passes
        return bool(converged), int(joint), float(gap), contact_rows

    def _uncovered(self, contact_rows: ContactRows) -> Contacts:
        """The points of the manifolds at the corrected look-ahead whose features the rows do not hold
        and that lie deeper than UNCOVERED_DEPTH Dmax."""
        ahead = Frames(self._flight.position, self._flight.rotation)
        dmax = self.model.settings.dmax
        later = self._contacts_at(ahead)
        held = set(contact_rows.contacts.key)
        return later.subset((later.separation(ahead) < -UNCOVERED_DEPTH * dmax)
                            & np.array([key not in held for key in later.key], dtype=bool))

    def _fly(self, h: float) -> None:
        """The look-ahead flight over h from now, unless the one held is still valid."""
        if not self._flight_valid:
            state = self.state
            self._fly_kernel(self._arrays, self._settings.taylor_order, state.time, state.frames.position,
                             state.frames.rotation, state.twist, h, self._flight)
            self._flight_valid = True

    def _contacts_at(self, frames: Frames) -> Contacts:
        """The contacts at one instant (find_contacts). The corrected look-ahead that _uncovered looks
        at is where the step ends, which _impacts looks at again: the second time they are not found
        anew."""
        found = self._found_at
        if found is not None and np.array_equal(found[0], frames.position) and np.array_equal(found[1],
                                                                                              frames.rotation):
            return found[2]
        contacts = find_contacts(self.model, frames, frames, self._sleep.active)
        self._found_at = (frames.position.copy(), frames.rotation.copy(), contacts)
        return contacts

    def rows_through_joints(self, body_a, body_b, point, directions, hold: MotorHold | None = None) -> ContactRowArrays:
        """Contact rows along (m, d, 3) directions at (m, 3) world points of bodies a and b, now, with
        their responses through the joints and the motor axes `hold` holds (kernels/contact/contact_rows.py)."""
        self._ensure_rows()
        body_a, body_b = np.asarray(body_a, dtype=np.int64), np.asarray(body_b, dtype=np.int64)
        held, inverse = (hold.hold, hold.inverse) if hold is not None else (self._nothing_held, np.zeros((0, 0)))
        return ContactRowArrays(np.column_stack((body_a, body_b)), *self._contact_rows.jacobian_and_response(
            self._arrays, self._rows, self.state.frames.position, *self._islands, body_a, body_b, point, directions,
            held, inverse))

    def _motor_hold(self, spent_by_drive: np.ndarray, h: float) -> MotorHold | None:
        """The motors that hold their axes against contacts now, each drive having spent (D,) so far
        this step; None without motors."""
        if not self._has_motors:
            return None
        self._ensure_rows()
        return MotorHold(self._arrays, self._rows, spent_by_drive, h, self._held_motors)

    def _velocity_contacts(self, touching: Contacts, pushed_out: set, carried: dict, h: float) -> ContactRows:
        """P-step 4 for the touching contacts, after the joints' and drives': the motors hold their axes
        within their budgets (contact/motor_hold.py), and each contact's friction stays within its cone
        with what it took in the step's loop (`carried`, ContactRows.impulses)."""
        settings, twist = self.model.settings, self.state.twist.reshape(-1)
        hold = self._motor_hold(self._work.velocity_accumulated, h)
        contact_rows = ContactRows(self.model, self, touching, self.state.frames, pushed_out, hold)
        contact_rows.warm_start(self._warm_velocity, twist, h / self._warm_h)
        while True:
            self._velocity_settle_wait = contact_rows.solve_velocities(twist, settings.max_corrections, settings.vmax,
                                                                       self._velocity_settle_wait, carried)
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
            contact_rows = ContactRows(self.model, self, touching, self.state.frames, pushed_out, hold)
            contact_rows.warm_start(impulses, twist, 1.0)

    def _contacts_ahead(self, h: float, shortened: bool, lcp: bool):
        """Contacts within reach this step: (contact rows for the loop, contacts the LCP took, a shorter
        step to take first when a pair that bounces would collide within this one). A moving body
        that comes within reach of a sleeping island wakes it first."""
        model, state = self.model, self.state
        while True:  # a moving body that nears a sleeping island wakes it whole, to take part in this step
            ahead = fly(model, self._arrays, state.frames, state.twist, h, state.time)
            contacts = find_contacts(model, state.frames, ahead, self._sleep.active)
            woken = self._sleep.woken_by(contacts.body_a, contacts.body_b)
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
            return ContactRows(model, self, contacts, state.frames), None, None
        contact_rows = ContactRows(model, self, contacts, state.frames)
        bounces = contacts.restitution > 0
        impact = None if shortened or not bounces.any() else _first_impact(
            contacts.subset(bounces), contact_rows.rates(state.twist.reshape(-1))[bounces, 0], state, h, ahead)
        return contact_rows, None, impact

    def _touching(self):
        """The contacts found now and which of them touch (m,) bool."""
        contacts = self._contacts_at(self.state.frames)
        return contacts, contacts.separation(self.state.frames) < TOUCHING + 2 * self.model.settings.dmax

    def _touching_impacts(self, h: float) -> None:
        """Schmitt §11 impact pairs at the start of the step among the pairs touching now: the step's
        loop (or LCP) would stop a touching pair that closes fast plastically, whatever its
        restitution. Such a pair is one an impact passes along (a Newton's cradle) or one that
        starts closing."""
        state = self.state
        settled = self._settled_at
        if not state.touching or (settled is not None and np.array_equal(settled[0], state.frames.position)
                                  and np.array_equal(settled[1], state.twist)):
            return  # nothing touches, or P-step 4 left no touching pair closing at these frames and speeds
        contacts, touching = self._touching()
        resolve_impacts(self.model, self, contacts, state.frames, state.twist.reshape(-1), touching, h)

    def _impacts(self, h: float):
        """Schmitt §11 impact pairs at the end of the step; the contacts touching now."""
        model, state = self.model, self.state
        contacts, touching = self._touching()
        resolve_impacts(model, self, contacts, state.frames, state.twist.reshape(-1), touching, h)
        touching = contacts.subset(touching)
        state.touching = frozenset(touching.key)
        self._touching_bodies = (touching.body_a, touching.body_b)
        return touching

    def _richardson_step(self) -> None:
        """Schmitt §8 for a scene with contacts: its steps of h and h/2 taken here, combined by
        kernels/richardson.combine as the compiled steps of mechanisms without contacts are."""
        start = self.state.copy()
        self._advance(self.h)
        coarse = self._state_arrays()
        self._restore(start)
        self._advance(0.5 * self.h)
        self._advance(0.5 * self.h)
        # combined into the fine steps' arrays; the contacts touching stay those the fine steps left,
        # so the next step tells an impact from a rest as a plain run would
        self._combine(self._arrays, coarse, self._state_arrays())
        self._restore(self.state)

    def _lcp_with_joints(self, arrays: StateArrays, contacts, h: float):
        """The joints' correction may push a contact back in: the LCP and the joints take turns."""
        model, state = self.model, self.state
        for _ in range(LCP_ROUNDS):
            self._fly(h)
            target = gap_targets(self._lcp_gap_now, self._lcp_overlapping, h)
            ahead = Frames(self._flight.position, self._flight.rotation)
            if (contacts.separation(ahead) - target).min() >= -0.5 * model.settings.dmax:
                self._flight_valid = True
                return None
            try:
                z = apply_lcp_impulses(model, self, contacts, state.frames, state.twist, h,
                                       np.zeros(len(contacts), dtype=bool), target, self._lcp_supports,
                                       self._motor_hold(self._work.accumulated, h))
            except LemkeFailure:  # with the joints' impulses in, Lemke ended on a ray
                return Failure(LCP_GAVE_UP, -1, 0.0)
            more = impulses_by_key(contacts, z, model.settings.friction_directions)
            self._lcp_impulses = {key: self._lcp_impulses.get(key, 0.0) + more[key] for key in more}
            converged, joint, gap, _ = self._correct_positions(arrays, h, None)
            if not converged:
                return Failure(GAP, joint, gap)
        return None

    def _lcp_stage(self, contacts, h: float, shortened: bool):
        """Stewart and Trinkle's LCP for this step's contacts; None (and the state untouched) when
        Lemke's algorithm ends on a ray for every covering vector it tries. A step shortened to an
        impact ends where its pairs touch: they bounce there (_impacts), not in the LCP."""
        model, state = self.model, self.state
        contacts = four_per_face(contacts, state.frames)
        gap_now = contacts.separation(state.frames)
        approach = normal_rates(contacts, state.frames, state.twist)
        impacting = (gap_now > TOUCHING) | np.array([key not in state.touching for key in contacts.key])
        impacting &= (approach < -resting_speed(model, h)) & (not shortened)
        before = state.twist.copy()
        self._lcp_gap_now, self._lcp_overlapping = gap_now, overlapping(gap_now, model.settings.dmax)
        try:
            z = apply_lcp_impulses(model, self, contacts, state.frames, state.twist, h, impacting,
                                   gap_targets(gap_now, self._lcp_overlapping, h), self._lcp_supports,
                                   self._motor_hold(self._work.accumulated, h))
        except LemkeFailure:
            state.twist[:] = before
            self.stats["lcp_fallbacks"] += 1
            return None
        self._lcp_impulses = impulses_by_key(contacts, z, model.settings.friction_directions)
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
        return float(kinetic + potential
                     + drives.spring_energy(model.drives, state.axis_coordinate, model.drive_axis, state.time))

    def joint_gaps(self) -> np.ndarray:
        """(m,) every joint's positional gap now, m (angles as rad on a 1 m lever)."""
        work = self._work
        self._kernels.joint_errors(self._arrays, self.state.frames.position, self.state.frames.rotation, work)
        self._kernels.joint_gaps(self._arrays, work.errors, work.gaps)
        return work.gaps.copy()

    def joint_rates(self) -> np.ndarray:
        """(m,) every joint's velocity error now, m/s (angular rows as rad/s on a 1 m lever)."""
        self._ensure_rows()
        work = self._work
        self._rows_kernels.rates(self._arrays, self._rows, self.state.twist, work.errors)
        self._kernels.joint_gaps(self._arrays, work.errors, work.gaps)
        return work.gaps.copy()

    def max_joint_error(self) -> float:
        """Largest positional gap over all joints now, m (angles as rad on a 1 m lever; limits and
        rail stops count by how far they are passed)."""
        model = self.model
        gaps = [float(self.joint_gaps().max(initial=0.0))]
        for k, drive in enumerate(model.drives):
            overshoot = self.state.axis_coordinate[model.drive_axis[k]] - drive.value(self.state.time)
            if drive.kind == drives.LOWER_LIMIT:
                gaps.append(max(0.0, -overshoot))
            elif drive.kind == drives.UPPER_LIMIT:
                gaps.append(max(0.0, overshoot))
        return max(gaps)


def _overlap_warnings(model, contacts, gap: np.ndarray) -> list[str]:
    """One warning per pair of shapes that overlap at the start, naming both and the depth."""
    deepest: dict[tuple[str, str], float] = {}
    for key, body_a, body_b, depth in zip(contacts.key, contacts.body_a, contacts.body_b, -gap):
        kind, index = key[0], key[1]
        if kind == "plane":
            other = f"obstacle '{model.contacts.planes[index]['name']}'"
        elif kind == "mesh":
            other = f"obstacle '{model.contacts.meshes[index][0]['name']}'"
        else:
            other = f"body '{model.body_names[body_a]}'"
        pair = (f"body '{model.body_names[body_b]}'", other)
        deepest[pair] = max(deepest.get(pair, 0.0), float(depth))
    return [f"{body} starts {1000 * depth:.3g} mm inside {other}; they are pushed apart at up to "
            f"{SEPARATION_SPEED} m/s" for (body, other), depth in deepest.items()
            if depth > TOUCHING + 2 * model.settings.dmax]


def _first_impact(contacts, rate: np.ndarray, state, h: float, ahead: Frames) -> float | None:
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


__all__ = ["Simulation"]
