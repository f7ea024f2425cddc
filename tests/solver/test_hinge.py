"""Hinge joint: a rotated, tilted axis; the sign of the joint angle; torsion springs."""
import math

import numpy as np
import pytest

from mechbake.solver import ModelError
from scenes import crossing_times, pendulum_period, rod, scene, simulate

TILT = math.radians(30)
AXIS = [0.0, math.cos(TILT), math.sin(TILT)]  # tilted 30 degrees out of the horizontal


def tilted_pendulum(**settings):
    """A 1 m rod along x on a hinge whose axis leans 30 degrees; it starts 90 degrees from the bottom."""
    arm = rod("arm", [0, 0, 0], [1, 0, 0], radius=0.02)
    arm["orientation"] = [math.cos(0.35), math.sin(0.35), 0, 0]  # the body frame is rotated too
    joint = {"name": "hinge", "type": "hinge", "body_a": "world", "body_b": "arm", "anchor": [0, 0, 0], "axis": AXIS}
    return scene([arm], [joint], h=0.005, dmax=1e-8, **settings)


@pytest.mark.parametrize("limits", [None, [-10.0, 10.0]])
def test_tilted_axis_pendulum_has_the_exact_period(limits):
    """...also with limits it never reaches, which make its joint correction start from the last
    sub-steps' impulses (kernels/warm_start.py): the guess leaves the period as it was."""
    data = tilted_pendulum()
    if limits is not None:
        data["joints"][0]["limits"] = limits
    sim = simulate(data)
    times = crossing_times(sim, lambda s: s.joint_position("hinge") - _bottom(), 3)
    inertia_pivot = 1.0 / 3.0 + 0.02**2 / 4
    g_across_axis = 9.81 * math.cos(TILT)
    expected = pendulum_period(inertia_pivot, 1.0, g_across_axis, 0.5, math.pi / 2)
    assert times[2] - times[0] == pytest.approx(expected, rel=2e-4)
    assert sim.max_joint_error() < 1e-8


def _bottom():
    """The joint angle at which the rod hangs lowest: gravity across the axis, seen from +x."""
    return math.pi / 2


def test_joint_angle_is_right_handed_and_relative_to_body_a():
    sim = simulate(tilted_pendulum())
    sim.run(0.1)
    # gravity turns the tip of +x about the tilted axis (0, cos, sin): x cross axis has -z... the
    # tip drops, which is a positive turn about +AXIS when AXIS points along +y
    assert sim.joint_position("hinge") > 0
    flipped = tilted_pendulum()
    flipped["joints"][0].update(body_a="arm", body_b="world")
    other = simulate(flipped)
    other.run(0.1)
    assert other.joint_position("hinge") == pytest.approx(-sim.joint_position("hinge"), abs=1e-9)


def test_bodies_keep_only_rotation_about_the_axis():
    sim = simulate(tilted_pendulum())
    sim.run(1.0)
    w = sim.angular_velocity("arm")
    assert np.linalg.norm(np.cross(w, AXIS)) < 1e-6 * max(1.0, np.linalg.norm(w))


@pytest.mark.parametrize("method, tolerance", [("impulse", 2e-4), ("soft", 2e-3)])
def test_torsion_spring_period(method, tolerance):
    stiffness = 4.0
    arm = rod("arm", [0, 0, 0], [1, 0, 0], radius=0.02)
    joint = {"name": "hinge", "type": "hinge", "body_a": "world", "body_b": "arm", "anchor": [0, 0, 0],
             "axis": [0, 0, 1], "spring": {"stiffness": stiffness, "rest": 0.2, "method": method}}
    sim = simulate(scene([arm], [joint], gravity=(0, 0, 0), h=0.002, dmax=1e-9))
    times = crossing_times(sim, lambda s: s.joint_position("hinge") - 0.2, 3)
    expected = 2 * math.pi * math.sqrt((1.0 / 3.0 + 0.02**2 / 4) / stiffness)
    assert times[2] - times[0] == pytest.approx(expected, rel=tolerance)


def test_hinge_between_two_moving_bodies_keeps_both_conditions():
    upper = rod("upper", [0, 0, 0], [1, 0, 0])
    lower = rod("lower", [1, 0, 0], [1, 0, -1])
    lower["angular_velocity"] = [0, 0, 3.0]  # a spin the hinge must refuse: it turns only about y
    joints = [{"name": "shoulder", "type": "ball", "body_a": "world", "body_b": "upper", "anchor": [0, 0, 0]},
              {"name": "elbow", "type": "hinge", "body_a": "upper", "body_b": "lower", "anchor": [1, 0, 0],
               "axis": [0, 1, 0]}]
    sim = simulate(scene([upper, lower], joints, h=0.005, dmax=1e-8))
    for _ in range(200):
        sim.step()
        assert sim.max_joint_error() < 1e-8


def test_particle_side_is_refused_for_an_axis_between_particles():
    bodies = [{"name": "a", "mass": 1, "position": [0, 0, 0]}, {"name": "b", "mass": 1, "position": [1, 0, 0]}]
    joint = {"name": "h", "type": "hinge", "body_a": "a", "body_b": "b", "anchor": [0.5, 0, 0], "axis": [0, 1, 0]}
    with pytest.raises(ModelError, match="joint 'h'"):
        simulate(scene(bodies, [joint]))
