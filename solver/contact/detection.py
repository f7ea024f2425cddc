"""Finding contacts: every one is a probe point of body b (with a radius) against a tangent plane
fixed in body a (the world for obstacles). The same description measures the separation at t, at
the look-ahead, or anywhere in between, so the correction loop can treat a contact like a joint.
"""
from dataclasses import dataclass

import numpy as np

from ..frames import Frames

# A probe nearer than this to a surface (or about to be, within the step) is a contact candidate;
# candidates that stay apart exert nothing, so the margin only costs a little work.
MARGIN = 1e-3


@dataclass
class Contacts:
    """m contacts at one instant."""

    key: list  # (m,) hashable identity of each contact (probe and surface), to follow it across steps
    body_a: np.ndarray  # (m,) body carrying the surface (0 for the world and obstacles)
    body_b: np.ndarray  # (m,) body carrying the probe
    probe_b: np.ndarray  # (m, 3) probe centre in b's principal frame
    radius: np.ndarray  # (m,)
    surface_a: np.ndarray  # (m, 3) a point of the tangent plane, in a's principal frame
    normal_a: np.ndarray  # (m, 3) unit normal of the plane, in a's principal frame, pointing towards b
    friction: np.ndarray  # (m,) Coulomb coefficient of the pair (geometric mean)
    restitution: np.ndarray  # (m,) of the pair (the larger)
    segment_a: np.ndarray  # (m, 2, 3) for a curved surface (sphere, capsule of a): its axis in a's frame
    radius_a: np.ndarray  # (m,) its radius; 0 where the surface is flat

    def __len__(self) -> int:
        return len(self.body_b)

    def separation(self, frames: Frames) -> np.ndarray:
        """(m,) signed gap in the given frames: positive apart, negative interpenetrating."""
        probe = frames.points(self.body_b, self.probe_b)
        normal = frames.vectors(self.body_a, self.normal_a)
        return np.einsum("mi,mi->m", probe - frames.points(self.body_a, self.surface_a), normal) - self.radius

    def geometry(self, frames: Frames) -> tuple[np.ndarray, np.ndarray]:
        """(m, 3) contact points on b's surface and (m, 3) world normals (from a towards b)."""
        normal = frames.vectors(self.body_a, self.normal_a)
        return frames.points(self.body_b, self.probe_b) - self.radius[:, None] * normal, normal

    def subset(self, keep: np.ndarray) -> "Contacts":
        return Contacts([self.key[k] for k in np.flatnonzero(keep)], *(getattr(self, f)[keep] for f in FIELDS))

    def refit(self, now: Frames, ahead: Frames) -> "Contacts":
        """Stewart-Trinkle §3.6: the tangent planes of curved surfaces as they are at the look-ahead,
        for another solve; self when every surface is flat."""
        curved = self.radius_a > 0
        if not curved.any():
            return self
        ends = np.stack([ahead.points(self.body_a[curved], self.segment_a[curved, e]) for e in (0, 1)], axis=1)
        probe = ahead.points(self.body_b[curved], self.probe_b[curved])
        nearest = np.array([_closest_on_segment(p[None], e)[0] for p, e in zip(probe, ends)])
        direction = probe - nearest
        length = np.linalg.norm(direction, axis=1, keepdims=True)
        normal = np.where(length > 1e-12, direction / np.maximum(length, 1e-300), ahead.vectors(
            self.body_a[curved], self.normal_a[curved]))
        refitted = Contacts(list(self.key), *(getattr(self, f).copy() for f in FIELDS))
        refitted.normal_a[curved] = now.to_local_vectors(self.body_a[curved], normal)
        surface = nearest + self.radius_a[curved, None] * normal
        refitted.surface_a[curved] = ahead.to_local_points(self.body_a[curved], surface)
        return refitted


FIELDS = ("body_a", "body_b", "probe_b", "radius", "surface_a", "normal_a", "friction", "restitution", "segment_a",
          "radius_a")


def find_contacts(model, now: Frames, ahead: Frames) -> Contacts:
    """Every probe-surface pair that is within MARGIN now or at the look-ahead."""
    layout = model.contacts
    parts = []
    if len(layout.probe_body) and _anything_near(layout, now, ahead):
        centre_now = now.points(layout.probe_body, layout.probe_local)
        centre_ahead = ahead.points(layout.probe_body, layout.probe_local)
        for index, plane in enumerate(layout.planes):
            parts.append(_against_plane(model, index, plane, centre_now, centre_ahead))
        for index, (mesh, bvh) in enumerate(layout.meshes):
            parts.append(_against_mesh(model, index, mesh, bvh, now, centre_now, centre_ahead))
        parts.append(_against_round_bodies(model, now, ahead, centre_now, centre_ahead))
        parts.append(_against_boxes(model, now, ahead, centre_now, centre_ahead))
        parts.append(_against_convex(model, now, ahead, centre_now, centre_ahead))
    return _joined(model, [p for p in parts if p is not None])


