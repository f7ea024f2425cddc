"""Schmitt §8's Richardson combination (kernels/richardson.py) where its steps are out of reach: a
combination that would leave the joints open is not kept."""
import mechanisms
import numpy as np

from mechbake.solver import Model, Simulation
from scenes import crossing_times, pendulum_period, scene


def whirling_rod() -> dict:
    """A 1 m rod on a ball joint at its end turning 100 rad/s about the joint, no gravity: 1 rad a
    step at h = 0.01."""
    rod = mechanisms.rod("rod", [0, 0, 0], [1, 0, 0])
    rod["velocity"], rod["angular_velocity"] = [0, 50, 0], [0, 0, 100]
    pivot = {"name": "pivot", "type": "ball", "body_a": "world", "body_b": "rod", "anchor": [0, 0, 0]}
    return scene([rod], [pivot], gravity=(0, 0, 0), extrapolation="richardson")


def test_a_link_turning_a_radian_a_step_keeps_its_joint_and_energy():
    """Combined as -1/3 p(h) + 4/3 p(h/2, h/2), the rod's steps left its joint 27 cm open and its
    energy eight times what it was, and the run reported success. Each step now keeps its two halves,
    and says so in the stats."""
    sim = Simulation(Model.from_dict(whirling_rod()))
    start, worst = sim.energy(), [0.0]
    sim.run(1.0, callback=lambda s: worst.__setitem__(0, max(worst[0], s.max_joint_error())))
    assert worst[0] < sim.model.settings.dmax
    assert abs(sim.energy() / start - 1) < 1e-4
    assert sim.stats["uncombined"] == sim.stats["steps"] == 100


def test_steps_within_its_reach_are_all_combined():
    """A02 (N = 2, h = 0.01): every step combined, and the combination's gaps stay within the 5/3 Dmax
    that two results within Dmax can make."""
    sim = Simulation(Model.from_dict(mechanisms.n_four_bar(2, h=0.01)), extrapolation="richardson")
    gaps = []
    sim.run(2.0, callback=lambda s: gaps.append(s.max_joint_error()))
    assert sim.stats["uncombined"] == 0
    assert np.max(gaps) < 5 / 3 * sim.model.settings.dmax


def test_a_pendulum_at_one_substep_a_frame_is_combined_off_its_joint_by_the_curvature_alone():
    """A 1 m rod released 150 degrees out at h = 1/24 turns up to 0.3 rad a step: its combinations
    leave the hinge up to 1.7e-6 m open (the two results up to 2 mm apart, bent round the pivot), more
    than 5/3 Dmax but a small share of how far apart the results are. Every step is combined, and
    the period comes out far closer to the pendulum's own than without the combination."""
    angle = np.radians(150.0)
    rod = mechanisms.rod("rod", [0, 0, 0], [np.sin(angle), 0, -np.cos(angle)])
    hinge = {"name": "pivot", "type": "hinge", "body_a": "world", "body_b": "rod", "anchor": [0, 0, 0],
             "axis": [0, 1, 0]}
    expected = pendulum_period(1 / 3 + 0.01**2 / 4, 1.0, 9.81, 0.5, angle)
    error = {}
    for extrapolation in ("none", "richardson"):
        sim = Simulation(Model.from_dict(scene([rod], [hinge], h=1 / 24)), extrapolation=extrapolation,
                         energy_tolerance=0.0)
        times = crossing_times(sim, lambda s: s.position("rod")[0], 3)
        error[extrapolation] = abs((times[2] - times[0]) / expected - 1)
        if extrapolation == "richardson":
            assert sim.stats["uncombined"] == 0
    assert error["richardson"] < error["none"] / 10
