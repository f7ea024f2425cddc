"""Finding contacts: the contact manifolds of the shapes that come near within the step (the
narrow phase, kernels/contact/narrow_phase.py) and the corners of bodies near meshes (mesh_contacts.py), each
point a probe of body b (with a radius) against a tangent plane fixed in body a (the world for
obstacles). The same description measures the
separation at t, at the look-ahead, or anywhere in between, so the correction loop can treat a
contact like a joint.

The broad phase (kernels/contact/near_pairs.py) keeps the pairs whose bounding spheres (a slot's reach about
its body's centre) come within MARGIN over the step, and asks the narrow phase for points within
MARGIN plus how far the pair may move towards each other in the step; of those, the points within
MARGIN now or at the look-ahead are the step's contacts. The stages are one kernel call
(kernels/contact/detection.py); this module holds what it found, keyed by the features that touch.
"""
from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from ..frames import Frames
from .shape_table import BOX, CAPSULE, HULL, POINT

# Points nearer than this (or about to be, within the step) are contacts; those that stay apart
# exert nothing, so the margin only costs a little work.
MARGIN = 1e-3

# what finding contacts takes as (boxes, hulls, rounds, meshes) when it compiles the manifolds of every
# kind of shape and the probes against meshes
EVERY_SHAPE = (True, True, True, True)

# what the broad phase looks at, when not every slot of the layout (sleeping.py): the slot pairs (p, 2),
# the slots (S,) and bodies (n,) tested against planes and meshes
ActiveSlots = namedtuple("ActiveSlots", ["slot_pairs", "slot_moves", "body_moves"])


@dataclass
class Contacts:
    """m contacts at one instant."""

    # (m,) (kind, a, b, feature) as kernels/contact/detection.contacts_within_reach gives them (kind: codes.BODIES,
    # PLANE, MESH): the same while the same features touch, across steps
    key: list
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
        from ..kernels.contact.narrow_phase import separations  # the kernels load with the first simulation

        return separations(frames.position, frames.rotation, self.body_a, self.body_b, self.probe_b, self.radius,
                           self.surface_a, self.normal_a)

    def geometry(self, frames: Frames) -> tuple[np.ndarray, np.ndarray]:
        """(m, 3) contact points on b's surface and (m, 3) world normals (from a towards b)."""
        point, directions, _ = self.frames_at(frames)
        return point, directions[:, 0]

    def frames_at(self, frames: Frames) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(m, 3) contact points on b's surface, (m, 3, 3) rows of the normal (from a towards b), a
        tangent and the binormal, (m, 2, 3) the points as material points of a and b
        (kernels/contact/contact_rows.contact_frames)."""
        from ..kernels.contact.contact_rows import contact_frames  # the kernels load with the first simulation

        return contact_frames(frames.position, frames.rotation, self.body_a, self.body_b, self.probe_b, self.radius,
                              self.normal_a)

    def subset(self, keep: np.ndarray) -> "Contacts":
        """The contacts where `keep` (m,) bool is set; these themselves when it is set everywhere."""
        rows = np.flatnonzero(keep)
        if len(rows) == len(self):
            return self
        key = self.key
        return Contacts([key[k] for k in rows.tolist()], *(getattr(self, f)[rows] for f in FIELDS))

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


def compiled_shapes(layout, every: bool) -> tuple:
    """What finding contacts takes as (boxes, hulls, rounds, meshes): True for a kind of shape (or for
    meshes) the layout has, None for one it has none of, whose code numba then prunes before typing (a
    stack of boxes on a plane compiles no capsule's, hull's or mesh's code). Every kind when `every`:
    once the kernel cache is complete (kernels/jit.cache_complete) the detection of every kind is there
    to load, and it runs as fast."""
    if every:
        return EVERY_SHAPE
    kinds = set(layout.shapes.kind.tolist())
    shapes = tuple(True if kinds & set(group) else None for group in ((BOX,), (HULL,), (CAPSULE, POINT)))
    return (*shapes, True if layout.meshes else None)


def find_contacts(model, now: Frames, ahead: Frames, active: ActiveSlots | None = None,
                  shapes: tuple = EVERY_SHAPE) -> Contacts:
    """Every contact point within MARGIN now or at the look-ahead: the manifolds of bodies and
    planes, the probes of bodies against meshes (contact/mesh_contacts.py); of the slots `active` names
    (all of the layout's when None). shapes: compiled_shapes' flags."""
    layout = model.contacts
    if not len(layout.shapes.kind):
        return _empty()
    if active is None:
        active = ActiveSlots(layout.slot_pairs, layout.slot_moves, model.body_dynamic)
    from ..kernels.contact.detection import contacts_within_reach  # building a model never imports numba

    key, *fields = contacts_within_reach(layout.shapes, *shapes, layout.table, active.slot_pairs, active.slot_moves,
                                         active.body_moves, now.position, now.rotation, ahead is not now,
                                         ahead.position, ahead.rotation, MARGIN, model.settings.dmax)
    return Contacts(list(map(tuple, key.tolist())), *fields)


def joined(*parts: Contacts) -> Contacts:
    """The contacts of every part, in order."""
    present = [part for part in parts if len(part)]
    if len(present) <= 1:
        return present[0] if present else _empty()
    return Contacts([key for part in present for key in part.key],
                    *(np.concatenate([getattr(part, f) for part in present]) for f in FIELDS))


def _empty() -> Contacts:
    empty = np.zeros((0, 3))
    return Contacts([], np.zeros(0, dtype=int), np.zeros(0, dtype=int), empty, np.zeros(0), empty, empty,
                    np.zeros(0), np.zeros(0), np.zeros((0, 2, 3)), np.zeros(0))


def _closest_on_segment(points: np.ndarray, ends: np.ndarray) -> np.ndarray:
    start, end = ends
    axis = end - start
    length2 = float(axis @ axis)
    if length2 < 1e-24:
        return np.tile(start, (len(points), 1))
    along = np.clip((points - start) @ axis / length2, 0.0, 1.0)
    return start + along[:, None] * axis
