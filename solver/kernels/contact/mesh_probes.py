"""Bodies' corners against a triangle mesh (the method: contact/mesh_contacts.py): each probe's path
through the step asks the mesh's bounding volume hierarchy for the triangles near it, and meets the
nearest of them (Ericson's closest point on a triangle) through the plane that faces it."""
import numpy as np

from .bvh import triangles_meeting_boxes
from ..jit import entry_kernel, kernel
from ..vector import body_point, dot

NEAREST_OVER_FACE = 1e-9  # a probe this near the closest point, or this nearly above it, is over the face


@kernel
def probes_against_mesh(probe_body, probe_local, probe_radius, body_dynamic, position_now, rotation_now,
                        position_ahead, rotation_ahead, margin, node_low, node_high, node_start, node_stop, first_leaf,
                        triangle_low, triangle_high, order, corners, normals):
    """The probes (P,) of dynamic bodies within `margin` of the mesh now or at the look-ahead:
    (k,) probe, (k,) its nearest triangle, (k, 3) the closest point of it (world) and (k, 3) the unit
    normal of the tangent plane there, pointing to the side the probe belongs on.

    Triangles are two-sided: a probe within margin of the face's plane takes the side of its body's
    centre of mass (a convex body touching a face lies on one side of it, its centre included), any
    further its own side, unless its body pierces the mesh (_through_the_mesh): then its
    centre's, and its gap is negative, how far it is through. A probe over the face takes the face's
    plane; one beyond an edge or corner, the plane facing it."""
    count = probe_body.shape[0]
    centre_now, centre_ahead = np.empty((count, 3)), np.empty((count, 3))
    moving = np.empty(count, dtype=np.int64)
    used = 0
    for p in range(count):
        body = probe_body[p]
        body_point(position_now[body], rotation_now[body], probe_local[p], centre_now[p])
        body_point(position_ahead[body], rotation_ahead[body], probe_local[p], centre_ahead[p])
        # a probe whose path is not finite (a diverging state, which the step reports) would meet every box
        if body_dynamic[body] and np.isfinite(centre_now[p]).all() and np.isfinite(centre_ahead[p]).all():
            moving[used] = p
            used += 1
    low, high = np.empty((used, 3)), np.empty((used, 3))
    for q in range(used):
        p = moving[q]
        reach = probe_radius[p] + margin
        for i in range(3):
            low[q, i] = min(centre_now[p, i], centre_ahead[p, i]) - reach
            high[q, i] = max(centre_now[p, i], centre_ahead[p, i]) + reach
    offsets, found = triangles_meeting_boxes(node_low, node_high, node_start, node_stop, first_leaf, triangle_low,
                                             triangle_high, order, low, high)
    nearest_of = np.full(used, -1, dtype=np.int64)
    closest, normal = np.empty((used, 3)), np.empty((used, 3))
    point, offset = np.empty(3), np.empty(3)
    asked = np.zeros(used, dtype=np.bool_)  # whether the probe may be through the mesh
    for q in range(used):
        p = moving[q]
        distance = np.inf
        for j in range(offsets[q], offsets[q + 1]):  # the first of equally near triangles, in the tree's order
            closest_on_triangle(centre_now[p], corners[found[j]], point)
            length = np.sqrt((centre_now[p, 0] - point[0]) ** 2 + (centre_now[p, 1] - point[1]) ** 2
                             + (centre_now[p, 2] - point[2]) ** 2)
            if length < distance:
                nearest_of[q], distance = found[j], length
                closest[q] = point
        if nearest_of[q] < 0:  # not near the mesh at all: 50 mm through a floor is beyond the margin
            asked[q] = True
            continue
        for i in range(3):
            offset[i] = centre_now[p, i] - closest[q, i]
        face = normals[nearest_of[q]]
        height = dot(offset, face)
        side = np.sign(height)
        body = probe_body[p]
        if abs(height) <= margin:
            side = np.sign((position_now[body, 0] - closest[q, 0]) * face[0]
                           + (position_now[body, 1] - closest[q, 1]) * face[1]
                           + (position_now[body, 2] - closest[q, 2]) * face[2])
        facing_normal(offset, distance, face, -1.0 if side < 0 else 1.0, 1.0, normal[q])
        # the body's centre of mass behind the plane that faces the probe: the probe may be through the mesh
        asked[q] = ((position_now[body, 0] - closest[q, 0]) * normal[q, 0]
                    + (position_now[body, 1] - closest[q, 1]) * normal[q, 1]
                    + (position_now[body, 2] - closest[q, 2]) * normal[q, 2]) < 0.0
    _through_the_mesh(probe_body, moving, centre_now, position_now, asked, nearest_of, closest, normal, node_low,
                      node_high, node_start, node_stop, first_leaf, triangle_low, triangle_high, order, corners,
                      normals)
    probe, triangle = np.empty(used, dtype=np.int64), np.empty(used, dtype=np.int64)
    kept = 0
    for q in range(used):
        p = moving[q]
        if nearest_of[q] < 0:
            continue
        gap_now = ((centre_now[p, 0] - closest[q, 0]) * normal[q, 0] + (centre_now[p, 1] - closest[q, 1]) * normal[q, 1]
                   + (centre_now[p, 2] - closest[q, 2]) * normal[q, 2]) - probe_radius[p]
        gap_ahead = ((centre_ahead[p, 0] - closest[q, 0]) * normal[q, 0]
                     + (centre_ahead[p, 1] - closest[q, 1]) * normal[q, 1]
                     + (centre_ahead[p, 2] - closest[q, 2]) * normal[q, 2]) - probe_radius[p]
        if min(gap_now, gap_ahead) < margin:
            probe[kept], triangle[kept] = p, nearest_of[q]
            for i in range(3):
                closest[kept, i], normal[kept, i] = closest[q, i], normal[q, i]
            kept += 1
    return probe[:kept].copy(), triangle[:kept].copy(), closest[:kept].copy(), normal[:kept].copy()


