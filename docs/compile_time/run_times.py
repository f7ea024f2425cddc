"""Run times on a warm kernel cache, CPU seconds, best of three simulations per scene (the dominoes
once), for comparing two checkouts or two settings in turn. Run from a checkout's root:

    python docs/compile_time/run_times.py eight_loop a02 balls balls_lcp dominoes

The dominoes are contact_scenes.dominoes, those benchmarks/blender_contact.py builds in Blender: 250
frames at 24 fps, h = 1/240.
"""
import math
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from checkout import import_checkout_as_mechbake  # noqa: E402

import_checkout_as_mechbake()
import contact_scenes  # noqa: E402
import mechanisms  # noqa: E402

from mechbake.solver import Model, Simulation  # noqa: E402


SCENES = {"eight_loop": (mechanisms.eight_loop, 200.0, 3), "a02": (lambda: mechanisms.n_four_bar(10), 100.0, 3),
          "balls": (mechanisms.four_balls, 3.0, 3), "balls_lcp": (lambda: mechanisms.four_balls("lcp"), 3.0, 3),
          "dominoes": (contact_scenes.dominoes, 250 / 24, 1)}

figures = []
for name in sys.argv[1:]:
    build, seconds, repeats = SCENES[name]
    best = math.inf
    for _ in range(repeats):
        simulation = Simulation(Model.from_dict(build()))
        simulation.step()  # any compile happens here, outside the timing
        started = time.process_time()
        simulation.run(seconds)
        best = min(best, time.process_time() - started)
    figures.append(f"{name} {best:.3f}")
print(", ".join(figures), flush=True)
