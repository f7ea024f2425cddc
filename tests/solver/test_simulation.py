"""The step as a whole: solvers agree, the step halves and grows back, divergence is reported, the
velocity correction leaves joints at rest relative to each other, runs can be stopped."""
import numpy as np
import pytest

import mechanisms
from mechbake.solver import Model, Simulation, SimulationDiverged, warm_up
from mechbake.solver.kernels import correction
from scenes import rod, scene, simulate


def test_iterative_and_system_solvers_agree():
    runs = {}
    for solver in ("iterative", "system"):
        sim = simulate(mechanisms.double_pendulum(), solver=solver, dmax=1e-10)
        sim.run(1.0)
        runs[solver] = sim.position("lower")
    assert runs["iterative"] == pytest.approx(runs["system"], abs=1e-6)


def test_iterative_solver_whose_sweeps_grow_a_gap_goes_on_as_the_system_solver_does():
    """A chain of every joint kind without drives (warm_up.every_joint): at t = 0.3 s one sweep of the
    iterative solver's joint-by-joint corrections throws the slider off by 4.2 times the worst gap the
    step started with, at every step length, so halving could not help and the run diverged there.
    Where its sweeps grow a gap, the stage solves the whole system, and the run ends where the system
    solver's does."""
    runs = {}
    for solver in ("iterative", "system"):
        sim = Simulation(Model.from_dict(warm_up.every_joint(solver, driven=False)))
        sim.run(1.0)
        assert sim.max_joint_error() < sim.model.settings.dmax
        runs[solver] = np.array([sim.position(f"link{k}") for k in range(1, 6)]), sim.energy()
    assert runs["iterative"][0] == pytest.approx(runs["system"][0], abs=1e-5)
    assert runs["iterative"][1] == pytest.approx(runs["system"][1], abs=1e-5)


@pytest.mark.parametrize("checkpoint, expected", [(2e-5, False), (1.1e-5, True), (1e-5, True)])
def test_iterative_sweeps_hand_over_when_their_rate_would_not_reach_dmax_within_the_budget(checkpoint, expected):
    """Halving a gap every RATE_WINDOW (16) sweeps brings 1e-5 below 1e-6 in 54 more sweeps, inside a
    budget of 200 from sweep 16; shrinking it by a tenth, or not at all, would not."""
    assert bool(correction.sweeps_too_slow(16, 1e-5, checkpoint, 1e-6, 200)) is expected


def test_step_halves_when_a_joint_cannot_be_closed_and_grows_back():
    """Schmitt §5's halving alone: the energy gate would halve these long steps before they fail."""
    sim = simulate(mechanisms.eight_loop(h=0.1, dmax=1e-9), energy_tolerance=0.0)
    sim.run(2.0)
    assert sim.stats["halvings"] > 0
    assert sim.stats["substeps"] > sim.stats["steps"] == 20
    assert sim.max_joint_error() < 1e-9
    assert sim.time == pytest.approx(2.0, abs=1e-12)
    assert sim.substep == 0.1  # grown back


def test_contradictory_constraints_raise_simulation_diverged_naming_time_and_joint():
    """An arm hinged at the origin, its tip held by a support that an animation carries out of its
    reach: no step closes the gap. (A motor on an axis that other joints lock is no contradiction:
    it has nothing to drive, kernels/drives.LOCKED.)"""
    arm = rod("arm", [0, 0, 0], [1, 0, 0])
    times = np.linspace(0.0, 2.0, 49)
    support = {"name": "support", "motion": {"time": times.tolist(), "position": [[1.0 + t, 0.0, 0.0] for t in times],
                                             "orientation": [[1.0, 0.0, 0.0, 0.0]] * len(times)}}
    joints = [{"name": "pivot", "type": "hinge", "body_a": "world", "body_b": "arm", "anchor": [0, 0, 0],
               "axis": [0, 1, 0]},
              {"name": "tip", "type": "ball", "body_a": "support", "body_b": "arm", "anchor": [1, 0, 0]}]
    sim = simulate(scene([arm, support], joints, h=0.01, dmax=1e-8, max_corrections=20))
    with pytest.raises(SimulationDiverged, match=r"diverged at t = [0-9.]+ s: joint '(pivot|tip)'") as caught:
        sim.run(1.0)
    assert caught.value.joint in ("pivot", "tip") and caught.value.body is None  # no body out of scale
    assert 0.0 <= caught.value.time < 1.0
    assert np.isfinite(sim.position("arm")).all()  # the state is the last good one, never NaN


@pytest.mark.parametrize("levers", ["start", "thirds"])
def test_a_step_that_cannot_be_taken_ends_in_a_named_error_after_bounded_work(levers):
    """Under a gravity of 1e12 m/s² no step short enough keeps the rod on its pivot: the run stops with
    SimulationDiverged naming the joint once a step has used its budget of sub-steps, instead of halving for
    minutes."""
    data = mechanisms.pendulum()
    data["gravity"] = [0.0, 0.0, -1e12]
    sim = simulate(data, levers=levers)
    with pytest.raises(SimulationDiverged, match=r"joint 'rod' kept a gap of [0-9.e+-]+ m \(the step needed more "
                                                 r"than 4096 sub-steps\)") as caught:
        sim.run(1.0)
    assert caught.value.joint == "rod"
    assert sim.stats["substeps"] < 4096 * (sim.stats["steps"] + 1)


def test_velocity_correction_brings_joint_rates_below_vmax():
    sim = simulate(mechanisms.eight_loop(), vmax=1e-8)
    for _ in range(50):
        sim.step()
        assert sim.joint_rates().max() < 1e-8


def test_run_calls_back_and_can_be_stopped():
    sim = simulate(mechanisms.pendulum())
    seen = []
    sim.run(1.0, callback=lambda s: seen.append(s.time) or len(seen) < 10)
    assert len(seen) == 10 and sim.stats["steps"] == 10
    assert sim.time == pytest.approx(0.1)


def test_gaps_stay_below_dmax_in_a_closed_chain():
    sim = Simulation(Model.from_dict(mechanisms.eight_loop()), dmax=1e-6)
    for _ in range(200):
        sim.step()
        assert sim.max_joint_error() < 1e-6


def test_four_bar_with_redundant_hinges_moves_and_holds_together():
    sim = simulate(mechanisms.four_bar())
    energy = sim.energy()
    for _ in range(400):
        sim.step()
        assert sim.max_joint_error() < 1e-7
    assert abs(sim.energy() - energy) < 1e-3 * abs(energy)
    assert sim.stats["halvings"] == 0
