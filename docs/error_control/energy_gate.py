"""A prototype of error control on energy, for mechanisms in which no force does work: a sub-step of
length L is kept when its energy changes by at most max(rate L, floor), else undone and retaken as k
pieces, k from the change's L^2 law; pieces are checked the same way, 6 levels deep at most.
Prints the mean and largest energy wander and the sub-steps taken.
    python docs/error_control/energy_gate.py zigzag 10 3 1e-2     # scene, seconds, rate J/s, floor J"""
import math
import sys

import numpy as np
from scenes import simulation

name, duration, rate, floor = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
sim = simulation(name)
start, wander, taken, rejected = sim.energy(), [], 0, 0


def piece(length: float, depth: int) -> None:
    global taken, rejected
    energy, state = sim.energy(), sim.state.copy()
    sim._advance_jointed(length, 1, counted=False)
    taken += 1
    change, allowed = abs(sim.energy() - energy), max(rate * length, floor)
    if rate > 0 and change > allowed and depth < 6:
        rejected += 1
        sim.state = state
        pieces = max(2, math.ceil(math.sqrt(change / allowed) / 0.9))
        for _ in range(pieces):
            piece(length / pieces, depth + 1)


steps = round(duration / sim.h)
for _ in range(steps):
    piece(sim.h, 0)
    wander.append(abs(sim.energy() - start))
print(f"{name}, rate {rate} J/s, floor {floor} J: energy wander mean {np.mean(wander):.4f} J, largest "
      f"{max(wander):.3f} J; {taken} sub-steps for {steps} steps ({taken / steps:.2f}x), {rejected} undone")
