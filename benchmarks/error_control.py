"""Error control's figures (docs/error_control.md) with each setting: nothing (both off), the energy gate
(setting `energy_tolerance`, a fraction; 5e-3 is the default) and the step-doubling controller (setting
`error_tolerance`, m/s), each beside its goal: the zig-zag 8-Loop's energy wander (benchmarks/whipping_chain.py),
the heavy top at Taylor orders 2-8 (benchmarks/heavy_top.py), Andrews' squeezer at h = 0.01
(benchmarks/a03_andrews_squeezer.py), and the scenes already accurate whose speed must hold: Schmitt's
8-Loop at h = 0.01, Dmax = 1e-5 (Table 9.4's cell and speed, benchmarks/eight_loop.py) and IFToMM A02
with N = 10 at h = 0.005 (benchmarks/a02_n_four_bar.py). Wall times are the best of 3 runs without a
callback.
    python benchmarks/error_control.py [--energy-tolerances 5e-3 2e-3] [--tolerances 1e-2 3e-3 1e-3] [--orders 2-8]
"""
import argparse
import math
import time

import numpy as np
from common import best_wall_time, table
from heavy_top import SAMPLE, simulated_axes
from measure import heavy_top_axes, parallelogram_crank_angles, precession_and_tilt

import mechanisms
from mechbake.solver import Model, Simulation, SimulationDiverged

SQUEEZER_BETA = 15.81077120  # rad at 0.03 s, published
ZIGZAG_GOAL, PRECESSION_GOAL, TILT_GOAL, SQUEEZER_GOAL = 0.25, 0.5, 0.1, 1e-3  # J, %, degrees, rad
DURATION = 10.0


def zigzag(settings: dict) -> list:
    model = Model.from_dict(mechanisms.hanging_zigzag())
    sim = Simulation(model, **settings)
    start, wander = sim.energy(), []
    began = time.perf_counter()
    sim.run(DURATION, callback=lambda s: wander.append(abs(s.energy() - start)))
    wall = time.perf_counter() - began
    return [f"{np.mean(wander):.3f}", f"{max(wander):.3f}", sim.stats["substeps"], sim.stats["rejected"],
            f"{wall:.2f}"]


def heavy_top(settings: dict, orders: range, reference: tuple) -> list[list]:
    rate0, tilt0 = reference
    rows = []
    for order in orders:
        try:
            axes, drift, stats = simulated_axes(mechanisms.heavy_top(), 2.0, taylor_order=order,
                                                **settings)
        except SimulationDiverged as error:
            rows.append([label(settings), order, str(error), "", "", "", ""])
            continue
        rate, tilt = precession_and_tilt(axes, SAMPLE)
        rows.append([label(settings), order, f"{rate:.5f}", f"{100 * (rate / rate0 - 1):+.3f}",
                     f"{tilt.mean() - tilt0.mean():+.4f}", f"{drift:+.2e}", stats["substeps"]])
    return rows


def squeezer(settings: dict) -> list:
    sim = Simulation(Model.from_dict(mechanisms.andrews_squeezer()), **settings)
    began = time.perf_counter()
    try:
        sim.run(0.03)
    except SimulationDiverged as error:
        return [str(error), "", "", "", ""]
    beta = mechanisms.SQUEEZER_ANGLES[0] + sim.joint_position("O")
    return [f"{beta:.8f}", f"{beta - SQUEEZER_BETA:+.3e}", sim.stats["substeps"],
            f"{sim.stats['smallest_substep']:.2e}", f"{time.perf_counter() - began:.2f}"]


def eight_loop(settings: dict) -> list:
    model = Model.from_dict(mechanisms.eight_loop(0.01, 1e-5))
    sim = Simulation(model, **settings)
    energies: list[float] = []
    sim.run(DURATION, callback=lambda s: energies.append(abs(s.energy())))
    wall = best_wall_time(lambda: Simulation(model, **settings).run(DURATION))
    return [f"{np.mean(energies):.4f}", sim.stats["substeps"], f"{wall:.3f}"]


def a02(settings: dict, exact: float) -> list:
    model = Model.from_dict(mechanisms.n_four_bar(10, h=0.005))
    sims = []

    def run():
        sims.append(Simulation(model, **settings))
        sims[-1].run(DURATION)

    wall = best_wall_time(run)
    centre = sims[-1].position("crank0")
    error = (math.atan2(centre[0], centre[1]) - exact + math.pi) % (2 * math.pi) - math.pi
    return [f"{error:+.3e}", sims[-1].stats["substeps"], f"{wall:.3f}"]


def label(settings: dict) -> str:
    if settings.get("error_tolerance"):
        return f"error {settings['error_tolerance']:g} m/s"
    return f"energy {settings['energy_tolerance']:g}" if settings.get("energy_tolerance") else "off"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--energy-tolerances", type=float, nargs="*", default=[5e-3, 2e-3])
    parser.add_argument("--tolerances", type=float, nargs="*", default=[1e-2, 3e-3, 1e-3])
    parser.add_argument("--orders", default="2-8")
    args = parser.parse_args()
    first, _, last = args.orders.partition("-")
    orders = range(int(first), int(last or first) + 1)
    Simulation(Model.from_dict(mechanisms.hanging_zigzag())).run(0.01)  # the kernels load here
    reference = precession_and_tilt(heavy_top_axes(mechanisms.heavy_top(), 2.0, SAMPLE, 1e-5), SAMPLE)
    exact = parallelogram_crank_angles(10, 0.005, round(DURATION / 0.005), 50)[-1]
    cases = ([{"energy_tolerance": 0.0}] + [{"energy_tolerance": value} for value in args.energy_tolerances]
             + [{"error_tolerance": value} for value in args.tolerances])
    table(f"Zig-zag 8-Loop, h = 0.01, {DURATION:g} s: energy wander, J (goal: mean <= {ZIGZAG_GOAL})",
          ["setting", "mean", "largest", "substeps", "rejected", "wall s"],
          [[label(settings)] + zigzag(settings) for settings in cases])
    table(f"Heavy top, h = 0.01, 2 s: reference precession {reference[0]:.5f} rad/s, mean tilt "
          f"{reference[1].mean():.4f} deg (goal: within {PRECESSION_GOAL} %, {TILT_GOAL} deg)",
          ["setting", "order", "precession", "error %", "mean tilt error deg", "energy drift J", "substeps"],
          [row for settings in cases for row in heavy_top(settings, orders, reference)])
    table(f"Andrews' squeezer, h = 0.01: beta(0.03 s) against {SQUEEZER_BETA} rad (goal: within {SQUEEZER_GOAL})",
          ["setting", "beta rad", "error rad", "substeps", "smallest substep s", "wall s"],
          [[label(settings)] + squeezer(settings) for settings in cases])
    table("Already accurate: the 8-Loop at h = 0.01, Dmax = 1e-5 (Table 9.4's cell: mean |E|, paper 0.2083 J) "
          "and A02 N = 10 at h = 0.005 (the first crank's error at 10 s)",
          ["setting", "8-Loop mean |E| J", "substeps", "wall s", "A02 crank error rad", "substeps", "wall s"],
          [[label(settings)] + eight_loop(settings) + a02(settings, exact) for settings in cases])


if __name__ == "__main__":
    main()
