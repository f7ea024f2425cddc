"""The narrow phase: the contact manifold of two convex shapes, one kernel per pair of kinds.

Each kernel fills a manifold_points.Manifold (point on A and on B per point, world; one normal from
A towards B; separations, negative when overlapping; feature ids) and returns how many points it
filled, 0 to 4. A point is reported while its separation is below `margin` (m): contacts slightly
apart are kept, so a resting body stays resting; shapes further apart than `margin` along some
separating axis give none.

Shapes, all in world frames:
- box: origin (3,) its centre, frame (3, 3) its axes as columns, half (3,) its half sizes
  (box_pose places a body-frame box, as ContactLayout keeps them, on its body);
- hull: origin (3,) and frame (3, 3) of the frame its contact.polyhedron.Polyhedron is given in (the
  body's position and rotation; built once from the shape's points by hull_polyhedron);
- capsule: ends (2, 3), the ends of its axis, and its radius; a sphere is a capsule whose two ends
  are its centre;
- plane (as A): a point (3,) on it and its unit normal (3,), pointing into the free side;
- triangle of a mesh (as A): corners (3, 3), rows in any order (two-sided, as in contact/detection.py),
  and its index in the mesh, which the feature ids of A carry (index * 16 + the triangle's own feature).

Which kernel for which pair (B after A; for the reverse order, flip_manifold):
box_box, hull_hull, hull_box; box_capsule, hull_capsule, capsule_capsule (spheres included);
plane_box, plane_hull, plane_capsule; triangle_box, triangle_hull, triangle_capsule. A shape against
several triangles of one mesh: merge_manifolds joins the manifolds of coplanar triangles.
"""
import numpy as np

from ...contact.polyhedron import Polyhedron
from .capsules import capsules_contact, plane_capsule_contact, polyhedron_capsule_contact
from ..jit import entry_kernel, kernel
from .manifold_points import B_BITS, FACE, MAX_POINTS, VERTEX, feature_code, feature_id, reduce_to_four, write_point
from .polytopes import box_shape, boxes_contact, polyhedra_contact
from ..vector import body_point, cross, dot

TRIANGLE_FEATURES = 16  # a triangle's own feature codes (faces 0-1, edges and corners 0-2) are below 16
SAME_NORMAL = 1e-9  # 1 - cos of the angle within which two manifolds' normals are one
SAME_POINT = 1e-18  # m^2: points of two merged manifolds closer than 1e-9 m are one


@kernel
def box_pose(position, rotation, centre, axes, origin, frame):
    """A box's origin (3,) and frame (3, 3) in the world from its body's position (3,) and rotation
    (3, 3), body frame -> world, and its centre (3,) and axes (3, 3), rows, in the body frame
    (contact/shape_table.ShapeTable's centre and axes): origin = x + R centre, frame = R axes^T."""
    for i in range(3):
        origin[i] = position[i] + rotation[i, 0] * centre[0] + rotation[i, 1] * centre[1] + rotation[i, 2] * centre[2]
        for k in range(3):
            frame[i, k] = rotation[i, 0] * axes[k, 0] + rotation[i, 1] * axes[k, 1] + rotation[i, 2] * axes[k, 2]


@entry_kernel
def box_box(origin_a, frame_a, half_a, origin_b, frame_b, half_b, margin, manifold):
    """Two boxes, each centre (3,), frame (3, 3) (axes as columns) and half sizes (3,), world:
    ODE's 15 axes, then a face clipped against a face (up to four points) or two edges (one)."""
    return boxes_contact(origin_a, frame_a, half_a, origin_b, frame_b, half_b, margin, manifold)


@entry_kernel
def hull_hull(origin_a, frame_a, hull_a, origin_b, frame_b, hull_b, margin, manifold):
    """Two hulls, each placed by origin (3,) and frame (3, 3) (its Polyhedron's frame in the world):
    the separating axis test over faces and edge pairs, then the same clipping as boxes."""
    return polyhedra_contact(origin_a, frame_a, hull_a, origin_b, frame_b, hull_b, margin, manifold)


@entry_kernel
def hull_box(origin_a, frame_a, hull_a, origin_b, frame_b, half_b, margin, manifold):
    """A hull (origin (3,), frame (3, 3), Polyhedron) and a box (centre (3,), frame (3, 3), half
    sizes (3,)), world: the box as a polyhedron, as hull_hull."""
    return polyhedra_contact(origin_a, frame_a, hull_a, origin_b, frame_b, box_shape(half_b), margin, manifold)


@entry_kernel
def box_capsule(origin_a, frame_a, half_a, ends_b, radius_b, margin, manifold):
    """A box (centre (3,), frame (3, 3), half sizes (3,)) and a capsule or sphere (axis ends (2, 3),
    radius), world: one point, or two where the capsule lies along a face or an edge."""
    return polyhedron_capsule_contact(origin_a, frame_a, box_shape(half_a), ends_b, radius_b, margin, manifold)


