"""Springs: Schmitt's explicit centred impulse (Table 10.1) and Strashnov's soft constraint."""
import math

import numpy as np
import pytest

from mechbake.solver import SimulationDiverged
from scenes import crossing_times, scene, simulate

TABLE_10_1 = {0.01: 0.0000229515, 0.005: 0.0000057404}  # mean |y - cos t| over 17.2 s


def oscillator(method="impulse", stiffness=1.0, damping=0.0, mass=1.0, gravity=(0, 0, 0), h=0.01):
    """y'' = -k/m y: a particle on a spring to the world whose rest length puts the equilibrium at y = 0."""
    body = {"name": "mass", "mass": mass, "position": [0, 0, 1.0]}
    spring = {"name": "spring", "type": "spring", "body_a": "world", "body_b": "mass", "anchor_a": [0, 0, -10.0],
              "anchor_b": [0, 0, 1.0], "rest_length": 10.0, "stiffness": stiffness, "damping": damping,
              "method": method}
    return simulate(scene([body], [spring], gravity=gravity, h=h))


@pytest.mark.parametrize("h", [0.01, 0.005])
def test_explicit_spring_reproduces_table_10_1(h):
    sim = oscillator(h=h)
    deviations = []
    sim.run(17.2, callback=lambda s: deviations.append(abs(s.position("mass")[2] - math.cos(s.time))))
    assert np.mean(deviations) == pytest.approx(TABLE_10_1[h], rel=0.15)


def test_explicit_spring_conserves_energy_to_second_order():
    sim = oscillator(h=0.01)
    energy = sim.energy()
    drift = []
    sim.run(17.2, callback=lambda s: drift.append(abs(s.energy() - energy)))
    assert max(drift) < 1e-4 * energy


def test_explicit_spring_beyond_its_stability_limit_takes_shorter_steps_and_keeps_its_energy():
    """The centred explicit spring is stable for omega h < 2, i.e. k < 4 m / h^2 = 40000 here: beyond
    it the step is halved (it would gain energy every step and explode), so the spring oscillates
    as a spring, at the cost of two sub-steps per step."""
    stable, beyond = oscillator(stiffness=3.9e4), oscillator(stiffness=4.1e4)
    stable.run(2.0)
    heights = []
    beyond.run(2.0, callback=lambda s: heights.append(s.position("mass")[2]))
    assert stable.stats["substeps"] == stable.stats["steps"]
    assert beyond.stats["substeps"] == 2 * beyond.stats["steps"]
    # released 1 m from its rest: it swings to about -1 and back, never further (at omega h near 1
    # the end of a step can fall a little short of the turning point)
    assert 0.9 < max(np.abs(heights)) <= 1.0 + 1e-9


def test_springs_on_one_body_are_checked_together():
    """Four corner springs carry a box: each alone would be stable at omega h = 1.6, together they
    bounce it at twice that rate, beyond the limit; the steps shorten and the energy is kept."""
    corners = [(x, y) for x in (-0.5, 0.5) for y in (-0.5, 0.5)]
    box = {"name": "box", "mass": 4.0, "inertia": [400.0] * 3, "position": [0, 0, 0.01]}  # hard to tip
    stiffness = 1.6 ** 2 * 4.0 / 0.01 ** 2  # omega h = 1.6 for one spring on the whole mass
    springs = [{"name": f"spring{k}", "type": "spring", "body_a": "world", "body_b": "box",
                "anchor_a": [x, y, -1.0], "anchor_b": [x, y, 0.01], "rest_length": 1.0, "stiffness": stiffness,
                "method": "impulse"} for k, (x, y) in enumerate(corners)]
    sim = simulate(scene([box], springs, gravity=(0, 0, 0), h=0.01))
    heights = []
    sim.run(2.0, callback=lambda s: heights.append(s.position("box")[2]))
    assert 0.009 < max(np.abs(heights)) <= 0.01 + 1e-9  # released 1 cm from its rest
    assert sim.stats["substeps"] > sim.stats["steps"]


def test_an_explicit_spring_too_stiff_for_any_step_is_named():
    sim = oscillator(stiffness=1e12)
    with pytest.raises(SimulationDiverged, match="joint 'spring': its impulse spring is too stiff for the step "
                                                 r"\(stable below steps of about [0-9.e-]+ s\); give it the soft "
                                                 "method or more substeps") as caught:
        sim.run(1.0)
    assert caught.value.joint == "spring"


def test_soft_spring_is_stable_at_any_stiffness_and_sags_to_m_g_over_k():
    stiffness = 1e9
    sim = oscillator("soft", stiffness=stiffness, gravity=(0, 0, -9.81))
    sim.run(2.0)
    assert sim.position("mass")[2] == pytest.approx(-9.81 / stiffness, abs=1e-12)
    # implicit Euler kicks at the start of the step: the velocity it reports is half a kick off
    assert abs(sim.velocity("mass")[2]) == pytest.approx(0.5 * 9.81 * 0.01, rel=1e-6)


def test_soft_spring_oscillates_with_the_spring_period():
    sim = oscillator("soft", stiffness=1.0, h=0.001)
    times = crossing_times(sim, lambda s: s.position("mass")[2], 3)
    assert times[2] - times[0] == pytest.approx(2 * math.pi, rel=1e-3)


@pytest.mark.parametrize("method", ["impulse", "soft"])
def test_damping_removes_energy(method):
    sim = oscillator(method, stiffness=100.0, damping=2.0)
    energies = []
    sim.run(3.0, callback=lambda s: energies.append(s.energy()))
    assert energies[-1] < 0.01 * energies[0]  # e^-(c/m) t = e^-6 of the energy, and less for soft
    assert energies[-1] > 0.0


def test_spring_between_two_bodies_keeps_momentum():
    bodies = [{"name": "a", "mass": 1.0, "inertia": [0.1] * 3, "position": [0, 0, 0]},
              {"name": "b", "mass": 2.0, "inertia": [0.2] * 3, "position": [1.5, 0, 0], "velocity": [0, 0.5, 0]}]
    spring = {"name": "s", "type": "spring", "body_a": "a", "body_b": "b", "anchor_a": [0.1, 0, 0],
              "anchor_b": [1.4, 0, 0], "stiffness": 40.0, "rest_length": 1.0}
    sim = simulate(scene(bodies, [spring], gravity=(0, 0, 0), h=0.005))
    momentum = sim.velocity("a") + 2 * sim.velocity("b")
    energy = sim.energy()
    sim.run(2.0)
    assert sim.velocity("a") + 2 * sim.velocity("b") == pytest.approx(momentum, abs=1e-12)
    assert sim.energy() == pytest.approx(energy, rel=1e-3)
    assert sim.joint_position("s") != 0.0


def test_keyed_stiffness_changes_the_sag():
    """A hanging mass on a soft spring whose stiffness is keyed from 100 to 400 N/m sags 4x less."""
    body = {"name": "mass", "mass": 2.0, "position": [0, 0, -1.0]}
    spring = {"name": "spring", "type": "spring", "body_a": "world", "body_b": "mass", "anchor_a": [0, 0, 0],
              "anchor_b": [0, 0, -1.0], "rest_length": 1.0, "stiffness": [[0, 100.0], [3, 100.0], [3.5, 400.0]],
              "damping": 20.0, "method": "soft"}
    sim = simulate(scene([body], [spring], h=0.005))
    sim.run(3.0)
    assert sim.joint_position("spring") == pytest.approx(2.0 * 9.81 / 100.0, abs=1e-4)
    sim.run(3.0)
    assert sim.joint_position("spring") == pytest.approx(2.0 * 9.81 / 400.0, abs=1e-4)
