"""Schmitt Table 9.1: the 1 m mathematical pendulum, 10 degrees, Dmax 1e-9, second order in h."""
import numpy as np
import pytest

import mechanisms
from measure import arm_under_torque
from scenes import crossing_times, simulate

G = 9.81

T0 = 2.00989262729860  # Schmitt §9, exact period
PAPER = {0.02: 0.00033659873943, 0.01: 0.00008371325490}  # |T - T0| in Table 9.1


def period(h, **settings):
    sim = simulate(mechanisms.pendulum(), h=h, dmax=1e-9, vmax=1e-9, **settings)
    times = crossing_times(sim, lambda s: s.position("bob")[0], 3)
    return times[2] - times[0]


@pytest.mark.parametrize("solver", ["system", "iterative"])
def test_period_error_matches_table_9_1_and_is_second_order(solver):
    errors = {h: abs(period(h, solver=solver) - T0) for h in (0.02, 0.01)}
    for h, error in errors.items():
        assert error == pytest.approx(PAPER[h], rel=0.1)
    assert errors[0.02] / errors[0.01] == pytest.approx(4.0, rel=0.1)
    assert period(0.01, solver=solver) < T0  # the simulated pendulum is fast, as in the paper


def test_richardson_combination_of_section_8_gains_orders():
    assert abs(period(0.01, extrapolation="richardson") - T0) < PAPER[0.01] / 1000


@pytest.mark.parametrize("contacts", [False, True], ids=["compiled steps", "steps of a scene with contacts"])
def test_a_richardson_step_combines_one_step_of_h_and_two_of_h_over_2(contacts):
    """Schmitt §8's p3 = -1/3 p(h) + 4/3 p(h/2, h/2), three steps into a double pendulum's swing: the
    extrapolated run's positions and velocities against plain runs at h and h/2 from the same state.
    With collision shapes and a floor far below, the steps are taken the contact scenes' way."""
    data = mechanisms.double_pendulum()
    if contacts:
        for body in data["bodies"]:
            body["shape"] = {"type": "sphere", "radius": 0.05}
        data["obstacles"] = [{"name": "floor", "type": "plane", "point": [0, 0, -5], "normal": [0, 0, 1]}]
    h = data["settings"]["h"]
    extrapolated = simulate(data, extrapolation="richardson")
    for _ in range(3):
        extrapolated.step()
    assert extrapolated.model.contacts.enabled == contacts
    start = extrapolated.state.copy()
    extrapolated.step()
    plain, halved = simulate(data), simulate(data, h=h / 2)
    for sim, steps in ((plain, 1), (halved, 2)):
        sim.state = start.copy()
        for _ in range(steps):
            sim.step()
    for part in ("position", "velocity", "angular_velocity"):
        for body in ("upper", "lower"):
            expected = -getattr(plain, part)(body) / 3 + 4 * getattr(halved, part)(body) / 3
            assert getattr(extrapolated, part)(body) == pytest.approx(expected, abs=1e-12), (part, body)


def test_levers_at_thirds_take_out_the_chords_of_a_wide_swing():
    """A pendulum swinging from 120 degrees turns up to 0.07 rad a step at h = 0.01. With the levers
    at the step's ends (Schmitt's, RATTLE's step) the particle flies a chord and is pulled back onto
    its circle, landing ahead of the arc's end: 8.3e-3 rad off the exact angle at worst over 10 s.
    With the levers a third and two thirds along the chord that lead is gone: 1.6e-3 is left, the
    order's own (Stormer-Verlet in the angle: 8.7e-4; benchmarks/looping_pendulum.py)."""
    h, seconds, start = 0.01, 10.0, 120.0
    exact = arm_under_torque(1.0, G, 0.0, 0.0, np.radians(start), seconds, dt=h / 50)[::50]
    worst = {}
    for levers in ("start", "thirds"):
        sim = simulate(mechanisms.pendulum(start), h=h, dmax=1e-9, vmax=1e-9, levers=levers)
        angles = [swing_angle(sim)]
        sim.run(seconds, callback=lambda s: angles.append(swing_angle(s)))
        worst[levers] = np.abs(np.unwrap(angles) - exact).max()
    assert worst["start"] > 5e-3
    assert worst["thirds"] < 0.25 * worst["start"]


def swing_angle(sim) -> float:
    """The bob's angle from straight down (the pivot at the origin)."""
    bob = sim.position("bob")
    return float(np.arctan2(bob[0], -bob[2]))


def test_rod_never_stretches_beyond_dmax():
    sim = simulate(mechanisms.pendulum(), h=0.01, dmax=1e-9)
    worst = 0.0
    for _ in range(300):
        sim.step()
        worst = max(worst, sim.max_joint_error())
    assert worst < 1e-9
