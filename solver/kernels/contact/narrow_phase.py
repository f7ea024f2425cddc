"""The narrow phase of one step: the manifold of every pair the broad phase found (contact/detection.py),
as contact points, each a point fixed in body b (with a radius, for round shapes: the point on the
axis) against a tangent plane fixed in body a, the description the contact rows work with.

Pairs are (kind, a, b, margin): kind BODIES, a and b slots of the shape table (contact/shape_table.py;
a is the polyhedron when one of them is); PLANE, a a plane. (Meshes meet bodies' corners:
contact/mesh_contacts.py.)
"""
import numpy as np

from ...codes import BODIES, PLANE
from ...contact.polyhedron import Polyhedron
from ...contact.shape_table import BOX, CAPSULE, HULL
from ..jit import borrowing_kernel, entry_kernel, kernel
from .manifold import (box_box, box_capsule, box_pose, capsule_capsule, hull_box, hull_capsule, hull_hull, plane_box,
                       plane_capsule, plane_hull)
from .manifold_points import MAX_POINTS, Manifold
from ..vector import body_point, rotated_component



@kernel
def hull_of(table, h):
    """Hull h of the shape table as a Polyhedron of slices of the packed arrays."""
    v0, v1 = table.hull_first_vertex[h], table.hull_first_vertex[h + 1]
    f0, f1 = table.hull_first_face[h], table.hull_first_face[h + 1]
    s0, s1 = table.hull_first_face_start[h], table.hull_first_face_start[h + 1]
    c0, c1 = table.hull_first_corner[h], table.hull_first_corner[h + 1]
    e0, e1 = table.hull_first_edge[h], table.hull_first_edge[h + 1]
    return Polyhedron(table.hull_vertices[v0:v1], table.hull_face_normal[f0:f1], table.hull_face_offset[f0:f1],
                      table.hull_face_start[s0:s1], table.hull_face_vertex[c0:c1], table.hull_face_edge[c0:c1],
                      table.hull_edge_vertex[e0:e1], table.hull_edge_arc[e0:e1])


@kernel
def _new_manifold():
    return Manifold(np.zeros((MAX_POINTS, 3)), np.zeros((MAX_POINTS, 3)), np.zeros(3), np.zeros(MAX_POINTS),
                    np.zeros(MAX_POINTS, dtype=np.int64))


@kernel
def _world_ends(table, slot, position, rotation, ends):
    body = table.body[slot]
    for e in range(2):
        for i in range(3):
            ends[e, i] = position[body, i] + rotation[body, i, 0] * table.ends[slot, e, 0] + rotation[
                body, i, 1] * table.ends[slot, e, 1] + rotation[body, i, 2] * table.ends[slot, e, 2]


@kernel
def _body_pair(table, boxes, hulls, rounds, slot_a, slot_b, position, rotation, margin, manifold):
    """The manifold of two shaped bodies; a is a box or hull whenever one of them is. boxes, hulls,
    rounds: None for a kind of shape the scene has none of (see contact_points)."""
    kind_a = table.kind[slot_a]
    ends_b = np.empty((2, 3))
    if rounds is not None and table.kind[slot_b] >= CAPSULE:  # round shapes meet everything by their axis
        _world_ends(table, slot_b, position, rotation, ends_b)
    if boxes is not None and kind_a == BOX:
        return _box_pair(table, rounds, slot_a, slot_b, position, rotation, ends_b, margin, manifold)
    if hulls is not None and kind_a == HULL:
        return _hull_pair(table, boxes, rounds, slot_a, slot_b, position, rotation, ends_b, margin, manifold)
    if rounds is not None:
        ends_a = np.empty((2, 3))
        _world_ends(table, slot_a, position, rotation, ends_a)
        return capsule_capsule(ends_a, table.radius[slot_a], ends_b, table.radius[slot_b], margin, manifold)
    return 0


@kernel
def _pose(table, slot, position, rotation, origin, frame):
    """A box's own centre and axes (box_pose), or a hull's body frame."""
    body = table.body[slot]
    if table.kind[slot] == BOX:
        box_pose(position[body], rotation[body], table.centre[slot], table.axes[slot], origin, frame)
    else:
        for i in range(3):
            origin[i] = position[body, i]
            for j in range(3):
                frame[i, j] = rotation[body, i, j]


