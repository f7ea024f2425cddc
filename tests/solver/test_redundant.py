"""Over-constrained mechanisms and singular positions: dependent rows of the §7
system cost no energy and no accuracy, and a four-bar passes its flat position."""
import numpy as np
import pytest

import mechanisms
from measure import parallelogram_crank_angles
from scenes import simulate


def crank_angle(sim) -> float:
    """The first crank's angle from the upright, clockwise (its pivot is at the origin)."""
    centre = sim.position("crank0")
    return float(np.arctan2(centre[0], centre[1]))


def test_bricard_mechanism_keeps_its_energy_at_the_defaults():
    """IFToMM A04 at MechBake's defaults (h = 0.01, Dmax = 1e-7): one row is dependent everywhere. Its
    energy stays within 0.025 % of the kinetic energy it reaches over 3 s, the O(h^2) swing it has at
    Dmax = 1e-9 too (a ridge in the factorisation leaked 9.5e-3 J, 0.24 %, by 1 s)."""
    sim = simulate(mechanisms.bricard())
    start = sim.energy()
    drift, kinetic = [], []

    def record(s):
        drift.append(s.energy() - start)
        kinetic.append(_kinetic(s))

    sim.run(3.0, callback=record)
    assert max(kinetic) > 3.0  # it moves: the potential energy it turns into motion, J
    assert np.abs(drift).max() < 2.5e-4 * max(kinetic)


def test_bricard_mechanism_with_the_iterative_solver_keeps_its_step_and_its_energy():
    """The iterative solver on IFToMM A04 at Dmax = 1e-6: K's softest pivot is 8e-3 of its row's
    everywhere, where joint-by-joint sweeps stalled and halved the step thousands of times (7524 in
    10 s); solving the whole system there it keeps its step and its energy as the system solver does."""
    sim = simulate(mechanisms.bricard(), solver="iterative", dmax=1e-6)
    start = sim.energy()
    drift = []
    sim.run(2.0, callback=lambda s: drift.append(s.energy() - start))
    assert sim.stats["halvings"] == 0
    assert np.abs(drift).max() < 2.5e-4 * 4.55  # of the kinetic energy it reaches


def _kinetic(sim) -> float:
    model, state = sim.model, sim.state
    moving = model.body_dynamic
    omega_body = np.einsum("nji,nj->ni", state.frames.rotation[moving], state.angular_velocity[moving])
    return float(0.5 * np.sum(model.body_mass[moving] * np.sum(state.velocity[moving] ** 2, axis=1))
                 + 0.5 * np.sum(model.body_inertia[moving] * omega_body**2))


@pytest.mark.parametrize("solver", ["system", "iterative"])
@pytest.mark.parametrize("h, dmax", [(None, None), (0.0099, 2e-6), (0.01, 1e-6), (0.0101, 1e-6), (0.0102, 2e-6)])
def test_a_parallelogram_four_bar_passes_its_flat_position(solver, h, dmax):
    """A02 with one window, at MechBake's defaults and at steps and Dmax near them: the cranks lie flat
    (every link on one line, three more rows dependent for an instant) at about 0.7 s and the
    mechanism goes on as the exact one-degree-of-freedom pendulum does. The iterative solver's sweeps
    stall there and the motion they leave along the flat position's second mode decides the branch, so
    near singular positions it solves the whole system (kernels/correction.NEAR_SINGULAR)."""
    settings = {"solver": solver} | ({"h": h, "dmax": dmax} if h else {})
    sim = simulate(mechanisms.n_four_bar(1), **settings)
    steps = 150
    exact = parallelogram_crank_angles(1, sim.h, steps)
    angles = [crank_angle(sim)]
    sim.run(steps * sim.h, callback=lambda s: angles.append(crank_angle(s)))
    angles = np.unwrap(angles)
    assert exact[-1] > np.pi / 2 + 0.5  # well past flat
    assert np.abs(angles - exact).max() < 0.02


def test_n_four_bar_passes_its_first_flat_position_with_the_iterative_solver():
    """A02 with N = 10 windows at the defaults: every window lies flat at about 0.72 s, and the
    iterative solver, solving the whole system there, goes on as the exact pendulum does."""
    sim = simulate(mechanisms.n_four_bar(10), solver="iterative")
    steps = 150
    exact = parallelogram_crank_angles(10, sim.h, steps)
    angles = [crank_angle(sim)]
    sim.run(steps * sim.h, callback=lambda s: angles.append(crank_angle(s)))
    assert exact[-1] > np.pi / 2 + 0.5  # well past flat
    assert np.abs(np.unwrap(angles) - exact).max() < 2e-3


def test_n_four_bar_follows_the_exact_crank_angle():
    """A02 with N = 10 windows (30 dependent rows) at MechBake's defaults (h = 0.01, Dmax = 1e-7): the
    first crank stays within 7.5e-3 rad of the exact angle over 10 s and ends within 1.5e-3 rad (a
    ridge in the factorisation: 2.5e-2 and 5.9e-3, the step halved at flat positions). The rest is the
    method's O(h^2) phase lead and Dmax's share (benchmarks/a02_n_four_bar.py)."""
    off, sim = crank_errors(mechanisms.n_four_bar(10))
    assert off.max() < 7.5e-3
    assert off[-1] < 1.5e-3
    assert sim.stats["halvings"] == 0


