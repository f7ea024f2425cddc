"""Writing and removing an object's transform keys, in bulk, on every Blender from 4.2 to 5.x.

Blender 4.4 introduced slotted actions (an action's F-curves live in a channelbag per slot, on a
strip of a layer); 5.0 removed the old Action.fcurves. Both paths are here, chosen by what the
running Blender has.
"""
from typing import Literal, cast

import bpy
import numpy as np
from mathutils import Euler, Quaternion

TRANSFORM_PATHS = ("location", "rotation_quaternion", "rotation_euler", "rotation_axis_angle")
SLOTTED = "slots" in bpy.types.Action.bl_rna.properties  # Blender 4.4+


def action_fcurves(obj):
    """The F-curves animating obj (empty when it has none)."""
    collection = _existing_curves(obj)
    return list(collection) if collection is not None else []


def _existing_curves(obj):
    """The collection holding obj's F-curves, or None when it has none: its slot's channelbag, or
    the action itself before 4.4."""
    animation = obj.animation_data
    if animation is None or animation.action is None:
        return None
    if not SLOTTED:
        return animation.action.fcurves
    channelbag = _channelbag(animation.action, animation.action_slot, create=False)
    return channelbag.fcurves if channelbag is not None else None


def _channelbag(action, slot, create: bool):
    if slot is None:
        return None
    from bpy_extras import anim_utils

    if create and hasattr(anim_utils, "action_ensure_channelbag_for_slot"):  # Blender 5.0+
        return anim_utils.action_ensure_channelbag_for_slot(action, slot)
    if not create:
        return anim_utils.action_get_channelbag_for_slot(action, slot)
    layer = action.layers[0] if action.layers else action.layers.new("Layer")
    strip = layer.strips[0] if layer.strips else layer.strips.new(type="KEYFRAME")
    return strip.channelbag(slot, ensure=True)


def _curve_collection(obj):
    """Where obj's F-curves are created: its action's channelbag, or the action itself before 4.4."""
    animation = obj.animation_data or obj.animation_data_create()
    if animation.action is None:
        animation.action = bpy.data.actions.new(f"{obj.name}Action")
    action = animation.action
    if not SLOTTED:
        return action.fcurves
    if animation.action_slot is None:
        slot = action.slots.new(id_type="OBJECT", name=obj.name)
        animation.action_slot = slot
    return _channelbag(action, animation.action_slot, create=True).fcurves


def remove_transform_keys(obj) -> None:
    """Removes obj's location and rotation F-curves (what a bake writes); other animation stays."""
    collection = _existing_curves(obj)
    if collection is None:
        return
    for curve in [c for c in collection if c.data_path in TRANSFORM_PATHS]:
        collection.remove(curve)


def rotation_values(mode: str, quaternions: np.ndarray) -> tuple[str, np.ndarray]:
    """(data path, (F, k) values) of unit quaternions (F, 4) in the object's rotation mode, continuous
    from frame to frame: quaternions keep one hemisphere, Euler angles follow the previous frame."""
    q = quaternions.copy()
    flips = np.cumprod(np.where(np.einsum("fi,fi->f", q[1:], q[:-1]) < 0, -1.0, 1.0))
    q[1:] *= flips[:, None]
    if mode == "QUATERNION":
        return "rotation_quaternion", q
    if mode == "AXIS_ANGLE":
        angles = 2.0 * np.arccos(np.clip(q[:, 0], -1.0, 1.0))
        sines = np.sqrt(np.maximum(1.0 - q[:, 0] ** 2, 0.0))
        axes = np.where(sines[:, None] > 1e-12, q[:, 1:] / np.maximum(sines, 1e-12)[:, None], [0.0, 0.0, 1.0])
        return "rotation_axis_angle", np.column_stack((angles, axes))
    order = cast(Literal["XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"], mode)
    eulers: list[list[float]] = []
    previous: Euler | None = None
    for row in q:
        euler = Quaternion(row).to_euler(order, previous) if previous is not None else Quaternion(row).to_euler(order)
        eulers.append([euler.x, euler.y, euler.z])
        previous = euler
    return "rotation_euler", np.array(eulers)


def write_transform_keys(obj, frames: np.ndarray, locations: np.ndarray, quaternions: np.ndarray) -> None:
    """Keys location and rotation of obj at every frame, replacing its earlier transform keys."""
    remove_transform_keys(obj)
    collection = _curve_collection(obj)
    rotation_path, rotations = rotation_values(obj.rotation_mode, quaternions)
    for path, values in (("location", locations), (rotation_path, rotations)):
        for index in range(values.shape[1]):
            curve = collection.new(path, index=index)
            curve.keyframe_points.add(len(frames))
            curve.keyframe_points.foreach_set("co", np.column_stack((frames, values[:, index])).ravel())
            curve.keyframe_points.foreach_set("interpolation", [_LINEAR] * len(frames))
            curve.update()


_LINEAR = cast(bpy.types.EnumProperty, bpy.types.Keyframe.bl_rna.properties["interpolation"]).enum_items["LINEAR"].value
