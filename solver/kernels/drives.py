"""Drives in kernels: what acts along a joint's own coordinate. Explicit springs and applied efforts
are centred impulses outside the correction loop (Schmitt 9.2, §8); limits, motors, soft springs and
brakes are scalar rows on an accumulated impulse inside it (P-steps 1-2), and limits and motors again
in the velocity correction (P-step 4): each stage's limits and motors solved together (drive_system),
soft springs and brakes by projected Gauss-Seidel. They act through the joints (rows.through_joints)."""
import numpy as np

from ..drives import (BRAKE, EFFORT, LOWER_LIMIT, MOTOR_POSITION, MOTOR_VELOCITY, SPRING_IMPULSE, SPRING_SOFT,
                      UPPER_LIMIT)
from . import rows as joint_rows
from .drive_system import solve_drive_rows
from .jit import borrowing_entry_kernel, borrowing_kernel
from .rows import LOCKED
from .schedule import DAMPING, STIFFNESS, TARGET, VALUE, drive_value, next_stop, rate


@borrowing_kernel
def is_explicit_drive(kind):
    """Acts as a force given by the state and the time, outside the correction loop (apply_explicit_forces)."""
    return kind == SPRING_IMPULSE or kind == EFFORT


@borrowing_kernel
def is_loop_drive(kind):
    return not is_explicit_drive(kind)


@borrowing_kernel
def is_velocity_drive(kind):
    return kind == LOWER_LIMIT or kind == UPPER_LIMIT or kind == MOTOR_POSITION or kind == MOTOR_VELOCITY


@borrowing_kernel
def has_loop_drives(model):
    for k in range(model.drive_kind.shape[0]):
        if is_loop_drive(model.drive_kind[k]):
            return True
    return False


@borrowing_entry_kernel
def apply_explicit_forces(model, rows, twist, axis_coordinate, t, dt):
    """Springs of method 'impulse' (Schmitt 9.2 and its damping form) and applied efforts (the torque
    or force their schedule gives at t) as an impulse F dt along the axis; called with dt = h/2 at
    the step's start and again at its end, after the ballistic motion, the pair is the centred
    impulse of §8 (for an effort, the trapezoidal rule over its schedule)."""
    for k in range(model.drive_kind.shape[0]):
        kind = model.drive_kind[k]
        if not is_explicit_drive(kind):
            continue
        a = model.drive_axis[k]
        if kind == EFFORT:
            force = drive_value(model, k, VALUE, t)
        else:
            velocity = joint_rows.axis_rate(model, rows, a, twist)
            force = (-drive_value(model, k, STIFFNESS, t) * (axis_coordinate[a] - drive_value(model, k, VALUE, t))
                     - drive_value(model, k, DAMPING, t) * velocity)
        j = model.axis_joint[a]
        for side in range(2):
            body = model.joint_body[j, side]
            for i in range(6):
                twist[body, i] += rows.axis_response[a, side, i] * (force * dt)


@borrowing_kernel
def servo_outlook(model, rows, twist, axis_coordinate, t, h):
    """rows.axis_rate_now and rows.servo_left: every drive's axis rate, and every position servo's way
    to where its target next stops after this step (from t + h: a target that turns back at a key
    within the step has left that stop behind, and a servo that reached it there, to round-off, is
    not held to it), as the stage's twist has them. Each servo's stop_bound reads all of its
    neighbours', and the twist holds still while a stage asks its drives (they act together after),
    so they are found once a stage, not once a servo."""
    for k in range(model.drive_kind.shape[0]):
        a = model.drive_axis[k]
        rows.axis_rate_now[a] = joint_rows.axis_rate(model, rows, a, twist)
        if model.drive_kind[k] != MOTOR_POSITION:
            continue
        rows.servo_left[k] = (next_stop(model, model.drive_schedule[k, TARGET], t + h) + model.drive_offset[k]
                              - axis_coordinate[a])


