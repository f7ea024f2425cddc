"""Shapes and kernel calls shared by tests/solver/test_manifold.py and the subprocess in which it runs
the kernels as plain Python (NUMBA_DISABLE_JIT=1), which imports them from here, not from a test module."""
import numpy as np

from mechbake.solver.contact.polyhedron import hull_polyhedron
from mechbake.solver.kernels.contact import manifold as kernels
from mechbake.solver.kernels.contact.manifold_points import empty_manifold

HALF = np.full(3, 0.2)  # half extents of the 0.4 m boxes of the stacking scenes
MARGIN = 1e-3
UP = np.array([0.0, 0.0, 1.0])
ORIGIN = np.zeros(3)
IDENTITY = np.eye(3)


def turned(axis, angle) -> np.ndarray:
    """The rotation by `angle` about `axis` (Rodrigues)."""
    axis = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * k @ k


def some_manifolds() -> list:
    """A few kernel calls' manifolds as lists: points on A and B, normal, feature ids."""
    cube = hull_polyhedron(np.array([[x, y, z] for x in (-0.2, 0.2) for y in (-0.2, 0.2) for z in (-0.2, 0.2)]))
    above = np.array([0.05, 0.0, 0.399])
    calls = [(kernels.box_box, (ORIGIN, IDENTITY, HALF, above, turned(UP, 0.7), HALF)),
             (kernels.hull_hull, (ORIGIN, IDENTITY, cube, above, turned(UP, 0.7), cube)),
             (kernels.box_capsule, (ORIGIN, IDENTITY, HALF, np.array([[0.1, 0.0, 0.25], [0.35, 0.0, 0.25]]), 0.05))]
    found = []
    for kernel, shapes in calls:
        manifold = empty_manifold()
        count = kernel(*shapes, MARGIN, manifold)
        found.append([manifold.point_a[:count].tolist(), manifold.point_b[:count].tolist(), manifold.normal.tolist(),
                      manifold.feature[:count].tolist()])
    return found