@kernel
def _box_pair(table, rounds, slot_a, slot_b, position, rotation, ends_b, margin, manifold):
    """The manifold of box a with b, a box or round (its axis ends_b; a hull comes first: ContactLayout's
    slot pairs)."""
    origin_a, frame_a = np.empty(3), np.empty((3, 3))
    _pose(table, slot_a, position, rotation, origin_a, frame_a)
    if table.kind[slot_b] == BOX:
        origin_b, frame_b = np.empty(3), np.empty((3, 3))
        _pose(table, slot_b, position, rotation, origin_b, frame_b)
        return box_box(origin_a, frame_a, table.half[slot_a], origin_b, frame_b, table.half[slot_b], margin,
                       manifold)
    if rounds is not None:
        return box_capsule(origin_a, frame_a, table.half[slot_a], ends_b, table.radius[slot_b], margin, manifold)
    return 0


@kernel
def _hull_pair(table, boxes, rounds, slot_a, slot_b, position, rotation, ends_b, margin, manifold):
    """The manifold of hull a with b, a box, a hull or round (its axis ends_b)."""
    kind_b = table.kind[slot_b]
    origin_a, frame_a = np.empty(3), np.empty((3, 3))
    _pose(table, slot_a, position, rotation, origin_a, frame_a)
    hull_a = hull_of(table, table.hull[slot_a])
    if kind_b <= HULL:
        origin_b, frame_b = np.empty(3), np.empty((3, 3))
        _pose(table, slot_b, position, rotation, origin_b, frame_b)
        if boxes is not None and kind_b == BOX:
            return hull_box(origin_a, frame_a, hull_a, origin_b, frame_b, table.half[slot_b], margin, manifold)
        return hull_hull(origin_a, frame_a, hull_a, origin_b, frame_b, hull_of(table, table.hull[slot_b]), margin,
                         manifold)
    if rounds is not None:
        return hull_capsule(origin_a, frame_a, hull_a, ends_b, table.radius[slot_b], margin, manifold)
    return 0


@kernel
def _against_plane(table, boxes, hulls, rounds, slot_b, point, normal, position, rotation, margin, manifold):
    kind, body = table.kind[slot_b], table.body[slot_b]
    if boxes is not None and kind == BOX:
        origin, frame = np.empty(3), np.empty((3, 3))
        _pose(table, slot_b, position, rotation, origin, frame)
        return plane_box(point, normal, origin, frame, table.half[slot_b], margin, manifold)
    if hulls is not None and kind == HULL:
        return plane_hull(point, normal, position[body], rotation[body], hull_of(table, table.hull[slot_b]), margin,
                          manifold)
    if rounds is not None:
        ends = np.empty((2, 3))
        _world_ends(table, slot_b, position, rotation, ends)
        return plane_capsule(point, normal, ends, table.radius[slot_b], margin, manifold)
    return 0


@kernel
def contact_points(table, boxes, hulls, rounds, position, rotation, pair_kind, pair_a, pair_b, pair_margin,
                   plane_point, plane_normal):
    """The contact points of every pair at the frames given (position (n, 3), rotation (n, 3, 3)):

    source (m, 4) int64: BODIES | PLANE, slot a | plane, slot b, the manifold's feature id
    body (m, 2) int64: body a (0, the world, for obstacles), body b
    probe_b (m, 3): the point of b (on its surface, or on its axis for a capsule), b's principal frame
    radius (m,): b's radius there (0 but for capsules and spheres)
    surface_a (m, 3), normal_a (m, 3): the tangent plane, a's principal frame, its normal towards b
    segment_a (m, 2, 3), radius_a (m,): a's axis and radius where a is a capsule or sphere (radius 0 else)

    Planes are plane_point (P, 3), plane_normal (P, 3). boxes, hulls, rounds (capsules, spheres and
    points): None for a kind the table has none of, whose manifolds numba then prunes before typing
    (contact/detection.compiled_shapes), else True. The arrays hold room for more rows; the last
    item is m, the rows found."""
    pairs = pair_kind.shape[0]
    capacity = MAX_POINTS * pairs
    source = np.empty((capacity, 4), dtype=np.int64)
    body = np.empty((capacity, 2), dtype=np.int64)
    probe_b, radius = np.empty((capacity, 3)), np.empty(capacity)
    surface_a, normal_a = np.empty((capacity, 3)), np.empty((capacity, 3))
    segment_a, radius_a = np.zeros((capacity, 2, 3)), np.zeros(capacity)
    manifold = _new_manifold()
    m = 0
    for k in range(pairs):
        slot_b, margin = pair_b[k], pair_margin[k]
        if pair_kind[k] == BODIES:
            count = _body_pair(table, boxes, hulls, rounds, pair_a[k], slot_b, position, rotation, margin, manifold)
            m = _emit(table, manifold, count, BODIES, pair_a[k], slot_b, table.body[pair_a[k]], pair_a[k], position,
                      rotation, source, body, probe_b, radius, surface_a, normal_a, segment_a, radius_a, m)
        else:
            count = _against_plane(table, boxes, hulls, rounds, slot_b, plane_point[pair_a[k]], plane_normal[pair_a[k]],
                                   position, rotation, margin, manifold)
            m = _emit(table, manifold, count, PLANE, pair_a[k], slot_b, 0, -1, position, rotation, source, body,
                      probe_b, radius, surface_a, normal_a, segment_a, radius_a, m)
    return source, body, probe_b, radius, surface_a, normal_a, segment_a, radius_a, m


