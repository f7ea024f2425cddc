"""The correction stages of one step: drive impulses, joint correction by look-ahead (Schmitt §5,
P-steps 1-2), and velocity correction (§6, P-step 4). Every impulse is a complementary pair, so the
bodies' total momentum is untouched and time stands still while they act (§4).
"""
import numpy as np

from . import drives as d
from .integrator import Flight, fly
from .rows import joint_errors
from .state import unwrap

# Schmitt §5 halves the step when a gap grows. Gauss-Seidel sweeps need not shrink the worst gap
# every time, so growth means: four times the worst gap the step started with. (Halving on smaller
# wobbles does harm: at a tiny step a gap near Dmax is closed by an impulse of Dmax / h.)
GROWTH_LIMIT = 4.0

# An axis row whose stiffness through the joints is this small is locked by them: nothing to drive.
LOCKED = 1e-9

VELOCITY_DRIVES = (d.LOWER_LIMIT, d.UPPER_LIMIT, d.MOTOR_POSITION, d.MOTOR_VELOCITY)
CONTACT_TIGHTNESS = 1e-3  # contact impulses converge to this fraction of Dmax per step

LOOP_DRIVES = (d.LOWER_LIMIT, d.UPPER_LIMIT, d.MOTOR_POSITION, d.MOTOR_VELOCITY, d.BRAKE, d.SPRING_SOFT)


def joint_gaps(model, row_errors: np.ndarray) -> np.ndarray:
    """(m,) size of each joint's error; angular rows count as rad on a 1 m lever."""
    return np.sqrt(np.bincount(model.row_joint, row_errors**2, minlength=len(model.joint_names)))


def look_ahead(model, state, h: float):
    return fly(model, state.frames, state.twist, h)


def apply_explicit_forces(model, state, rows, dt: float) -> None:
    """Springs of method 'impulse' as an impulse F dt (Schmitt 9.2 and its damping form). Called with
    dt = h/2 before and after the ballistic motion, the pair is the centred impulse of §8."""
    twist = state.twist.reshape(-1)
    for k, drive in enumerate(model.drives):
        if drive.kind == d.SPRING_IMPULSE:
            axis = model.drive_axis[k]
            rate = rows.axis_jacobian[axis] @ twist
            t = state.time
            force = -drive.stiffness(t) * (state.axis_coordinate[axis] - drive.value(t)) - drive.damping(t) * rate
            twist += rows.axis_response[:, axis] * (force * dt)


