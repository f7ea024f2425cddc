"""Contact reduction for the LCP: at most four contacts per face that two bodies share.

A face resting on a mesh gives as many contacts as it has corners (a 40-sided puck, 40), and the
manifolds of now and of the look-ahead together up to eight per pair, all with one normal; the LCP
grows with them (1 + k + 1 unknowns each) and Lemke's pivots with its cube. The support they give is
their convex polygon, which four of them span nearly as well: the deepest, the one furthest from it,
the one spanning the largest triangle with those two and the one that adds the most area to that
triangle (the reduction Bullet's and Box2D's manifolds make).
"""
import numpy as np

from ..frames import Frames
from .detection import Contacts

KEPT_PER_FACE = 4
SAME_NORMAL = 0.999  # cosine above which two contacts of a pair share a face (about 2.6 degrees)


def four_per_face(contacts: Contacts, frames: Frames) -> Contacts:
    """The contacts with each group of one pair of bodies and one normal cut to four."""
    if len(contacts) <= KEPT_PER_FACE:
        return contacts
    point, normal = contacts.geometry(frames)
    gap = contacts.separation(frames)
    keep = np.zeros(len(contacts), dtype=bool)
    for face in _faces(contacts, normal):
        if len(face) <= KEPT_PER_FACE:
            keep[face] = True
        else:
            keep[face[_spanning_four(point[face], gap[face])]] = True
    return contacts.subset(keep)


def _faces(contacts: Contacts, normal: np.ndarray) -> list[np.ndarray]:
    """Indices of the contacts grouped by pair of bodies and (nearly) equal normal."""
    faces = []
    for pair in np.unique(np.column_stack((contacts.body_a, contacts.body_b)), axis=0):
        left = np.flatnonzero((contacts.body_a == pair[0]) & (contacts.body_b == pair[1]))
        while len(left):
            same = normal[left] @ normal[left[0]] > SAME_NORMAL
            faces.append(left[same])
            left = left[~same]
    return faces


def _spanning_four(points: np.ndarray, gap: np.ndarray) -> list[int]:
    """Four of the points (indices): the deepest, then each next the one that spans the most."""
    first = int(np.argmin(gap))
    second = int(np.argmax(np.linalg.norm(points - points[first], axis=1)))
    edge = points[second] - points[first]
    third = int(np.argmax(np.linalg.norm(np.cross(points - points[first], edge), axis=1)))
    corners = points[[first, second, third]]
    triangle = np.linalg.norm(np.cross(corners[1] - corners[0], corners[2] - corners[0]))
    # a point outside the triangle makes the three triangles it forms with the sides larger than it
    grown = sum(np.linalg.norm(np.cross(corners[i] - points, corners[(i + 1) % 3] - points), axis=1)
                for i in range(3)) - triangle
    fourth = int(np.argmax(grown))
    return sorted({first, second, third, fourth})
