"""A scene's cold first step split by numba's compiler passes (exclusive CPU seconds, the post-processor
numba runs after passes counted apart), with the number of LLVM instructions lowered, which does not
vary with the machine's load. Run from a checkout's root with an empty cache:

    MECHBAKE_CACHE_DIR=$(mktemp -d) python docs/compile_time/passes.py "contact_scenes.box_tower()"
"""
import collections
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from checkout import import_checkout_as_mechbake  # noqa: E402

import_checkout_as_mechbake()
import contact_scenes  # noqa: E402,F401
import mechanisms  # noqa: E402,F401
from llvmlite.ir import instructions  # noqa: E402
from numba.core import compiler_machinery, postproc  # noqa: E402

from mechbake.solver import Model, Simulation  # noqa: E402

seconds: collections.Counter = collections.Counter()
calls: collections.Counter = collections.Counter()
open_phases = [["outside the passes", time.process_time()]]


def timed(owner, method: str, name_of) -> None:
    original = getattr(owner, method)

    def wrapper(self, *args, **kwargs):
        name, now = name_of(self, args), time.process_time()
        seconds[open_phases[-1][0]] += now - open_phases[-1][1]
        open_phases.append([name, now])
        calls[name] += 1
        try:
            return original(self, *args, **kwargs)
        finally:
            now = time.process_time()
            seconds[name] += now - open_phases.pop()[1]
            open_phases[-1][1] = now

    setattr(owner, method, wrapper)


timed(compiler_machinery.PassManager, "_runPass", lambda manager, args: args[1].name())
timed(postproc.PostProcessor, "run", lambda processor, args: "post-processor")
lowered = [0]
made = instructions.Instruction.__init__


def counted(self, *args, **kwargs):
    lowered[0] += 1
    made(self, *args, **kwargs)


instructions.Instruction.__init__ = counted
began = time.process_time()
Simulation(Model.from_dict(eval(sys.argv[1]))).step()
print(f"first step {time.process_time() - began:.1f} s of CPU, {lowered[0]:,} LLVM instructions lowered")
for name, spent in seconds.most_common(12):
    print(f"{spent:7.2f} s {calls[name]:6d} calls  {name}")
