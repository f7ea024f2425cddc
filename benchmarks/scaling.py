"""Cost per step against the number of bodies: a loop of N rods of 1 m hung at both ends (the 8-Loop
made longer), h = 0.01, Dmax = 1e-5, system solver. The sparse factorisation (elimination order from
the joint graph) should make the time per step grow linearly with N.
    python benchmarks/scaling.py
"""
import math
import time

from common import table

import mechanisms
from mechbake.solver import Model, Simulation


def hung_loop(links: int) -> dict:
    """links rods of 1 m on a regular polygon's arc, hung at both ends by ball joints."""
    angle = 2 * math.pi / (links + 4)  # the arc leaves a gap of 4 edges between the two hanging points
    radius = 1.0 / (2 * math.sin(angle / 2))
    points = [[radius * math.cos(k * angle), radius * math.sin(k * angle), 0.0] for k in range(links + 1)]
    bodies = [mechanisms.rod(f"rod{k + 1}", points[k], points[k + 1]) for k in range(links)]
    joints = [{"name": "hang_start", "type": "ball", "body_a": "world", "body_b": "rod1", "anchor": points[0]}]
    joints += [{"name": f"link{k}", "type": "ball", "body_a": f"rod{k}", "body_b": f"rod{k + 1}", "anchor": points[k]}
               for k in range(1, links)]
    joints.append({"name": "hang_end", "type": "ball", "body_a": f"rod{links}", "body_b": "world",
                   "anchor": points[links]})
    return {"format": "mechbake/1", "gravity": [0, 0, -9.81], "settings": {"h": 0.01, "dmax": 1e-5},
            "bodies": bodies, "joints": joints}


def main() -> None:
    rows = []
    for links in (8, 32, 128, 512):
        sim = Simulation(Model.from_dict(hung_loop(links)))
        sim.step()  # compile and warm up outside the timing
        steps = 200 if links <= 128 else 50
        start = time.perf_counter()
        for _ in range(steps):
            sim.step()
        per_step = (time.perf_counter() - start) / steps
        rows.append([links, f"{per_step * 1e6:.0f}", f"{per_step * 1e6 / links:.1f}",
                     f"{sim.stats['corrections'] / sim.stats['steps']:.1f}", f"{sim.max_joint_error():.1e}",
                     f"{0.01 / per_step:.1f}"])
    table("Loops of N rods hung at both ends, h = 0.01, Dmax = 1e-5 (system solver)",
          ["rods", "us per step", "us per step per rod", "corrections per step", "worst gap m", "x real time"], rows)


if __name__ == "__main__":
    main()
