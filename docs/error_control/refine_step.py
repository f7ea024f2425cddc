"""One step of an uncontrolled run (the step numbered `at`) retaken as k sub-steps of h / k: how its
energy change and the joints' largest gap fall with k.
    python docs/error_control/refine_step.py eight_loop 920"""
import sys

from scenes import simulation

name, at = sys.argv[1], int(sys.argv[2])
sim = simulation(name)
for _ in range(at):
    sim.step()
start, energy = sim.state.copy(), sim.energy()
for k in (1, 2, 4, 8, 16, 64, 256):
    sim.state = start.copy()
    sim._advance_jointed(sim.h / k, k, counted=False)
    print(f"k {k:4d}: energy change {sim.energy() - energy:+.4e} J, largest gap {sim.max_joint_error():.2e} m")