def crank_errors(data: dict):
    """(the first crank's distance from the exact angle at every step of 10 s, rad; the simulation)
    for an A02 model with N = 10 (mechanisms.n_four_bar(10, ...))."""
    sim = simulate(data)
    angles = [crank_angle(sim)]
    sim.run(10.0, callback=lambda s: angles.append(crank_angle(s)))
    return np.abs(np.unwrap(angles) - parallelogram_crank_angles(10, sim.h, len(angles) - 1)), sim


def test_n_four_bar_error_falls_with_the_step_at_the_default_dmax():
    """The error is the method's O(h^2), so a smaller step brings A02 closer (by (h2 / h1)^2 = 0.69 from
    h = 0.005 to Blender's default 1/240 s). It did not at Dmax = 1e-6: a solve leaves each gap just
    under Dmax, always on the same side, and that share grows with the number of steps (3.45e-3 rad at
    h = 0.005, 6.28e-3 at 1/240); at the default 1e-7 it is gone (1.81e-3 and 1.27e-3,
    benchmarks/a02_n_four_bar.py)."""
    coarse, fine = (crank_errors(mechanisms.n_four_bar(10, h=h))[0].max() for h in (0.005, 1 / 240))
    assert coarse < 2e-3
    assert fine < 0.8 * coarse


def test_n_four_bar_reaches_iftomm_high_accuracy_with_richardson():
    """A02 (N = 10, h = 0.005) at the library's high accuracy, 1e-3 rad (m) on B0 over 10 s: Schmitt
    §8's Richardson combination cancels the O(h^2) phase lead (1.81e-3 rad without it). It takes the
    default Dmax of 1e-7 (1.6e-3 rad at 1e-6: the gaps' share is not a power of h)."""
    data = mechanisms.n_four_bar(10, h=0.005)
    data["settings"]["extrapolation"] = "richardson"
    assert crank_errors(data)[0].max() < 1e-3


@pytest.mark.parametrize("h", [0.005, 1 / 240])
def test_n_four_bar_reaches_iftomm_high_accuracy_with_levers_at_thirds(h):
    """A02 (N = 10) within 1e-3 rad at h = 0.005 and Blender's default 1/240 s without Richardson's
    extra steps: the impulses' levers a third and two thirds along each step's chord take out the
    chords' phase lead (1.81e-3 and 1.27e-3 rad with the levers at the step's ends; 6.4e-4 and
    5.0e-4 at thirds, which do not fall as h^2: the rest comes from passing the flat positions,
    benchmarks/a02_n_four_bar.py)."""
    data = mechanisms.n_four_bar(10, h=h)
    data["settings"]["levers"] = "thirds"
    assert crank_errors(data)[0].max() < 1e-3


def _energy_wander(solver: str, h: float) -> tuple[float, float]:
    """mechanisms.hanging_zigzag over 10 s at Dmax = 1e-5: (mean, largest) |E(t) - E(0)|, J."""
    sim = simulate(mechanisms.hanging_zigzag(h=h, dmax=1e-5), solver=solver)
    start, wander = sim.energy(), []
    sim.run(10.0, callback=lambda s: wander.append(abs(s.energy() - start)))
    return float(np.mean(wander)), max(wander)


@pytest.mark.parametrize("solver", ["system", "iterative"])
def test_a_whipping_chain_keeps_its_energy_when_the_step_resolves_the_whips(solver):
    """Eight 0.5 m rods hung from points 3 m apart, dropped as a horizontal zig-zag (about 80 J of
    potential energy to swing through): no dependent rows, but the chain whips. At h = 0.005 the
    energy wanders 0.1 J on average."""
    mean, largest = _energy_wander(solver, 0.005)
    assert mean < 0.25
    assert largest < 2.0


def test_a_whipping_chain_keeps_its_energy_at_the_default_step():
    """At h = 0.01 the middle rods turn 0.3 rad a step and single steps gain joules that stay (the
    look-ahead's own solution gains 42 J in one, P-step 4 takes back 28 J): 4.9 J on average without
    the energy gate. The gate (energy_tolerance, on by default) halves those steps."""
    mean, largest = _energy_wander("system", 0.01)
    assert mean < 1.0
    assert largest < 5.0


@pytest.mark.xfail(strict=True, reason="known limit: near the flat position K has a direction 1e-4 as stiff "
                   "as the rest, and the ground's misfit (below Dmax) lies along it. The system solve closes it "
                   "anyway, and in a step that crosses the flat its sweeps grow the gaps (to 71 m in one) instead: "
                   "likely because an impulse at the step's start along that direction moves the landing's gap with "
                   "the sign of the crank's distance from flat at both ends. The step halves into the flat, and "
                   "closing the misfit there puts the energy 0.27 J off (the ground long) or 0.34 J (short; a "
                   "hanging four-bar's coupler folded onto the other branch); built exactly, it needs no halving")
@pytest.mark.parametrize("misfit", [6e-8, -6e-8])
def test_a_parallelogram_a_float_off_passes_its_flat_positions_keeping_its_energy(misfit):
    """A02 with N = 1 whose ground is `misfit` longer than its coupler: what Blender's 32-bit locations
    make of a parallelogram drawn at an angle (6e-8 m at 1 m). Built exactly, it keeps its energy
    within 5.6e-3 J over 10 s at h = 0.005 and passes every flat position without halving."""
    data = mechanisms.n_four_bar(1, h=0.005)
    data["joints"][1]["anchor"] = [1.0 + misfit, 0.0, 0.0]  # crank 1's pivot on the ground
    sim = simulate(data)
    start, wander = sim.energy(), []
    sim.run(10.0, callback=lambda s: wander.append(abs(s.energy() - start)))
    assert max(wander) < 0.02
    assert sim.stats["halvings"] == 0
