"""Capsules and spheres in the narrow phase: a segment with a radius (a sphere's two ends
coincide), against another, a plane or a polyhedron (box, hull, mesh triangle).

Against a polyhedron the segment is first tested for crossing it (clipped by its face planes,
Cyrus and Beck). Apart, the closest features are found directly: the closest point of a polyhedron
to a segment that misses it lies on a face seen from an end of the segment, or on an edge, so the
ends against the faces and the segment against every edge cover it. A face there is the reference:
the segment clipped against the face's sides gives two points when it lies along the face (Box2D
v3's b2CollideCapsules clips the same way); an edge gives one point, or two when the segment lies
along it. Crossing (or touching), the separating axis test over the face normals and the segment's
cross products with the edges finds the way out, as for two polyhedra.
"""
import numpy as np

from ..jit import kernel
from .manifold_points import EDGE, FACE, SIDE_SLOP, VERTEX, feature_code, feature_id, write_point
from .polytopes import ARC_SLACK, PARALLEL, edge_beats_faces, load_row, local_point, onto_face
from .segments import SEGMENT_POINT, closest_on_segments, side_by_side
from ..vector import body_point, dot, rotate

TOUCHING = 1e-12  # m: a segment this close to a polyhedron is met by the separating axis test instead
FACE_FIRST = 1e-12  # m: an edge must be nearer than a face by this to be the closest feature


@kernel
def capsules_contact(ends_a, radius_a, ends_b, radius_b, margin, manifold):
    """Two capsules (or spheres): ends (2, 3) world, radii. One point at the closest points of the
    axes, or two where the axes run side by side (segments.side_by_side)."""
    s, t = closest_on_segments(ends_a[0], ends_a[1], ends_b[0], ends_b[1])
    on_a, on_b = np.empty(3), np.empty(3)
    distance2 = 0.0
    for i in range(3):
        on_a[i] = ends_a[0, i] + s * (ends_a[1, i] - ends_a[0, i])
        on_b[i] = ends_b[0, i] + t * (ends_b[1, i] - ends_b[0, i])
        distance2 += (on_b[i] - on_a[i]) ** 2
    distance = np.sqrt(distance2)
    reach = radius_a + radius_b
    if distance - reach >= margin:
        return 0
    if distance > TOUCHING:
        for i in range(3):
            manifold.normal[i] = (on_b[i] - on_a[i]) / distance
    else:  # the axes meet: any direction across both
        _across(ends_a, ends_b, manifold.normal)
    cut_a, cut_b = np.empty((2, 3)), np.empty((2, 3))
    cut_by = np.empty(2, dtype=np.int64)
    if side_by_side(ends_a[0], ends_a[1], ends_b[0], ends_b[1], reach, margin, cut_a, cut_b, cut_by) == 2:
        for k in range(2):
            code_a = feature_code(EDGE, 0) if cut_by[k] < 0 else feature_code(VERTEX, cut_by[k])
            code_b = feature_code(VERTEX, k) if cut_by[k] < 0 else feature_code(EDGE, 0)
            _write_rounded(manifold, k, cut_a[k], radius_a, cut_b[k], radius_b, feature_id(code_a, code_b))
        return 2
    _write_rounded(manifold, 0, on_a, radius_a, on_b, radius_b,
                   feature_id(_segment_feature(ends_a, s), _segment_feature(ends_b, t)))
    return 1


@kernel
def plane_capsule_contact(point, normal, ends, radius, margin, manifold):
    """A plane (a point (3,) on it, its unit normal (3,), world) as A against a capsule or sphere
    as B: each end of the axis closer than `margin`."""
    count = 0
    on_plane, surface = np.empty(3), np.empty(3)
    for k in range(1 if _is_point(ends) else 2):
        height = dot(normal, ends[k]) - dot(normal, point)
        if height - radius < margin:
            for i in range(3):
                on_plane[i] = ends[k, i] - height * normal[i]
                surface[i] = ends[k, i] - radius * normal[i]
            write_point(manifold, count, on_plane, surface, normal, feature_id(feature_code(FACE, 0),
                                                                                feature_code(VERTEX, k)))
            count += 1
    for i in range(3):
        manifold.normal[i] = normal[i]
    return count


