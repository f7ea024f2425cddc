"""Lemke's algorithm on the LCPs of three stacked boxes, cold and from the guessed basis.

Runs three 0.4 m, 10 kg boxes stacked on a plane (contact_speed.py's scene) with the LCP, keeps every
(M, q) handed to lemke() with the support the step guessed, then times lemke() on each (best of 3)
twice: cold, from nothing, and as the step calls it, with the guess, which is the solution when the
supports are kept and Lemke's starting basis (kernels/contact/lemke.warm_run) when some changed. Each
solution's complementarity is checked. --save FILE keeps the problems in an .npz; --load FILE times
those instead, so two checkouts can be timed on the same matrices:
    python benchmarks/lemke_speed.py [--seconds 3] [--save FILE | --load FILE]
"""
import argparse

import numpy as np
from common import best_wall_time, table
from contact_speed import G, H, SCENES

from mechbake.solver import Model, Simulation
from mechbake.solver.contact import stewart_trinkle
from mechbake.solver.contact.lcp_solver import lemke


def stack_problems(seconds: float) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(M, q, guess) of every LCP the stack's steps solve over `seconds`; guess all False when the
    step had none (its first)."""
    bodies, obstacle = SCENES["three boxes stacked"]
    data = {"format": "mechbake/1", "gravity": [0, 0, -G], "bodies": bodies, "joints": [], "obstacles": [obstacle],
            "settings": {"h": H, "contact_method": "lcp"}}
    problems = []

    def recording(M, q, max_pivots=None, guess=None):
        problems.append((M.copy(), q.copy(), np.zeros(len(q), dtype=bool) if guess is None else guess.copy()))
        return lemke(M, q, max_pivots, guess)

    stewart_trinkle.lemke = recording  # stewart_trinkle.py calls lemke by its own name
    try:
        Simulation(Model.from_dict(data)).run(seconds)
    finally:
        stewart_trinkle.lemke = lemke
    return problems


def timed(M, q, guess=None):
    """(z, best wall time of three calls)."""
    z = lemke(M, q, guess=guess)
    return z, best_wall_time(lambda: lemke(M, q, guess=guess))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="simulated seconds (default 3)")
    parser.add_argument("--save")
    parser.add_argument("--load")
    arguments = parser.parse_args()
    if arguments.load:
        stored = np.load(arguments.load)
        problems = [tuple(stored[f"{name}{k}"] for name in ("M", "q", "guess")) for k in range(len(stored.files) // 3)]
    else:
        problems = stack_problems(arguments.seconds)
    if arguments.save:
        np.savez(arguments.save, **{f"{name}{k}": array for k, problem in enumerate(problems)
                                    for name, array in zip(("M", "q", "guess"), problem)})
    lemke(*problems[0][:2])  # the kernels load (or compile) outside the timing
    lemke(*problems[0][:2], guess=np.ones(len(problems[0][1]), dtype=bool))
    groups = {"no guess (a first step)": [], "the guessed supports kept": [], "some supports changed": []}
    for M, q, guess in problems:
        cold, cold_wall = timed(M, q)
        z, wall = timed(M, q, guess if guess.any() else None)
        w = M @ z + q
        group = ("no guess (a first step)" if not guess.any() else
                 "the guessed supports kept" if np.array_equal(guess, z > 0) else "some supports changed")
        groups[group].append((cold_wall, wall, float(w.min()), float(abs(z @ w)), float(np.abs(z - cold).max())))
    rows = []
    for group, runs in groups.items():
        if runs:
            cold_total, total = sum(run[0] for run in runs), sum(run[1] for run in runs)
            rows.append([group, len(runs), f"{cold_total:.4f}", f"{total:.4f}", f"{cold_total / total:.1f}",
                         f"{min(run[2] for run in runs):.1e}", f"{max(run[3] for run in runs):.1e}",
                         f"{max(run[4] for run in runs):.1e}"])
    table(f"lemke() on the {len(problems)} LCPs of {arguments.seconds:g} s of three stacked boxes (LCP, h = {H})",
          ["LCPs", "count", "cold s", "with the guess s", "cold / with guess", "min w", "max |z.w|",
           "max |z - cold z|"], rows)


if __name__ == "__main__":
    main()
