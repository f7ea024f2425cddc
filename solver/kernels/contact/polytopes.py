"""Polyhedron against polyhedron (boxes, hulls, mesh triangles): the separating axis test, then a
face clipped against a face or the closest points of two edges.

Every polyhedron is a contact.polyhedron.Polyhedron in its own frame, placed in the world by an
origin (3,) and a frame (3, 3) whose columns are its axes in the world.

The axes tested are the face normals of both and the cross products of their edges. Among edge
pairs only those whose arcs cross on the Gauss map (Minkowski faces of A - B) are candidates;
then the separation along the axis is the distance of the two edges' lines along it (Gregorius,
"The separating axis test between convex polyhedra", GDC 2013). Two boxes take ODE's dBoxBox2
form instead: 15 axes from the relative rotation, in closed form.
"""
import numpy as np

from ...contact.polyhedron import Polyhedron, box_polyhedron
from ..jit import kernel
from .manifold_points import (EDGE, EDGE_BIAS, EDGE_FUDGE, FACE, FACE_FLIP_BIAS, MAX_POINTS, SIDE_SLOP, VERTEX,
                              feature_code, feature_id, reduce_to_four, write_point)
from .segments import closest_on_segments
from ..vector import body_point, cross, dot, rotate, unrotate

PARALLEL = 1e-6  # sine of the angle below which two edges are parallel: their cross product is no axis
ARC_SLACK = 1e-9  # a direction this close to an arc's end is on the arc

_UNIT_BOX = box_polyhedron(np.ones(3))
BOX_SIGNS = _UNIT_BOX.vertices  # (8, 3) corner k has coordinate i positive when bit i of k is set
BOX_FACE_NORMAL = _UNIT_BOX.face_normal  # (6, 3) face 2 i + s faces (2 s - 1) along axis i
BOX_FACE_START = _UNIT_BOX.face_start
BOX_FACE_VERTEX = _UNIT_BOX.face_vertex
BOX_FACE_EDGE = _UNIT_BOX.face_edge
BOX_EDGE_VERTEX = _UNIT_BOX.edge_vertex
BOX_EDGE_ARC = _UNIT_BOX.edge_arc
BOX_EDGE_BETWEEN = np.full((8, 8), -1, dtype=np.int64)  # the edge joining two corners
for _edge, (_u, _v) in enumerate(BOX_EDGE_VERTEX):
    BOX_EDGE_BETWEEN[_u, _v] = BOX_EDGE_BETWEEN[_v, _u] = _edge