def _anything_near(layout, now: Frames, ahead: Frames) -> bool:
    """Whether any body may be within MARGIN of a plane, a mesh's box or another body now or at the
    look-ahead, by the spheres holding each body's probes and surface (ContactLayout.body_reach)."""
    moving = layout.moving_probe_bodies
    if len(moving):
        reach = layout.body_reach[moving] + MARGIN
        for plane in layout.planes:
            normal, point = np.asarray(plane["normal"]), np.asarray(plane["point"])
            height = np.minimum((now.position[moving] - point) @ normal, (ahead.position[moving] - point) @ normal)
            if np.any(height < reach):
                return True
        for low, high in layout.mesh_bounds:
            lowest = np.minimum(now.position[moving], ahead.position[moving]) - reach[:, None]
            highest = np.maximum(now.position[moving], ahead.position[moving]) + reach[:, None]
            if np.any(np.all((lowest <= high) & (highest >= low), axis=1)):
                return True
    pairs = layout.pair_bodies
    if not len(pairs):
        return False
    a, b = pairs[:, 0], pairs[:, 1]
    reach = layout.body_reach[a] + layout.body_reach[b] + MARGIN
    offset_now, offset_ahead = now.position[a] - now.position[b], ahead.position[a] - ahead.position[b]
    # along a straight relative path the centres come no nearer than (|start| + |end| - path) / 2
    closest = 0.5 * (np.linalg.norm(offset_now, axis=1) + np.linalg.norm(offset_ahead, axis=1)
                     - np.linalg.norm(offset_ahead - offset_now, axis=1))
    return bool(np.any(closest < reach))


def _pair_surface(model, body_b: np.ndarray, friction_a, restitution_a) -> tuple[np.ndarray, np.ndarray]:
    layout = model.contacts
    friction = np.sqrt(layout.body_friction[body_b] * friction_a)  # the geometric mean of the pair
    restitution = np.maximum(layout.body_restitution[body_b], restitution_a)  # the larger of the pair
    return friction, restitution


def _candidates(model, probes: np.ndarray, gap_now, gap_ahead) -> np.ndarray:
    moving = model.body_dynamic[model.contacts.probe_body[probes]]
    return probes[moving & (np.minimum(gap_now, gap_ahead) < MARGIN)]


def _against_plane(model, index: int, plane: dict, centre_now, centre_ahead):
    layout = model.contacts
    normal, point = np.asarray(plane["normal"]), np.asarray(plane["point"])
    gap_now = (centre_now - point) @ normal - layout.probe_radius
    gap_ahead = (centre_ahead - point) @ normal - layout.probe_radius
    probes = _candidates(model, np.arange(len(layout.probe_body)), gap_now, gap_ahead)
    if not len(probes):
        return None
    bodies = layout.probe_body[probes]
    friction, restitution = _pair_surface(model, bodies, plane["friction"], plane["restitution"])
    count = len(probes)
    return ([("plane", index, int(p)) for p in probes], np.zeros(count, dtype=int), bodies, layout.probe_local[probes],
            layout.probe_radius[probes], np.tile(point, (count, 1)), np.tile(normal, (count, 1)), friction, restitution,
            np.zeros((count, 2, 3)), np.zeros(count))