@kernel
def _through_the_mesh(probe_body, moving, centre_now, position_now, asked, nearest_of, closest, normal, node_low,
                      node_high, node_start, node_stop, first_leaf, triangle_low, triangle_high, order, corners,
                      normals):
    """Probes through the mesh: those `asked` (Q,) whose segment from their body's centre of mass
    crosses a triangle. The body is convex, so that segment lies in it: it pierces the mesh there
    (placed overlapping it, or pushed through), and the probe belongs on its centre's side. It meets
    the triangle the segment crosses first from the centre (nearest_of, closest), through the plane
    that faces the centre (normal), so its gap is negative, how far it is through. Asked of probes
    whose centre of mass is behind the plane that faces them, and of probes not near the mesh at all
    (50 mm through a floor is beyond the margin); a probe beyond a sheet's edge, its body reaching
    round it, crosses nothing and keeps its own side."""
    questions = np.flatnonzero(asked)
    low, high = np.empty((questions.shape[0], 3)), np.empty((questions.shape[0], 3))
    for k in range(questions.shape[0]):
        p = moving[questions[k]]
        for i in range(3):
            low[k, i] = min(centre_now[p, i], position_now[probe_body[p], i])
            high[k, i] = max(centre_now[p, i], position_now[probe_body[p], i])
    offsets, found = triangles_meeting_boxes(node_low, node_high, node_start, node_stop, first_leaf, triangle_low,
                                             triangle_high, order, low, high)
    point, offset = np.empty(3), np.empty(3)
    for k in range(questions.shape[0]):
        q = questions[k]
        p = moving[q]
        centre = position_now[probe_body[p]]
        first, earliest = -1, np.inf
        for j in range(offsets[k], offsets[k + 1]):
            along = segment_crossing(centre, centre_now[p], corners[found[j]])
            if along < earliest:
                first, earliest = found[j], along
        if first < 0:
            continue
        closest_on_triangle(centre_now[p], corners[first], point)
        for i in range(3):
            offset[i] = centre_now[p, i] - point[i]
            closest[q, i] = point[i]
        face = normals[first]
        facing = np.sign((centre[0] - point[0]) * face[0] + (centre[1] - point[1]) * face[1]
                         + (centre[2] - point[2]) * face[2])
        facing_normal(offset, np.sqrt(dot(offset, offset)), face, facing, -1.0, normal[q])
        nearest_of[q] = first