@entry_kernel
def hull_capsule(origin_a, frame_a, hull_a, ends_b, radius_b, margin, manifold):
    """A hull (origin (3,), frame (3, 3), Polyhedron) and a capsule or sphere (axis ends (2, 3),
    radius), world: as box_capsule."""
    return polyhedron_capsule_contact(origin_a, frame_a, hull_a, ends_b, radius_b, margin, manifold)


@entry_kernel
def capsule_capsule(ends_a, radius_a, ends_b, radius_b, margin, manifold):
    """Two capsules or spheres (axis ends (2, 3), radius), world: the closest points of the axes
    (Ericson 5.1.9), or two points where the axes run side by side."""
    return capsules_contact(ends_a, radius_a, ends_b, radius_b, margin, manifold)


@entry_kernel
def plane_capsule(point, normal, ends_b, radius_b, margin, manifold):
    """A plane (point (3,) on it, unit normal (3,)) and a capsule or sphere (axis ends (2, 3), radius),
    world: each end of the axis within `margin`."""
    return plane_capsule_contact(point, normal, ends_b, radius_b, margin, manifold)


@entry_kernel
def plane_box(point, normal, origin_b, frame_b, half_b, margin, manifold):
    """A plane (point (3,) on it, unit normal (3,)) and a box (centre (3,), frame (3, 3), half sizes
    (3,)), world: the corners of the box below `margin` (resting: its four lower corners)."""
    return _plane_polyhedron(point, normal, origin_b, frame_b, box_shape(half_b), margin, manifold)


@kernel
def plane_hull(point, normal, origin_b, frame_b, hull_b, margin, manifold):
    """A plane (point (3,) on it, unit normal (3,)) and a hull (origin (3,), frame (3, 3),
    Polyhedron), world: the corners of the hull below `margin`, at most four (reduce_to_four)."""
    return _plane_polyhedron(point, normal, origin_b, frame_b, hull_b, margin, manifold)


@entry_kernel
def triangle_capsule(corners, triangle, ends_b, radius_b, margin, manifold):
    """Triangle `triangle` of a mesh (corners (3, 3), world) and a capsule or sphere (axis ends
    (2, 3), radius): as box_capsule, the triangle a flat polyhedron met from either side."""
    origin, shape = triangle_shape(corners)
    count = polyhedron_capsule_contact(origin, np.eye(3), shape, ends_b, radius_b, margin, manifold)
    _number_by_triangle(manifold, count, triangle)
    return count


@entry_kernel
def triangle_box(corners, triangle, origin_b, frame_b, half_b, margin, manifold):
    """Triangle `triangle` of a mesh (corners (3, 3), world) and a box (centre (3,), frame (3, 3),
    half sizes (3,)): as hull_box."""
    origin, shape = triangle_shape(corners)
    count = polyhedra_contact(origin, np.eye(3), shape, origin_b, frame_b, box_shape(half_b), margin, manifold)
    _number_by_triangle(manifold, count, triangle)
    return count


@entry_kernel
def triangle_hull(corners, triangle, origin_b, frame_b, hull_b, margin, manifold):
    """Triangle `triangle` of a mesh (corners (3, 3), world) and a hull (origin (3,), frame (3, 3),
    Polyhedron): as hull_hull."""
    origin, shape = triangle_shape(corners)
    count = polyhedra_contact(origin, np.eye(3), shape, origin_b, frame_b, hull_b, margin, manifold)
    _number_by_triangle(manifold, count, triangle)
    return count


@kernel
def triangle_shape(corners):
    """(origin (3,), Polyhedron) of a triangle with corners (3, 3), world: a flat polyhedron about
    its centroid with two faces, the normal n = (c1 - c0) x (c2 - c0) and its reverse, whose three
    edges' arcs are half circles from n to -n through the outward normal of the edge in the plane."""
    origin = np.empty(3)
    for i in range(3):
        origin[i] = (corners[0, i] + corners[1, i] + corners[2, i]) / 3.0
    vertices = np.empty((3, 3))
    for k in range(3):
        for i in range(3):
            vertices[k, i] = corners[k, i] - origin[i]
    u0, u1, u2 = vertices[1, 0] - vertices[0, 0], vertices[1, 1] - vertices[0, 1], vertices[1, 2] - vertices[0, 2]
    v0, v1, v2 = vertices[2, 0] - vertices[0, 0], vertices[2, 1] - vertices[0, 1], vertices[2, 2] - vertices[0, 2]
    n0, n1, n2 = u1 * v2 - u2 * v1, u2 * v0 - u0 * v2, u0 * v1 - u1 * v0
    length = np.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
    n0, n1, n2 = n0 / length, n1 / length, n2 / length
    face_normal = np.empty((2, 3))
    face_normal[0, 0], face_normal[0, 1], face_normal[0, 2] = n0, n1, n2
    face_normal[1, 0], face_normal[1, 1], face_normal[1, 2] = -n0, -n1, -n2
    face_offset = np.empty(2)
    face_offset[0] = n0 * vertices[0, 0] + n1 * vertices[0, 1] + n2 * vertices[0, 2]
    face_offset[1] = -face_offset[0]
    edge_vertex = np.empty((3, 2), dtype=np.int64)
    edge_arc = np.empty((3, 2, 3))
    edge, outward = np.empty(3), np.empty(3)
    for k in range(3):
        after = (k + 1) % 3
        edge_vertex[k, 0], edge_vertex[k, 1] = k, after
        for i in range(3):
            edge[i] = vertices[after, i] - vertices[k, i]
        cross(edge, face_normal[0], outward)  # out of the triangle, in its plane
        length = np.sqrt(dot(outward, outward))
        for side in range(2):
            for i in range(3):
                edge_arc[k, side, i] = outward[i] / length
    face_start = np.array([0, 3, 6], dtype=np.int64)
    face_vertex = np.array([0, 1, 2, 0, 2, 1], dtype=np.int64)  # counter-clockwise about each face's normal
    face_edge = np.array([0, 1, 2, 2, 1, 0], dtype=np.int64)
    return origin, Polyhedron(vertices, face_normal, face_offset, face_start, face_vertex, face_edge, edge_vertex,
                              edge_arc)


