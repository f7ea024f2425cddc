"""Cold starts of two checkouts, one fresh process and empty kernel cache each: CPU seconds of the
process to its first step (benchmarks/startup.py's probe). Run from a checkout's root:

    python docs/compile_time/pairs.py ROUNDS BEFORE_CHECKOUT AFTER_CHECKOUT "mechanisms.four_balls()" ...

By default the two run in turn. With TOGETHER=1 they run at the same time, one on each core, and each
round prints after / before: the machine's load then weighs on both alike, where in turn it varies
by ±15 % from one run to the next (docs/compile_time.md).
"""
import concurrent.futures
import os
import pathlib
import statistics
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import startup  # noqa: E402

# the probe's own CPU seconds at its first step: its children's rusage would mix the two runs of a round
TOGETHER_PROBE = startup.PROBE.replace('"first_step": time.perf_counter() - start',
                                       '"first_step": time.perf_counter() - start, "own_cpu": time.process_time()')


def cold_start(checkout: pathlib.Path, scene: str, probe: str) -> float:
    with tempfile.TemporaryDirectory() as cache:
        code = probe.format(tools=str(checkout / "tools"), scene=scene)
        found = startup.timed(code, dict(os.environ, MECHBAKE_CACHE_DIR=cache))
    return found.get("own_cpu", found["cpu"])


rounds, scenes = int(sys.argv[1]), sys.argv[4:]
before, after = (pathlib.Path(checkout).resolve() for checkout in sys.argv[2:4])  # before the folder changes
os.chdir(ROOT / "benchmarks")  # the probe imports the benchmarks' scenes
if os.environ.get("TOGETHER") == "1":
    assert TOGETHER_PROBE != startup.PROBE, "startup.PROBE no longer prints first_step as read here"
    ratios: dict[str, list[float]] = {scene: [] for scene in scenes}
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for round_number in range(rounds):
            for scene in scenes:
                runs = [pool.submit(cold_start, checkout, scene, TOGETHER_PROBE) for checkout in (before, after)]
                first, second = (run.result() for run in runs)
                ratios[scene].append(second / first)
                print(f"{round_number} {scene:32s} before {first:5.1f}  after {second:5.1f}  after / before "
                      f"{second / first:.3f}", flush=True)
    for scene, values in ratios.items():
        print(f"{scene:32s} median after / before {statistics.median(values):.3f}, rounds "
              + " ".join(f"{value:.3f}" for value in values))
else:
    for round_number in range(rounds):
        for scene in scenes:
            for checkout in (before, after):
                seconds = cold_start(checkout, scene, startup.PROBE)
                print(f"{round_number} {scene:32s} {str(checkout):12s} {seconds:.1f}", flush=True)
