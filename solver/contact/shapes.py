"""Body shapes and obstacles: reading them from a mechanism file and reducing them to what the
contact detection works with.

A body shape becomes probe points fixed in the body, each with a radius: a sphere is its centre
with its radius, a capsule its two cap centres with its radius, a box its eight corners, a convex
shape its vertices, a point set its points. Obstacles are planes and triangle meshes, fixed in the
world.
"""
import numpy as np

from ..errors import ModelError
from ..spec import RecordReader, checked_array

SHAPES = ("sphere", "capsule", "box", "convex", "points")
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
            raise record.fail(key, f"needs a list of at least {needed} points, got {value!r}")
        points = checked_array(value, (len(value), 3), lambda problem: record.fail(key, problem))
        if kind == "convex" and np.linalg.matrix_rank(points - points.mean(axis=0), tol=1e-9) < 3:
            raise record.fail(key, "must span a volume (the points are flat or on a line)")
        shape[key] = points
    record.finish()
    return shape


def probe_points(shape: dict) -> tuple[np.ndarray, np.ndarray]:
    """(k, 3) points in the user's body frame and (k,) radii."""
    kind = shape["type"]
    if kind == "sphere":
        return np.zeros((1, 3)), np.array([shape["radius"]])
    if kind == "capsule":
        half = 0.5 * shape["length"]
        return np.array([[0.0, 0.0, -half], [0.0, 0.0, half]]), np.full(2, shape["radius"])
    if kind == "box":
        half = 0.5 * np.asarray(shape["size"])
        corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)
        return corners * half + np.asarray(shape["centre"]), np.zeros(8)
    points = np.asarray(shape["vertices"] if kind == "convex" else shape["points"], dtype=float)
    return points, np.zeros(len(points))


def convex_faces(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The face planes of the points' convex hull: (f, 3) outward unit normals and (f,) offsets, with
    n.x <= offset inside. Every vertex triple whose plane has all points on one side is a face plane
    (duplicates merged); hulls of modelled shapes have few enough vertices for that to be quick."""
    from itertools import combinations

    triples = np.array(list(combinations(range(len(points)), 3)))
    a, b, c = points[triples[:, 0]], points[triples[:, 1]], points[triples[:, 2]]
    normals = np.cross(b - a, c - a)
    size = np.linalg.norm(normals, axis=1)
    scale = np.abs(points).max() if len(points) else 1.0
    tolerance = 1e-9 * max(scale, 1e-300)
    usable = size > tolerance * max(scale, 1e-300)
    normals, a = normals[usable] / size[usable, None], a[usable]
    offsets = np.einsum("fi,fi->f", normals, a)
    sides = points @ normals.T - offsets  # (points, planes)
    outward = np.all(sides <= tolerance, axis=0)
    inward = np.all(sides >= -tolerance, axis=0)
    normals = np.concatenate((normals[outward], -normals[inward]))
    offsets = np.concatenate((offsets[outward], -offsets[inward]))
    _, unique = np.unique(np.round(np.column_stack((normals, offsets)) / tolerance).astype(np.int64), axis=0,
                          return_index=True)
    return normals[unique], offsets[unique]


def read_obstacle(record, k: int) -> dict:
    name = record.get("name") if isinstance(record, dict) else None
    reader = RecordReader(record, f"obstacle '{name}'" if isinstance(name, str) else f"obstacle #{k}")
    obstacle: dict = {"name": reader.string("name"), "type": reader.string("type", choices=OBSTACLES)}
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
