"""Contact manifolds of convex shapes (solver/kernels/contact/manifold.py) against analytic expectations:
faces on faces give the corners of their overlap, edges on faces two points, crossed edges one, and
the feature ids of a resting stack hold still while it jiggles."""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from manifold_cases import HALF, IDENTITY, MARGIN, ORIGIN, UP, some_manifolds, turned

from mechbake.solver.contact.polyhedron import box_polyhedron, hull_polyhedron
from mechbake.solver.kernels.contact import manifold as kernels
from mechbake.solver.kernels.contact.manifold_points import FACE, empty_manifold

ROOT2 = np.sqrt(2.0)
CUBE = hull_polyhedron(np.array([[x, y, z] for x in (-0.2, 0.2) for y in (-0.2, 0.2) for z in (-0.2, 0.2)]))
TOLERANCE = 1e-12


def collide(kernel, *shapes, margin=MARGIN):
    """(points on A, points on B, normal, separations, feature ids) of one kernel call."""
    manifold = empty_manifold()
    count = kernel(*shapes, margin, manifold)
    assert 0 <= count <= 4
    return (manifold.point_a[:count].copy(), manifold.point_b[:count].copy(), manifold.normal.copy(),
            manifold.separation[:count].copy(), manifold.feature[:count].copy())


def same_points(points, expected, tolerance=TOLERANCE) -> bool:
    """Whether two sets of points are the same (in any order)."""
    points, expected = np.asarray(points), np.asarray(expected, dtype=float)
    if points.shape != expected.shape:
        return False
    distances = np.linalg.norm(points[:, None] - expected[None], axis=2)
    return bool((distances.min(axis=1) < tolerance).all() and (distances.min(axis=0) < tolerance).all())


def stacked(offset=(0.0, 0.0, 0.4), rotation=IDENTITY):
    return ORIGIN, IDENTITY, HALF, np.asarray(offset, dtype=float), rotation, HALF


def test_equal_boxes_stacked_touch_at_the_four_corners_of_the_top_face():
    on_a, on_b, normal, separation, _ = collide(kernels.box_box, *stacked())
    corners = [[x, y, 0.2] for x in (-0.2, 0.2) for y in (-0.2, 0.2)]
    assert same_points(on_a, corners) and same_points(on_b, corners)
    assert np.allclose(normal, UP, atol=TOLERANCE) and np.allclose(separation, 0.0, atol=TOLERANCE)


def test_a_box_offset_by_half_a_box_touches_over_the_overlap_rectangle():
    on_a, _, normal, separation, _ = collide(kernels.box_box, *stacked((0.2, 0.0, 0.4)))
    assert same_points(on_a, [[x, y, 0.2] for x in (0.0, 0.2) for y in (-0.2, 0.2)])
    assert np.allclose(normal, UP, atol=TOLERANCE) and np.allclose(separation, 0.0, atol=TOLERANCE)


def test_a_box_turned_45_degrees_keeps_four_of_the_eight_corners_of_the_octagon():
    on_a, _, normal, separation, _ = collide(kernels.box_box, *stacked(rotation=turned(UP, np.pi / 4)))
    # the overlap of the two squares is a regular octagon with corners at 22.5 + 45 k degrees
    radius = 0.2 / np.cos(np.pi / 8)
    octagon = [[radius * np.cos(a), radius * np.sin(a), 0.2] for a in np.pi / 8 + np.pi / 4 * np.arange(8)]
    assert len(on_a) == 4 and all(same_points([p], [min(octagon, key=lambda c: np.linalg.norm(p - c))]) for p in on_a)
    # every other corner: the largest quadrilateral in the octagon, a square of diagonal 2 radius
    assert _area(on_a) == pytest.approx(2 * radius ** 2, rel=1e-12)
    assert np.allclose(normal, UP, atol=TOLERANCE) and np.allclose(separation, 0.0, atol=TOLERANCE)


