"""Simulation: a Model, a State, and the step that reads as its stages.

    apply_explicit_forces(h/2) -> correct_positions (P-steps 1-2, drives) -> advance (P-step 3, rows
    at t+h, apply_explicit_forces(h/2)) -> correct_velocities (P-step 4)

The stages are compiled kernels (kernels/correction.py); a mechanism without contacts takes one
kernel call per sub-step. A sub-step with contacts is contact/step.py's, its stages between the
kernels'. A step that does not converge is undone from a saved state and retried with half the step
(Schmitt §5); after a run of good sub-steps the step grows back.
"""
import warnings

import numpy as np

from . import drives
from .codes import (GAP, GROW_AFTER, LCP_GAVE_UP, MAX_HALVINGS, MAX_STEPS_PER_RUN, MAX_SUBSTEPS, NON_FINITE,
                    SLOW_SUBSTEPS, SLOW_TOTAL, STIFF_SPRING, TOO_INACCURATE, TOO_MANY_SUBSTEPS, TOO_SHORT,
                    CONTACTS_UNSETTLED)
from .arrays import StateArrays
from . import error_control
from .error_control import CHECK_EVERY, CONTROL_SIZE, LARGEST_RATIO, PROPOSED, REJECTED, SMALLEST_SUBSTEP
from .errors import ModelError, SimulationDiverged
from .failure import Failure, kernel_failure
from .frames import Frames
from .free_turn import check_free_turns, free_bodies, rotation_energy
from .instant import Instant
from .mass_fault import extreme_body
from .model import Model, Settings
from .servo_fault import cannot_follow, servo_at_fault
from .sleeping import Sleep
from .contact.step import ContactStep
from .state import State

# a run without a callback takes all its steps in one kernel call, or calls of this many when free bodies are watched
FREE_TURN_STEPS = 100


