"""What every narrow-phase kernel fills: a contact manifold of at most four points sharing one
normal, each named by the pair of features that made it, and the reduction of a larger set of
points to four.

A point's feature id packs the feature of shape A and the feature of shape B that touch there,
each as index * 4 + kind (VERTEX, EDGE or FACE of a polyhedron; a capsule's ends are its vertices
0 and 1 and its axis is its edge 0, a sphere is vertex 0, a plane is face 0). The id does not
depend on the point's position, so it survives from step to step while the same features touch,
and impulses can be warm-started by it.
"""
from collections import namedtuple

import numpy as np

from ..jit import kernel

MAX_POINTS = 4
VERTEX, EDGE, FACE = 0, 1, 2
B_BITS = 31  # the feature of B takes the low 31 bits of an id, the feature of A the bits above

# Box2D v3's b2_linearSlop (0.005 m, include/box2d/constants.h) and its use: a face of B becomes the
# reference only when its separation beats A's by 0.1 slop, against features flip-flopping between
# steps (b2CollideCapsules' "biased to avoid feature flip-flop").
LINEAR_SLOP = 0.005
FACE_FLIP_BIAS = 0.1 * LINEAR_SLOP
# ODE's dBoxBox2 takes an edge-edge axis only when its depth times 1.05 still beats the best face
# axis (its fudge_factor): a resting face contact never turns into an edge contact by rounding.
EDGE_FUDGE = 1.05
# ... and only when it beats them by this much as well. A box resting on another that it overhangs,
# turned or tilted by a little (1e-4 rad), has edge pairs whose cross product is nearly the face
# normal; their separation there differs from the face's by that tilt times the overhang, either
# way, and a resting stack that alternates between a one-point edge contact and its four-point face
# manifold rocks and creeps. The face's clipped points keep their own depths, so near
# parallel they describe the contact as exactly as the edges would.
EDGE_BIAS = FACE_FLIP_BIAS
# The points of a clipped face that lie this far outside a side of the reference face are kept as
# they are, so a corner resting on the rim of the face below keeps its feature while the stack
# jiggles by far less than this (Dmax is 1e-5 m or less).
SIDE_SLOP = 0.01 * LINEAR_SLOP
# Points within this of the deepest are equally deep when the manifold is reduced to four.
DEPTH_TIE = 0.1 * LINEAR_SLOP
# A manifold of more than four points is reduced among those within this of its deepest (the
# detection's contact margin, contact/detection.MARGIN): higher ones are not touched before them, and
# a support spanned by them would be dropped as out of reach, leaving one rim of a wheel without its
# contact.
SUPPORT_BAND = 1e-3
# Among equally deep points the first one kept is the furthest along this direction (fixed in the
# reference shape's frame; no box edge is perpendicular to it), so the same points are kept every step.
TIE_DIRECTION = np.array([0.8017837257372732, 0.5345224838248488, 0.2672612419124244])

Manifold = namedtuple("Manifold", [
    "point_a",  # (MAX_POINTS, 3) world: the point of each contact on shape A's surface
    "point_b",  # (MAX_POINTS, 3) world: the point on shape B's surface
    "normal",  # (3,) world unit normal shared by the points, from A towards B
    "separation",  # (MAX_POINTS,) m: (point_b - point_a) . normal, negative when they overlap
    "feature",  # (MAX_POINTS,) int64: feature_id(A's feature, B's feature)
])


def empty_manifold() -> Manifold:
    """A manifold to be filled by the kernels (which return how many of its points they filled)."""
    return Manifold(np.zeros((MAX_POINTS, 3)), np.zeros((MAX_POINTS, 3)), np.zeros(3), np.zeros(MAX_POINTS),
                    np.zeros(MAX_POINTS, dtype=np.int64))


@kernel
def feature_code(kind, index):
    """One feature of one shape: index * 4 + kind."""
    return index * 4 + kind


