"""The constant description of a mechanism: records in, validated once, arrays out.

Index 0 of every body array is the world (fixed, at the origin, unrotated). Bodies keep their
state in their principal frame, where the inertia is diagonal (Schmitt §3 "Nulllage"); the frame
the user gave is recovered through body_principal_axes.
"""
import copy
import json
from dataclasses import dataclass

import numpy as np

from . import drives as drive_rows
from .arrays import ModelArrays
from .elimination import system_pattern
from .errors import ModelError
from .frames import Frames
from .contact.layout import ContactLayout
from .contact.shapes import read_obstacle, read_shape, read_surface
from .joints import JOINT_KINDS, JointArrays
from .motion import MotionArrays, motion_to_json, read_motion
from .rotation import matrix_to_quaternion, quaternion_to_matrix
from .spec import REQUIRED, SMALLEST, RecordReader, short_repr

FORMAT = "mechbake/1"
WORLD = "world"
SOLVERS = ("iterative", "system")
EXTRAPOLATIONS = ("none", "richardson")
CONTACT_METHODS = ("impulse", "lcp")
LEVERS = ("start", "thirds")


@dataclass(frozen=True)
class Settings:
    h: float = 0.01  # step, s
    # largest joint gap at the look-ahead, m (angles count as rad on a 1 m lever). 1e-7, not 1e-6: a solve
    # leaves each gap just under Dmax, on the same side step after step, and that share of the error grows
    # as the step shrinks (A02 at 1e-6: 3.5e-3 rad at h = 0.005, 6.3e-3 at 1/240); at 1e-7 it is gone for
    # up to 12 % more time on joints (A02; the pusher sample 3-8 %), none on contacts alone
    # (benchmarks/a02_n_four_bar.py, blender_bake.py, contact_speed.py)
    dmax: float = 1e-7
    vmax: float = 1e-6  # largest joint velocity error after the velocity correction, m/s
    taylor_order: int = 3  # highest derivative of omega in the Euler series (Schmitt §3)
    velocity_correction: bool = True  # Schmitt §6, P-step 4
    solver: str = "system"  # "iterative" (§5) or "system" (§7)
    max_corrections: int = 200  # correction sweeps per step before the step is halved
    extrapolation: str = "none"  # "richardson": §8's -1/3 p(h) + 4/3 p(h/2, h/2)
    # where the joints' impulses take their levers and directions: "start", Schmitt's (the step's start for
    # the joint correction, its end for the velocity correction: RATTLE's chords, whose share of the error
    # grows with how far a link turns in a step), or "thirds", a third and two thirds of the way along the
    # step's chord, with the system solver (kernels/correction.py)
    levers: str = "start"
    # the largest position error a step may add per second of motion, m/s (angles count on the body's
    # radius of gyration), estimated by step doubling; the sub-steps shrink and grow to keep it
    # (error_control.py, docs/error_control.md). 0: no estimate, the sub-steps halve only when a
    # correction fails (Schmitt §5). Mechanisms without contacts, extrapolation "none".
    error_tolerance: float = 0.0
    # where the forces are gravity, impulse springs and efforts (no contacts, limits, motors, dampers or
    # animated bodies), the fraction of the energy the mechanism trades that a step may gain or lose per
    # natural time (the time that energy takes to carry it across its extent); a sub-step that changes it
    # more is undone and halved (energy_gate.py). 0: off
    energy_tolerance: float = 5e-3
    contact_method: str = "impulse"  # "impulse" (Schmitt §11) or "lcp" (Stewart-Trinkle)
    friction_directions: int = 8  # edges of the polyhedral friction cone of the LCP
    # resting islands (bodies touching or jointed) slower than this, m/s, for sleeping.SLEEP_AFTER (or held still
    # for sleeping.HELD_STEPS), sleep until touched (sleeping.py); 0: nothing sleeps
    sleep_speed: float = 1e-3

    @classmethod
    def read(cls, record, overrides: dict) -> "Settings":
        reader = RecordReader(record if record is not None else {}, "settings")
        default = cls()
        settings = cls(
            h=reader.number("h", default.h, positive=True),
            dmax=reader.number("dmax", default.dmax, positive=True),
            vmax=reader.number("vmax", default.vmax, positive=True),
            taylor_order=reader.integer("taylor_order", default.taylor_order, minimum=1, maximum=12),
            velocity_correction=reader.boolean("velocity_correction", default.velocity_correction),
            solver=reader.string("solver", default.solver, choices=SOLVERS),
            max_corrections=reader.integer("max_corrections", default.max_corrections, minimum=1, maximum=10**6),
            extrapolation=reader.string("extrapolation", default.extrapolation, choices=EXTRAPOLATIONS),
            levers=reader.string("levers", default.levers, choices=LEVERS),
            error_tolerance=reader.number("error_tolerance", default.error_tolerance, minimum=0.0),
            energy_tolerance=reader.number("energy_tolerance", default.energy_tolerance, minimum=0.0),
            contact_method=reader.string("contact_method", default.contact_method, choices=CONTACT_METHODS),
            friction_directions=reader.integer("friction_directions", default.friction_directions, minimum=3,
                                               maximum=64),
            sleep_speed=reader.number("sleep_speed", default.sleep_speed, minimum=0.0),
        )
        reader.finish()
        if overrides:
            return cls.read({**settings.to_dict(), **overrides}, {})
        return settings

    def to_dict(self) -> dict:
        return dict(self.__dict__)


