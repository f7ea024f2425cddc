"""The energy gate (solver/energy_gate.py, setting `energy_tolerance`, on by default): where no force
does work, a sub-step that changes the energy by more than its allowance is undone and halved."""
import mechanisms
import numpy as np
import pytest

from mechbake.solver import Model, Simulation
from mechbake.solver.energy_gate import energy_scale, gate_settings


SQUEEZER_BETA = 15.81077120  # rad at 0.03 s, IFToMM A03


def energy_wander(sim: Simulation, duration: float) -> np.ndarray:
    """|E(t) - E(0)| after every step, J."""
    start, wander = sim.energy(), []
    sim.run(duration, callback=lambda s: wander.append(abs(s.energy() - start)))
    return np.array(wander)


@pytest.mark.parametrize("h", [0.01, 0.005])
def test_the_whipping_zigzag_keeps_its_energy_at_the_defaults(h):
    """Released as a horizontal zig-zag, the chain's middle rods turn 0.3 rad a step of 0.01 s and single
    steps gain or lose joules (2.4 J at h = 0.01 and 1.1 J at 0.005 at worst in its first 3 s without the
    gate); the gate halves them: the largest wander falls at least four times at either step, and the
    mean stays within the issue's 0.25 J (the paper's 8-Loop: 0.21 J, Table 9.4)."""
    model = Model.from_dict(mechanisms.hanging_zigzag(h=h))
    gated = Simulation(model)
    kept = energy_wander(gated, 3.0)
    ungated = energy_wander(Simulation(model, energy_tolerance=0.0), 3.0)
    assert ungated.max() > 1.0  # the case is one the gate has work in
    assert kept.max() < 0.25 * ungated.max()
    assert kept.mean() < 0.25
    assert gated.stats["energy_halvings"] > 0
    assert gated.stats["halvings"] == 0  # the joints closed on every sub-step; only the energy halved them


def test_the_steps_still_end_on_every_step_of_h():
    sim = Simulation(Model.from_dict(mechanisms.hanging_zigzag()))
    times = []
    sim.run(1.0, callback=lambda s: times.append(s.time))
    assert np.allclose(times, 0.01 * np.arange(1, 101), rtol=0, atol=1e-12)
    assert sim.stats["substeps"] > sim.stats["steps"]


def test_accurate_steps_are_untouched():
    """IFToMM A02 (ten four-bars under gravity) at h = 0.005 keeps its energy within a few mJ of 159 J
    every step: the gate halves nothing, and the run is the ungated one number for number."""
    model = Model.from_dict(mechanisms.n_four_bar(10, h=0.005))
    runs = [Simulation(model, energy_tolerance=tolerance) for tolerance in (5e-3, 0.0)]
    for sim in runs:
        sim.run(1.0)
    assert runs[0].stats["energy_halvings"] == 0
    assert np.array_equal(runs[0].state.frames.position, runs[1].state.frames.position)
    assert np.array_equal(runs[0].state.twist, runs[1].state.twist)


def test_a_tighter_tolerance_keeps_the_energy_tighter():
    """The allowance is the tolerance times the energy traded: a tenth of it halves more sub-steps and
    leaves the zig-zag's energy closer to its start."""
    model = Model.from_dict(mechanisms.hanging_zigzag())
    loose, tight = Simulation(model, energy_tolerance=5e-3), Simulation(model, energy_tolerance=5e-4)
    loose_wander, tight_wander = energy_wander(loose, 2.0), energy_wander(tight, 2.0)
    assert tight.stats["energy_halvings"] > 2 * loose.stats["energy_halvings"]
    assert tight_wander.max() < 0.5 * loose_wander.max()


@pytest.mark.parametrize("spec, overrides", [
    (mechanisms.spring_suspension(), {}), (mechanisms.servo_arm(), {}), (mechanisms.four_balls(), {}),
    (mechanisms.double_pendulum(), {"extrapolation": "richardson"}),
    (mechanisms.double_pendulum(), {"error_tolerance": 1e-2})],
    ids=["soft spring", "servo", "contacts", "richardson", "error_tolerance"])