@kernel
def contacts_over_step(table, boxes, hulls, rounds, position, rotation, look_ahead, ahead_position, ahead_rotation,
                       pair_kind, pair_a, pair_b, pair_margin, plane_point, plane_normal, margin, dmax):
    """The contact points of the step from these frames to the look-ahead's, as contact_points gives
    them: the points of the pairs' manifolds now, then the points of the look-ahead's manifolds whose
    features they lack (a box tipping from one edge onto a face meets the floor with corners that are
    not on the face it touched with at first), kept where within `margin` now or at the look-ahead. A
    feature found at both whose point moved by more than dmax (no material point: where an edge
    crosses an edge, the crossing slides along it as the body moves) takes the look-ahead's point,
    where the step will end: keeping both would put two contacts with slightly different normals at
    nearly one place, whose friction the passes cannot divide between them. Without `look_ahead` the
    frames ahead are those now, and the points are those now within `margin`, found once."""
    now = contact_points(table, boxes, hulls, rounds, position, rotation, pair_kind, pair_a, pair_b, pair_margin,
                         plane_point, plane_normal)
    later = now if not look_ahead else contact_points(table, boxes, hulls, rounds, ahead_position, ahead_rotation,
                                                      pair_kind, pair_a, pair_b, pair_margin, plane_point,
                                                      plane_normal)
    m_now, m_later = now[8], later[8] if look_ahead else 0  # without: nothing to add to now's
    match = np.full(m_later, -1, dtype=np.int64)  # the row now of each look-ahead point's feature
    i = j = 0
    for k in range(pair_kind.shape[0]):  # both list the pairs' points in the pairs' order
        i_end, j_end = i, j
        while i_end < m_now and _of_pair(now[0], i_end, pair_kind[k], pair_a[k], pair_b[k]):
            i_end += 1
        while j_end < m_later and _of_pair(later[0], j_end, pair_kind[k], pair_a[k], pair_b[k]):
            j_end += 1
        for b in range(j, j_end):
            for a in range(i, i_end):
                if now[0][a, 3] == later[0][b, 3]:
                    match[b] = a
        i, j = i_end, j_end
    rows = np.empty(m_now + m_later, dtype=np.int64)  # >= 0: a row now; < 0: row -1 - r of the look-ahead
    m = 0
    for a in range(m_now):
        rows[m] = a
        m += 1
    here, there = np.empty(3), np.empty(3)
    for b in range(m_later):
        a = match[b]
        if a < 0:
            rows[m] = -1 - b
            m += 1
            continue
        body = later[1][b, 1]
        body_point(ahead_position[body], ahead_rotation[body], later[2][b], here)
        body_point(ahead_position[body], ahead_rotation[body], now[2][a], there)
        if np.sqrt((here[0] - there[0]) ** 2 + (here[1] - there[1]) ** 2 + (here[2] - there[2]) ** 2) > dmax:
            rows[a] = -1 - b
    source = np.empty((m, 4), dtype=np.int64)
    body = np.empty((m, 2), dtype=np.int64)
    probe_b, radius = np.empty((m, 3)), np.empty(m)
    surface_a, normal_a = np.empty((m, 3)), np.empty((m, 3))
    segment_a, radius_a = np.empty((m, 2, 3)), np.empty(m)
    kept = 0
    for r in range(m):
        found = now if rows[r] >= 0 else later
        row = rows[r] if rows[r] >= 0 else -1 - rows[r]
        source_of, body_of, probe_of, radius_of, surface_of, normal_of, segment_of, radius_a_of, _ = found
        a, b = body_of[row, 0], body_of[row, 1]
        gap = separation_of(position, rotation, a, b, probe_of, radius_of, surface_of, normal_of, row)
        if look_ahead:
            gap = min(gap, separation_of(ahead_position, ahead_rotation, a, b, probe_of, radius_of, surface_of,
                                         normal_of, row))
        if gap >= margin:
            continue
        for i in range(4):  # element by element: a row assigned whole lowers numba's broadcasting
            source[kept, i] = source_of[row, i]
        body[kept, 0], body[kept, 1] = a, b
        for i in range(3):
            probe_b[kept, i], surface_a[kept, i] = probe_of[row, i], surface_of[row, i]
            normal_a[kept, i] = normal_of[row, i]
            segment_a[kept, 0, i], segment_a[kept, 1, i] = segment_of[row, 0, i], segment_of[row, 1, i]
        radius[kept], radius_a[kept] = radius_of[row], radius_a_of[row]
        kept += 1
    return (source[:kept].copy(), body[:kept].copy(), probe_b[:kept].copy(), radius[:kept].copy(),
            surface_a[:kept].copy(), normal_a[:kept].copy(), segment_a[:kept].copy(), radius_a[:kept].copy())