@borrowing_kernel
def servo_rate(model, rows, k, axis_coordinate, t, h):
    """The rate a position servo asks of its joint over the step from t: the target's own rate, plus
    the speed toward the target from which the servo can still stop the joint there after this
    step's move (stopping_speed), and never faster toward where the target next stops (a keyed
    ramp's end) than it can stop there (stop_bound): a target that stops sooner than the servo can
    brake does not carry it past. Far from the target the servo cannot reach that speed and
    accelerates at its limit; then it brakes on the time-optimal curve v = sqrt(2 alpha |e|)
    (continuous time), and as the error e shrinks v tends to e / h, which closes it within the step.
    With unlimited torque it follows its target exactly."""
    schedule = model.drive_schedule[k, TARGET]
    offset = model.drive_offset[k]
    coordinate = axis_coordinate[model.drive_axis[k]]
    target_rate = rate(model, schedule, t)
    if not model.drive_max_effort[k] > 0.0:  # no torque: it asks nothing it could give
        return target_rate
    error = drive_value(model, k, TARGET, t + h) + offset - coordinate - target_rate * h
    asked = target_rate + stopping_speed(model, rows, k, error, h)
    stop = rows.servo_left[k]  # servo_outlook
    if asked * stop > 0.0:
        bound = stop_bound(model, rows, k, stop, h)
        if (asked - bound) * stop > 0.0:
            asked = bound
    return asked


@borrowing_kernel
def stop_bound(model, rows, k, stop, h):
    """The fastest rate toward a point `stop` ahead (not 0) from which servo k stops there, its
    neighbours' motors moving as they will (their rates and ways to their stops: servo_outlook).
    Those motors' impulses leave w = v_a - sum_c G_ac v_c unchanged (rows.servo_coupling), and the
    servo brakes w at alpha; so a neighbouring servo that travels to where its own target stops (more
    than this step's move away) and gets there before then (|left_c| <= |v_c| |v_a| / alpha) hands
    its rate to the servo and carries it G_ac left_c further: w^2 / (2 alpha) + h w =
    |stop - sum_c G_ac left_c|. One that moves on at its rate moves the servo's axis with it, which
    braking on v_a alone allows for; one settling within the step (a holding servo's drift) hands
    nothing worth braking for."""
    alpha = braking_rate(model, rows, k, stop)
    speed = braked_speed(stop, alpha, h)
    if not (alpha > 0.0 and alpha < np.inf):
        return speed
    a = model.drive_axis[k]
    horizon = abs(rows.axis_rate_now[a]) / alpha
    carried = 0.0
    handed = 0.0
    for other in range(model.drive_kind.shape[0]):
        if other == k or model.drive_kind[other] != MOTOR_POSITION:
            continue
        c = model.drive_axis[other]
        coupling = rows.servo_coupling[a, c]
        if coupling == 0.0:
            continue
        velocity, left = rows.axis_rate_now[c], rows.servo_left[other]
        if velocity * left > 0.0 and h * abs(velocity) < abs(left) <= abs(velocity) * horizon:
            carried += coupling * left
            handed += coupling * velocity
    if carried == 0.0 and handed == 0.0:
        return speed
    return speed_to_stop(stop - carried, alpha, h) + handed


@borrowing_kernel
def stopping_speed(model, rows, k, distance, h):
    """The speed v toward a point `distance` ahead from which servo k stops there after this step's
    move: v^2 / (2 alpha) + h v = |distance|, alpha its deceleration (braking_rate). A load it cannot
    beat leaves it nothing to brake with, and it asks to stand still."""
    if distance == 0.0:
        return 0.0
    return braked_speed(distance, braking_rate(model, rows, k, distance), h)


@borrowing_kernel
def braked_speed(distance, alpha, h):
    """stopping_speed for a deceleration alpha: at once (distance / h) without a limit, not at all
    without a deceleration left."""
    if alpha == np.inf:
        return distance / h
    if not alpha > 0.0:
        return 0.0
    return speed_to_stop(distance, alpha, h)


