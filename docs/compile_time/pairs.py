"""Cold starts of two checkouts in turn, one fresh process and empty kernel cache each: CPU seconds of
the process to its first step (benchmarks/startup.py's probe). Run from a checkout's root:

    python docs/compile_time/pairs.py ROUNDS BEFORE_CHECKOUT AFTER_CHECKOUT "mechanisms.four_balls()" ...
"""
import os
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import startup  # noqa: E402

rounds, scenes = int(sys.argv[1]), sys.argv[4:]
before, after = (pathlib.Path(checkout).resolve() for checkout in sys.argv[2:4])  # before the folder changes
os.chdir(ROOT / "benchmarks")  # the probe imports the benchmarks' scenes
for round_number in range(rounds):
    for scene in scenes:
        for checkout in (before, after):
            with tempfile.TemporaryDirectory() as cache:
                code = startup.PROBE.format(tools=str(checkout / "tools"), scene=scene)
                cold = startup.timed(code, dict(os.environ, MECHBAKE_CACHE_DIR=cache))
            print(f"{round_number} {scene:32s} {str(checkout):12s} {cold['cpu']:.1f}", flush=True)
