"""IFToMM benchmark A04, Bricard's mechanism: its energy over 10 s beside the library's reference.

The problem (M. Gonzalez, D. Dopico, U. Lugris, J. Cuadrado, "A benchmarking system for MBS
simulation software", Multibody System Dynamics 16(2), 2006; the library's problem A04,
http://lim.ii.udc.es/mbsbenchmark/dist/A04/A04_specification.xml): five rods of 1 m and 1 kg on six
hinges (sample_scenes/mechanisms.py, `bricard`), released from rest under gravity along -y. No force
does work, so the reference for the mechanical energy is exactly its starting value; the library asks
10 s. Gruebler's count leaves no freedom, the geometry one: one row of the §7 system is dependent
everywhere, which is what this benchmark is about. The iterative solver solves the whole system here
too: K's softest pivot is 8e-3 of its row's diagonal everywhere, below kernels/correction.NEAR_SINGULAR
(docs/limits.md: its Gauss-Seidel sweeps stall there).
    python benchmarks/a04_bricard.py [--duration 10]
"""
import argparse
import time

import numpy as np
from common import table

import mechanisms
from mechbake.solver import Model, Settings, Simulation

DMAX = Settings().dmax  # MechBake's default
# (solver, h, Dmax, levers): the iterative solver at 1e-6, and last the ones with the impulses' levers
# a third and two thirds along each step
CASES = [("system", 0.01, DMAX, "start"), ("system", 0.005, DMAX, "start"), ("system", 0.01, 1e-6, "start"),
         ("system", 0.01, 1e-9, "start"), ("iterative", 0.01, 1e-6, "start"), ("system", 0.01, DMAX, "thirds"),
         ("system", 0.005, DMAX, "thirds")]


def energies(model: Model, solver: str, duration: float):
    """(energy minus the start's at every step, kinetic energy at every step, the simulation)."""
    sim = Simulation(model, solver=solver)
    start, drift, kinetic = sim.energy(), [], []

    def record(s):
        drift.append(s.energy() - start)
        moving = s.model.body_dynamic
        omega = np.einsum("nji,nj->ni", s.state.frames.rotation[moving], s.state.angular_velocity[moving])
        kinetic.append(0.5 * np.sum(s.model.body_mass[moving] * np.sum(s.state.velocity[moving] ** 2, axis=1))
                       + 0.5 * np.sum(s.model.body_inertia[moving] * omega**2))

    sim.run(duration, callback=record)
    return np.array(drift), np.array(kinetic), sim


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10.0, help="simulated seconds (default 10)")
    args = parser.parse_args()
    rows = []
    for solver, h, dmax, levers in CASES:
        model = Model.from_dict(mechanisms.bricard(h=h, dmax=dmax, levers=levers))
        Simulation(model, solver=solver).run(h)  # warm-up: the kernels load (or compile) here
        start = time.perf_counter()
        drift, kinetic, sim = energies(model, solver, args.duration)
        wall = time.perf_counter() - start  # with the energy taken at every step
        stats = sim.stats
        rows.append([solver, h, dmax, levers, f"{wall:.2f}", f"{kinetic.max():.4f}", f"{drift[-1]:+.2e}",
                     f"{np.abs(drift).max():.2e}", f"{100 * np.abs(drift).max() / kinetic.max():.3f}",
                     f"{sim.max_joint_error():.1e}", stats["halvings"], f"{stats['solves'] / stats['steps']:.2f}"])
    table(f"IFToMM A04 Bricard's mechanism, {args.duration:g} s simulated; energy change against the start "
          "(the reference: 0 J, no force does work)",
          ["solver", "h", "Dmax", "levers", "wall s", "largest kinetic J", "energy change at end J", "worst change J",
           "worst % of kinetic", "gap at end m", "halvings", "sweeps per step"], rows)


if __name__ == "__main__":
    main()
