"""Start-up cost of the compiled solver beside MuJoCo's, each in a fresh process: from process start
to the first step with an empty kernel cache (as on a user's first bake; CPU seconds of the whole
process, since the compile is most of it) and with a warm one, and the process's exit.
    python benchmarks/startup.py [--zip out/extension/mechbake-VERSION-linux_x64.zip] [--warm-up]
With --zip, the linux zip is also installed from disk into a fresh bpy (its own user folders) and
timed from enabling to the end of its first bake: its shipped kernels make that compile-free.
With --warm-up, the whole warm-up (every kernel a bake can need, what Blender compiles in the
background outside the linux zip) into an empty folder, in one process and in one per CPU side by
side: wall and CPU seconds (about 7 and 4 minutes on a 2-core machine).
"""
import argparse
import json
import os
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

from common import table

ROOT = pathlib.Path(__file__).resolve().parent.parent
# the checkout imported as mechbake in a fresh process, its clock started first
CHECKOUT = """
import json, sys, time
start = time.perf_counter()
sys.path.insert(0, {tools!r})
from checkout import import_checkout_as_mechbake
import_checkout_as_mechbake()
"""
PROBE = CHECKOUT + """
import mechbake.solver
import contact_scenes, mechanisms
imported = time.perf_counter()
sim = mechbake.solver.Simulation(mechbake.solver.Model.from_dict({scene}))
sim.step()
print(json.dumps({{"import": imported - start, "first_step": time.perf_counter() - start}}), flush=True)
"""
MUJOCO_PROBE = """
import json, time
start = time.perf_counter()
import mujoco
model = mujoco.MjModel.from_xml_string('<mujoco><worldbody><body><freejoint/><geom size="0.1"/></body>'
                                       '<geom type="plane" size="1 1 0.1"/></worldbody></mujoco>')
data = mujoco.MjData(model)
imported = time.perf_counter()
mujoco.mj_step(model, data)
print(json.dumps({"import": imported - start, "first_step": time.perf_counter() - start}), flush=True)
"""
SCENES = {"jointed (eight_loop)": "mechanisms.eight_loop()", "impulse contact (four_balls)": "mechanisms.four_balls()",
          "LCP contact (four_balls)": "mechanisms.four_balls('lcp')",
          "impulse contact, boxes (box_tower)": "contact_scenes.box_tower()"}
INSTALL_AND_BAKE = """
import sys, time
import bpy
from importlib import import_module
start = time.perf_counter()
assert bpy.ops.extensions.package_install_files(filepath={zip!r}, repo="user_default",
                                                enable_on_install=True) == {{"FINISHED"}}
enabled = time.perf_counter()
bake = import_module("bl_ext.user_default.mechbake.bake")
for blend in {blends!r}:
    bpy.ops.wm.open_mainfile(filepath=blend)
    start_bake = time.perf_counter()
    report = bake.bake_scene(bpy.context.scene)
    print(f"{{blend.rsplit('/', 1)[-1]}}: enabled in {{enabled - start:.2f}} s, first bake of its "
          f"{{report.frames}} frames {{time.perf_counter() - start_bake:.2f}} s", flush=True)
"""
ZIP_SAMPLES = ("eight_loop", "pusher")
WARM_UP = CHECKOUT + """
from mechbake.solver import warm_up, warm_up_workers
warm_up.warm_up(workers={workers})
workers = {workers} or warm_up_workers.default_workers(len(warm_up.STAGES))
print(json.dumps({{"first_step": time.perf_counter() - start, "workers": workers}}), flush=True)
"""


def timed(code: str, env: dict) -> dict:
    """What the probe printed, its process's CPU seconds and its wall seconds from start to exit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found = json.loads(out.stdout.strip().splitlines()[-1])
    found["cpu"] = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    found["exit"] = wall - found["first_step"]  # the process's life after its first step, mostly exit
    return found


def zip_first_bakes(package: str) -> list[str]:
    """The linux zip installed from disk into a fresh bpy, then the first bake of each of ZIP_SAMPLES:
    what the probe printed."""
    with tempfile.TemporaryDirectory() as scratch:
        blends = [str(pathlib.Path(scratch) / f"{name}.blend") for name in ZIP_SAMPLES]
        for name, blend in zip(ZIP_SAMPLES, blends):
            subprocess.run([sys.executable, str(ROOT / "sample_scenes" / "build_blend.py"), name, blend], check=True,
                           capture_output=True)
        env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "MECHBAKE_CACHE_DIR")}
        env["BLENDER_USER_RESOURCES"] = str(pathlib.Path(scratch) / "user")
        code = INSTALL_AND_BAKE.format(zip=str(pathlib.Path(package).resolve()), blends=blends)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        return [line for line in out.stdout.splitlines() if ".blend: enabled in" in line]


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--zip", help="also time the first bake of this linux zip installed into a fresh bpy")
    parser.add_argument("--warm-up", action="store_true", help="also time the whole warm-up, in one and in "
                                                               "several processes")
    args = parser.parse_args(argv)
    rows = []
    for label, scene in SCENES.items():
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, MECHBAKE_CACHE_DIR=cache)
            code = PROBE.format(tools=str(ROOT / "tools"), scene=scene)
            cold, warm = timed(code, env), timed(code, env)
        rows.append([label, f"{cold['cpu']:.1f}", f"{cold['first_step']:.1f}", f"{warm['first_step']:.2f}",
                     f"{warm['exit']:.2f}"])
    mujoco = timed(MUJOCO_PROBE, dict(os.environ))
    rows.append(["MuJoCo (a ball on a plane)", f"{mujoco['cpu']:.1f}", f"{mujoco['first_step']:.2f}",
                 f"{mujoco['first_step']:.2f}", f"{mujoco['exit']:.2f}"])
    table("Start-up, each in a fresh process: cold = empty kernel cache (s)",
          ["scene", "cold: CPU (process)", "cold: wall", "warm: wall to first step", "warm: exit"], rows)
    if args.warm_up:
        rows = []
        for workers in (1, None):  # None: the default, one per CPU
            with tempfile.TemporaryDirectory() as cache:
                done = timed(WARM_UP.format(tools=str(ROOT / "tools"), workers=workers),
                             dict(os.environ, MECHBAKE_CACHE_DIR=cache))
            rows.append([str(done["workers"]), f"{done['first_step']:.0f}", f"{done['cpu']:.0f}"])
        table("\nThe whole warm-up into an empty folder (s)", ["processes", "wall", "CPU (all processes)"], rows)
    if args.zip:
        print(f"\nlinux zip installed from disk into a fresh bpy ({pathlib.Path(args.zip).name}), seconds:")
        for line in zip_first_bakes(args.zip):
            print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