class Simulation:
    # a run that cannot go on asks whether a servo without a torque limit is the cause (servo_fault.py)
    blames_servos = True

    def __init__(self, model: Model, **setting_overrides):
        if setting_overrides:
            model = Model(model.spec, Settings.read(model.settings.to_dict(), setting_overrides))
        # numba and the compiled kernels load here, not on import
        from .kernels import correction, error_control as controlled, flight, motion, richardson, rows

        self._kernels, self._rows_kernels = correction, rows
        self._richardson_steps, self._combine = richardson.richardson_steps, richardson.combine_on_the_joints
        self._whirl_step = flight.whirl_step
        self._controlled_steps, self._estimated_substep = controlled.controlled_steps, controlled.estimated_substep
        self.model = model
        self.h = model.settings.h
        self.stats = {"steps": 0, "substeps": 0, "corrections": 0, "solves": 0, "velocity_solves": 0,
                      "halvings": 0, "energy_halvings": 0, "uncombined": 0, "lcp_fallbacks": 0, "contact_substeps": 0,
                      "contact_passes": 0, "contact_velocity_passes": 0, "asleep": 0, "wakes": 0, "rejected": 0,
                      "smallest_substep": self.h, "largest_error_ratio": 0.0}
        self._substep = self.h
        self._good_in_a_row = 0
        self._orientations: dict[int, tuple] = {}  # body: (its last rotation asked for, its orientation)
        sleep = Sleep(model, model.arrays)  # resting islands that sleep (sleeping.py)
        # the state and the kernels' arrays of its instant; the model's arrays with the sleeping bodies fixed
        self.instant = Instant(model, sleep.arrays, State.initial(model))
        instant, state = self.instant, self.state
        # where a compiled step keeps the state its sub-step starts from (kernels/correction.advance_steps)
        self._saved = instant.spare_state()
        # where a compiled Richardson step keeps its start and its step of h (kernels/richardson), and an
        # estimated sub-step its start and its two halves (kernels/error_control)
        self._start, self._coarse = instant.spare_state(), instant.spare_state()
        extrapolated = model.settings.extrapolation == "richardson"
        # error control (error_control.py): the mechanism's steps without contacts or extrapolation
        self._controlled = (model.settings.error_tolerance > 0 and not model.contacts.enabled
                            and not extrapolated)
        self._body_lengths = error_control.body_lengths(model.body_mass, model.body_inertia)  # (n,) m
        self._body_errors = np.zeros(len(model.body_names))  # (n,) m, each body's last estimated error
        self._error_control = np.zeros(CONTROL_SIZE)  # kernels/error_control's control, carried
        self._error_control[[PROPOSED, CHECK_EVERY, SMALLEST_SUBSTEP]] = self.h, 1.0, self.h
        for body in np.flatnonzero(model.body_animated):  # where its motion is at the start, and how it moves
            motion.motion_at(instant.arrays, body, 0.0, state.frames.position[body], state.frames.rotation[body],
                             state.twist[body, :3], state.twist[body, 3:])
        self._free_bodies = free_bodies(model)  # (f,) bodies that turn torque-free, watched (free_turn.py)
        self._free_energy = rotation_energy(model, self._free_bodies, state.frames.rotation, state.twist)  # (f,) J
        self.warnings: list[str] = []  # what runs but may not be what was meant, each naming its bodies
        self._contact_step = ContactStep(model, instant, sleep, self.stats) if model.contacts.enabled else None
        if self._contact_step is not None:
            self.warnings += self._contact_step.start()

    # --- stepping --------------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.instant.state

    @state.setter
    def state(self, state: State) -> None:
        self.instant.state = state
        self.instant.invalidate()

    @property
    def time(self) -> float:
        return self.state.time

    @property
    def arrays(self):
        """The model's arrays as the kernels see them now: ModelArrays with the sleeping bodies fixed."""
        return self.instant.arrays

    @property
    def substep(self) -> float:
        """The internal step now: h, h halved while the corrections struggle (Schmitt §5), or the
        length the error controller proposes (error_tolerance)."""
        return self._substep

    def step(self) -> None:
        """Advance the mechanism by one step h."""
        contact_step = self._contact_step
        if self._controlled:
            self._advance_controlled(1)
        elif contact_step is None:
            self._advance_jointed(self.h, 1, counted=False)
        elif contact_step.sleep.nothing_moves:  # every body asleep and none animated: nothing can wake them
            self.state.time += self.h
        else:
            start = Frames(self.state.frames.position.copy(), self.state.frames.rotation.copy())
            if self.model.settings.extrapolation == "richardson":
                self._richardson_step()
            else:
                self._advance(self.h)
            contact_step.fall_asleep(self.h, start)
        self.stats["steps"] += 1
        self._watch_free_turns()

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
        shorten to the next impact of a pair that bounces, no longer than a spinning body on a joint
        allows (kernels/flight.whirl_step, as the steps of mechanisms without contacts)."""
        end = self.state.time + duration
        remaining = duration
        substeps = 0
        last_failure = None  # why the step was last halved
        while remaining > 1e-9 * duration:
            substeps += 1
            if substeps > MAX_SUBSTEPS:
                raise self._stopped_short(TOO_MANY_SUBSTEPS, last_failure)
            h = min(self._substep, remaining)
            if self.instant.jointed is not None:  # a body no joint holds flies exactly (flight.whirl_rate)
                h = self._whirl_step(self.instant.arrays, self.state.frames.rotation, self.state.twist, h, self.h)
            saved = self.state.copy()
            failure = self._try_substep(h)
            lcp = self.model.settings.contact_method == "lcp"
            if isinstance(failure, Failure) and failure.status == LCP_GAVE_UP:  # this sub-step, the impulse way
                self.stats["lcp_fallbacks"] += 1
                self.state = saved.copy()
                lcp = False
                failure = self._try_substep(h, lcp=lcp)
            if isinstance(failure, float):  # a bouncing collision ahead: step exactly to it (Schmitt §11)
                h = failure
                self.state = saved.copy()
                failure = self._try_substep(h, shortened=True, lcp=lcp)
            assert not isinstance(failure, float)  # a step shortened to an impact looks for none ahead
            if failure is None:
                remaining -= h
                self._good_in_a_row += 1
                if self._good_in_a_row >= GROW_AFTER and self._substep < self.h:
                    self._substep, self._good_in_a_row = min(2 * self._substep, self.h), 0
                continue
            last_failure = failure
            self.state = saved
            self._substep /= 2
            self._good_in_a_row = 0
            self.stats["halvings"] += 1
            if self._substep < self.h / 2**MAX_HALVINGS:
                raise self._stopped_short(TOO_SHORT, failure, h)
        self.state.time = end

    def _advance_jointed(self, duration: float, steps: int, counted: bool) -> None:
        """`steps` steps of `duration` for a mechanism without contacts, sub-steps and their halvings
        as in _advance, in one kernel call (kernels/correction.advance_steps; each step of h combined
        from steps of h and h/2 when the extrapolation is Richardson's, kernels/richardson). counted:
        the steps go into stats["steps"] (step() counts its own)."""
        k, instant = self._kernels, self.instant
        richardson = self.model.settings.extrapolation == "richardson"
        if richardson or instant.jointed is None:
            instant.ensure_rows()
        arrays = instant.state_arrays()
        control = np.array([self._substep, self._good_in_a_row], dtype=np.float64)
        if richardson:  # Richardson's steps are whole steps of h
            assert duration == self.h
            done, stopped, status, index, size, length = self._richardson_steps(
                instant.arrays, instant.settings, arrays, self._saved, self._start, self._coarse, instant.rows,
                instant.flight, instant.work, self.h, steps, control, instant.counters, instant.driven)
        else:
            done, stopped, status, index, size, length = k.advance_steps(
                instant.arrays, instant.settings, arrays, self._saved, instant.rows, instant.flight, instant.work,
                duration, steps, self.h, control, instant.counters, instant.driven, instant.rows_valid)
        instant.rows_valid = True  # the kernel built them if they were not, and left them at the new instant
        self._take_control(arrays, control)
        if counted:
            self.stats["steps"] += done
        if stopped:
            raise self._stopped_short(stopped, kernel_failure(status, index, size, length), length)

    def _advance_controlled(self, steps: int) -> None:
        """`steps` steps of h for a mechanism without contacts under error control, in one kernel call
        (kernels/error_control.controlled_steps: error_control.py's rule)."""
        instant = self.instant
        instant.ensure_rows()
        arrays = instant.state_arrays()
        inner = np.array([self._substep, self._good_in_a_row], dtype=np.float64)
        done, stopped, status, index, size, length = self._controlled_steps(
            instant.arrays, instant.settings, arrays, self._saved, self._start, self._coarse, instant.rows,
            instant.flight, instant.work, steps, self.h, self.model.settings.error_tolerance, self._body_lengths,
            self._body_errors, self._error_control, inner, instant.counters, instant.driven)
        self._take_control(arrays, inner)
        control = self._error_control
        self.stats["rejected"] = int(control[REJECTED])
        self.stats["smallest_substep"] = float(control[SMALLEST_SUBSTEP])
        self.stats["largest_error_ratio"] = float(control[LARGEST_RATIO])
        if stopped == TOO_INACCURATE:
            body = self.model.body_names[int(index)]
            raise SimulationDiverged(
                f"simulation diverged at t = {self.state.time:.6g} s: body '{body}' kept a step's error of "
                f"{size:.3g} m at a step of {length:.3g} s, above error_tolerance "
                f"{self.model.settings.error_tolerance:g} m/s; the steps may not shrink below h / 2^16",
                self.state.time, None, body)
        if stopped:
            raise self._stopped_short(stopped, kernel_failure(status, index, size, length), length)

    def _take_control(self, arrays: StateArrays, control: np.ndarray) -> None:
        """After a kernel call that stepped the state: its time, the sub-step length and run of good
        sub-steps the kernel left in `control`, and the kernel's counters into the stats."""
        self.state.time = float(arrays.time[0])
        self._substep, self._good_in_a_row = float(control[0]), int(control[1])
        self.instant.count_into(self.stats)

    def _stopped_short(self, stopped: int, failure: "Failure | None", length: float = 0.0) -> SimulationDiverged:
        """The error for a step that stopped short (`stopped`: TOO_MANY_SUBSTEPS, or TOO_SHORT: halved
        below h / 2^MAX_HALVINGS), from its last failure, of a sub-step of `length`."""
        limit = (f"the step needed more than {MAX_SUBSTEPS} sub-steps" if stopped == TOO_MANY_SUBSTEPS
                 else f"even at step {2 * self._substep:.3g} s")
        return self._diverged(failure, limit, length)

    def local_error(self, length: float) -> np.ndarray:
        """(n,) each body's estimated local error, m, of a sub-step of `length` s from the state now
        (kernels/error_control.estimated_substep); the state and the sub-step length are left as they
        were. A mechanism without contacts."""
        instant = self.instant
        instant.ensure_rows()
        start = self.state.copy()
        arrays = instant.state_arrays()
        inner = np.array([length, 0.0])
        self._estimated_substep(instant.arrays, instant.settings, arrays, self._saved, self._start, self._coarse,
                                instant.rows, instant.flight, instant.work, length, self.h, inner,
                                self._body_lengths, self._body_errors, instant.counters, instant.driven)
        instant.counters[:] = 0
        self.state = start
        return self._body_errors.copy()

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

    def _try_substep(self, h: float, shortened: bool = False, lcp: bool | None = None) -> Failure | float | None:
        """One sub-step of length h with contacts (contact/step.py); None on success, a shorter step to
        take instead when a collision lies ahead, else why it failed."""
        instant, contact_step = self.instant, self._contact_step
        assert contact_step is not None
        instant.ensure_rows()
        lcp = self.model.settings.contact_method == "lcp" if lcp is None else lcp
        failure = contact_step.substep(h, shortened, lcp)
        instant.count_into(self.stats)
        if failure is not None:
            return failure
        instant.rows_valid = True  # the kernels built the rows at the new instant
        self.stats["substeps"] += 1
        return None

    def _richardson_step(self) -> None:
        """Schmitt §8 for a scene with contacts: its steps of h and h/2 taken here, combined by
        kernels/richardson.combine_on_the_joints as the compiled steps of mechanisms without contacts are."""
        start = self.state.copy()
        self._advance(self.h)
        coarse = self.instant.state_arrays()
        self.state = start
        self._advance(0.5 * self.h)
        self._advance(0.5 * self.h)
        # combined into the fine steps' arrays; the contacts touching stay those the fine steps left,
        # so the next step tells an impact from a rest as a plain run would
        instant = self.instant
        self._combine(instant.arrays, instant.settings, coarse, instant.state_arrays(), self._saved, instant.rows,
                      instant.work, instant.counters)
        instant.invalidate()  # the arrays were combined in place
        instant.count_into(self.stats)

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
        rotation = self.state.frames.rotation[body]
        last = self._orientations.get(body)  # a body at rest keeps its rotation and so its quaternion
        if last is None or not np.array_equal(last[0], rotation):
            last = self._orientations[body] = (rotation.copy(), self.model.user_orientation(rotation, body))
        return last[1].copy()

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
        arrays, work = self.instant.arrays, self.instant.work
        self._kernels.joint_errors(arrays, self.state.frames.position, self.state.frames.rotation, work)
        self._kernels.joint_gaps(arrays, work.errors, work.gaps)
        return work.gaps.copy()

    def joint_rates(self) -> np.ndarray:
        """(m,) every joint's velocity error now, m/s (angular rows as rad/s on a 1 m lever)."""
        instant = self.instant
        instant.ensure_rows()
        self._rows_kernels.rates(instant.arrays, instant.rows, self.state.twist, instant.work.errors)
        self._kernels.joint_gaps(instant.arrays, instant.work.errors, instant.work.gaps)
        return instant.work.gaps.copy()

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


__all__ = ["Simulation"]
