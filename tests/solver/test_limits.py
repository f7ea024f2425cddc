"""Joint limits: a falling arm stops at its hinge limit and never passes it."""
import pytest

from scenes import rod, scene, simulate


@pytest.mark.parametrize("solver", ["system", "iterative"])
def test_hinge_limit_catches_a_falling_arm(solver):
    arm = rod("arm", [0, 0, 0], [1, 0, 0], radius=0.02)
    joint = {"name": "elbow", "type": "hinge", "body_a": "world", "body_b": "arm", "anchor": [0, 0, 0],
             "axis": [0, 1, 0], "limits": [-0.2, 0.6]}
    sim = simulate(scene([arm], [joint], h=0.005, dmax=1e-9), solver=solver)
    beyond = 0.0
    for _ in range(600):
        sim.step()
        beyond = max(beyond, sim.joint_position("elbow") - 0.6)
    assert beyond < 1e-9  # an angle on a 1 m lever, as Dmax counts it
    assert sim.joint_position("elbow") == pytest.approx(0.6, abs=1e-9)
    assert abs(sim.angular_velocity("arm")[1]) < 1e-6


def test_limit_with_a_spring_pushing_against_it():
    arm = rod("arm", [0, 0, 0], [1, 0, 0], radius=0.02)
    joint = {"name": "elbow", "type": "hinge", "body_a": "world", "body_b": "arm", "anchor": [0, 0, 0],
             "axis": [0, 0, 1], "limits": [-0.5, 0.5], "spring": {"stiffness": 5.0, "rest": 1.0}}
    sim = simulate(scene([arm], [joint], gravity=(0, 0, 0), h=0.005, dmax=1e-9))
    sim.run(3.0)
    assert sim.joint_position("elbow") == pytest.approx(0.5, abs=1e-6)


def test_keyed_limit_pushes_the_arm_along():
    """An upper limit that closes from 0.6 to 0.2 rad over a second carries the resting arm with it."""
    arm = rod("arm", [0, 0, 0], [1, 0, 0], radius=0.02)
    joint = {"name": "elbow", "type": "hinge", "body_a": "world", "body_b": "arm", "anchor": [0, 0, 0],
             "axis": [0, 1, 0], "limits": [-0.2, [[0.0, 0.6], [1.5, 0.6], [2.5, 0.2]]]}
    sim = simulate(scene([arm], [joint], h=0.005, dmax=1e-9))
    sim.run(1.5)
    assert sim.joint_position("elbow") == pytest.approx(0.6, abs=1e-9)
    sim.run(1.5)
    assert sim.joint_position("elbow") == pytest.approx(0.2, abs=1e-9)


def test_limit_table_that_crosses_itself_is_rejected():
    from mechbake.solver import ModelError

    arm = rod("arm", [0, 0, 0], [1, 0, 0])
    joint = {"name": "elbow", "type": "hinge", "body_a": "world", "body_b": "arm", "anchor": [0, 0, 0],
             "axis": [0, 1, 0], "limits": [[[0, -0.5], [1, 0.8]], 0.5]}
    with pytest.raises(ModelError, match="joint 'elbow': field 'limits' must be \\[lower, upper\\] "
                                         "with lower < upper at every time"):
        simulate(scene([arm], [joint]))
