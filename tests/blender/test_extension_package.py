"""The built linux-x64 zip installs as Blender installs it and bakes with the numba it bundles.

Installed from disk (the user_default repository) its shipped kernels, compiled for a generic
x86-64 CPU, fit: the first bake compiles nothing. In another repository they do not (numba loads a
kernel by its module's name), and the solver is prepared in the background process as on other
platforms: the kernels compile cold into the extension's user folder (a few minutes).

A fresh bpy in its own process, with its own user folders and a site-packages from which numba and
llvmlite are taken out: what the zip brings is all the numba there is."""
import json
import os
import pathlib
import subprocess
import sys
import sysconfig

from headless import saved_pendulum

from mechbake.solver.warm_up import STAGES

ROOT = pathlib.Path(__file__).resolve().parents[2]

INSTALL_AND_BAKE = """
import json, os, site, sys
hidden_site, package_file, repository_folder = sys.argv[1:4]
blends = sys.argv[4:]
site.addsitedir(hidden_site)
import bpy

if repository_folder:
    bpy.ops.preferences.extension_repo_add(name="test", type="LOCAL", use_custom_directory=True,
                                           custom_directory=repository_folder)
    (repository,) = [r for r in bpy.context.preferences.extensions.repos if r.directory == repository_folder]
else:
    (repository,) = [r for r in bpy.context.preferences.extensions.repos if r.module == "user_default"]
assert bpy.ops.extensions.package_install_files(filepath=package_file, repo=repository.module,
                                                enable_on_install=True) == {"FINISHED"}
name = f"bl_ext.{repository.module}.mechbake"
numba_at_register = "numba" in sys.modules
extension = sys.modules[name]
from importlib import import_module
preparation, bake, cache = (import_module(f"{name}.{m}") for m in ("preparation", "bake", "solver.kernels.cache"))

warm_at_install = cache.is_warm()
process = preparation.start()  # background mode starts none by itself: the headless bake prepares its own
code = process.wait() if process else None
stage, errors, warm = (process.stage, process.errors, cache.is_warm()) if process else (None, [], warm_at_install)

bakes = []
for blend in blends:
    bpy.ops.wm.open_mainfile(filepath=blend)
    report = bake.bake_scene(bpy.context.scene)
    bakes.append({"frames": report.frames, "worst_gap": report.worst_gap, "compile_seconds": report.compile_seconds})
import numba
compiled = sorted(f"{module_name}.{attribute}" for module_name, module in list(sys.modules.items())
                  if module_name.startswith(f"{name}.solver.kernels")
                  for attribute, value in vars(module).items()
                  if hasattr(value, "py_func") and sum(value.stats.cache_misses.values()))
print(json.dumps({"extension": extension.__file__, "numba_at_register": numba_at_register,
                  "warm_at_install": warm_at_install, "code": code,
                  "stage": stage, "errors": errors, "warm": warm, "cache": str(cache.cache_folder()),
                  "user_folder": bpy.utils.extension_path_user(name), "numba": numba.__file__,
                  "bakes": bakes, "compiled": compiled}))
"""


def site_packages_without_numba(folder):
    """This environment's site-packages as links, less numba, llvmlite and the checkout's own path."""
    folder.mkdir()
    for entry in os.scandir(sysconfig.get_paths()["purelib"]):
        if entry.name.split("-")[0].split(".")[0] in ("numba", "llvmlite") or entry.name == "mechbake-checkout.pth":
            continue
        (folder / entry.name).symlink_to(entry.path)
    return folder


def install_and_bake(zip_file, tmp_path, repository_folder: str) -> tuple[dict, pathlib.Path]:
    """What the fresh Blender found baking a pendulum and the pusher sample (a servo, a slider and
    contacts), and its user folder."""
    blend, pusher = tmp_path / "pendulum.blend", tmp_path / "pusher.blend"
    saved_pendulum(blend)
    subprocess.run([sys.executable, str(ROOT / "sample_scenes" / "build_blend.py"), "pusher", str(pusher)], check=True,
                   capture_output=True)
    user = tmp_path / "blender user"
    hidden = site_packages_without_numba(tmp_path / "site-packages")
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "MECHBAKE_CACHE_DIR")}
    env["BLENDER_USER_RESOURCES"] = str(user)
    done = subprocess.run([sys.executable, "-S", "-c", INSTALL_AND_BAKE, str(hidden), str(zip_file),
                           repository_folder, str(blend), str(pusher)], env=env, capture_output=True, text=True,
                          timeout=1200)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert not found["numba_at_register"]
    # the bundled wheel, unpacked by Blender into the user folders; this environment's numba is hidden
    assert found["numba"].startswith(str(user)) and "site-packages" in found["numba"]
    (pendulum, pushed) = found["bakes"]
    assert pendulum["frames"] == 40 and pendulum["worst_gap"] < 1e-5
    assert pushed["frames"] == 250 and pushed["worst_gap"] < 1e-5
    return found, user


def test_the_linux_zip_installed_from_disk_bakes_with_its_shipped_kernels(built_extension, tmp_path):
    found, user = install_and_bake(built_extension["linux-x64"], tmp_path, "")
    assert found["extension"] == str(user / "extensions" / "user_default" / "mechbake" / "__init__.py")
    assert found["warm_at_install"] and found["code"] is None  # nothing to prepare
    assert found["cache"].startswith(found["user_folder"]) and found["cache"].endswith("-linux-x86_64-generic")
    assert found["compiled"] == [] and all(baked["compile_seconds"] == 0.0 for baked in found["bakes"])


def test_in_another_repository_the_zip_prepares_its_solver_and_bakes(built_extension, tmp_path):
    repository = tmp_path / "blender user" / "repository"
    found, _ = install_and_bake(built_extension["linux-x64"], tmp_path, str(repository))
    assert found["extension"] == str(repository / "mechbake" / "__init__.py")
    assert not found["warm_at_install"]  # the shipped kernels are for bl_ext.user_default.mechbake
    stages = len(STAGES)
    assert found["code"] == 0 and found["stage"] == f"done ({stages} of {stages})", found["errors"]
    assert found["warm"] and found["cache"].startswith(found["user_folder"])
    assert not found["cache"].endswith("-generic")  # compiled for this CPU
    assert found["compiled"] == []  # the background process compiled every kernel the bakes used
    assert all(baked["compile_seconds"] == 0.0 for baked in found["bakes"])
