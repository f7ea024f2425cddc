"""A jointed body's gyroscopic mode bounds the step (kernels/flight.whirl_rate): a fast top's nutation
about its centre is the flight's, and the joint's impulses at the step's ends follow it only to second
order in its rate times the step."""
import copy
from types import SimpleNamespace

import mechanisms
import numpy as np
import pytest
from measure import heavy_top_axes, precession_and_tilt

from mechbake.solver import Model, Simulation
from mechbake.solver.kernels.flight import MAX_WHIRL_TURN, whirl_rate
from mechbake.solver.rotation import quaternion_to_matrix
from scenes import scene


def euler_jacobian(inertia, omega_body, step=1e-6):
    """d(omega dot)/d(omega) of Euler's torque-free equation J omega' = -omega x J omega, by differences."""
    def rate(w):
        return -np.cross(w, inertia * w) / inertia
    return np.column_stack([(rate(omega_body + step * e) - rate(omega_body - step * e)) / (2 * step)
                            for e in np.eye(3)])


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_the_whirl_rate_is_the_mode_of_eulers_equation_about_a_principal_axis(axis):
    """Spinning about its largest or smallest axis a body's mode oscillates, about the middle one it
    grows: either way its rate is the eigenvalue of Euler's equation linearised about omega (0 and
    +-lambda). Off the axes the rate stays within 10 % of the largest eigenvalue."""
    inertia = np.array([1.0, 2.0, 3.5])
    rng = np.random.default_rng(7)
    rotation, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    rotations = np.stack([np.eye(3), rotation])
    model = SimpleNamespace(joint_body=np.array([[0, 1]]), body_rotates=np.array([False, True]),
                            body_inertia=np.array([[0.0, 0.0, 0.0], inertia]))
    for omega_body in (30.0 * np.eye(3)[axis], np.array([7.0, -3.0, 11.0]), np.array([10.0, 10.0, 10.0])):
        twist = np.zeros((2, 6))
        twist[1, 3:] = rotation @ omega_body
        largest = np.abs(np.linalg.eigvals(euler_jacobian(inertia, omega_body))).max()
        rate = whirl_rate.py_func(model, rotations, twist)
        assert rate == pytest.approx(largest, rel=1e-6 if omega_body.tolist().count(0.0) == 2 else 0.1)
    free = SimpleNamespace(**{**model.__dict__, "joint_body": np.zeros((0, 2), dtype=int)})
    assert whirl_rate.py_func(free, rotations, twist) == 0.0  # nothing holds it: its flight is exact


@pytest.mark.parametrize("order", [2, 3, 4, 6, 8])
def test_the_heavy_top_at_the_defaults_precesses_and_tilts_as_its_equations(order):
    """The top spins 150 rad/s; about its centre its nutation turns 1.5 rad in the default step of
    0.01 s. At every Taylor order and the default settings it precesses within 0.5 % of an RK4 solve of
    its own equations and keeps its mean tilt within 0.1 degrees (in steps of 0.01 s: -0.70 % and -0.18
    degrees at order 2, -0.11 degrees at 3)."""
    data, sample, duration = mechanisms.heavy_top(), 0.01, 1.0
    rate, tilt = precession_and_tilt(heavy_top_axes(data, duration, sample, 1e-4), sample)
    sim = Simulation(Model.from_dict(data), taylor_order=order)
    assert sim.h == sample
    axes = [quaternion_to_matrix(sim.orientation("top"))[:, 2]]
    sim.run(duration, callback=lambda s: axes.append(quaternion_to_matrix(s.orientation("top"))[:, 2]))
    simulated_rate, simulated_tilt = precession_and_tilt(np.array(axes), sample)
    assert abs(simulated_rate / rate - 1) < 0.005
    assert abs(simulated_tilt.mean() - tilt.mean()) < 0.1
    assert sim.stats["substeps"] >= 2 * sim.stats["steps"]  # 1.5 rad of whirl a step: halved to 0.75


def test_the_heavy_top_above_a_floor_steps_as_without_it():
    """A floor below the top (a scene with contacts, stepped by simulation.py's sub-steps) changes
    nothing: the top takes the same steps and ends where it ends without the floor."""
    plain = mechanisms.heavy_top()
    above = copy.deepcopy(plain)
    above["bodies"][0]["shape"] = {"type": "sphere", "radius": 0.1}
    above["obstacles"] = [{"name": "floor", "type": "plane", "point": [0, 0, -1], "normal": [0, 0, 1]}]
    runs = [Simulation(Model.from_dict(data)) for data in (plain, above)]
    for sim in runs:
        sim.run(0.5)
    assert runs[1].stats["substeps"] == runs[0].stats["substeps"] == 2 * runs[0].stats["steps"]
    assert np.allclose(runs[1].orientation("top"), runs[0].orientation("top"), atol=1e-9)


def test_a_free_spinning_body_keeps_its_steps():
    """A body no joint holds turns by the exact series, however fast its whirl."""
    body = {"name": "top", "mass": 2.0, "inertia": [1.0, 2.0, 3.5], "position": [0, 0, 0],
            "orientation": [0.9, 0.1, 0.3, -0.2], "angular_velocity": [100.0, 40.0, 200.0]}
    sim = Simulation(Model.from_dict(scene([body], [], gravity=(0, 0, 0))), energy_tolerance=0.0)
    arrays, frames = sim.model.arrays, sim.state.frames
    held = arrays._replace(joint_body=np.array([[0, 1]]))
    assert whirl_rate.py_func(held, frames.rotation, sim.state.twist) * sim.h > 2 * MAX_WHIRL_TURN
    sim.run(0.5)
    assert sim.stats["substeps"] == sim.stats["steps"]
