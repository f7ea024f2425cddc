"""Blender scene -> MechBake mechanism: the one place that reads a scene for the solver.

It produces a plain mechanism dict (format mechbake/1) and, for every Dynamic body, what the key
writer needs to put the object's origin where the body's centre of mass says. Bodies are meshes
whose role is Dynamic, Fixed or Animated; joints are empties with a joint type; only the objects of
the view layer take part (an excluded collection is not in the mechanism). Every problem found is
collected in the artist's words, each naming its object, so Validate can list them all at once.

An Animated body is never keyed: its motion table is its evaluated world matrix (keys, drivers,
constraints and parents all count) at every frame of the bake and one beyond, read by stepping the
scene through those frames once everything else has been read at the first frame.

A Dynamic body's frame is its rotation without its scale, read from its transform channels:
matrix_world = T(location + delta_location) · D · R · S(scale · delta_scale), with D the delta
rotation and R the rotation (Blender's BKE_object_to_mat4). The body turns as D·R; a negative
scale stays in S, where the keys leave it.
"""
from dataclasses import dataclass, field
from typing import Any

import bpy
import numpy as np
from mathutils import Matrix, Vector

from .keyframes import TRANSFORM_PATHS, action_fcurves
from .properties import EFFORT_JOINTS, drive_property
from .solver import Model, ModelError
from .solver.mass_properties import mesh_mass_properties
from .solver.rotation import matrix_to_quaternion

WORLD = "world"
SOLVER_NAMES = {"SYSTEM": "system", "ITERATIVE": "iterative"}
AXIS_JOINTS = ("HINGE", "SLIDER")


@dataclass
class BodyBinding:
    """How a moving body's solver state becomes its object's transform."""

    name: str  # the body's name: the object's when the scene was read
    uid: int  # the object's session_uid, which finds it again even if it is renamed during the bake
    origin_offset: np.ndarray  # (3,) object origin minus centre of mass, in the body frame
    delta_location: np.ndarray  # (3,) the object's delta location, m
    delta_rotation: np.ndarray  # (4,) its delta rotation D as a quaternion (w, x, y, z)


@dataclass
class SceneModel:
    mechanism: dict
    model: Model
    bindings: list[BodyBinding]
    frame_start: int
    frame_end: int
    fps: float
    substeps: int
    warnings: list[str]  # what bakes but may not be what the artist meant, each naming its object


@dataclass
class _Reading:
    scene: bpy.types.Scene
    depsgraph: bpy.types.Depsgraph
    in_layer: set[str]  # names of the objects of the view layer
    frame_start: int
    fps: float
    frames: np.ndarray
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def scene_problems(scene, depsgraph, frame_start=None, frame_end=None) -> tuple[list[str], list[str]]:
    """(problems, warnings): what keeps the scene from baking (empty when it bakes) and what bakes but
    may not be meant, each naming its object."""
    try:
        return [], read_scene(scene, depsgraph, frame_start, frame_end).warnings
    except ModelError as error:
        return str(error).split("\n"), []


LAST_FRAME = 1048574  # Blender's MAXFRAME: frames run from -LAST_FRAME to LAST_FRAME


def check_frame_range(frame_start: int, frame_end: int) -> None:
    """A range of frames Blender can step through, with its end after its start (ModelError otherwise)."""
    for name, frame in (("start", frame_start), ("end", frame_end)):
        if not -LAST_FRAME <= frame <= LAST_FRAME:
            raise ModelError(f"frame range {frame_start}-{frame_end}: the {name} is beyond Blender's frames "
                             f"(-{LAST_FRAME} to {LAST_FRAME})")
    if frame_end <= frame_start:
        raise ModelError(f"frame range {frame_start}-{frame_end} is empty: the end must come after the start")


