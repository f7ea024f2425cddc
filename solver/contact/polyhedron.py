"""Convex polyhedra as the contact manifold kernels (kernels/contact/manifold.py) meet them: corners, face
planes, each face's corners in order, the edges and their arcs on the Gauss map. Built once per
shape, in Python, from the planes of its hull (hull.py).

The Gauss map of a convex polyhedron puts each face at its unit normal and each edge on the arc of
the great circle between the normals of its two faces (Gregorius, "The separating axis test between
convex polyhedra", GDC 2013): a direction perpendicular to an edge is an outward normal of the
polyhedron at that edge exactly when it lies on the edge's arc. `edge_arc` holds two vectors that
bound the arc, so the test is two dot products: with e = a x b for the face normals a and b, a
direction L perpendicular to e lies on the short arc from a to b when (a x L) . e >= 0 and
(L x b) . e >= 0, that is L . (e x a) >= 0 and L . (b x e) >= 0. A polyhedron of two faces is
flat, a mesh triangle met from either side (kernels/contact/manifold.py builds those): its faces' normals
are opposite, and each edge's arc is the half circle through the edge's outward normal in the
plane, both bounds that normal.
"""
from collections import namedtuple

import numpy as np

from .shapes import contact_hull

Polyhedron = namedtuple("Polyhedron", [
    "vertices",  # (V, 3) corners, in the shape's own frame
    "face_normal",  # (F, 3) outward unit normals, same frame
    "face_offset",  # (F,) face f's plane: face_normal[f] . x = face_offset[f]; inside is below
    "face_start",  # (F + 1,) int64: face f's corners are face_vertex[face_start[f]:face_start[f + 1]]
    "face_vertex",  # (L,) int64: the corners of every face, counter-clockwise seen from outside
    "face_edge",  # (L,) int64: the edge from face_vertex[k] to the next corner of the same face
    "edge_vertex",  # (E, 2) int64: the two corners of each edge
    "edge_arc",  # (E, 2, 3) unit vectors bounding the edge's arc: L perpendicular to the edge is an
    #              outward normal at it when L . edge_arc[e, 0] >= 0 and L . edge_arc[e, 1] >= 0
])

# Corners closer than this (relative to the extent) to a face plane are on the face: hull.py's planes
# carry their corners to about 1e-10 of the extent, and the planes it merges differ by 1e-7 at most.
ON_PLANE = 1e-6


def hull_polyhedron(points: np.ndarray) -> Polyhedron:
    """The polyhedron of a convex shape's contact hull (at most MAX_HULL_VERTICES corners), in the
    frame the (n, 3) points are given in."""
    hull = contact_hull(np.asarray(points, dtype=float))
    return polyhedron(hull.vertices, hull.normals, hull.offsets)


def box_polyhedron(half: np.ndarray) -> Polyhedron:
    """A box of (3,) half sizes in its own frame. Corner k is at (+-half) with bit i of k set where
    coordinate i is positive; face 2 i + s has the outward normal (2 s - 1) along axis i."""
    half = np.asarray(half, dtype=float)
    signs = np.array([[1.0 if k >> i & 1 else -1.0 for i in range(3)] for k in range(8)])
    normals = np.vstack([np.eye(3)[i] * side for i in range(3) for side in (-1.0, 1.0)])
    return polyhedron(signs * half, normals, np.repeat(half, 2))


