"""Every documented limit of the solver's API is reachable without a crash or a hang: a duration or
step that cannot run is a ModelError naming it, a large points shape costs what its size does, and a
run that diverges because a body's mass or inertia is out of scale names that body."""
import json
import math
import tracemalloc
import warnings

import numpy as np
import pytest

import mechanisms
from mechbake.solver import Model, ModelError, Simulation, SimulationDiverged
from mechbake.solver.__main__ import main
from scenes import scene


@pytest.mark.parametrize("duration", [-1, -1e-9, math.nan, math.inf, -math.inf, "2", True, None])
def test_a_duration_that_is_not_a_finite_time_is_named(duration):
    sim = Simulation(Model.from_dict(mechanisms.double_pendulum()))
    with pytest.raises(ModelError, match=r"^run: duration must be"):
        sim.run(duration)
    assert sim.stats["steps"] == 0 and sim.time == 0.0


def test_steps_too_short_or_too_long_for_the_duration_are_named_before_any_step(tmp_path, capsys):
    tiny = Simulation(Model.from_dict(mechanisms.double_pendulum()), h=1e-30)
    with pytest.raises(ModelError, match=r"run: duration 2 s at h = 1e-30 s is 2e\+30 steps, more than 1e\+09"):
        tiny.run(2.0)
    huge = Simulation(Model.from_dict(mechanisms.double_pendulum()), h=1e30)
    with pytest.raises(ModelError, match=r"run: duration 2 s is less than half a step \(h = 1e\+30 s\)"):
        huge.run(2.0)
    huge.run(0.0)  # nothing asked, nothing done
    assert tiny.stats["steps"] == huge.stats["steps"] == 0
    path = tmp_path / "double_pendulum.json"
    path.write_text(json.dumps(mechanisms.double_pendulum()))
    assert main(["run", str(path), "--duration", "2", "--h", "1e-30"]) == 2  # it hung
    assert "2e+30 steps" in capsys.readouterr().err


def test_a_points_shape_costs_memory_in_proportion_to_its_points():
    """Pairs are built between bodies, not between every two point slots (2.3 GB for 10,000 points)."""
    points = np.random.default_rng(0).uniform(-0.2, 0.2, (10_000, 3)).tolist()
    cloud = {"name": "cloud", "mass": 1.0, "inertia": [0.01] * 3, "position": [0, 0, 1],
             "shape": {"type": "points", "points": points}}
    crate = {"name": "crate", "mass": 1.0, "inertia": [0.01] * 3, "position": [0, 0, 2],
             "shape": {"type": "box", "size": [0.3] * 3}}
    tracemalloc.start()
    model = Model.from_dict(scene([cloud, crate], []))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(model.contacts.slot_pairs) == 10_000  # each point against the crate's box
    assert peak < 100e6


def pendulum_scaled(body: str, field: str, factor: float) -> dict:
    data = mechanisms.double_pendulum()
    record = next(b for b in data["bodies"] if b["name"] == body)
    if field == "mass":
        record["mass"] *= factor
    else:
        record["inertia"] = (np.array(record["inertia"]) * factor).tolist()
    return data


@pytest.mark.parametrize("body, field, factor", [("lower", "inertia", 1e-26), ("upper", "mass", 1e-29),
                                                 ("lower", "mass", 1e29)])
def test_a_divergence_caused_by_a_body_out_of_scale_names_that_body(body, field, factor):
    """It blamed the joint left open ("kept a gap of 1.4e-07 m"), never the body."""
    sim = Simulation(Model.from_dict(pendulum_scaled(body, field, factor)))
    with pytest.raises(SimulationDiverged) as raised:
        sim.run(1.0)
    assert raised.value.body == body
    assert f"body '{body}': its " in str(raised.value) and "too far apart" in str(raised.value)


def test_a_body_turning_on_a_joint_at_its_centre_is_not_blamed_for_a_divergence():
    """A wheel on an axle through its centre of mass (5.6e-17 m off it, by rounding) has a moment 1e30
    times its mass at that reach; that loses nothing in K. A run that diverges (gravity 1e12 m/s²) names
    the joint left open, not the wheel."""
    data = mechanisms.pendulum()
    data["gravity"] = [0.0, 0.0, -1e12]
    data["bodies"].append({"name": "wheel", "mass": 1.0, "inertia": [0.01] * 3, "position": [0.1 + 0.2, 0.0, 0.5]})
    data["joints"].append({"name": "axle", "type": "hinge", "body_a": "world", "body_b": "wheel",
                           "anchor": [0.3, 0.0, 0.5], "axis": [0.0, 1.0, 0.0]})
    with pytest.raises(SimulationDiverged, match=r"joint '(rod|axle)' kept a gap") as raised:
        Simulation(Model.from_dict(data)).run(1.0)
    assert raised.value.body is None and raised.value.joint in ("rod", "axle")



def test_a_dmax_finer_than_a_double_resolves_is_named_before_the_run():
    """A Dmax finer than a double resolves across the mechanism is refused, naming the finest that
    works: no step could close the gaps to it, and each would be halved to its floor."""
    data = mechanisms.double_pendulum()
    data["settings"]["dmax"] = 1e-30
    with pytest.raises(ModelError, match=r"^settings: field 'dmax' 1e-30 m is finer than a double resolves across "
                                         r"the mechanism, which reaches 1.85 m from the origin; give at least 3e-14 m"):
        Model.from_dict(data)
    data["settings"]["dmax"] = 1e-13
    Simulation(Model.from_dict(data)).run(0.05)


def test_a_run_whose_first_step_crawls_is_named_at_once():
    """A box on soft springs whose moments of inertia are 1e-7 kg m^2 cuts each step into 140: the
    run said nothing while it crawled (a bake that looks hung)."""
    data = mechanisms.spring_suspension("soft")
    data["bodies"][0]["inertia"] = [1e-7] * 3
    sim = Simulation(Model.from_dict(data))
    with pytest.warns(RuntimeWarning, match=r"^at t = 0.01 s a step of 0.01 s needed \d+ sub-steps: at this pace the "
                                            r"999 steps left take about"):
        sim.run(10.0, callback=lambda s: False)  # stops after the first step, when the warning is given
    assert sim.stats["steps"] == 1 and len(sim.warnings) == 1
    calm = Simulation(Model.from_dict(mechanisms.spring_suspension("soft")))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        calm.run(10.0, callback=lambda s: False)
    assert calm.warnings == []
