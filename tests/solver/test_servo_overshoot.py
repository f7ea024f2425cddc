"""A position servo with a neighbour, a load or a keyed target reaches its target at the time its torque
allows and stops there (issue 25): the upright box arm of mechanisms.upright_servo_arm, its shoulder servo
turning it 0 -> 110° while the elbow's servo holds the forearm. The servo brakes on the inertia it moves
with the elbow held, against gravity's pull over the way left, and no faster than it can stop where a
keyed target stops; it overshot by tens of degrees while it took the elbow for free, the target's rate
for a speed it could keep, and gravity for absent."""
import math

import numpy as np
import pytest

import mechanisms
from measure import servo_course, upright_servo_arrival
from mechbake.solver.drives import run_ends
from scenes import simulate

TARGET = math.radians(110.0)
WITHIN = math.radians(0.5)


def held_arm(data: dict) -> tuple[float, float]:
    """(inertia about the shoulder, m g d at the horizontal) of the whole arm turning as one body."""
    g = -data["gravity"][2]
    inertia = sum(b["inertia"][1] + b["mass"] * b["position"][2] ** 2 for b in data["bodies"])
    return inertia, g * sum(b["mass"] * b["position"][2] for b in data["bodies"])


def step_arrival(torque: float, gravity: float) -> float:
    inertia, load = held_arm(mechanisms.upright_servo_arm(TARGET, torque, gravity))
    return upright_servo_arrival(inertia, load, torque, TARGET, WITHIN)


def ramp_arrival(torque: float, duration: float) -> float:
    """Keyed 0 -> 110° over `duration` s: an arm that can follow the ramp keeps its rate r and brakes at
    alpha = T / I to stop at its end, r / (2 alpha) after it; a faster ramp leaves it the step's time."""
    alpha = torque / held_arm(mechanisms.upright_servo_arm(TARGET, torque))[0]
    follows = duration + TARGET / duration / (2 * alpha) - math.sqrt(2 * WITHIN / alpha)
    return max(follows, step_arrival(torque, 0.0))


@pytest.mark.parametrize("h", [1 / 120, 1 / 960])
@pytest.mark.parametrize("target, torque, gravity, arrival", [
    (TARGET, 15.0, 0.0, lambda: step_arrival(15.0, 0.0)),
    ([[0.0, 0.0], [0.5, TARGET]], 15.0, 0.0, lambda: ramp_arrival(15.0, 0.5)),  # faster than the arm can follow
    ([[0.0, 0.0], [1.0, TARGET]], 15.0, 0.0, lambda: ramp_arrival(15.0, 1.0)),
    (TARGET, 20.0, 9.81, lambda: step_arrival(20.0, 9.81)),  # gravity pulls toward and past the target
], ids=["step-beside-a-held-elbow", "keyed-over-12-frames", "keyed-over-24-frames", "step-under-gravity"])
def test_a_servo_arrives_when_its_torque_allows_without_overshoot(target, torque, gravity, arrival, h):
    sim = simulate(mechanisms.upright_servo_arm(target, torque, gravity, h))
    reached, overshoot, rest = servo_course(sim, "shoulder", TARGET, WITHIN, 2.5)
    assert overshoot < 1e-6  # rad (45.5°, 45.6° and 29.5° on the arm before)
    assert 0.0 <= reached - arrival() < 2 * h  # first order in h: the last step's approach
    assert rest < 1e-7
    assert sim.joint_position("elbow") == pytest.approx(0.0, abs=1e-7)


def test_a_schedule_stops_where_a_run_of_slopes_of_one_sign_ends():
    """servo_rate's bound: where a keyed target next stops from each key on."""
    assert run_ends([0.0, 1.0, 2.0, 2.0, 1.0, 3.0]).tolist() == [2.0, 2.0, 2.0, 1.0, 3.0, 3.0]
    assert run_ends(np.array([5.0])).tolist() == [5.0]