@kernel
def polyhedron_capsule_contact(origin, frame, poly, ends, radius, margin, manifold):
    """A polyhedron (origin (3,), frame (3, 3), contact.polyhedron.Polyhedron) as A against a capsule
    or sphere (ends (2, 3) world, radius) as B."""
    local = np.empty((2, 3))  # the axis in the polyhedron's frame
    for k in range(2):
        local_point(origin, frame, ends[k], local[k])
    point = _is_point(local)
    if _crosses(poly, local[0], local[1]):
        return _overlapping(origin, frame, poly, local, point, radius, margin, manifold)
    distance, kind, index, s, nearest = _closest_feature(poly, local, point)
    if distance - radius >= margin:
        return 0
    if distance <= TOUCHING:
        return _overlapping(origin, frame, poly, local, point, radius, margin, manifold)
    on_axis, normal = np.empty(3), np.empty(3)
    for i in range(3):
        on_axis[i] = local[0, i] + s * (local[1, i] - local[0, i])
        normal[i] = (on_axis[i] - nearest[i]) / distance
    if kind == FACE:
        count = _on_face(origin, frame, poly, index, local, point, radius, margin, manifold)
        if count > 0:
            return count
    elif kind == EDGE and not point:
        start, end = poly.vertices[poly.edge_vertex[index, 0]], poly.vertices[poly.edge_vertex[index, 1]]
        cut_poly, cut_axis = np.empty((2, 3)), np.empty((2, 3))
        cut_by = np.empty(2, dtype=np.int64)
        if side_by_side(start, end, local[0], local[1], radius, margin, cut_poly, cut_axis, cut_by) == 2:
            world_normal = np.empty(3)
            rotate(frame, normal, world_normal)
            for k in range(2):
                if cut_by[k] < 0:
                    code_a, code_b = feature_code(EDGE, index), feature_code(VERTEX, k)
                else:
                    code_a, code_b = feature_code(VERTEX, poly.edge_vertex[index, cut_by[k]]), feature_code(EDGE, 0)
                _write_local(manifold, k, origin, frame, cut_poly[k], cut_axis[k], normal, world_normal, radius,
                             feature_id(code_a, code_b))
            return 2
    world_normal = np.empty(3)
    rotate(frame, normal, world_normal)
    _write_local(manifold, 0, origin, frame, nearest, on_axis, normal, world_normal, radius,
                 feature_id(feature_code(kind, index), _segment_feature(local, s)))
    return 1


@kernel
def _crosses(poly, start, end):
    """Whether the segment (poly's frame) meets the polyhedron's inside: clipped by every face plane
    (Cyrus-Beck), something is left. A flat polyhedron (two faces: a triangle) is also bounded by the
    side planes of its face."""
    enter, leave = 0.0, 1.0
    normal = np.empty(3)
    for f in range(poly.face_normal.shape[0]):
        load_row(poly.face_normal, f, normal)
        enter, leave = _clip_by(normal, poly.face_offset[f], start, end, enter, leave)
        if enter > leave:
            return False
    if poly.face_normal.shape[0] == 2:
        for k in range(poly.face_start[0], poly.face_start[1]):
            offset = _side_plane(poly, 0, k, normal)
            enter, leave = _clip_by(normal, offset, start, end, enter, leave)
            if enter > leave:
                return False
    return True


@kernel
def _clip_by(normal, offset, start, end, enter, leave):
    """The part [enter, leave] of the segment below the plane normal . x = offset."""
    height = dot(normal, start) - offset
    rise = dot(normal, end) - dot(normal, start)
    if rise == 0.0:
        return (enter, leave) if height <= 0.0 else (1.0, 0.0)
    crossing = -height / rise
    if rise > 0.0:
        return enter, min(leave, crossing)
    return max(enter, crossing), leave


@kernel
def _side_plane(poly, face, k, side):
    """The plane through the face's side from corner k of its loop to the next, facing out of the
    face: its unit normal into `side` (3,); returns its offset."""
    a = poly.face_vertex[k]
    b = poly.face_vertex[k + 1 if k + 1 < poly.face_start[face + 1] else poly.face_start[face]]
    e0, e1, e2 = (poly.vertices[b, 0] - poly.vertices[a, 0], poly.vertices[b, 1] - poly.vertices[a, 1],
                  poly.vertices[b, 2] - poly.vertices[a, 2])
    n0, n1, n2 = poly.face_normal[face, 0], poly.face_normal[face, 1], poly.face_normal[face, 2]
    side[0], side[1], side[2] = e1 * n2 - e2 * n1, e2 * n0 - e0 * n2, e0 * n1 - e1 * n0
    length = np.sqrt(dot(side, side))
    for i in range(3):
        side[i] /= length
    return side[0] * poly.vertices[a, 0] + side[1] * poly.vertices[a, 1] + side[2] * poly.vertices[a, 2]


