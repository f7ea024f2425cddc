"""Building MechBake mechanisms in Blender from a script: meshes for bodies, empties for joints.

Used by build_blend.py (the sample .blend files) and by the tests of the extension; both load the
checkout as `mechbake` first.
"""
import math

import bpy
from mathutils import Matrix, Vector

from mechbake.keyframes import action_fcurves


def _link(obj):
    bpy.context.scene.collection.objects.link(obj)
    return obj


def _updated(obj):
    """matrix_world follows location, rotation and scale only once the view layer is updated."""
    bpy.context.view_layer.update()
    return obj


def add_rod(name: str, start, end, radius: float = 0.02, mass: float = 0.0, role: str = "DYNAMIC",
            sides: int = 32, shape: str = "NONE"):
    """A cylinder from start to end; mass 0 takes it from the density (1000 kg/m^3)."""
    start, end = Vector(start), Vector(end)
    bpy.ops.mesh.primitive_cylinder_add(vertices=sides, radius=radius, depth=(end - start).length,
                                        location=(start + end) / 2)
    obj = bpy.context.active_object
    obj.name = name
    obj.rotation_mode = "QUATERNION"
    obj.rotation_quaternion = Vector((0, 0, 1)).rotation_difference(end - start)
    obj.mechbake.role, obj.mechbake.mass, obj.mechbake.collision_shape = role, mass, shape
    return _updated(obj)


def add_box(name: str, size, location, rotation=(0.0, 0.0, 0.0), mass: float = 0.0, role: str = "DYNAMIC",
            shape: str = "BOX"):
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=location, rotation=rotation)
    obj = bpy.context.active_object
    obj.name = name
    obj.scale = size
    obj.mechbake.role, obj.mechbake.mass, obj.mechbake.collision_shape = role, mass, shape
    return _updated(obj)


def add_ball(name: str, radius: float, location, mass: float = 0.0, restitution: float = 0.0):
    bpy.ops.mesh.primitive_uv_sphere_add(radius=radius, location=location, segments=24, ring_count=12)
    obj = bpy.context.active_object
    obj.name = name
    obj.mechbake.role, obj.mechbake.mass, obj.mechbake.collision_shape = "DYNAMIC", mass, "SPHERE"
    obj.mechbake.restitution = restitution
    return _updated(obj)


def place_origin(obj, point):
    """Moves the object's origin to a world point (a crank's axle), leaving its mesh where it is."""
    local = obj.matrix_world.inverted() @ Vector(point)
    obj.data.transform(Matrix.Translation(-local))
    obj.matrix_world = obj.matrix_world @ Matrix.Translation(local)
    return _updated(obj)


def key_turning(obj, axis_index: int, turns_per_second: float, first: int, last: int):
    """Keys the object turning steadily about one of its Euler axes from where it stands: linear keys at
    frames `first` and `last`, extrapolated linearly beyond them (a motor-driven crank)."""
    fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
    obj.rotation_mode = "XYZ"  # Blender converts the rotation it has
    start_angle = obj.rotation_euler[axis_index]
    for frame in (first, last):
        obj.rotation_euler[axis_index] = start_angle + 2 * math.pi * turns_per_second * (frame - first) / fps
        obj.keyframe_insert("rotation_euler", index=axis_index, frame=frame)
    for curve in action_fcurves(obj):
        if curve.data_path == "rotation_euler" and curve.array_index == axis_index:
            for key in curve.keyframe_points:
                key.interpolation = "LINEAR"
            curve.extrapolation = "LINEAR"  # and on at that rate after the last key
    obj.rotation_euler[axis_index] = start_angle  # as the keys have it at the first frame
    return _updated(obj)


def add_marker(name: str, location):
    """A plain empty that marks a point (a spring's or distance joint's other end, a rail's end)."""
    obj = _link(bpy.data.objects.new(name, None))
    obj.location = location
    obj.empty_display_size = 0.05
    return _updated(obj)


def add_joint(name: str, joint_type: str, location, axis=(0.0, 0.0, 1.0), body_a=None, body_b=None, target=None,
              **settings):
    """An empty whose local Z is `axis`; settings are Object.mechbake properties (limit_min=..., ...)."""
    obj = _link(bpy.data.objects.new(name, None))
    obj.location = location
    obj.rotation_mode = "QUATERNION"
    obj.rotation_quaternion = Vector((0, 0, 1)).rotation_difference(Vector(axis))
    obj.empty_display_type = "SINGLE_ARROW"
    obj.empty_display_size = 0.2
    joint = obj.mechbake
    joint.joint_type, joint.body_a, joint.body_b, joint.target = joint_type, body_a, body_b, target
    for key, value in settings.items():
        setattr(joint, key, value)
    return _updated(obj)


def set_frames(start: int, end: int, fps: int = 24, substeps: int = 10, dmax: float | None = None) -> None:
    """dmax: None leaves the scene's (the add-on's default, as an artist who never touches it has)."""
    scene = bpy.context.scene
    scene.frame_start, scene.frame_end = start, end
    scene.render.fps, scene.render.fps_base = fps, 1.0
    scene.mechbake.substeps = substeps
    if dmax is not None:
        scene.mechbake.dmax = dmax


def degrees(value: float) -> float:
    return math.radians(value)
