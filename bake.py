"""The scripting API: bake a scene's mechanism to keyframes, clear a bake, check a scene.

    from mechbake import bake
    report = bake.bake_scene(bpy.context.scene)          # runs to the end
    job = bake.Bake(scene); job.run(frames=10); ...; job.finish()   # step by step, as the UI does
    bake.clear_bake(scene); bake.problems(scene); bake.check(scene)  # (problems, warnings)

A bake starts from the pose the artist sees at the first frame with MechBake's earlier bake taken
off, and keys every Dynamic body in MechBake's own action (keyframes.py), so the artist's animation
is kept for Clear Bake. Animated bodies are read, never keyed: their own animation is their motion.
Nothing in the scene changes until the simulation has reached the last frame, and reading the scene
at its first frame leaves no trace: the user's frame comes back, and so does every animated value
the artist changed without keying it (a change of frame would overwrite those with their animation).
So Validate, and a bake that fails or is cancelled, leave the scene exactly as it was.
"""
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

import bpy
import numpy as np

from .keyframes import TRANSFORM_PATHS, action_fcurves, animated_channels, attach_bake, detach_bake, discard_bake, \
    is_bake_attached, euler_key_error, write_bake_keys
from .scene_model import check_frame_range, read_scene, scene_problems
from .solver import ModelError, Simulation
from .solver.kernels import cache
from .solver.codes import SLOW_SUBSTEPS, SLOW_TOTAL
from .solver.rotation import quaternion_to_matrix

# An object's pose as Clear Bake puts it back: every transform channel a bake keys, in each rotation mode
POSE_PATHS = (("location", 3), ("rotation_quaternion", 4), ("rotation_euler", 3), ("rotation_axis_angle", 4))


@dataclass
class BakeReport:
    frames: int
    bodies: int
    seconds: float  # wall time of the simulation and the key writing
    worst_gap: float  # largest joint gap over all baked frames, m
    steps: int
    corrections: int
    halvings: int
    warnings: list[str] = field(default_factory=list)  # what baked but may not be what was meant
    compile_seconds: float = 0.0  # of `seconds`, the time numba spent compiling kernels (first use only)
    # under an error tolerance: the steps whose estimated error was too large, retried shorter, and the
    # shortest step taken, s
    rejected: int = 0
    shortest_step: float = 0.0
    energy_halvings: int = 0  # steps halved because they changed the energy (solver/energy_gate.py)
    uncombined: int = 0  # Richardson steps kept unextrapolated: the combination would open the joints

    def __str__(self) -> str:
        compiled = f", {self.compile_seconds:.0f} s of it compiling the solver" if self.compile_seconds >= 0.5 else ""
        controlled = (f", {self.rejected} steps retried shorter for the error tolerance, the shortest "
                      f"{self.shortest_step:.3g} s" if self.rejected else "")
        if self.energy_halvings:
            controlled += f", {self.energy_halvings} steps halved to keep the energy"
        if self.uncombined:
            controlled += f", {self.uncombined} steps not extrapolated, which would have opened the joints"
        return (f"baked {self.bodies} bodies over {self.frames} frames in {self.seconds:.2f} s{compiled} "
                f"({self.steps} steps, {self.corrections} corrections, {self.halvings} halvings{controlled}); "
                f"worst joint gap {self.worst_gap:.3g} m")


