"""A torque-limited position servo moves as the analytic arm does, whatever the step: it accelerates
at its limit, brakes on the time-optimal curve, holds its target; too weak, it swings about (or,
braked, settles at) the angle where its torque balances gravity's."""
import math

import numpy as np
import pytest

import mechanisms
from measure import arm_under_torque, crossing_times, servo_reach_time
from mechbake.solver import SimulationDiverged
from scenes import scene, simulate

MASS, LEVER, G = 1.0, 0.5, 9.81  # a 1 m rod of 1 kg hanging from its end: its centre 0.5 m out
RADIUS = 0.01
INERTIA = MASS * (3 * RADIUS ** 2 + 1.0) / 12 + MASS * LEVER ** 2  # about the hinge


def arm(max_torque, target, h, start_angle=0.0, brake=0.0, levers="start"):
    """The rod hanging start_angle from straight down, its servo hinge about y; the servo's angle
    is 0 at the start, so the target is given from straight down and converted."""
    tip = [math.sin(start_angle), 0.0, -math.cos(start_angle)]
    rod = mechanisms.rod("arm", [0, 0, 0], tip, mass=MASS, radius=RADIUS)
    motor = {"mode": "position", "target": target - start_angle, "max_torque": max_torque, "brake": brake}
    hinge = {"name": "shoulder", "type": "hinge", "body_a": "world", "body_b": "arm", "anchor": [0, 0, 0],
             "axis": [0, -1, 0], "motor": motor}
    return simulate(scene([rod], [hinge], h=h, dmax=1e-8, levers=levers))


def angle(sim, start_angle=0.0) -> float:
    return sim.joint_position("shoulder") + start_angle


def time_to_reach(sim, target, fraction=0.02, duration=2.0) -> float:
    """When the angle first comes within the fraction of the target (rising to it), interpolated
    between steps so the step's length does not round the time."""
    return crossing_times(sim, lambda s: angle(s) - (1 - fraction) * target, 1, limit=duration)[0]


def test_a_servo_reaches_its_target_in_the_analytic_time_whatever_the_step():
    target = math.pi / 2
    expected = servo_reach_time(INERTIA, MASS * G * LEVER, 10.0, target)
    coarse = time_to_reach(arm(10.0, target, 0.01), target)
    fine = time_to_reach(arm(10.0, target, 0.001), target)
    assert coarse == pytest.approx(fine, rel=0.02)
    assert fine == pytest.approx(expected, abs=1e-3)  # first order in h: 0.0003 s off at h = 0.001


def test_a_servo_arrives_without_overshoot_and_holds_its_target_exactly():
    target = math.pi / 2
    sim = arm(10.0, target, 0.005)
    highest = 0.0
    while sim.time < 2.0:
        sim.step()
        highest = max(highest, angle(sim))
    assert highest < target + 1e-6
    assert angle(sim) == pytest.approx(target, abs=1e-7)
    assert abs(sim.angular_velocity("arm")[1]) < 1e-6


def worst_swing_error(brake: float, h: float, duration: float = 4.0) -> float:
    reference = arm_under_torque(INERTIA, MASS * G * LEVER, 2.0, brake, 0.0, duration)
    sim = arm(2.0, math.pi / 2, h, brake=brake)
    worst = 0.0
    while sim.time < duration - 1e-9:
        sim.step()
        worst = max(worst, abs(angle(sim) - reference[int(round(sim.time / 1e-4))]))
    return worst


@pytest.mark.parametrize("brake", [0.0, 0.5])
def test_a_servo_too_weak_for_its_load_pushes_with_its_limit(brake):
    """Target 90°, 2 N m against up to 4.9 N m of gravity: the servo pushes at its limit throughout,
    so the arm swings about the torque balance asin(T / m g d) = 0.420 rad (without a brake it keeps
    swinging: nothing takes its energy) or, braked, settles there. The limit acts as an impulse at
    the start of each step, so the motion converges to the analytic one at first order in h."""
    coarse, fine = worst_swing_error(brake, 0.005), worst_swing_error(brake, 0.0025)
    assert coarse < 5e-3  # rad, over swings of 0.84 rad (measured 4.0e-3 unbraked, 2.3e-3 braked)
    assert coarse / fine == pytest.approx(2.0, rel=0.15)
    if brake:
        sim = arm(2.0, math.pi / 2, 0.005, brake=brake)
        sim.run(25.0)
        assert angle(sim) == pytest.approx(math.asin(2.0 / (MASS * G * LEVER)), abs=1e-6)


@pytest.mark.parametrize("levers", ["start", "thirds"])
def test_a_braked_weak_servo_settles_at_the_torque_balance_from_above(levers):
    """Held at its balance the arm still turns within each step (the servo pushes at its limit, the
    joint pulls it back), but it lands where it started: the levers at thirds of that chord are the
    resting arm's, and the balance is the same (1.2e-5 rad off while the joint correction's levers
    came from the first look-ahead, where the arm had turned)."""
    start = 1.2  # above the balance: gravity's 4.6 N m beats the servo's 2 N m
    sim = arm(2.0, math.pi / 2, 0.005, start_angle=start, brake=0.5, levers=levers)
    sim.run(25.0)
    assert angle(sim, start) == pytest.approx(math.asin(2.0 / (MASS * G * LEVER)), abs=1e-6)


