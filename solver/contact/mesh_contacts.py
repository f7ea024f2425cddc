"""Bodies against triangle meshes: every corner of a body's shape (a box's eight, a hull's, a
capsule's two cap centres with its radius) a probe against the nearest triangle near its path
through the step, so each contact is a material point of the body against a tangent plane.

Mesh contacts stay probes rather than manifolds (kernels/contact/narrow_phase.py serves bodies and planes):
a box resting across a terrain's folds touches triangles at points where its edges cross theirs,
points that slide along the edges while it settles, and held as material points through a step
they dipped below Dmax (1.6e-7 m at Dmax = 1e-7 on the terrain of the contact tests); corners stay
where they are.
"""
from typing import NamedTuple

import numpy as np

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