def read_scene(scene, depsgraph, frame_start=None, frame_end=None) -> SceneModel:
    """The scene as it is now (the caller sets the start frame); raises ModelError listing every problem."""
    frame_start = scene.frame_start if frame_start is None else frame_start
    frame_end = scene.frame_end if frame_end is None else frame_end
    check_frame_range(frame_start, frame_end)
    fps = scene.render.fps / scene.render.fps_base
    objects = list(depsgraph.view_layer.objects)
    reading = _Reading(scene, depsgraph, {o.name for o in objects}, frame_start, fps,
                       np.arange(frame_start, frame_end + 1))
    body_objects = [o for o in objects if o.mechbake.role != "NONE"]
    joint_objects = [o for o in objects if o.type == "EMPTY" and o.mechbake.joint_type != "NONE"]
    bodies, bindings, animated = [], [], []
    for obj in body_objects:
        body = _read_body(reading, obj)
        if body is not None:
            bodies.append(body[0])
            if body[1] is not None:
                bindings.append(body[1])
            elif obj.mechbake.role == "ANIMATED":
                animated.append((body[0], obj))
    if not bindings and not reading.problems:  # every Dynamic body read has its binding
        reading.problems.append("the scene has no Dynamic body: tag at least one mesh as Dynamic")
    joints = [j for j in (_read_joint(reading, obj) for obj in joint_objects) if j is not None]
    obstacles = [o for o in (_read_obstacle(reading, obj) for obj in body_objects if obj.type == "MESH"
                             and obj.mechbake.role == "FIXED" and obj.mechbake.collision_shape != "NONE") if o]
    if not reading.problems:  # stepping through the frames is the slow part: only for a scene that can bake
        _read_motions(reading, animated)
    if reading.problems:
        raise ModelError("\n".join(reading.problems))
    settings = scene.mechbake
    gravity = list(scene.gravity) if scene.use_gravity else [0.0, 0.0, 0.0]
    mechanism = {
        "format": "mechbake/1", "gravity": gravity, "bodies": bodies, "joints": joints, "obstacles": obstacles,
        "settings": {"h": 1.0 / (fps * settings.substeps), "dmax": settings.dmax, "vmax": settings.vmax,
                     "solver": SOLVER_NAMES[settings.solver], "taylor_order": settings.taylor_order,
                     "velocity_correction": settings.velocity_correction,
                     "max_corrections": settings.max_corrections, "contact_method": settings.contact_method.lower(),
                     "extrapolation": settings.extrapolation.lower(), "levers": settings.levers.lower(),
                     "sleep_speed": settings.sleep_speed, "error_tolerance": settings.error_tolerance,
                     "energy_tolerance": settings.energy_tolerance},
    }
    return SceneModel(mechanism, Model.from_dict(mechanism), bindings, frame_start, frame_end, fps, settings.substeps,
                      reading.warnings)


def _delta_rotation(obj) -> Matrix:
    """D: the object's delta rotation (Blender keeps none for the axis-angle mode)."""
    if obj.rotation_mode == "QUATERNION":
        return obj.delta_rotation_quaternion.normalized().to_matrix()
    if obj.rotation_mode == "AXIS_ANGLE":
        return Matrix.Identity(3)
    return obj.delta_rotation_euler.to_matrix()


def _rotation(obj) -> Matrix:
    """R: the object's rotation channels as a matrix, as Blender reads them."""
    if obj.rotation_mode == "QUATERNION":
        return obj.rotation_quaternion.normalized().to_matrix()
    if obj.rotation_mode == "AXIS_ANGLE":
        angle, *axis = obj.rotation_axis_angle
        if Vector(axis).length == 0.0:
            return Matrix.Identity(3)
        return Matrix.Rotation(angle, 3, Vector(axis).normalized())
    return obj.rotation_euler.to_matrix()


def _body_rotation(obj) -> np.ndarray:
    """The body frame of a Dynamic body: D·R, its rotation without scale or mirroring."""
    return np.array(_delta_rotation(obj) @ _rotation(obj))


def _rigid_rotation(matrix: Matrix) -> np.ndarray:
    """The frame of a Fixed or Animated body, whose pose is its world matrix: the matrix's axes without
    scale, turned right-handed when the object is mirrored."""
    axes = matrix.to_3x3()
    if axes.determinant() < 0:
        axes = axes @ Matrix.Diagonal((-1.0, 1.0, 1.0))
    return np.array(axes.to_quaternion().to_matrix())