@kernel
def feature_id(code_a, code_b):
    return (np.int64(code_a) << B_BITS) | np.int64(code_b)


@kernel
def write_point(manifold, slot, point_a, point_b, normal, feature):
    """Point `slot` of the manifold; its separation is (point_b - point_a) . normal."""
    for i in range(3):
        manifold.point_a[slot, i] = point_a[i]
        manifold.point_b[slot, i] = point_b[i]
    manifold.separation[slot] = ((point_b[0] - point_a[0]) * normal[0] + (point_b[1] - point_a[1]) * normal[1]
                                 + (point_b[2] - point_a[2]) * normal[2])
    manifold.feature[slot] = feature


@kernel
def reduce_to_four(points, depth, count, normal, chosen):
    """Which (at most four) of `count` points (k, 3) with separations (k,) on a plane of the given
    normal to keep: `chosen` (MAX_POINTS,) gets their indices; returns how many.

    The deepest point first (Rapier's reduce_manifold starts there; among equally deep ones the
    furthest along TIE_DIRECTION, as ReactPhysics3D's reduceContactPoints starts), then the point
    furthest from it, then the one making the largest triangle with those two, then the one adding
    the most area to that triangle: the deepest contact and the largest area of support, all among
    the points within SUPPORT_BAND of the deepest."""
    if count <= MAX_POINTS:
        for k in range(count):
            chosen[k] = k
        return count
    deepest = np.inf
    for k in range(count):
        deepest = min(deepest, depth[k])
    band = deepest + SUPPORT_BAND  # the highest a kept point lies
    within = 0
    for k in range(count):
        within += depth[k] <= band
    if within <= MAX_POINTS:
        kept = 0
        for k in range(count):
            if depth[k] <= band:
                chosen[kept] = k
                kept += 1
        return kept
    first, reach = -1, -np.inf
    for k in range(count):
        along = points[k, 0] * TIE_DIRECTION[0] + points[k, 1] * TIE_DIRECTION[1] + points[k, 2] * TIE_DIRECTION[2]
        if depth[k] <= deepest + DEPTH_TIE and along > reach:
            first, reach = k, along
    second, furthest = first, -1.0
    for k in range(count):
        if depth[k] > band:
            continue
        distance = 0.0
        for i in range(3):
            distance += (points[k, i] - points[first, i]) ** 2
        if distance > furthest:
            second, furthest = k, distance
    third, largest = -1, 0.0
    for k in range(count):
        if depth[k] > band:
            continue
        area = _signed_area(points, first, second, k, normal)
        if abs(area) > abs(largest):
            third, largest = k, area
    chosen[0] = first
    if furthest <= 0.0:  # every point at the first
        return 1
    if third < 0:  # every point on the line of the first two
        chosen[1] = second
        return 2
    if largest < 0:  # order the triangle counter-clockwise about the normal
        first, second = second, first
    chosen[0], chosen[1], chosen[2] = first, second, third
    fourth, gain = -1, 0.0
    for k in range(count):
        if depth[k] > band:
            continue
        # the area the point adds outside the triangle's sides
        added = max(-_signed_area(points, first, second, k, normal), -_signed_area(points, second, third, k, normal),
                    -_signed_area(points, third, first, k, normal))
        if added > gain:
            fourth, gain = k, added
    if fourth < 0:
        return 3
    chosen[3] = fourth
    return 4


@kernel
def _signed_area(points, a, b, c, normal):
    """Twice the area of the triangle a b c, positive when it turns counter-clockwise about the normal."""
    u0, u1, u2 = points[b, 0] - points[a, 0], points[b, 1] - points[a, 1], points[b, 2] - points[a, 2]
    v0, v1, v2 = points[c, 0] - points[a, 0], points[c, 1] - points[a, 1], points[c, 2] - points[a, 2]
    return normal[0] * (u1 * v2 - u2 * v1) + normal[1] * (u2 * v0 - u0 * v2) + normal[2] * (u0 * v1 - u1 * v0)
