import json, sys, time
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2] / "tools"))
from checkout import import_checkout_as_mechbake
import_checkout_as_mechbake()
import mechanisms
from mechbake.solver import Model, Simulation
from mechbake.solver.kernels import jit
import ctvariant; ctvariant.install(jit.COMPILE_CLOCK)
out = {"variant": ctvariant.VARIANT}
t0 = time.perf_counter()
for name, build, seconds in [("eight_loop", mechanisms.eight_loop, 200.0), ("a02_n10", lambda: mechanisms.n_four_bar(10), 100.0),
                             ("four_balls", mechanisms.four_balls, 3.0), ("four_balls_lcp", lambda: mechanisms.four_balls("lcp"), 3.0),
                             ("seven_link_arm", lambda: mechanisms.seven_link_arm(10.0), 10.0)]:
    sim = Simulation(Model.from_dict(build()))
    sim.step()
    best = 1e9
    for _ in range(3):
        sim = Simulation(Model.from_dict(build()))
        t = time.perf_counter(); sim.run(seconds) if hasattr(sim, "run") else None; best = min(best, time.perf_counter() - t)
    out[name] = best
    out[name + "_end"] = sim.state.frames.position[-1].tolist()  # the last body's end: results compared between versions
out["compile"] = jit.COMPILE_CLOCK.seconds; out["total_wall"] = time.perf_counter() - t0
print(json.dumps(out))
