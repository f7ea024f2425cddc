"""The whipping chain: eight 0.5 m rods (1 kg, axial inertia 1e-4) on ball joints, hung from two
points 3 m apart and released from rest as a horizontal zig-zag (sample_scenes/mechanisms.py,
`hanging_zigzag`). Nothing does work, so its energy should stay where it started; the reference beside
it is Schmitt's own 8-Loop at h = 0.01, Dmax = 1e-5 (Table 9.4, benchmarks/eight_loop.py), whose rods
swing without whipping. The chain whips: its middle rods turn up to 0.3 rad in a step of 0.01 s,
where the chords each body flies between the step's ends cost most, and single steps gain joules.
The energy gate (setting `energy_tolerance`, on by default) halves the steps that break the balance;
each case is run with it and without it (0). The levers at thirds (setting `levers`) take out the
chords' share.
    python benchmarks/whipping_chain.py [--duration 10]
"""
import argparse
import time

import numpy as np
from common import table
from eight_loop import DMAX as PAPER_DMAX, PAPER_ENERGY

import mechanisms
from mechbake.solver import Model, Settings, Simulation

# the levers at thirds with the system solver only (the iterative one keeps them at the step's ends)
# each with the energy gate at its default (setting energy_tolerance) and off
CASES = [(solver, h, dmax, levers, gate) for gate in (Settings().energy_tolerance, 0.0)
         for levers in ("start", "thirds") for h in (0.01, 0.005) for dmax in (1e-5, Settings().dmax)
         for solver in (("system", "iterative") if levers == "start" else ("system",))]


def energy_wander(solver: str, h: float, dmax: float, levers: str, gate: float, duration: float):
    """(mean |E(t) - E(0)|, its largest, wall time with the energy taken every step, halvings, sub-steps
    a step)."""
    model = Model.from_dict(mechanisms.hanging_zigzag(h=h, dmax=dmax, levers=levers, solver=solver,
                                                      energy_tolerance=gate))
    Simulation(model).run(h)  # warm-up: the kernels load (or compile) here
    sim = Simulation(model)
    start, wander = sim.energy(), []
    began = time.perf_counter()
    sim.run(duration, callback=lambda s: wander.append(abs(s.energy() - start)))
    return (float(np.mean(wander)), max(wander), time.perf_counter() - began,
            sim.stats["halvings"] + sim.stats["energy_halvings"], sim.stats["substeps"] / sim.stats["steps"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10.0, help="simulated seconds (default 10)")
    args = parser.parse_args()
    rows = []
    for solver, h, dmax, levers, gate in CASES:
        mean, largest, wall, halvings, substeps = energy_wander(solver, h, dmax, levers, gate, args.duration)
        rows.append([f"{gate:g}", levers, h, f"{dmax:g}", solver, f"{mean:.3f}", f"{largest:.3f}", halvings,
                     f"{substeps:.2f}", f"{wall:.2f}"])
    paper = PAPER_ENERGY[0.01][PAPER_DMAX.index(1e-5)]
    table(f"The whipping chain over {args.duration:g} s: how far its energy wanders from the start, J "
          f"(Schmitt's 8-Loop at h = 0.01, Dmax = 1e-5: {paper:.2f} J, Table 9.4)",
          ["energy_tolerance", "levers", "h s", "Dmax m", "solver", "mean", "largest", "halvings",
           "sub-steps a step", "wall s"], rows)


if __name__ == "__main__":
    main()