@pytest.mark.parametrize("tilt", [[0, 0, 1], [0, 1, 0], [1, 1, 1]])
def test_a_box_overhanging_another_and_turned_a_little_touches_over_the_overlap(tilt):
    """Turned or tilted by 1e-4 rad, its edge pairs' axes are nearly the face normal and as deep as
    the face to within the turn times the overhang: the faces still make the manifold (an edge pair's
    one point made a resting stack rock and creep)."""
    rotation = turned(tilt, 1e-4)
    # its lowest face's centre on A
    offset = np.array([0.15, 0.05, 0.4]) - rotation @ [0.0, 0.0, -0.2] - [0.0, 0.0, 0.2]
    on_a, _, normal, separation, _ = collide(kernels.box_box, ORIGIN, IDENTITY, HALF, offset, rotation, HALF)
    assert len(on_a) == 4
    assert np.allclose(normal, UP, atol=TOLERANCE) and np.all(np.abs(separation) < 0.2 * 1e-4 * 2)


def test_a_box_resting_on_its_edge_touches_at_the_two_ends_of_the_edge():
    edge_down = (0.0, 0.0, 0.2 + 0.2 * ROOT2)
    on_a, on_b, normal, separation, _ = collide(kernels.box_box, *stacked(edge_down, turned([1, 0, 0], np.pi / 4)))
    assert same_points(on_a, [[-0.2, 0.0, 0.2], [0.2, 0.0, 0.2]]) and same_points(on_b, on_a)
    assert np.allclose(normal, UP, atol=TOLERANCE) and np.allclose(separation, 0.0, atol=TOLERANCE)
    # and the other way round: the face of B is the reference, the edge of A the incident
    on_a, _, normal, _, _ = collide(kernels.box_box, edge_down, turned([1, 0, 0], np.pi / 4), HALF, ORIGIN, IDENTITY,
                                    HALF)
    assert same_points(on_a, [[-0.2, 0.0, 0.2], [0.2, 0.0, 0.2]]) and np.allclose(normal, -UP, atol=TOLERANCE)


@pytest.mark.parametrize("gap", [0.0, 5e-4])
@pytest.mark.parametrize("crossing", [np.pi / 2, np.pi / 3])
def test_boxes_crossed_edge_to_edge_touch_at_one_point_between_the_edges(gap, crossing):
    """A turned 45 degrees about x (top edge along x at z = 0.2 sqrt 2), B turned about y so its
    lowest edge runs across, at `crossing` to A's."""
    frame_a = turned([1, 0, 0], np.pi / 4)
    frame_b = turned(UP, crossing - np.pi / 2) @ turned([0, 1, 0], np.pi / 4)
    top = 0.2 * ROOT2
    on_a, on_b, normal, separation, _ = collide(kernels.box_box, ORIGIN, frame_a, HALF,
                                                np.array([0.0, 0.0, 2 * top + gap]), frame_b, HALF)
    assert same_points(on_a, [[0.0, 0.0, top]]) and same_points(on_b, [[0.0, 0.0, top + gap]])
    assert np.allclose(normal, UP, atol=TOLERANCE) and separation == pytest.approx([gap], abs=TOLERANCE)


def test_boxes_overlapping_by_3_mm_report_it_as_their_separation():
    on_a, on_b, normal, separation, _ = collide(kernels.box_box, *stacked((0.0, 0.0, 0.397)))
    assert np.allclose(separation, -0.003, atol=TOLERANCE) and np.allclose(normal, UP, atol=TOLERANCE)
    assert same_points(on_b, [[x, y, 0.197] for x in (-0.2, 0.2) for y in (-0.2, 0.2)])
    assert np.allclose(np.einsum("ki,i->k", on_b - on_a, normal), separation, atol=TOLERANCE)


def test_shapes_apart_beyond_the_margin_make_no_contact_and_within_it_do():
    assert len(collide(kernels.box_box, *stacked((0.0, 0.0, 0.4 + 2 * MARGIN)))[0]) == 0
    _, _, _, separation, _ = collide(kernels.box_box, *stacked((0.0, 0.0, 0.4 + 0.5 * MARGIN)))
    assert np.allclose(separation, 0.5 * MARGIN, atol=TOLERANCE) and len(separation) == 4
    far = np.array([0.0, 0.0, 0.4 + 2 * MARGIN])
    sphere_far = np.array([far, far]) + [0.0, 0.0, -0.1]
    apart = [(kernels.hull_hull, ORIGIN, IDENTITY, CUBE, far, IDENTITY, CUBE),
             (kernels.hull_box, ORIGIN, IDENTITY, CUBE, far, IDENTITY, HALF),
             (kernels.box_capsule, ORIGIN, IDENTITY, HALF, sphere_far, 0.1),
             (kernels.hull_capsule, ORIGIN, IDENTITY, CUBE, sphere_far, 0.1),
             (kernels.capsule_capsule, np.zeros((2, 3)), 0.1, sphere_far - [0, 0, 0.1], 0.1),
             (kernels.plane_box, ORIGIN, UP, far - [0, 0, 0.2], IDENTITY, HALF),
             (kernels.plane_capsule, ORIGIN, UP, sphere_far - [0, 0, 0.2], 0.1),
             (kernels.triangle_box, _FLOOR[0], 0, far - [0, 0, 0.2], IDENTITY, HALF)]
    for kernel, *shapes in apart:
        assert len(collide(kernel, *shapes)[0]) == 0, kernel


