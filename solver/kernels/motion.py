"""Animated bodies' poses and velocities at any time, from their motion tables (solver/motion.py):
cubic Hermite curves through the samples, the quaternion's normalised."""
import numpy as np

from .jit import entry_kernel, kernel


@kernel
def is_animated(model, b):
    return model.body_motion_start[b + 1] > model.body_motion_start[b]


@kernel
def _segment(times, t):
    """k with times[k] <= t < times[k + 1], for times[0] <= t < times[-1]."""
    return np.searchsorted(times, t, side="right") - 1


@entry_kernel
def motion_at(model, b, t, position, rotation, velocity, omega):
    """Body b's centre of mass, principal frame (body frame -> world), velocity and angular velocity
    (world) at time t. Before its first sample and after its last it holds still there (a table of
    one sample holds still throughout)."""
    first, end = model.body_motion_start[b], model.body_motion_start[b + 1]
    times = model.motion_time[first:end]
    q = np.empty(4)
    q_rate = np.empty(4)
    if t < times[0] or t > times[-1] or end - first == 1:
        k = first if t < times[0] else end - 1
        position[:] = model.motion_position[k]
        velocity[:] = 0.0
        q[:] = model.motion_quaternion[k]
        q_rate[:] = 0.0
    elif t == times[-1]:
        position[:] = model.motion_position[end - 1]
        velocity[:] = model.motion_velocity[end - 1]
        q[:] = model.motion_quaternion[end - 1]
        q_rate[:] = model.motion_quaternion_rate[end - 1]
    else:
        k = first + _segment(times, t)
        span = model.motion_time[k + 1] - model.motion_time[k]
        s = (t - model.motion_time[k]) / span
        # Hermite basis and its derivative in s
        h00, h10, h01, h11 = (2 * s ** 3 - 3 * s ** 2 + 1, s ** 3 - 2 * s ** 2 + s, -2 * s ** 3 + 3 * s ** 2,
                              s ** 3 - s ** 2)
        d00, d10, d01, d11 = 6 * s ** 2 - 6 * s, 3 * s ** 2 - 4 * s + 1, -6 * s ** 2 + 6 * s, 3 * s ** 2 - 2 * s
        for i in range(3):
            p0, p1 = model.motion_position[k, i], model.motion_position[k + 1, i]
            v0, v1 = model.motion_velocity[k, i] * span, model.motion_velocity[k + 1, i] * span
            position[i] = h00 * p0 + h10 * v0 + h01 * p1 + h11 * v1
            velocity[i] = (d00 * p0 + d10 * v0 + d01 * p1 + d11 * v1) / span
        for i in range(4):
            p0, p1 = model.motion_quaternion[k, i], model.motion_quaternion[k + 1, i]
            v0, v1 = model.motion_quaternion_rate[k, i] * span, model.motion_quaternion_rate[k + 1, i] * span
            q[i] = h00 * p0 + h10 * v0 + h01 * p1 + h11 * v1
            q_rate[i] = (d00 * p0 + d10 * v0 + d01 * p1 + d11 * v1) / span
    length = np.sqrt(q[0] ** 2 + q[1] ** 2 + q[2] ** 2 + q[3] ** 2)
    along = (q[0] * q_rate[0] + q[1] * q_rate[1] + q[2] * q_rate[2] + q[3] * q_rate[3]) / length
    for i in range(4):
        q[i] /= length
    for i in range(4):  # the rate of the normalised quaternion
        q_rate[i] = (q_rate[i] - along * q[i]) / length
    w, x, y, z = q[0], q[1], q[2], q[3]
    dw, dx, dy, dz = q_rate[0], q_rate[1], q_rate[2], q_rate[3]
    # omega = 2 vec(q' q*), world
    omega[0] = 2.0 * (-dw * x + dx * w - dy * z + dz * y)
    omega[1] = 2.0 * (-dw * y + dy * w - dz * x + dx * z)
    omega[2] = 2.0 * (-dw * z + dz * w - dx * y + dy * x)
    rotation[0, 0], rotation[0, 1], rotation[0, 2] = 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)
    rotation[1, 0], rotation[1, 1], rotation[1, 2] = 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)
    rotation[2, 0], rotation[2, 1], rotation[2, 2] = 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)