@borrowing_kernel
def speed_to_stop(distance, alpha, h):
    """The positive root of v^2 + 2 alpha h v - 2 alpha |d| = 0, toward d, written to stay exact as alpha grows."""
    if distance == 0.0:
        return 0.0
    return np.sign(distance) * 2.0 * abs(distance) / (h + np.sqrt(h * h + 2.0 * abs(distance) / alpha))


@borrowing_kernel
def braking_rate(model, rows, k, distance):
    """Servo k's deceleration toward a point `distance` ahead (inf without a torque limit): its torque
    over the inertia it moves with the other motors holding (rows.servo_stiffness), less gravity's mean
    pull toward the point over the way there: the load's work along it as what the servo moves turns
    rigidly, load sin(d) + load_rate (1 - cos(d)) for an angle d (load d for a length), over |d|, so
    the energy the torque takes out, less gravity's, is the kinetic energy at its speed. An axis the
    other motors hold entirely takes its inertia through the joints alone."""
    effort = model.drive_max_effort[k]
    if effort == np.inf:
        return np.inf
    a = model.drive_axis[k]
    stiffness = rows.servo_stiffness[a]
    if not stiffness > LOCKED * rows.drive_stiffness[a]:
        stiffness = rows.drive_stiffness[a]
    if distance == 0.0:
        return effort * stiffness
    load, load_rate = rows.servo_load[a], rows.servo_load_rate[a]
    if model.axis_is_angle[a]:
        work = load * np.sin(distance) + load_rate * (1.0 - np.cos(distance))
    else:
        work = load * distance
    return effort * stiffness - max(0.0, work / abs(distance))


@borrowing_entry_kernel
def unstable_explicit_spring(model, rows, t, h):
    """(the first impulse spring the centred explicit scheme cannot carry at step h, or -1; its load).
    One spring alone is stable while its load k h^2 s / 4 + c h s / 2 < 1, s the axis's inverse mass
    through the joints: omega h < 2 undamped (Schmitt §8, and the springs benchmark), c h s < 2
    without stiffness. Springs on one body act together (four corner springs of a box bounce it
    twice as fast as one), so a spring's load sums over the springs coupled to it,
    sqrt(k_i k_j) |coupling| (Gershgorin's bound on the fastest mode). A stiffer spring would gain
    energy every step and explode; the caller halves the step instead."""
    prepared = False
    for k in range(model.drive_kind.shape[0]):
        if model.drive_kind[k] != SPRING_IMPULSE:
            continue
        if not prepared:
            joint_rows.prepare_drive_rows(model, rows)
            prepared = True
        spring, damping = drive_value(model, k, STIFFNESS, t), drive_value(model, k, DAMPING, t)
        stiffness_sum = damping_sum = 0.0
        for other in range(model.drive_kind.shape[0]):
            if model.drive_kind[other] != SPRING_IMPULSE:
                continue
            coupling = abs(joint_rows.axis_coupling(model, rows, model.drive_axis[k], model.drive_axis[other]))
            stiffness_sum += np.sqrt(spring * drive_value(model, other, STIFFNESS, t)) * coupling
            damping_sum += np.sqrt(damping * drive_value(model, other, DAMPING, t)) * coupling
        load = stiffness_sum * h * h / 4.0 + damping_sum * h / 2.0
        if load >= 1.0:
            return k, load
    return -1, 0.0