def test_a_capsule_lying_across_a_box_edge_touches_the_edge_at_one_point():
    radius, slope = 0.05, np.pi / 6
    axis = np.array([np.cos(slope), 0.0, -np.sin(slope)])  # down over the edge at x = 0.2, z = 0.2
    across = np.array([np.sin(slope), 0.0, np.cos(slope)])
    centre = np.array([0.2, 0.0, 0.2]) + radius * across
    on_a, on_b, normal, separation, _ = collide(kernels.box_capsule, ORIGIN, IDENTITY, HALF,
                                                np.array([centre - 0.15 * axis, centre + 0.15 * axis]), radius)
    assert same_points(on_a, [[0.2, 0.0, 0.2]]) and same_points(on_b, on_a)
    assert np.allclose(normal, across, atol=TOLERANCE) and np.allclose(separation, 0.0, atol=TOLERANCE)


@pytest.mark.parametrize("ends, expected", [
    ([[-0.1, 0.0, 0.25], [0.1, 0.0, 0.25]], [[-0.1, 0.0, 0.2], [0.1, 0.0, 0.2]]),  # on the face
    ([[0.1, 0.0, 0.25], [0.35, 0.0, 0.25]], [[0.1, 0.0, 0.2], [0.2, 0.0, 0.2]]),  # over the rim: cut at the side
    # across the whole face, both ends beyond it: the face at both rims, not one of the edges it crosses
    ([[-0.25, 0.0, 0.25], [0.35, 0.0, 0.25]], [[-0.2, 0.0, 0.2], [0.2, 0.0, 0.2]]),
])
def test_a_capsule_lying_along_a_box_face_touches_at_two_points(ends, expected):
    on_a, on_b, normal, separation, _ = collide(kernels.box_capsule, ORIGIN, IDENTITY, HALF, np.array(ends), 0.05)
    assert same_points(on_a, expected) and same_points(on_b, expected)
    assert np.allclose(normal, UP, atol=TOLERANCE) and np.allclose(separation, 0.0, atol=TOLERANCE)


def test_a_capsule_lying_along_a_box_edge_touches_at_two_points():
    out = np.array([1.0, 0.0, 1.0]) / ROOT2
    ends = np.array([[0.2, -0.1, 0.2], [0.2, 0.1, 0.2]]) + 0.05 * out
    on_a, _, normal, separation, _ = collide(kernels.box_capsule, ORIGIN, IDENTITY, HALF, ends, 0.05)
    assert same_points(on_a, [[0.2, -0.1, 0.2], [0.2, 0.1, 0.2]])
    assert np.allclose(normal, out, atol=TOLERANCE) and np.allclose(separation, 0.0, atol=TOLERANCE)


def test_a_capsule_sunk_into_a_box_is_pushed_out_through_the_nearest_face():
    ends = np.array([[-0.1, 0.0, 0.19], [0.1, 0.0, 0.19]])
    on_a, on_b, normal, separation, _ = collide(kernels.box_capsule, ORIGIN, IDENTITY, HALF, ends, 0.05)
    assert same_points(on_a, [[-0.1, 0.0, 0.2], [0.1, 0.0, 0.2]]) and same_points(on_b, on_a - [0, 0, 0.06])
    assert np.allclose(normal, UP, atol=TOLERANCE) and np.allclose(separation, -0.06, atol=TOLERANCE)


