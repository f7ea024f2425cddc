"""Segments in the narrow phase: the closest points of two (capsule axes, polyhedron edges) and
the stretch along which two nearly parallel ones run side by side (a capsule lying along another
or along a box edge touches along a line, two points)."""
import numpy as np

from ..jit import kernel

SEGMENT_POINT = 1e-24  # m^2: a segment this short (1e-12 m) is a point (a sphere's "axis")


@kernel
def closest_on_segments(p1, q1, p2, q2):
    """(s, t): the closest points of the segments p1 q1 and p2 q2 (each (3,), one frame) are
    p1 + s (q1 - p1) and p2 + t (q2 - p2). Ericson, Real-Time Collision Detection, 5.1.9."""
    a = e = b = c = f = 0.0
    for i in range(3):
        d1, d2, r = q1[i] - p1[i], q2[i] - p2[i], p1[i] - p2[i]
        a += d1 * d1
        e += d2 * d2
        b += d1 * d2
        c += d1 * r
        f += d2 * r
    if a <= SEGMENT_POINT and e <= SEGMENT_POINT:
        return 0.0, 0.0
    if a <= SEGMENT_POINT:
        return 0.0, _clamped(f / e)
    if e <= SEGMENT_POINT:
        return _clamped(-c / a), 0.0
    denominator = a * e - b * b
    s = _clamped((b * f - c * e) / denominator) if denominator > 0.0 else 0.0
    t = (b * s + f) / e
    if t < 0.0:
        return _clamped(-c / a), 0.0
    if t > 1.0:
        return _clamped((b - c) / a), 1.0
    return s, t


@kernel
def side_by_side(a0, a1, b0, b1, reach, margin, on_a, on_b, cut_by):
    """Where segment b, cut to the slab of segment a (the points whose projection onto a's line falls
    on a), runs within reach + margin of a along its whole length: returns 2 and fills on_b (2, 3),
    the cut ends of b, on_a (2, 3), their closest points on a, and cut_by (2,), which end of a cut
    each (-1: b's own end); returns 0 when b does not overlap a's slab or an end strays further.

    Box2D v3's b2CollideCapsules clips one capsule's segment to the other's extent the same way and
    keeps the two points unless they stray (there within the linear slop of the closest distance;
    here within the margin, since in 3D crossed axes also project onto each other)."""
    length2 = 0.0
    for i in range(3):
        length2 += (a1[i] - a0[i]) ** 2
    if length2 <= SEGMENT_POINT:
        return 0
    along0 = along1 = 0.0
    for i in range(3):
        along0 += (b0[i] - a0[i]) * (a1[i] - a0[i])
        along1 += (b1[i] - a0[i]) * (a1[i] - a0[i])
    along0 /= length2
    along1 /= length2
    if (along0 <= 0.0 and along1 <= 0.0) or (along0 >= 1.0 and along1 >= 1.0):
        return 0
    for k in range(2):
        mine, other = (along0, along1) if k == 0 else (along1, along0)
        start, far = (b0, b1) if k == 0 else (b1, b0)
        fraction, cut_by[k] = 0.0, -1
        if mine < 0.0:
            fraction, cut_by[k] = mine / (mine - other), 0
        elif mine > 1.0:
            fraction, cut_by[k] = (mine - 1.0) / (mine - other), 1
        on_line = _clamped(mine + fraction * (other - mine))
        distance2 = 0.0
        for i in range(3):
            on_b[k, i] = start[i] + fraction * (far[i] - start[i])
            on_a[k, i] = a0[i] + on_line * (a1[i] - a0[i])
            distance2 += (on_b[k, i] - on_a[k, i]) ** 2
        if np.sqrt(distance2) - reach >= margin:
            return 0
    apart2 = 0.0
    for i in range(3):
        apart2 += (on_b[1, i] - on_b[0, i]) ** 2
    return 2 if apart2 > SEGMENT_POINT else 0


@kernel
def _clamped(x):
    return min(max(x, 0.0), 1.0)
