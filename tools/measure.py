"""Measurements shared by tests and benchmarks: sign changes of a signal, exact pendulum periods, servo arms,
the exact N-four-bar, the heavy top."""
import math

import numpy as np

from mechbake.solver.rotation import quaternion_to_matrix


def zero_crossings(times, values) -> list[float]:
    """Times at which the sampled values change sign, linearly interpolated."""
    out = []
    for k in range(1, len(values)):
        if values[k - 1] > 0 >= values[k] or values[k - 1] < 0 <= values[k]:
            out.append(times[k - 1] + (times[k] - times[k - 1]) * values[k - 1] / (values[k - 1] - values[k]))
    return out


def crossing_times(sim, signal, count: int, limit: float = 60.0) -> list[float]:
    """Steps the simulation until signal(sim) has changed sign `count` times; those times, interpolated
    (Schmitt §9: 'Nulldurchgänge')."""
    times, previous_time, previous = [], sim.time, signal(sim)
    while len(times) < count:
        sim.step()
        value = signal(sim)
        times += zero_crossings([previous_time, sim.time], [previous, value])
        previous_time, previous = sim.time, value
        if sim.time > limit:
            raise AssertionError(f"only {len(times)} sign changes in {limit} s")
    return times


def elliptic_k(k: float) -> float:
    """Complete elliptic integral of the first kind, by the arithmetic-geometric mean."""
    a, b = 1.0, math.sqrt(1.0 - k * k)
    while abs(a - b) > 1e-15:
        a, b = 0.5 * (a + b), math.sqrt(a * b)
    return math.pi / (2.0 * a)


def pendulum_period(inertia_pivot: float, mass: float, g: float, lever: float, amplitude: float) -> float:
    """Exact period of a physical pendulum of any amplitude."""
    return 4.0 * math.sqrt(inertia_pivot / (mass * g * lever)) * elliptic_k(math.sin(amplitude / 2.0))


def _rk4(rate, y, dt):
    k1 = rate(y)
    k2 = rate([a + 0.5 * dt * b for a, b in zip(y, k1)])
    k3 = rate([a + 0.5 * dt * b for a, b in zip(y, k2)])
    k4 = rate([a + dt * b for a, b in zip(y, k3)])
    return [a + dt / 6 * (p + 2 * q + 2 * r + s) for a, p, q, r, s in zip(y, k1, k2, k3, k4)]


def servo_reach_time(inertia: float, gravity_torque: float, max_torque: float, target: float,
                     fraction: float = 0.02, dt: float = 1e-5) -> float:
    """A torque-limited position servo lifting an arm from hanging at rest (I θ'' = T - m g d sin θ,
    gravity_torque = m g d) until it meets the time-optimal braking curve θ' = sqrt(2 α (target - θ)),
    α = T / I, then down the curve: the time it comes within `fraction` of the target (RK4)."""
    alpha = max_torque / inertia
    y, t = [0.0, 0.0], 0.0
    while y[1] < math.sqrt(2 * alpha * (target - y[0])):
        y, t = _rk4(lambda s: [s[1], (max_torque - gravity_torque * math.sin(s[0])) / inertia], y, dt), t + dt
    stop = t + y[1] / alpha  # on the curve, the error left is α (stop - t)² / 2
    return stop - math.sqrt(2 * fraction * target / alpha)


def upright_servo_arrival(inertia: float, gravity_torque: float, max_torque: float, target: float,
                          within: float, dt: float = 1e-5) -> float:
    """A torque-limited position servo turning an arm from upright at rest to `target` (I θ'' = ±T + m g d sin θ,
    gravity_torque = m g d, θ from the upright), time-optimally: at +T until the energy left, ½ I θ'², is
    what braking at -T against gravity takes out on the way, T e - m g d (cos θ - cos target), then at -T
    (RK4). The time θ first comes `within` of the target."""
    y, t, braking = [0.0, 0.0], 0.0, False
    while target - y[0] > within:
        error = target - y[0]
        braking = braking or 0.5 * inertia * y[1] ** 2 >= (
            max_torque * error - gravity_torque * (math.cos(y[0]) - math.cos(target)))
        torque = -max_torque if braking else max_torque
        previous = y
        y, t = _rk4(lambda s: [s[1], (torque + gravity_torque * math.sin(s[0])) / inertia], y, dt), t + dt
        if braking and y[1] <= 0.0:
            raise AssertionError(f"stopped {target - y[0]:.3g} rad short of the target")
    return t - dt * (y[0] - (target - within)) / (y[0] - previous[0])