def polyhedron(vertices: np.ndarray, normals: np.ndarray, offsets: np.ndarray) -> Polyhedron:
    """The polyhedron of (V, 3) corners bounded by the planes (F, 3) normals . x <= (F,) offsets.
    Raises ValueError unless every edge joins exactly two faces."""
    vertices = np.asarray(vertices, dtype=float)
    face_normal, loops = _faces(vertices, np.asarray(normals, dtype=float), np.asarray(offsets, dtype=float))
    edge_of: dict[tuple[int, int], int] = {}  # directed edge (u, v) -> its edge
    edge_vertex: list[tuple[int, int]] = []
    edge_faces: list[list[int]] = []  # the face on the left of u -> v first, then the other
    face_edge = []
    for face, loop in enumerate(loops):
        for u, v in zip(loop, np.roll(loop, -1)):
            u, v = int(u), int(v)
            if (v, u) in edge_of:
                edge = edge_of[(u, v)] = edge_of[(v, u)]
            else:
                edge = edge_of[(u, v)] = len(edge_vertex)
                edge_vertex.append((u, v))
                edge_faces.append([])
            edge_faces[edge].append(face)
            face_edge.append(edge)
    if any(len(faces) != 2 for faces in edge_faces):
        raise ValueError("the hull's faces do not close: an edge belongs to one face only")
    edge_arc = np.empty((len(edge_vertex), 2, 3))
    for edge, (a, b) in enumerate(edge_faces):
        axis = np.cross(face_normal[a], face_normal[b])
        edge_arc[edge, 0] = _unit(np.cross(axis, face_normal[a]))
        edge_arc[edge, 1] = _unit(np.cross(face_normal[b], axis))
    return Polyhedron(vertices, face_normal, (vertices @ face_normal.T).max(axis=0),
                      np.concatenate(([0], np.cumsum([len(loop) for loop in loops]))).astype(np.int64),
                      np.concatenate(loops).astype(np.int64), np.array(face_edge, dtype=np.int64),
                      np.array(edge_vertex, dtype=np.int64).reshape(-1, 2), edge_arc)


def _faces(vertices: np.ndarray, normals: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """(F, 3) normals and the corners of each face in order: the corners on each plane, with the
    faces of planes so nearly alike that their polygons overlap (they run along an edge the same
    way) merged into one, until every directed edge belongs to one face."""
    extent = float(np.ptp(vertices, axis=0).max())
    faces = []  # (normal, the vertices on its plane)
    for normal, offset in zip(normals, offsets):
        if abs(normal @ normal - 1.0) > 1e-6:  # a sliver's plane, left without a normal
            continue
        on = np.flatnonzero(np.abs(vertices @ normal - offset) <= ON_PLANE * extent)
        if len(on) >= 3:
            faces.append((normal, set(on.tolist())))
    while True:
        loops = [_corners_in_order(vertices, np.array(sorted(on)), normal, extent) for normal, on in faces]
        owner: dict[tuple[int, int], int] = {}
        clash = None
        for face, loop in enumerate(loops):
            for u, v in zip(loop.tolist(), np.roll(loop, -1).tolist()):
                if (u, v) in owner and len(loop) >= 3:
                    clash = owner[(u, v)], face
                owner.setdefault((u, v), face)
        if clash is None:
            kept = [face for face, loop in enumerate(loops) if len(loop) >= 3]
            return np.array([faces[face][0] for face in kept]), [loops[face] for face in kept]
        kept_face, merged_face = clash
        faces[kept_face][1].update(faces[merged_face][1])
        del faces[merged_face]


def _corners_in_order(vertices: np.ndarray, on: np.ndarray, normal: np.ndarray, extent: float) -> np.ndarray:
    """The corners of the convex polygon of the vertices `on` a face, counter-clockwise about its
    outward normal (Andrew's monotone chain in the face's plane). Vertices inside the polygon or on
    its sides are left out, so the two faces along an edge agree on its ends."""
    u = _unit(np.cross(normal, [1.0, 0.0, 0.0] if abs(normal[0]) < 0.9 else [0.0, 1.0, 0.0]))
    w = np.cross(normal, u)  # u, w, normal is right-handed: counter-clockwise in (u, w) is about the normal
    flat = np.column_stack((vertices[on] @ u, vertices[on] @ w))
    order = np.lexsort((flat[:, 1], flat[:, 0]))
    turn_tolerance = 1e-12 * extent * extent

    def chain(indices: np.ndarray) -> list[int]:
        kept: list[int] = []
        for k in indices:
            while len(kept) >= 2 and _turn(flat[kept[-2]], flat[kept[-1]], flat[k]) <= turn_tolerance:
                kept.pop()
            kept.append(int(k))
        return kept[:-1]

    return on[chain(order) + chain(order[::-1])]


def _turn(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> float:
    """Twice the signed area of the triangle a b c in the plane: positive when it turns left."""
    return float((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)
