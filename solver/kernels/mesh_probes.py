"""Bodies' corners against a triangle mesh (the method: contact/mesh_probes.py): each probe's path
through the step asks the mesh's bounding volume hierarchy for the triangles near it, and meets the
nearest of them (Ericson's closest point on a triangle) through the plane that faces it."""
import numpy as np

from .bvh import triangles_meeting_boxes
from .jit import kernel
from .vector import body_point, dot

NEAREST_OVER_FACE = 1e-9  # a probe this near the closest point, or this nearly above it, is over the face


@kernel
def probes_against_mesh(probe_body, probe_local, probe_radius, body_dynamic, position_now, rotation_now,
                        position_ahead, rotation_ahead, margin, node_low, node_high, node_start, node_stop, first_leaf,
                        triangle_low, triangle_high, order, corners, normals):
    """The probes (P,) of dynamic bodies within `margin` of the mesh now or at the look-ahead:
    (k,) probe, (k,) its nearest triangle, (k, 3) the closest point of it (world) and (k, 3) the unit
    normal of the tangent plane there, pointing towards the probe.

    Triangles are two-sided: a probe within margin of the face's plane takes the side of its body's
    centre of mass (a convex body touching a face lies on one side of it, its centre included), any
    further its own side. A probe over the face takes the face's plane; one beyond an edge or corner,
    the plane facing it."""
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
    probe, triangle = np.empty(used, dtype=np.int64), np.empty(used, dtype=np.int64)
    closest, normal = np.empty((used, 3)), np.empty((used, 3))
    point, offset = np.empty(3), np.empty(3)
    kept = 0
    for q in range(used):
        p = moving[q]
        nearest, distance = -1, np.inf
        for j in range(offsets[q], offsets[q + 1]):  # the first of equally near triangles, in the tree's order
            closest_on_triangle(centre_now[p], corners[found[j]], point)
            length = np.sqrt((centre_now[p, 0] - point[0]) ** 2 + (centre_now[p, 1] - point[1]) ** 2
                             + (centre_now[p, 2] - point[2]) ** 2)
            if length < distance:
                nearest, distance = found[j], length
                closest[kept] = point
        if nearest < 0:
            continue
        for i in range(3):
            offset[i] = centre_now[p, i] - closest[kept, i]
        face = normals[nearest]
        height = dot(offset, face)
        side = np.sign(height)
        if abs(height) <= margin:
            body = probe_body[p]
            side = np.sign((position_now[body, 0] - closest[kept, 0]) * face[0]
                           + (position_now[body, 1] - closest[kept, 1]) * face[1]
                           + (position_now[body, 2] - closest[kept, 2]) * face[2])
        over_face = distance <= NEAREST_OVER_FACE or abs(height) >= distance * (1 - NEAREST_OVER_FACE)
        for i in range(3):
            if over_face:
                normal[kept, i] = -face[i] if side < 0 else face[i]
            else:
                normal[kept, i] = offset[i] / max(distance, 1e-300)
        gap_now = dot(offset, normal[kept]) - probe_radius[p]
        gap_ahead = ((centre_ahead[p, 0] - closest[kept, 0]) * normal[kept, 0]
                     + (centre_ahead[p, 1] - closest[kept, 1]) * normal[kept, 1]
                     + (centre_ahead[p, 2] - closest[kept, 2]) * normal[kept, 2]) - probe_radius[p]
        if min(gap_now, gap_ahead) < margin:
            probe[kept], triangle[kept] = p, nearest
            kept += 1
    return probe[:kept].copy(), triangle[:kept].copy(), closest[:kept].copy(), normal[:kept].copy()


@kernel
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
