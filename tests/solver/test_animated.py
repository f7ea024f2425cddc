"""Animated bodies: a body moved by its motion table drives the mechanism through its joints."""
import re

import numpy as np
import pytest
from scenes import scene, simulate

from mechbake.solver import ModelError, Model

G, PIVOT_ACCELERATION, LENGTH = 9.81, 3.0, 1.0
FRAME = 1.0 / 24.0


def identity_turns(count: int) -> list:
    return [[1.0, 0.0, 0.0, 0.0]] * count


def accelerating_pivot(h: float) -> dict:
    """A pendulum hung from a support that accelerates along x from rest, sampled at 24 fps."""
    times = np.arange(0.0, 3.0, FRAME)
    motion = {"time": times.tolist(), "position": [[0.5 * PIVOT_ACCELERATION * t * t, 0.0, 0.0] for t in times],
              "orientation": identity_turns(len(times))}
    return scene([{"name": "Support", "motion": motion}, {"name": "Bob", "mass": 1.0, "position": [0, 0, -LENGTH]}],
                 [{"name": "Rod", "type": "distance", "body_a": "Support", "body_b": "Bob", "anchor_a": [0, 0, 0],
                   "anchor_b": [0, 0, -LENGTH]}], h=h, dmax=1e-6)


def pendulum_on_accelerating_pivot(duration: float, dt: float = 1e-4) -> list:
    """(time, angle from the vertical) by RK4 of L θ'' = -(g sin θ + a cos θ), from rest hanging down."""
    def rate(y):
        return np.array([y[1], -(G * np.sin(y[0]) + PIVOT_ACCELERATION * np.cos(y[0])) / LENGTH])

    y, out = np.zeros(2), [(0.0, 0.0)]
    for k in range(int(round(duration / dt))):
        k1 = rate(y)
        k2 = rate(y + 0.5 * dt * k1)
        k3 = rate(y + 0.5 * dt * k2)
        k4 = rate(y + dt * k3)
        y = y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        out.append(((k + 1) * dt, y[0]))
    return out


def worst_angle_error(h: float, duration: float = 2.0) -> float:
    sim = simulate(accelerating_pivot(h))
    reference = dict((round(t, 6), angle) for t, angle in pendulum_on_accelerating_pivot(duration))
    worst = 0.0
    while sim.time < duration - 1e-9:
        sim.step()
        offset = sim.position("Bob") - sim.position("Support")
        angle = np.arctan2(offset[0], -offset[2])
        worst = max(worst, abs(angle - reference[round(sim.time, 6)]))
        assert sim.velocity("Support") == pytest.approx([PIVOT_ACCELERATION * sim.time, 0, 0], abs=1e-9)
    return worst


def test_a_pendulum_on_an_accelerating_support_swings_as_the_analytic_one_to_second_order():
    coarse, fine = worst_angle_error(0.01), worst_angle_error(0.005)
    assert coarse < 1e-4  # it swings 0.6 rad (twice the tilt atan(a / g)) each period
    assert coarse / fine == pytest.approx(4.0, rel=0.15)


CRANK, COUPLER, ROCKER, GROUND = 0.3, 1.0, 0.8, 1.0
CRANK_SPEED = 2 * np.pi  # rad/s


def turn_about_minus_y(angle: float) -> list:
    """The turn taking +x to (cos angle, 0, sin angle)."""
    return [np.cos(angle / 2), 0.0, -np.sin(angle / 2), 0.0]


def coupler_pin(crank_angle: float) -> np.ndarray:
    """The closed-form four-bar: the coupler-rocker pin B, on the branch it starts on (above)."""
    a = CRANK * np.array([np.cos(crank_angle), np.sin(crank_angle)])  # (x, z)
    o4 = np.array([GROUND, 0.0])
    span = np.linalg.norm(o4 - a)
    along = (o4 - a) / span
    across = np.array([-along[1], along[0]])
    u = (COUPLER ** 2 - ROCKER ** 2 + span ** 2) / (2 * span)
    return a + u * along + np.sqrt(COUPLER ** 2 - u ** 2) * across


