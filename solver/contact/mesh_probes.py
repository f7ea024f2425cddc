"""Bodies against triangle meshes: every corner of a body's shape (a box's eight, a hull's, a
capsule's two cap centres with its radius) a probe against the nearest triangle near its path
through the step, so each contact is a material point of the body against a tangent plane.

Mesh contacts stay probes rather than manifolds (kernels/narrow_phase.py serves bodies and planes):
a box resting across a terrain's folds touches triangles at points where its edges cross theirs,
points that slide along the edges while it settles, and held as material points through a step
they dipped below Dmax (1.6e-7 m at Dmax = 1e-7 on the terrain of the contact tests); corners stay
where they are.
"""
from typing import NamedTuple

import numpy as np

from ..frames import Frames
from .shape_table import BOX, CAPSULE, HULL


class MeshProbes(NamedTuple):
    """The probes of every shaped body: (P,) body, (P, 3) centre in its principal frame, (P,) radius."""

    probe_body: np.ndarray
    probe_local: np.ndarray
    probe_radius: np.ndarray


def mesh_probes(shapes) -> MeshProbes:
    """The probes of the shape table's slots (contact/shape_table.py)."""
    bodies, points, radii = [], [], []
    signs = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)
    for slot, kind in enumerate(shapes.kind):
        if kind == BOX:
            corners = shapes.centre[slot] + (signs * shapes.half[slot]) @ shapes.axes[slot]
            radius = np.zeros(8)
        elif kind == HULL:
            h = shapes.hull[slot]
            corners = shapes.hull_vertices[shapes.hull_first_vertex[h]:shapes.hull_first_vertex[h + 1]]
            radius = np.zeros(len(corners))
        else:  # a capsule's two cap centres (a sphere's one), a point
            ends = shapes.ends[slot]
            corners = ends[:1] if np.array_equal(ends[0], ends[1]) else ends
            radius = np.full(len(corners), shapes.radius[slot] if kind == CAPSULE else 0.0)
        bodies += [int(shapes.body[slot])] * len(corners)
        points.append(corners)
        radii.append(radius)
    return MeshProbes(np.array(bodies, dtype=int), np.concatenate(points) if points else np.zeros((0, 3)),
                      np.concatenate(radii) if radii else np.zeros(0))


def against_meshes(model, now: Frames, ahead: Frames, margin: float) -> list:
    """The probe contacts with every mesh within `margin` now or at the look-ahead, a tuple per mesh:
    (keys, then the fields of detection.Contacts in order)."""
    probes = model.contacts.mesh_probes
    if not len(probes.probe_body):
        return []
    centre_now = now.points(probes.probe_body, probes.probe_local)
    centre_ahead = ahead.points(probes.probe_body, probes.probe_local)
    parts = []
    for index, (mesh, bvh) in enumerate(model.contacts.meshes):
        part = _against_mesh(model, probes, index, mesh, bvh, now, centre_now, centre_ahead, margin)
        if part is not None:
            parts.append(part)
    return parts


