"""Time per call of the compiled contact-manifold kernels (solver/kernels/contact/manifold.py), called from
compiled code as the contact stage will call them (the Python call adds about 1-2 µs of dispatch),
for boxes and for hulls of 8, 24 and 64 corners (the contact hull's limit).
    python benchmarks/manifold.py
"""
import time

import numba
import numpy as np
from common import table

from mechbake.solver.contact.polyhedron import hull_polyhedron
from mechbake.solver.kernels.contact import manifold as kernels
from mechbake.solver.kernels.contact.manifold_points import empty_manifold

MARGIN = 1e-3
HALF = np.full(3, 0.2)
IDENTITY = np.eye(3)


def turned(axis, angle) -> np.ndarray:
    axis = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * k @ k


def round_hull(corners: int, seed: int = 0):
    """A hull of about `corners` points on a sphere of radius 0.2 m (at most 64 are kept)."""
    points = np.random.default_rng(seed).normal(size=(corners, 3))
    return hull_polyhedron(0.2 * points / np.linalg.norm(points, axis=1)[:, None])


def repeated(kernel):
    @numba.njit
    def run(times, *arguments):
        total = 0
        for _ in range(times):
            total += kernel(*arguments)
        return total
    return run


def microseconds(kernel, arguments, times=20000) -> tuple[float, int]:
    """Best of five: µs per call from compiled code; and the number of points."""
    run = repeated(kernel)
    manifold = empty_manifold()
    run(1, *arguments, MARGIN, manifold)
    times = max(20, times)
    best = np.inf
    for _ in range(5):
        start = time.perf_counter()
        run(times, *arguments, MARGIN, manifold)
        best = min(best, (time.perf_counter() - start) / times)
    return best * 1e6, kernel(*arguments, MARGIN, manifold)


def main() -> None:
    cube = hull_polyhedron(np.array([[x, y, z] for x in (-0.2, 0.2) for y in (-0.2, 0.2) for z in (-0.2, 0.2)]))
    hull24, hull64 = round_hull(24), round_hull(400)
    above = np.array([0.0, 0.0, 0.4])
    top = hull64.vertices[np.argmax(hull64.vertices[:, 2])]  # the highest corner
    leaning = (np.array([0.0, 0.0, 0.3]), turned([1, 2, 3], 0.5))
    origin = np.zeros(3)
    crossed = (turned([1, 0, 0], np.pi / 4), np.array([0.0, 0.0, 0.4 * np.sqrt(2)]), turned([0, 1, 0], np.pi / 4))
    cases = [
        ("box-box, stacked", kernels.box_box, (origin, IDENTITY, HALF, above, IDENTITY, HALF)),
        ("box-box, turned 45 degrees", kernels.box_box, (origin, IDENTITY, HALF, above, turned([0, 0, 1], np.pi / 4),
                                                         HALF)),
        ("box-box, crossed edges", kernels.box_box, (origin, crossed[0], HALF, crossed[1], crossed[2], HALF)),
        ("box-box, 1 cm apart", kernels.box_box, (origin, IDENTITY, HALF, above + [0, 0, 0.01], IDENTITY, HALF)),
        ("hull-hull, cubes stacked", kernels.hull_hull, (origin, IDENTITY, cube, above, IDENTITY, cube)),
        (f"hull-hull, {len(hull24.vertices)} corners", kernels.hull_hull, (origin, IDENTITY, hull24, *leaning, hull24)),
        (f"hull-hull, {len(hull64.vertices)} corners", kernels.hull_hull, (origin, IDENTITY, hull64, *leaning, hull64)),
        (f"hull-box, {len(hull64.vertices)} corners", kernels.hull_box, (origin, IDENTITY, hull64, *leaning, HALF)),
        ("box-capsule, along a face", kernels.box_capsule, (origin, IDENTITY, HALF,
                                                           np.array([[-0.1, 0, 0.25], [0.1, 0, 0.25]]), 0.05)),
        (f"hull-capsule, {len(hull64.vertices)} corners, 0.5 mm over its top", kernels.hull_capsule,
         (origin, IDENTITY, hull64, top + [[-0.1, 0.0, 0.0505], [0.1, 0.0, 0.0505]], 0.05)),
        (f"hull-sphere, {len(hull64.vertices)} corners, 1 mm into its top", kernels.hull_capsule,
         (origin, IDENTITY, hull64, top + [[0.0, 0.0, 0.049]] * 2, 0.05)),
        ("capsule-capsule, side by side", kernels.capsule_capsule, (np.array([[-0.2, 0, 0], [0.2, 0, 0]]), 0.05,
                                                                    np.array([[-0.1, 0, 0.1], [0.3, 0, 0.1]]), 0.05)),
        ("plane-box", kernels.plane_box, (origin, np.array([0, 0, 1.0]), np.array([0, 0, 0.2]), IDENTITY, HALF)),
        ("triangle-box", kernels.triangle_box, (np.array([[-1.0, -1, 0], [1, -1, 0], [1, 1, 0]]), 0,
                                                np.array([0.5, -0.5, 0.2]), IDENTITY, HALF)),
    ]
    rows = []
    for label, kernel, arguments in cases:
        time_per_call, points = microseconds(kernel, arguments)
        rows.append([label, f"{time_per_call:.2f}", points])
    table("contact manifold kernels, compiled", ["pair", "µs per call", "points"], rows)


if __name__ == "__main__":
    main()