def test_a_capsule_sunk_across_a_box_edge_is_pushed_out_across_the_edge():
    """Its axis crosses under the edge, out through the top and the side: the separating axis is
    the cross product of the axis and the edge, not a face normal."""
    radius, depth = 0.05, 0.01
    axis = np.array([1.0, 0.0, -1.0]) / ROOT2
    through = np.array([0.2 - depth, 0.0, 0.2 - depth])
    on_a, on_b, normal, separation, _ = collide(kernels.box_capsule, ORIGIN, IDENTITY, HALF,
                                                np.array([through - 0.3 * axis, through + 0.3 * axis]), radius)
    out = np.array([1.0, 0.0, 1.0]) / ROOT2
    assert same_points(on_a, [[0.2, 0.0, 0.2]]) and same_points(on_b, [through - radius * out])
    assert np.allclose(normal, out, atol=TOLERANCE) and separation == pytest.approx([-ROOT2 * depth - radius])


def test_parallel_capsules_touch_along_their_overlap_and_crossed_ones_at_one_point():
    radius = 0.05
    lower = np.array([[-0.2, 0.0, 0.0], [0.2, 0.0, 0.0]])
    on_a, on_b, normal, separation, _ = collide(kernels.capsule_capsule, lower, radius,
                                                np.array([[-0.1, 0.0, 0.1], [0.3, 0.0, 0.1]]), radius)
    assert same_points(on_a, [[-0.1, 0.0, 0.05], [0.2, 0.0, 0.05]]) and same_points(on_b, on_a)
    assert np.allclose(normal, UP, atol=TOLERANCE) and np.allclose(separation, 0.0, atol=TOLERANCE)
    on_a, _, normal, separation, _ = collide(kernels.capsule_capsule, lower, radius,
                                             np.array([[0.05, -0.2, 0.099], [0.05, 0.2, 0.099]]), radius)
    assert same_points(on_a, [[0.05, 0.0, 0.05]]) and np.allclose(normal, UP, atol=TOLERANCE)
    assert separation == pytest.approx([-0.001], abs=TOLERANCE)


def test_spheres_and_a_sphere_on_a_capsule_touch_at_one_point():
    centre = np.zeros((2, 3))
    on_a, on_b, normal, separation, _ = collide(kernels.capsule_capsule, centre, 0.1, centre + [0.0, 0.2505, 0.0], 0.15)
    assert same_points(on_a, [[0, 0.1, 0]]) and same_points(on_b, [[0, 0.1005, 0]])
    assert np.allclose(normal, [0, 1, 0]) and separation == pytest.approx([5e-4])
    axis = np.array([[-0.2, 0.0, 0.0], [0.2, 0.0, 0.0]])
    on_a, _, normal, separation, _ = collide(kernels.capsule_capsule, axis, 0.1, centre + [0.1, 0.0, 0.2], 0.1)
    assert same_points(on_a, [[0.1, 0.0, 0.1]]) and np.allclose(normal, UP) and np.allclose(separation, 0.0)


@pytest.mark.parametrize("kernel, shape", [(kernels.box_capsule, HALF), (kernels.hull_capsule, CUBE)])
@pytest.mark.parametrize("where", ["face", "edge", "corner"])
def test_a_sphere_against_a_box_face_edge_and_corner(kernel, shape, where):
    touching = {"face": [0.05, -0.1, 0.2], "edge": [0.2, 0.03, 0.2], "corner": [0.2, 0.2, 0.2]}[where]
    out = {"face": [0, 0, 1.0], "edge": [1.0, 0, 1.0], "corner": [1.0, 1.0, 1.0]}[where]
    out = np.array(out) / np.linalg.norm(out)
    gap = 2e-4
    centre = np.array(touching) + (0.1 + gap) * out
    frame = turned([1, 2, 3], 0.7)  # the same scene turned and moved: the kernels work in any frame
    shift = np.array([1.0, -2.0, 0.5])
    ends = np.array([centre, centre]) @ frame.T + shift
    on_a, on_b, normal, separation, _ = collide(kernel, shift, frame, shape, ends, 0.1)
    assert same_points(on_a, [frame @ touching + shift], 1e-12) and same_points(on_b, [frame @ (touching + gap * out)
                                                                                      + shift], 1e-12)
    assert np.allclose(normal, frame @ out, atol=TOLERANCE) and separation == pytest.approx([gap], abs=1e-12)


