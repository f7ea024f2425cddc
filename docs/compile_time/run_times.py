"""Run times of five scenes on a warm cache, the best of 3 (each built, stepped once, then timed),
with the last body's end position to compare results between versions:
    python docs/compile_time/run_times.py
"""
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
from checkout import import_checkout_as_mechbake  # noqa: E402

import_checkout_as_mechbake()
import mechanisms  # noqa: E402

from mechbake.solver import Model, Simulation  # noqa: E402

SCENES = [("8-Loop 200 s", mechanisms.eight_loop(), 200.0),
          ("A02 N = 10, 100 s", mechanisms.n_four_bar(10, h=0.005), 100.0),
          ("7-link servo arm 10 s", mechanisms.seven_link_arm(10.0), 10.0),
          ("four balls 3 s", mechanisms.four_balls(), 3.0),
          ("four balls LCP 3 s", mechanisms.four_balls("lcp"), 3.0)]

for name, spec, duration in SCENES:
    walls = []
    for _ in range(3):
        sim = Simulation(Model.from_dict(spec))
        sim.step()
        start = time.perf_counter()
        sim.run(duration)
        walls.append(time.perf_counter() - start)
    print(f"{name:22s} {min(walls):.3f} s, end {sim.state.frames.position[-1]}", flush=True)
