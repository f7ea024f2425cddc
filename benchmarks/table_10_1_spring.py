"""Schmitt Table 10.1: a mass on a spring, y'' = -y, y(0) = 1, simulated for 17.2 s.

Column 2: the period's deviation from 2 pi in %; column 3: the mean |y(t) - cos t|. The spring is
an explicit impulse (Schmitt 9.2) applied as a centred pair of half impulses (§8). For contrast, the
last column starts the same scheme kick-then-drift from v(0), as a plain reading of §10 would.
    python benchmarks/table_10_1_spring.py
"""
import math

import numpy as np
from common import table

from mechbake.solver import Model, Simulation

PAPER = {0.04: (-0.0733752740, 0.0003663015), 0.02: (-0.0183389285, 0.0000917266), 0.01: (-0.0045842580, 0.0000229515),
         0.005: (-0.0011459594, 0.0000057404), 0.0025: (-0.0002864587, 0.0000014354),
         0.00125: (-0.0000716143, 0.0000003589), 0.000625: (-0.0000179040, 0.0000000897)}


def oscillator(h: float, start_velocity: float = 0.0) -> Simulation:
    body = {"name": "mass", "mass": 1.0, "position": [0, 0, 1.0], "velocity": [0, 0, start_velocity]}
    spring = {"name": "spring", "type": "spring", "body_a": "world", "body_b": "mass", "anchor_a": [0, 0, -10.0],
              "anchor_b": [0, 0, 1.0], "rest_length": 10.0, "stiffness": 1.0}
    return Simulation(Model.from_dict({"format": "mechbake/1", "gravity": [0, 0, 0], "bodies": [body],
                                       "joints": [spring], "settings": {"h": h}}))


def measure(sim: Simulation) -> tuple[float, float]:
    deviations, crossing_times = [], []
    previous_time, previous = sim.time, 1.0
    while sim.time < 17.2 - 1e-9:
        sim.step()
        y = sim.position("mass")[2]
        deviations.append(abs(y - math.cos(sim.time)))
        if previous > 0 >= y or previous < 0 <= y:
            crossing_times.append(previous_time + (sim.time - previous_time) * previous / (previous - y))
        previous_time, previous = sim.time, y
    period = 2 * (crossing_times[-1] - crossing_times[0]) / (len(crossing_times) - 1)
    return 100 * (period - 2 * math.pi) / (2 * math.pi), float(np.mean(deviations))


def kick_then_drift(h: float) -> float:
    """The same spring, but the first step kicks with the whole impulse F(0) h before drifting."""
    sim = oscillator(h, start_velocity=-0.5 * h)  # the missing half kick F(0) h / 2 (F(0) = -1 N on 1 kg)
    return measure(sim)[1]


def main() -> None:
    rows = []
    for h, (paper_period, paper_mean) in PAPER.items():
        period, mean = measure(oscillator(h))
        rows.append([h, period, paper_period, mean, paper_mean, f"{100 * (mean / paper_mean - 1):+.1f} %",
                     kick_then_drift(h)])
    table("Table 10.1: y'' = -y over 17.2 s",
          ["h", "period dev % ours", "paper", "mean |y-cos t| ours", "paper", "ours vs paper", "kick-then-drift mean"],
          rows)


if __name__ == "__main__":
    main()
