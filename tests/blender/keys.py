"""Reading a bake back: F-curves and the world matrices the keys give at each frame."""
import bpy
import numpy as np

from mechbake.keyframes import action_fcurves


def curves(obj) -> dict:
    return {(c.data_path, c.array_index): c for c in action_fcurves(obj)}


def world_matrices(obj, frames) -> np.ndarray:
    scene = bpy.context.scene
    out = []
    for frame in frames:
        scene.frame_set(int(frame))
        out.append(np.array(obj.matrix_world))
    return np.array(out)


def point_track(obj, local_point, frames) -> np.ndarray:
    """Where a point fixed in the object (object coordinates) is at every frame."""
    matrices = world_matrices(obj, frames)
    return matrices[:, :3, :3] @ np.asarray(local_point) + matrices[:, :3, 3]
