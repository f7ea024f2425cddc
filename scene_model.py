"""Blender scene -> MechBake mechanism: the one place that reads a scene for the solver.

It produces a plain mechanism dict (format mechbake/1) and, for every moving body, what the key
writer needs to put the object's origin where the body's centre of mass says. Bodies are meshes
whose role is Dynamic or Fixed; joints are empties with a joint type. Every problem found is
collected, each naming its object, so Validate can list them all.
"""
from dataclasses import dataclass, field

import bpy
import numpy as np
from mathutils import Vector

from .keyframes import action_fcurves
from .solver import Model, ModelError
from .solver.mass_properties import mesh_mass_properties

WORLD = "world"
SOLVER_NAMES = {"SYSTEM": "system", "ITERATIVE": "iterative"}
AXIS_JOINTS = ("HINGE", "SLIDER")


@dataclass
class BodyBinding:
    """How a moving body's solver state becomes its object's transform."""

    name: str  # object and body name
    origin_offset: np.ndarray  # (3,) object origin minus centre of mass, in the body frame


@dataclass
class SceneModel:
    mechanism: dict
    model: Model
    bindings: list[BodyBinding]
    frame_start: int
    frame_end: int
    fps: float
    substeps: int


@dataclass
class _Reading:
    scene: bpy.types.Scene
    depsgraph: bpy.types.Depsgraph
    frame_start: int
    fps: float
    frames: np.ndarray
    problems: list[str] = field(default_factory=list)


def scene_problems(scene, depsgraph, frame_start=None, frame_end=None) -> list[str]:
    """Every problem that keeps the scene from baking, each naming its object; empty when it bakes."""
    try:
        read_scene(scene, depsgraph, frame_start, frame_end)
    except ModelError as error:
        return str(error).split("\n")
    return []


def read_scene(scene, depsgraph, frame_start=None, frame_end=None) -> SceneModel:
    """The scene as it is now (the caller sets the start frame); raises ModelError listing every problem."""
    frame_start = scene.frame_start if frame_start is None else frame_start
    frame_end = scene.frame_end if frame_end is None else frame_end
    if frame_end <= frame_start:
        raise ModelError(f"frame range {frame_start}-{frame_end} is empty: the end must come after the start")
    fps = scene.render.fps / scene.render.fps_base
    reading = _Reading(scene, depsgraph, frame_start, fps, np.arange(frame_start, frame_end + 1))
    body_objects = [o for o in scene.objects if o.mechbake.role != "NONE"]
    joint_objects = [o for o in scene.objects if o.type == "EMPTY" and o.mechbake.joint_type != "NONE"]
    bodies, bindings = [], []
    for obj in body_objects:
        body = _read_body(reading, obj)
        if body is not None:
            bodies.append(body[0])
            if body[1] is not None:
                bindings.append(body[1])
    if not any(not b.get("fixed", False) for b in bodies) and not reading.problems:
        reading.problems.append("the scene has no Dynamic body: tag at least one mesh as Dynamic")
    joints = [j for j in (_read_joint(reading, obj) for obj in joint_objects) if j is not None]
    obstacles = [o for o in (_read_obstacle(reading, obj) for obj in body_objects if obj.type == "MESH"
                             and obj.mechbake.role == "FIXED" and obj.mechbake.collision_shape != "NONE") if o]
    if reading.problems:
        raise ModelError("\n".join(reading.problems))
    settings = scene.mechbake
    gravity = list(scene.gravity) if scene.use_gravity else [0.0, 0.0, 0.0]
    mechanism = {
        "format": "mechbake/1", "gravity": gravity, "bodies": bodies, "joints": joints, "obstacles": obstacles,
        "settings": {"h": 1.0 / (fps * settings.substeps), "dmax": settings.dmax, "vmax": settings.vmax,
                     "solver": SOLVER_NAMES[settings.solver], "taylor_order": settings.taylor_order,
                     "velocity_correction": settings.velocity_correction,
                     "max_corrections": settings.max_corrections, "contact_method": settings.contact_method.lower()},
    }
    return SceneModel(mechanism, Model.from_dict(mechanism), bindings, frame_start, frame_end, fps, settings.substeps)


def _world_rotation(obj) -> np.ndarray:
    """The object's world rotation without its scale, as a 3x3 matrix."""
    return np.array(obj.matrix_world.to_quaternion().to_matrix())


