"""The motors that hold their axes while the contacts are solved (kernels/contact/held_motors.py), within
their torque budgets: in P-step 4, after the joints' and drives' velocity correction, and in the LCP's
position stage. Each motor has spent part of its budget for the stage; the contacts' impulses then
make the motors answer. A motor whose answer would overdraw its budget is released: the contacts'
impulses are taken back, the motor gives its whole budget (at its bound, as a saturated motor of the
drives' own solve is), and the contacts are solved again with the motors left held. Releasing only,
never taking back, this ends within as many rounds as there are motors."""
import numpy as np

from .. import drives

# A motor's answer may exceed its budget by this fraction (rounding) before it is released
BUDGET_SLACK = 1e-9


def holding_motors(arrays) -> np.ndarray:
    """(D,) bool: the drives that hold their axes against contacts, the motors with torque to give."""
    kind = arrays.drive_kind
    return ((kind == drives.MOTOR_POSITION) | (kind == drives.MOTOR_VELOCITY)) & (arrays.drive_max_effort > 0)


def stage_budget(arrays, motors: np.ndarray, h: float, before_flight: bool) -> np.ndarray:
    """The budgets of `motors` (drive indices) for a stage of a step of h: max effort times h, but
    before the flight half of it for a velocity motor, whose other half is the velocity correction's:
    at its limit the pair is the centred impulse of Schmitt §8, as in the drives' own solve
    (kernels/drives.solve_loop_drives)."""
    velocity = arrays.drive_kind[motors] == drives.MOTOR_VELOCITY
    return np.where(before_flight & velocity, 0.5, 1.0) * arrays.drive_max_effort[motors] * h


class MotorHold:
    """Which motor axes hold (hold (q,) bool), C_HH^-1 over them (inverse (q, q)), and each axis's
    budget for the step and what its motors have spent of it (budget, spent (q,), N s or N m s)."""

    def __init__(self, arrays, rows, spent_by_drive: np.ndarray, h: float, kernels, before_flight: bool = False):
        """arrays, rows: the model's arrays and the rows at this instant; spent_by_drive (D,): each
        drive's impulse so far this step, which `charge` adds the motors' answers to; kernels:
        kernels/contact/held_motors; before_flight: the hold of the position stage, where a velocity
        motor has half its budget (stage_budget)."""
        q = len(arrays.axis_joint)
        motors = np.flatnonzero(holding_motors(arrays))
        axis = arrays.drive_axis[motors]
        self.hold = np.zeros(q, dtype=bool)
        self.hold[axis] = True
        self.budget, self.spent = np.zeros(q), np.zeros(q)
        np.add.at(self.budget, axis, stage_budget(arrays, motors, h, before_flight))
        np.add.at(self.spent, axis, spent_by_drive[motors])
        # a motor already at its limit has not reached its goal: it goes on pushing at its bound, and its
        # axis moves as the contacts move it
        self.hold &= np.abs(self.spent) < self.budget * (1.0 - BUDGET_SLACK)
        self._spent_by_drive, self._spent_before = spent_by_drive, self.spent.copy()
        self._first_motor = np.full(q, -1)  # (q,) the motor of each axis that is charged with its answers
        self._first_motor[axis[::-1]] = motors[::-1]
        self._arrays, self._rows, self._kernels = arrays, rows, kernels
        self.inverse = kernels.held_inverse(arrays, rows, self.hold)

    def overdrawn(self, answer: np.ndarray) -> np.ndarray:
        """(q,) bool: the held axes whose motors' answer (q,) to the contacts overdraws their budget."""
        return self.hold & (np.abs(self.spent + answer) > self.budget * (1.0 + BUDGET_SLACK))

    def charge(self, answer: np.ndarray) -> None:
        """Adds what the motors gave since this hold began, `answer` (q,) to the contacts just solved
        included, to the drives' impulses spent this step."""
        given = self.spent + answer - self._spent_before
        axes = np.flatnonzero(self._first_motor >= 0)
        self._spent_by_drive[self._first_motor[axes]] += given[axes]

    def release(self, axes: np.ndarray, answer: np.ndarray, twist: np.ndarray) -> None:
        """Lets the motors of `axes` (q,) bool go: each gives its whole budget to the (n, 6) twist, in
        the direction its answer (q,) to the contacts took it, with the motors left held answering."""
        bound = np.sign(self.spent + answer) * self.budget
        self.hold &= ~axes
        self.inverse = self._kernels.held_inverse(self._arrays, self._rows, self.hold)
        for axis in np.flatnonzero(axes):
            self._kernels.push_axis(self._arrays, self._rows, self.hold, self.inverse, axis,
                                    bound[axis] - self.spent[axis], twist, self.spent)
            self.spent[axis] = bound[axis]
