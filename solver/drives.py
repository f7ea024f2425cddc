"""Drives: what acts along a joint's own coordinate (hinge angle, slider or rail displacement,
spring length). Limits and the rail's end stops, springs (explicit or soft), servo motors, brakes,
applied efforts (a given torque or force).

Each drive is one scalar row along its joint's axis row. Drives that belong inside the correction
loop (limits, soft springs, motors, brakes) are solved there on an accumulated impulse, the limits and
motors together as one small system (kernels/drive_system.py); explicit springs and applied efforts
act as centred impulses outside it.
"""
from dataclasses import dataclass

import numpy as np

from .spec import checked_array, short_repr

# drive kinds, as the kernels know them (drive_kind)
LOWER_LIMIT, UPPER_LIMIT, MOTOR_POSITION, MOTOR_VELOCITY, BRAKE, SPRING_SOFT, SPRING_IMPULSE, EFFORT = range(8)
EXPLICIT_KINDS = (SPRING_IMPULSE, EFFORT)  # centred impulses outside the correction loop (kernels/drives.py)
MOTOR_MODES = ("position", "velocity")


@dataclass(frozen=True)
class Schedule:
    """A value over time: a constant, or piecewise linear through (times, values), held at the ends.
    Motor targets, limits and spring settings are schedules, so keyed values can be followed."""

    times: np.ndarray
    values: np.ndarray

    @classmethod
    def constant(cls, value: float) -> "Schedule":
        return cls(np.array([0.0]), np.array([float(value)]))

    def __call__(self, t: float) -> float:
        if len(self.values) == 1:
            return float(self.values[0])
        return float(np.interp(t, self.times, self.values))

    def rate(self, t: float) -> float:
        """Slope at t (0 outside the table, and for a constant)."""
        segment = int(np.searchsorted(self.times, t, side="right")) - 1
        if segment < 0 or segment >= len(self.times) - 1:
            return 0.0
        return float((self.values[segment + 1] - self.values[segment])
                     / (self.times[segment + 1] - self.times[segment]))

    def shifted(self, offset: float) -> "Schedule":
        return Schedule(self.times, self.values + offset)

    def to_json(self):
        if len(self.times) == 1:
            return float(self.values[0])
        return [[float(t), float(v)] for t, v in zip(self.times, self.values)]


ZERO = Schedule.constant(0.0)


@dataclass(frozen=True)
class Drive:
    joint: int  # index into the model's joint list
    kind: int  # LOWER_LIMIT ... EFFORT
    value: Schedule = ZERO  # limit or spring rest, in raw joint coordinate; an effort's torque (N m) or force (N)
    stiffness: Schedule = ZERO
    damping: Schedule = ZERO  # spring damping, or the brake's C_F
    max_effort: float = np.inf  # largest force or torque a motor may apply
    target: Schedule = ZERO  # motor target, in joint position (raw - offset)
    offset: float = 0.0  # raw coordinate at the start: joint position = raw - offset