def held_arm(data: dict) -> tuple[float, float]:
    """(inertia about the shoulder, m g d at the horizontal) of a mechanism's upright arm (its bodies
    above a shoulder hinge at the origin, about y) turning as one body."""
    g = -data["gravity"][2]
    inertia = sum(b["inertia"][1] + b["mass"] * b["position"][2] ** 2 for b in data["bodies"])
    return inertia, g * sum(b["mass"] * b["position"][2] for b in data["bodies"])


def upright_arm_arrival(data: dict, max_torque: float, target: float, within: float) -> float:
    """upright_servo_arrival of a mechanism's upright arm turning as one body (held_arm)."""
    return upright_servo_arrival(*held_arm(data), max_torque, target, within)


def servo_course(sim, joint: str, target: float, within: float, duration: float) -> tuple[float, float, float]:
    """Steps a servo's run for `duration` s: (the time its joint first comes `within` of the target from
    below, interpolated between steps; its largest excursion past the target; |angle - target| at the end)."""
    arrival, overshoot = math.inf, 0.0
    previous_time, previous = sim.time, sim.joint_position(joint)
    while sim.time < duration - 1e-9:
        sim.step()
        angle = sim.joint_position(joint)
        if arrival == math.inf and angle >= target - within:
            arrival = previous_time + (sim.time - previous_time) * (target - within - previous) / (angle - previous)
        overshoot = max(overshoot, angle - target)
        previous_time, previous = sim.time, angle
    return arrival, overshoot, abs(sim.joint_position(joint) - target)


def passed_holds(sim, poses: dict, duration: float) -> dict:
    """Steps a run of servos keyed through poses ({joint: [[t, value], ...]}) for `duration` s: how far each
    passes the poses it holds (beyond the key, the way it came), worst over the run."""
    worst = dict.fromkeys(poses, 0.0)
    while sim.time < duration - 1e-9:
        sim.step()
        for joint, keys in poses.items():
            held = [k for k in range(1, len(keys)) if keys[k][0] <= sim.time
                    and (k + 1 == len(keys) or keys[k + 1][1] == keys[k][1]) and keys[k][1] != keys[k - 1][1]]
            if held:
                k = held[-1]
                way = math.copysign(1.0, keys[k][1] - keys[k - 1][1])
                if k + 1 == len(keys) or sim.time < keys[k + 1][0]:
                    worst[joint] = max(worst[joint], way * (sim.joint_position(joint) - keys[k][1]))
    return worst


def arm_under_torque(inertia: float, gravity_torque: float, torque: float, brake: float, start: float,
                     duration: float, dt: float = 1e-4, rate: float = 0.0) -> list[float]:
    """θ every dt of an arm from `start` (turning at `rate`, from rest by default) under a constant torque:
    I θ'' = T - m g d sin θ - C θ' (RK4)."""
    y, out = [start, rate], [start]
    for _ in range(int(round(duration / dt))):
        y = _rk4(lambda s: [s[1], (torque - gravity_torque * math.sin(s[0]) - brake * s[1]) / inertia], y, dt)
        out.append(y[0])
    return out


def parallelogram_pull(n: int) -> float:
    """IFToMM A02 (mechanisms.n_four_bar) on its parallelogram branch: every crank turns alike and every
    coupler translates, so the mechanism is one physical pendulum,
        ((n + 1) m L^2 / 3 + n m L^2) theta'' = ((n + 1) m g L / 2 + n m g L) sin(theta),
    with L = 1 m: its theta'' / sin(theta), 1/s^2 (theta the first crank's angle from the upright)."""
    return 9.81 * ((n + 1) / 2 + n) / ((n + 1) / 3 + n)