def _against_mesh(model, index: int, mesh: dict, bvh, now: Frames, centre_now, centre_ahead):
    """Each probe against the nearest triangle of the mesh near its path through the step.

    Triangles are two-sided, as a modeller expects of a floor after Flip Normals or a single-sheet
    wall met from behind: a probe meets a triangle's face from the side it is on. A probe within
    MARGIN of the face's plane may be resting on it with a little overlap, so there the side is that
    of its body's centre of mass (a convex body touching a face lies on one side of it, its centre
    included); any further, the probe's own side."""
    layout = model.contacts
    # a probe whose path is not finite (a diverging state, which the step reports) would meet every box
    finite_path = np.isfinite(centre_now).all(axis=1) & np.isfinite(centre_ahead).all(axis=1)
    probes = np.flatnonzero(model.body_dynamic[layout.probe_body] & finite_path)
    reach = (layout.probe_radius[probes] + MARGIN)[:, None]
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
    side = np.where(np.abs(height) > MARGIN, np.sign(height), np.sign(centre_height))
    face_normal = np.where(side[:, None] < 0, -face_normal, face_normal)
    # a probe over the face takes the face's plane; one beyond an edge or corner, the plane facing it
    over_face = (distance <= 1e-9) | (np.abs(height) >= distance * (1 - 1e-9))
    normal = np.where(over_face[:, None], face_normal, offset / np.maximum(distance, 1e-300)[:, None])
    gap_now = np.einsum("mi,mi->m", offset, normal) - layout.probe_radius[probe]
    gap_ahead = np.einsum("mi,mi->m", centre_ahead[probe] - closest, normal) - layout.probe_radius[probe]
    near = np.minimum(gap_now, gap_ahead) < MARGIN
    if not near.any():
        return None
    probe, bodies, count = probe[near], bodies[near], int(near.sum())
    friction, restitution = _pair_surface(model, bodies, mesh["friction"], mesh["restitution"])
    return ([("mesh", index, int(t), int(p)) for t, p in zip(triangle[near], probe)], np.zeros(count, dtype=int),
            bodies, layout.probe_local[probe], layout.probe_radius[probe], closest[near], normal[near], friction,
            restitution, np.zeros((count, 2, 3)), np.zeros(count))


def _against_round_bodies(model, now: Frames, ahead: Frames, centre_now, centre_ahead):
    """Probes of every other body against spheres and capsules (a segment with a radius)."""
    layout = model.contacts
    if not len(layout.round_body):
        return None
    parts = []
    for slot, body_a in enumerate(layout.round_body):
        ends_now = now.points(np.full(2, body_a), layout.round_ends[slot])
        ends_ahead = ahead.points(np.full(2, body_a), layout.round_ends[slot])
        others = _partner_probes(model, body_a)
        if not len(others):
            continue
        nearest_now = _closest_on_segment(centre_now[others], ends_now)
        nearest_ahead = _closest_on_segment(centre_ahead[others], ends_ahead)
        reach = layout.round_radius[slot] + layout.probe_radius[others]
        gap_now = np.linalg.norm(centre_now[others] - nearest_now, axis=1) - reach
        gap_ahead = np.linalg.norm(centre_ahead[others] - nearest_ahead, axis=1) - reach
        near = np.minimum(gap_now, gap_ahead) < MARGIN
        if not near.any():
            continue
        probes = others[near]
        direction = centre_now[probes] - nearest_now[near]
        length = np.linalg.norm(direction, axis=1, keepdims=True)
        normal = np.where(length > 1e-12, direction / np.maximum(length, 1e-300), [0.0, 0.0, 1.0])
        surface = nearest_now[near] + layout.round_radius[slot] * normal
        bodies_a = np.full(len(probes), body_a)
        parts.append(_surface_part(model, "round", body_a, probes, now.to_local_points(bodies_a, surface),
                                   now.to_local_vectors(bodies_a, normal), layout.round_ends[slot],
                                   layout.round_radius[slot]))
    return _stacked(parts) if parts else None


def _partner_probes(model, body_a: int) -> np.ndarray:
    """Probes of the bodies that may touch body a (not a itself, not joined to it, not both fixed)."""
    pairs, probe_body = model.contacts.touching_pairs, model.contacts.probe_body
    return np.array([p for p in range(len(probe_body)) if (int(body_a), int(probe_body[p])) in pairs], dtype=int)


def _surface_part(model, kind: str, body_a: int, probes: np.ndarray, surface_local, normal_local, segment=None,
                  radius_a: float = 0.0):
    """The contacts of some probes against a surface of body a (points and normals in a's frame)."""
    layout = model.contacts
    count = len(probes)
    bodies_b = layout.probe_body[probes]
    friction, restitution = _pair_surface(model, bodies_b, layout.body_friction[body_a],
                                          layout.body_restitution[body_a])
    segments = np.zeros((count, 2, 3)) if segment is None else np.tile(segment, (count, 1, 1))
    return ([(kind, int(body_a), int(p)) for p in probes], np.full(count, body_a), bodies_b, layout.probe_local[probes],
            layout.probe_radius[probes], surface_local, normal_local, friction, restitution, segments,
            np.full(count, radius_a))


