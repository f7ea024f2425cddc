"""Slider joint: sliding down an incline, a linear spring, limits; no relative rotation."""
import math

import numpy as np
import pytest

from scenes import crossing_times, scene, simulate

SLOPE = math.radians(25)
DOWNHILL = [math.cos(SLOPE), 0.0, -math.sin(SLOPE)]


def carriage(speed=0.0, **joint_fields):
    block = {"name": "block", "mass": 2.0, "inertia": [0.1, 0.2, 0.3], "position": [0.2, 0.1, 0.3],
             "velocity": [speed * c for c in DOWNHILL]}
    joint = {"name": "guide", "type": "slider", "body_a": "world", "body_b": "block", "anchor": [0, 0, 0],
             "axis": DOWNHILL, **joint_fields}
    return scene([block], [joint], h=0.005, dmax=1e-9)


def test_block_slides_down_the_incline_without_turning():
    sim = simulate(carriage())
    sim.run(1.0)
    t = sim.time
    assert sim.joint_position("guide") == pytest.approx(0.5 * 9.81 * math.sin(SLOPE) * t * t, rel=1e-9)
    assert sim.position("block") == pytest.approx(np.array([0.2, 0.1, 0.3])
                                                  + sim.joint_position("guide") * np.array(DOWNHILL), abs=1e-8)
    assert sim.orientation("block") == pytest.approx([1, 0, 0, 0], abs=1e-9)
    assert sim.max_joint_error() < 1e-9


def test_linear_spring_on_a_slider_has_the_spring_period():
    sim = simulate({**carriage(speed=0.3, spring={"stiffness": 50.0, "rest": 0.0}), "gravity": [0, 0, 0]})
    times = crossing_times(sim, lambda s: s.joint_position("guide"), 3)
    assert times[2] - times[0] == pytest.approx(2 * math.pi * math.sqrt(2.0 / 50.0), rel=1e-4)


def test_upper_limit_stops_the_block_and_holds_it():
    sim = simulate(carriage(limits=[-0.1, 0.25]))
    worst = 0.0
    for _ in range(400):
        sim.step()
        worst = max(worst, sim.joint_position("guide") - 0.25)
    assert worst < 1e-9
    assert sim.joint_position("guide") == pytest.approx(0.25, abs=1e-9)
    assert np.linalg.norm(sim.velocity("block")) < 1e-6