def keyed_crank_four_bar() -> dict:
    times = np.arange(0.0, 2.5, FRAME)
    crank = {"name": "Crank", "motion": {"time": times.tolist(), "position": [[0.0, 0.0, 0.0]] * len(times),
                                         "orientation": [turn_about_minus_y(CRANK_SPEED * t) for t in times]}}
    b = coupler_pin(0.0)
    pin_b = [b[0], 0.0, b[1]]
    coupler = {"name": "Coupler", "mass": 1.0, "inertia": [0.1, 0.1, 0.1],
               "position": [(CRANK + b[0]) / 2, 0, b[1] / 2]}
    rocker = {"name": "Rocker", "mass": 1.0, "inertia": [0.1, 0.1, 0.1], "position": [(GROUND + b[0]) / 2, 0, b[1] / 2]}
    hinge = {"type": "hinge", "axis": [0, 1, 0]}
    return scene([crank, coupler, rocker], [
        {"name": "CrankPin", "body_a": "Crank", "body_b": "Coupler", "anchor": [CRANK, 0, 0], **hinge},
        {"name": "CouplerPin", "body_a": "Coupler", "body_b": "Rocker", "anchor": pin_b, **hinge},
        {"name": "RockerAxle", "body_a": "world", "body_b": "Rocker", "anchor": [GROUND, 0, 0], **hinge}],
        h=0.005, dmax=1e-7)


def test_a_keyed_crank_drives_a_four_bar_as_the_closed_form_linkage():
    sim = simulate(keyed_crank_four_bar())
    while sim.time < 2.0 - 1e-9:
        sim.step()
        crank_angle = CRANK_SPEED * sim.time
        # the crank follows its 24 fps samples (a turn of 15° between them) closely
        assert abs(sim.orientation("Crank") @ turn_about_minus_y(crank_angle)) == pytest.approx(1.0, abs=1e-10)
        assert sim.angular_velocity("Crank") == pytest.approx([0, -CRANK_SPEED, 0], abs=2e-3)
        expected = coupler_pin(crank_angle)
        pin = 2 * sim.position("Rocker") - np.array([GROUND, 0, 0])  # the rocker's centre is halfway
        assert pin[[0, 2]] == pytest.approx(expected, abs=1e-5)
    assert sim.max_joint_error() < 1e-6


def test_an_animated_body_is_checked():
    motion = {"time": [0.0, 1.0], "position": [[0, 0, 0], [1, 0, 0]], "orientation": identity_turns(2)}
    bob = {"name": "Bob", "mass": 1.0, "position": [0, 0, -1]}
    rod = {"name": "Rod", "type": "distance", "body_a": "Support", "body_b": "Bob", "anchor_a": [0, 0, 0],
           "anchor_b": [0, 0, -1]}
    cases = [
        ({"fixed": True}, "body 'Support': field 'motion' is for a body that moves: a fixed body has none"),
        ({"position": [0, 0, 0]}, "body 'Support': field 'position' comes from 'motion' for an animated body"),
        ({"motion": {**motion, "time": [0.0, 0.0]}}, "field 'time' must increase from sample to sample, but #1 "
                                                     "(0 s) does not come after #0 (0 s)"),
        ({"motion": {**motion, "time": [-1.0, 0.0]}}, "field 'motion' must start at time 0 or later, got -1 s"),
        ({"motion": {**motion, "orientation": [[0, 0, 0, 0], [1, 0, 0, 0]]}}, "must not be zero (sample #0)"),
        ({"motion": {**motion, "position": [[0, 0, 0]]}}, "field 'position' must be numbers of shape [2, 3]"),
    ]
    for change, message in cases:
        support = {"name": "Support", "motion": motion, **change}
        with pytest.raises(ModelError, match=re.escape(message)):
            Model.from_dict(scene([support, bob], [rod]))
    ground = {"name": "Ground", "fixed": True, "position": [0, 0, 0]}
    tied = {**rod, "body_b": "Ground", "anchor_b": [0, 0, 0.5]}
    with pytest.raises(ModelError, match="both fixed or animated"):
        Model.from_dict(scene([{"name": "Support", "motion": motion}, ground], [tied]))


def test_an_animated_body_holds_still_before_and_after_its_table_and_round_trips_through_json():
    motion = {"time": [0.5, 1.0], "position": [[0, 0, 0], [1, 0, 0]], "orientation": identity_turns(2)}
    data = scene([{"name": "Support", "motion": motion}, {"name": "Bob", "mass": 1.0, "position": [0, 0, -1]}],
                 [{"name": "Rod", "type": "distance", "body_a": "Support", "body_b": "Bob", "anchor_a": [0, 0, 0],
                   "anchor_b": [0, 0, -1]}], h=0.01)
    model = Model.from_dict(data)
    assert Model.from_dict(model.to_dict()).to_dict() == model.to_dict()
    sim = simulate(data)
    sim.run(0.4)
    assert sim.position("Support") == pytest.approx([0, 0, 0]) and sim.velocity("Support") == pytest.approx([0, 0, 0])
    sim.run(0.35)
    assert 0.0 < sim.position("Support")[0] < 1.0 and sim.velocity("Support")[0] > 0.0
    sim.run(0.5)
    assert sim.position("Support") == pytest.approx([1, 0, 0]) and sim.velocity("Support") == pytest.approx([0, 0, 0])
