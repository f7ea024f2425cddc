"""A heavy top at every Taylor order: a disc on a ball joint at its tip, 30 degrees from the vertical,
spinning at 150 rad/s, h = 0.01 (sample_scenes/mechanisms.heavy_top), against a tight solve of the
top's own equations (body-frame Euler equations about the tip with gravity's torque, the rotation as a
quaternion, classical Runge-Kutta at 1e-5 s).

Figures over 2 s: the mean precession rate (a line fitted to the axis' azimuth), the mean tilt, the
largest tilt error along the way, and the energy's drift (no force does work: it should stay).
    python benchmarks/heavy_top.py [--orders 1-8] [--duration 2] [--h 0.01]
"""
import argparse
import time

import numpy as np
from common import table
from measure import heavy_top_axes, precession_and_tilt

import mechanisms
from mechbake.solver import Model, SimulationDiverged, Simulation
from mechbake.solver.rotation import quaternion_to_matrix

REFERENCE_STEP = 1e-5
SAMPLE = 0.01  # the figures sample the axis every SAMPLE s, in the simulation and the reference alike


def simulated_axes(data: dict, duration: float, **settings) -> tuple[np.ndarray, float, dict]:
    """The simulated axis every SAMPLE s (h must divide it), the energy's largest drift, the stats."""
    sim = Simulation(Model.from_dict(data), **settings)
    energy0 = sim.energy()
    axes = [quaternion_to_matrix(sim.orientation("top"))[:, 2]]
    drift = [0.0]
    every = round(SAMPLE / sim.h)

    def sample(s):
        if s.stats["steps"] % every == 0:
            axes.append(quaternion_to_matrix(s.orientation("top"))[:, 2])
            drift.append(s.energy() - energy0)

    sim.run(duration, callback=sample)
    return np.array(axes), float(max(drift, key=abs)), sim.stats


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--orders", default="1-8")
    parser.add_argument("--duration", type=float, default=2.0)
    parser.add_argument("--h", type=float, default=0.01)
    args = parser.parse_args()
    first, _, last = args.orders.partition("-")
    orders = range(int(first), int(last or first) + 1)
    data = mechanisms.heavy_top()
    start = time.perf_counter()
    reference = heavy_top_axes(data, args.duration, SAMPLE, REFERENCE_STEP)
    rate0, tilt0 = precession_and_tilt(reference, SAMPLE)
    print(f"reference ({time.perf_counter() - start:.1f} s): precession {rate0:.5f} rad/s, mean tilt "
          f"{tilt0.mean():.4f} deg, tilt {tilt0.min():.3f}..{tilt0.max():.3f} deg")
    rows = []
    for order in orders:
        start = time.perf_counter()
        try:
            axes, drift, stats = simulated_axes(data, args.duration, h=args.h, taylor_order=order)
        except SimulationDiverged as error:
            rows.append([order, "diverged", "", "", "", "", str(error)[:60]])
            continue
        rate, tilt = precession_and_tilt(axes, SAMPLE)
        rows.append([order, f"{rate:.5f}", f"{100 * (rate / rate0 - 1):+.3f}", f"{tilt.mean() - tilt0.mean():+.4f}",
                     f"{np.abs(tilt - tilt0).max():.4f}", f"{drift:+.3e}",
                     f"{stats['halvings']} halvings, {time.perf_counter() - start:.2f} s"])
    table(f"Heavy top, h = {args.h:g}, {args.duration:g} s: precession (reference {rate0:.5f} rad/s) and tilt",
          ["order", "precession", "error %", "mean tilt error deg", "max tilt error deg", "energy drift J", "run"],
          rows)


if __name__ == "__main__":
    main()
