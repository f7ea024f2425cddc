"""How long Andrews' squeezer's sub-steps must be, all run long, for beta(0.03 s) within 1e-3 rad: the
run at the default settings with its longest sub-step h (the energy gate on), then runs whose first
milliseconds take steps of 1e-4 or 2.5e-5 s and the rest 3e-3 s, then Richardson's extrapolation at the
default Dmax and at 1e-10 m.
    python docs/error_control/squeezer_steps.py"""
from scenes import Model, Simulation, mechanisms

REFERENCE = 15.81077120  # rad, beta at 0.03 s (IFToMM A03)
DURATION = 0.03


def error(sim: Simulation) -> float:
    return mechanisms.SQUEEZER_ANGLES[0] + sim.joint_position("O") - REFERENCE


for h in (1e-3, 5e-4, 2.5e-4, 2e-4, 1.5e-4, 1.25e-4, 1e-4):
    sim = Simulation(Model.from_dict(mechanisms.andrews_squeezer(h=h)))
    sim.run(DURATION)
    print(f"gate on, sub-steps of at most {h:g} s: error {error(sim):+.3e} rad, {sim.stats['substeps']} sub-steps")

for first in (1e-4, 2.5e-5):
    for start in (0.003, 0.006, 0.009, 0.012):
        sim = Simulation(Model.from_dict(mechanisms.andrews_squeezer(h=first)))
        sim.run(start)
        sim.h = 3e-3  # the rest of the run at longer steps (its sub-steps as the gate shortens them)
        sim.run(DURATION - start)
        print(f"the first {start * 1e3:g} ms at {first:g} s, the rest at 3e-3 s: error {error(sim):+.3e} rad, "
              f"{sim.stats['substeps']} sub-steps")

for h, dmax in ((1e-2, 1e-7), (2e-4, 1e-7), (1e-4, 1e-7), (1e-4, 1e-10)):
    sim = Simulation(Model.from_dict(mechanisms.andrews_squeezer(h=h, dmax=dmax)), extrapolation="richardson")
    sim.run(DURATION)
    print(f"Richardson, h = {h:g} s, Dmax = {dmax:g} m: error {error(sim):+.3e} rad, {sim.stats['substeps']} sub-steps")