@kernel
def _of_pair(source, row, kind, a, slot_b):
    """Whether the point in that row of contact_points' source is of the pair (kind, a, slot b)."""
    return source[row, 0] == kind and source[row, 1] == a and source[row, 2] == slot_b


@kernel
def _emit(table, manifold, count, kind, index, slot_b, body_a, slot_a, position, rotation, source, body, probe_b,
          radius, surface_a, normal_a, segment_a, radius_a, m):
    """Appends the manifold's points at row m on; returns the next free row. slot_a is a's shape slot,
    -1 for an obstacle (its plane is fixed in the world, body 0)."""
    body_b = table.body[slot_b]
    r_b = table.radius[slot_b] if table.kind[slot_b] >= CAPSULE else 0.0
    round_a = slot_a >= 0 and table.kind[slot_a] >= CAPSULE
    for p in range(count):
        source[m, 0], source[m, 1], source[m, 2], source[m, 3] = kind, index, slot_b, manifold.feature[p]
        body[m, 0], body[m, 1] = body_a, body_b
        for i in range(3):
            # the point of b on its axis, so a rolling ball keeps one probe
            world = manifold.point_b[p, i] + r_b * manifold.normal[i]
            probe_b[m, i] = world - position[body_b, i]
            surface_a[m, i] = manifold.point_a[p, i] - position[body_a, i]
        _to_local(rotation[body_b], probe_b[m])
        _to_local(rotation[body_a], surface_a[m])
        for i in range(3):
            normal_a[m, i] = manifold.normal[i]
        _to_local(rotation[body_a], normal_a[m])
        radius[m] = r_b
        radius_a[m] = 0.0
        if round_a:
            radius_a[m] = table.radius[slot_a]
            for e in range(2):
                for i in range(3):
                    segment_a[m, e, i] = table.ends[slot_a, e, i]
        m += 1
    return m


@borrowing_kernel
def _to_local(rotation, vector):
    """vector <- rotation^T vector, in place."""
    x, y, z = vector[0], vector[1], vector[2]
    for i in range(3):
        vector[i] = rotation[0, i] * x + rotation[1, i] * y + rotation[2, i] * z


@borrowing_kernel
def separation_of(position, rotation, a, b, probe_b, radius, surface_a, normal_a, row):
    """One contact's signed gap in the frames given: the height of b's probe (probe_b[row] (3,), in b's
    principal frame) over a's tangent plane (surface_a[row], normal_a[row], in a's) less its radius,
    radius[row]."""
    height = 0.0
    for i in range(3):
        probe = rotated_component(rotation, b, i, probe_b[row, 0], probe_b[row, 1], probe_b[row, 2]) + position[b, i]
        surface = (rotated_component(rotation, a, i, surface_a[row, 0], surface_a[row, 1], surface_a[row, 2])
                   + position[a, i])
        height += (probe - surface) * rotated_component(rotation, a, i, normal_a[row, 0], normal_a[row, 1],
                                                        normal_a[row, 2])
    return height - radius[row]


@entry_kernel
def separations(position, rotation, body_a, body_b, probe_b, radius, surface_a, normal_a):
    """(m,) signed gap of each contact point in the frames given: positive apart, negative
    interpenetrating."""
    m = body_b.shape[0]
    gap = np.empty(m)
    for c in range(m):
        gap[c] = separation_of(position, rotation, body_a[c], body_b[c], probe_b, radius, surface_a, normal_a, c)
    return gap
