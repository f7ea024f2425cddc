"""Keys and actions on every Blender from 4.2 to 5.x: the channels an ID's animation drives, and
MechBake's own action, which holds a body's baked keys beside the artist's animation.

Blender 4.4 introduced slotted actions (an action's F-curves live in a channelbag per slot, on a
strip of a layer); 5.0 removed the old Action.fcurves. Both paths are here, chosen by what the
running Blender has.

A bake never writes into the artist's action. The body gets MechBake's own action: a copy of the
artist's (so keys on scale, custom properties and other channels go on playing) whose location and
rotation curves are the bake's. The artist's action waits untouched in obj.mechbake.artist_action,
and Clear Bake assigns it back, with its slot.
"""
from typing import Literal, cast

import bpy
import numpy as np
from mathutils import Euler, Quaternion

from .solver.rotation import quaternion_to_matrix

TRANSFORM_PATHS = ("location", "rotation_quaternion", "rotation_euler", "rotation_axis_angle")
SLOTTED = "slots" in bpy.types.Action.bl_rna.properties  # Blender 4.4+


def action_fcurves(id_) -> list:
    """The F-curves animating an ID through its active action (empty when it has none)."""
    animation = id_.animation_data
    if animation is None or animation.action is None:
        return []
    curves = _curves(animation.action, animation.action_slot if SLOTTED else None)
    return list(curves) if curves is not None else []


def animated_channels(id_) -> list[tuple[str, int]]:
    """(data path, index) of every channel the ID's action and NLA strips animate."""
    animation = id_.animation_data
    if animation is None:
        return []
    found = [(c.data_path, c.array_index) for c in action_fcurves(id_)]
    for track in animation.nla_tracks:
        for strip in track.strips:
            if strip.action is not None:
                curves = _curves(strip.action, strip.action_slot if SLOTTED else None)
                found += [(c.data_path, c.array_index) for c in curves or ()]
    return found


def _curves(action, slot):
    """The F-curves of one slot of an action (None when the slot has none); before 4.4, all of them."""
    if not SLOTTED:
        return action.fcurves
    if slot is None:
        return None
    from bpy_extras import anim_utils

    channelbag = anim_utils.action_get_channelbag_for_slot(action, slot)
    return channelbag.fcurves if channelbag is not None else None


def _channelbag(action, slot):
    """The slot's channelbag, made if needed (4.4+)."""
    from bpy_extras import anim_utils

    if hasattr(anim_utils, "action_ensure_channelbag_for_slot"):  # Blender 5.0+
        return anim_utils.action_ensure_channelbag_for_slot(action, slot)
    layer = action.layers[0] if action.layers else action.layers.new("Layer")
    strip = layer.strips[0] if layer.strips else layer.strips.new(type="KEYFRAME")
    return strip.channelbag(slot, ensure=True)


def _slot(action, identifier: str):
    return next((slot for slot in action.slots if slot.identifier == identifier), None)


def _assign(obj, action, slot_identifier: str) -> None:
    animation = obj.animation_data
    animation.action = action
    if SLOTTED and action is not None:
        animation.action_slot = _slot(action, slot_identifier)


def is_bake_attached(obj) -> bool:
    bake = obj.mechbake.bake_action
    return bake is not None and obj.animation_data is not None and obj.animation_data.action == bake


def attach_bake(obj) -> None:
    """Plays MechBake's action on obj (its bake must exist)."""
    _assign(obj, obj.mechbake.bake_action, _bake_slot_identifier(obj))


def detach_bake(obj) -> None:
    """Gives obj the artist's action (or none) back, keeping MechBake's action for attach_bake."""
    _assign(obj, obj.mechbake.artist_action, obj.mechbake.artist_slot)


def discard_bake(obj) -> None:
    """Detaches the bake for good and deletes MechBake's action, unless something else uses it."""
    settings = obj.mechbake
    detach_bake(obj)
    bake, settings.bake_action, settings.artist_action, settings.artist_slot = settings.bake_action, None, None, ""
    if bake is not None and bake.users == 0:
        bpy.data.actions.remove(bake)
    animation = obj.animation_data
    if settings.made_animation_data and animation.action is None and not animation.drivers \
            and not animation.nla_tracks:
        obj.animation_data_clear()
    settings.made_animation_data = False


def _bake_slot_identifier(obj) -> str:
    bake = obj.mechbake.bake_action
    return bake.slots[0].identifier if SLOTTED and len(bake.slots) else ""


