"""A model without drives or animated bodies compiles none of their kernels (arrays.drives_flag): its
kernels take `driven` as None, and numba drops the branches on `driven is not None` before typing.
Checked in a fresh process with an empty kernel cache, as on a first bake."""
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]

PROBE = f"""
import json, sys
sys.path.insert(0, {str(ROOT / 'tools')!r})
import checkout
checkout.import_checkout_as_mechbake()
import numpy as np
from mechbake.solver import Model, Simulation
from mechbake.solver.kernels import correction, drives, flight, motion

def pendulum(motor):
    joint = {{"name": "pivot", "type": "hinge", "body_a": "world", "body_b": "bob", "anchor": [0, 0, 0],
              "axis": [0, 1, 0]}}
    if motor:
        joint["motor"] = {{"mode": "velocity", "target": 1.0, "max_torque": 2.0}}
    bob = {{"name": "bob", "mass": 1.0, "inertia": [0.01, 0.01, 0.01], "position": [0.5, 0, 0],
            "velocity": [0, 0, 0.3], "angular_velocity": [0, -0.6, 0]}}
    return Simulation(Model.from_dict({{"format": "mechbake/1", "gravity": [0, 0, -9.81], "bodies": [bob],
                                       "joints": [joint]}})).instant

def look(instant, driven):
    state = instant.state_arrays()
    instant.ensure_rows()
    correction.look(instant.arrays, instant.settings, state, instant.rows, instant.flight, instant.work, 0.01, driven)
    return instant.flight.position.copy()

def compiled(dispatcher):
    twin = dispatcher.__dict__.get("_kernel_twin")
    return len(dispatcher.overloads) + (len(twin.overloads) if twin is not None else 0)

plain = pendulum(motor=False)
found = {{"flag": plain.driven, "undriven": look(plain, plain.driven).tolist(),
          "loop_drives": compiled(drives.has_loop_drives), "motion": compiled(motion.motion_at)}}
found["undriven_as_driven"] = look(plain, True).tolist()
found["loop_drives_after"] = compiled(drives.has_loop_drives)
found["motion_after"] = compiled(motion.motion_at)
found["driven_flag"] = pendulum(motor=True).driven
print(json.dumps(found))
"""


def test_a_model_without_drives_compiles_none_of_their_kernels_and_moves_as_it_would_with_them(tmp_path):
    env = {**os.environ, "MECHBAKE_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["flag"] is None and found["driven_flag"] is True
    assert found["loop_drives"] == 0 and found["motion"] == 0  # the look-ahead compiled without them
    assert found["loop_drives_after"] == 1 and found["motion_after"] == 1  # ... and with them when asked
    assert found["undriven_as_driven"] == found["undriven"]  # for a model without drives, only the compile differs
