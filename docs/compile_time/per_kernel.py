"""Each kernel's compile, CPU seconds without the kernels it compiles in turn, for a mechanism's
first step (run from the checkout's root, with an empty cache to see the cold compile):

    MECHBAKE_CACHE_DIR=$(mktemp -d) python docs/compile_time/per_kernel.py "four_balls()"
    MECHBAKE_CACHE_DIR=$(mktemp -d) python docs/compile_time/per_kernel.py "contact_scenes.box_tower()"

TOP=n lists the n costliest kernels (30).
"""
import os
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from checkout import import_checkout_as_mechbake  # noqa: E402

import_checkout_as_mechbake()
from numba.core import event  # noqa: E402

import contact_scenes  # noqa: E402,F401
import mechanisms  # noqa: E402,F401  (the scene expression names it)
from mechbake.solver import Model, Simulation  # noqa: E402

open_compiles: list = []  # [name, CPU at its start, CPU of the compiles nested in it]
own_seconds: dict[str, float] = {}
signatures: dict[str, int] = {}


class Listener(event.Listener):
    def on_start(self, ev):
        function = ev.data["dispatcher"].py_func
        open_compiles.append([f"{(function.__module__ or 'generated').split('.')[-1]}.{function.__qualname__}", time.process_time(), 0.0])

    def on_end(self, ev):
        name, started, nested = open_compiles.pop()
        total = time.process_time() - started
        own_seconds[name] = own_seconds.get(name, 0.0) + total - nested
        signatures[name] = signatures.get(name, 0) + 1
        if open_compiles:
            open_compiles[-1][2] += total


event.register("numba:compile", Listener())
began = time.process_time()
scene = sys.argv[1] if "." in sys.argv[1].split("(")[0] else "mechanisms." + sys.argv[1]
simulation = Simulation(Model.from_dict(eval(scene)))
simulation.step()
print(f"first step: {time.process_time() - began:.1f} s of CPU, compiles {sum(own_seconds.values()):.1f} s")
print(" own s  signatures  kernel")
for name, seconds in sorted(own_seconds.items(), key=lambda item: -item[1])[:int(os.environ.get("TOP", "30"))]:
    print(f"{seconds:6.2f}  {signatures[name]:10d}  {name}")
