"""The built linux-x64 zip installs as Blender installs it (Install from Disk, into a user repository),
prepares its solver in its background process and bakes, with the numba it bundles.

A fresh bpy in its own process, with its own user folders and a site-packages from which numba and
llvmlite are taken out: what the zip brings is all the numba there is. The kernels compile cold
into the extension's user folder (a few minutes)."""
import json
import os
import subprocess
import sys
import sysconfig

from headless import saved_pendulum

INSTALL_AND_BAKE = """
import json, os, site, sys
hidden_site, package_file, repository_folder, blend = sys.argv[1:5]
site.addsitedir(hidden_site)
import bpy

bpy.ops.preferences.extension_repo_add(name="test", type="LOCAL", use_custom_directory=True,
                                       custom_directory=repository_folder)
(repository,) = [r for r in bpy.context.preferences.extensions.repos if r.directory == repository_folder]
assert bpy.ops.extensions.package_install_files(filepath=package_file, repo=repository.module,
                                                enable_on_install=True) == {"FINISHED"}
name = f"bl_ext.{repository.module}.mechbake"
numba_at_register = "numba" in sys.modules
extension = sys.modules[name]
from importlib import import_module
preparation, bake, cache = (import_module(f"{name}.{m}") for m in ("preparation", "bake", "solver.kernels.cache"))

process = preparation.start()  # background mode starts none by itself: the headless bake prepares its own
code = process.wait()
stage, errors, warm = process.stage, process.errors, cache.is_warm()

bpy.ops.wm.open_mainfile(filepath=blend)
report = bake.bake_scene(bpy.context.scene)
import numba
compiled = sorted(f"{module_name}.{attribute}" for module_name, module in list(sys.modules.items())
                  if module_name.startswith(f"{name}.solver.kernels")
                  for attribute, value in vars(module).items()
                  if hasattr(value, "py_func") and sum(value.stats.cache_misses.values()))
print(json.dumps({"extension": extension.__file__, "numba_at_register": numba_at_register, "code": code,
                  "stage": stage, "errors": errors, "warm": warm, "cache": str(cache.cache_folder()),
                  "user_folder": bpy.utils.extension_path_user(name), "numba": numba.__file__,
                  "frames": report.frames, "worst_gap": report.worst_gap, "compiled": compiled}))
"""


def site_packages_without_numba(folder):
    """This environment's site-packages as links, less numba, llvmlite and the checkout's own path."""
    folder.mkdir()
    for entry in os.scandir(sysconfig.get_paths()["purelib"]):
        if entry.name.split("-")[0].split(".")[0] in ("numba", "llvmlite") or entry.name == "mechbake-checkout.pth":
            continue
        (folder / entry.name).symlink_to(entry.path)
    return folder


def test_the_linux_zip_installs_prepares_its_solver_and_bakes_with_its_own_numba(built_extension, tmp_path):
    blend = tmp_path / "pendulum.blend"
    saved_pendulum(blend)
    user = tmp_path / "blender user"
    repository = user / "repository"
    hidden = site_packages_without_numba(tmp_path / "site-packages")
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "MECHBAKE_CACHE_DIR")}
    env["BLENDER_USER_RESOURCES"] = str(user)
    done = subprocess.run([sys.executable, "-S", "-c", INSTALL_AND_BAKE, str(hidden), str(built_extension["linux-x64"]),
                           str(repository), str(blend)], env=env, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["extension"] == str(repository / "mechbake" / "__init__.py")
    assert not found["numba_at_register"]
    # the bundled wheel, unpacked by Blender into the user folders; this environment's numba is hidden
    assert found["numba"].startswith(str(user)) and "site-packages" in found["numba"]
    assert found["code"] == 0 and found["stage"] == "done (5 of 5)", found["errors"]
    assert found["warm"] and found["cache"].startswith(found["user_folder"])
    assert found["compiled"] == []  # the background process compiled every kernel the bake used
    assert found["frames"] == 40 and found["worst_gap"] < 1e-5