def test_hull_cubes_collide_as_boxes_do():
    rng = np.random.default_rng(8)
    poses = [stacked()[3:5], stacked((0.2, 0, 0.4))[3:5], stacked(rotation=turned(UP, np.pi / 4))[3:5],
             ((0.0, 0.0, 0.2 + 0.2 * ROOT2), turned([1, 0, 0], np.pi / 4))]
    poses += [(rng.normal(size=3) * 0.25, turned(rng.normal(size=3), rng.uniform(0, np.pi))) for _ in range(200)]
    compared = 0
    for offset, rotation in poses:
        offset = np.asarray(offset, dtype=float)
        boxes = collide(kernels.box_box, ORIGIN, IDENTITY, HALF, offset, rotation, HALF)
        hulls = collide(kernels.hull_hull, ORIGIN, IDENTITY, CUBE, offset, rotation, CUBE)
        mixed = collide(kernels.hull_box, ORIGIN, IDENTITY, CUBE, offset, rotation, HALF)
        for other in (hulls, mixed):
            assert len(other[0]) == len(boxes[0])
            if len(boxes[0]):
                compared += 1
                assert np.allclose(other[2], boxes[2], atol=1e-9)
                assert same_points(other[0], boxes[0], 1e-9) and same_points(other[1], boxes[1], 1e-9)
    assert compared > 100


def test_every_point_lies_on_both_surfaces_and_its_separation_along_the_normal():
    """Random boxes near one another: each point of A on A's surface, of B on B's, and
    (point_b - point_a) . normal its separation."""
    rng = np.random.default_rng(3)
    found = 0
    for _ in range(300):
        half_a, half_b = rng.uniform(0.05, 0.3, 3), rng.uniform(0.05, 0.3, 3)
        frame_a, frame_b = _random_rotation(rng), _random_rotation(rng)
        origin_a = rng.normal(size=3)
        origin_b = origin_a + rng.normal(size=3) * 0.3
        on_a, on_b, normal, separation, features = collide(kernels.box_box, origin_a, frame_a, half_a,
                                                           origin_b, frame_b, half_b, margin=0.01)
        found += len(on_a) > 0
        assert np.linalg.norm(normal) == pytest.approx(1.0) if len(on_a) else True
        assert np.allclose(np.einsum("ki,i->k", on_b - on_a, normal), separation, atol=1e-12)
        assert len(set(features)) == len(features)
        for points, origin, frame, half in ((on_a, origin_a, frame_a, half_a), (on_b, origin_b, frame_b, half_b)):
            local = (points - origin) @ frame
            outside = (np.abs(local) - half).max(axis=1)  # 0 on the surface
            assert np.all(np.abs(outside) < 1e-9), outside
    assert found > 50


def test_hull_and_capsule_points_lie_on_their_surfaces():
    """Random hulls against hulls and capsules near them: A's points on A's surface (the largest
    face-plane height is 0), B's on B's (a capsule's at its radius from the axis)."""
    rng = np.random.default_rng(4)
    found = 0
    for trial in range(200):
        hull_a = hull_polyhedron(rng.normal(size=(rng.integers(6, 40), 3)) * rng.uniform(0.05, 0.3, 3))
        hull_b = hull_polyhedron(rng.normal(size=(rng.integers(6, 40), 3)) * rng.uniform(0.05, 0.3, 3))
        frame_a, frame_b = _random_rotation(rng), _random_rotation(rng)
        origin_a, origin_b = rng.normal(size=3), rng.normal(size=3)
        origin_b = origin_a + 0.4 * (origin_b - origin_a) / np.linalg.norm(origin_b - origin_a) * rng.uniform(0.2, 1.2)
        ends = origin_b + np.outer([-1.0, 1.0], rng.normal(size=3) * 0.2 * (trial % 4 > 0))
        radius = rng.uniform(0.02, 0.2)
        for kernel, shape_b in ((kernels.hull_hull, (origin_b, frame_b, hull_b)),
                                (kernels.hull_capsule, (ends, radius))):
            on_a, on_b, normal, separation, features = collide(kernel, origin_a, frame_a, hull_a, *shape_b, margin=0.01)
            found += len(on_a) > 0
            assert np.allclose(np.einsum("ki,i->k", on_b - on_a, normal), separation, atol=1e-12)
            assert len(set(features)) == len(features)
            assert np.all(np.abs(_height(hull_a, origin_a, frame_a, on_a)) < 1e-9)
            if kernel is kernels.hull_hull:
                assert np.all(np.abs(_height(hull_b, origin_b, frame_b, on_b)) < 1e-9)
            else:
                axis = ends[1] - ends[0]
                along = np.clip((on_b - ends[0]) @ axis / max(axis @ axis, 1e-300), 0.0, 1.0)
                # one point is on the surface; of two along a face the higher lies inside the capsule by
                # r (1 - cos) of its tilt to the face, as a radius taken along the shared normal does
                from_axis = np.linalg.norm(on_b - ends[0] - np.outer(along, axis), axis=1)
                assert np.all(from_axis <= radius + 1e-12)
                assert len(on_b) != 1 or from_axis[0] == pytest.approx(radius, abs=1e-9)
    assert found > 100


