"""Saved files and the headless command, for the tests that bake from the command line."""
import os
import pathlib
import subprocess
import sys

import bpy

import mechbake
from blender_build import add_joint, add_rod, set_frames

ROOT = pathlib.Path(mechbake.__file__).resolve().parent


def saved_pendulum(path, broken=False, compress=False):
    rod = add_rod("Rod", (0, 0, 0), (1, 0, 0))
    joint = add_joint("Pivot", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=rod)
    if broken:
        joint.mechbake.joint_type = "DISTANCE"  # needs a target it does not have
    set_frames(1, 40)
    bpy.ops.wm.save_as_mainfile(filepath=str(path), compress=compress)
    bpy.ops.wm.read_factory_settings(use_empty=True)


def module_command(*args, module="mechbake") -> list[str]:
    """python -m mechbake ..., with the checkout imported as `mechbake` from where these tests import it
    (numba's cache is kept per path of the source: the same path shares the tests' compiled kernels)."""
    run = (f"import runpy, sys; sys.path.insert(0, {str(ROOT / 'tools')!r}); import checkout; "
           f"checkout.import_checkout_as_mechbake(); runpy.run_module({module!r}, run_name='__main__', alter_sys=True)")
    return [sys.executable, "-c", run, *args]


def run_module(tmp_path, *args, module="mechbake", prefix=(), **environment):
    """Runs module_command (behind a command prefix such as unshare's) in tmp_path."""
    return subprocess.run([*prefix, *module_command(*args, module=module)], capture_output=True, text=True,
                          env={**os.environ, **environment}, cwd=tmp_path, timeout=600)