@kernel
def facing_normal(offset, distance, face, face_side, edge_side, out):
    """out: the unit normal of the tangent plane at a triangle's point nearest a probe, `offset` (3,)
    from that point to the probe, `distance` long: the face's own normal (3,) times face_side (+-1) when
    the probe is over the face, else the offset's direction times edge_side (+-1), beyond an edge or
    corner."""
    height = dot(offset, face)
    over_face = distance <= NEAREST_OVER_FACE or abs(height) >= distance * (1 - NEAREST_OVER_FACE)
    for i in range(3):
        out[i] = face_side * face[i] if over_face else edge_side * offset[i] / max(distance, 1e-300)


@kernel
def segment_crossing(start, end, corners):
    """Where the segment from start to end meets the triangle (3, 3), as the fraction of the way along
    it (Moller and Trumbore's test); inf if it does not (a segment in the triangle's plane does not)."""
    a, b, c = corners[0], corners[1], corners[2]
    e1x, e1y, e1z = b[0] - a[0], b[1] - a[1], b[2] - a[2]
    e2x, e2y, e2z = c[0] - a[0], c[1] - a[1], c[2] - a[2]
    dx, dy, dz = end[0] - start[0], end[1] - start[1], end[2] - start[2]
    px, py, pz = dy * e2z - dz * e2y, dz * e2x - dx * e2z, dx * e2y - dy * e2x
    determinant = e1x * px + e1y * py + e1z * pz
    scale = np.sqrt(e1x * e1x + e1y * e1y + e1z * e1z) * np.sqrt(px * px + py * py + pz * pz)
    if abs(determinant) <= 1e-12 * scale:
        return np.inf
    tx, ty, tz = start[0] - a[0], start[1] - a[1], start[2] - a[2]
    u = (tx * px + ty * py + tz * pz) / determinant
    if u < 0.0 or u > 1.0:
        return np.inf
    qx, qy, qz = ty * e1z - tz * e1y, tz * e1x - tx * e1z, tx * e1y - ty * e1x
    v = (dx * qx + dy * qy + dz * qz) / determinant
    if v < 0.0 or u + v > 1.0:
        return np.inf
    along = (e2x * qx + e2y * qy + e2z * qz) / determinant
    return along if 0.0 <= along <= 1.0 else np.inf


@entry_kernel
def closest_on_triangle(point, corners, out):
    """out = the point of the triangle (3, 3) nearest `point` (Ericson, Real-Time Collision Detection
    §5.1.5: the Voronoi regions of the corners, then of the edges, then the face)."""
    a, b, c = corners[0], corners[1], corners[2]
    d1 = d2 = d3 = d4 = d5 = d6 = 0.0
    for i in range(3):
        ab, ac = b[i] - a[i], c[i] - a[i]
        d1 += ab * (point[i] - a[i])
        d2 += ac * (point[i] - a[i])
        d3 += ab * (point[i] - b[i])
        d4 += ac * (point[i] - b[i])
        d5 += ab * (point[i] - c[i])
        d6 += ac * (point[i] - c[i])
    va, vb, vc = d3 * d6 - d5 * d4, d5 * d2 - d1 * d6, d1 * d4 - d3 * d2
    if d1 <= 0 and d2 <= 0:
        out[:] = a
    elif d3 >= 0 and d4 <= d3:
        out[:] = b
    elif d6 >= 0 and d5 <= d6:
        out[:] = c
    elif va <= 0 and d4 - d3 >= 0 and d5 - d6 >= 0:
        along = _ratio(d4 - d3, (d4 - d3) + (d5 - d6))
        for i in range(3):
            out[i] = b[i] + along * (c[i] - b[i])
    elif vb <= 0 and d2 >= 0 and d6 <= 0:
        along = _ratio(d2, d2 - d6)
        for i in range(3):
            out[i] = a[i] + along * (c[i] - a[i])
    elif vc <= 0 and d1 >= 0 and d3 <= 0:
        along = _ratio(d1, d1 - d3)
        for i in range(3):
            out[i] = a[i] + along * (b[i] - a[i])
    else:
        total = va + vb + vc
        if abs(total) <= 1e-300:
            total = 1e-300
        for i in range(3):
            out[i] = a[i] + vb / total * (b[i] - a[i]) + vc / total * (c[i] - a[i])


@kernel
def _ratio(top, bottom):
    return top / (bottom if abs(bottom) > 1e-300 else 1e-300)