@kernel
def _closest_feature(poly, axis, point):
    """For a segment `axis` (2, 3) that misses the polyhedron (in its frame): (distance, kind,
    index, s, nearest): the feature of the polyhedron nearest to it (FACE, EDGE or VERTEX and its
    index), the parameter s of the segment's nearest point and the polyhedron's nearest point (3,).
    Faces win ties, so a segment over a face's rim meets the face.

    A face is nearest at an end of the part of the segment over it (the segment clipped by the
    face's side planes): a capsule lying across a box, both ends beyond the face, meets the face
    there, not the edges it crosses (one point on one edge, and the capsule rocked from edge to edge
    and slid along its axis)."""
    best, kind, index, best_s = np.inf, FACE, 0, 0.0
    nearest, side, over, normal = np.empty(3), np.empty(3), np.empty(3), np.empty(3)
    head, tail, start, end = np.empty(3), np.empty(3), np.empty(3), np.empty(3)
    load_row(axis, 0, head)
    load_row(axis, 1, tail)
    for f in range(poly.face_normal.shape[0]):
        load_row(poly.face_normal, f, normal)
        enter, leave = 0.0, 1.0
        for j in range(poly.face_start[f], poly.face_start[f + 1]):
            offset = _side_plane(poly, f, j, side)
            enter, leave = _clip_by(side, offset, head, tail, enter, leave)
            if enter > leave:
                break
        if enter > leave:
            continue
        for k in range(1 if point else 2):
            s = enter if k == 0 else leave
            for i in range(3):
                over[i] = head[i] + s * (tail[i] - head[i])
            height = dot(normal, over) - poly.face_offset[f]
            if 0.0 < height < best:
                best, kind, index, best_s = height, FACE, f, s
                for i in range(3):
                    nearest[i] = over[i] - height * normal[i]
    for e in range(poly.edge_vertex.shape[0]):
        load_row(poly.vertices, poly.edge_vertex[e, 0], start)
        load_row(poly.vertices, poly.edge_vertex[e, 1], end)
        s, t = closest_on_segments(head, tail, start, end)
        distance2 = 0.0
        for i in range(3):
            distance2 += (head[i] + s * (tail[i] - head[i]) - start[i] - t * (end[i] - start[i])) ** 2
        distance = np.sqrt(distance2)
        if distance < best - FACE_FIRST:
            best, best_s = distance, s
            if t == 0.0 or t == 1.0:
                kind, index = VERTEX, poly.edge_vertex[e, int(t)]
            else:
                kind, index = EDGE, e
            for i in range(3):
                nearest[i] = start[i] + t * (end[i] - start[i])
    return best, kind, index, best_s, nearest


@kernel
def _on_face(origin, frame, poly, face, axis, point, radius, margin, manifold):
    """Face `face` as the reference: the axis (poly's frame) clipped against the face's side planes;
    each end within `margin` of the face (after the radius) is a point."""
    normal = poly.face_normal[face]
    cut = axis.copy()
    cut_by = np.full(2, -1, dtype=np.int64)  # the side (its edge) that cut each end
    side = np.empty(3)
    for j in range(poly.face_start[face], poly.face_start[face + 1]):
        offset = _side_plane(poly, face, j, side)
        here, there = dot(side, cut[0]) - offset, dot(side, cut[1]) - offset
        if here > SIDE_SLOP and there > SIDE_SLOP:
            return 0
        for k in range(2):
            mine, other = (here, there) if k == 0 else (there, here)
            if mine > SIDE_SLOP:  # cut back to the side, or to the other end if that is within the slop
                fraction = mine / (mine - other) if other < 0.0 else 1.0
                for i in range(3):
                    cut[k, i] += fraction * (cut[1 - k, i] - cut[k, i])
                cut_by[k] = poly.face_edge[j]
    world_normal = np.empty(3)
    rotate(frame, normal, world_normal)
    in_plane, on_face = np.empty(3), np.empty(3)
    count = 0
    for k in range(1 if point or _is_point(cut) else 2):
        height = dot(normal, cut[k]) - poly.face_offset[face]
        if height - radius >= margin:
            continue
        for i in range(3):
            in_plane[i] = cut[k, i] - height * normal[i]
        onto_face(poly, face, in_plane, on_face)  # an end kept within SIDE_SLOP may lie beside the face
        if cut_by[k] < 0:
            code_a, code_b = feature_code(FACE, face), feature_code(VERTEX, k)
        else:
            code_a, code_b = feature_code(EDGE, cut_by[k]), feature_code(EDGE, 0)
        _write_local(manifold, count, origin, frame, on_face, cut[k], normal, world_normal, radius,
                     feature_id(code_a, code_b))
        count += 1
    return count


