"""Command line: python -m mechbake.solver run scene.json --duration 5 [--h ..] [--dmax ..] --out traj.csv"""
import argparse
import csv
import math
import sys
import time

import numpy as np

from .errors import ModelError, SimulationDiverged
from .model import load_model
from .simulation import Simulation


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mechbake.solver", description="Run a MechBake mechanism file.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="simulate a mechanism file and report")
    run.add_argument("scene", help="mechanism file (JSON, format mechbake/1)")
    run.add_argument("--duration", type=float, default=5.0, help="simulated time, s (default 5)")
    run.add_argument("--h", type=float, help="step, s (overrides the file)")
    run.add_argument("--dmax", type=float, help="largest joint gap, m (overrides the file)")
    run.add_argument("--solver", choices=("iterative", "system"), help="overrides the file")
    run.add_argument("--out", help="write the trajectory here as CSV: time, then x y z qw qx qy qz per body")
    args = parser.parse_args(argv)
    overrides = {key: value for key, value in (("h", args.h), ("dmax", args.dmax), ("solver", args.solver))
                 if value is not None}
    try:
        if not 0 < args.duration < math.inf:
            raise ModelError(f"--duration must be a positive number of seconds, got {args.duration}")
        return _run(load_model(args.scene, **overrides), args)
    except (ModelError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except SimulationDiverged as error:
        print(f"error: {error}", file=sys.stderr)
        return 3


def _run(model, args) -> int:
    sim = Simulation(model)
    bodies = [name for name in model.body_names[1:]]
    rows = [_sample(sim, bodies)]
    energy0 = sim.energy()
    report = {"gap": sim.max_joint_error(), "drift": 0.0}

    def watch(s):
        report["gap"] = max(report["gap"], s.max_joint_error())
        report["drift"] = max(report["drift"], abs(s.energy() - energy0))
        if args.out:
            rows.append(_sample(s, bodies))

    start = time.perf_counter()
    sim.run(args.duration, callback=watch)
    wall = time.perf_counter() - start
    if args.out:
        with open(args.out, "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["time"] + [f"{b}.{c}" for b in bodies for c in ("x", "y", "z", "qw", "qx", "qy", "qz")])
            writer.writerows(rows)
    stats = sim.stats
    print(f"scene        {args.scene}")
    print(f"simulated    {sim.time:.4g} s in {stats['steps']} steps of {model.settings.h:g} s "
          f"({model.settings.solver} solver, dmax {model.settings.dmax:g} m)")
    print(f"corrections  {stats['corrections']} ({stats['corrections'] / max(stats['steps'], 1):.2f} per step), "
          f"halvings {stats['halvings']}")
    print(f"worst gap    {report['gap']:.3g} m (after each step)")
    print(f"energy drift {report['drift']:.3g} J (largest |E - E0|, E0 = {energy0:.6g} J)")
    print(f"wall time    {wall:.3f} s, {sim.time / wall:.1f} x real time")
    if args.out:
        print(f"trajectory   {args.out}")
    return 0


def _sample(sim, bodies) -> list:
    row = [sim.time]
    for body in bodies:
        row += list(np.round(sim.position(body), 12)) + list(np.round(sim.orientation(body), 12))
    return row


if __name__ == "__main__":
    sys.exit(main())
