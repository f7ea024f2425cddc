"""Run times on a warm kernel cache, CPU seconds, best of three simulations per scene (the dominoes
once), for comparing two checkouts or two settings in turn. Run from a checkout's root:

    python docs/compile_time/run_times.py eight_loop a02 balls balls_lcp dominoes

The dominoes are those of benchmarks/blender_contact.py built as a mechanism file: 12 boxes of
0.06 x 0.3 x 0.6 m, 0.35 m apart, the first tipped 20°, 250 frames at 24 fps, h = 1/240.
"""
import math
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from checkout import import_checkout_as_mechbake  # noqa: E402

import_checkout_as_mechbake()
import mechanisms  # noqa: E402

from mechbake.solver import Model, Simulation  # noqa: E402


def dominoes() -> dict:
    width, depth, height, tip = 0.06, 0.3, 0.6, math.radians(20)
    bodies = []
    for k in range(12):
        x, z, tilt = k * 0.35, height / 2, 0.0
        if k == 0:
            tilt = tip
            x = width / 2 - (width / 2) * math.cos(tip) + (height / 2) * math.sin(tip)
            z = (width / 2) * math.sin(tip) + (height / 2) * math.cos(tip)
        inertia = [(depth**2 + height**2) / 12, (width**2 + height**2) / 12, (width**2 + depth**2) / 12]
        bodies.append({"name": f"d{k}", "mass": 1.0, "inertia": inertia, "position": [x, 0, z],
                       "orientation": [math.cos(tilt / 2), 0, math.sin(tilt / 2), 0],
                       "shape": {"type": "box", "size": [width, depth, height]}, "friction": 0.5})
    return {"format": "mechbake/1", "gravity": [0, 0, -9.81], "bodies": bodies, "joints": [],
            "obstacles": [{"name": "floor", "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1],
                           "friction": 0.5}],
            "settings": {"h": 1 / 240}}


SCENES = {"eight_loop": (mechanisms.eight_loop, 200.0, 3), "a02": (lambda: mechanisms.n_four_bar(10), 100.0, 3),
          "balls": (mechanisms.four_balls, 3.0, 3), "balls_lcp": (lambda: mechanisms.four_balls("lcp"), 3.0, 3),
          "dominoes": (dominoes, 250 / 24, 1)}

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