def test_off_where_forces_do_work(spec, overrides):
    """A soft spring's force and a motor's do work the balance does not count, contacts and Richardson's
    combined state are not one sub-step's, and the step-doubling controller judges its sub-steps
    itself: the gate is off for each, and with a tolerance so tight that it would halve every step
    each runs as it does without it."""
    model = Model.from_dict({**spec, "settings": {**spec.get("settings", {}), **overrides}})
    assert gate_settings(model)[0] == 0.0
    runs = [Simulation(model, energy_tolerance=tolerance) for tolerance in (1e-12, 0.0)]
    for sim in runs:
        sim.run(0.1)
    assert runs[0].stats["energy_halvings"] == 0
    assert np.array_equal(runs[0].state.frames.position, runs[1].state.frames.position)


def test_on_where_nothing_does_work():
    """The same tight tolerance on the zig-zag halves its steps (the check of the test above)."""
    sim = Simulation(Model.from_dict(mechanisms.hanging_zigzag()), energy_tolerance=1e-12)
    sim.run(1.0)
    assert sim.stats["energy_halvings"] > 0


def test_the_scale_is_what_the_forces_trade_across_the_mechanism():
    """The zig-zag: 8 rods of 1 kg between anchors 3 m apart (radius of gyration of a 0.5 m rod 0.144 m),
    8 * 9.81 N across 3 + 2 * 0.144 m. A spring adds the energy it holds at the start; an effort of T on
    a hinge, T pi."""
    gyration = np.sqrt((0.5**2 / 12 * 2 + 1e-4) / 2)
    assert energy_scale(Model.from_dict(mechanisms.hanging_zigzag())) == pytest.approx(8 * 9.81 * (3 + 2 * gyration))
    assert energy_scale(Model.from_dict({**mechanisms.hanging_zigzag(), "gravity": [0, 0, 0]})) == 0.0
    data = mechanisms.andrews_squeezer()  # no gravity: its spring's energy at the start and its torque
    spring, torque = data["joints"][-1], data["joints"][0]["effort"]
    stretch = np.linalg.norm(np.subtract(spring["anchor_b"], spring["anchor_a"])) - spring["rest_length"]
    assert energy_scale(Model.from_dict(data)) == pytest.approx(0.5 * spring["stiffness"] * stretch**2 + torque * np.pi)


def test_andrews_squeezer_is_no_longer_quietly_wrong_at_the_default_step():
    """IFToMM A03 at h = 0.01: the torque turns the crank 15.8 rad in 0.03 s, three steps, and the
    ungated run ends 4.5 rad off (in 27 sub-steps, which its spinning crank's whirl asks for;
    test_whirl.py). The balance of its energy (its spring's by the shadow its steps keep)
    against its torque's work halves the steps until they keep it: 0.08 rad off at the default."""
    data = mechanisms.andrews_squeezer()
    gated, plain = Simulation(Model.from_dict(data)), Simulation(Model.from_dict(data), energy_tolerance=0.0)
    for sim in (gated, plain):
        sim.run(0.03)
    beta = [mechanisms.SQUEEZER_ANGLES[0] + sim.joint_position("O") for sim in (gated, plain)]
    assert abs(beta[1] - SQUEEZER_BETA) > 1.0
    assert abs(beta[0] - SQUEEZER_BETA) < 0.1
    assert gated.stats["energy_halvings"] > 0


def test_a_spring_is_judged_by_the_energy_its_steps_keep():
    """A mass on a spring stepped at omega h = 1: its energy swings by an eighth of itself each period
    (velocity Verlet's), yet E - (h^2 / 8) F^2 / m stays to rounding, so no step is halved, and a run
    with a tolerance a thousand times tighter is the same run."""
    body = {"name": "mass", "mass": 2.0, "position": [0, 0, 0.5]}
    spring = {"name": "spring", "type": "spring", "body_a": "world", "body_b": "mass", "anchor_a": [0, 0, -1.0],
              "anchor_b": [0, 0, 0.5], "rest_length": 1.0, "stiffness": 2.0e4, "method": "impulse"}
    data = {"format": "mechbake/1", "gravity": [0, 0, 0], "settings": {"h": 0.01}, "bodies": [body],
            "joints": [spring]}
    runs = [Simulation(Model.from_dict(data), energy_tolerance=tolerance) for tolerance in (5e-3, 5e-6, 0.0)]
    energies = []
    runs[0].run(1.0, callback=lambda s: energies.append(s.energy()))
    for sim in runs[1:]:
        sim.run(1.0)
    assert np.ptp(energies) > 0.05 * np.mean(energies)  # the swing the gate must not take for an error
    assert runs[0].stats["energy_halvings"] == runs[1].stats["energy_halvings"] == 0
    assert np.array_equal(runs[1].state.frames.position, runs[2].state.frames.position)
