"""A free body's energy of rotation is watched: a run in which it grows ends in an error naming the body."""
import mechanisms
import pytest

from mechbake.solver import Model, Simulation, SimulationDiverged
from mechbake.solver.free_turn import ENERGY_GROWTH, free_bodies
from scenes import scene


def spinning(order, h, omega=(10.0, 4.0, 20.0)):
    bodies = [{"name": "top", "mass": 2.0, "inertia": [1.0, 2.0, 3.5], "position": [0.0, 0.0, 0.0],
               "orientation": [0.9, 0.1, 0.3, -0.2], "angular_velocity": list(omega)},
              {"name": "still", "mass": 1.0, "inertia": [0.1, 0.1, 0.1], "position": [2.0, 0.0, 0.0]}]
    return Simulation(Model.from_dict(scene(bodies, [], gravity=(0, 0, 0), taylor_order=order, h=h)))


@pytest.mark.parametrize("callback", [None, lambda sim: None])
def test_explicit_euler_spin_ends_in_an_error_naming_the_body(callback):
    """Order 1 gains (h w')^2 J / 2 every step: at h = 0.001 the body's energy would grow without
    bound (by 4.7e15 in the run that found it), and the run ends within a fraction of a second."""
    sim = spinning(order=1, h=0.001)
    with pytest.raises(SimulationDiverged, match="body 'top' turns freely") as error:
        sim.run(5.0, callback)
    assert error.value.body == "top" and error.value.joint is None
    assert error.value.time < 1.0


@pytest.mark.parametrize("order", [3, 8])
def test_a_series_that_does_not_gain_energy_runs_on(order):
    sim = spinning(order, h=0.01)
    energy = sim.energy()
    sim.run(5.0)
    assert sim.time == pytest.approx(5.0)
    assert sim.energy() < (1 + ENERGY_GROWTH) * energy


def test_only_bodies_nothing_acts_on_are_watched():
    assert free_bodies(spinning(3, 0.01).model).tolist() == [1, 2]
    assert free_bodies(Model.from_dict(mechanisms.heavy_top())).size == 0
    assert free_bodies(Model.from_dict(mechanisms.four_balls())).size == 0  # every ball can touch the table