def _dynamic_problems(obj) -> list[str]:
    """What keeps a Dynamic body's keys from giving the simulated motion."""
    where = f"object '{obj.name}'"
    found = []
    if obj.library is not None:
        found.append(f"{where} is linked from the library '{obj.library.filepath}': keys cannot be saved in "
                     f"it; make it local (Object > Relations > Make Local)")
    if obj.parent is not None:
        found.append(f"{where}: a MechBake body cannot have a parent ('{obj.parent.name}'); clear it with Keep "
                     f"Transform")
    if obj.rigid_body is not None:
        found.append(f"{where}: Blender's own Rigid Body physics would override the baked motion; remove it "
                     f"(Physics > Rigid Body)")
    for constraint in obj.constraints:
        if constraint.enabled and constraint.influence > 0:
            found.append(f"{where}: its constraint '{constraint.name}' would override the baked motion; delete it "
                         f"or turn it off")
    drivers = obj.animation_data.drivers if obj.animation_data is not None else ()
    for driver in drivers:
        if driver.data_path in TRANSFORM_PATHS or driver.data_path.startswith("delta_"):
            found.append(f"{where}: a driver on its {driver.data_path.replace('_', ' ')} would override the baked "
                         f"motion; remove the driver")
    return found


def _read_body(reading: _Reading, obj):
    settings = obj.mechbake
    if obj.name == WORLD:
        reading.problems.append(f"object '{obj.name}': the name 'world' is reserved for the fixed frame; rename it")
        return None
    if obj.type != "MESH":
        article = "an" if settings.role == "ANIMATED" else "a"
        reading.problems.append(f"object '{obj.name}': {article} {settings.role.title()} body must be a mesh, not "
                                f"{obj.type.lower()}")
        return None
    origin = np.array(obj.matrix_world.translation)
    surface = {"friction": settings.friction, "restitution": settings.restitution}
    if settings.role == "FIXED":
        if obj.parent is not None:
            reading.problems.append(f"object '{obj.name}': a MechBake body cannot have a parent "
                                    f"('{obj.parent.name}'); clear it with Keep Transform")
            return None
        quaternion = matrix_to_quaternion(_rigid_rotation(obj.matrix_world)).tolist()
        animated = _fixed_but_animated(reading, obj)
        if animated is not None:
            reading.warnings.append(animated)
        return {"name": obj.name, "mass": 1.0, "position": origin.tolist(), "orientation": quaternion, "fixed": True,
                **surface}, None
    if settings.role == "ANIMATED":
        return _read_animated(reading, obj, surface)
    unfit = _dynamic_problems(obj)
    if unfit:
        reading.problems.extend(unfit)
        return None
    rotation = _body_rotation(obj)
    quaternion = matrix_to_quaternion(rotation).tolist()
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
    if mass is None and overlapping_parts(vertices, triangles):
        reading.warnings.append(f"object '{obj.name}': parts of its mesh overlap (an Array modifier's copies?), so "
                                f"the volume they share counts twice and the mass is too large; set its Mass, or "
                                f"let the parts touch without overlapping")
    inertia_body = rotation.T @ props.inertia @ rotation  # the body frame turns with the object
    body = {"name": obj.name, "mass": props.mass, "inertia": inertia_body.tolist(), "position": props.centre.tolist(),
            "orientation": quaternion, **surface}
    if settings.collision_shape != "NONE":
        shape = _shape(reading, obj, (vertices - props.centre) @ rotation, triangles)
        if shape is None:
            return None
        body["shape"] = shape
    delta = np.array(_delta_rotation(obj).to_quaternion())
    return body, BodyBinding(obj.name, obj.session_uid, rotation.T @ (origin - props.centre),
                             np.array(obj.delta_location), delta)


def _animated_problems(reading: _Reading, obj) -> list[str]:
    """What keeps an Animated body's animation from being the motion it drives the mechanism with."""
    where = f"object '{obj.name}'"
    found = []
    if obj.mechbake.is_baked:  # its keys would land in MechBake's action, which the bake takes off to read it
        found.append(f"{where} still plays MechBake's bake from when it was Dynamic, not its own animation; press "
                     f"Clear Bake before animating it")
    leaders = [(parent, "its parent") for parent in _ancestors(obj)]
    leaders += [(constraint.target, f"the target of its constraint '{constraint.name}'")
                for constraint in _active_constraints(obj) if getattr(constraint, "target", None) is not None]
    for leader, relation in leaders:
        if leader.name in reading.in_layer and leader.mechbake.role == "DYNAMIC":
            found.append(f"{where}: an Animated body cannot follow the Dynamic body '{leader.name}' ({relation}), "
                         f"whose motion is what the bake computes; join the two with a joint instead")
    return found


