"""The energy gate's kernels (solver/energy_gate.py has the rule): the mechanism's energy, the work
its applied efforts do, and whether a sub-step kept the balance within its allowance."""
from ..drives import EFFORT, SPRING_IMPULSE
from ..energy_gate import FLOOR_GAPS
from . import rows as joint_rows
from .jit import kernel
from .schedule import STIFFNESS, VALUE, drive_value


@kernel
def energy_and_noise(model, settings, state, rows, length, driven):
    """(kinetic energy, energy, noise) of the dynamic bodies now, J: the kinetic (1/2 m v^2 +
    1/2 w^T J w, J's principal moments and w in the body frame); the energy, that, gravity's
    (-m g . x) and the impulse springs' potential (1/2 k (q - rest)^2) less their shadow over a sub-step
    of `length` (spring_shadow); the noise, what the joints' tolerances let a sub-step change whatever
    its length: FLOOR_GAPS times Vmax sum m |v| and Dmax times the springs' and efforts' forces (the
    weight's share is settings.energy_floor). `rows` hold the state's instant."""
    kinetic, potential, momentum, forces = 0.0, 0.0, 0.0, 0.0
    for b in range(model.body_inv_mass.shape[0]):
        if not model.body_inv_mass[b] > 0.0:
            continue
        mass = 1.0 / model.body_inv_mass[b]
        speed_squared = 0.0
        for i in range(3):
            speed_squared += state.twist[b, i] ** 2
            potential -= mass * model.body_gravity[b, i] * state.position[b, i]
        kinetic += 0.5 * mass * speed_squared
        momentum += mass * speed_squared**0.5
        if model.body_rotates[b]:
            for k in range(3):  # w in the principal frame: R^T w
                spin = (state.rotation[b, 0, k] * state.twist[b, 3] + state.rotation[b, 1, k] * state.twist[b, 4]
                        + state.rotation[b, 2, k] * state.twist[b, 5])
                kinetic += 0.5 * model.body_inertia[b, k] * spin * spin
    if driven is not None:
        t = state.time[0]
        for k in range(model.drive_kind.shape[0]):
            if model.drive_kind[k] == SPRING_IMPULSE:
                stretch = state.axis_coordinate[model.drive_axis[k]] - drive_value(model, k, VALUE, t)
                stiffness = drive_value(model, k, STIFFNESS, t)
                potential += 0.5 * stiffness * stretch * stretch
                forces += abs(stiffness * stretch)
            elif model.drive_kind[k] == EFFORT:
                forces += abs(drive_value(model, k, VALUE, t))
        potential -= spring_shadow(model, state, rows, length)
    noise = FLOOR_GAPS * (settings.vmax * momentum + settings.dmax * forces)
    return kinetic, kinetic + potential, noise


@kernel
def spring_shadow(model, state, rows, length):
    """J: (L^2 / 8) F^T C F, F the impulse springs' forces along their axes and C the axes' couplings
    through the joints (inverse masses, rows.axis_coupling). The centred impulses of a spring are the
    velocity Verlet step, which keeps E - (L^2 / 8) F^T M^-1 F exactly on a linear spring (its energy
    itself swings by (omega L)^2 / 8 of it each period): the balance takes the kept one."""
    joint_rows.prepare_drive_rows(model, rows)
    t, shadow = state.time[0], 0.0
    for k in range(model.drive_kind.shape[0]):
        if model.drive_kind[k] != SPRING_IMPULSE:
            continue
        force = spring_force(model, state, k, t)
        for other in range(model.drive_kind.shape[0]):
            if model.drive_kind[other] == SPRING_IMPULSE:
                shadow += force * spring_force(model, state, other, t) * joint_rows.axis_coupling(
                    model, rows, model.drive_axis[k], model.drive_axis[other])
    return length * length / 8.0 * shadow


@kernel
def spring_force(model, state, k, t):
    """The impulse spring k's force (torque) along its axis now, -k (q - rest)."""
    stretch = state.axis_coordinate[model.drive_axis[k]] - drive_value(model, k, VALUE, t)
    return -drive_value(model, k, STIFFNESS, t) * stretch


@kernel
def imbalance(model, settings, start, state, rows, energy, driven):
    """J: how far the energy changed over the sub-step from `start` (whose energy was `energy`) to
    `state` (`rows` at its instant), less the work the applied efforts did: each effort's mean over the
    sub-step (the trapezoid its two half impulses apply) times its axis's travel."""
    t, length = start.time[0], state.time[0] - start.time[0]
    change = energy_and_noise(model, settings, state, rows, length, driven)[1] - energy
    if driven is not None:
        for k in range(model.drive_kind.shape[0]):
            if model.drive_kind[k] == EFFORT:
                a = model.drive_axis[k]
                mean = 0.5 * (drive_value(model, k, VALUE, t) + drive_value(model, k, VALUE, t + length))
                change -= mean * (state.axis_coordinate[a] - start.axis_coordinate[a])
    return abs(change)


@kernel
def energy_allowance(settings, kinetic, noise, length):
    """J: how far a sub-step of `length` may change the energy: the energy rate (energy_tolerance over
    the natural time) times (the energy scale + the kinetic energy at its start) times L, at least the
    joints' tolerances' share (settings.energy_floor + noise)."""
    allowed = settings.energy_rate * (settings.energy_scale + kinetic) * length
    return max(allowed, settings.energy_floor + noise)