class PositionCorrection:
    """P-steps 1 and 2 for one step h, with the loop drives solved alongside."""

    def __init__(self, model, state, rows, stages, h: float, stats: dict, contact_rows=None):
        self.model, self.state, self.rows, self.stages, self.h, self.stats = model, state, rows, stages, h, stats
        self.contact_rows = contact_rows  # Schmitt §11 contact pairs, solved alongside the joints
        self.accumulated = np.zeros(len(model.drives))
        self.loop_drives = [k for k, drive in enumerate(model.drives) if drive.kind in LOOP_DRIVES]
        self.worst_joint: int | None = None
        self.worst_gap = 0.0
        self.flight: Flight | None = None  # the last look-ahead, valid for P-step 3 when no impulse followed it

    def run(self) -> bool:
        """True when every joint's look-ahead gap is below dmax; False asks the caller to halve h
        (Schmitt §5: a gap that grows, or no convergence within max_corrections sweeps)."""
        if not self.stages and not self.loop_drives and self.contact_rows is None:
            self.flight = look_ahead(self.model, self.state, self.h)
            return True
        settings = self.model.settings
        first_worst = None
        joints_settled = False
        for _ in range(settings.max_corrections):
            self.flight = look_ahead(self.model, self.state, self.h)
            frames_h = self.flight.frames
            errors = joint_errors(self.model, frames_h)
            gaps = joint_gaps(self.model, errors)
            self._note_worst(gaps)
            first_worst = self.worst_gap if first_worst is None else first_worst
            if not np.isfinite(self.worst_gap) or self.worst_gap > GROWTH_LIMIT * max(first_worst, settings.dmax):
                return False
            coordinate_h = unwrap(self.model, self.model.raw_coordinates(frames_h), self.state.axis_coordinate)
            rate_at_look = self.rows.axis_jacobian @ self.state.twist.reshape(-1)
            if self.contact_rows is not None:
                gap_h, slip_h = self.contact_rows.slip_and_gap(frames_h)
                contact_rates = self.contact_rows.rates(self.state.twist.reshape(-1))
            corrected = 0
            for number, stage in enumerate(self.stages):
                if number > 0 and corrected:
                    self.flight = look_ahead(self.model, self.state, self.h)
                    errors = joint_errors(self.model, self.flight.frames)
                    gaps = joint_gaps(self.model, errors)
                corrected += self._correct(stage, errors, gaps)
            drive_change = self._solve_drives(coordinate_h, rate_at_look)
            joints_settled = corrected == 0 and drive_change < settings.dmax
            contact_change = 0.0
            if self.contact_rows is not None:
                # a resting body must not creep: its contacts converge far below Dmax per step
                contact_change = self.contact_rows.solve(self.state.twist.reshape(-1), gap_h, slip_h, contact_rates,
                                                         self.h) / CONTACT_TIGHTNESS
            if corrected or drive_change or contact_change:
                self.flight = None
            if joints_settled and contact_change < settings.dmax:
                return True
        # out of sweeps: the step stands if only the contacts' tight tolerance is missing (a smaller
        # step would not converge them faster); the joints' failure halves it
        return joints_settled and self.contact_rows is not None

    def _note_worst(self, gaps: np.ndarray) -> None:
        if len(gaps):
            worst = int(np.argmax(gaps))
            self.worst_joint, self.worst_gap = worst, float(gaps[worst])

    def _correct(self, stage, errors: np.ndarray, gaps: np.ndarray) -> int:
        """Schmitt P-step 2 for every joint of the stage whose gap >= dmax: I = K^-1 delta / h."""
        violating = gaps[stage.joints] >= self.model.settings.dmax
        count = int(violating.sum())
        if count:
            rhs = errors[stage.rows] * violating[stage.row_owner]
            impulse = -(stage.inverse @ rhs) / self.h
            self.state.twist.reshape(-1)[:] += self.rows.response[:, stage.rows] @ impulse
            self.stats["corrections"] += count
            self.stats["solves"] += 1
        return count

    def _solve_drives(self, coordinate_h: np.ndarray, rate_at_look: np.ndarray) -> float:
        """One projected Gauss-Seidel pass over the loop drives; returns the largest change, as the
        distance it moves its joint coordinate over h."""
        model, rows, h = self.model, self.rows, self.h
        twist = self.state.twist.reshape(-1)
        t_end = self.state.time + h
        response, stiffnesses = rows.through_joints(model)
        largest = 0.0
        for k in self.loop_drives:
            drive, axis = model.drives[k], model.drive_axis[k]
            stiffness = stiffnesses[axis]
            if stiffness <= LOCKED:
                continue
            rate = rows.axis_jacobian[axis] @ twist
            # the look-ahead coordinate, moved on by what impulses since the look-ahead changed
            predicted = coordinate_h[axis] + h * (rate - rate_at_look[axis])
            lower, upper = -np.inf, np.inf
            if drive.kind in (d.LOWER_LIMIT, d.UPPER_LIMIT, d.MOTOR_POSITION):
                goal = drive.value(t_end) if drive.kind != d.MOTOR_POSITION else drive.target(t_end) + drive.offset
                change = -(predicted - goal) / (h * stiffness)
                if drive.kind == d.LOWER_LIMIT:
                    lower = 0.0
                elif drive.kind == d.UPPER_LIMIT:
                    upper = 0.0
                else:
                    lower, upper = -drive.max_effort * h, drive.max_effort * h
            elif drive.kind == d.MOTOR_VELOCITY:
                change = -(rate - drive.target(self.state.time + 0.5 * h)) / stiffness
                lower, upper = -drive.max_effort * h, drive.max_effort * h
            else:
                secant = (predicted - self.state.axis_coordinate[axis]) / h
                change = self._soft_change(drive, t_end, predicted, secant, stiffness, self.accumulated[k])
            total = min(max(self.accumulated[k] + change, lower), upper)
            change = total - self.accumulated[k]
            self.accumulated[k] = total
            twist += response[:, axis] * change
            largest = max(largest, abs(change) * stiffness * h)
        return largest

    def _soft_change(self, drive, t: float, predicted: float, secant: float, stiffness: float,
                     accumulated: float) -> float:
        """Strashnov (13, 15), multiplied through by h (k h + c): the step's impulse l must satisfy
        l + h k (G(t+h) - rest) + h c s = 0, implicit Euler for the spring-damper. Strashnov's
        x(t+h) = x(t) + h v(t+h) makes his v the secant velocity s over the step; ours is the
        predicted coordinate's secant, which also carries gravity's g h^2 / 2 within the flight, so a
        resting spring holds exactly m g / k. Both G(t+h) and s move by K dl per impulse dl. A brake
        is the k = 0 case."""
        h = self.h
        spring = drive.stiffness(t) if drive.kind == d.SPRING_SOFT else 0.0
        damping = drive.damping(t)
        if spring * h + damping <= 0:
            return 0.0
        stretch = predicted - drive.value(t) if drive.kind == d.SPRING_SOFT else 0.0
        residual = accumulated + h * spring * stretch + h * damping * secant
        return -residual / (1.0 + h * (spring * h + damping) * stiffness)


