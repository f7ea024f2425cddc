"""Start-up cost of the compiled solver: importing it, compiling its kernels cold (an empty cache, as
on a user's first bake) and loading them warm from the cache, each in a fresh process.
    python benchmarks/startup.py
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile

from common import table

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROBE = """
import json, sys, time
start = time.perf_counter()
sys.path.insert(0, {tools!r})
from checkout import import_checkout_as_mechbake
import_checkout_as_mechbake()
import mechbake.solver
import mechanisms
imported = time.perf_counter()
numba_on_import = "numba" in sys.modules
sim = mechbake.solver.Simulation(mechbake.solver.Model.from_dict(mechanisms.{scene}()))
sim.step()
first_step = time.perf_counter()
print(json.dumps({{"import": imported - start, "first_step": first_step - imported,
                  "numba_on_import": numba_on_import}}))
"""


def probe(scene: str, cache: str) -> dict:
    env = dict(os.environ, MECHBAKE_CACHE_DIR=cache)
    code = PROBE.format(tools=str(ROOT / "tools"), scene=scene)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        for scene in ("eight_loop", "servo_arm", "four_balls"):
            cold = probe(scene, cache)  # the first scene compiles the joint kernels, four_balls the contact path
            warm = probe(scene, cache)
            rows.append([scene, f"{cold['import']:.2f}", str(cold["numba_on_import"]), f"{cold['first_step']:.1f}",
                         f"{warm['first_step']:.2f}"])
    table("Start-up: a fresh process, import of mechbake.solver, then the first step (s)",
          ["scene", "import", "numba imported by it", "first step, cold cache", "first step, warm cache"], rows)


if __name__ == "__main__":
    main()
