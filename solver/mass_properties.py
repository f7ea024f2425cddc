"""Mass, centre of mass and inertia tensor of a closed triangle mesh of uniform density.

Signed tetrahedra from the origin to every triangle: their volumes and second moments add up to the
solid's, whatever the origin, as long as the surface is closed and consistently wound. A mesh wound
inside out gives a negative volume and is accepted with its sign turned.
"""
from dataclasses import dataclass

import numpy as np

from .errors import ModelError
from .spec import SHOWN_VALUES

# Second moments of the unit tetrahedron (0, e1, e2, e3): integral of x_i x_j over it (= 1/120 (1 + delta_ij))
CANONICAL = (np.ones((3, 3)) + np.eye(3)) / 120.0


@dataclass(frozen=True)
class MassProperties:
    volume: float  # m^3
    mass: float  # kg
    centre: np.ndarray  # (3,) centre of mass, in the mesh's coordinates
    inertia: np.ndarray  # (3, 3) about the centre of mass, in the mesh's axes, kg m^2


def mesh_mass_properties(vertices: np.ndarray, triangles: np.ndarray, *, density: float | None = None,
                         mass: float | None = None, name: str = "mesh") -> MassProperties:
    """vertices (V, 3), triangles (T, 3) vertex indices; give either the density or the total mass."""
    vertices = np.asarray(vertices, dtype=float)
    triangles = np.asarray(triangles, dtype=int)
    if len(triangles) == 0:
        raise ModelError(f"object '{name}': the mesh has no faces, so it has no volume")
    not_finite = np.flatnonzero(~np.isfinite(vertices).all(axis=1))
    if len(not_finite):
        first = ", ".join(f"#{i}" for i in not_finite[:SHOWN_VALUES])
        raise ModelError(f"object '{name}': the mesh has vertices that are not finite: {len(not_finite)} of "
                         f"{len(vertices)}, first {first}")
    _check_closed(triangles, name)
    corners = vertices[triangles]  # (T, 3 corners, 3 coordinates)
    # Tetrahedra from the middle of the mesh's box, not the world origin: a 2 cm body 200 m away
    # keeps its precision, and its volume is measured against its own size.
    low, high = corners.min(axis=(0, 1)), corners.max(axis=(0, 1))
    middle = 0.5 * (low + high)
    corners = corners - middle
    dets = np.linalg.det(corners)  # 6 x signed volume of each tetrahedron
    volume = dets.sum() / 6.0
    size = float((high - low).max())
    if abs(volume) <= 1e-12 * size**3:
        raise ModelError(f"object '{name}': the mesh encloses no volume (flat or empty)")
    if volume < 0:  # wound inside out
        dets, volume = -dets, -volume
    centre = (dets[:, None] * corners.sum(axis=1)).sum(axis=0) / (24.0 * volume)
    # covariance about the origin: sum over tetrahedra of det * A^T C A, A's rows the corners
    covariance = np.einsum("t,tki,kl,tlj->ij", dets, corners, CANONICAL, corners)
    covariance -= volume * np.outer(centre, centre)  # parallel axis: about the centre of mass
    if mass is None:
        if density is None or density <= 0:
            raise ModelError(f"object '{name}': needs a positive mass or density")
        mass = density * volume
    covariance *= mass / volume
    inertia = np.trace(covariance) * np.eye(3) - covariance
    return MassProperties(volume, float(mass), centre + middle, 0.5 * (inertia + inertia.T))


def _check_closed(triangles: np.ndarray, name: str) -> None:
    """Every edge of a closed surface belongs to exactly two triangles."""
    edges = np.sort(np.concatenate((triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]])), axis=1)
    _, counts = np.unique(edges, axis=0, return_counts=True)
    open_edges = int(np.count_nonzero(counts != 2))
    if open_edges:
        raise ModelError(f"object '{name}': the mesh is not closed ({open_edges} edges do not join exactly two "
                         f"faces), so its volume and inertia are undefined")
