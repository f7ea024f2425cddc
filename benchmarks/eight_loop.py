"""Schmitt §9 "8-Loop": Tables 9.2 (corrections per step), 9.3 (per second), 9.4 (energy fading), and
the speed at h = 0.01, Dmax = 1e-5 (the paper: 64 x real time on a 1.7 GHz PC).

The model: 8 rods of 1 m and 1 kg on 9 ball joints, hung at both ends, released from rest in a
horizontal plane (sample_scenes/mechanisms.py). Corrections are counted as §5 counts them: one per
joint corrected by P-step 2, with the iterative solver. The paper does not give its rods' masses, so
the energies compare in size and in how they fall with h, not digit for digit. The tables are
Schmitt's method as the paper ran it, every step at h: the energy gate (setting `energy_tolerance`,
which halves the steps that break the balance of energy) off; the speed is printed with it and
without it.
    python benchmarks/eight_loop.py            h down to 0.0025, 10 s each
    python benchmarks/eight_loop.py --full     the paper's whole grid (slow)
    python benchmarks/eight_loop.py --speed    only the speed figures
"""
import sys

import numpy as np
from common import best_wall_time, table

import mechanisms
from mechbake.solver import Model, Simulation

DMAX = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8]
H = [0.02, 0.01, 0.005, 0.0025, 0.00125, 0.000625, 0.0003125, 0.00015625]
PAPER_PER_STEP = {
    0.02: [48.39, 92.73, 158.40, 254.68, 364.99, 443.07], 0.01: [24.63, 60.68, 113.08, 199.96, 299.45, 370.53],
    0.005: [13.14, 39.88, 81.36, 144.80, 223.30, 336.23], 0.0025: [9.51, 20.33, 51.38, 101.46, 171.46, 286.42],
    0.00125: [9.01, 10.93, 28.47, 68.49, 126.56, 215.85], 0.000625: [9.00, 9.13, 15.56, 44.85, 95.81, 161.56],
    0.0003125: [9.00, 9.00, 10.00, 24.86, 59.24, 112.94], 0.00015625: [9.00, 9.00, 9.03, 13.19, 36.72, 76.30]}
PAPER_ENERGY = {
    0.02: [8.34888268, 3.91859475, 1.18293503, 1.76430215, 1.96143197, 2.28035856],
    0.01: [0.73559002, 0.18926225, 0.20830578, 0.25642428, 0.23072030, 0.25728820],
    0.005: [0.38693763, 0.08356390, 0.04945572, 0.05274739, 0.05417435, 0.05432397],
    0.0025: [0.71407485, 0.05918295, 0.01288742, 0.01401945, 0.01286931, 0.01426934],
    0.00125: [0.18258168, 0.01396812, 0.00373649, 0.00337147, 0.00339436, 0.00314362],
    0.000625: [0.06504896, 0.02756842, 0.00183589, 0.00088356, 0.00085766, 0.00089008],
    0.0003125: [0.01170068, 0.00561310, 0.00132198, 0.00034599, 0.00022715, 0.00020310],
    0.00015625: [0.00203239, 0.00203239, 0.00138729, 0.00016536, 0.00006400, 0.00005337]}
DURATION = 10.0


def run_cell(h: float, dmax: float) -> tuple[float, float]:
    sim = Simulation(Model.from_dict(mechanisms.eight_loop(h, dmax)), solver="iterative", energy_tolerance=0.0)
    energies = []
    sim.run(DURATION, callback=lambda s: energies.append(abs(s.energy())))
    return sim.stats["corrections"] / sim.stats["steps"], float(np.mean(energies))


def grid(steps: list[float]) -> None:
    per_step, energy = {}, {}
    for h in steps:
        for dmax in DMAX:
            per_step[h, dmax], energy[h, dmax] = run_cell(h, dmax)
            print(f"  h {h:g}, Dmax {dmax:g}: {per_step[h, dmax]:.2f} corrections per step", file=sys.stderr)
    header = ["h \\ Dmax"] + [f"{d:g}" for d in DMAX]
    table("Table 9.2: corrections per step, ours / paper",
          header, [[h] + [f"{per_step[h, d]:.2f} / {PAPER_PER_STEP[h][k]:.2f}" for k, d in enumerate(DMAX)]
                   for h in steps])
    table("Table 9.3: corrections per simulated second, ours / paper",
          header, [[h] + [f"{per_step[h, d] / h:.0f} / {PAPER_PER_STEP[h][k] / h:.0f}" for k, d in enumerate(DMAX)]
                   for h in steps])
    table("Table 9.4: energy fading, mean |E_kin + E_pot| over 10 s in J, ours / paper",
          header, [[h] + [f"{energy[h, d]:.4f} / {PAPER_ENERGY[h][k]:.4f}" for k, d in enumerate(DMAX)] for h in steps])


def speed() -> None:
    rows = []
    model = Model.from_dict(mechanisms.eight_loop(0.01, 1e-5))
    for solver in ("system", "iterative"):
        for gate in (model.settings.energy_tolerance, 0.0):
            sims = []

            def run():
                sim = Simulation(model, solver=solver, energy_tolerance=gate)
                sim.run(DURATION)
                sims.append(sim)

            wall = best_wall_time(run)
            corrections = sims[-1].stats["corrections"]
            rows.append([solver, f"{gate:g}", f"{wall:.3f}", f"{DURATION / wall:.1f}", corrections,
                         f"{corrections / wall:.0f}", sims[-1].stats["substeps"]])
    rows.append(["paper (1.7 GHz PC)", "", "0.156", "64", 113080, "670000", 1000])
    table("8-Loop speed at h = 0.01, Dmax = 1e-5, 10 s simulated (best of 3), with the energy gate (energy_tolerance) "
          "and without it (0)",
          ["solver", "energy_tolerance", "wall s", "x real time", "corrections", "corrections per wall second",
           "sub-steps"], rows)


def main() -> None:
    if "--speed" not in sys.argv:
        grid(H if "--full" in sys.argv else H[:4])
    speed()


if __name__ == "__main__":
    main()