class Bake:
    """One bake of a scene, advanced a few frames at a time; the scene is read once, at the start, and
    written once, by finish(). To cancel, drop the job: it has written nothing."""

    def __init__(self, scene, frame_start=None, frame_end=None):
        self.scene = scene
        self.started = time.perf_counter()
        start = scene.frame_start if frame_start is None else frame_start
        check_frame_range(start, scene.frame_end if frame_end is None else frame_end)  # before frame_set takes it
        with _frame_round_trip(scene), _without_bakes(scene):
            scene.frame_set(start)  # the mechanism starts from the scene at its first frame
            self.built = read_scene(scene, bpy.context.evaluated_depsgraph_get(), start, frame_end)
            objects = _objects_by_uid()
            self.start_poses = [pose_of(objects[b.uid]) for b in self.built.bindings]
        built = self.built
        if not cache.is_warm():  # the UI waits for preparation.py instead; scripts would sit silent
            print("MechBake: compiling the solver's kernels this bake needs (first use on this machine: about "
                  "half a minute, once)", flush=True)
        self.simulation = Simulation(built.model)
        from .solver.kernels import jit  # imported by the Simulation: numba stays out of register()

        self.compile_clock = jit.COMPILE_CLOCK
        self.compiled_before = jit.COMPILE_CLOCK.seconds
        self.frames = np.arange(built.frame_start, built.frame_end + 1)
        self.positions = np.empty((len(self.frames), len(built.bindings), 3))
        self.orientations = np.empty((len(self.frames), len(built.bindings), 4))
        self.done = 0
        self.worst_gap = 0.0
        self.slow: str | None = None  # said once, as soon as the bake is seen to crawl (slow_warning)
        self._sample()

    @property
    def progress(self) -> float:
        return self.done / (len(self.frames) - 1)

    @property
    def finished(self) -> bool:
        return self.done == len(self.frames) - 1

    def run(self, frames: int) -> None:
        """Simulates up to `frames` more frames (SimulationDiverged passes through; nothing is written)."""
        for _ in range(min(frames, len(self.frames) - 1 - self.done)):
            before = self.simulation.stats["substeps"]
            for _ in range(self.built.substeps):
                self.simulation.step()
            self.done += 1
            self._sample()
            if self.slow is None:
                self.slow = slow_warning(self, (self.simulation.stats["substeps"] - before) / self.built.substeps)

    def _sample(self) -> None:
        sim = self.simulation
        for k, binding in enumerate(self.built.bindings):
            self.positions[self.done, k] = sim.position(binding.name)
            self.orientations[self.done, k] = sim.orientation(binding.name)
        self.worst_gap = max(self.worst_gap, sim.max_joint_error())

    def finish(self) -> BakeReport:
        """Writes the keys of every moving body (all of them, or none if one was deleted meanwhile)."""
        if not self.finished:
            raise RuntimeError("the bake has not reached its last frame")
        objects = _objects_by_uid()
        in_scene = set(self.scene.objects)
        bodies = []
        for binding in self.built.bindings:
            body = objects.get(binding.uid)
            if body is None or body not in in_scene:
                raise ModelError(f"object '{binding.name}' was deleted during the bake; nothing was written")
            bodies.append(body)
        key_warnings = []
        with _frame_round_trip(self.scene, keep=bodies):
            for k, (obj, binding, pose) in enumerate(zip(bodies, self.built.bindings, self.start_poses)):
                rotations = quaternion_to_matrix(self.orientations[:, k])
                origins = self.positions[:, k] + rotations @ binding.origin_offset  # the origin, not the centre of mass
                # the body turns as D·R (scene_model.py): the rotation channels key R = D⁻¹·(D·R)
                keyed = _quaternion_product(binding.delta_rotation * [1.0, -1.0, -1.0, -1.0], self.orientations[:, k])
                values = write_bake_keys(obj, self.frames.astype(float), origins - binding.delta_location, keyed,
                                         _start_rotation(obj.rotation_mode, pose))
                key_warnings += _euler_precision_warning(obj, values, keyed)
                obj.mechbake.baked_pose = pose
                obj.mechbake.is_baked = True
        stats = self.simulation.stats
        return BakeReport(len(self.frames), len(self.built.bindings), time.perf_counter() - self.started,
                          self.worst_gap, stats["steps"], stats["corrections"], stats["halvings"],
                          list(self.built.warnings) + self.simulation.warnings + key_warnings
                          + ([self.slow] if self.slow else []),
                          self.compile_clock.seconds - self.compiled_before, stats["rejected"],
                          stats["smallest_substep"], stats["energy_halvings"], stats["uncombined"])


