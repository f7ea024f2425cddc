"""Quickhull: the same planes as testing every vertex triple, in O(n log n), and simplified hulls
whose corners are a bounded set of the points."""
import itertools
import math
import re
import time

import numpy as np
import pytest

from mechbake.solver import Model, ModelError, Simulation
from mechbake.solver.contact.hull import convex_hull, spans_volume
from mechbake.solver.contact.shapes import MAX_HULL_VERTICES
from mechbake.solver.rotation import quaternion_to_matrix
from scenes import scene


def uv_sphere(radius=1.0, segments=32, rings=16) -> np.ndarray:
    """Blender's default UV sphere: 482 vertices."""
    points = [[0.0, 0.0, radius], [0.0, 0.0, -radius]]
    for ring in range(1, rings):
        polar = math.pi * ring / rings
        for segment in range(segments):
            around = 2 * math.pi * segment / segments
            points.append([radius * math.sin(polar) * math.cos(around), radius * math.sin(polar) * math.sin(around),
                           radius * math.cos(polar)])
    return np.array(points)


def planes_of_every_triple(points: np.ndarray) -> np.ndarray:
    """The reference: every vertex triple whose plane has all points on one side, as (n, d) rows."""
    planes = []
    for a, b, c in itertools.combinations(points, 3):
        normal = np.cross(b - a, c - a)
        if np.linalg.norm(normal) < 1e-9:
            continue
        normal /= np.linalg.norm(normal)
        sides = points @ normal - normal @ a
        if sides.max() <= 1e-9:
            planes.append(np.r_[normal, normal @ a])
        elif sides.min() >= -1e-9:
            planes.append(np.r_[-normal, -normal @ a])
    return np.unique(np.round(np.array(planes), 8), axis=0)


@pytest.mark.parametrize("seed", range(6))
def test_hull_has_the_planes_of_every_supporting_triple(seed):
    rng = np.random.default_rng(seed)
    points = rng.standard_normal((18, 3)) * [1.0, 2.0, 0.5] + rng.uniform(-100, 100, 3)
    if seed % 2:  # with coplanar points and repeats: a box's corners and face centres
        box = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)
        points = np.vstack((box, box[:3], np.eye(3), -np.eye(3), 0.5 * box))
    hull = convex_hull(points)
    ours = np.unique(np.round(np.column_stack((hull.normals, hull.offsets)), 8), axis=0)
    assert np.array_equal(ours, planes_of_every_triple(points))
    corners_of_reference = {tuple(p) for p in points if _planes_through(p, planes_of_every_triple(points)) >= 3}
    assert {tuple(p) for p in hull.vertices} == corners_of_reference
    assert hull.omitted_depth == 0.0


def _planes_through(point, planes) -> int:
    return int(np.sum(np.abs(planes[:, :3] @ point - planes[:, 3]) < 1e-6))


@pytest.mark.parametrize("points", [
    uv_sphere(),
    np.random.default_rng(1).standard_normal((20000, 3)),
    np.array([[x, y, z] for x in np.linspace(0, 1, 9) for y in np.linspace(0, 1, 9) for z in np.linspace(0, 1, 9)]),
    0.02 * uv_sphere() + [200.0, -50.0, 3.0],  # small and far from the origin
], ids=["uv sphere", "gaussian cloud", "grid of coplanar points", "2 cm sphere at 200 m"])
def test_hull_holds_every_point_and_every_face_is_a_face(points):
    hull = convex_hull(points)
    size = np.ptp(points, axis=0).max()
    heights = points @ hull.normals.T - hull.offsets
    assert heights.max() <= 1e-9 * size  # every point inside or on
    on_face = np.abs(hull.vertices @ hull.normals.T - hull.offsets) <= 1e-9 * size
    assert on_face.sum(axis=0).min() >= 3 and on_face.sum(axis=1).min() >= 3  # planes of faces, corners of planes


def test_the_default_uv_sphere_is_quick():
    """Blender's default UV sphere (482 vertices) gets its hull in under 2 s, its quads merged."""
    start = time.perf_counter()
    hull = convex_hull(uv_sphere())
    assert time.perf_counter() - start < 2.0
    assert len(hull.vertices) == 482 and len(hull.normals) == 32 * 14 + 64  # quads merged, two fans of triangles


def test_simplified_hull_keeps_the_points_furthest_out():
    points = uv_sphere()
    hull = convex_hull(points, MAX_HULL_VERTICES)
    assert len(hull.vertices) == MAX_HULL_VERTICES
    assert {tuple(p) for p in hull.vertices} <= {tuple(p) for p in points}
    heights = (points @ hull.normals.T - hull.offsets).max(axis=1)
    assert heights.max() == pytest.approx(hull.omitted_depth, rel=1e-9)  # it says what it left out
    assert hull.omitted_depth < 0.06  # of a radius of 1
    assert len(convex_hull(points, 8).vertices) == 8


def test_flat_and_collinear_points_span_no_volume():
    square = np.array([[x, y, 0.0] for x in (0, 1) for y in (0, 1)] + [[0.5, 0.5, 1e-12]])
    assert not spans_volume(square)
    assert not spans_volume(np.outer(np.arange(6.0), [1, 2, 3]))
    assert spans_volume(0.02 * uv_sphere() + 200.0)
    with pytest.raises(ValueError, match="do not span a volume"):
        convex_hull(square)


def sphere_hull_body(name="ball", position=(0, 0, 0.5), **extra) -> dict:
    return {"name": name, "mass": 1.0, "inertia": [0.4 * 0.1 * 0.1] * 3, "position": list(position),
            "shape": {"type": "convex", "vertices": (0.1 * uv_sphere()).tolist()}, **extra}


def test_a_uv_sphere_body_validates_quickly_with_a_bounded_hull():
    data = {**scene([sphere_hull_body()], []),
            "obstacles": [{"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}]}
    start = time.perf_counter()
    model = Model.from_dict(data)
    assert time.perf_counter() - start < 2.0
    shapes = model.contacts.shapes
    corners = shapes.hull_vertices[shapes.hull_first_vertex[0]:shapes.hull_first_vertex[1]]
    faces = shapes.hull_first_face[1] - shapes.hull_first_face[0]
    assert list(shapes.body) == [1] and len(corners) == MAX_HULL_VERTICES and faces <= 2 * MAX_HULL_VERTICES - 4
    sim = Simulation(model)
    sim.run(0.5)  # it falls onto the floor and rests there on its hull's corners
    hull = sim.state.frames.points(np.ones(len(corners), dtype=int), corners)
    assert hull[:, 2].min() > -1e-6
    mesh = sim.position("ball") + 0.1 * uv_sphere() @ quaternion_to_matrix(sim.orientation("ball")).T
    assert mesh[:, 2].min() > -0.06 * 0.1  # the sphere's own vertices sink at most the hull's omitted depth


@pytest.mark.parametrize("far, message", [
    (1e25, "must span a volume"),  # the rest collapses to a needle at this scale
    (1e300, "must be finite and at most 1e+30 in size"),  # would make a hull of no faces
])
def test_a_hull_too_large_for_its_detail_is_named(far, message):
    body = sphere_hull_body()
    body["shape"]["vertices"][0] = [far, 0.0, 0.0]
    with pytest.raises(ModelError, match=re.escape(f"body 'ball', shape: field 'vertices' {message}")):
        Model.from_dict(scene([body], []))