@borrowing_kernel
def solve_loop_drives(model, rows, twist, axis_coordinate, coordinate_h, rate_at_look, accumulated, t, h,
                      negligible):
    """The loop drives' impulses of one sweep: the limits and motors all at once (drive_system), then a
    projected Gauss-Seidel pass over the soft springs and brakes, whose implicit step a solve at once
    would take through a body's whole turn in the step (a box of tiny inertia on soft springs then
    finds a spinning solution). Returns (the largest change, as the distance it moves its joint
    coordinate over h; whether any was applied). Limit and motor changes that all move their
    coordinates by less than `negligible` are left out, as joints within Dmax are (0: applied
    whatever their size; the soft springs' and brakes' pass applies its own at once, so a model with
    them applies every change)."""
    joint_rows.prepare_drive_rows(model, rows)
    servo_outlook(model, rows, twist, axis_coordinate, t, h)
    t_end = t + h
    count = 0
    for k in range(model.drive_kind.shape[0]):
        kind = model.drive_kind[k]
        if not is_loop_drive(kind):
            continue
        a = model.drive_axis[k]
        if rows.drive_stiffness[a] <= LOCKED:
            continue
        velocity = rows.axis_rate_now[a]
        # the look-ahead coordinate, moved on by what impulses since the look-ahead changed
        predicted = coordinate_h[a] + h * (velocity - rate_at_look[a])
        lower, upper = -np.inf, np.inf
        if kind == LOWER_LIMIT or kind == UPPER_LIMIT:
            asked = -(predicted - drive_value(model, k, VALUE, t_end)) / h
            if kind == LOWER_LIMIT:
                lower = 0.0
            else:
                upper = 0.0
        elif kind == MOTOR_POSITION:  # the look-ahead where the servo's rate over the step takes it
            goal = axis_coordinate[a] + h * servo_rate(model, rows, k, axis_coordinate, t, h)
            asked = -(predicted - goal) / h
            lower, upper = -model.drive_max_effort[k] * h, model.drive_max_effort[k] * h
        elif kind == MOTOR_VELOCITY:
            # half its budget before the flight, the rest in the velocity correction after it: at its
            # limit the pair is the centred impulse of Schmitt §8, as the springs' (apply_explicit_forces)
            asked = -(velocity - drive_value(model, k, TARGET, t + 0.5 * h))
            lower, upper = -0.5 * model.drive_max_effort[k] * h, 0.5 * model.drive_max_effort[k] * h
        else:
            continue  # soft springs and brakes: the pass below
        _take_part(rows, count, k, asked, lower, upper)
        count += 1
    if has_gauss_seidel_drives(model):
        negligible = 0.0
    largest = _apply_drive_rows(model, rows, count, accumulated, twist, negligible / h) * h
    if largest < negligible:
        return largest, False
    for k in range(model.drive_kind.shape[0]):
        kind = model.drive_kind[k]
        if not (kind == SPRING_SOFT or kind == BRAKE):
            continue
        a = model.drive_axis[k]
        stiffness = rows.drive_stiffness[a]
        if stiffness <= LOCKED:
            continue
        predicted = coordinate_h[a] + h * (joint_rows.axis_rate(model, rows, a, twist) - rate_at_look[a])
        secant = (predicted - axis_coordinate[a]) / h
        change = _soft_change(model, k, kind, t_end, predicted, secant, stiffness, accumulated[k], h)
        applied = _project(rows, a, k, change, -np.inf, np.inf, accumulated, twist)
        largest = max(largest, applied * stiffness * h)
    return largest, largest > 0.0


@borrowing_kernel
def has_gauss_seidel_drives(model):
    """Whether the model has soft springs or brakes (solve_loop_drives' pass)."""
    for k in range(model.drive_kind.shape[0]):
        if model.drive_kind[k] == SPRING_SOFT or model.drive_kind[k] == BRAKE:
            return True
    return False