def test_a_servo_given_no_torque_leaves_its_joint_free():
    """A torque limit of 0 in a file is a servo that can do nothing (Blender's 0 means unlimited and
    writes no limit): the arm, released 0.5 rad out, swings as a free pendulum whatever its keyed
    target asks (it diverged at once, naming the world: the first key made a 0 / 0)."""
    start = 0.5
    rod = mechanisms.rod("arm", [0, 0, 0], [math.sin(start), 0.0, -math.cos(start)], mass=MASS, radius=RADIUS)
    motor = {"mode": "position", "target": [[0, 0], [1, 1.0]], "max_torque": 0.0}
    hinge = {"name": "shoulder", "type": "hinge", "body_a": "world", "body_b": "arm", "anchor": [0, 0, 0],
             "axis": [0, -1, 0], "motor": motor}
    sim = simulate(scene([rod], [hinge], h=0.005, dmax=1e-8))
    reference = arm_under_torque(INERTIA, MASS * G * LEVER, 0.0, 0.0, start, 2.0)
    worst = 0.0
    while sim.time < 2.0 - 1e-9:
        sim.step()
        worst = max(worst, abs(angle(sim, start) - reference[int(round(sim.time / 1e-4))]))
    assert worst < 2e-4  # a free pendulum swinging 0.5 rad either way, to the method's O(h^2) (6.8e-5)


def unlimited_arm_against_its_limit() -> dict:
    """The hanging arm with limits of +-1 rad and a servo without a torque limit keyed to 2 rad."""
    rod = mechanisms.rod("arm", [0, 0, 0], [0.0, 0.0, -1.0], mass=MASS, radius=RADIUS)
    hinge = {"name": "shoulder", "type": "hinge", "body_a": "world", "body_b": "arm", "anchor": [0, 0, 0],
             "axis": [0, -1, 0], "limits": [-1.0, 1.0],
             "motor": {"mode": "position", "target": [[0, 0], [0.5, 0.0], [0.51, 2.0]]}}
    return scene([rod], [hinge], h=0.01)


def rocking_four_bar(target) -> dict:
    """A four-bar whose crank (0.8 m, upright, hinged at the origin) can turn 1.32 rad towards the
    rocker's pivot (1 m along x) before the coupler (0.5 m) and the rocker (0.8 m) lie in one line;
    the crank's servo has no torque limit."""
    crank_tip, pivot = np.array([0.0, 0.8]), np.array([1.0, 0.0])
    along = (crank_tip - pivot) / np.linalg.norm(crank_tip - pivot)
    reach = np.linalg.norm(crank_tip - pivot)
    base = (0.8**2 - 0.5**2 + reach**2) / (2 * reach)  # the rocker's tip: 0.5 from the crank's, 0.8 from its pivot
    rocker_tip = pivot + base * along + math.sqrt(0.8**2 - base**2) * np.array([along[1], -along[0]])
    if rocker_tip[1] < 0:
        rocker_tip = pivot + base * along - math.sqrt(0.8**2 - base**2) * np.array([along[1], -along[0]])
    point = lambda xz: [float(xz[0]), 0.0, float(xz[1])]  # noqa: E731
    bodies = [mechanisms.rod(name, point(a), point(b), mass=1.0, radius=RADIUS)
              for name, a, b in (("crank", [0, 0], crank_tip), ("coupler", crank_tip, rocker_tip),
                                 ("rocker", pivot, rocker_tip))]
    hinge = lambda name, a, b, at, **extra: {"name": name, "type": "hinge", "body_a": a, "body_b": b,  # noqa: E731
                                             "anchor": point(at), "axis": [0, 1, 0], **extra}
    joints = [hinge("drive", "world", "crank", [0, 0], motor={"mode": "position", "target": target}),
              hinge("elbow", "crank", "coupler", crank_tip), hinge("wrist", "coupler", "rocker", rocker_tip),
              hinge("base", "rocker", "world", pivot)]
    return scene(bodies, joints, h=0.01)


@pytest.mark.parametrize("mechanism, joint, asked", [
    (unlimited_arm_against_its_limit(), "shoulder", "goes from 0° to 114.6° (0 to 2 rad) between t = 0.5 and 0.51 s"),
    (rocking_four_bar([[0, 0], [0.2, 0.0], [0.21, 1.6]]), "drive",
     "goes from 0° to 91.67° (0 to 1.6 rad) between t = 0.2 and 0.21 s"),
    (rocking_four_bar([[0, 0], [1.0, 1.6]]), "drive", "goes from 0° to 91.67° (0 to 1.6 rad) between t = 0 and 1 s"),
], ids=["past-its-limit", "four-bar-jump", "four-bar-ramp"])
def test_a_servo_without_a_torque_limit_asked_where_the_mechanism_cannot_go_is_named(mechanism, joint, asked):
    """A servo without a torque limit follows its target exactly, so a target the mechanism
    cannot reach (past a limit, beyond a four-bar's dead point at 1.32 rad, whether keyed as a jump
    or a ramp) leaves no step that closes the joints. The error names the servo's joint and what its
    target does, where it named the joint left with a gap ("joint 'elbow' kept a gap of 3.18e-05 m")."""
    sim = simulate(mechanism)
    with pytest.raises(SimulationDiverged) as raised:
        sim.run(1.5)
    assert raised.value.joint == joint
    assert (f"joint '{joint}': its servo, with no torque limit, cannot make the mechanism follow its target, "
            f"which {asked}; give the servo a torque limit (Max Torque)") in str(raised.value)


@pytest.mark.parametrize("target", [[[0, 0], [0.2, 0.0], [0.21, 1.0]], [[0, 0], [1.0, 1.2]]])
def test_a_servo_without_a_torque_limit_follows_what_the_mechanism_can_reach(target):
    """The same four-bar keyed to angles short of its dead point, as a jump or a ramp: followed exactly."""
    sim = simulate(rocking_four_bar(target))
    sim.run(1.5)
    assert sim.joint_position("drive") == pytest.approx(target[-1][1], abs=1e-7)
    assert sim.max_joint_error() < 1e-6
