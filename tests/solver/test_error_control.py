"""Error control (solver/error_control.py, setting `error_tolerance`): the step-doubling estimate's
order in h, the sub-steps it chooses, and the hard cases it keeps within their bounds: a whipping
zig-zag, a fast heavy top, Andrews' squeezer."""
import mechanisms
import numpy as np
import pytest
from measure import heavy_top_axes, precession_and_tilt

from mechbake.solver import Model, Simulation
from mechbake.solver.kernels.error_control import length_factor
from mechbake.solver.rotation import quaternion_to_matrix

SQUEEZER_BETA = 15.81077120  # rad at 0.03 s, IFToMM A03 (benchmarks/a03_andrews_squeezer.py)


def test_the_estimate_falls_as_the_cube_of_the_step():
    """The method's local error is O(h^3) (Schmitt §8): halving the sub-step divides the estimate by 8."""
    sim = Simulation(Model.from_dict(mechanisms.double_pendulum()), dmax=1e-11, vmax=1e-11)
    sim.run(0.2)
    position = sim.state.frames.position.copy()
    estimates = [sim.local_error(h).max() for h in (0.02, 0.01, 0.005)]
    assert np.array_equal(sim.state.frames.position, position)  # the estimate leaves the state as it was
    ratios = np.array(estimates[:-1]) / np.array(estimates[1:])
    assert np.all((ratios > 6.5) & (ratios < 10.0)), ratios


def test_off_by_default_and_the_same_steps_as_before():
    sim = Simulation(Model.from_dict(mechanisms.double_pendulum()))
    sim.run(0.5)
    assert sim.model.settings.error_tolerance == 0.0
    assert sim.stats["substeps"] == sim.stats["steps"] and sim.stats["rejected"] == 0


def test_a_halved_tolerance_shortens_the_steps_by_the_square_root_of_two():
    """The error per unit time goes as the sub-step squared, so half the tolerance asks sub-steps
    1/sqrt(2) as long: about 1.41 times as many."""
    counts = []
    for tolerance in (2e-3, 1e-3):
        sim = Simulation(Model.from_dict(mechanisms.double_pendulum()), h=0.05, error_tolerance=tolerance)
        sim.run(2.0)
        assert sim.stats["smallest_substep"] < sim.h / 4  # the controller, not h, sets the steps
        counts.append(sim.stats["substeps"])
    assert 1.25 < counts[1] / counts[0] < 1.6, counts


def test_the_step_grows_and_shrinks_smoothly():
    assert length_factor(1.0) == pytest.approx(0.9)
    assert length_factor(0.25) == pytest.approx(1.8)
    assert length_factor(1e-6) == 2.0 and length_factor(0.0) == 2.0
    assert length_factor(1e6) == 0.2


def test_the_steps_end_on_every_step_of_h():
    """A frame's keys stay on frames: however the controller cuts them, the steps end at k h."""
    sim = Simulation(Model.from_dict(mechanisms.hanging_zigzag()), error_tolerance=3e-3)
    times = []
    sim.run(1.0, callback=lambda s: times.append(s.time))
    assert np.allclose(times, 0.01 * np.arange(1, 101), rtol=0, atol=1e-12)
    assert sim.stats["rejected"] > 0 and sim.stats["smallest_substep"] < 0.005
    assert sim.stats["largest_error_ratio"] > 1.0  # the rejected ones


def test_the_zigzag_keeps_its_energy():
    """The 8-Loop released as a zig-zag whips its middle links 0.3 rad a step at h = 0.01; under the
    controller its energy wanders less than 0.2 J on average over 10 s."""
    sim = Simulation(Model.from_dict(mechanisms.hanging_zigzag()), error_tolerance=3e-3)
    start, wander = sim.energy(), []
    sim.run(10.0, callback=lambda s: wander.append(abs(s.energy() - start)))
    assert np.mean(wander) < 0.2


@pytest.mark.parametrize("order", [2, 3, 5, 8])
def test_the_heavy_top_precesses_at_every_taylor_order(order):
    """At every Taylor order the top precesses within 0.5 % of the reference's rate and 0.1 degrees of
    its mean tilt (an RK4 solve of the top's own equations)."""
    data, sample, duration = mechanisms.heavy_top(), 0.01, 1.0
    rate, tilt = precession_and_tilt(heavy_top_axes(data, duration, sample, 1e-4), sample)
    sim = Simulation(Model.from_dict(data), taylor_order=order, error_tolerance=3e-3)
    axes = [quaternion_to_matrix(sim.orientation("top"))[:, 2]]
    sim.run(duration, callback=lambda s: axes.append(quaternion_to_matrix(s.orientation("top"))[:, 2]))
    simulated_rate, simulated_tilt = precession_and_tilt(np.array(axes), sample)
    assert abs(simulated_rate / rate - 1) < 0.005
    assert abs(simulated_tilt.mean() - tilt.mean()) < 0.1


def test_andrews_squeezer_at_the_default_step():
    """Andrews' squeezer at the default h = 0.01: under the controller its crank angle at 0.03 s is
    within 1e-3 rad of the published 15.81077120 rad."""
    sim = Simulation(Model.from_dict(mechanisms.andrews_squeezer()), error_tolerance=3e-4)
    sim.run(0.03)
    assert abs(mechanisms.SQUEEZER_ANGLES[0] + sim.joint_position("O") - SQUEEZER_BETA) < 1e-3


def test_accurate_steps_are_the_steps_of_an_uncontrolled_run():
    """The controller keeps the whole sub-step it estimated: where every step is within the tolerance
    at h (A02's four-bars), a run is the uncontrolled run, number for number."""
    model = Model.from_dict(mechanisms.n_four_bar(2, h=0.005))
    controlled, plain = Simulation(model, error_tolerance=1e-2), Simulation(model)
    controlled.run(2.0)
    plain.run(2.0)
    assert controlled.stats["rejected"] == 0 and controlled.stats["smallest_substep"] == 0.005
    assert np.array_equal(controlled.state.frames.position, plain.state.frames.position)
    assert controlled.stats["substeps"] < 1.2 * plain.stats["substeps"]  # the estimate runs on few steps
