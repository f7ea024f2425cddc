"""Springs: Schmitt's explicit centred impulse (Table 10.1) and Strashnov's soft constraint."""
import math

import numpy as np
import pytest

from scenes import crossing_times, scene, simulate

TABLE_10_1 = {0.01: 0.0000229515, 0.005: 0.0000057404}  # mean |y - cos t| over 17.2 s


def oscillator(method="impulse", stiffness=1.0, damping=0.0, mass=1.0, gravity=(0, 0, 0), h=0.01):
    """y'' = -k/m y: a particle on a spring to the world whose rest length puts the equilibrium at y = 0."""
    body = {"name": "mass", "mass": mass, "position": [0, 0, 1.0]}
    spring = {"name": "spring", "type": "spring", "body_a": "world", "body_b": "mass", "anchor_a": [0, 0, -10.0],
              "anchor_b": [0, 0, 1.0], "rest_length": 10.0, "stiffness": stiffness, "damping": damping, "method": method}
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


def test_explicit_spring_beyond_its_stability_limit_blows_up():
    """Symplectic Euler is stable for omega h < 2, i.e. k < 4 m / h^2 = 40000 here."""
    stable, unstable = oscillator(stiffness=3.9e4), oscillator(stiffness=4.1e4)
    energy = stable.energy()
    stable.run(2.0)
    unstable.run(2.0)
    assert stable.energy() < 1.1 * energy
    assert unstable.energy() > 1e6 * energy


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
