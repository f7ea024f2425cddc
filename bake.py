"""The scripting API: bake a scene's mechanism to keyframes, clear a bake, list a scene's problems.

    from mechbake import bake
    report = bake.bake_scene(bpy.context.scene)          # runs to the end
    job = bake.Bake(scene); job.run(frames=10); ...; job.finish()   # step by step, as the UI does

Nothing in the scene changes until the simulation has reached the last frame: a bake that is
cancelled or fails leaves the scene as it was.
"""
import time
from dataclasses import dataclass

import bpy
import numpy as np
from mathutils import Matrix

from .keyframes import remove_transform_keys, write_transform_keys
from .scene_model import read_scene, scene_problems
from .solver import Simulation
from .solver.rotation import quaternion_to_matrix


@dataclass
class BakeReport:
    frames: int
    bodies: int
    seconds: float  # wall time of the simulation and the key writing
    worst_gap: float  # largest joint gap over all baked frames, m
    steps: int
    corrections: int
    halvings: int

    def __str__(self) -> str:
        return (f"baked {self.bodies} bodies over {self.frames} frames in {self.seconds:.2f} s "
                f"({self.steps} steps, {self.corrections} corrections, {self.halvings} halvings); "
                f"worst joint gap {self.worst_gap:.3g} m")


class Bake:
    """One bake of a scene, advanced a few frames at a time."""

    def __init__(self, scene, frame_start=None, frame_end=None):
        self.scene = scene
        self.user_frame = scene.frame_current
        self.started = time.perf_counter()
        start = scene.frame_start if frame_start is None else frame_start
        scene.frame_set(start)  # the mechanism starts from the scene at its first frame
        try:
            self.built = read_scene(scene, bpy.context.evaluated_depsgraph_get(), start, frame_end)
        except Exception:
            scene.frame_set(self.user_frame)
            raise
        built = self.built
        self.simulation = Simulation(built.model)
        self.frames = np.arange(built.frame_start, built.frame_end + 1)
        self.positions = np.empty((len(self.frames), len(built.bindings), 3))
        self.orientations = np.empty((len(self.frames), len(built.bindings), 4))
        self.done = 0
        self.worst_gap = 0.0
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
            for _ in range(self.built.substeps):
                self.simulation.step()
            self.done += 1
            self._sample()

    def _sample(self) -> None:
        sim = self.simulation
        for k, binding in enumerate(self.built.bindings):
            self.positions[self.done, k] = sim.position(binding.name)
            self.orientations[self.done, k] = sim.orientation(binding.name)
        self.worst_gap = max(self.worst_gap, sim.max_joint_error())

    def cancel(self) -> None:
        self.scene.frame_set(self.user_frame)

    def finish(self) -> BakeReport:
        """Writes the keys of every moving body and restores the user's frame."""
        if not self.finished:
            raise RuntimeError("the bake has not reached its last frame")
        for k, binding in enumerate(self.built.bindings):
            obj = self.scene.objects[binding.name]
            if not obj.mechbake.is_baked:
                obj.mechbake.baked_start = [v for row in obj.matrix_world for v in row]
                obj.mechbake.is_baked = True
            rotations = quaternion_to_matrix(self.orientations[:, k])
            origins = self.positions[:, k] + rotations @ binding.origin_offset  # the origin, not the centre of mass
            write_transform_keys(obj, self.frames.astype(float), origins, self.orientations[:, k])
        self.scene.frame_set(self.user_frame)
        stats = self.simulation.stats
        return BakeReport(len(self.frames), len(self.built.bindings), time.perf_counter() - self.started,
                          self.worst_gap, stats["steps"], stats["corrections"], stats["halvings"])


def bake_scene(scene, frame_start=None, frame_end=None, progress=None) -> BakeReport:
    """Bakes to the end; progress(fraction) is called after every frame if given."""
    job = Bake(scene, frame_start, frame_end)
    try:
        while not job.finished:
            job.run(1)
            if progress is not None:
                progress(job.progress)
    except BaseException:
        job.cancel()
        raise
    return job.finish()


def clear_bake(scene) -> int:
    """Removes the baked keys of every body and puts it back in its pose from before the bake."""
    cleared = 0
    for obj in scene.objects:
        if obj.mechbake.is_baked:
            remove_transform_keys(obj)
            obj.matrix_world = Matrix([obj.mechbake.baked_start[4 * r:4 * r + 4] for r in range(4)])
            obj.mechbake.is_baked = False
            cleared += 1
    return cleared


def problems(scene) -> list[str]:
    """Everything that keeps the scene from baking, each naming its object (empty: ready to bake)."""
    user_frame = scene.frame_current
    scene.frame_set(scene.frame_start)
    try:
        return scene_problems(scene, bpy.context.evaluated_depsgraph_get())
    finally:
        scene.frame_set(user_frame)
