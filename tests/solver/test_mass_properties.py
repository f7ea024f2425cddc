"""Mass properties from a triangle mesh against the closed-form box and the convergence to a cylinder."""
import math

import numpy as np
import pytest

from mechbake.solver import ModelError
from mechbake.solver.mass_properties import mesh_mass_properties
from mechbake.solver.rotation import quaternion_to_matrix
from scenes import BOX_FACES, box


def test_box_matches_the_closed_form():
    props = mesh_mass_properties(box([2.0, 1.0, 0.5], centre=[3, -1, 2]), BOX_FACES, density=1000.0)
    mass = 1000.0 * 2.0 * 1.0 * 0.5
    assert props.mass == pytest.approx(mass)
    assert props.centre == pytest.approx([3, -1, 2])
    expected = mass / 12 * np.diag([1.0**2 + 0.5**2, 2.0**2 + 0.5**2, 2.0**2 + 1.0**2])
    assert props.inertia == pytest.approx(expected, abs=1e-9)


def test_rotated_box_has_the_rotated_tensor_and_given_mass():
    rotation = quaternion_to_matrix([0.9, 0.3, -0.2, 0.1])
    props = mesh_mass_properties(box([2.0, 1.0, 0.5], rotation=rotation), BOX_FACES, mass=3.0)
    expected = rotation @ (3.0 / 12 * np.diag([1.25, 4.25, 5.0])) @ rotation.T
    assert props.mass == 3.0
    assert props.inertia == pytest.approx(expected, abs=1e-12)


def test_inside_out_mesh_is_accepted():
    props = mesh_mass_properties(box([1, 1, 1]), BOX_FACES[:, ::-1], density=2.0)
    assert props.volume == pytest.approx(1.0) and props.mass == pytest.approx(2.0)


def cylinder(radius, length, sides):
    angles = np.arange(sides) * 2 * math.pi / sides
    ring = np.stack((radius * np.cos(angles), radius * np.sin(angles)), axis=1)
    vertices = np.concatenate((np.c_[ring, np.full(sides, -length / 2)], np.c_[ring, np.full(sides, length / 2)],
                               [[0, 0, -length / 2], [0, 0, length / 2]]))
    faces = []
    for k in range(sides):
        n = (k + 1) % sides
        faces += [[k, n, sides + n], [k, sides + n, sides + k], [2 * sides, n, k],
                  [2 * sides + 1, sides + k, sides + n]]
    return vertices, np.array(faces)


def test_fine_cylinder_approaches_the_analytic_tensor():
    props = mesh_mass_properties(*cylinder(0.1, 1.0, 256), mass=2.0)
    assert props.inertia[2, 2] == pytest.approx(0.5 * 2.0 * 0.1**2, rel=1e-3)
    assert props.inertia[0, 0] == pytest.approx(2.0 * (3 * 0.1**2 + 1.0) / 12, rel=1e-3)


def test_open_flat_and_empty_meshes_are_refused_by_name():
    with pytest.raises(ModelError, match="object 'lid': the mesh is not closed"):
        mesh_mass_properties(box([1, 1, 1]), BOX_FACES[:-2], density=1.0, name="lid")
    flat = box([1, 1, 0.0])
    with pytest.raises(ModelError, match="object 'sheet': the mesh encloses no volume"):
        mesh_mass_properties(flat, BOX_FACES, density=1.0, name="sheet")
    with pytest.raises(ModelError, match="object 'ghost': the mesh has no faces"):
        mesh_mass_properties(np.zeros((0, 3)), np.zeros((0, 3)), density=1.0, name="ghost")
    nan = box([1, 1, 1])
    nan[0, 0] = np.nan
    with pytest.raises(ModelError, match="object 'bad': the mesh has vertices that are not finite"):
        mesh_mass_properties(nan, BOX_FACES, density=1.0, name="bad")
