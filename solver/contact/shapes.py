"""Body shapes and obstacles: reading them from a mechanism file, and a convex shape's contact hull.

Shapes are spheres, capsules, boxes, convex shapes (contact by the hull of their points) and point
sets; shape_table.py lays them out for the narrow phase. Obstacles are planes and triangle meshes,
fixed in the world.
"""
import numpy as np

from ..errors import ModelError
from ..spec import RecordReader, checked_array, short_repr
from .hull import Hull, convex_hull, spans_volume

SHAPES = ("sphere", "capsule", "box", "convex", "points")
# Corners of a convex shape's contact hull, at most (PhysX limits GPU hulls to 64 vertices, Bullet's
# btShapeHull keeps 42): the separating axis test and a mesh's probes go over every corner.
MAX_HULL_VERTICES = 64
OBSTACLES = ("plane", "mesh")


def read_shape(reader: RecordReader) -> dict | None:
    record = reader.record_of("shape")
    if record is None:
        return None
    kind = record.string("type", choices=SHAPES)
    shape: dict = {"type": kind}
    if kind in ("sphere", "capsule"):
        shape["radius"] = record.number("radius", positive=True)
    if kind == "capsule":
        shape["length"] = record.number("length", minimum=0.0)
    if kind == "box":
        shape["size"] = record.vector("size")
        if np.any(shape["size"] <= 0):
            raise record.fail("size", f"must be positive in every direction, got {shape['size'].tolist()}")
        shape["centre"] = record.vector("centre", [0.0, 0.0, 0.0])  # in the body frame, about the centre of mass
    if kind in ("convex", "points"):
        key = "vertices" if kind == "convex" else "points"
        value = record.raw(key)
        needed = 4 if kind == "convex" else 1
        if not isinstance(value, list) or len(value) < needed:
            raise record.fail(key, f"needs a list of at least {needed} points, got {short_repr(value)}")
        points = checked_array(value, (len(value), 3), lambda problem: record.fail(key, problem))
        if kind == "convex" and not spans_volume(points):
            raise record.fail(key, "must span a volume (the points are flat or on a line, for their size)")
        shape[key] = points
    record.finish()
    return shape


def contact_hull(vertices: np.ndarray) -> Hull:
    """A convex shape's hull as contacts use it: at most MAX_HULL_VERTICES corners and its face planes."""
    return convex_hull(vertices, MAX_HULL_VERTICES)


def convex_faces(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The face planes of the points' convex hull: (f, 3) outward unit normals and (f,) offsets, with
    n.x <= offset inside."""
    hull = convex_hull(points)
    return hull.normals, hull.offsets


def read_obstacle(record, k: int) -> dict:
    name = record.get("name", f"obstacle {k}") if isinstance(record, dict) else None
    reader = RecordReader(record, f"obstacle '{name}'" if isinstance(name, str) else f"obstacle #{k}")
    # unnamed obstacles are named by their place in the list, as other optional fields get defaults
    obstacle: dict = {"name": reader.string("name", f"obstacle {k}"), "type": reader.string("type", choices=OBSTACLES)}
    obstacle["friction"], obstacle["restitution"] = read_surface(reader, reader.where)
    if obstacle["type"] == "plane":
        obstacle["point"] = reader.vector("point")
        normal = reader.vector("normal", nonzero=True)
        obstacle["normal"] = normal / np.linalg.norm(normal)
    else:
        value = reader.raw("vertices")
        vertices = checked_array(value, (len(value) if isinstance(value, list) else -1, 3),
                                 lambda problem: reader.fail("vertices", problem))
        value = reader.raw("triangles")
        if not isinstance(value, list) or not value:
            raise reader.fail("triangles", "must not be empty (the mesh has no faces)")
        triangles = checked_array(value, (len(value), 3), lambda problem: reader.fail("triangles", problem))
        if np.any(triangles != np.round(triangles)) or triangles.min() < 0 or triangles.max() >= len(vertices):
            raise reader.fail("triangles", f"must be whole vertex indices from 0 to {len(vertices) - 1}")
        triangles = triangles.astype(int)
        corners = vertices[triangles]
        areas = np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]), axis=1)
        if np.any(areas < 1e-14):
            raise reader.fail("triangles", f"has {int(np.sum(areas < 1e-14))} triangles of zero area")
        obstacle["vertices"], obstacle["triangles"] = vertices, triangles
    reader.finish()
    return obstacle


def read_surface(reader: RecordReader, where: str) -> tuple[float, float]:
    friction = reader.number("friction", 0.5, minimum=0.0)
    restitution = reader.number("restitution", 0.0, minimum=0.0)
    if restitution > 1:
        raise ModelError(f"{where}: field 'restitution' must be between 0 (plastic) and 1 (elastic), got {restitution}")
    return friction, restitution