DMAX_ROUNDINGS = 64  # the least Dmax, in roundings of the mechanism's farthest coordinate


class Model:
    """A validated mechanism. Build it with Model.from_dict or load_model; never mutate it."""

    def __init__(self, spec: dict, settings: Settings):
        self.spec = spec  # the normalised records, what to_dict returns
        self.settings = settings
        self.gravity = np.array(spec["gravity"], dtype=float)  # (3,) m/s^2, world
        bodies = spec["bodies"]
        n = len(bodies) + 1
        self.body_names = [WORLD] + [b["name"] for b in bodies]  # (n,)
        self.body_index = {name: i for i, name in enumerate(self.body_names)}
        self.body_dynamic = np.array([False] + [not b["fixed"] and "motion" not in b for b in bodies])  # (n,)
        self.body_animated = np.array([False] + ["motion" in b for b in bodies])  # (n,) moved by its motion table
        self.motion = MotionArrays.build([None] + [b.get("motion") for b in bodies])
        self.body_mass = np.array([np.inf] + [b["mass"] for b in bodies])  # (n,) kg
        self.body_inv_mass = np.where(self.body_dynamic, 1.0 / self.body_mass, 0.0)  # (n,)
        self.body_inertia = np.zeros((n, 3))  # (n, 3) principal moments, kg m^2
        self.body_principal_axes = np.tile(np.eye(3), (n, 1, 1))  # (n, 3, 3) columns: axes in the user's body frame
        rotation0 = np.tile(np.eye(3), (n, 1, 1))
        for i, body in enumerate(bodies, start=1):
            moments, axes = np.linalg.eigh(body["inertia"])
            if "motion" in body:  # its table gives the body frame itself; its inertia plays no part
                axes = np.eye(3)
            if np.linalg.det(axes) < 0:
                axes[:, 2] *= -1
            self.body_inertia[i] = moments if np.any(body["inertia"]) and self.body_dynamic[i] else 0.0
            self.body_principal_axes[i] = axes
            rotation0[i] = quaternion_to_matrix(body["orientation"]) @ axes
        rotating = self.body_dynamic[:, None] & (self.body_inertia > 0)
        self.body_inv_inertia = np.where(rotating, 1.0 / np.where(rotating, self.body_inertia, 1.0), 0.0)  # (n, 3)
        self.body_rotates = rotating.all(axis=1)  # (n,) False for particles, fixed bodies, the world
        self.body_gravity = self.gravity * self.body_dynamic[:, None]  # (n, 3) gravity where it acts
        self.start = Frames(
            position=np.array([[0.0, 0, 0]] + [b["position"] for b in bodies]).reshape(n, 3),
            rotation=rotation0,
        )
        self.body_velocity0 = np.array([[0.0, 0, 0]] + [b["velocity"] for b in bodies]).reshape(n, 3)
        self.body_angular_velocity0 = np.array([[0.0, 0, 0]] + [b["angular_velocity"] for b in bodies]).reshape(n, 3)
        self._build_joints(spec["joints"])
        self._check_dmax_is_resolvable()
        self.contacts = ContactLayout(self, spec)
        self._arrays: ModelArrays | None = None

    def _check_dmax_is_resolvable(self) -> None:
        """Dmax above the rounding of a double across the mechanism: a gap below it can never be shown
        closed, and every step would be halved to its floor (a crawl, or a divergence at t = 0)."""
        reach = float(np.abs(self.start.position).max(initial=0.0)) + float(
            np.linalg.norm(self.joints.point, axis=-1).max(initial=0.0))
        finest = DMAX_ROUNDINGS * np.finfo(float).eps * reach
        if self.settings.dmax < finest:
            raise ModelError(f"settings: field 'dmax' {self.settings.dmax:.3g} m is finer than a double resolves "
                             f"across the mechanism, which reaches {reach:.3g} m from the origin; give at least "
                             f"{finest:.1g} m")

    def _build_joints(self, joints: list) -> None:
        self.joint_names = [j["name"] for j in joints]  # (m,)
        self.joint_index = {name: i for i, name in enumerate(self.joint_names)}
        self.joint_type = [j["type"] for j in joints]  # (m,)
        self.joint_body_a = np.array([self.body_index[j["body_a"]] for j in joints], dtype=int)  # (m,)
        self.joint_body_b = np.array([self.body_index[j["body_b"]] for j in joints], dtype=int)  # (m,)
        self.joints = JointArrays.build(joints, self.joint_body_a, self.joint_body_b, self.start)
        row_counts = [len(JOINT_KINDS[j["type"]].ROW_ANGULAR) for j in joints]
        self.joint_row_start = np.concatenate(([0], np.cumsum(row_counts))).astype(np.int64)  # (m + 1,)
        self.row_joint = np.repeat(np.arange(len(joints)), row_counts).astype(np.int64)  # (R,)
        self.joint_colors = _color_joints(self.joint_body_a, self.joint_body_b, self.body_dynamic,
                                          np.array(row_counts, dtype=int) > 0)
        self.system = system_pattern(self.row_joint, self.joints.body, self.body_dynamic)
        self._lay_out_drives(joints)

    def _lay_out_drives(self, joints: list) -> None:
        """Joints with a coordinate get an axis row; drives point at those rows."""
        self.axis_joint = np.array([i for i, j in enumerate(joints) if JOINT_KINDS[j["type"]].COORDINATE],
                                   dtype=np.int64)  # (q,) joint of each axis row
        self.axis_is_angle = np.array([JOINT_KINDS[joints[i]["type"]].COORDINATE == "angle" for i in self.axis_joint],
                                      dtype=bool)  # (q,)
        self.axis_of_joint = {int(j): k for k, j in enumerate(self.axis_joint)}
        self.axis_coordinate0 = np.array([JOINT_KINDS[joints[j]["type"]].start_coordinate(joints[j])
                                          for j in self.axis_joint], dtype=float)  # (q,) raw coordinates at the start
        self.drives: list[drive_rows.Drive] = []
        for i, spec in enumerate(joints):
            if i in self.axis_of_joint:
                self.drives += drive_rows.drives_of_joint(i, spec, float(self.axis_coordinate0[self.axis_of_joint[i]]))
        self.drive_axis = np.array([self.axis_of_joint[d.joint] for d in self.drives], dtype=np.int64)  # (drives,)

    @property
    def arrays(self) -> ModelArrays:
        """The model as the kernels read it, built on first use."""
        if self._arrays is None:
            drives = drive_rows.DriveArrays.build(self.drives, self.drive_axis)
            colours = self.joint_colors
            self._arrays = ModelArrays(
                self.body_inv_mass, self.body_inertia, self.body_inv_inertia, self.body_gravity, self.body_rotates,
                self.joints.kind, self.joints.body, self.joints.point, self.joints.direction, self.joints.reference,
                self.joints.rest, self.joints.length, self.joint_row_start, self.row_joint,
                np.concatenate(([0], np.cumsum([len(c) for c in colours]))).astype(np.int64),
                np.concatenate([np.zeros(0, dtype=np.int64)] + [c.astype(np.int64) for c in colours]),
                self.axis_joint, self.axis_is_angle, np.isin(np.arange(len(self.axis_joint)), drives.axis),
                drives.kind, drives.axis, drives.max_effort, drives.offset,
                drives.schedule, drives.schedule_start, drives.schedule_time, drives.schedule_value,
                drives.schedule_stop,
                self.system.order, self.system.k_start, self.system.k_index, self.system.k_contribution,
                self.system.ldl_start, self.system.ldl_row_start, self.system.ldl_row_column,
                self.system.ldl_row_position, *self.motion)
        return self._arrays

    # --- files -------------------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: dict, **setting_overrides) -> "Model":
        spec, settings = _read_model(data, setting_overrides)
        return cls(spec, settings)

    def to_dict(self) -> dict:
        out = _to_json(copy.deepcopy(self.spec))
        out["settings"] = self.settings.to_dict()
        for body in out["bodies"]:
            if "motion" in body:  # its pose and velocity at the start come from the motion
                body["motion"] = motion_to_json(body["motion"])
                for key in ("position", "orientation", "velocity", "angular_velocity"):
                    del body[key]
        for joint in out["joints"]:
            if "motor" in joint:
                joint["motor"] = drive_rows.motor_to_json(self.spec["joints"][self.joint_index[joint["name"]]]["motor"],
                                                          joint["type"])
        return out

    def user_orientation(self, rotation: np.ndarray, body: int) -> np.ndarray:
        """Quaternion (w, x, y, z) of the user's body frame from the principal-frame rotation."""
        return matrix_to_quaternion(rotation @ self.body_principal_axes[body].T)


