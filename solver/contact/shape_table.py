"""Every body's contact shape as arrays the narrow phase (kernels/contact/narrow_phase.py) reads: one slot per
shape, each a box, a hull, a capsule (a sphere is a capsule whose ends meet) or a point (a point set
is one slot per point: a sphere of radius 0), all in its body's principal frame.

Hulls are contact.polyhedron.Polyhedron records packed end to end; hull h's part of each array is
given by the `hull_first_*` offsets, and the indices inside it (face corners, edges) count from its
own start, so the kernels rebuild hull h as a Polyhedron of slices.
"""
from collections import namedtuple

import numpy as np

from .polyhedron import Polyhedron, hull_polyhedron

BOX, HULL, CAPSULE, POINT = 0, 1, 2, 3

ShapeTable = namedtuple("ShapeTable", [
    "kind",  # (S,) int64: BOX, HULL, CAPSULE or POINT
    "body",  # (S,) int64: the body carrying the shape
    "centre",  # (S, 3) a box's centre, principal frame
    "axes",  # (S, 3, 3) a box's axes as rows, principal frame (the principal axes' matrix: user @ axes is principal)
    "half",  # (S, 3) a box's half sizes along its axes
    "ends",  # (S, 2, 3) a capsule's axis ends (a sphere's and a point's: both its centre), principal frame
    "radius",  # (S,) a capsule's radius (0 for a point)
    "hull",  # (S,) int64: the hull of a HULL slot (-1 otherwise)
    # (H + 1,) int64 each: where hull h's part of the packed fields below starts
    "hull_first_vertex", "hull_first_face", "hull_first_face_start", "hull_first_corner", "hull_first_edge",
    # Polyhedron's fields of every hull, end to end
    "hull_vertices", "hull_face_normal", "hull_face_offset", "hull_face_start", "hull_face_vertex", "hull_face_edge",
    "hull_edge_vertex", "hull_edge_arc",
])


def shape_table(body_shapes: list[tuple[int, dict, np.ndarray]]) -> ShapeTable:
    """The table of (body, shape as read from the file, principal axes (3, 3)) for every shaped body.
    Shapes are given in the body frame about the centre of mass; local = user @ principal_axes."""
    slots: list[dict] = []
    hulls: list[Polyhedron] = []
    for body, shape, axes in body_shapes:
        kind = shape["type"]
        if kind == "box":
            slots.append({"kind": BOX, "body": body, "centre": np.asarray(shape["centre"]) @ axes,
                          "axes": axes, "half": 0.5 * np.asarray(shape["size"])})
        elif kind == "convex":
            slots.append({"kind": HULL, "body": body, "hull": len(hulls)})
            hulls.append(hull_polyhedron(np.asarray(shape["vertices"]) @ axes))
        elif kind in ("sphere", "capsule"):
            half = 0.5 * shape.get("length", 0.0)
            ends = np.array([[0.0, 0.0, -half], [0.0, 0.0, half]]) @ axes
            slots.append({"kind": CAPSULE, "body": body, "ends": ends, "radius": shape["radius"]})
        else:  # a point set: each point a sphere of radius 0
            for point in np.asarray(shape["points"], dtype=float) @ axes:
                slots.append({"kind": POINT, "body": body, "ends": np.vstack((point, point)), "radius": 0.0})
    count = len(slots)

    def column(name, shape, default, dtype=float):
        values = np.full((count, *shape), default, dtype=dtype)
        for k, slot in enumerate(slots):
            if name in slot:
                values[k] = slot[name]
        return values

    return ShapeTable(column("kind", (), 0, np.int64), column("body", (), 0, np.int64), column("centre", (3,), 0.0),
                      column("axes", (3, 3), 0.0), column("half", (3,), 0.0), column("ends", (2, 3), 0.0),
                      column("radius", (), 0.0), column("hull", (), -1, np.int64), *_packed(hulls))


def _packed(hulls: list[Polyhedron]) -> tuple:
    """The hull_* fields of ShapeTable: offsets, then Polyhedron's fields end to end."""
    offsets = (first_offsets([len(h.vertices) for h in hulls]), first_offsets([len(h.face_normal) for h in hulls]),
               first_offsets([len(h.face_start) for h in hulls]), first_offsets([len(h.face_vertex) for h in hulls]),
               first_offsets([len(h.edge_vertex) for h in hulls]))

    def joined(field, shape, dtype=float):
        return end_to_end(hulls, field, shape, dtype)

    return (*offsets, joined("vertices", (3,)), joined("face_normal", (3,)), joined("face_offset", ()),
            joined("face_start", (), np.int64), joined("face_vertex", (), np.int64),
            joined("face_edge", (), np.int64), joined("edge_vertex", (2,), np.int64), joined("edge_arc", (2, 3)))


def first_offsets(lengths: list[int]) -> np.ndarray:
    """(k + 1,) int64: where each of k parts of these lengths starts when packed end to end, then the end."""
    return np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)


def end_to_end(parts: list, field: str, shape: tuple, dtype=float) -> np.ndarray:
    """The array `field` of every part, packed end to end (rows of `shape`); empty for no parts."""
    arrays = [np.asarray(getattr(part, field), dtype=dtype) for part in parts]
    return np.concatenate(arrays) if arrays else np.zeros((0, *shape), dtype=dtype)


def slot_reach(table: ShapeTable) -> np.ndarray:
    """(S,) m: the radius about its body's centre of mass within which each slot's shape lies."""
    reach = np.zeros(len(table.kind))
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)
    for k, kind in enumerate(table.kind):
        if kind == BOX:
            points = table.centre[k] + (corners * table.half[k]) @ table.axes[k]
            reach[k] = np.linalg.norm(points, axis=1).max()
        elif kind == HULL:
            h = table.hull[k]
            reach[k] = np.linalg.norm(table.hull_vertices[table.hull_first_vertex[h]:table.hull_first_vertex[h + 1]],
                                      axis=1).max()
        else:
            reach[k] = np.linalg.norm(table.ends[k], axis=1).max() + table.radius[k]
    return reach
