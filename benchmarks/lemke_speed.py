"""Lemke's algorithm on the LCPs of three stacked boxes (issue 7: the LCP contact method was slow).

Runs 0.1 s of contact_speed.py's three 0.4 m, 10 kg boxes stacked on a plane with the LCP, keeps
every (M, q) handed to lemke(), then times lemke() on them (best of 3) and checks each solution's
complementarity. --save FILE keeps the problems in an .npz; --load FILE times those instead, so two
checkouts can be timed on the same matrices:
    python benchmarks/lemke_speed.py [--save FILE | --load FILE]
"""
import argparse
import time

import numpy as np
from common import best_wall_time, table
from contact_speed import G, H, SCENES

from mechbake.solver import Model, Simulation
from mechbake.solver.contact import lcp
from mechbake.solver.contact.lemke import lemke

DURATION = 0.1


def stack_problems() -> list[tuple[np.ndarray, np.ndarray]]:
    bodies, obstacle = SCENES["three boxes stacked"]
    data = {"format": "mechbake/1", "gravity": [0, 0, -G], "bodies": bodies, "joints": [], "obstacles": [obstacle],
            "settings": {"h": H, "contact_method": "lcp"}}
    problems = []

    def recording(M, q, max_pivots=None):
        problems.append((M.copy(), q.copy()))
        return lemke(M, q, max_pivots)

    lcp.lemke = recording  # lcp.py calls lemke by its own name
    try:
        Simulation(Model.from_dict(data)).run(DURATION)
    finally:
        lcp.lemke = lemke
    return problems


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--save")
    parser.add_argument("--load")
    arguments = parser.parse_args()
    if arguments.load:
        stored = np.load(arguments.load)
        problems = [(stored[f"M{k}"], stored[f"q{k}"]) for k in range(len(stored.files) // 2)]
    else:
        problems = stack_problems()
    if arguments.save:
        np.savez(arguments.save, **{f"{name}{k}": array for k, problem in enumerate(problems)
                                    for name, array in zip("Mq", problem)})
    lemke(*problems[0])  # the kernel loads (or compiles) outside the timing
    rows = []
    for k, (M, q) in enumerate(problems):
        start = time.perf_counter()
        z = lemke(M, q)
        wall = time.perf_counter() - start
        if wall < 1.0:  # fast enough to take the best of three, as the other benchmarks do
            wall = min(wall, best_wall_time(lambda: lemke(M, q)))
        w = M @ z + q
        rows.append([k, len(q), wall, float(w.min()), float(abs(z @ w)), float(z[: len(q) // 10].sum())])
    table(f"lemke() on the {len(problems)} LCPs of {DURATION} s of three stacked boxes", [
        "LCP", "n", "wall s", "min w", "|z.w|", "normal impulses (k = 8)"], rows)
    print(f"total {sum(row[2] for row in rows):.3f} s")


if __name__ == "__main__":
    main()