def _active_constraints(obj) -> list:
    return [constraint for constraint in obj.constraints if constraint.enabled and constraint.influence > 0]


def _fixed_but_animated(reading: _Reading, obj) -> str | None:
    """A warning for a Fixed body whose animation would move it: the bake holds it where it is at the
    first frame, so the artist may have meant Animated."""
    moved_by = [f"its constraint '{c.name}'" for c in _active_constraints(obj)]
    drivers = obj.animation_data.drivers if obj.animation_data is not None else ()
    moved_by += [f"a driver on its {d.data_path.replace('_', ' ')}" for d in drivers if _moves(d.data_path)]
    for curve in action_fcurves(obj):
        values = [curve.evaluate(float(frame)) for frame in reading.frames]
        if _moves(curve.data_path) and max(values) - min(values) > 1e-9:
            moved_by.append(f"its keys on {curve.data_path.replace('_', ' ')}")
            break
    if not moved_by:
        return None
    return (f"object '{obj.name}': it is Fixed, so it stays where it is at the first frame, but {moved_by[0]} would "
            f"move it; make it Animated to have the mechanism follow its animation")


def _moves(data_path: str) -> bool:
    """Whether an animated property is one that places the object."""
    return data_path in TRANSFORM_PATHS or data_path in ("scale", "delta_scale") or data_path.startswith("delta_")


def _ancestors(obj) -> list:
    found = []
    while obj.parent is not None:
        obj = obj.parent
        found.append(obj)
    return found


def _read_animated(reading: _Reading, obj, surface: dict):
    """An Animated body as it is at the first frame: its surface and collision shape, in its frame about
    its origin (its reference point). Its motion table is read later, with all the others (_read_motions)."""
    unfit = _animated_problems(reading, obj)
    if unfit:
        reading.problems.extend(unfit)
        return None
    body = {"name": obj.name, **surface}
    if obj.mechbake.collision_shape != "NONE":
        matrix = obj.evaluated_get(reading.depsgraph).matrix_world
        vertices, triangles = _world_triangles(obj, reading.depsgraph)
        if not np.isfinite(vertices).all():
            reading.problems.append(f"object '{obj.name}': the mesh has vertices that are not finite")
            return None
        if len(vertices) == 0:
            reading.problems.append(f"object '{obj.name}': the mesh has no vertices to collide with; set its "
                                    f"Collision Shape to None")
            return None
        shape = _shape(reading, obj, (vertices - np.array(matrix.translation)) @ _rigid_rotation(matrix), triangles)
        if shape is None:
            return None
        body["shape"] = shape
    return body, None


