"""The kernel cache in Blender: a folder that cannot be written never stops a bake. (The background
preparation itself is tested from the installed zip: test_extension_package.py.)"""
import json
import os
import shutil
import subprocess
import sys

import pytest

import mechbake
from headless import saved_pendulum

ROOT = os.path.dirname(os.path.abspath(mechbake.__file__))

BAKE_WITH_CACHE_IN = """
import json, os, sys
sys.path.insert(0, sys.argv[3])
import checkout
checkout.import_checkout_as_mechbake()
from mechbake.solver.kernels import cache
cache.set_cache_folder(sys.argv[1])  # as Blender's register() does, before any kernel is imported
import bpy, mechbake
mechbake.register()
from mechbake import bake
from mechbake.solver.kernels import jit
bpy.ops.wm.open_mainfile(filepath=sys.argv[2])
report = bake.bake_scene(bpy.context.scene)
print(json.dumps({"frames": report.frames, "cache": str(jit.CACHE_FOLDER)}))
"""


def read_only(folder) -> list[str]:
    """The command prefix under which `folder` cannot be written, even by root: a read-only mount of it
    in a mount namespace of its own (unshare); without unshare, its permissions."""
    if shutil.which("unshare") and subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode == 0:
        return ["unshare", "-rm", "sh", "-c", 'mount --bind -o ro "$0" "$0" && exec "$@"', str(folder)]
    if os.geteuid() == 0:
        pytest.skip("root writes into any folder that is not on a read-only mount, and unshare cannot make one here")
    folder.chmod(0o555)
    return []


def test_a_read_only_cache_folder_does_not_stop_a_bake(tmp_path):
    blend = tmp_path / "pendulum.blend"
    saved_pendulum(blend)
    locked = tmp_path / "read-only cache"
    locked.mkdir()
    done = subprocess.run([*read_only(locked), sys.executable, "-c", BAKE_WITH_CACHE_IN, str(locked), str(blend),
                           os.path.join(ROOT, "tools")], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["frames"] == 40
    assert not found["cache"].startswith(str(locked))  # the next folder that can be written: the user's cache
    assert list(locked.iterdir()) == []