def _against_boxes(model, now: Frames, ahead: Frames, centre_now, centre_ahead):
    """Probes of every other body against the faces of box bodies: the box's nearest face plane (or,
    outside an edge or corner, the plane facing the probe)."""
    layout = model.contacts
    parts = []
    for slot, body_a in enumerate(layout.box_body):
        others = _partner_probes(model, body_a)
        if not len(others):
            continue
        axes, half, centre = layout.box_axes[slot], layout.box_half[slot], layout.box_centre[slot]
        local_now = (now.to_local_points(np.full(len(others), body_a), centre_now[others]) - centre) @ axes.T
        local_ahead = (ahead.to_local_points(np.full(len(others), body_a), centre_ahead[others]) - centre) @ axes.T
        radius = layout.probe_radius[others]
        surface_now, normal_now, gap_now = _box_plane(local_now, half, radius)
        _, _, gap_ahead = _box_plane(local_ahead, half, radius)
        near = np.minimum(gap_now, gap_ahead) < MARGIN
        if not near.any():
            continue
        # back to the principal frame of a
        parts.append(_surface_part(model, "box", body_a, others[near], surface_now[near] @ axes + centre,
                                   normal_now[near] @ axes))
    return _stacked(parts) if parts else None


def _against_convex(model, now: Frames, ahead: Frames, centre_now, centre_ahead):
    """Probes of every other body against the face planes of convex bodies: the face a probe is
    furthest out from (exact over a face, conservative near edges and corners)."""
    layout = model.contacts
    parts = []
    for body_a, normals, offsets in layout.convex_surfaces:
        others = _partner_probes(model, body_a)
        if not len(others):
            continue
        bodies = np.full(len(others), body_a)
        local_now = now.to_local_points(bodies, centre_now[others])
        local_ahead = ahead.to_local_points(bodies, centre_ahead[others])
        radius = layout.probe_radius[others]
        heights_now = local_now @ normals.T - offsets
        face = np.argmax(heights_now, axis=1)
        gap_now = heights_now[np.arange(len(others)), face] - radius
        gap_ahead = (local_ahead @ normals.T - offsets).max(axis=1) - radius
        near = np.minimum(gap_now, gap_ahead) < MARGIN
        if not near.any():
            continue
        face = face[near]
        surface = local_now[near] - heights_now[near, face][:, None] * normals[face]  # onto the face's plane
        parts.append(_surface_part(model, "convex", body_a, others[near], surface, normals[face]))
    return _stacked(parts) if parts else None


def _box_plane(points: np.ndarray, half: np.ndarray, radius: np.ndarray):
    """For points in a box's frame: the tangent plane each meets (a point on it, its outward normal)
    and the signed gap to a sphere of `radius` about the point."""
    clamped = np.clip(points, -half, half)
    offset = points - clamped
    distance = np.linalg.norm(offset, axis=1)
    outside = distance > 1e-12
    # inside: the face of least depth
    depth = half - np.abs(points)
    face = np.argmin(depth, axis=1)
    inside_normal = np.zeros_like(points)
    inside_normal[np.arange(len(points)), face] = np.sign(points[np.arange(len(points)), face]) + (
        points[np.arange(len(points)), face] == 0)
    normal = np.where(outside[:, None], offset / np.maximum(distance, 1e-300)[:, None], inside_normal)
    surface = np.where(outside[:, None], clamped, points + normal * depth[np.arange(len(points)), face][:, None])
    gap = np.where(outside, distance, -depth[np.arange(len(points)), face]) - radius
    return surface, normal, gap


def _closest_on_segment(points: np.ndarray, ends: np.ndarray) -> np.ndarray:
    start, end = ends
    axis = end - start
    length2 = float(axis @ axis)
    if length2 < 1e-24:
        return np.tile(start, (len(points), 1))
    along = np.clip((points - start) @ axis / length2, 0.0, 1.0)
    return start + along[:, None] * axis


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


def _stacked(parts: list):
    keys = [key for part in parts for key in part[0]]
    return (keys, *(np.concatenate([part[i] for part in parts]) for i in range(1, 11)))


def _joined(model, parts: list) -> Contacts:
    if not parts:
        empty = np.zeros((0, 3))
        return Contacts([], np.zeros(0, dtype=int), np.zeros(0, dtype=int), empty, np.zeros(0), empty, empty,
                        np.zeros(0), np.zeros(0), np.zeros((0, 2, 3)), np.zeros(0))
    keys, *arrays = _stacked(parts)
    return Contacts(keys, *arrays)