def parallelogram_crank_angles(n: int, h: float, steps: int, substeps: int = 50) -> list[float]:
    """IFToMM A02: the first crank's exact angle from the upright (clockwise, rad) at t = 0, h, 2h, ...
    of the pendulum of parallelogram_pull, with theta(0) = 0, theta'(0) = 1 rad/s; RK4 at h / substeps
    (converged to 1e-10 rad over 10 s at h = 0.005 and 50 substeps)."""
    pull = parallelogram_pull(n)
    state = [0.0, 1.0]
    angles = [0.0]
    for _ in range(steps):
        for _ in range(substeps):
            state = _rk4(lambda y: [y[1], pull * math.sin(y[0])], state, h / substeps)
        angles.append(state[0])
    return angles


def parallelogram_verlet_angles(n: int, h: float, steps: int) -> list[float]:
    """The same pendulum's angles by Stormer-Verlet at h: what a second-order method makes of A02 in its
    one exact coordinate, without the chords a method in the links' own coordinates flies along
    (RATTLE, Schmitt's impulses): the reference for how much of our error is the order alone."""
    return verlet_angles(parallelogram_pull(n), 0.0, 1.0, h, steps)


def verlet_angles(pull: float, angle: float, rate: float, h: float, steps: int) -> list[float]:
    """theta at t = 0, h, 2h, ... of theta'' = pull sin(theta) by Stormer-Verlet (velocity form) at h."""
    angles = [angle]
    for _ in range(steps):
        rate += 0.5 * h * pull * math.sin(angle)
        angle += h * rate
        rate += 0.5 * h * pull * math.sin(angle)
        angles.append(angle)
    return angles


def energies(sim, steps: int) -> np.ndarray:
    """(steps + 1,) the simulation's energy now and after each of its next `steps` steps, J."""
    energy = [sim.energy()]
    for _ in range(steps):
        sim.step()
        energy.append(sim.energy())
    return np.array(energy)


def rise_after_landing(sim, drop: float, half_height: float, g: float, duration: float = 1.0) -> tuple:
    """Steps a box dropped flat from `drop` m for `duration` s from the start: (the highest its bottom
    rises above the floor after it first lands, as the apex of each step's ballistic flight,
    z + max(v_z, 0)^2 / 2 g; the largest angular speed after landing; the energy's largest rise over
    any step, J)."""
    landing = (2.0 * drop / g) ** 0.5
    rise, spin, gain = 0.0, 0.0, 0.0
    energy = sim.energy()
    while sim.time < duration - 1e-9:
        sim.step()
        now = sim.energy()
        gain, energy = max(gain, now - energy), now
        if sim.time > landing + sim.h:
            vz = float(sim.velocity("box")[2])
            rise = max(rise, float(sim.position("box")[2]) - half_height + max(vz, 0.0) ** 2 / (2.0 * g))
            spin = max(spin, float(abs(sim.angular_velocity("box")).max()))
    return rise, spin, gain


def rolling_polygon(sides: int, radius: float, mass: float, inertia: float, speed: float, duration: float,
                    g: float, dt: float = 1e-5) -> float:
    """How far the centre of a wheel made of a regular polygon (corners `radius` from its centre,
    `inertia` about it) rolls in `duration` s, starting balanced on a corner at `speed` without
    slipping: it pivots on its corner (I_p φ'' = m g r sin φ, I_p = I + m r², RK4) until the next corner
    lands, a plastic impact about the new corner that keeps the angular momentum about it:
    ω⁺ = ω⁻ (1 - m r² (1 - cos θ) / I_p), θ = 2π / sides."""
    step_angle = 2 * math.pi / sides
    pivot_inertia = inertia + mass * radius * radius
    kept = 1 - mass * radius * radius * (1 - math.cos(step_angle)) / pivot_inertia
    y, t, pivot = [0.0, speed / radius], 0.0, 0.0  # φ: the angle of pivot -> centre from the vertical
    while t < duration - 0.5 * dt:
        y, t = _rk4(lambda s: [s[1], mass * g * radius * math.sin(s[0]) / pivot_inertia], y, dt), t + dt
        if y[0] >= 0.5 * step_angle:
            y = [y[0] - step_angle, y[1] * kept]
            pivot += 2 * radius * math.sin(0.5 * step_angle)
    return pivot + radius * math.sin(y[0])