def _make_bake_action(obj) -> None:
    """MechBake's action for obj: a copy of the artist's action for this object without its location
    and rotation curves, or a new one; the artist's action and slot are kept for Clear."""
    settings = obj.mechbake
    settings.made_animation_data = obj.animation_data is None
    animation = obj.animation_data or obj.animation_data_create()
    artist = animation.action
    artist_slot = animation.action_slot if SLOTTED and artist is not None else None
    settings.artist_action, settings.artist_slot = artist, artist_slot.identifier if artist_slot else ""
    if artist is not None and (artist_slot is not None or not SLOTTED):
        bake = artist.copy()
        if SLOTTED:  # the copy keeps only this object's slot: the other ones animate other objects
            kept = artist_slot.identifier if artist_slot is not None else ""
            for slot in [s for s in bake.slots if s.identifier != kept]:
                bake.slots.remove(slot)
    else:
        bake = bpy.data.actions.new(obj.name)
        if SLOTTED:
            bake.slots.new(id_type="OBJECT", name=obj.name)
    bake.name = f"{obj.name} MechBake"
    settings.bake_action = bake


def write_bake_keys(obj, frames: np.ndarray, locations: np.ndarray, quaternions: np.ndarray, reference) -> np.ndarray:
    """Keys location and rotation of obj at every frame into MechBake's action (made the first time),
    replacing its earlier bake, and plays that action. reference: obj's rotation at the start, which
    the keyed rotation continues (the same Euler turn count, the same quaternion sign). Returns the
    rotation keys' values (F, k), as rotation_values gives them."""
    if obj.mechbake.bake_action is None:
        _make_bake_action(obj)
    bake = obj.mechbake.bake_action
    if SLOTTED:
        collection = _channelbag(bake, bake.slots[0]).fcurves
    else:
        collection = bake.fcurves
    for curve in [c for c in collection if c.data_path in TRANSFORM_PATHS]:
        collection.remove(curve)
    rotation_path, rotations = rotation_values(obj.rotation_mode, quaternions, reference)
    for path, values in (("location", locations), (rotation_path, rotations)):
        for index in range(values.shape[1]):
            curve = collection.new(path, index=index)
            curve.keyframe_points.add(len(frames))
            curve.keyframe_points.foreach_set("co", np.column_stack((frames, values[:, index])).ravel())
            curve.keyframe_points.foreach_set("interpolation", [_LINEAR] * len(frames))
            curve.update()
    attach_bake(obj)
    return rotations


def euler_key_error(order: str, angles: np.ndarray, quaternions: np.ndarray) -> float:
    """The largest turn, in radians, between the rotation that Euler keys (F, 3) give once Blender has
    stored them as 32-bit floats and the unit quaternions (F, 4) they were made from. Angles that keep
    growing (a body that keeps turning) hold the less precision the larger they are."""
    stored = angles.astype(np.float32).astype(float)
    keyed = np.broadcast_to(np.eye(3), (len(stored), 3, 3))
    for axis in order:  # "XYZ": X is applied first, R = Rz Ry Rx
        k = "XYZ".index(axis)
        i, j = (k + 1) % 3, (k + 2) % 3
        turn = np.zeros((len(stored), 3, 3))
        turn[:, k, k] = 1.0
        c, s = np.cos(stored[:, k]), np.sin(stored[:, k])
        turn[:, i, i], turn[:, i, j], turn[:, j, i], turn[:, j, j] = c, -s, s, c
        keyed = turn @ keyed
    exact = quaternion_to_matrix(quaternions)
    return float(np.max(np.linalg.norm(keyed - exact, axis=(1, 2)))) / np.sqrt(2.0)  # |R1 - R2|_F = 2 sqrt 2 sin(a/2)


def rotation_values(mode: str, quaternions: np.ndarray, reference=None) -> tuple[str, np.ndarray]:
    """(data path, (F, k) values) of unit quaternions (F, 4) in the object's rotation mode, continuous
    from frame to frame: quaternions keep one hemisphere, Euler angles follow the previous frame. The
    first frame continues `reference` (a quaternion or Euler angles) when given."""
    q = quaternions.copy()
    flips = np.cumprod(np.where(np.einsum("fi,fi->f", q[1:], q[:-1]) < 0, -1.0, 1.0))
    q[1:] *= flips[:, None]
    if mode == "QUATERNION":
        if reference is not None and np.dot(q[0], np.asarray(reference)) < 0:
            q = -q
        return "rotation_quaternion", q
    if mode == "AXIS_ANGLE":
        angles = 2.0 * np.arccos(np.clip(q[:, 0], -1.0, 1.0))
        sines = np.sqrt(np.maximum(1.0 - q[:, 0] ** 2, 0.0))
        axes = np.where(sines[:, None] > 1e-12, q[:, 1:] / np.maximum(sines, 1e-12)[:, None], [0.0, 0.0, 1.0])
        return "rotation_axis_angle", np.column_stack((angles, axes))
    order = cast(Literal["XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"], mode)
    eulers: list[list[float]] = []
    previous = Euler(reference, order) if reference is not None else None
    for row in q:
        euler = Quaternion(row).to_euler(order, previous) if previous is not None else Quaternion(row).to_euler(order)
        eulers.append([euler.x, euler.y, euler.z])
        previous = euler
    return "rotation_euler", np.array(eulers)


_LINEAR = cast(bpy.types.EnumProperty, bpy.types.Keyframe.bl_rna.properties["interpolation"]).enum_items["LINEAR"].value
