"""Rail with end stops (Schmitt §10): a point slides along a segment and stops at its ends."""
import math

import numpy as np
import pytest

from scenes import scene, simulate


def bead(start, end, point, **settings):
    body = {"name": "bead", "mass": 0.5, "inertia": [1e-3, 1e-3, 1e-3], "position": point}
    joint = {"name": "track", "type": "rail", "body_a": "world", "body_b": "bead", "start": start, "end": end,
             "point": point}
    return scene([body], [joint], h=0.005, dmax=1e-9, **settings)


def test_bead_slides_with_the_slope_acceleration():
    sim = simulate(bead([0, 0, 0], [2, 0, -2], [0.2, 0, -0.2]))
    sim.run(0.3)
    expected = 0.5 * 9.81 * math.sin(math.radians(45)) * sim.time**2
    assert sim.joint_position("track") == pytest.approx(expected, rel=1e-9)
    assert sim.max_joint_error() < 1e-9


@pytest.mark.parametrize("start, end, point, stop", [
    ([0, 0, 0], [2, 0, -2], [0.2, 0, -0.2], math.sqrt(8) - math.sqrt(0.08)),  # runs to the far end
    ([0, 0, 0], [2, 0, 2], [0.2, 0, 0.2], -math.sqrt(0.08)),  # runs back to the start
])
def test_bead_stops_at_the_end_and_rests(start, end, point, stop):
    sim = simulate(bead(start, end, point))
    past = 0.0
    for _ in range(600):
        sim.step()
        position = sim.joint_position("track")
        past = max(past, position - stop if stop > 0 else stop - position)
    assert past < 1e-9
    assert sim.joint_position("track") == pytest.approx(stop, abs=1e-9)
    assert np.linalg.norm(sim.velocity("bead")) < 1e-6


def test_rail_on_a_moving_body_keeps_the_point_on_it():
    cart = {"name": "cart", "mass": 3.0, "inertia": [0.2, 0.3, 0.4], "position": [0, 0, 0],
            "angular_velocity": [0, 0, 1.0]}
    bead_body = {"name": "bead", "mass": 0.5, "inertia": [1e-3] * 3, "position": [0.5, 0, 0], "velocity": [0, 0.3, 0]}
    joint = {"name": "track", "type": "rail", "body_a": "cart", "body_b": "bead", "start": [-1, 0, 0], "end": [1, 0, 0],
             "point": [0.5, 0, 0]}
    sim = simulate(scene([cart, bead_body], [joint], gravity=(0, 0, 0), h=0.005, dmax=1e-9))
    momentum = 3.0 * sim.velocity("cart") + 0.5 * sim.velocity("bead")
    for _ in range(300):
        sim.step()
        assert sim.max_joint_error() < 1e-9
    assert 3.0 * sim.velocity("cart") + 0.5 * sim.velocity("bead") == pytest.approx(momentum, abs=1e-9)
