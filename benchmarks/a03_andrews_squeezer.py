"""IFToMM benchmark A03, Andrews' squeezer: the crank's angle at 0.03 s beside the published one.

The problem (M. Gonzalez, D. Dopico, U. Lugris, J. Cuadrado, "A benchmarking system for MBS
simulation software", Multibody System Dynamics 16(2), 2006; the library's problem A03; its data as
E. Hairer and G. Wanner give it, Solving Ordinary Differential Equations II, §VII.7): seven bodies in
a plane on ten hinges (sample_scenes/mechanisms.py, `andrews_squeezer`), one freedom, released from
rest without gravity; a constant torque of 0.033 N m on the crank (the joint's applied `effort`)
winds it against a stiff spring, and the crank spins up to 1140 rad/s within the 0.03 s the library
asks. Its reference: beta(0.03 s) = 15.81077120 rad. The torque is applied as the springs'
forces are, half an impulse before each step's flight and half after it (Schmitt §8), so the error
falls as h^2: each halving of h divides it by about 4. The mechanism is 7 cm across: at MechBake's
default Dmax (1e-7 m) the gaps each step leaves add their share, which a second table shows. Both
take every step at h, the energy gate (setting `energy_tolerance`, which would shorten them) off; a
third shows the defaults, h = 0.01 (three steps for 15.8 rad), with the gate and without.
    python benchmarks/a03_andrews_squeezer.py [--steps 2e-4 1e-4 5e-5 2.5e-5 1e-5] [--dmax 1e-10 1e-7]
"""
import argparse
import time

from common import table

import mechanisms
from mechbake.solver import Model, Settings, Simulation

DURATION = 0.03  # s, as the library asks
REFERENCE = 15.81077120  # rad, the crank's angle beta at 0.03 s
GOAL = 1e-4  # rad at h = 1e-5
STEPS = [2e-4, 1e-4, 5e-5, 2.5e-5, 1e-5]
DMAXES = [1e-10, Settings().dmax]  # m: one far below the method's error, and MechBake's default


def crank_angle(h: float, dmax: float, **settings) -> tuple[float, Simulation, float]:
    """(beta at 0.03 s, the simulation, its wall time in s)."""
    sim = Simulation(Model.from_dict(mechanisms.andrews_squeezer(h=h, dmax=dmax)), **settings)
    start = time.perf_counter()
    sim.run(DURATION)
    wall = time.perf_counter() - start
    return mechanisms.SQUEEZER_ANGLES[0] + sim.joint_position("O"), sim, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=float, nargs="+", default=STEPS, help="the steps h, s")
    parser.add_argument("--dmax", type=float, nargs="+", default=DMAXES, help="Dmax, m: a table for each")
    args = parser.parse_args()
    Simulation(Model.from_dict(mechanisms.andrews_squeezer(h=1e-4))).run(1e-4)  # the kernels load here
    for dmax in args.dmax:
        rows, previous = [], None
        for h in args.steps:
            beta, sim, wall = crank_angle(h, dmax, energy_tolerance=0.0)
            error = beta - REFERENCE
            ratio = f"{previous / error:.2f}" if previous is not None else ""
            rows.append([h, f"{beta:.8f}", f"{error:+.3e}", ratio, f"{sim.max_joint_error():.1e}",
                         sim.stats["halvings"], f"{wall:.2f}"])
            previous = error
        table(f"IFToMM A03 Andrews' squeezer, beta(0.03 s) against {REFERENCE:.8f} rad, the torque as an applied "
              f"effort, Dmax = {dmax:g} m (goal: within {GOAL:g} rad at h = 1e-5; ratio: the error at the step "
              f"before over this one's, the square of their steps' ratio at second order)",
              ["h s", "beta rad", "error rad", "ratio", "gap at end m", "halvings", "wall s"], rows)
    defaults = Settings()
    rows = []
    for tolerance in (defaults.energy_tolerance, 0.0):
        beta, sim, wall = crank_angle(defaults.h, defaults.dmax, energy_tolerance=tolerance)
        rows.append([f"{tolerance:g}", f"{beta:.8f}", f"{beta - REFERENCE:+.3e}", sim.stats["substeps"],
                     sim.stats["energy_halvings"], f"{wall:.3f}"])
    table(f"The same at the defaults (h = {defaults.h:g} s, Dmax = {defaults.dmax:g} m): the energy gate "
          f"(energy_tolerance; 0: off) halving the steps that break the balance of energy and the torque's work",
          ["energy_tolerance", "beta rad", "error rad", "substeps", "energy halvings", "wall s"], rows)


if __name__ == "__main__":
    main()
