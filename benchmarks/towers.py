"""Stacks that must stand, at every step a user picks: towers of 10 and 20 equal boxes, a pyramid of 15
(rows of 5, 4, 3, 2, 1 offset by half a box), a row of 6 boxes side by side, each on a floor for 10 s at
the default settings (impulse contacts, Dmax 1e-7 m, resting islands sleep) at h = 0.01, 0.005, 0.002 and
0.001. Printed: how far the body that moved most ended from its start (the goal: at most 1e-4 m), the
bodies asleep at the end, wall time and our time over MuJoCo's on the same scene and step (`mujoco` from
PyPI, a benchmark peer only; its default solver), timed in one run.
    python benchmarks/towers.py [--only tower] [--steps 0.01,0.001] [--seconds 10] [--awake]
(--awake: also with sleeping off, sleep_speed 0: the solver's own stillness and cost)
"""
import argparse
import time

import numpy as np
from common import table
from contact_scaling import box, plane, theirs

from mechbake.solver import Model, Simulation, warm_up

SIZE = 0.4
DRIFT = 1e-4  # m over the run: the goal


def tower(count: int) -> list:
    return [box(f"box{k}", (0, 0, SIZE * (k + 0.5))) for k in range(count)]


def pyramid(base: int = 5) -> list:
    """Rows of base, base - 1, ... 1 boxes in the x-z plane, each row offset by half a box and standing
    on the two below, a 1 cm gap between neighbours in a row."""
    pitch = SIZE + 0.01
    return [box(f"box{row}_{k}", ((k - (base - row - 1) / 2) * pitch, 0, SIZE * (row + 0.5)))
            for row in range(base) for k in range(base - row)]


def row(count: int = 6) -> list:
    return [box(f"box{k}", (k * SIZE, 0, SIZE / 2)) for k in range(count)]


SCENES = {"tower of 10": lambda: tower(10), "tower of 20": lambda: tower(20), "pyramid of 15": pyramid,
          "row of 6": row}
FLOOR = [plane("floor", (0, 0, 0), (0, 0, 1))]


def ours(bodies: list, h: float, seconds: float, sleep: bool) -> tuple[float, float, int]:
    """Wall time, how far the body that moved most ended from its start, the bodies asleep at the end."""
    settings = {"h": h, **({} if sleep else {"sleep_speed": 0.0})}
    data = {"format": "mechbake/1", "gravity": [0, 0, -9.81], "bodies": bodies, "joints": [], "obstacles": FLOOR,
            "settings": settings}
    sim = Simulation(Model.from_dict(data))
    start = {body["name"]: sim.position(body["name"]) for body in bodies}
    began = time.perf_counter()
    sim.run(seconds)
    wall = time.perf_counter() - began
    moved = max(float(np.linalg.norm(sim.position(name) - p)) for name, p in start.items())
    return wall, moved, sim.stats["asleep"]


def main() -> None:
    import mujoco

    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="", help="only scenes whose name contains this")
    parser.add_argument("--steps", default="0.01,0.005,0.002,0.001", help="the steps h, comma separated")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--awake", action="store_true", help="also with sleeping off")
    args = parser.parse_args()
    warm_up.warm_up(workers=1)  # in this process: every kernel compiled (once per machine) and loaded before any timing
    rows = []
    for name, build in SCENES.items():
        if args.only not in name:
            continue
        bodies = build()
        for h in (float(step) for step in args.steps.split(",")):
            peer_wall, peer_moved = theirs(lambda: (bodies, [], FLOOR), args.seconds, h)
            rows.append([name, h, f"MuJoCo {mujoco.__version__}", f"{peer_moved:.2e}", "", "", peer_wall, "1"])
            for sleep in (True, False) if args.awake else (True,):
                wall, moved, asleep = ours(bodies, h, args.seconds, sleep)
                rows.append([name, h, "MechBake" + ("" if sleep else ", awake"), f"{moved:.2e}",
                             "yes" if moved <= DRIFT else "NO", f"{asleep}/{len(bodies)}", wall,
                             f"{wall / peer_wall:.1f}"])
    table(f"Stacks on a floor for {args.seconds:g} s at the default settings, timed in one run (goal: the body that "
          f"moved most within {DRIFT:g} m of its start)",
          ["scene", "h", "who", "moved most, m", "within goal", "asleep at end", "wall s", "x MuJoCo's time"], rows)


if __name__ == "__main__":
    main()