@kernel
def _overlapping(origin, frame, poly, axis, point, radius, margin, manifold):
    """The separating axis test for a segment inside (or touching) a polyhedron, in its frame: its
    face normals, and for a segment the cross products with the edges that are outward normals at
    them (the segment's own normals are every direction across it, so only the edge's arc limits)."""
    separation_face, face = -np.inf, 0
    for f in range(poly.face_normal.shape[0]):
        lowest = min(dot(poly.face_normal[f], axis[0]), dot(poly.face_normal[f], axis[1]))
        if lowest - poly.face_offset[f] > separation_face:
            separation_face, face = lowest - poly.face_offset[f], f
    if separation_face - radius >= margin:
        return 0
    separation_edge, edge = -np.inf, -1
    best = np.zeros(3)
    if not point:
        d0, d1, d2 = axis[1, 0] - axis[0, 0], axis[1, 1] - axis[0, 1], axis[1, 2] - axis[0, 2]
        length_axis = np.sqrt(d0 * d0 + d1 * d1 + d2 * d2)
        for e in range(poly.edge_vertex.shape[0]):
            start, end = poly.vertices[poly.edge_vertex[e, 0]], poly.vertices[poly.edge_vertex[e, 1]]
            e0, e1, e2 = end[0] - start[0], end[1] - start[1], end[2] - start[2]
            l0, l1, l2 = d1 * e2 - d2 * e1, d2 * e0 - d0 * e2, d0 * e1 - d1 * e0
            length = np.sqrt(l0 * l0 + l1 * l1 + l2 * l2)
            if length <= PARALLEL * length_axis * np.sqrt(e0 * e0 + e1 * e1 + e2 * e2):
                continue
            l0, l1, l2 = l0 / length, l1 / length, l2 / length
            s0 = l0 * poly.edge_arc[e, 0, 0] + l1 * poly.edge_arc[e, 0, 1] + l2 * poly.edge_arc[e, 0, 2]
            s1 = l0 * poly.edge_arc[e, 1, 0] + l1 * poly.edge_arc[e, 1, 1] + l2 * poly.edge_arc[e, 1, 2]
            if s0 < -ARC_SLACK or s1 < -ARC_SLACK:
                if s0 > ARC_SLACK or s1 > ARC_SLACK:
                    continue
                l0, l1, l2 = -l0, -l1, -l2
            separation = l0 * (axis[0, 0] - start[0]) + l1 * (axis[0, 1] - start[1]) + l2 * (axis[0, 2] - start[2])
            if separation > separation_edge:
                separation_edge, edge = separation, e
                best[0], best[1], best[2] = l0, l1, l2
    if edge >= 0 and edge_beats_faces(separation_edge, separation_face):
        if separation_edge - radius >= margin:
            return 0
        start, end = poly.vertices[poly.edge_vertex[edge, 0]], poly.vertices[poly.edge_vertex[edge, 1]]
        s, t = closest_on_segments(axis[0], axis[1], start, end)
        on_axis, on_edge = np.empty(3), np.empty(3)
        for i in range(3):
            on_axis[i] = axis[0, i] + s * (axis[1, i] - axis[0, i])
            on_edge[i] = start[i] + t * (end[i] - start[i])
        world_normal = np.empty(3)
        rotate(frame, best, world_normal)
        _write_local(manifold, 0, origin, frame, on_edge, on_axis, best, world_normal, radius,
                     feature_id(feature_code(EDGE, edge), _segment_feature(axis, s)))
        return 1
    count = _on_face(origin, frame, poly, face, axis, point, radius, margin, manifold)
    if count > 0:
        return count
    # the axis beside the face (deep in a small face's neighbourhood): its end deepest below the face
    normal = poly.face_normal[face]
    deeper = 0 if dot(normal, axis[0]) <= dot(normal, axis[1]) else 1
    height = dot(normal, axis[deeper]) - poly.face_offset[face]
    in_plane, on_face, world_normal = np.empty(3), np.empty(3), np.empty(3)
    for i in range(3):
        in_plane[i] = axis[deeper, i] - height * normal[i]
    onto_face(poly, face, in_plane, on_face)
    rotate(frame, normal, world_normal)
    _write_local(manifold, 0, origin, frame, on_face, axis[deeper], normal, world_normal, radius,
                 feature_id(feature_code(FACE, face), _segment_feature(axis, float(deeper))))
    return 1


