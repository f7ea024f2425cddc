"""Headless baking: `python -m mechbake bake` on saved files, and the command Blender registers."""
import pathlib
import shutil
import subprocess
import sys

import bpy

import mechbake
from headless import run_module, saved_pendulum
from mechbake.solver.warm_up import STAGES
from keys import curves

ROOT = pathlib.Path(mechbake.__file__).resolve().parent


def test_python_module_bakes_a_saved_file(tmp_path):
    source, baked = tmp_path / "in.blend", tmp_path / "out.blend"
    saved_pendulum(source)
    done = run_module(tmp_path, "bake", str(source), "--output", str(baked), "--frames", "1:20")
    assert done.returncode == 0, done.stderr
    assert "100 %" in done.stdout and "worst joint gap" in done.stdout
    bpy.ops.wm.open_mainfile(filepath=str(baked))
    found = curves(bpy.data.objects["Rod"])
    assert len(found) == 7 and all(len(c.keyframe_points) == 20 for c in found.values())


def test_invalid_scene_or_file_exits_non_zero_naming_the_problem(tmp_path):
    source = tmp_path / "broken.blend"
    saved_pendulum(source, broken=True)
    done = run_module(tmp_path, "bake", str(source))
    assert done.returncode == 1
    assert "joint 'Pivot': a Distance joint needs a Target object" in done.stderr
    missing = run_module(tmp_path, "bake", str(tmp_path / "nowhere.blend"))
    assert missing.returncode == 1 and "nowhere.blend: no such file" in missing.stderr
    frames = run_module(tmp_path, "bake", str(source), "--frames", "ten")
    assert frames.returncode == 1 and "--frames must be START:END" in frames.stderr


def test_the_blender_command_runs_the_same_bake(tmp_path):
    """`blender -b -c mechbake bake ...` calls cli.execute with the arguments after the command id."""
    from mechbake import cli

    assert cli._handle is not None  # registered with bpy.utils.register_cli_command
    source = tmp_path / "in.blend"
    saved_pendulum(source)
    assert cli.execute(["bake", str(source), "--frames", "1:10"]) == 0
    bpy.ops.wm.open_mainfile(filepath=str(source))
    assert all(len(c.keyframe_points) == 10 for c in curves(bpy.data.objects["Rod"]).values())


def test_an_output_that_cannot_be_written_fails_before_the_bake(tmp_path):
    source = tmp_path / "in.blend"
    saved_pendulum(source)
    nowhere = tmp_path / "missing" / "out.blend"
    done = run_module(tmp_path, "bake", str(source), "--output", str(nowhere))
    assert done.returncode == 1
    assert f"{nowhere}: cannot be written, the folder {nowhere.parent} does not exist" in done.stderr
    assert "%" not in done.stdout  # refused before baking a single frame
    blocker = tmp_path / "a file"
    blocker.write_text("")
    done = run_module(tmp_path, "bake", str(source), "--output", str(blocker / "out.blend"))
    assert done.returncode == 1 and "cannot be written" in done.stderr and "%" not in done.stdout


def test_on_a_cold_cache_the_command_compiles_the_solver_first_and_says_so(tmp_path):
    """A cache without its mark of completeness is cold. It is made from a copy of the warm default
    cache, so the kernels load instead of compiling for a minute: what is tested is what is said."""
    from mechbake.solver.kernels import cache

    assert run_module(tmp_path, module="mechbake.solver.warm_up").returncode == 0  # the default cache, complete
    base = tmp_path / "cache"
    shutil.copytree(cache.cache_folder(), base / cache.cache_folder().name)
    (base / cache.cache_folder().name / cache.COMPLETE_MARK).unlink()
    source = tmp_path / "in.blend"
    saved_pendulum(source)
    cold = run_module(tmp_path, "bake", str(source), "--frames", "1:5", MECHBAKE_CACHE_DIR=str(base))
    assert cold.returncode == 0, cold.stderr
    said = [line for line in cold.stdout.splitlines() if line.startswith("mechbake:")]  # Blender's own lines out
    assert said[0] == (f"mechbake: compiling the solver for its first use on this machine (a few minutes, once; "
                       f"kept in {base / cache.cache_folder().name})")
    # each stage as it starts, counted in order, whichever of the processes side by side takes it
    stages = len(STAGES)
    assert [line.rpartition("(")[2] for line in said[1:stages + 1]] == [f"{count}/{stages})" for count in range(stages)]
    assert sorted(line[len("mechbake: compiling "):line.rindex(" (")] for line in said[1:stages + 1]) == sorted(
        what for what, _ in STAGES)
    assert said[stages + 1] == "mechbake: the solver is ready"
    assert said[stages + 2].startswith("mechbake: baking")
    warm = run_module(tmp_path, "bake", str(source), "--frames", "1:5", MECHBAKE_CACHE_DIR=str(base))
    assert warm.returncode == 0 and "compiling" not in warm.stdout


OWN_SCRIPT = """
import sys
sys.path.insert(0, sys.argv[1])
import checkout
checkout.import_checkout_as_mechbake()
import bpy
import mechbake

mechbake.register()
from mechbake import bake

bpy.ops.wm.open_mainfile(filepath=sys.argv[2])
report = bake.bake_scene(bpy.context.scene)
bpy.ops.wm.save_as_mainfile(filepath=sys.argv[3])
print("baked", report.frames, flush=True)
ending = sys.argv[4]
if ending == "exit 3":
    sys.exit(3)
if ending == "raise":
    raise RuntimeError("the pipeline's own error")
"""


def test_a_pipelines_own_script_that_bakes_ends_with_its_own_exit_status(tmp_path):
    """A script written as the README's Scripting section shows, under every bpy module: the bpy
    modules of Blender 4.2 and 4.5 crashed in their teardown after such a script (exit code 139)."""
    source = tmp_path / "in.blend"
    saved_pendulum(source)
    for ending, status in (("end", 0), ("exit 3", 3), ("raise", 1)):
        baked = tmp_path / f"baked {status}.blend"
        done = subprocess.run([sys.executable, "-c", OWN_SCRIPT, str(ROOT / "tools"), str(source), str(baked), ending],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == status, done.stdout[-2000:] + done.stderr[-2000:]
        assert "baked 40" in done.stdout and baked.is_file()
        assert ("the pipeline's own error" in done.stderr) == (ending == "raise")
