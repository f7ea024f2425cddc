"""Schmitt Table 9.1: the 1 m mathematical pendulum at 10 degrees, Dmax 1e-9.

Prints the simulated period T and |T - T0| beside the paper's, the ratio to the next row (4 for a
second-order method), and what §8's Richardson combination (settings.extrapolation) achieves.
    python benchmarks/table_9_1_pendulum.py [--all]
"""
import sys

from common import crossing_times, table

import mechanisms
from mechbake.solver import Model, Simulation

T0 = 2.00989262729860
PAPER = {0.04: 0.00134810239666, 0.02: 0.00033659873943, 0.01: 0.00008371325490, 0.005: 0.00002092568899,
         0.0025: 0.00000523163119, 0.00125: 0.00000130613721, 0.000625: 0.00000032733840,
         0.0003125: 0.00000008061132, 0.00015625: 0.00000001779746}


def period(h: float, extrapolation: str = "none") -> float:
    sim = Simulation(Model.from_dict(mechanisms.pendulum()), h=h, dmax=1e-9, vmax=1e-9, extrapolation=extrapolation)
    times = crossing_times(sim, lambda s: s.position("bob")[0], 3)
    return times[2] - times[0]


def main() -> None:
    steps = list(PAPER) if "--all" in sys.argv else [h for h in PAPER if h >= 0.000625]
    rows, previous = [], None
    for h in steps:
        t = period(h)
        error = abs(t - T0)
        richardson = abs(period(h, "richardson") - T0)
        rows.append([h, f"{t:.10f}", error, PAPER[h], error / PAPER[h], previous / error if previous else "",
                     richardson])
        previous = error
    table("Table 9.1: pendulum period, T0 = 2.00989262729860 s",
          ["h", "T ours", "|T-T0| ours", "|T-T0| paper", "ours/paper", "ratio to previous h", "|T-T0| richardson"],
          rows)


if __name__ == "__main__":
    main()