def _against_mesh(model, table: MeshProbes, index: int, mesh: dict, bvh, now: Frames, centre_now, centre_ahead,
                  margin: float):
    """Each probe against the nearest triangle of the mesh near its path through the step.

    Triangles are two-sided, as a modeller expects of a floor after Flip Normals or a single-sheet
    wall met from behind: a probe meets a triangle's face from the side it is on. A probe within
    margin of the face's plane may be resting on it with a little overlap, so there the side is that
    of its body's centre of mass (a convex body touching a face lies on one side of it, its centre
    included); any further, the probe's own side."""
    layout = table
    # a probe whose path is not finite (a diverging state, which the step reports) would meet every box
    finite_path = np.isfinite(centre_now).all(axis=1) & np.isfinite(centre_ahead).all(axis=1)
    probes = np.flatnonzero(model.body_dynamic[layout.probe_body] & finite_path)
    reach = (layout.probe_radius[probes] + margin)[:, None]
    low = np.minimum(centre_now[probes], centre_ahead[probes]) - reach
    high = np.maximum(centre_now[probes], centre_ahead[probes]) + reach
    found_start, triangles = bvh.near(low, high)
    if not len(triangles):
        return None
    pair_probe = np.repeat(probes, np.diff(found_start))  # (K,) the probe of each (probe, triangle) pair
    closest = _closest_on_triangles(centre_now[pair_probe], bvh.corners[triangles])
    distance = np.linalg.norm(centre_now[pair_probe] - closest, axis=1)
    by_probe = np.lexsort((distance, pair_probe))  # each probe's pairs, nearest first
    nearest = by_probe[np.r_[True, np.diff(pair_probe[by_probe]) != 0]]
    probe, triangle, closest, distance = pair_probe[nearest], triangles[nearest], closest[nearest], distance[nearest]
    offset = centre_now[probe] - closest
    face_normal = bvh.normals[triangle]
    height = np.einsum("mi,mi->m", offset, face_normal)
    bodies = layout.probe_body[probe]
    centre_height = np.einsum("mi,mi->m", now.position[bodies] - closest, face_normal)
    side = np.where(np.abs(height) > margin, np.sign(height), np.sign(centre_height))
    face_normal = np.where(side[:, None] < 0, -face_normal, face_normal)
    # a probe over the face takes the face's plane; one beyond an edge or corner, the plane facing it
    over_face = (distance <= 1e-9) | (np.abs(height) >= distance * (1 - 1e-9))
    normal = np.where(over_face[:, None], face_normal, offset / np.maximum(distance, 1e-300)[:, None])
    gap_now = np.einsum("mi,mi->m", offset, normal) - layout.probe_radius[probe]
    gap_ahead = np.einsum("mi,mi->m", centre_ahead[probe] - closest, normal) - layout.probe_radius[probe]
    near = np.minimum(gap_now, gap_ahead) < margin
    if not near.any():
        return None
    probe, bodies, count = probe[near], bodies[near], int(near.sum())
    friction = np.sqrt(model.contacts.body_friction[bodies] * mesh["friction"])  # the geometric mean of the pair
    restitution = np.maximum(model.contacts.body_restitution[bodies], mesh["restitution"])  # the larger
    return ([("mesh", index, int(t), int(p)) for t, p in zip(triangle[near], probe)], np.zeros(count, dtype=int),
            bodies, layout.probe_local[probe], layout.probe_radius[probe], closest[near], normal[near], friction,
            restitution, np.zeros((count, 2, 3)), np.zeros(count))


def _closest_on_triangles(point: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """(T, 3) closest points of T triangles (T, 3, 3) to one point (Ericson's region tests, vectorised)."""
    a, b, c = corners[:, 0], corners[:, 1], corners[:, 2]
    ab, ac, ap = b - a, c - a, point - a
    d1, d2 = np.einsum("ti,ti->t", ab, ap), np.einsum("ti,ti->t", ac, ap)
    bp = point - b
    d3, d4 = np.einsum("ti,ti->t", ab, bp), np.einsum("ti,ti->t", ac, bp)
    cp = point - c
    d5, d6 = np.einsum("ti,ti->t", ab, cp), np.einsum("ti,ti->t", ac, cp)
    va, vb, vc = d3 * d6 - d5 * d4, d5 * d2 - d1 * d6, d1 * d4 - d3 * d2
    total = np.where(np.abs(va + vb + vc) > 1e-300, va + vb + vc, 1e-300)
    # the face's formula is evaluated for every triangle but kept only where the point lies over the
    # face; elsewhere it may overflow for a point astronomically far (a diverging state, reported by the step)
    with np.errstate(over="ignore", invalid="ignore"):
        result = a + (vb / total)[:, None] * ab + (vc / total)[:, None] * ac
    regions = [
        (vc <= 0) & (d1 >= 0) & (d3 <= 0), a + _ratio(d1, d1 - d3)[:, None] * ab,  # edge ab
        (vb <= 0) & (d2 >= 0) & (d6 <= 0), a + _ratio(d2, d2 - d6)[:, None] * ac,  # edge ac
        (va <= 0) & (d4 - d3 >= 0) & (d5 - d6 >= 0), b + _ratio(d4 - d3, (d4 - d3) + (d5 - d6))[:, None] * (c - b),
        (d6 >= 0) & (d5 <= d6), c, (d3 >= 0) & (d4 <= d3), b, (d1 <= 0) & (d2 <= 0), a,  # corners
    ]
    for k in range(0, len(regions), 2):  # later tests win: corners over edges over the face
        result = np.where(regions[k][:, None], regions[k + 1], result)
    return result


def _ratio(top, bottom):
    return top / np.where(np.abs(bottom) > 1e-300, bottom, 1e-300)