def _read_motions(reading: _Reading, animated: list) -> None:
    """Gives every Animated body (body record, object) its motion table: its evaluated world matrix at
    every frame of the bake and one beyond the last (after its table the solver holds a body still),
    time 0 at the first frame. The scene goes back to its frame afterwards; the values animation wrote
    on the way are the caller's to restore (bake.py's _frame_round_trip)."""
    if not animated:
        return
    scene = reading.scene
    frames = np.append(reading.frames, reading.frames[-1] + 1)
    matrices = np.empty((len(animated), len(frames), 4, 4))
    frame, subframe = scene.frame_current, scene.frame_subframe
    try:
        for k, sampled in enumerate(frames):
            scene.frame_set(int(sampled))
            for b, (_, obj) in enumerate(animated):
                matrices[b, k] = np.array(obj.evaluated_get(reading.depsgraph).matrix_world)
    finally:
        scene.frame_set(frame, subframe=subframe)
    times = (frames - reading.frame_start) / reading.fps
    for (body, obj), track in zip(animated, matrices):
        unfinite = np.flatnonzero(~np.isfinite(track).all(axis=(1, 2)))
        if len(unfinite):
            reading.problems.append(f"object '{obj.name}': its animation puts it nowhere (a transform that is not "
                                    f"finite) at frame {frames[unfinite[0]]}")
            continue
        scales = np.linalg.norm(track[:, :3, :3], axis=1)
        if "shape" in body and np.abs(scales / scales[0] - 1.0).max() > 1e-4:
            reading.warnings.append(f"object '{obj.name}': its scale changes during the bake, but its collision "
                                    f"shape stays as it is at the first frame")
        orientations = [matrix_to_quaternion(_rigid_rotation(Matrix(m.tolist()))).tolist() for m in track]
        body["motion"] = {"time": times.tolist(), "position": track[:, :3, 3].tolist(), "orientation": orientations}


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
    where = f"joint '{obj.name}'"
    fail = reading.problems.append
    body_a, body_b = _joint_side(reading, obj, "body_a"), _joint_side(reading, obj, "body_b")
    if body_a is None or body_b is None:
        return None
    sides = {"body_a": body_a, "body_b": body_b}
    if sides["body_a"] == sides["body_b"] != WORLD:
        fail(f"{where}: Body A and Body B are the same object ('{sides['body_a']}'); a joint holds two different "
             f"bodies (leave Body A empty to hold Body B to the world)")
        return None
    held = [name for name in sides.values() if name != WORLD]
    if all(_role(reading.scene.objects[name]) != "DYNAMIC" for name in held):
        fail(f"{where}: {_nothing_held(reading, held)}")
        return None
    matrix = obj.matrix_world
    anchor = list(matrix.translation)
    axis = np.array(matrix.to_3x3() @ Vector((0.0, 0.0, 1.0)))
    joint = {"name": obj.name, "type": kind.lower(), **sides}
    if kind in ("BALL", "FIXED"):
        joint["anchor"] = anchor
    elif kind in AXIS_JOINTS:
        if np.linalg.norm(axis) < 1e-9:
            fail(f"{where}: its Z axis has no length (the empty is scaled to zero)")
            return None
        joint.update(anchor=anchor, axis=(axis / np.linalg.norm(axis)).tolist())
    else:
        target = settings.target
        if target is None:
            fail(f"{where}: a {kind.title()} joint needs a Target object marking its other end")
            return None
        if target.name not in reading.in_layer:
            fail(f"{where}: its Target '{target.name}' is not in the scene (deleted, or its collection is excluded)")
            return None
        other_end = list(target.matrix_world.translation)
        if (Vector(other_end) - Vector(anchor)).length < 1e-9:
            fail(f"{where}: its Target '{target.name}' is where the joint is; move it to the joint's other end")
            return None
        if kind == "RAIL":
            joint.update(start=anchor, end=other_end, point=_rail_point(reading, anchor, other_end, sides["body_b"]))
        else:
            joint.update(anchor_a=anchor, anchor_b=other_end)
        if kind == "SPRING":
            joint.update(stiffness=_keyed(reading, obj, "spring_stiffness"),
                         damping=_keyed(reading, obj, "spring_damping"), method=settings.spring_method.lower())
            if settings.use_spring_rest:
                joint["rest_length"] = _keyed(reading, obj, drive_property(kind, "spring_rest"))
    if kind in AXIS_JOINTS:
        _read_axis_drives(reading, obj, joint)
    elif settings.motor_mode != "NONE":
        fail(f"{where}: a {kind.title()} joint cannot carry a motor (only Hinge and Slider can)")
        return None
    if settings.use_effort:
        if kind not in EFFORT_JOINTS:
            fail(f"{where}: a {kind.title()} joint cannot carry an applied effort (only Hinge, Slider and Rail can)")
            return None
        joint["effort"] = _keyed(reading, obj, "effort")
    return joint


def _nothing_held(reading: _Reading, held: list[str]) -> str:
    """Why a joint whose bodies are all Fixed, Animated or the world holds nothing, and what to do."""
    if not held:
        return "neither of its bodies can move (both are the world); set a Dynamic body as its Body B"
    roles = {name: _role(reading.scene.objects[name]) for name in held}
    if "ANIMATED" not in roles.values():
        said = " and ".join(f"'{name}' is Fixed" for name in held)
        return f"neither of its bodies can move ({said}); make one of them Dynamic"
    said = " and ".join(f"'{name}' is Animated (it follows its own animation)" if role == "ANIMATED"
                        else f"'{name}' is Fixed" for name, role in roles.items())
    if len(held) == 1:
        return (f"neither of its bodies is simulated: {said} and the other side is the world; make '{held[0]}' "
                f"Dynamic, or join it to a Dynamic body")
    return f"neither of its bodies is simulated: {said}; make one of them Dynamic"