def slow_warning(job: Bake, substeps_per_step: float) -> str | None:
    """A warning, as soon as a frame shows it, that the solver cuts its steps short so often that the
    bake will take long (a crawl looks like a hang in a bake that says nothing): a motion too fast or
    stiff for the step, or a pile whose impacts each shorten the step."""
    steps_left = (len(job.frames) - 1 - job.done) * job.built.substeps
    if substeps_per_step < SLOW_SUBSTEPS or substeps_per_step * steps_left < SLOW_TOTAL:
        return None
    elapsed = time.perf_counter() - job.started
    return (f"at frame {job.frames[job.done]} the solver cut each step into {substeps_per_step:.0f} shorter ones: "
            f"at this pace the bake takes about {elapsed / job.done * (len(job.frames) - 1 - job.done) / 60:.0f} "
            f"more minutes; the motion is too fast or stiff for the step (a light body on strong springs, many "
            f"impacts at once), and more substeps per frame make it faster")


EULER_KEY_TOLERANCE = 1e-6  # m: how far a body's farthest point may be off in its stored Euler keys


def _euler_precision_warning(obj, rotations: np.ndarray, quaternions: np.ndarray) -> list[str]:
    """A warning when obj's Euler keys, stored as 32-bit floats, put its farthest point more than
    EULER_KEY_TOLERANCE off: the angles of a body that keeps turning grow without bound, and a float
    holds them the less exactly the larger they are. Quaternion keys stay within [-1, 1]."""
    if obj.rotation_mode in ("QUATERNION", "AXIS_ANGLE"):
        return []
    corners = np.array([corner[:] for corner in obj.bound_box]) * np.array(obj.scale)
    reach = float(np.max(np.linalg.norm(corners, axis=1)))  # farthest point from the origin, m
    off = euler_key_error(obj.rotation_mode, rotations, quaternions) * reach
    if off <= EULER_KEY_TOLERANCE:
        return []
    largest = float(np.max(np.abs(rotations)))
    return [f"object '{obj.name}' turns {largest / (2 * np.pi):.0f} times: Blender stores its Euler rotation keys "
            f"(up to {largest:.0f} rad) as 32-bit floats, which puts its farthest point up to {off:.1g} m off; "
            f"set its Rotation Mode to Quaternion for exact keys"]


def bake_scene(scene, frame_start=None, frame_end=None, progress=None, warn=None) -> BakeReport:
    """Bakes to the end; progress(fraction) is called after every frame if given, and warn(message)
    as soon as the bake is seen to crawl (the report's warnings have it too)."""
    job = Bake(scene, frame_start, frame_end)
    warned = False
    while not job.finished:
        job.run(1)
        if progress is not None:
            progress(job.progress)
        if warn is not None and job.slow is not None and not warned:
            warned = True
            warn(job.slow)
    return job.finish()


def clear_bake(scene) -> int:
    """Takes MechBake's keys off every body: its own animation (or none) is back, and it stands in its
    pose from the start of the last bake."""
    cleared = [obj for obj in scene.objects if obj.mechbake.is_baked]
    with _frame_round_trip(scene, keep=cleared):
        for obj in cleared:
            discard_bake(obj)
            set_pose(obj, obj.mechbake.baked_pose)
            obj.mechbake.is_baked = False
    return len(cleared)


def check(scene) -> tuple[list[str], list[str]]:
    """(problems, warnings) of the scene, each naming its object: what keeps it from baking (none: it is
    ready) and what bakes but may not be what was meant."""
    with _frame_round_trip(scene), _without_bakes(scene):
        scene.frame_set(scene.frame_start)
        return scene_problems(scene, bpy.context.evaluated_depsgraph_get())


def problems(scene) -> list[str]:
    """Everything that keeps the scene from baking, each naming its object (empty: ready to bake)."""
    return check(scene)[0]


