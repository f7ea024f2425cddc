import json, sys, time, collections, os
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2] / "tools"))
from checkout import import_checkout_as_mechbake
import_checkout_as_mechbake()
import mechanisms
from mechbake.solver import Model, Simulation
from mechbake.solver.kernels import jit
from numba.core import event
stack = []; exclusive = collections.Counter(); inclusive = collections.Counter(); count = collections.Counter()
class L(event.Listener):
    def on_start(self, e):
        stack.append([e.data["dispatcher"].py_func.__module__.split(".")[-1] + "." + e.data["dispatcher"].py_func.__name__, time.perf_counter(), 0.0])
    def on_end(self, e):
        name, t0, child = stack.pop(); dt = time.perf_counter() - t0
        inclusive[name] += dt; exclusive[name] += dt - child; count[name] += 1
        if stack: stack[-1][2] += dt
event.register("numba:compile", L())
scene = sys.argv[1]
t = time.perf_counter(); cpu = time.process_time()
sim = Simulation(Model.from_dict(eval("mechanisms." + scene)))
for _ in range(20): sim.step()
print("total wall", time.perf_counter() - t, "cpu", time.process_time() - cpu, "compile", jit.COMPILE_CLOCK.seconds, "functions", len(count), "compiles", sum(count.values()))
for name, dt in exclusive.most_common(30):
    print(f"{dt:7.2f} excl {inclusive[name]:7.2f} incl {count[name]:3d}x {name}")