def _joint_side(reading: _Reading, obj, side: str) -> str | None:
    """The body a joint holds on one side (WORLD when none is set), or None with the problem noted."""
    settings = obj.mechbake
    label = side.replace("_", " ").title()
    other = getattr(settings, side)
    if other is None:
        remembered = getattr(settings, f"{side}_name")
        if remembered:  # the pointer was emptied by deleting its body, not by the artist
            reading.problems.append(f"joint '{obj.name}': its {label} '{remembered}' was deleted; pick another body, "
                                    f"or clear {label} to hold the joint to the world")
            return None
        return WORLD
    if other.name not in reading.in_layer:
        reading.problems.append(f"joint '{obj.name}': its {label} '{other.name}' is not in the scene (deleted, or "
                                f"its collection is excluded)")
        return None
    if other.type != "MESH" or other.mechbake.role == "NONE":
        reading.problems.append(f"joint '{obj.name}': {label} '{other.name}' is not a MechBake body (give it a role)")
        return None
    return other.name


def _rail_point(reading: _Reading, start, end, body_b: str) -> list:
    """Where body B's origin projects onto the rail: the point of B that runs on it."""
    start, end = np.array(start), np.array(end)
    origin = np.array(reading.scene.objects[body_b].matrix_world.translation) if body_b != WORLD else start
    direction = (end - start) / max(np.linalg.norm(end - start), 1e-300)
    along = float(np.clip(np.dot(origin - start, direction), 0.0, np.linalg.norm(end - start)))
    return (start + along * direction).tolist()


def _read_axis_drives(reading: _Reading, obj, joint: dict) -> None:
    settings = obj.mechbake
    kind = settings.joint_type
    if settings.use_limits:
        lower = _keyed(reading, obj, drive_property(kind, "limit_min"))
        upper = _keyed(reading, obj, drive_property(kind, "limit_max"))
        _check_limits(reading, obj, lower, upper)
        joint["limits"] = [lower, upper]
    if settings.use_spring:
        joint["spring"] = {"stiffness": _keyed(reading, obj, "spring_stiffness"),
                           "damping": _keyed(reading, obj, "spring_damping"),
                           "rest": _keyed(reading, obj, drive_property(kind, "spring_rest")),
                           "method": settings.spring_method.lower()}
    if settings.motor_mode != "NONE":
        target = "motor_target" if settings.motor_mode == "POSITION" else "motor_speed"
        motor = {"mode": settings.motor_mode.lower(), "target": _keyed(reading, obj, drive_property(kind, target)),
                 "brake": _keyed(reading, obj, "motor_brake")}
        if settings.motor_max_torque > 0:
            motor["max_force" if kind == "SLIDER" else "max_torque"] = settings.motor_max_torque
        joint["motor"] = motor


def _check_limits(reading: _Reading, obj, lower, upper) -> None:
    """The limits must hold the start pose (position 0) and keep Min below Max at every frame."""
    lows, highs = _values(reading, lower), _values(reading, upper)
    category = "ROTATION" if obj.mechbake.joint_type == "HINGE" else "LENGTH"

    def shown(value: float) -> str:  # as the field shows it
        units = reading.scene.unit_settings
        if category == "ROTATION" and units.system_rotation == "RADIANS":
            return f"{value:.3g}"
        return bpy.utils.units.to_string(units.system, category, value)

    if not lows[0] <= 0.0 <= highs[0]:
        reading.problems.append(f"joint '{obj.name}': its limits ({shown(lows[0])} to {shown(highs[0])}) must include "
                                f"{shown(0.0)}, the start pose: a joint starts where it is placed")
    crossed = np.flatnonzero(lows >= highs)
    if len(crossed):
        reading.problems.append(f"joint '{obj.name}': its limit Min is not below Max at frame "
                                f"{reading.frames[crossed[0]]}")


def _values(reading: _Reading, value) -> np.ndarray:
    """A drive value at every frame of the bake, from a number or a keyed table."""
    if isinstance(value, list):
        return np.array([row[1] for row in value])
    return np.full(len(reading.frames), float(value))


