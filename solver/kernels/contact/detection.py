"""Finding a step's contacts in one call (the method: contact/detection.py): the broad phase
(near_pairs.py), the narrow phase of the pairs it keeps (narrow_phase.py), the probes against each
mesh (mesh_probes.py), and each point's friction and restitution."""
import numpy as np

from ...codes import MESH, PLANE
from .mesh_probes import probes_against_mesh
from .narrow_phase import contacts_over_step
from .near_pairs import near_pairs
from ..jit import entry_kernel, kernel


@entry_kernel
def contacts_within_reach(table, boxes, hulls, rounds, meshes, surfaces, slot_pairs, slot_moves, body_moves, position,
                          rotation, look_ahead, ahead_position, ahead_rotation, margin, dmax):
    """Every contact point within `margin` at the frames given (position (n, 3), rotation (n, 3, 3)) or
    at the look-ahead's (the same arrays without `look_ahead`), of the slot pairs (p, 2) and the moving
    slots (S,) and bodies (n,) given (sleeping.py's), the shape table `table` and the ContactTable
    `surfaces` (contact/layout.py); boxes, hulls, rounds as narrow_phase.contact_points takes them, and
    meshes None where the layout has none (numba then compiles no probe's code).
    Returns the fields of contact/detection.Contacts in order, the key (m, 4) int64 first: BODIES, slot
    a, slot b, feature; PLANE, plane, slot b, feature; MESH, mesh, triangle, probe. The narrow phase's
    points come first, then each mesh's."""
    pair_kind, pair_a, pair_b, pair_margin = near_pairs(table.body, surfaces.slot_reach, slot_moves, slot_pairs,
                                                        surfaces.plane_point, surfaces.plane_normal, position,
                                                        rotation, ahead_position, ahead_rotation, margin)
    source, bodies, probe_b, radius, surface_a, normal_a, segment_a, radius_a = contacts_over_step(
        table, boxes, hulls, rounds, position, rotation, look_ahead, ahead_position, ahead_rotation, pair_kind,
        pair_a, pair_b, pair_margin, surfaces.plane_point, surfaces.plane_normal, margin, dmax)
    capacity = surfaces.mesh_first_leaf.shape[0] * surfaces.probe_body.shape[0]
    # each mesh's probes found, end to end: (mesh, probe, triangle), closest point and normal (world)
    on_mesh = np.empty((capacity, 3), dtype=np.int64)
    closest_on, normal_on = np.empty((capacity, 3)), np.empty((capacity, 3))
    found_on = 0
    if meshes is not None:  # pruned before typing where the layout has no mesh
        for k in range(surfaces.mesh_first_leaf.shape[0]):
            n0, n1 = surfaces.mesh_first_node[k], surfaces.mesh_first_node[k + 1]
            t0, t1 = surfaces.mesh_first_triangle[k], surfaces.mesh_first_triangle[k + 1]
            probe, triangle, closest, normal = probes_against_mesh(
                surfaces.probe_body, surfaces.probe_local, surfaces.probe_radius, body_moves, position, rotation,
                ahead_position, ahead_rotation, margin, surfaces.node_low[n0:n1], surfaces.node_high[n0:n1],
                surfaces.node_start[n0:n1], surfaces.node_stop[n0:n1], surfaces.mesh_first_leaf[k],
                surfaces.triangle_low[t0:t1], surfaces.triangle_high[t0:t1], surfaces.order[t0:t1],
                surfaces.corners[t0:t1], surfaces.normals[t0:t1])
            for j in range(probe.shape[0]):
                on_mesh[found_on, 0], on_mesh[found_on, 1], on_mesh[found_on, 2] = k, probe[j], triangle[j]
                for i in range(3):
                    closest_on[found_on, i], normal_on[found_on, i] = closest[j, i], normal[j, i]
                found_on += 1
    m = source.shape[0] + found_on
    key = np.empty((m, 4), dtype=np.int64)
    body_a, body_b = np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64)
    probe_all, radius_all = np.empty((m, 3)), np.empty(m)
    surface_all, normal_all = np.empty((m, 3)), np.empty((m, 3))
    friction, restitution = np.empty(m), np.empty(m)
    segment_all, radius_a_all = np.zeros((m, 2, 3)), np.zeros(m)
    found = source.shape[0]
    for c in range(found):
        for i in range(4):
            key[c, i] = source[c, i]
        body_a[c], body_b[c] = bodies[c, 0], bodies[c, 1]
        for i in range(3):
            probe_all[c, i], surface_all[c, i], normal_all[c, i] = probe_b[c, i], surface_a[c, i], normal_a[c, i]
            segment_all[c, 0, i], segment_all[c, 1, i] = segment_a[c, 0, i], segment_a[c, 1, i]
        radius_all[c], radius_a_all[c] = radius[c], radius_a[c]
        if source[c, 0] == PLANE:  # a plane's own surface, else body a's
            _pair_surface(surfaces, body_b[c], surfaces.plane_friction[source[c, 1]],
                          surfaces.plane_restitution[source[c, 1]], friction, restitution, c)
        else:
            _pair_surface(surfaces, body_b[c], surfaces.body_friction[body_a[c]],
                          surfaces.body_restitution[body_a[c]], friction, restitution, c)
    for j in range(found_on):
        c, k, p = found + j, on_mesh[j, 0], on_mesh[j, 1]
        key[c, 0], key[c, 1], key[c, 2], key[c, 3] = MESH, k, on_mesh[j, 2], p
        body_a[c], body_b[c] = 0, surfaces.probe_body[p]
        for i in range(3):
            probe_all[c, i] = surfaces.probe_local[p, i]
            surface_all[c, i], normal_all[c, i] = closest_on[j, i], normal_on[j, i]
        radius_all[c] = surfaces.probe_radius[p]
        _pair_surface(surfaces, body_b[c], surfaces.mesh_friction[k], surfaces.mesh_restitution[k], friction,
                      restitution, c)
    return (key, body_a, body_b, probe_all, radius_all, surface_all, normal_all, friction, restitution, segment_all,
            radius_a_all)


@kernel
def _pair_surface(surfaces, body_b, friction_a, restitution_a, friction, restitution, c):
    """Contact c's friction and restitution, body b's against a surface of these: the geometric mean
    of the frictions, the larger restitution."""
    friction[c] = np.sqrt(surfaces.body_friction[body_b] * friction_a)
    restitution[c] = max(surfaces.body_restitution[body_b], restitution_a)