def pose_of(obj) -> list[float]:
    return [value for path, _ in POSE_PATHS for value in getattr(obj, path)]


def set_pose(obj, pose) -> None:
    start = 0
    for path, size in POSE_PATHS:
        setattr(obj, path, pose[start:start + size])
        start += size


def _start_rotation(mode: str, pose):
    """The rotation the keys continue from: the start pose's, in the object's rotation mode."""
    if mode == "QUATERNION":
        return pose[3:7]
    return None if mode == "AXIS_ANGLE" else pose[7:10]


def _quaternion_product(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """p q for one quaternion p (4,) and a stack q (F, 4), both (w, x, y, z)."""
    w = p[0] * q[:, 0] - q[:, 1:] @ p[1:]
    return np.column_stack((w, p[0] * q[:, 1:] + q[:, :1] * p[1:] + np.cross(p[1:], q[:, 1:])))


def _objects_by_uid() -> dict:
    return {obj.session_uid: obj for obj in bpy.data.objects}


@contextmanager
def _without_bakes(scene):
    """Every body with its MechBake bake taken off (its own animation, or none, playing again) and in
    its pose from before that bake, or where the artist has moved it since; bakes put back after."""
    frame = scene.frame_current + scene.frame_subframe
    taken = [obj for obj in scene.objects if is_bake_attached(obj)]
    for obj in taken:
        pose = pose_of(obj) if _moved_since_bake(obj, frame) else list(obj.mechbake.baked_pose)
        detach_bake(obj)
        set_pose(obj, pose)
    try:
        yield
    finally:
        for obj in taken:
            attach_bake(obj)


def _moved_since_bake(obj, frame: float) -> bool:
    """Whether the artist has moved or turned the body away from its baked keys (without keying it)."""
    for curve in action_fcurves(obj):
        if curve.data_path in TRANSFORM_PATHS:
            if abs(curve.evaluate(frame) - getattr(obj, curve.data_path)[curve.array_index]) > 1e-6:
                return True
    return False


@contextmanager
def _frame_round_trip(scene, keep=()):
    """Whatever happens inside to the frame, afterwards the user's frame is back, and so is every
    animated value as it was (edits made without keying included). keep: objects whose location and
    rotation are to show their new animation instead."""
    frame, subframe = scene.frame_current, scene.frame_subframe
    held = _held_values(bpy.context.evaluated_depsgraph_get(), keep)
    try:
        yield
    finally:
        scene.frame_set(frame, subframe=subframe)
        for id_, path, index, value in held:
            _write_value(id_, path, index, value)
        bpy.context.view_layer.update()


def _held_values(depsgraph, keep) -> list[tuple]:
    """(ID, data path, index, value) of every channel animated in the view layer: what a change of frame
    overwrites."""
    held = []
    for instance in depsgraph.ids:
        id_ = instance.original
        if getattr(id_, "animation_data", None) is None:
            continue
        for path, index in animated_channels(id_):
            if path in TRANSFORM_PATHS and id_ in keep:
                continue
            try:
                value = id_.path_resolve(path)
                held.append((id_, path, index, value[index] if _is_array(value) else value))
            except (ValueError, IndexError):  # a channel whose path leads nowhere animates nothing
                continue
    return held


def _is_array(value) -> bool:
    return hasattr(value, "__len__") and not isinstance(value, str)


def _write_value(id_, path: str, index: int, value) -> None:
    current = id_.path_resolve(path)
    if _is_array(current):
        if current[index] != value:
            current[index] = value  # a property array is a view: this writes the property
        return
    if current == value:  # also leaves linked data alone, which cannot be written
        return
    if path.endswith('"]'):  # a custom property: owner["name"]
        split = path.rindex('["')
        owner = id_.path_resolve(path[:split]) if split else id_
        owner[path[split + 2:-2]] = value
    else:
        owner_path, _, attribute = path.rpartition(".")
        setattr(id_.path_resolve(owner_path) if owner_path else id_, attribute, value)