def _keyed(reading: _Reading, obj, prop: str):
    """The property's value, or, when it is animated, a [[time, value], ...] table with one row per frame
    (time 0 at the start frame), which the solver follows piecewise linearly."""
    curve = next((c for c in action_fcurves(obj) if c.data_path == f"mechbake.{prop}"), None)
    if curve is None:
        return getattr(obj.mechbake, prop)
    times = (reading.frames - reading.frame_start) / reading.fps
    return [[float(t), float(curve.evaluate(float(f)))] for t, f in zip(times, reading.frames)]


def overlapping_parts(vertices: np.ndarray, triangles: np.ndarray) -> bool:
    """Whether two closed parts of a mesh overlap, so that the volume they share is counted twice: a
    point just inside one part (a vertex moved a little along its inward normal) lies inside another.
    Parts that only touch do not overlap; a part wound inward is a cavity, not a part."""
    shells = _shells(len(vertices), triangles)
    parts = []
    for label in np.unique(shells):
        part = triangles[shells == label]
        corners = vertices[part]
        low, high = corners.min(axis=(0, 1)), corners.max(axis=(0, 1))
        if np.linalg.det(corners - (low + high) / 2).sum() > 0:
            parts.append((corners, low, high, _points_within(vertices, part, float((high - low).max()))))
    for i, (corners_i, low_i, high_i, within_i) in enumerate(parts):
        for corners_j, low_j, high_j, within_j in parts[i + 1:]:
            if np.all(np.minimum(high_i, high_j) > np.maximum(low_i, low_j)):  # the boxes share a volume
                if _inside(within_i, corners_j) or _inside(within_j, corners_i):
                    return True
    return False


def _points_within(vertices: np.ndarray, part: np.ndarray, size: float, samples: int = 64) -> np.ndarray:
    """A few of the part's vertices, each moved inside it by a thousandth of its size along its normal."""
    normals = np.zeros_like(vertices)
    face_normals = np.cross(vertices[part[:, 1]] - vertices[part[:, 0]], vertices[part[:, 2]] - vertices[part[:, 0]])
    for k in range(3):
        np.add.at(normals, part[:, k], face_normals)
    used = np.unique(part)
    used = used[np.linspace(0, len(used) - 1, min(samples, len(used))).astype(int)]
    lengths = np.maximum(np.linalg.norm(normals[used], axis=1, keepdims=True), 1e-300)
    return vertices[used] - 1e-3 * size * normals[used] / lengths


def _shells(vertex_count: int, triangles: np.ndarray) -> np.ndarray:
    """The connected part of every triangle, by label propagation with pointer jumping."""
    label = np.arange(vertex_count)
    while True:
        lowest = label[triangles].min(axis=1)
        joined = label.copy()
        for k in range(3):
            np.minimum.at(joined, triangles[:, k], lowest)
        joined = joined[joined]
        if np.array_equal(joined, label):
            return label[triangles[:, 0]]
        label = joined


def _inside(points: np.ndarray, corners: np.ndarray) -> bool:
    """Whether any of the points lies inside the closed surface of the triangles `corners`: its winding
    number (Van Oosterom and Strackee's solid angles over 4 pi) is near 1."""
    solid_angles = np.zeros(len(points))
    for chunk in range(0, len(corners), 4096):  # a few MB at a time, whatever the mesh's size
        a, b, c = (corners[None, chunk:chunk + 4096, k] - points[:, None] for k in range(3))
        la, lb, lc = (np.linalg.norm(v, axis=2) for v in (a, b, c))
        numerator = np.einsum("ptk,ptk->pt", a, np.cross(b, c))
        denominator = (la * lb * lc + np.einsum("ptk,ptk->pt", a, b) * lc + np.einsum("ptk,ptk->pt", a, c) * lb
                       + np.einsum("ptk,ptk->pt", b, c) * la)
        solid_angles += 2.0 * np.arctan2(numerator, denominator).sum(axis=1)
    winding = solid_angles / (4.0 * np.pi)
    return bool(np.any(np.abs(winding) > 0.75))


def _role(obj: Any) -> str:
    return obj.mechbake.role
