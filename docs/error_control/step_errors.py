"""Each step's local error by step doubling (Simulation.local_error, per unit time) and its energy change,
in an uncontrolled run: percentiles, and the steps whose energy changed most.
    python docs/error_control/step_errors.py eight_loop 10"""
import sys

import numpy as np
from scenes import simulation

name, duration = sys.argv[1], float(sys.argv[2])
sim = simulation(name)
h, start = sim.h, sim.energy()
ratios, energies = [], [start]
for _ in range(round(duration / h)):
    ratios.append(sim.local_error(h).max() / h)
    sim.step()
    energies.append(sim.energy())
ratios, energies = np.array(ratios), np.array(energies)
change = np.abs(np.diff(energies))
print(f"{name}: h {h}, {len(ratios)} steps, energy wander mean {np.mean(np.abs(energies - start)):.4f} J")
for q in (50, 90, 99, 100):
    print(f"  p{q}: local error {np.percentile(ratios, q):.3e} m/s, |energy change| {np.percentile(change, q):.3e} J")
for tolerance in (1e-2, 5e-3, 3e-3):
    print(f"  steps above {tolerance} m/s: {np.mean(ratios > tolerance):.3f}")
largest = np.argsort(change)[::-1][:4]
print("  largest energy changes (step: J):", ", ".join(f"{i}: {change[i]:.3g}" for i in largest))
