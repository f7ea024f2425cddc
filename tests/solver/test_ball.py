"""Ball joint: a compound pendulum's exact large-amplitude period; either side may be the world."""
import math

import pytest

from scenes import crossing_times, pendulum_period, rod, scene, simulate

AMPLITUDE = math.radians(60)
TIP = [math.sin(AMPLITUDE), 0.0, -math.cos(AMPLITUDE)]


def hung_rod(world_side="body_a"):
    other = "body_b" if world_side == "body_a" else "body_a"
    joint = {"name": "pivot", "type": "ball", world_side: "world", other: "rod", "anchor": [0, 0, 0]}
    return scene([rod("rod", [0, 0, 0], TIP, radius=0.01)], [joint], h=0.005, dmax=1e-8)


def test_compound_pendulum_period():
    sim = simulate(hung_rod())
    times = crossing_times(sim, lambda s: s.position("rod")[0], 3)
    inertia_pivot = 1.0 / 3.0 + 0.01**2 / 4  # m L^2 / 3 plus the rod's thickness
    expected = pendulum_period(inertia_pivot, 1.0, 9.81, 0.5, AMPLITUDE)
    assert times[2] - times[0] == pytest.approx(expected, rel=1e-4)


def test_world_on_either_side_gives_the_same_motion():
    first, second = simulate(hung_rod("body_a")), simulate(hung_rod("body_b"))
    first.run(1.0)
    second.run(1.0)
    assert first.position("rod") == pytest.approx(second.position("rod"), abs=1e-8)
    assert first.max_joint_error() < 1e-8 and second.max_joint_error() < 1e-8


def test_swinging_rod_conserves_energy():
    sim = simulate(hung_rod())
    energy = sim.energy()
    sim.run(2.0)
    assert sim.energy() == pytest.approx(energy, abs=2e-4)