def test_overlapping_hulls_always_touch():
    """However deep the overlap (here up to a third of the hulls' size), some point is reported:
    where the incident face clips away beside a small reference face, its deepest corner is."""
    rng = np.random.default_rng(12)
    hulls = [hull_polyhedron(rng.normal(size=(rng.integers(4, 20), 3)) * rng.uniform(0.05, 0.3, 3)) for _ in range(30)]
    overlapping = 0
    for _ in range(1500):
        hull_a, hull_b = hulls[rng.integers(30)], hulls[rng.integers(30)]
        frame_a, frame_b = turned(rng.normal(size=3), rng.uniform(0, 3)), turned(rng.normal(size=3), rng.uniform(0, 3))
        origin_b = rng.normal(size=3) * 0.25
        count = kernels.hull_hull(ORIGIN, frame_a, hull_a, origin_b, frame_b, hull_b, MARGIN, empty_manifold())
        if _separation(hull_a, frame_a, ORIGIN, hull_b, frame_b, origin_b) < -1e-6:
            overlapping += 1
            assert count > 0
    assert overlapping > 300


def test_a_box_on_a_plane_touches_at_its_four_lower_corners():
    lift = np.array([0.3, -0.2, 0.2])
    on_a, on_b, normal, separation, features = collide(kernels.plane_box, ORIGIN, UP, lift, turned(UP, 0.4), HALF)
    corners = [turned(UP, 0.4) @ [x, y, -0.2] + lift for x in (-0.2, 0.2) for y in (-0.2, 0.2)]
    assert same_points(on_b, corners) and same_points(on_a, corners)
    assert np.allclose(normal, UP) and np.allclose(separation, 0.0, atol=TOLERANCE)
    assert sorted(features >> 31) == [FACE] * 4


_FLOOR = np.array([[[-1.0, -1.0, 0.0], [1.0, -1.0, 0.0], [1.0, 1.0, 0.0]],
                   [[-1.0, -1.0, 0.0], [1.0, 1.0, 0.0], [-1.0, 1.0, 0.0]]])


@pytest.mark.parametrize("shape_kernel, shape", [(kernels.triangle_box, HALF), (kernels.triangle_hull, CUBE)])
def test_a_box_on_a_two_triangle_floor_touches_at_its_four_lower_corners(shape_kernel, shape):
    """The floor's diagonal runs under the box: each triangle gives the corners over it and the
    points where the diagonal cuts the box's sides, and the two manifolds merge into the corners."""
    lift = np.array([0.1, 0.05, 0.2])
    manifold = empty_manifold()
    count = 0
    for index, corners in enumerate(_FLOOR):
        part = empty_manifold()
        found = shape_kernel(corners[::-1] if index else corners, index, lift, IDENTITY, shape, MARGIN, part)
        assert found >= 3
        count = kernels.merge_manifolds(manifold, count, part, found)
    corners = [[x + 0.1, y + 0.05, 0.0] for x in (-0.2, 0.2) for y in (-0.2, 0.2)]
    assert count == 4 and same_points(manifold.point_a[:4], corners) and same_points(manifold.point_b[:4], corners)
    assert np.allclose(manifold.normal, UP) and np.allclose(manifold.separation, 0.0, atol=TOLERANCE)


def test_a_sphere_and_a_capsule_on_a_floor():
    on_a, _, normal, separation, _ = collide(kernels.plane_capsule, ORIGIN, UP, np.array([[0.3, 0.0, 0.1]] * 2), 0.1)
    assert same_points(on_a, [[0.3, 0.0, 0.0]]) and np.allclose(separation, 0.0)
    ends = np.array([[0.2, -0.5, 0.099], [0.6, -0.5, 0.099]])
    for kernel, floor in ((kernels.plane_capsule, (ORIGIN, UP)), (kernels.triangle_capsule, (_FLOOR[0], 7))):
        on_a, _, normal, separation, features = collide(kernel, *floor, ends, 0.1)
        assert same_points(on_a, [[0.2, -0.5, 0.0], [0.6, -0.5, 0.0]]) and np.allclose(normal, UP)
        assert np.allclose(separation, -0.001)