def resting_motion(sim, names, seconds: float) -> dict:
    """Runs the simulation for `seconds`: {name: (how far it ended from its start, how far it moved in
    the last second, how far its centre sank)}."""
    start = {name: sim.position(name) for name in names}
    sim.run(seconds - 1.0)
    before = {name: sim.position(name) for name in names}
    sim.run(1.0)
    return {name: (distance(sim.position(name), start[name]), distance(sim.position(name), before[name]),
                   float(start[name][2] - sim.position(name)[2])) for name in names}


def distance(a, b) -> float:
    return math.dist([float(x) for x in a], [float(x) for x in b])


def heavy_top_axes(data: dict, duration: float, sample: float, step: float) -> np.ndarray:
    """(samples + 1, 3) the axis (body z) of a top on a ball joint at the world origin every `sample` s,
    from its own equations: J_tip w' = -w x J_tip w + r x R^T m g in the body frame, q' = q (0, w) / 2;
    plain floats, RK4 at `step`."""
    body = data["bodies"][0]
    mass = body["mass"]
    centre = np.array(body["position"])
    q0 = np.array(body["orientation"], dtype=float)
    rotation = quaternion_to_matrix(q0)
    lever = float(np.linalg.norm(centre))  # the centre lies on body z
    inertia = [body["inertia"][0] + mass * lever**2, body["inertia"][1] + mass * lever**2, body["inertia"][2]]
    w = list(rotation.T @ np.array(body["angular_velocity"]))
    gravity = -data["gravity"][2] * mass * lever  # m g l

    def rates(q, w):
        qw, qx, qy, qz = q
        # gravity (0, 0, -g) in the body frame is -g times the third row of R
        down = (2 * (qx * qz - qw * qy), 2 * (qy * qz + qw * qx), 1 - 2 * (qx * qx + qy * qy))
        torque = (gravity * down[1], -gravity * down[0], 0.0)  # (0, 0, l) x m g_body
        l0, l1, l2 = inertia[0] * w[0], inertia[1] * w[1], inertia[2] * w[2]
        dw = ((torque[0] - (w[1] * l2 - w[2] * l1)) / inertia[0], (torque[1] - (w[2] * l0 - w[0] * l2)) / inertia[1],
              (torque[2] - (w[0] * l1 - w[1] * l0)) / inertia[2])
        dq = (0.5 * (-qx * w[0] - qy * w[1] - qz * w[2]), 0.5 * (qw * w[0] + qy * w[2] - qz * w[1]),
              0.5 * (qw * w[1] + qz * w[0] - qx * w[2]), 0.5 * (qw * w[2] + qx * w[1] - qy * w[0]))
        return dq, dw

    def shifted(x, dx, a):
        return tuple(v + a * d for v, d in zip(x, dx))

    q, w = tuple(q0 / np.linalg.norm(q0)), tuple(w)
    per_sample = round(sample / step)
    axes = [quaternion_to_matrix(q)[:, 2]]
    for _ in range(round(duration / sample)):
        for _ in range(per_sample):
            k1q, k1w = rates(q, w)
            k2q, k2w = rates(shifted(q, k1q, step / 2), shifted(w, k1w, step / 2))
            k3q, k3w = rates(shifted(q, k2q, step / 2), shifted(w, k2w, step / 2))
            k4q, k4w = rates(shifted(q, k3q, step), shifted(w, k3w, step))
            q = tuple(v + step / 6 * (a + 2 * b + 2 * c + d) for v, a, b, c, d in zip(q, k1q, k2q, k3q, k4q))
            w = tuple(v + step / 6 * (a + 2 * b + 2 * c + d) for v, a, b, c, d in zip(w, k1w, k2w, k3w, k4w))
            norm = math.sqrt(sum(v * v for v in q))
            q = tuple(v / norm for v in q)
        axes.append(quaternion_to_matrix(q)[:, 2])
    return np.array(axes)


def precession_and_tilt(axes: np.ndarray, sample: float) -> tuple[float, np.ndarray]:
    """A top's axes every `sample` s: the azimuth's fitted rate, rad/s, and the tilt at each, degrees."""
    azimuth = np.unwrap(np.arctan2(axes[:, 1], axes[:, 0]))
    times = sample * np.arange(len(axes))
    rate = np.polyfit(times, azimuth, 1)[0]
    return float(rate), np.degrees(np.arccos(np.clip(axes[:, 2], -1, 1)))
