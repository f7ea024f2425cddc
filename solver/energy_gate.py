"""The energy gate: where the only forces are gravity, the joints, impulse springs without damping and
applied efforts, a sub-step must keep the balance of energy and work. The joints' impulses do no work
on the exact motion, gravity and the springs have a potential, and an effort's work is its torque
times its axis's travel, so a sub-step whose energy (kinetic, gravitational, the springs') changes by
more than the efforts' work plus an allowance is wrong, however well its joints closed: it is undone
and halved (kernels/correction.advance_steps), as a sub-step whose correction fails is (Schmitt §5).

The allowance of a sub-step of length L is
    energy_tolerance * (energy scale + kinetic energy at its start) * L / natural time,
at least the change the joints' own tolerances make (floor). The energy scale is what the forces can
trade: gravity's work moving every body across the mechanism's extent, the energy the springs hold
at the start, an effort's work over the extent; the natural time is how long that energy takes to
carry the mechanism's mass across its extent. So the setting is a fraction, the same for a toy and a
crane and whatever h is. A spring's centred impulses are the velocity Verlet step, whose energy swings
about its mean each period: the balance takes the shadow energy that step keeps instead
(kernels/energy_gate.spring_shadow).

A step's own error goes as L^3 and its allowance as L, so each halving cuts their ratio by four; a
halving that does not shrink the imbalance as fast shows that it is not the step's (a parallelogram's
flat position, where the velocity correction takes energy out), and the sub-step is kept.

Limits, motors, brakes, soft and damped springs, springs whose settings are keyed, animated bodies and
contacts do work the balance does not count: there the gate is off. docs/error_control.md has the
measurements behind the default."""
import numpy as np

from .drives import EFFORT, SPRING_IMPULSE
from .free_turn import rotation_energy

# the joints' tolerances let a sub-step's energy change by the forces through FLOOR_GAPS Dmax (and the
# momentum through FLOOR_GAPS Vmax) whatever its length: changes within that always pass
FLOOR_GAPS = 4.0
# the world points a joint record places (the mechanism file's anchors, a rail's ends and its point)
ANCHOR_FIELDS = ("anchor", "anchor_a", "anchor_b", "start", "end", "point")
# a sub-step shorter than h / 2^GATE_HALVINGS is kept whatever its balance
GATE_HALVINGS = 10
# a halving must shrink the imbalance below this fraction of the undone sub-step's to be worth another: one
# that falls only as its allowance does (as L) is no error of the step's length
GATE_SHRINK = 0.4


def gate_settings(model) -> tuple[float, float, float]:
    """(energy rate, energy scale, floor) as the kernels take them (arrays.SolverSettings): the rate is
    energy_tolerance / natural time, 1/s, and 0 where the gate is off: forces that do work it does not
    count, contacts (their sub-steps are not advance_steps'), Richardson's extrapolation (its combined
    state is not a sub-step's) and the step-doubling controller (error_tolerance, which judges each
    sub-step itself)."""
    settings = model.settings
    if (settings.energy_tolerance == 0.0 or model.contacts.enabled or settings.extrapolation != "none"
            or settings.error_tolerance > 0.0 or model.body_animated.any()
            or not all(counted(drive) for drive in model.drives)):
        return 0.0, 0.0, 0.0
    scale = energy_scale(model)
    time = natural_time(model, scale)
    return (settings.energy_tolerance / time if time > 0.0 else 0.0), scale, gap_floor(model)


def natural_time(model, scale: float) -> float:
    """s: how long the energy scale (and the kinetic energy at the start) takes to carry the mechanism's
    mass across its extent, D sqrt(M / 2 E): sqrt(D / 2 g) under gravity, (D / stretch) sqrt(M / k) on
    a spring. 0 where nothing has energy to move."""
    moving = model.body_dynamic
    mass = float(model.body_mass[moving].sum())
    kinetic = 0.5 * float(np.sum(model.body_mass[moving] * np.sum(model.body_velocity0[moving]**2, axis=1)))
    twist = np.concatenate((model.body_velocity0, model.body_angular_velocity0), axis=1)
    kinetic += float(rotation_energy(model, np.flatnonzero(moving), model.start.rotation, twist).sum())
    energy = scale + kinetic
    return mechanism_extent(model) * np.sqrt(mass / (2.0 * energy)) if energy > 0.0 else 0.0


def counted(drive) -> bool:
    """Whether the balance counts the drive's work: an effort's, or an impulse spring's without
    damping whose stiffness and rest stay (a potential)."""
    if drive.kind == EFFORT:
        return True
    return (drive.kind == SPRING_IMPULSE and len(drive.stiffness.values) == 1 and len(drive.value.values) == 1
            and not np.any(drive.damping.values))


def energy_scale(model) -> float:
    """J: the energy the mechanism's forces can trade: gravity's work moving every dynamic body across
    the mechanism's extent (mechanism_extent), the energy each impulse spring holds at the start and
    each effort's work over the extent (an angle's, half a turn)."""
    extent = mechanism_extent(model)
    scale = weight(model) * extent
    for drive, axis in zip(model.drives, model.drive_axis):
        if drive.kind == SPRING_IMPULSE:
            scale += 0.5 * drive.stiffness(0.0) * (model.axis_coordinate0[axis] - drive.value(0.0))**2
        elif drive.kind == EFFORT:
            scale += float(np.abs(drive.value.values).max()) * (np.pi if model.arrays.axis_is_angle[axis] else extent)
    return scale


def mechanism_extent(model) -> float:
    """m: the largest spread, along a world axis, of the dynamic bodies' centres and the joints'
    anchors at the start, and the largest radius of gyration, twice (a pendulum's extent is its rod,
    a free body's its size)."""
    moving = model.body_dynamic
    if not moving.any():
        return 0.0
    gyration = np.sqrt(model.body_inertia[moving].sum(axis=1) / (2.0 * model.body_mass[moving]))
    points = [*model.start.position[moving]] + [record[key] for record in model.spec["joints"]
                                                  for key in ANCHOR_FIELDS if key in record]
    return float(np.ptp(np.array(points, dtype=float), axis=0).max()) + 2.0 * float(gyration.max())


def gap_floor(model) -> float:
    """J: the energy gravity's weight moves through FLOOR_GAPS Dmax, the change the joints' tolerance
    allows whatever the step (the springs', efforts' and speeds' shares are added as the bodies move:
    kernels/energy_gate.energy_and_noise)."""
    return FLOOR_GAPS * model.settings.dmax * weight(model)


def weight(model) -> float:
    """N: gravity's pull on the dynamic bodies, sum m |g|."""
    moving = model.body_dynamic
    return float(np.sum(model.body_mass[moving] * np.linalg.norm(model.body_gravity[moving], axis=1)))
