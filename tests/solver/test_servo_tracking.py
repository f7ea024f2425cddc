"""Position servos tracking moving targets: the 7-link arm of mechanisms.seven_link_arm, its servos (200 N m,
torque to spare) following sines keyed every 5 ms. Once a servo has caught its target it follows the keyed
value exactly, and its rows, solved with the others' as one system, cost what holding still costs."""
import copy

import numpy as np

import mechanisms
from scenes import simulate

H = 0.005


def keyed_errors(data: dict, duration: float) -> np.ndarray:
    """(steps, joints) |angle - keyed target| after each step."""
    sim = simulate(data)
    names = [joint["name"] for joint in data["joints"]]
    tables = [np.array(joint["motor"]["target"]) for joint in data["joints"]]
    errors = []
    sim.run(duration, lambda s: errors.append([abs(s.joint_position(name) - np.interp(s.time, *table.T))
                                               for name, table in zip(names, tables)]))
    return np.array(errors)


def test_servos_with_torque_to_spare_follow_moving_targets_exactly():
    """...through each of their targets' 56 turns in 10 s: a servo that reaches a turn's key, to
    round-off, goes on with its target (held to that key as a stop, it stood still a step, 2.3e-4 rad)."""
    errors = keyed_errors(mechanisms.seven_link_arm(10.5, H), 10.0)
    caught = round(1.5 / H)  # each has caught its target from rest by then
    assert errors[caught:].max() < 1e-5  # rad


def test_tracking_costs_what_holding_still_costs():
    """The servos' rows are coupled through the arm; solved together they close in one solve a stage,
    however the targets move (row by row, a hundred passes a sub-step). Started from the impulses of the
    last two sub-steps (kernels/warm_start.py), the joint correction of a moving arm closes in about one
    solve a sub-step (two without the guess: its look-ahead turns), and of an arm holding still in none
    after the two sub-steps that start its history."""
    tracking = simulate(mechanisms.seven_link_arm(3.0, H))
    holding = copy.deepcopy(mechanisms.seven_link_arm(3.0, H))
    for joint in holding["joints"]:
        joint["motor"]["target"] = 0.0
    still = simulate(holding)
    for sim in (tracking, still):
        sim.run(2.0)
        assert sim.stats["halvings"] == 0
        assert sim.stats["velocity_solves"] == sim.stats["substeps"]
    assert tracking.stats["solves"] < 1.5 * tracking.stats["substeps"]
    assert still.stats["solves"] <= 2