def correct_velocities(model, state, rows, stages, h: float, spent: np.ndarray, stats: dict) -> None:
    """Schmitt P-step 4: complementary impulses until no joint's rate exceeds vmax. Limits that are
    reached take part as one-sided rows, motors as rows that bring their rate to the target's rate
    with what is left of their force or torque budget for the step (`spent`: the drive impulses the
    position correction already applied)."""
    settings = model.settings
    twist = state.twist.reshape(-1)
    drives = [k for k, drive in enumerate(model.drives) if drive.kind in VELOCITY_DRIVES]
    is_motor = np.array([drive.kind in (d.MOTOR_POSITION, d.MOTOR_VELOCITY) for drive in model.drives], dtype=bool)
    accumulated = np.where(is_motor, spent, 0.0)
    for _ in range(settings.max_corrections):
        rates = rows.jacobian @ twist
        worst = joint_gaps(model, rates).max(initial=0.0)
        drive_change = _drive_velocities(model, state, rows, drives, accumulated, h)
        if worst < settings.vmax and drive_change < settings.vmax:
            return
        for number, stage in enumerate(stages):
            if number > 0:
                rates = rows.jacobian @ twist
            impulse = -(stage.inverse @ rates[stage.rows])
            twist += rows.response[:, stage.rows] @ impulse
            stats["velocity_solves"] += 1


def _drive_velocities(model, state, rows, drives, accumulated, h: float) -> float:
    if not drives:
        return 0.0
    twist = state.twist.reshape(-1)
    response, stiffnesses = rows.through_joints(model)
    largest = 0.0
    for k in drives:
        drive, axis = model.drives[k], model.drive_axis[k]
        stiffness = stiffnesses[axis]
        if stiffness <= LOCKED:
            continue
        rate = rows.axis_jacobian[axis] @ twist
        if drive.kind in (d.LOWER_LIMIT, d.UPPER_LIMIT):
            beyond = state.axis_coordinate[axis] - drive.value(state.time)
            reached = beyond <= model.settings.dmax if drive.kind == d.LOWER_LIMIT else beyond >= -model.settings.dmax
            if not reached:
                continue
            change = -rate / stiffness
            lower, upper = (0.0, np.inf) if drive.kind == d.LOWER_LIMIT else (-np.inf, 0.0)
        else:
            goal = drive.target(state.time) if drive.kind == d.MOTOR_VELOCITY else drive.target.rate(state.time)
            change = -(rate - goal) / stiffness
            lower, upper = -drive.max_effort * h, drive.max_effort * h
        total = min(max(accumulated[k] + change, lower), upper)
        change = total - accumulated[k]
        accumulated[k] = total
        twist += response[:, axis] * change
        largest = max(largest, abs(change) * stiffness)
    return largest
