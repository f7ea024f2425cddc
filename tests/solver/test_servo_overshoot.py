"""A position servo with a neighbour, a load or a keyed target reaches its target at the time its torque
allows and stops there, without overshoot: the upright box arm of mechanisms.upright_servo_arm, its shoulder servo
turning it 0 -> 110° while the elbow's servo holds the forearm. The servo brakes on the inertia it moves
with the elbow held, against gravity's pull over the way left, and no faster than it can stop where a
keyed target stops. A velocity motor at its limit applies its torque centred, half before the flight and
half after it, so the motion converges at second order."""
import math

import numpy as np
import pytest

import mechanisms
from measure import arm_under_torque, held_arm, passed_holds, servo_course, upright_arm_arrival
from mechbake.solver.drives import run_ends
from scenes import scene, simulate

TARGET = math.radians(110.0)
WITHIN = math.radians(0.5)


def step_arrival(torque: float, gravity: float) -> float:
    return upright_arm_arrival(mechanisms.upright_servo_arm(TARGET, torque, gravity), torque, TARGET, WITHIN)


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
    assert overshoot < 1e-6  # rad
    assert 0.0 <= reached - arrival() < 2 * h  # first order in h: the last step's approach
    assert rest < 1e-7
    assert sim.joint_position("elbow") == pytest.approx(0.0, abs=1e-7)


@pytest.mark.parametrize("h", [0.01, 0.0025, 1 / 960])
@pytest.mark.parametrize("torque", [40.0, 25.0])
def test_servos_keyed_through_poses_together_hold_them_without_passing(torque, h):
    """A 3-joint arm under gravity whose shoulder and elbow are keyed to move together: the elbow's stop
    hands its rate to the shoulder while the shoulder brakes, and the shoulder brakes for it; no servo
    passes a pose it holds by more than 1°."""
    sim = simulate(mechanisms.keyed_arm(torque, h))
    worst = passed_holds(sim, mechanisms.KEYED_ARM_POSES, 4.0)
    assert max(worst.values()) < math.radians(1.0)


def test_a_schedule_stops_where_a_run_of_slopes_of_one_sign_ends():
    """servo_rate's bound: where a keyed target next stops from each key on."""
    assert run_ends([0.0, 1.0, 2.0, 2.0, 1.0, 3.0]).tolist() == [2.0, 2.0, 2.0, 1.0, 3.0, 3.0]
    assert run_ends(np.array([5.0])).tolist() == [5.0]


DISC_INERTIA = 0.5  # kg m^2 about its axle


def free_disc(h: float, torque: float = 2.0):
    """A disc spinning up about an axle through its centre under a velocity motor whose target it never reaches."""
    disc = {"name": "disc", "mass": 2.0, "inertia": [0.25, 0.25, DISC_INERTIA], "position": [0, 0, 0]}
    axle = {"name": "axle", "type": "hinge", "body_a": "world", "body_b": "disc", "anchor": [0, 0, 0],
            "axis": [0, 0, 1], "motor": {"mode": "velocity", "target": 1e3, "max_torque": torque}}
    return simulate(scene([disc], [axle], gravity=(0, 0, 0), h=h, dmax=1e-9))


@pytest.mark.parametrize("h", [0.01, 0.0025])
def test_a_motor_at_its_limit_turns_a_free_disc_by_half_alpha_t_squared(h):
    """The torque is applied as the springs' forces are, half before the flight and half after it: the
    angle is (T / I) t^2 / 2 at every step (the whole budget spent before the flight leads it by
    T t h / (2 I), first order)."""
    sim = free_disc(h)
    sim.run(1.0)
    assert sim.joint_position("axle") == pytest.approx(0.5 * 2.0 / DISC_INERTIA * sim.time**2, abs=1e-9)
    assert sim.angular_velocity("disc")[2] == pytest.approx(2.0 / DISC_INERTIA * sim.time, rel=1e-9)


def swing_error(h: float) -> float:
    """A 1 m, 1 kg rod hanging from a hinge about y, pushed by a 2 N m velocity motor it cannot make turn
    over (gravity's 4.9 N m wins): its worst angle error over 2 s against RK4."""
    rod = mechanisms.rod("arm", [0, 0, 0], [0, 0, -1.0], mass=1.0, radius=0.01)
    hinge = {"name": "shoulder", "type": "hinge", "body_a": "world", "body_b": "arm", "anchor": [0, 0, 0],
             "axis": [0, -1, 0], "motor": {"mode": "velocity", "target": 1e3, "max_torque": 2.0}}
    sim = simulate(scene([rod], [hinge], h=h, dmax=1e-10))
    inertia = (3 * 0.01**2 + 1.0) / 12 + 0.5**2
    reference = arm_under_torque(inertia, 9.81 * 0.5, 2.0, 0.0, 0.0, 2.0)
    worst = 0.0
    while sim.time < 2.0 - 1e-9:
        sim.step()
        worst = max(worst, abs(sim.joint_position("shoulder") - reference[int(round(sim.time / 1e-4))]))
    return worst


def test_a_motor_at_its_limit_against_gravity_converges_at_second_order():
    coarse, fine = swing_error(0.01), swing_error(0.005)
    assert fine < 2e-4
    assert coarse / fine == pytest.approx(4.0, rel=0.2)