def test_a_triangle_is_met_from_the_side_a_shape_is_on():
    ends = np.array([[0.5, -0.5, -0.2]] * 2)
    _, _, normal, separation, _ = collide(kernels.triangle_capsule, _FLOOR[0], 0, ends, 0.2005)
    assert np.allclose(normal, -UP) and separation == pytest.approx([-5e-4])
    _, _, normal, separation, _ = collide(kernels.triangle_box, _FLOOR[0], 0, np.array([0.5, -0.5, -0.2]), IDENTITY,
                                          HALF)
    assert np.allclose(normal, -UP) and np.allclose(separation, 0.0, atol=TOLERANCE)


def test_a_capsule_through_a_triangle_leaves_past_its_nearest_edge_and_one_beside_it_touches_the_edge():
    radius = 0.05
    upright = np.array([[0.0, 0.0, -0.5], [0.0, 0.0, 0.5]])  # deeper through the plane than beside the edge
    on_a, on_b, normal, separation, _ = collide(kernels.triangle_capsule, _FLOOR[0], 0, upright + [0.7, -0.5, 0.0],
                                                radius)
    assert same_points(on_a, [[1.0, -0.5, 0.0]]) and same_points(on_b, [[0.65, -0.5, 0.0]])
    assert np.allclose(normal, [1.0, 0.0, 0.0], atol=TOLERANCE) and separation == pytest.approx([-0.35])
    # beside the edge x = 1 the axis crosses the triangle's plane but not the triangle
    on_a, on_b, normal, separation, _ = collide(kernels.triangle_capsule, _FLOOR[0], 0, upright + [1.04, -0.5, 0.0],
                                                radius)
    assert same_points(on_a, [[1.0, -0.5, 0.0]]) and np.allclose(normal, [1.0, 0.0, 0.0], atol=TOLERANCE)
    assert separation == pytest.approx([-0.01])


def test_flipping_a_manifold_swaps_the_shapes():
    manifold = empty_manifold()
    count = kernels.box_box(*stacked((0.0, 0.0, 0.39)), MARGIN, manifold)
    before = (manifold.point_a.copy(), manifold.point_b.copy(), manifold.feature.copy())
    kernels.flip_manifold(manifold, count)
    assert np.allclose(manifold.normal, -UP) and np.allclose(manifold.point_a, before[1])
    assert np.allclose(manifold.separation, -0.01)
    kernels.flip_manifold(manifold, count)
    assert np.array_equal(manifold.feature, before[2])


@pytest.mark.parametrize("kernel, shapes", [
    (kernels.box_box, stacked()),
    (kernels.box_box, stacked((0.2, 0.0, 0.4))),
    (kernels.hull_hull, (ORIGIN, IDENTITY, CUBE, np.array([0.0, 0.0, 0.4]), IDENTITY, CUBE)),
    (kernels.hull_box, (ORIGIN, IDENTITY, CUBE, np.array([0.0, 0.0, 0.4]), IDENTITY, HALF)),
    (kernels.box_box, stacked((0.0, 0.0, 0.2 + 0.2 * ROOT2), turned([1, 0, 0], np.pi / 4))),
    (kernels.plane_box, (ORIGIN, UP, np.array([0.0, 0.0, 0.2]), IDENTITY, HALF)),
    (kernels.box_capsule, (ORIGIN, IDENTITY, HALF, np.array([[-0.1, 0.0, 0.25], [0.1, 0.0, 0.25]]), 0.05)),
])
def test_the_features_of_a_resting_stack_hold_under_a_jiggle_of_a_micrometre(kernel, shapes):
    """Feature ids name the touching features, not the points: a resting stack perturbed by 1e-6 m
    and 1e-6 rad keeps every id, so impulses can be warm-started."""
    _, _, _, _, resting = collide(kernel, *shapes)
    rng = np.random.default_rng(1)
    for _ in range(20):
        jiggled = list(shapes)
        position, frame = (3, 4) if kernel is not kernels.plane_box else (2, 3)
        if kernel is kernels.box_capsule:
            jiggled[3] = shapes[3] + rng.normal(size=(2, 3)) * 1e-6
        else:
            jiggled[position] = shapes[position] + rng.normal(size=3) * 1e-6
            jiggled[frame] = turned(rng.normal(size=3), 1e-6) @ shapes[frame]
        _, _, _, _, features = collide(kernel, *jiggled)
        assert sorted(features) == sorted(resting)


