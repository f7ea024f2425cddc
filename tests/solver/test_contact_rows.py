"""The contact stage's kernels on their own: a contact's rows and their responses through the joints
(kernels/contact/contact_rows.py), its frame, and the nearest point of a triangle (kernels/contact/mesh_probes.py),
against mechanics and geometry worked out by hand."""
import numpy as np
import pytest

from mechbake.solver import Model, Simulation
from mechbake.solver.contact.detection import find_contacts
from mechbake.solver.kernels.contact.mesh_probes import closest_on_triangle
from scenes import scene

MASS, INERTIA = 2.0, np.array([0.1, 0.2, 0.3])


def box_simulation(joints=()) -> Simulation:
    """A 0.4 m box of MASS and principal INERTIA at (0, 0, 1), turned about an oblique axis so its
    inertia in the world is a full matrix."""
    body = {"name": "box", "mass": MASS, "inertia": list(INERTIA), "position": [0, 0, 1],
            "orientation": [0.9, 0.3, -0.2, 0.25], "shape": {"type": "box", "size": [0.4, 0.4, 0.4]}}
    data = scene([body], list(joints))
    data["obstacles"] = [{"name": "floor", "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}]
    return Simulation(Model.from_dict(data))


def responses(sim, point, directions):
    """Jacobian (d, 6n) and response (6n, d) of one contact of the box (body 1) against the world, as
    dense matrices over every body's twist."""
    rows = sim.instant.rows_through_joints(np.array([0]), np.array([1]), np.asarray([point], dtype=float),
                                   np.asarray([directions], dtype=float))
    d, n = len(directions), len(sim.model.body_names)
    jacobian, response = np.zeros((d, 6 * n)), np.zeros((6 * n, d))
    for side, body in enumerate(rows.body[0]):
        jacobian[:, 6 * body:6 * body + 6] += rows.jacobian[0, :, side]
    for entry in range(rows.response_start[0], rows.response_start[1]):
        body = rows.response_body[entry]
        response[6 * body:6 * body + 6] = rows.response[entry].T
    return jacobian, response


def test_a_free_body_answers_a_contact_impulse_by_its_mass_and_inertia():
    """Without joints a unit impulse along d at a point r from the centre changes the twist by d / m
    and I_world^-1 (r x d) (Schmitt 4.5), and the row's rate is d . (v + w x r)."""
    sim = box_simulation()
    rotation = sim.state.frames.rotation[1]
    inverse_inertia = rotation @ np.diag(1 / INERTIA) @ rotation.T
    point = np.array([0.15, -0.1, 0.82])
    directions = np.array([[0.0, 0.0, 1.0], [0.6, 0.8, 0.0]])
    jacobian, response = responses(sim, point, directions)
    lever = point - sim.state.frames.position[1]
    for k, direction in enumerate(directions):
        assert np.allclose(response[6:9, k], direction / MASS, atol=1e-14)
        assert np.allclose(response[9:12, k], inverse_inertia @ np.cross(lever, direction), atol=1e-13)
        assert np.allclose(jacobian[k, 6:], np.concatenate((direction, np.cross(lever, direction))), atol=1e-15)
        assert np.allclose(jacobian[k, :6], -np.concatenate((direction, np.cross(point, direction))), atol=1e-15)
        assert not response[:6, k].any()  # the world does not move


def test_a_contact_impulse_through_a_hinge_turns_the_body_about_the_hinge():
    """With the box hinged to the world about y through (0, 0, 1.2), a contact impulse can only turn it
    about that axis: the response keeps the pivot still and the angular velocity along y, and its
    size is that of a pendulum, (r x d)_y / I_y about the pivot."""
    pivot = np.array([0.0, 0.0, 1.2])
    sim = box_simulation([{"name": "hinge", "type": "hinge", "body_a": "world", "body_b": "box",
                           "anchor": list(pivot), "axis": [0, 1, 0]}])
    point, direction = np.array([0.2, 0.05, 0.8]), np.array([1.0, 0.0, 0.0])
    _, response = responses(sim, point, [direction])
    velocity, spin = response[6:9, 0], response[9:12, 0]
    centre = sim.state.frames.position[1]
    assert np.allclose(velocity + np.cross(spin, pivot - centre), 0.0, atol=1e-10)  # the pivot stays
    assert np.allclose(spin[[0, 2]], 0.0, atol=1e-10)
    rotation = sim.state.frames.rotation[1]
    inertia = rotation @ np.diag(INERTIA) @ rotation.T
    offset = centre - pivot
    about_pivot = inertia[1, 1] + MASS * (offset[0] ** 2 + offset[2] ** 2)  # parallel axes
    assert spin[1] == pytest.approx(np.cross(point - pivot, direction)[1] / about_pivot, rel=1e-8)


def test_a_contact_frame_is_right_handed_and_its_point_is_a_material_point_of_both_bodies():
    sim = box_simulation()
    frames = sim.state.frames
    frames.position[1], frames.rotation[1] = [0.0, 0.0, 0.2], np.eye(3)  # resting on the floor
    contacts = find_contacts(sim.model, frames, frames)
    assert len(contacts) == 4
    point, directions, local = contacts.frames_at(frames)
    for c in range(len(contacts)):
        normal, tangent, binormal = directions[c]
        assert np.allclose(directions[c] @ directions[c].T, np.eye(3), atol=1e-15)
        assert np.allclose(np.cross(normal, tangent), binormal, atol=1e-15)
        assert np.allclose(normal, [0, 0, 1], atol=1e-15)  # the floor's, from it (a) towards the box (b)
        assert np.allclose(frames.position[1] + frames.rotation[1] @ local[c, 1], point[c], atol=1e-15)
        assert np.allclose(local[c, 0], point[c], atol=1e-15)  # the world's frame is the world
    assert np.allclose(np.sort(point[:, 2]), 0.0, atol=1e-15)


@pytest.mark.parametrize("seed", range(5))
def test_the_nearest_point_of_a_triangle_is_nearer_than_any_other_of_its_points(seed):
    """Ericson's region tests against a dense sampling of the triangle: the point returned lies on the
    triangle and no sample is nearer, for points over the face, beyond each edge and each corner."""
    rng = np.random.default_rng(seed)
    corners = rng.normal(size=(3, 3))
    steps = np.linspace(0.0, 1.0, 121)
    u, v = np.meshgrid(steps, steps)
    inside = u + v <= 1.0
    samples = corners[0] + u[inside, None] * (corners[1] - corners[0]) + v[inside, None] * (corners[2] - corners[0])
    out = np.empty(3)
    for point in rng.normal(scale=2.0, size=(40, 3)):
        closest_on_triangle(point, corners, out)
        a, b = np.linalg.lstsq(np.column_stack((corners[1] - corners[0], corners[2] - corners[0])), out - corners[0],
                               rcond=None)[0]
        assert a >= -1e-12 and b >= -1e-12 and a + b <= 1 + 1e-12  # on the triangle
        assert np.allclose(corners[0] + a * (corners[1] - corners[0]) + b * (corners[2] - corners[0]), out, atol=1e-12)
        assert np.linalg.norm(point - out) <= np.linalg.norm(samples - point, axis=1).min() + 1e-12
