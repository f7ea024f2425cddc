"""Servo motors (Schmitt §10): position and velocity modes, torque limits, brakes, keyed targets."""
import math

import pytest

import mechanisms
from scenes import rod, scene, simulate

ARM_INERTIA = 2.0 * (3 * 0.03**2 + 1.0) / 12 + 2.0 * 0.5**2  # 2 kg, 1 m rod about its end


def test_strong_servo_reaches_and_holds_its_target():
    sim = simulate(mechanisms.servo_arm(max_torque=50.0, target=0.5))
    sim.run(2.0)
    assert sim.joint_position("shoulder") == pytest.approx(0.5, abs=1e-7)
    sim.run(1.0)
    assert sim.joint_position("shoulder") == pytest.approx(0.5, abs=1e-7)
    assert abs(sim.angular_velocity("arm")[1]) < 1e-6


def test_weak_servo_settles_where_gravity_torque_equals_its_limit():
    data = mechanisms.servo_arm(max_torque=5.0, target=0.5)
    data["joints"][0]["motor"]["brake"] = 3.0
    sim = simulate(data)
    sim.run(12.0)
    # 2 kg at 0.5 m: m g d cos(angle) = max_torque, below the horizontal
    expected = -math.acos(5.0 / (2.0 * 9.81 * 0.5))
    assert sim.joint_position("shoulder") == pytest.approx(expected, abs=1e-4)


def spinner(target, max_torque):
    arm = rod("arm", [0, 0, 0], [1, 0, 0], mass=2.0, radius=0.03)
    joint = {"name": "axle", "type": "hinge", "body_a": "world", "body_b": "arm", "anchor": [0, 0, 0],
             "axis": [0, 0, 1], "motor": {"mode": "velocity", "target": target, "max_torque": max_torque}}
    return simulate(scene([arm], [joint], gravity=(0, 0, 0), h=0.005, dmax=1e-9))


def test_velocity_motor_accelerates_at_its_torque_limit_then_holds_speed():
    sim = spinner(target=3.0, max_torque=1.0)
    sim.run(0.5)
    assert sim.angular_velocity("arm")[2] == pytest.approx(1.0 * 0.5 / ARM_INERTIA, rel=1e-6)  # never above the limit
    sim.run(2.0)
    assert sim.angular_velocity("arm")[2] == pytest.approx(3.0, abs=1e-9)


def test_keyed_targets_are_followed():
    sim = spinner(target=[[0.0, 0.0], [1.0, 2.0], [2.0, 2.0]], max_torque=1000.0)
    sim.run(0.5)
    assert sim.angular_velocity("arm")[2] == pytest.approx(1.0, abs=1e-9)
    data = mechanisms.servo_arm(max_torque=200.0, target=[[0.0, 0.0], [2.0, 1.0]])
    arm = simulate(data)
    arm.run(1.0)
    assert arm.joint_position("shoulder") == pytest.approx(0.5, abs=1e-7)


def test_multi_turn_velocity_motor_unwraps_the_angle():
    sim = spinner(target=10.0, max_torque=1e6)  # strong enough to reach 10 rad/s in the first step
    sim.run(2.0)
    assert sim.joint_position("axle") == pytest.approx(20.0, abs=1e-4)  # three turns and more, unwrapped


def test_slider_motor_drives_the_crank_slider_without_opening_a_joint():
    sim = simulate(mechanisms.crank_slider())
    worst = 0.0
    for _ in range(400):
        sim.step()
        worst = max(worst, sim.max_joint_error())
    assert worst < 1e-7
    assert sim.joint_position("crank_axle") == pytest.approx(-2.0 * sim.time, abs=0.02)
    assert sim.stats["halvings"] == 0
