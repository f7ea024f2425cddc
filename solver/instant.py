"""The state and what the kernels keep of its instant, shared by the stepping (simulation.py) and the
contact step (contact/step.py): the joints' rows at the state's instant, the look-ahead flight from
it, the work arrays and the counters the kernels add to. Whoever changes the state says so
(`invalidate`); the rows and the flight are then built again when next asked for."""
import numpy as np

from .arrays import (ContactRowArrays, StateArrays, drives_flag, flight_arrays, joint_islands, joints_flag, row_arrays,
                     solver_settings, work_arrays)
from .codes import COUNTER_NAMES
from .energy_gate import gate_settings
from .state import State


class Instant:
    def __init__(self, model, arrays, state: State):
        """arrays: the ModelArrays the kernels see (sleeping bodies fixed, sleeping.py); changed in place."""
        from .kernels import flight, rows, warm_start  # numba and the compiled kernels load with the first simulation
        from .kernels.contact import contact_rows

        self._fly_kernel, self._rows_kernels, self._contact_rows = flight.fly, rows, contact_rows
        self._forget_guesses = warm_start.forget
        self.arrays = arrays
        self.driven = drives_flag(arrays)  # the kernels' `driven`: None when the model has no drives or motion
        self.jointed = joints_flag(arrays)  # the contact step's kernels' `jointed`: None when it has no joints
        self.settings = solver_settings(model.settings, gate_settings(model))
        self.state = state
        self.rows = row_arrays(model)  # the joints' rows at the state's instant, when rows_valid
        self.rows_valid = False
        self.flight = flight_arrays(model)  # the look-ahead over the last h asked, when flight_valid
        self.flight_valid = False
        self.work = work_arrays(model)
        self.counters = np.zeros(len(COUNTER_NAMES), dtype=np.int64)  # codes.COUNTER_NAMES
        self._islands = joint_islands(arrays)  # what a contact's impulse can move (rows_through_joints)
        self._nothing_held = np.zeros(len(arrays.axis_joint), dtype=bool)  # (q,) no motor holds its axis

    @property
    def time(self) -> float:
        return self.state.time

    def invalidate(self) -> None:
        """The state was replaced or moved: its rows and look-ahead are to be built again, and the joint
        correction's warm start waits for two sub-steps from it."""
        self.rows_valid = self.flight_valid = False
        self._forget_guesses(self.work)

    def ensure_rows(self) -> None:
        if not self.rows_valid:
            frames = self.state.frames
            if self.jointed is None:
                self._rows_kernels.world_inverse_inertia(self.arrays, frames.rotation, self.rows)
            else:
                self._rows_kernels.build(self.arrays, self.settings.solver, frames.position, frames.rotation, self.rows)
            self.rows_valid = True

    def fly(self, h: float) -> None:
        """The look-ahead flight over h from now, unless the one held is still valid."""
        if not self.flight_valid:
            state = self.state
            self._fly_kernel(self.arrays, self.settings.taylor_order, state.time, state.frames.position,
                             state.frames.rotation, state.twist, h, self.flight, self.driven)
            self.flight_valid = True

    def state_arrays(self) -> StateArrays:
        """The state as the kernels take it: views of its arrays, the time a (1,) copy."""
        state = self.state
        return StateArrays(state.frames.position, state.frames.rotation, state.twist, state.axis_coordinate,
                           np.array([state.time]))

    def spare_state(self) -> StateArrays:
        """State arrays of the state's shapes, for a kernel to keep a copy in."""
        state = self.state
        return StateArrays(np.empty_like(state.frames.position), np.empty_like(state.frames.rotation),
                           np.empty_like(state.twist), np.empty_like(state.axis_coordinate), np.zeros(1))

    def count_into(self, stats: dict) -> None:
        """Adds the kernels' counters to `stats` and clears them."""
        for name, count in zip(COUNTER_NAMES, self.counters):
            stats[name] += int(count)
        self.counters[:] = 0

    def _held(self, hold) -> tuple:
        """(q,) the motor axes `hold` (contact/motor_hold.MotorHold, or None) holds, and their C_HH^-1."""
        return (hold.hold, hold.inverse) if hold is not None else (self._nothing_held, np.zeros((0, 0)))

    def contact_rows(self, contacts, hold=None) -> tuple:
        """The rows of `contacts` (contact/detection.Contacts) now, with their responses through the
        joints and the motor axes `hold` holds, as kernels/contact/contact_rows.contact_rows_at gives
        them: (ContactRowArrays, directions, material points, each contact's block of K, separation)."""
        self.ensure_rows()
        held, inverse = self._held(hold)
        frames = self.state.frames
        return self._contact_rows.contact_rows_at(
            self.arrays, self.rows, self.jointed, frames.position, frames.rotation, *self._islands, contacts.body_a,
            contacts.body_b, contacts.probe_b, contacts.radius, contacts.surface_a, contacts.normal_a, held, inverse)

    def rows_through_joints(self, body_a, body_b, point, directions, hold=None) -> ContactRowArrays:
        """Contact rows along (m, d, 3) directions at (m, 3) world points of bodies a and b, now, with
        their responses through the joints and the motor axes `hold` holds (contact/motor_hold.MotorHold,
        or None; kernels/contact/contact_rows.py)."""
        self.ensure_rows()
        body_a, body_b = np.asarray(body_a, dtype=np.int64), np.asarray(body_b, dtype=np.int64)
        held, inverse = self._held(hold)
        return ContactRowArrays(np.column_stack((body_a, body_b)), *self._contact_rows.jacobian_and_response(
            self.arrays, self.rows, self.jointed, self.state.frames.position, *self._islands, body_a, body_b, point,
            directions, held, inverse))