def _read_body(reading: _Reading, obj):
    settings = obj.mechbake
    if obj.name == WORLD:
        reading.problems.append(f"object '{obj.name}': the name 'world' is reserved for the fixed frame; rename it")
        return None
    if obj.type != "MESH":
        reading.problems.append(f"object '{obj.name}': a {settings.role.title()} body must be a mesh, not {obj.type.lower()}")
        return None
    if obj.parent is not None:
        reading.problems.append(f"object '{obj.name}': a MechBake body cannot have a parent ('{obj.parent.name}'); "
                                f"clear it with Keep Transform")
        return None
    rotation = _world_rotation(obj)
    origin = np.array(obj.matrix_world.translation)
    quaternion = list(obj.matrix_world.to_quaternion())
    surface = {"friction": settings.friction, "restitution": settings.restitution}
    if settings.role == "FIXED":
        return {"name": obj.name, "mass": 1.0, "position": origin.tolist(), "orientation": quaternion, "fixed": True,
                **surface}, None
    try:
        vertices, triangles = _world_triangles(obj, reading.depsgraph)
        if not np.isfinite(vertices).all():
            raise ModelError(f"object '{obj.name}': the mesh has vertices that are not finite")
        mass = settings.mass if settings.mass > 0 else None
        if mass is None and settings.density <= 0:
            raise ModelError(f"object '{obj.name}': needs a positive mass or density")
        props = mesh_mass_properties(vertices, triangles, density=settings.density, mass=mass, name=obj.name)
    except ModelError as error:
        reading.problems.append(str(error))
        return None
    inertia_body = rotation.T @ props.inertia @ rotation  # the body frame turns with the object
    body = {"name": obj.name, "mass": props.mass, "inertia": inertia_body.tolist(), "position": props.centre.tolist(),
            "orientation": quaternion, **surface}
    if settings.collision_shape != "NONE":
        shape = _shape(reading, obj, (vertices - props.centre) @ rotation, triangles)
        if shape is None:
            return None
        body["shape"] = shape
    return body, BodyBinding(obj.name, rotation.T @ (origin - props.centre))


def _shape(reading: _Reading, obj, points: np.ndarray, triangles: np.ndarray):
    """The body's collision shape from its mesh, in the body frame about the centre of mass."""
    kind = obj.mechbake.collision_shape
    low, high = points.min(axis=0), points.max(axis=0)
    extent = high - low
    if kind == "SPHERE":
        return {"type": "sphere", "radius": float(np.linalg.norm(points, axis=1).max())}
    if kind == "CAPSULE":
        radius = float(np.linalg.norm(points[:, :2], axis=1).max())
        return {"type": "capsule", "radius": radius, "length": float(max(extent[2] - 2 * radius, 0.0))}
    if kind == "BOX":
        if np.any(extent < 1e-9):
            reading.problems.append(f"object '{obj.name}': its bounding box is flat, so a Box shape has no size")
            return None
        # the box need not be centred on the centre of mass
        return {"type": "box", "size": extent.tolist(), "centre": ((low + high) / 2).tolist()}
    return {"type": "convex", "vertices": _hull_corners(points).tolist()}


def _hull_corners(points: np.ndarray) -> np.ndarray:
    """The vertices of the points' convex hull (bmesh computes the hull)."""
    import bmesh

    hull = bmesh.new()
    try:
        for point in points:
            hull.verts.new(point)
        result = bmesh.ops.convex_hull(hull, input=list(hull.verts))
        corners = np.array([v.co for v in result["geom"] if isinstance(v, bmesh.types.BMVert)])
    finally:
        hull.free()
    return corners if len(corners) >= 4 else points


def _read_obstacle(reading: _Reading, obj):
    """A Fixed mesh's evaluated triangles, in the world: an obstacle for the contacts."""
    vertices, triangles = _world_triangles(obj, reading.depsgraph)
    if len(triangles) == 0:
        reading.problems.append(f"object '{obj.name}': a Fixed body with collisions needs faces (the mesh has none)")
        return None
    corners = vertices[triangles]
    areas = np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]), axis=1)
    keep = areas > 1e-14  # degenerate triangles of a modelled mesh carry no surface: leave them out
    return {"name": obj.name, "type": "mesh", "vertices": vertices.tolist(), "triangles": triangles[keep].tolist(),
            "friction": obj.mechbake.friction, "restitution": obj.mechbake.restitution}


def _world_triangles(obj, depsgraph) -> tuple[np.ndarray, np.ndarray]:
    """The evaluated mesh (modifiers applied) as world-space vertices and triangles."""
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    try:
        mesh.calc_loop_triangles()
        vertices = np.empty(len(mesh.vertices) * 3)
        mesh.vertices.foreach_get("co", vertices)
        triangles = np.empty(len(mesh.loop_triangles) * 3, dtype=np.int32)
        mesh.loop_triangles.foreach_get("vertices", triangles)
    finally:
        evaluated.to_mesh_clear()
    matrix = np.array(obj.matrix_world)
    world = vertices.reshape(-1, 3) @ matrix[:3, :3].T + matrix[:3, 3]
    return world, triangles.reshape(-1, 3)