@borrowing_kernel
def drive_velocities(model, rows, twist, axis_coordinate, accumulated, t, h, dmax):
    """P-step 4 for limits that are reached (one-sided rows) and motors (their rate brought to the
    target speed, or for a position servo to its servo_rate, with what is left of their force or
    torque budget for the step), all at once (drive_system); returns the largest change of a rate."""
    joint_rows.prepare_drive_rows(model, rows)
    servo_outlook(model, rows, twist, axis_coordinate, t, h)
    count = 0
    for k in range(model.drive_kind.shape[0]):
        kind = model.drive_kind[k]
        if not is_velocity_drive(kind):
            continue
        a = model.drive_axis[k]
        if rows.drive_stiffness[a] <= LOCKED:
            continue
        velocity = rows.axis_rate_now[a]
        if kind == LOWER_LIMIT or kind == UPPER_LIMIT:
            beyond = axis_coordinate[a] - drive_value(model, k, VALUE, t)
            reached = beyond <= dmax if kind == LOWER_LIMIT else beyond >= -dmax
            if not reached:
                continue
            asked = -velocity
            lower, upper = (0.0, np.inf) if kind == LOWER_LIMIT else (-np.inf, 0.0)
        else:
            if kind == MOTOR_VELOCITY:
                goal = drive_value(model, k, TARGET, t)
            else:
                goal = servo_rate(model, rows, k, axis_coordinate, t, h)
            asked = -(velocity - goal)
            lower, upper = -model.drive_max_effort[k] * h, model.drive_max_effort[k] * h
        _take_part(rows, count, k, asked, lower, upper)
        count += 1
    return _apply_drive_rows(model, rows, count, accumulated, twist, 0.0)


@borrowing_kernel
def _take_part(rows, i, k, asked, lower, upper):
    """Drive k as row i of the stage's system (drive_system)."""
    rows.drive_taking_part[i] = k
    rows.drive_asked[i] = asked
    rows.drive_lower[i] = lower
    rows.drive_upper[i] = upper


@borrowing_kernel
def _apply_drive_rows(model, rows, count, accumulated, twist, negligible):
    """The stage's rows solved together (drive_system.solve_drive_rows), their changes added to the
    accumulated impulses and applied through the joints, unless every one changes its row's rate by
    less than `negligible`; returns the largest change of a row's rate."""
    if count == 0:
        return 0.0
    solve_drive_rows(model, rows, count, accumulated)
    largest = 0.0
    for i in range(count):
        a = model.drive_axis[rows.drive_taking_part[i]]
        largest = max(largest, abs(rows.drive_change[i]) * rows.drive_stiffness[a])
    if largest < negligible:
        return largest
    for i in range(count):
        change = rows.drive_change[i]
        if change == 0.0:
            continue
        k = rows.drive_taking_part[i]
        accumulated[k] += change
        push_along_axis(rows, model.drive_axis[k], change, twist)
    return largest


@borrowing_kernel
def _project(rows, a, k, change, lower, upper, accumulated, twist):
    """Projected Gauss-Seidel: drive k's accumulated impulse moved by `change`, kept within
    [lower, upper], and the difference applied through the joints; returns its size."""
    total = min(max(accumulated[k] + change, lower), upper)
    change = total - accumulated[k]
    accumulated[k] = total
    push_along_axis(rows, a, change, twist)
    return abs(change)


@borrowing_kernel
def push_along_axis(rows, a, impulse, twist):
    """An impulse along axis a applied to the twist through the joints (rows.drive_response)."""
    response = rows.drive_response[a]
    for b in range(twist.shape[0]):
        for i in range(6):
            twist[b, i] += response[b, i] * impulse


@borrowing_kernel
def _soft_change(model, k, kind, t, predicted, secant, stiffness, accumulated, h):
    """Strashnov (13, 15), multiplied through by h (k h + c): the step's impulse l must satisfy
    l + h k (G(t+h) - rest) + h c s = 0, implicit Euler for the spring-damper. Strashnov's
    x(t+h) = x(t) + h v(t+h) makes his v the secant velocity s over the step; ours is the
    predicted coordinate's secant, which also carries gravity's g h^2 / 2 within the flight, so a
    resting spring holds exactly m g / k. Both G(t+h) and s move by K dl per impulse dl. A brake
    is the k = 0 case."""
    spring = drive_value(model, k, STIFFNESS, t) if kind == SPRING_SOFT else 0.0
    damping = drive_value(model, k, DAMPING, t)
    if spring * h + damping <= 0:
        return 0.0
    stretch = predicted - drive_value(model, k, VALUE, t) if kind == SPRING_SOFT else 0.0
    residual = accumulated + h * spring * stretch + h * damping * secant
    return -residual / (1.0 + h * (spring * h + damping) * stiffness)
