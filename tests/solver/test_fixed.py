"""Fixed joint: welded bodies move as one rigid body."""
import numpy as np
import pytest

from scenes import scene, simulate


def welded_pair(gravity=(0, 0, 0)):
    left = {"name": "left", "mass": 1.0, "inertia": [0.01, 0.02, 0.03], "position": [-0.5, 0, 0],
            "velocity": [0, 1.0, 0], "angular_velocity": [0, 0, 2.0]}
    right = {"name": "right", "mass": 3.0, "inertia": [0.05, 0.04, 0.03], "position": [0.5, 0, 0],
             "velocity": [0, -1.0, 0], "angular_velocity": [0, 0, 2.0]}
    joint = {"name": "weld", "type": "fixed", "body_a": "left", "body_b": "right", "anchor": [0, 0, 0]}
    return scene([left, right], [joint], gravity=gravity, h=0.005, dmax=1e-9)


def momenta(sim):
    linear = 1.0 * sim.velocity("left") + 3.0 * sim.velocity("right")
    angular = np.zeros(3)
    for name, mass, inertia in (("left", 1.0, [0.01, 0.02, 0.03]), ("right", 3.0, [0.05, 0.04, 0.03])):
        from mechbake.solver.rotation import quaternion_to_matrix

        r = quaternion_to_matrix(sim.orientation(name))
        angular += r @ np.diag(inertia) @ r.T @ sim.angular_velocity(name)
        angular += mass * np.cross(sim.position(name), sim.velocity(name))
    return linear, angular


def test_welded_pair_conserves_momentum_and_keeps_its_shape():
    sim = simulate(welded_pair())
    sim.step()  # the first step makes the clashing start velocities agree
    linear, angular = momenta(sim)
    energy = sim.energy()
    for _ in range(400):
        sim.step()
        assert sim.max_joint_error() < 1e-9
    assert momenta(sim)[0] == pytest.approx(linear, abs=1e-9)
    assert momenta(sim)[1] == pytest.approx(angular, abs=1e-6)
    assert sim.energy() == pytest.approx(energy, rel=1e-5)
    assert np.linalg.norm(sim.position("right") - sim.position("left")) == pytest.approx(1.0, abs=1e-8)
    assert sim.angular_velocity("left") == pytest.approx(sim.angular_velocity("right"), abs=1e-6)


def test_fixed_to_the_world_stays_put_under_gravity():
    data = welded_pair(gravity=(0, 0, -9.81))
    data["joints"].append({"name": "bolt", "type": "fixed", "body_a": "world", "body_b": "left",
                           "anchor": [-0.5, 0, 0]})
    for body in data["bodies"]:
        body["velocity"], body["angular_velocity"] = [0, 0, 0], [0, 0, 0]
    sim = simulate(data)
    sim.run(1.0)
    assert sim.position("right") == pytest.approx([0.5, 0, 0], abs=1e-8)
    assert sim.orientation("right") == pytest.approx([1, 0, 0, 0], abs=1e-8)