@kernel
def _write_local(manifold, slot, origin, frame, on_poly, on_axis, normal, world_normal, radius, feature):
    """Point `slot` from the polyhedron's point and the axis point (its frame): B's surface point is
    the axis point less the radius along the normal."""
    surface = np.empty(3)
    for i in range(3):
        surface[i] = on_axis[i] - radius * normal[i]
    point_a, point_b = np.empty(3), np.empty(3)
    body_point(origin, frame, on_poly, point_a)
    body_point(origin, frame, surface, point_b)
    for i in range(3):
        manifold.normal[i] = world_normal[i]
    write_point(manifold, slot, point_a, point_b, world_normal, feature)


@kernel
def _write_rounded(manifold, slot, on_a, radius_a, on_b, radius_b, feature):
    """Point `slot` of two round shapes from their axis points (world): each surface point is its
    axis point moved by its radius along the manifold's normal."""
    point_a, point_b = np.empty(3), np.empty(3)
    for i in range(3):
        point_a[i] = on_a[i] + radius_a * manifold.normal[i]
        point_b[i] = on_b[i] - radius_b * manifold.normal[i]
    write_point(manifold, slot, point_a, point_b, manifold.normal, feature)


@kernel
def _segment_feature(ends, s):
    """The feature of a capsule's axis at parameter s: an end (vertex 0 or 1) or the axis (edge 0)."""
    if _is_point(ends) or s <= 0.0:
        return feature_code(VERTEX, 0)
    if s >= 1.0:
        return feature_code(VERTEX, 1)
    return feature_code(EDGE, 0)


@kernel
def _is_point(ends):
    """Whether the two ends (2, 3) of a segment coincide."""
    apart2 = 0.0
    for i in range(3):
        apart2 += (ends[1, i] - ends[0, i]) ** 2
    return apart2 <= SEGMENT_POINT


@kernel
def _across(ends_a, ends_b, out):
    """A unit direction across both axes (their cross product, else across the one that is not a
    point, else +z)."""
    u0, u1, u2 = ends_a[1, 0] - ends_a[0, 0], ends_a[1, 1] - ends_a[0, 1], ends_a[1, 2] - ends_a[0, 2]
    v0, v1, v2 = ends_b[1, 0] - ends_b[0, 0], ends_b[1, 1] - ends_b[0, 1], ends_b[1, 2] - ends_b[0, 2]
    c0, c1, c2 = u1 * v2 - u2 * v1, u2 * v0 - u0 * v2, u0 * v1 - u1 * v0
    if c0 * c0 + c1 * c1 + c2 * c2 <= SEGMENT_POINT * SEGMENT_POINT:
        if u0 * u0 + u1 * u1 + u2 * u2 <= SEGMENT_POINT:
            u0, u1, u2 = v0, v1, v2
        # across u: u x the coordinate axis it leans on least
        if abs(u0) <= abs(u1) and abs(u0) <= abs(u2):
            c0, c1, c2 = 0.0, u2, -u1
        elif abs(u1) <= abs(u2):
            c0, c1, c2 = -u2, 0.0, u0
        else:
            c0, c1, c2 = u1, -u0, 0.0
        if c0 * c0 + c1 * c1 + c2 * c2 <= SEGMENT_POINT * SEGMENT_POINT:
            c0, c1, c2 = 0.0, 0.0, 1.0
    length = np.sqrt(c0 * c0 + c1 * c1 + c2 * c2)
    out[0], out[1], out[2] = c0 / length, c1 / length, c2 / length