def test_the_kernels_run_as_plain_python_to_the_same_manifolds():
    """NUMBA_DISABLE_JIT=1 runs the same kernels uncompiled (for debugging), with the same results."""
    root = pathlib.Path(__file__).resolve().parents[2]
    script = ("import json, sys; sys.path[:0] = [sys.argv[1] + '/tools', sys.argv[1] + '/tests/solver']\n"
              "from checkout import import_checkout_as_mechbake; import_checkout_as_mechbake()\n"
              "from manifold_cases import some_manifolds; print(json.dumps(some_manifolds()))")
    result = subprocess.run([sys.executable, "-c", script, str(root)], capture_output=True, text=True,
                            env=dict(os.environ, NUMBA_DISABLE_JIT="1"), check=True)
    plain = json.loads(result.stdout.strip().splitlines()[-1])
    assert [len(case[0]) for case in plain] == [4, 4, 2]
    for compiled, uncompiled in zip(some_manifolds(), plain):
        for ours, theirs in zip(compiled, uncompiled):
            assert np.allclose(np.array(ours), np.array(theirs), atol=1e-12)


def test_a_hull_polyhedron_is_closed_and_its_arcs_bound_the_edges_normals():
    cube = box_polyhedron(HALF)
    assert (len(cube.vertices), len(cube.face_normal), len(cube.edge_vertex)) == (8, 6, 12)
    rng = np.random.default_rng(5)
    for points in (rng.normal(size=(200, 3)), np.round(rng.uniform(-1, 1, (300, 3)) * 2) / 2):
        hull = hull_polyhedron(points)
        used = len(np.unique(hull.face_vertex))
        assert used - len(hull.edge_vertex) + len(hull.face_normal) == 2  # Euler
        assert (hull.vertices @ hull.face_normal.T - hull.face_offset).max() <= 1e-12
        # both face normals of an edge lie on its arc
        for edge, (u, v) in enumerate(hull.edge_vertex):
            faces = [f for f in range(len(hull.face_normal))
                     if {u, v} <= set(hull.face_vertex[hull.face_start[f]:hull.face_start[f + 1]])]
            assert len(faces) == 2
            assert (hull.face_normal[faces] @ hull.edge_arc[edge].T).min() > -1e-9


def _area(points) -> float:
    """Area of the convex polygon of points in a plane z = const."""
    centre = points.mean(axis=0)
    order = np.argsort(np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0]))
    x, y = points[order, 0], points[order, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def _random_rotation(rng) -> np.ndarray:
    return turned(rng.normal(size=3), rng.uniform(0, np.pi))


def _height(hull, origin, frame, points) -> np.ndarray:
    """How far each world point lies outside the hull's face planes (0 on its surface)."""
    local = (points - origin) @ frame
    return (local @ hull.face_normal.T - hull.face_offset).max(axis=1) if len(points) else np.zeros(0)


def _separation(hull_a, frame_a, origin_a, hull_b, frame_b, origin_b) -> float:
    """The separating axis test by brute force: the largest gap between two hulls along every face
    normal of either and every cross product of their edges, by projecting all their corners."""
    corners_a, corners_b = hull_a.vertices @ frame_a.T + origin_a, hull_b.vertices @ frame_b.T + origin_b
    edges_a = corners_a[hull_a.edge_vertex[:, 1]] - corners_a[hull_a.edge_vertex[:, 0]]
    edges_b = corners_b[hull_b.edge_vertex[:, 1]] - corners_b[hull_b.edge_vertex[:, 0]]
    crossed = np.cross(edges_a[:, None], edges_b[None]).reshape(-1, 3)
    length = np.linalg.norm(crossed, axis=1)
    axes = np.vstack((hull_a.face_normal @ frame_a.T, hull_b.face_normal @ frame_b.T,
                      crossed[length > 1e-9] / length[length > 1e-9, None]))
    along_a, along_b = corners_a @ axes.T, corners_b @ axes.T
    return float(np.maximum(along_b.min(axis=0) - along_a.max(axis=0), along_a.min(axis=0) - along_b.max(axis=0)).max())