def parse_schedule(value, fail, minimum: float | None = None) -> Schedule:
    """A number, or a list of [time, value] pairs with strictly increasing times."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        table = checked_array([[0.0, value]], (1, 2), fail)
    elif isinstance(value, list) and value:
        table = checked_array(value, (len(value), 2), fail)
        if np.any(np.diff(table[:, 0]) <= 0):
            raise fail("times must increase strictly")
    else:
        raise fail(f"must be a number or a list of [time, value] pairs, got {short_repr(value)}")
    if minimum is not None and table[:, 1].min() < minimum:
        raise fail(f"must be at least {minimum}, got {table[:, 1].min()}")
    return Schedule(table[:, 0].copy(), table[:, 1].copy())


def read_schedule(reader, key: str, default=None, minimum: float | None = None) -> Schedule:
    value = reader.raw(key, default)
    if value is None:
        raise reader.fail(key, "is missing")
    return parse_schedule(value, lambda problem: reader.fail(key, problem), minimum)


DRIVE_FIELD_NAMES = {"limits": "limits", "spring": "a spring", "motor": "a motor", "effort": "an applied effort"}


def read_axis_drives(reader, joint_type: str, allowed: tuple[str, ...]) -> dict:
    """Reads `limits`, `spring`, `motor`, `effort` of a joint record where its kind allows them
    (joints.*.DRIVE_FIELDS); rejects them elsewhere."""
    fields: dict = {}
    for key, problem in DRIVE_FIELD_NAMES.items():
        if reader.has(key) and key not in allowed:
            raise reader.fail(key, f"is not allowed: a {joint_type} joint cannot carry {problem}")
    if "limits" in allowed and reader.has("limits"):
        fields["limits"] = _read_limits(reader)
    spring = reader.record_of("spring") if "spring" in allowed else None
    if spring is not None:
        fields["spring"] = {
            "stiffness": read_schedule(spring, "stiffness", minimum=0.0),
            "damping": read_schedule(spring, "damping", 0.0, minimum=0.0),
            "rest": read_schedule(spring, "rest", 0.0),
            "method": spring.string("method", "impulse", choices=("impulse", "soft")),
        }
        spring.finish()
    motor = reader.record_of("motor") if "motor" in allowed else None
    if motor is not None:
        fields["motor"] = _read_motor(motor)
    if "effort" in allowed and reader.has("effort"):
        # a torque (N m) about a hinge's axis, a force (N) along a slider's or rail's, on body b
        fields["effort"] = read_schedule(reader, "effort")
    return fields


def _read_limits(reader) -> list[Schedule]:
    value = reader.raw("limits")
    if not isinstance(value, list) or len(value) != 2:
        raise reader.fail("limits", f"must be [lower, upper], got {short_repr(value)}")
    lower, upper = (parse_schedule(v, lambda problem: reader.fail("limits", problem)) for v in value)
    times = np.union1d(lower.times, upper.times)
    if any(lower(t) >= upper(t) for t in times):
        raise reader.fail("limits", "must be [lower, upper] with lower < upper at every time")
    if not lower(0.0) <= 0.0 <= upper(0.0):
        raise reader.fail("limits", f"must contain the start position 0, got [{lower(0.0)}, {upper(0.0)}]")
    return [lower, upper]


def _read_motor(motor) -> dict:
    mode = motor.string("mode", choices=MOTOR_MODES)
    target = read_schedule(motor, "target")
    if motor.has("max_torque") and motor.has("max_force"):
        raise motor.fail("max_force", "cannot be given together with 'max_torque'")
    effort_key = "max_force" if motor.has("max_force") else "max_torque"
    fields = {
        "mode": mode,
        "target": target,
        "max_effort": motor.number(effort_key, minimum=0.0) if motor.has(effort_key) else np.inf,
        "brake": read_schedule(motor, "brake", 0.0, minimum=0.0),
    }
    motor.finish()
    return fields


def motor_to_json(motor: dict, joint_type: str) -> dict:
    out = {"mode": motor["mode"], "target": motor["target"].to_json(), "brake": motor["brake"].to_json()}
    if np.isfinite(motor["max_effort"]):
        out["max_force" if joint_type == "slider" else "max_torque"] = motor["max_effort"]
    return out


def drives_of_joint(index: int, spec: dict, offset: float) -> list[Drive]:
    """The drive rows a joint record asks for; `offset` is its raw coordinate at the start."""
    drives = []
    if spec["type"] == "rail":
        start_to_point = float(np.dot(np.asarray(spec["point"]) - spec["start"], _unit(spec["end"] - spec["start"])))
        length = float(np.linalg.norm(np.asarray(spec["end"]) - spec["start"]))
        drives += [Drive(index, LOWER_LIMIT, Schedule.constant(0.0), offset=start_to_point),
                   Drive(index, UPPER_LIMIT, Schedule.constant(length), offset=start_to_point)]
    if spec["type"] == "spring":
        kind = SPRING_SOFT if spec["method"] == "soft" else SPRING_IMPULSE
        drives.append(Drive(index, kind, spec["rest_length"], spec["stiffness"], spec["damping"], offset=offset))
    if "limits" in spec:
        lower, upper = spec["limits"]
        drives += [Drive(index, LOWER_LIMIT, lower.shifted(offset), offset=offset),
                   Drive(index, UPPER_LIMIT, upper.shifted(offset), offset=offset)]
    if "spring" in spec:
        spring = spec["spring"]
        kind = SPRING_SOFT if spring["method"] == "soft" else SPRING_IMPULSE
        drives.append(Drive(index, kind, spring["rest"].shifted(offset), spring["stiffness"], spring["damping"],
                            offset=offset))
    if "motor" in spec:
        motor = spec["motor"]
        kind = MOTOR_POSITION if motor["mode"] == "position" else MOTOR_VELOCITY
        drives.append(Drive(index, kind, max_effort=motor["max_effort"], target=motor["target"], offset=offset))
        if motor["brake"].values.max() > 0:
            drives.append(Drive(index, BRAKE, damping=motor["brake"], offset=offset))
    if "effort" in spec:
        drives.append(Drive(index, EFFORT, spec["effort"], offset=offset))
    return drives


def _unit(v) -> np.ndarray:
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


def spring_energy(drives: list[Drive], coordinate: np.ndarray, axis_of_drive: np.ndarray, t: float) -> float:
    energy = 0.0
    for k, drive in enumerate(drives):
        if drive.kind in (SPRING_SOFT, SPRING_IMPULSE):
            energy += 0.5 * drive.stiffness(t) * (coordinate[axis_of_drive[k]] - drive.value(t)) ** 2
    return energy


@dataclass(frozen=True)
class DriveArrays:
    """Every drive as arrays for the kernels (D drives; S schedules in one flat table)."""

    kind: np.ndarray  # (D,) LOWER_LIMIT ... EFFORT
    axis: np.ndarray  # (D,) the axis row (joint coordinate) it acts on
    max_effort: np.ndarray  # (D,) largest force or torque of a motor (inf: unlimited)
    offset: np.ndarray  # (D,) raw coordinate at the start: joint position = raw - offset
    schedule: np.ndarray  # (D, 4) schedules of value, stiffness, damping, target (indices into schedule_start)
    schedule_start: np.ndarray  # (S + 1,) schedule s is schedule_time/value[start[s]:start[s + 1]]
    schedule_time: np.ndarray  # (points,) s, increasing within a schedule
    schedule_value: np.ndarray  # (points,)
    schedule_stop: np.ndarray  # (points,) where the value next stops moving from each point on (run_ends)

    @classmethod
    def build(cls, drives: list[Drive], drive_axis: np.ndarray) -> "DriveArrays":
        starts, times, values = [0], [], []
        indices = []
        for drive in drives:
            row = []
            for schedule in (drive.value, drive.stiffness, drive.damping, drive.target):
                row.append(len(starts) - 1)
                times += list(schedule.times)
                values += list(schedule.values)
                starts.append(len(times))
            indices.append(row)
        return cls(np.array([d.kind for d in drives], dtype=np.int64), np.asarray(drive_axis, dtype=np.int64),
                   np.array([d.max_effort for d in drives], dtype=float),
                   np.array([d.offset for d in drives], dtype=float),
                   np.array(indices, dtype=np.int64).reshape(len(drives), 4), np.array(starts, dtype=np.int64),
                   np.array(times, dtype=float), np.array(values, dtype=float),
                   np.concatenate([np.zeros(0)] + [run_ends(values[a:b]) for a, b in zip(starts[:-1], starts[1:])]))


def run_ends(values) -> np.ndarray:
    """For each point of a schedule's table, where the value stops moving from there on: the last
    point of the run of segments whose slopes share the sign of the segment it starts (its own value
    where that segment is flat, and at the table's end)."""
    values = np.asarray(values, dtype=float)
    ends = values.copy()
    slope = np.sign(np.diff(values))
    if len(slope) == 0:
        return ends
    run_start = np.concatenate(([0], np.flatnonzero(slope[1:] != slope[:-1]) + 1))
    run_stop = np.append(run_start[1:], len(slope))  # a run of segments k in [start, stop) ends at point stop
    ends[:-1] = np.repeat(values[run_stop], run_stop - run_start)  # a flat run's end is its own value
    return ends