@kernel
def box_shape(half):
    """The Polyhedron of a box of (3,) half sizes in its own frame (corners and faces numbered as
    contact.polyhedron.box_polyhedron numbers them)."""
    vertices = np.empty((8, 3))
    for k in range(8):
        for i in range(3):
            vertices[k, i] = BOX_SIGNS[k, i] * half[i]
    offsets = np.empty(6)
    for f in range(6):
        offsets[f] = half[f // 2]
    return Polyhedron(vertices, BOX_FACE_NORMAL.copy(), offsets, BOX_FACE_START.copy(), BOX_FACE_VERTEX.copy(),
                      BOX_FACE_EDGE.copy(), BOX_EDGE_VERTEX.copy(), BOX_EDGE_ARC.copy())


@kernel
def polyhedra_contact(origin_a, frame_a, poly_a, origin_b, frame_b, poly_b, margin, manifold):
    """The manifold of two polyhedra closer than `margin`; returns its number of points (0 apart)."""
    rotation, translation = relative_pose(origin_a, frame_a, origin_b, frame_b)
    corners_b = np.empty(poly_b.vertices.shape)  # B's corners in A's frame
    for k in range(poly_b.vertices.shape[0]):
        body_point(translation, rotation, poly_b.vertices[k], corners_b[k])
    separation_a, face_a = _face_query(poly_a, corners_b, margin)
    if separation_a > margin:
        return 0
    corners_a = np.empty(poly_a.vertices.shape)  # A's corners in B's frame
    for k in range(poly_a.vertices.shape[0]):
        local_point(translation, rotation, poly_a.vertices[k], corners_a[k])
    separation_b, face_b = _face_query(poly_b, corners_a, margin)
    if separation_b > margin:
        return 0
    axis = np.empty(3)
    separation_edge, edge_a, edge_b = _edge_query(poly_a, poly_b, corners_b, rotation, margin, axis)
    if separation_edge > margin:
        return 0
    if edge_a >= 0 and edge_beats_faces(separation_edge, max(separation_a, separation_b)):
        normal = np.empty(3)
        rotate(frame_a, axis, normal)
        return edge_contact(origin_a, frame_a, poly_a, edge_a, origin_b, frame_b, poly_b, edge_b, normal, margin,
                            manifold)
    if separation_b > separation_a + FACE_FLIP_BIAS:
        return face_contact(origin_b, frame_b, poly_b, face_b, origin_a, frame_a, poly_a, False, margin, manifold)
    return face_contact(origin_a, frame_a, poly_a, face_a, origin_b, frame_b, poly_b, True, margin, manifold)


@kernel
def boxes_contact(origin_a, frame_a, half_a, origin_b, frame_b, half_b, margin, manifold):
    """The manifold of two boxes (centres (3,), frames (3, 3) with the box axes as columns, half
    sizes (3,)) closer than `margin`; returns its number of points.

    ODE's dBoxBox2 (Gottschalk's OBB test): in A's frame, with R = A^T B and t the offset of B's
    centre, the separation along A's axis k is |t_k| - h_a[k] - sum_j |R_kj| h_b[j], along B's axis k
    likewise, and along a_i x b_j (normalised, skipped when the edges are parallel) |t . L| minus both
    boxes' radii along L."""
    rotation, offset = relative_pose(origin_a, frame_a, origin_b, frame_b)
    separation_a, face_a = -np.inf, -1
    for k in range(3):
        reach = half_a[k]
        for j in range(3):
            reach += abs(rotation[k, j]) * half_b[j]
        separation = abs(offset[k]) - reach
        if separation > separation_a:
            separation_a, face_a = separation, 2 * k + (1 if offset[k] >= 0.0 else 0)
    if separation_a > margin:
        return 0
    separation_b, face_b = -np.inf, -1
    for k in range(3):
        along = offset[0] * rotation[0, k] + offset[1] * rotation[1, k] + offset[2] * rotation[2, k]
        reach = half_b[k]
        for i in range(3):
            reach += abs(rotation[i, k]) * half_a[i]
        separation = abs(along) - reach
        if separation > separation_b:  # B's face towards A faces against the offset
            separation_b, face_b = separation, 2 * k + (0 if along >= 0.0 else 1)
    if separation_b > margin:
        return 0
    separation_edge, axis_a, axis_b = -np.inf, -1, -1
    best = np.zeros(3)
    axis = np.empty(3)
    for i in range(3):
        for j in range(3):
            # a_i x b_j in A's frame, b_j being column j of R
            axis[i] = 0.0
            axis[(i + 1) % 3] = -rotation[(i + 2) % 3, j]
            axis[(i + 2) % 3] = rotation[(i + 1) % 3, j]
            length = np.sqrt(axis[0] ** 2 + axis[1] ** 2 + axis[2] ** 2)
            if length < PARALLEL:
                continue
            along = 0.0
            reach = 0.0
            for k in range(3):
                axis[k] /= length
                along += offset[k] * axis[k]
                reach += half_a[k] * abs(axis[k])
            for k in range(3):
                reach += half_b[k] * abs(axis[0] * rotation[0, k] + axis[1] * rotation[1, k] + axis[2] * rotation[2, k])
            separation = abs(along) - reach
            if separation > margin:
                return 0
            if separation > separation_edge:
                separation_edge, axis_a, axis_b = separation, i, j
                sign = 1.0 if along >= 0.0 else -1.0
                for k in range(3):
                    best[k] = sign * axis[k]
    box_a, box_b = box_shape(half_a), box_shape(half_b)
    if axis_a >= 0 and edge_beats_faces(separation_edge, max(separation_a, separation_b)):
        # the edge of A furthest along the axis, the edge of B furthest against it
        corner_a = corner_b = 0
        for k in range(3):
            if k != axis_a and best[k] > 0.0:
                corner_a |= 1 << k
            toward_a = -(best[0] * rotation[0, k] + best[1] * rotation[1, k] + best[2] * rotation[2, k])
            if k != axis_b and toward_a > 0.0:
                corner_b |= 1 << k
        edge_a = BOX_EDGE_BETWEEN[corner_a, corner_a | 1 << axis_a]
        edge_b = BOX_EDGE_BETWEEN[corner_b, corner_b | 1 << axis_b]
        normal = np.empty(3)
        rotate(frame_a, best, normal)
        return edge_contact(origin_a, frame_a, box_a, edge_a, origin_b, frame_b, box_b, edge_b, normal, margin,
                            manifold)
    if separation_b > separation_a + FACE_FLIP_BIAS:
        return face_contact(origin_b, frame_b, box_b, face_b, origin_a, frame_a, box_a, False, margin, manifold)
    return face_contact(origin_a, frame_a, box_a, face_a, origin_b, frame_b, box_b, True, margin, manifold)


@kernel
def edge_beats_faces(separation_edge, separation_face):
    """Whether an edge axis is taken over the best face axis: ODE's 1.05 fudge on depths, written
    so that it favours faces whether the shapes overlap or not, and EDGE_BIAS more."""
    return separation_edge > separation_face + (EDGE_FUDGE - 1.0) * abs(separation_face) + EDGE_BIAS


@kernel
def relative_pose(origin_a, frame_a, origin_b, frame_b):
    """(3, 3) rotation and (3,) translation taking B's frame to A's: x_a = R x_b + t."""
    rotation = np.empty((3, 3))
    translation = np.empty(3)
    for j in range(3):
        unrotate(frame_a, frame_b[:, j], rotation[:, j])
    local_point(origin_a, frame_a, origin_b, translation)
    return rotation, translation


@kernel
def load_row(matrix, row, out):
    """out = matrix[row], copied: a row view kept in a loop costs numba reference counting (onto_face)."""
    for i in range(out.shape[0]):
        out[i] = matrix[row, i]


@kernel
def local_point(origin, frame, point, out):
    """out = frame^T (point - origin): a point in the frame placed at origin with axes frame's columns."""
    for i in range(3):
        out[i] = (frame[0, i] * (point[0] - origin[0]) + frame[1, i] * (point[1] - origin[1])
                  + frame[2, i] * (point[2] - origin[2]))


@kernel
def _face_query(poly, corners, margin):
    """(separation, face): the face of `poly` along whose normal the points `corners` (k, 3, in
    poly's frame) lie furthest out; stops at the first face they clear by more than `margin`."""
    best, best_face = -np.inf, -1
    for f in range(poly.face_normal.shape[0]):
        n0, n1, n2 = poly.face_normal[f, 0], poly.face_normal[f, 1], poly.face_normal[f, 2]
        lowest = np.inf
        for k in range(corners.shape[0]):
            lowest = min(lowest, n0 * corners[k, 0] + n1 * corners[k, 1] + n2 * corners[k, 2])
        separation = lowest - poly.face_offset[f]
        if separation > best:
            best, best_face = separation, f
            if separation > margin:
                break
    return best, best_face


@kernel
def _edge_query(poly_a, poly_b, corners_b, rotation, margin, axis):
    """(separation, edge of A, edge of B) of the edge pair whose cross product separates the
    polyhedra most, among the pairs that are Minkowski faces; its axis (A's frame, from A towards
    B) into `axis`. Edges (-1, -1) when no pair qualifies.

    The arc tests come first and cost two dot products each: with L = d_a x d_b for the edges'
    directions, L . s = d_b . (s x d_a) for a bound s of A's arc and L . s = d_a . (d_b x s) for a
    bound of B's, so each edge carries its bounds crossed with its direction. L (or -L) is an
    outward normal of A at its edge when both of the first have one sign, and then its reverse one
    of B when both of the second have the other."""
    count_a = poly_a.edge_vertex.shape[0]
    direction_a = np.empty((count_a, 3))
    crossed_a = np.empty((count_a, 2, 3))  # A's arc bounds crossed with its edge's direction
    for ea in range(count_a):
        start, end = poly_a.vertices[poly_a.edge_vertex[ea, 0]], poly_a.vertices[poly_a.edge_vertex[ea, 1]]
        for i in range(3):
            direction_a[ea, i] = end[i] - start[i]
        for side in range(2):
            cross(poly_a.edge_arc[ea, side], direction_a[ea], crossed_a[ea, side])
    direction_b, arc_b, crossed_b = np.empty(3), np.empty((2, 3)), np.empty((2, 3))
    best, best_a, best_b = -np.inf, -1, -1
    for eb in range(poly_b.edge_vertex.shape[0]):
        u = poly_b.edge_vertex[eb, 0]
        for i in range(3):
            direction_b[i] = corners_b[poly_b.edge_vertex[eb, 1], i] - corners_b[u, i]
        for side in range(2):
            rotate(rotation, poly_b.edge_arc[eb, side], arc_b[side])
            cross(direction_b, arc_b[side], crossed_b[side])
        length_b2 = dot(direction_b, direction_b)
        for ea in range(count_a):
            on_a0, on_a1 = dot(direction_b, crossed_a[ea, 0]), dot(direction_b, crossed_a[ea, 1])
            if on_a0 * on_a1 < 0.0 or on_a0 + on_a1 == 0.0:
                continue
            sign = 1.0 if on_a0 + on_a1 > 0.0 else -1.0
            if sign * dot(direction_a[ea], crossed_b[0]) > 0.0 or sign * dot(direction_a[ea], crossed_b[1]) > 0.0:
                continue
            da = direction_a[ea]
            l0 = sign * (da[1] * direction_b[2] - da[2] * direction_b[1])
            l1 = sign * (da[2] * direction_b[0] - da[0] * direction_b[2])
            l2 = sign * (da[0] * direction_b[1] - da[1] * direction_b[0])
            length2 = l0 * l0 + l1 * l1 + l2 * l2
            if length2 <= PARALLEL * PARALLEL * length_b2 * dot(da, da):
                continue
            length = np.sqrt(length2)
            on_a, on_b = poly_a.vertices[poly_a.edge_vertex[ea, 0]], corners_b[u]
            separation = (l0 * (on_b[0] - on_a[0]) + l1 * (on_b[1] - on_a[1]) + l2 * (on_b[2] - on_a[2])) / length
            if separation > best:
                best, best_a, best_b = separation, ea, eb
                axis[0], axis[1], axis[2] = l0 / length, l1 / length, l2 / length
                if separation > margin:
                    return best, best_a, best_b
    return best, best_a, best_b


@kernel
def edge_contact(origin_a, frame_a, poly_a, edge_a, origin_b, frame_b, poly_b, edge_b, normal, margin, manifold):
    """One point: the closest points of edge a of A and edge b of B, with the given world normal."""
    a0, a1, b0, b1 = np.empty(3), np.empty(3), np.empty(3), np.empty(3)
    body_point(origin_a, frame_a, poly_a.vertices[poly_a.edge_vertex[edge_a, 0]], a0)
    body_point(origin_a, frame_a, poly_a.vertices[poly_a.edge_vertex[edge_a, 1]], a1)
    body_point(origin_b, frame_b, poly_b.vertices[poly_b.edge_vertex[edge_b, 0]], b0)
    body_point(origin_b, frame_b, poly_b.vertices[poly_b.edge_vertex[edge_b, 1]], b1)
    s, t = closest_on_segments(a0, a1, b0, b1)
    for i in range(3):
        a0[i] += s * (a1[i] - a0[i])
        b0[i] += t * (b1[i] - b0[i])
        manifold.normal[i] = normal[i]
    write_point(manifold, 0, a0, b0, normal, feature_id(feature_code(EDGE, edge_a), feature_code(EDGE, edge_b)))
    return 1 if manifold.separation[0] < margin else 0


@kernel
def face_contact(origin_p, frame_p, poly_p, face, origin_q, frame_q, poly_q, p_is_a, margin, manifold):
    """Face `face` of P as the reference against Q's incident face, the one most anti-parallel to
    it: the incident face clipped against the reference face's side planes (Sutherland-Hodgman),
    its points within `margin` of the reference plane kept, at most four (reduce_to_four); when none
    is, Q's corner deepest below the plane. P is shape A when p_is_a (else B: the normal is then
    reversed to run from A to B)."""
    rotation, translation = relative_pose(origin_p, frame_p, origin_q, frame_q)
    normal = poly_p.face_normal[face]
    normal_q = np.empty(3)  # the reference normal in Q's frame
    unrotate(rotation, normal, normal_q)
    incident, lowest = -1, np.inf
    for g in range(poly_q.face_normal.shape[0]):
        facing = dot(normal_q, poly_q.face_normal[g])
        if facing < lowest:
            incident, lowest = g, facing
    begin_q, end_q = poly_q.face_start[incident], poly_q.face_start[incident + 1]
    begin_p, end_p = poly_p.face_start[face], poly_p.face_start[face + 1]
    size = (end_q - begin_q) + (end_p - begin_p) + 1  # each side adds at most one corner to a convex polygon
    polygon = np.empty((2, size, 3))  # ping-pong buffers, in P's frame
    touching = np.empty((2, size, 2), dtype=np.int64)  # each corner's feature of P and of Q
    along = np.empty((2, size, 2), dtype=np.int64)  # each side's feature of P and of Q (-1: none)
    count = end_q - begin_q
    for k in range(count):
        corner = poly_q.face_vertex[begin_q + k]
        body_point(translation, rotation, poly_q.vertices[corner], polygon[0, k])
        touching[0, k, 0], touching[0, k, 1] = feature_code(FACE, face), feature_code(VERTEX, corner)
        along[0, k, 0], along[0, k, 1] = -1, feature_code(EDGE, poly_q.face_edge[begin_q + k])
    source = 0
    edge, side = np.empty(3), np.empty(3)
    for s in range(begin_p, end_p):
        start = poly_p.vertices[poly_p.face_vertex[s]]
        end = poly_p.vertices[poly_p.face_vertex[s + 1 if s + 1 < end_p else begin_p]]
        # the side plane through the reference face's edge, facing out of the face
        for i in range(3):
            edge[i] = end[i] - start[i]
        cross(edge, normal, side)
        length = np.sqrt(dot(side, side))
        for i in range(3):
            side[i] /= length
        count = _clip(polygon, touching, along, source, count, side, dot(side, start), poly_p, poly_p.face_edge[s],
                      feature_code(FACE, incident))
        source = 1 - source
        if count == 0:
            break
    offset = poly_p.face_offset[face]
    depth = np.empty(max(count, 1))
    kept = 0
    for k in range(count):
        height = dot(normal, polygon[source, k]) - offset
        if height < margin:
            depth[kept] = height
            _copy_corner(polygon, touching, along, source, k, source, kept)
            kept += 1
    if kept == 0:
        kept = _deepest_corner(poly_q, rotation, translation, normal, offset, margin, polygon[source], depth,
                               touching[source], face)
    chosen = np.empty(MAX_POINTS, dtype=np.int64)
    kept = reduce_to_four(polygon[source], depth, kept, normal, chosen)
    rotate(frame_p, normal, manifold.normal)
    if not p_is_a:
        for i in range(3):
            manifold.normal[i] = -manifold.normal[i]
    in_plane, on_face, on_p, on_q = np.empty(3), np.empty(3), np.empty(3), np.empty(3)
    for slot in range(kept):
        k = chosen[slot]
        for i in range(3):
            in_plane[i] = polygon[source, k, i] - depth[k] * normal[i]
        onto_face(poly_p, face, in_plane, on_face)  # a corner kept within SIDE_SLOP, or the deepest, may lie beside it
        body_point(origin_p, frame_p, on_face, on_p)
        body_point(origin_p, frame_p, polygon[source, k], on_q)
        code_p, code_q = touching[source, k, 0], touching[source, k, 1]
        if p_is_a:
            write_point(manifold, slot, on_p, on_q, manifold.normal, feature_id(code_p, code_q))
        else:
            write_point(manifold, slot, on_q, on_p, manifold.normal, feature_id(code_q, code_p))
    return kept


@kernel
def _deepest_corner(poly_q, rotation, translation, normal, offset, margin, points, depth, touching, face):
    """When the clipped face leaves nothing within the margin (deep overlaps of small faces, whose
    incident face can lie beside the reference face): Q's corner deepest below the reference plane,
    whose depth is the face's separation, as the one point (1, or 0 when it is beyond the margin)."""
    corner = np.empty(3)
    deepest, lowest = -1, np.inf
    for k in range(poly_q.vertices.shape[0]):
        body_point(translation, rotation, poly_q.vertices[k], corner)
        height = dot(normal, corner) - offset
        if height < lowest:
            deepest, lowest = k, height
            for i in range(3):
                points[0, i] = corner[i]
    if lowest >= margin:
        return 0
    depth[0] = lowest
    touching[0, 0], touching[0, 1] = feature_code(FACE, face), feature_code(VERTEX, deepest)
    return 1


@kernel
def onto_face(poly, face, point, out):
    """The point of face `face` (the polygon, in poly's frame) nearest to `point`, which lies in the
    face's plane: the point itself when it is inside, else the nearest point of the rim. (Indexed
    element by element: row views in this loop cost numba reference counting, twenty times the
    arithmetic.)"""
    begin, end = poly.face_start[face], poly.face_start[face + 1]
    n0, n1, n2 = poly.face_normal[face, 0], poly.face_normal[face, 1], poly.face_normal[face, 2]
    out[0], out[1], out[2] = point[0], point[1], point[2]
    nearest = np.inf
    for k in range(begin, end):
        a, b = poly.face_vertex[k], poly.face_vertex[k + 1 if k + 1 < end else begin]
        e0, e1, e2 = (poly.vertices[b, 0] - poly.vertices[a, 0], poly.vertices[b, 1] - poly.vertices[a, 1],
                      poly.vertices[b, 2] - poly.vertices[a, 2])
        p0, p1, p2 = point[0] - poly.vertices[a, 0], point[1] - poly.vertices[a, 1], point[2] - poly.vertices[a, 2]
        # beyond this side when it lies along (b - a) x n, out of the face
        if p0 * (e1 * n2 - e2 * n1) + p1 * (e2 * n0 - e0 * n2) + p2 * (e0 * n1 - e1 * n0) <= 0.0:
            continue
        fraction = min(max((p0 * e0 + p1 * e1 + p2 * e2) / (e0 * e0 + e1 * e1 + e2 * e2), 0.0), 1.0)
        d0, d1, d2 = fraction * e0 - p0, fraction * e1 - p1, fraction * e2 - p2
        if d0 * d0 + d1 * d1 + d2 * d2 < nearest:
            nearest = d0 * d0 + d1 * d1 + d2 * d2
            out[0] = poly.vertices[a, 0] + fraction * e0
            out[1] = poly.vertices[a, 1] + fraction * e1
            out[2] = poly.vertices[a, 2] + fraction * e2


@kernel
def _clip(polygon, touching, along, source, count, side, offset, poly_p, side_edge, incident_code):
    """One pass of Sutherland-Hodgman: the convex polygon in buffer `source` cut by the plane
    side . x <= offset into the other buffer; returns its corner count. Corners up to SIDE_SLOP
    outside stay as they are; a corner made by the cut is named by the edge of Q it lies on and this
    side (or, on an earlier side, by the corner of the reference face the two sides share)."""
    target = 1 - source
    side_code = feature_code(EDGE, side_edge)
    made = 0
    for k in range(count):
        after = k + 1 if k + 1 < count else 0
        here = dot(side, polygon[source, k]) - offset
        there = dot(side, polygon[source, after]) - offset
        crossing = (here < 0.0 and there > SIDE_SLOP) or (here > SIDE_SLOP and there < 0.0)
        if here <= SIDE_SLOP:
            _copy_corner(polygon, touching, along, source, k, target, made)
            if there > SIDE_SLOP and not crossing:  # on to the next corner kept along this side
                along[target, made, 0], along[target, made, 1] = side_code, -1
            made += 1
        if crossing:
            fraction = here / (here - there)
            for i in range(3):
                polygon[target, made, i] = polygon[source, k, i] + fraction * (polygon[source, after, i]
                                                                              - polygon[source, k, i])
            if along[source, k, 1] >= 0:  # an edge of Q through this side
                touching[target, made, 0], touching[target, made, 1] = side_code, along[source, k, 1]
            else:  # an earlier side of P through this one: a corner of the reference face
                touching[target, made, 0] = _corner(poly_p, along[source, k, 0] // 4, side_edge)
                touching[target, made, 1] = incident_code
            if here < 0.0:  # leaving: on along this side
                along[target, made, 0], along[target, made, 1] = side_code, -1
            else:  # entering: on along the cut edge
                along[target, made, 0], along[target, made, 1] = along[source, k, 0], along[source, k, 1]
            made += 1
    return made


@kernel
def _copy_corner(polygon, touching, along, source, k, target, made):
    """Corner k of buffer `source` (its point, its features and its side's) as corner `made` of `target`."""
    for i in range(3):
        polygon[target, made, i] = polygon[source, k, i]
    for i in range(2):
        touching[target, made, i] = touching[source, k, i]
        along[target, made, i] = along[source, k, i]


@kernel
def _corner(poly, edge, other):
    """The feature code of the corner two edges of a face share (the second edge's, if none)."""
    for i in range(2):
        for j in range(2):
            if poly.edge_vertex[edge, i] == poly.edge_vertex[other, j]:
                return feature_code(VERTEX, poly.edge_vertex[edge, i])
    return feature_code(EDGE, other)