@entry_kernel
def merge_manifolds(manifold, count, other, other_count):
    """Adds the `other_count` points of `other` to the `count` of `manifold` when both have one
    normal (within SAME_NORMAL): a shape against coplanar triangles of a mesh, whose manifolds
    share the points on their common edges (one of each such pair is kept). Returns the new count,
    at most four (reduce_to_four), or -1 when the normals differ: the manifolds stay apart."""
    if other_count == 0:
        return count
    if count == 0:
        for i in range(3):
            manifold.normal[i] = other.normal[i]
        for k in range(other_count):
            write_point(manifold, k, other.point_a[k], other.point_b[k], other.normal, other.feature[k])
        return other_count
    if dot(manifold.normal, other.normal) < 1.0 - SAME_NORMAL:
        return -1
    total = count + other_count
    point_a, point_b = np.empty((total, 3)), np.empty((total, 3))
    separation = np.empty(total)
    feature = np.empty(total, dtype=np.int64)
    held = 0
    for source in range(2):
        points = manifold if source == 0 else other
        for k in range(count if source == 0 else other_count):
            known = False
            for j in range(held):
                apart = 0.0
                for i in range(3):
                    apart += (points.point_b[k, i] - point_b[j, i]) ** 2
                known = known or apart <= SAME_POINT
            if not known:
                point_a[held], point_b[held] = points.point_a[k], points.point_b[k]
                separation[held], feature[held] = points.separation[k], points.feature[k]
                held += 1
    chosen = np.empty(MAX_POINTS, dtype=np.int64)
    kept = reduce_to_four(point_b, separation, held, manifold.normal, chosen)
    for slot in range(kept):
        write_point(manifold, slot, point_a[chosen[slot]], point_b[chosen[slot]], manifold.normal,
                    feature[chosen[slot]])
    return kept


@entry_kernel
def flip_manifold(manifold, count):
    """The same contact seen from the other shape: A and B swapped, the normal reversed."""
    for i in range(3):
        manifold.normal[i] = -manifold.normal[i]
    mask = (np.int64(1) << B_BITS) - 1
    for k in range(count):
        for i in range(3):
            manifold.point_a[k, i], manifold.point_b[k, i] = manifold.point_b[k, i], manifold.point_a[k, i]
        code_a, code_b = manifold.feature[k] >> B_BITS, manifold.feature[k] & mask
        manifold.feature[k] = feature_id(code_b, code_a)


@kernel
def _plane_polyhedron(point, normal, origin, frame, poly, margin, manifold):
    """The plane as A, the polyhedron's corners below `margin` as B's points, at most four."""
    total = poly.vertices.shape[0]
    corners, depth = np.empty((total, 3)), np.empty(total)
    corner_index = np.empty(total, dtype=np.int64)
    count = 0
    for k in range(total):
        body_point(origin, frame, poly.vertices[k], corners[count])
        height = dot(normal, corners[count]) - dot(normal, point)
        if height < margin:
            depth[count], corner_index[count] = height, k
            count += 1
    chosen = np.empty(MAX_POINTS, dtype=np.int64)
    count = reduce_to_four(corners, depth, count, normal, chosen)
    on_plane = np.empty(3)
    for i in range(3):
        manifold.normal[i] = normal[i]
    for slot in range(count):
        k = chosen[slot]
        for i in range(3):
            on_plane[i] = corners[k, i] - depth[k] * normal[i]
        write_point(manifold, slot, on_plane, corners[k], normal,
                    feature_id(feature_code(FACE, 0), feature_code(VERTEX, corner_index[k])))
    return count


@kernel
def _number_by_triangle(manifold, count, triangle):
    """Feature ids of A made the mesh's: triangle * TRIANGLE_FEATURES + the triangle's own code."""
    mask = (np.int64(1) << B_BITS) - 1
    for k in range(count):
        code_a, code_b = manifold.feature[k] >> B_BITS, manifold.feature[k] & mask
        manifold.feature[k] = feature_id(triangle * TRIANGLE_FEATURES + code_a, code_b)
