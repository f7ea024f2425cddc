"""Ballistic motion (Schmitt §3): free fall, torque-free rotation by the Taylor series, orthonormalisation."""
import mechanisms
import numpy as np
import pytest
from measure import heavy_top_axes, precession_and_tilt

from mechbake.solver import Model, Simulation
from mechbake.solver.rotation import quaternion_to_matrix
from scenes import scene


def spinning_body(order=3, h=0.01, omega=(1.0, 0.4, 2.0)):
    body = {"name": "top", "mass": 2.0, "inertia": [1.0, 2.0, 3.5], "position": [0, 0, 0],
            "orientation": [0.9, 0.1, 0.3, -0.2], "angular_velocity": list(omega), "velocity": [0.5, 0, 3]}
    return Simulation(Model.from_dict(scene([body], [], gravity=(0, 0, 0), taylor_order=order, h=h)))


def angular_momentum(sim):
    r = quaternion_to_matrix(sim.orientation("top"))
    inertia_world = r @ np.diag([1.0, 2.0, 3.5]) @ r.T
    return inertia_world @ sim.angular_velocity("top")


def test_free_fall_is_exact():
    body = {"name": "ball", "mass": 1.0, "position": [0, 0, 10], "velocity": [1, 2, 3]}
    sim = Simulation(Model.from_dict(scene([body], [])), h=0.01)
    sim.run(2.0)
    t = sim.time
    expected = np.array([1 * t, 2 * t, 10 + 3 * t - 0.5 * 9.81 * t * t])
    assert sim.position("ball") == pytest.approx(expected, abs=1e-11)
    assert sim.velocity("ball") == pytest.approx([1, 2, 3 - 9.81 * t], abs=1e-11)


@pytest.mark.parametrize("order, tolerance", [(3, 5e-6), (8, 1e-12)])
def test_torque_free_rotation_conserves_momentum_and_energy(order, tolerance):
    sim = spinning_body(order)
    momentum, energy = angular_momentum(sim), sim.energy()
    sim.run(5.0)
    assert np.abs(angular_momentum(sim) - momentum).max() < tolerance * np.linalg.norm(momentum)
    assert sim.energy() == pytest.approx(energy, rel=tolerance)


def test_fast_rotation_is_conserved_better_at_every_higher_order():
    """A body turning 0.64 rad a step: the series is summed in pieces short enough for it to converge
    (kernels/flight.flight_pieces), so every order conserves momentum and energy better than the one
    below it. Summed over the whole step, orders 4 and 5 lost 2.4 % and gained 0.64 % of the energy."""
    drift = {}
    for order in range(3, 9):
        sim = spinning_body(order, omega=(20.0, -8.0, 60.0))
        momentum, energy = angular_momentum(sim), sim.energy()
        sim.run(2.0)
        drift[order] = (np.abs(angular_momentum(sim) - momentum).max() / np.linalg.norm(momentum),
                        abs(sim.energy() / energy - 1))
    for order in range(3, 8):
        assert drift[order + 1][0] < drift[order][0] and drift[order + 1][1] < drift[order][1]
    assert drift[3][1] < 0.02 and drift[4][1] < 1e-3 and drift[6][1] < 1e-5


def test_heavy_top_precesses_as_its_equations_at_every_order():
    """A top spinning at 150 rad/s, h = 0.01 (1.5 rad a step, taken in two: test_whirl.py), against a
    tight solve of its equations: the precession within 0.5 % and the mean tilt within 0.2 degrees at
    every order from 3 to 6, and a higher order never further off. The series summed over the whole
    step sank the top at order 4 (precession -19 %) and raised it at 5 and 6."""
    sample, duration = 0.01, 1.0
    data = mechanisms.heavy_top()
    rate0, tilt0 = precession_and_tilt(heavy_top_axes(data, duration, sample, 5e-5), sample)
    error = {}
    for order in range(3, 7):
        sim = Simulation(Model.from_dict(data), h=sample, taylor_order=order)
        axes = [quaternion_to_matrix(sim.orientation("top"))[:, 2]]
        sim.run(duration, callback=lambda s: axes.append(quaternion_to_matrix(s.orientation("top"))[:, 2]))
        rate, tilt = precession_and_tilt(np.array(axes), sample)
        error[order] = abs(rate / rate0 - 1)
        assert error[order] < 0.005
        assert abs(tilt.mean() - tilt0.mean()) < 0.2
    for order in range(3, 6):
        assert error[order + 1] <= error[order] + 1e-4


def rotation_after(order, h, duration=0.2):
    """The series alone, at h: the energy gate (on by default) would halve order 1's steps."""
    sim = spinning_body(order, h)
    sim = Simulation(sim.model, energy_tolerance=0.0)
    sim.run(duration)
    return quaternion_to_matrix(sim.orientation("top"))


def test_taylor_order_sets_the_accuracy():
    """The body-frame series is exact at every order: raising the order, and halving h at a fixed
    order, both shrink the error as a method of that order should. Order 1 sums its series in pieces of
    0.018 rad (kernels/flight.PIECE_TURN), so its steps are taken shorter than that (the body turns
    2.3 rad/s), in one piece each."""
    reference = rotation_after(8, 0.0005)
    error = {(order, h): np.abs(rotation_after(order, h) - reference).max()
             for order, steps in ((1, (0.004, 0.002)), (3, (0.02, 0.01))) for h in steps}
    assert error[(3, 0.01)] < error[(1, 0.002)] / 100
    # omega's series leaves O(h^(order+1)) per step, so the error over a fixed time is O(h^order)
    assert error[(1, 0.004)] / error[(1, 0.002)] == pytest.approx(2.0, rel=0.15)
    assert error[(3, 0.02)] / error[(3, 0.01)] == pytest.approx(8.0, rel=0.25)


def test_orthonormalisation_squares_the_error():
    """Schmitt §3: the error squares with every pass, so a rotation 2e-4 off orthonormal is within the
    kernel's tolerance (1e-13) inside its ORTHONORMAL_PASSES (4): 2e-4, 4e-8, 2e-15. An iteration that
    only shrank the error by a constant factor would need dozens."""
    from mechbake.solver.kernels.flight import ORTHONORMAL_PASSES, ORTHONORMAL_TOLERANCE, orthonormalize

    rotation = quaternion_to_matrix([0.8, 0.2, -0.3, 0.4])
    noisy = rotation + 1e-4 * np.random.default_rng(1).standard_normal((3, 3))
    before = np.abs(noisy.T @ noisy - np.eye(3)).max()
    assert before > 1e-4
    assert ORTHONORMAL_PASSES <= 4
    orthonormalize(noisy)  # in place
    assert np.abs(noisy.T @ noisy - np.eye(3)).max() < ORTHONORMAL_TOLERANCE
    assert np.abs(noisy - rotation).max() < 1e-3  # stays near the rotation it came from