def _read_joint(reading: _Reading, obj):
    settings = obj.mechbake
    kind = settings.joint_type
    fail = reading.problems.append
    sides = {}
    for side in ("body_a", "body_b"):
        other = getattr(settings, side)
        if other is not None and (other.type != "MESH" or other.mechbake.role == "NONE"):
            fail(f"joint '{obj.name}': {side.replace('_', ' ').title()} '{other.name}' is not a MechBake body "
                 f"(give it a role)")
            return None
        sides[side] = other.name if other is not None else WORLD
    matrix = obj.matrix_world
    anchor = list(matrix.translation)
    axis = np.array(matrix.to_3x3() @ Vector((0.0, 0.0, 1.0)))
    joint = {"name": obj.name, "type": kind.lower(), **sides}
    if kind in ("BALL", "FIXED"):
        joint["anchor"] = anchor
    elif kind in AXIS_JOINTS:
        if np.linalg.norm(axis) < 1e-9:
            fail(f"joint '{obj.name}': its Z axis has no length (the empty is scaled to zero)")
            return None
        joint.update(anchor=anchor, axis=(axis / np.linalg.norm(axis)).tolist())
    else:
        target = settings.target
        if target is None:
            fail(f"joint '{obj.name}': a {kind.title()} joint needs a Target object marking its other end")
            return None
        other_end = list(target.matrix_world.translation)
        if kind == "RAIL":
            joint.update(start=anchor, end=other_end, point=_rail_point(reading, obj, anchor, other_end, sides["body_b"]))
        else:
            joint.update(anchor_a=anchor, anchor_b=other_end)
        if kind == "SPRING":
            joint.update(stiffness=_keyed(reading, obj, "spring_stiffness"), damping=_keyed(reading, obj, "spring_damping"),
                         method=settings.spring_method.lower())
            if settings.use_spring_rest:
                joint["rest_length"] = _keyed(reading, obj, "spring_rest")
    if kind in AXIS_JOINTS:
        _read_axis_drives(reading, obj, joint)
    elif settings.motor_mode != "NONE":
        fail(f"joint '{obj.name}': a {kind.title()} joint cannot carry a motor (only Hinge and Slider can)")
        return None
    return joint


def _rail_point(reading, obj, start, end, body_b: str) -> list:
    """Where body B's origin projects onto the rail: the point of B that runs on it."""
    start, end = np.array(start), np.array(end)
    origin = np.array(reading.scene.objects[body_b].matrix_world.translation) if body_b != WORLD else start
    direction = (end - start) / max(np.linalg.norm(end - start), 1e-300)
    along = float(np.clip(np.dot(origin - start, direction), 0.0, np.linalg.norm(end - start)))
    return (start + along * direction).tolist()


def _read_axis_drives(reading, obj, joint: dict) -> None:
    settings = obj.mechbake
    if settings.use_limits:
        joint["limits"] = [_keyed(reading, obj, "limit_min"), _keyed(reading, obj, "limit_max")]
    if settings.use_spring:
        joint["spring"] = {"stiffness": _keyed(reading, obj, "spring_stiffness"),
                           "damping": _keyed(reading, obj, "spring_damping"),
                           "rest": _keyed(reading, obj, "spring_rest"), "method": settings.spring_method.lower()}
    if settings.motor_mode != "NONE":
        motor = {"mode": settings.motor_mode.lower(), "target": _keyed(reading, obj, "motor_target"),
                 "brake": _keyed(reading, obj, "motor_brake")}
        if settings.motor_max_torque > 0:
            motor["max_force" if settings.joint_type == "SLIDER" else "max_torque"] = settings.motor_max_torque
        joint["motor"] = motor


def _keyed(reading: _Reading, obj, prop: str):
    """The property's value, or, when it is animated, a [[time, value], ...] table with one row per frame
    (time 0 at the start frame), which the solver follows piecewise linearly."""
    curve = _fcurve(obj, f"mechbake.{prop}")
    if curve is None:
        return getattr(obj.mechbake, prop)
    times = (reading.frames - reading.frame_start) / reading.fps
    return [[float(t), float(curve.evaluate(float(f)))] for t, f in zip(times, reading.frames)]


def _fcurve(obj, data_path: str):
    animation = obj.animation_data
    if animation is None or animation.action is None:
        return None
    for curve in action_fcurves(obj):
        if curve.data_path == data_path:
            return curve
    return None
