"""Spring stability at h = 0.01: Schmitt's explicit impulse spring against Strashnov's soft spring.

A 1 kg particle on a spring to the world, pulled 0.1 m from rest and released, no gravity, 5 s.
The explicit (symplectic) spring is stable only for omega h < 2, i.e. k < 4 m / h^2 = 40 000 N/m:
beyond it the solver halves the step until omega h < 2 (more sub-steps per step, the energy kept),
and names the spring when even 4096 sub-steps per step would not do. The soft constraint is
implicit Euler and stable at any stiffness (and damps, more the stiffer).
    python benchmarks/springs.py
"""
import math

import numpy as np
from common import table

from mechbake.solver import Model, Simulation, SimulationDiverged

STIFFNESSES = [1e2, 1e3, 1e4, 3.9e4, 4.1e4, 1e5, 1e6, 1e9, 1e12]


def run(stiffness: float, method: str) -> tuple[str, str, str]:
    body = {"name": "mass", "mass": 1.0, "position": [0, 0, 0.1]}
    spring = {"name": "spring", "type": "spring", "body_a": "world", "body_b": "mass", "anchor_a": [0, 0, -1.0],
              "anchor_b": [0, 0, 0.1], "rest_length": 1.0, "stiffness": stiffness, "method": method}
    sim = Simulation(Model.from_dict({"format": "mechbake/1", "gravity": [0, 0, 0], "bodies": [body],
                                      "joints": [spring], "settings": {"h": 0.01}}))
    energy = sim.energy()
    amplitude = 0.0
    for _ in range(500):
        try:
            sim.step()
        except SimulationDiverged as error:
            return "refused", f"t = {error.time:.2g} s", "> 4096"
        amplitude = max(amplitude, abs(sim.position("mass")[2]))
        if not np.isfinite(amplitude) or amplitude > 1e6:
            return "blew up", f"t = {sim.time:.2f} s", "-"
    return f"{sim.energy() / energy:.4g}", f"{amplitude:.4g}", f"{sim.stats['substeps'] / sim.stats['steps']:.3g}"


def main() -> None:
    rows = []
    for k in STIFFNESSES:
        explicit, soft = run(k, "impulse"), run(k, "soft")
        rows.append([f"{k:g}", f"{math.sqrt(k) * 0.01:.3g}", *explicit, *soft[:2]])
    table("Spring stiffness sweep, h = 0.01 s, m = 1 kg (stability limit of the explicit spring: omega h = 2)",
          ["k N/m", "omega h", "impulse E/E0 after 5 s", "impulse max |y| m", "impulse sub-steps per step",
           "soft E/E0 after 5 s", "soft max |y| m"], rows)


if __name__ == "__main__":
    main()