def load_model(path, **setting_overrides) -> Model:
    """Reads a mechanism file (JSON, format mechbake/1)."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except UnicodeDecodeError:
        raise ModelError(f"{path}: not a mechanism file: it is binary, not JSON text (a .blend file is baked with "
                         f"'python -m mechbake bake')") from None
    except json.JSONDecodeError as error:
        raise ModelError(f"{path}: not valid JSON ({error})") from None
    except ValueError:  # Python refuses to read integers of more than 4300 digits
        raise ModelError(f"{path}: holds a number too long to read") from None
    except RecursionError:
        raise ModelError(f"{path}: its JSON is nested too deeply to be a mechanism file") from None
    return Model.from_dict(data, **setting_overrides)


def _read_model(data, overrides: dict) -> tuple[dict, Settings]:
    top = RecordReader(data, "mechanism")
    version = top.string("format")
    if version != FORMAT:
        raise top.fail("format", f"must be '{FORMAT}', got {short_repr(version)}")
    gravity = top.vector("gravity", [0.0, 0.0, -9.81])
    settings = Settings.read(top.raw("settings", None), overrides)
    raw_bodies = top.raw("bodies", REQUIRED)
    raw_joints = top.raw("joints", [])
    raw_obstacles = top.raw("obstacles", [])
    top.finish()
    for key, value in (("bodies", raw_bodies), ("joints", raw_joints), ("obstacles", raw_obstacles)):
        if not isinstance(value, list):
            raise top.fail(key, f"must be a list, got {type(value).__name__}")
    bodies = [_read_body(record, k) for k, record in enumerate(raw_bodies)]
    _check_unique([b["name"] for b in bodies], "body")
    kinds = {WORLD: "world", **{b["name"]: _body_kind(b) for b in bodies}}
    joints = [_read_joint(record, k, kinds) for k, record in enumerate(raw_joints)]
    _check_unique([j["name"] for j in joints], "joint")
    obstacles = [read_obstacle(record, k) for k, record in enumerate(raw_obstacles)]
    _check_unique([o["name"] for o in obstacles], "obstacle")
    return {"format": FORMAT, "gravity": gravity, "bodies": bodies, "joints": joints, "obstacles": obstacles}, settings


def _check_unique(names: list[str], what: str) -> None:
    seen = set()
    for name in names:
        if name in seen:
            raise ModelError(f"{what} '{name}': the name is used twice")
        seen.add(name)


def _read_body(record, k: int) -> dict:
    name = record.get("name") if isinstance(record, dict) else None
    reader = RecordReader(record, f"body '{name}'" if isinstance(name, str) else f"body #{k}")
    name = reader.string("name")
    if name == WORLD:
        raise reader.fail("name", f"'{WORLD}' is reserved for the fixed frame")
    fixed = reader.boolean("fixed", False)
    motion = read_motion(reader)
    if motion is not None:
        _check_animated(reader, fixed, motion)
    mass = reader.number("mass", 1.0 if fixed or motion is not None else REQUIRED, positive=True)
    shape = (3, 3) if _is_nested(reader.record.get("inertia")) else (3,)
    inertia = reader.array("inertia", shape, [0.0, 0.0, 0.0])
    inertia = np.diag(inertia) if shape == (3,) else inertia
    if not np.allclose(inertia, inertia.T, rtol=0, atol=1e-12 * max(1.0, np.abs(inertia).max())):
        raise reader.fail("inertia", "must be symmetric")
    if np.any(inertia) and np.linalg.eigvalsh(inertia).min() < SMALLEST:
        raise reader.fail("inertia", f"must be positive definite, every principal moment at least {SMALLEST:g} (or all "
                                     f"zeros for a particle), got {inertia.tolist()}")
    orientation = reader.array("orientation", (4,),
                               [1.0, 0.0, 0.0, 0.0] if motion is None else motion["orientation"][0])
    if np.linalg.norm(orientation) < 1e-12:
        raise reader.fail("orientation", "must not be zero")
    body = {
        "name": name,
        "mass": mass,
        "inertia": inertia,
        "position": reader.vector("position", REQUIRED if motion is None else motion["position"][0]),
        "orientation": orientation / np.linalg.norm(orientation),
        "velocity": reader.vector("velocity", [0.0, 0.0, 0.0]),
        "angular_velocity": reader.vector("angular_velocity", [0.0, 0.0, 0.0]),
        "fixed": fixed,
    }
    if motion is not None:
        body["motion"] = motion
    collision_shape = read_shape(reader)
    if collision_shape is not None:
        body["shape"] = collision_shape
    body["friction"], body["restitution"] = read_surface(reader, reader.where)
    if not np.any(inertia) and not fixed and np.any(body["angular_velocity"]):
        raise reader.fail("angular_velocity", "must be zero for a particle (inertia all zeros)")
    reader.finish()
    return body


def _check_animated(reader: RecordReader, fixed: bool, motion: dict) -> None:
    """An animated body starts where its motion is at time 0 and moves only by it."""
    if fixed:
        raise reader.fail("motion", "is for a body that moves: a fixed body has none")
    if motion["time"][0] < 0:
        raise reader.fail("motion", f"must start at time 0 or later, got {motion['time'][0]:g} s")
    for key in ("position", "orientation", "velocity", "angular_velocity"):
        if key in reader.record:
            raise reader.fail(key, "comes from 'motion' for an animated body: leave it out")


def _body_kind(body: dict) -> str:
    if body["fixed"]:
        return "fixed"
    if "motion" in body:
        return "animated"
    return "rotating" if np.any(body["inertia"]) else "particle"


def _is_nested(value) -> bool:
    """A list of lists (an inertia tensor rather than its three moments), ragged or not."""
    sequence = (list, tuple, np.ndarray)
    return isinstance(value, sequence) and len(value) > 0 and isinstance(value[0], sequence)


def _read_joint(record, k: int, body_kinds: dict) -> dict:
    name = record.get("name") if isinstance(record, dict) else None
    reader = RecordReader(record, f"joint '{name}'" if isinstance(name, str) else f"joint #{k}")
    name = reader.string("name")
    joint_type = reader.string("type", choices=tuple(JOINT_KINDS))
    kind = JOINT_KINDS[joint_type]
    joint = {"name": name, "type": joint_type}
    for side in ("body_a", "body_b"):
        body = reader.string(side)
        if body not in body_kinds:
            raise reader.fail(side, f"names an unknown body '{body}'")
        joint[side] = body
    if joint["body_a"] == joint["body_b"]:
        raise reader.fail("body_b", f"must differ from 'body_a' (a joint of body '{joint['body_a']}' with itself)")
    sides = (body_kinds[joint["body_a"]], body_kinds[joint["body_b"]])
    if all(s in ("world", "fixed", "animated") for s in sides):
        raise reader.fail("body_b", "and 'body_a' are both fixed or animated: the joint would hold nothing")
    if any(kind.ROW_ANGULAR) and not any(s == "rotating" for s in sides):
        raise reader.fail("type", f"'{joint_type}' locks rotation, but neither body can rotate (particles or fixed)")
    joint.update(kind.read(reader))
    joint.update(drive_rows.read_axis_drives(reader, joint_type, kind.DRIVE_FIELDS))
    if "motor" in joint and not any(s == "rotating" for s in sides) and joint_type == "hinge":
        raise reader.fail("motor", "needs a body that can rotate")
    reader.finish()
    return joint


def _to_json(value):
    """Arrays and schedules to plain lists and numbers, recursively."""
    if isinstance(value, drive_rows.Schedule):
        return value.to_json()
    if isinstance(value, dict):
        return {key: _to_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_to_json(item) for item in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def _color_joints(body_a, body_b, dynamic, has_rows) -> list[np.ndarray]:
    """Greedy colouring: joints of one colour share no moving body, so their corrections are
    independent and can be applied together, exactly as the one-at-a-time loop of §5 would."""
    colors: list[list[int]] = []
    used: list[set[int]] = []
    for j in np.flatnonzero(has_rows):
        moving = {int(b) for b in (body_a[j], body_b[j]) if dynamic[b]}
        for color, bodies in zip(colors, used):
            if not bodies & moving:
                color.append(int(j))
                bodies |= moving
                break
        else:
            colors.append([int(j)])
            used.append(set(moving))
    return [np.array(c, dtype=int) for c in colors]
