"""The warm-up compiles every kernel a bake can need: after it, no sample compiles anything.

One cold compile into an empty cache (a few minutes), in fresh processes, as on an artist's
first use."""
import json
import os
import pathlib
import subprocess
import sys

import mechbake

ROOT = pathlib.Path(mechbake.__file__).resolve().parent
IMPORT_CHECKOUT = f"import sys; sys.path.insert(0, {str(ROOT / 'tools')!r}); import checkout; " \
                  "checkout.import_checkout_as_mechbake(); "

# Every sample, and the other methods of those that have two, a few steps each; then every kernel
# that was compiled for it rather than loaded from the cache.
RUN_SAMPLES = IMPORT_CHECKOUT + """
import json, mechanisms
from mechbake.solver import Model, Simulation
from mechbake.solver.kernels import jit
builds = list(mechanisms.SAMPLES.values()) + [lambda: mechanisms.spring_suspension("impulse"),
                                              lambda: mechanisms.four_balls("lcp"), lambda: mechanisms.spinning_rod("lcp")]
for build in builds:
    simulation = Simulation(Model.from_dict(build()))
    for _ in range(40):
        simulation.step()
compiled = sorted(f"{name}.{attribute}" for name, module in list(sys.modules.items())
                  if name.startswith("mechbake.solver.kernels")
                  for attribute, value in vars(module).items()
                  if hasattr(value, "py_func") and sum(value.stats.cache_misses.values()))
print(json.dumps({"folder": str(jit.CACHE_FOLDER), "compiled": compiled}))
"""


def test_after_the_warm_up_no_sample_compiles_a_kernel(tmp_path):
    env = {**os.environ, "MECHBAKE_CACHE_DIR": str(tmp_path)}
    warm = subprocess.run([sys.executable, "-c", IMPORT_CHECKOUT + "from mechbake.solver import warm_up; "
                           "sys.exit(warm_up.main([]))"], env=env, capture_output=True, text=True, timeout=900)
    assert warm.returncode == 0, warm.stderr
    lines = warm.stdout.splitlines()
    assert lines[0] == "0/5 joints, drives and the system solver" and lines[-1] == "5/5 done"
    (folder,) = tmp_path.glob("kernels-*")
    assert (folder / "complete").is_file()

    samples = subprocess.run([sys.executable, "-c", RUN_SAMPLES], env=env, capture_output=True, text=True,
                             timeout=900)
    assert samples.returncode == 0, samples.stderr
    found = json.loads(samples.stdout.splitlines()[-1])
    assert found["folder"] == str(folder)
    assert found["compiled"] == []
