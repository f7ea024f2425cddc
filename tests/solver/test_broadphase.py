"""The triangle BVH: exactly the triangles whose boxes meet a query box, built in one sort whatever
the spread of triangle sizes."""
import time

import numpy as np
import pytest

from mechbake.solver import Model, Simulation
from mechbake.solver.contact.mesh_bvh import LEAF_SIZE, TriangleBVH
from scenes import grid_mesh, scene


def brute_force(corners, low, high) -> np.ndarray:
    return np.flatnonzero(np.all(corners.min(axis=1) <= high, axis=1) & np.all(corners.max(axis=1) >= low, axis=1))


@pytest.mark.parametrize("count", [1, 3, LEAF_SIZE, LEAF_SIZE + 1, 17, 2000])
def test_query_finds_exactly_the_triangles_whose_boxes_meet(count):
    rng = np.random.default_rng(count)
    centres = rng.uniform(-10, 10, (count, 1, 3))
    sizes = rng.choice([1e-3, 0.1, 5.0, 30.0], size=(count, 1, 1))  # tiny to larger than the scene
    vertices = (centres + sizes * rng.standard_normal((count, 3, 3))).reshape(-1, 3)
    bvh = TriangleBVH.build(vertices, np.arange(3 * count).reshape(count, 3))
    low = rng.uniform(-12, 12, (300, 3))
    high = low + rng.uniform(0, 2, (300, 3)) ** 3
    offsets, found = bvh.near(low, high)
    assert offsets[0] == 0 and offsets[-1] == len(found)
    for q in range(len(low)):
        assert np.array_equal(np.sort(found[offsets[q]:offsets[q + 1]]), brute_force(bvh.corners, low[q], high[q]))


def test_tree_arrays_have_their_documented_shapes():
    vertices = np.random.default_rng(0).standard_normal((30, 3))
    bvh = TriangleBVH.build(vertices, np.arange(30).reshape(10, 3))
    leaves = bvh.first_leaf + 1
    assert leaves == 4 and bvh.node_low.shape == bvh.node_high.shape == (2 * leaves - 1, 3)
    assert sorted(bvh.order) == list(range(10))
    root = bvh.corners.reshape(-1, 3)
    assert np.array_equal(bvh.node_low[0], root.min(axis=0)) and np.array_equal(bvh.node_high[0], root.max(axis=0))
    assert (bvh.node_start[0], bvh.node_stop[0]) == (0, 10)
    assert np.all(bvh.node_low[-1] == np.inf)  # the fourth leaf is empty: a box that meets nothing


def box_body(name, position, size=0.1) -> dict:
    return {"name": name, "mass": 1.0, "inertia": [size * size / 6] * 3, "position": list(position),
            "shape": {"type": "box", "size": [size] * 3}, "friction": 0.8}


def test_a_40_m_floor_with_1_cm_detail_validates_quickly_and_holds_bodies():
    """A 40 m floor beside 20 000 triangles of 1 cm validates in under 2 s and holds a box on each: the
    mesh's BVH puts each large triangle in one leaf, not in every 1 cm cell it covers (contact/mesh_bvh.py)."""
    floor = grid_mesh(2, 40.0)
    detail = grid_mesh(101, 1.0, height=0.02, centre=(5.0, 5.0))  # 20 000 triangles of 1 cm
    vertices = np.concatenate((floor[0], detail[0]))
    triangles = np.concatenate((floor[1], detail[1] + len(floor[0])))
    data = {**scene([box_body("on_detail", (5.1, 4.9, 0.2)), box_body("on_floor", (-3.0, 2.0, 0.2))], [], h=0.01),
            "obstacles": [{"name": "ground", "type": "mesh", "vertices": vertices.tolist(),
                           "triangles": triangles.tolist(), "friction": 0.8}]}
    start = time.perf_counter()
    model = Model.from_dict(data)
    assert time.perf_counter() - start < 2.0
    sim = Simulation(model)
    sim.run(0.6)
    assert sim.position("on_detail")[2] == pytest.approx(0.02 + 0.05, abs=1e-6)
    assert sim.position("on_floor")[2] == pytest.approx(0.05, abs=1e-6)


def test_a_million_triangle_obstacle_validates_in_seconds():
    vertices, triangles = grid_mesh(708, 40.0)  # 999 698 triangles
    data = {**scene([box_body("box", (0.0, 0.0, 0.5))], []),
            "obstacles": [{"name": "terrain", "type": "mesh", "vertices": vertices.tolist(),
                           "triangles": triangles.tolist()}]}
    start = time.perf_counter()
    model = Model.from_dict(data)
    assert time.perf_counter() - start < 10.0  # about 2 s on an idle 2-core machine
    (_, bvh), = model.contacts.meshes
    assert len(bvh.order) == len(triangles)


def test_building_a_model_with_a_mesh_does_not_import_numba():
    """The tree is numpy; only its query, at the first step, compiles a kernel."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    script = ("import sys; sys.path[:0] = [sys.argv[1] + '/tools', sys.argv[1] + '/tests/solver']\n"
              "from checkout import import_checkout_as_mechbake; import_checkout_as_mechbake()\n"
              "from mechbake.solver import Model; from scenes import grid_mesh, scene\n"
              "vertices, triangles = grid_mesh(5, 2.0)\n"
              "Model.from_dict({**scene([], []), 'obstacles': [{'type': 'mesh', 'vertices': vertices.tolist(),"
              " 'triangles': triangles.tolist()}]})\n"
              "print('numba' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", script, str(root)], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
