"""The warm-up compiles every kernel a bake can need: after it, no sample compiles anything.

One cold compile into an empty cache (a few minutes), in fresh processes, as on an artist's
first use."""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time

import pytest

import mechbake
from mechbake.solver.warm_up import STAGES
from mechbake.solver.warm_up_workers import default_workers

ROOT = pathlib.Path(mechbake.__file__).resolve().parent
IMPORT_CHECKOUT = f"import sys; sys.path.insert(0, {str(ROOT / 'tools')!r}); import checkout; " \
                  "checkout.import_checkout_as_mechbake(); "

# Every sample, and the other methods of those that have two, a few steps each; then every kernel
# that was compiled for it rather than loaded from the cache.
RUN_SAMPLES = IMPORT_CHECKOUT + """
import json, mechanisms
from mechbake.solver import Model, Simulation
from mechbake.solver.kernels import jit
builds = list(mechanisms.SAMPLES.values()) + [lambda: mechanisms.spring_suspension("impulse"),
                                              lambda: mechanisms.four_balls("lcp"),
                                              lambda: mechanisms.spinning_rod("lcp")]
for build in builds:
    simulation = Simulation(Model.from_dict(build()))
    for _ in range(40):
        simulation.step()
compiled = sorted(f"{name}.{attribute}" for name, module in list(sys.modules.items())
                  if name.startswith("mechbake.solver.kernels")
                  for attribute, value in vars(module).items()
                  if hasattr(value, "py_func") and sum(value.stats.cache_misses.values()))
print(json.dumps({"folder": str(jit.CACHE_FOLDER), "compiled": compiled, "compile_seconds": jit.COMPILE_CLOCK.seconds}))
"""


def test_after_the_warm_up_no_sample_compiles_a_kernel(tmp_path):
    """The stages shared among two processes side by side, each taking the next when free."""
    env = {**os.environ, "MECHBAKE_CACHE_DIR": str(tmp_path)}
    warm = subprocess.run([sys.executable, "-c", IMPORT_CHECKOUT + "from mechbake.solver import warm_up; "
                           "warm_up.warm_up(warm_up.print_progress, workers=2)"],
                          env=env, capture_output=True, text=True, timeout=900)
    assert warm.returncode == 0, warm.stderr
    lines = warm.stdout.splitlines()
    stages = len(STAGES)
    assert lines[-1] == f"{stages}/{stages} done"
    assert [line.partition("/")[0] for line in lines[:-1]] == [str(count) for count in range(stages)]
    assert sorted(line.partition(" ")[2] for line in lines[:-1]) == sorted(what for what, _ in STAGES)
    (folder,) = tmp_path.glob("kernels-*")
    assert (folder / "complete").is_file()

    samples = subprocess.run([sys.executable, "-c", RUN_SAMPLES], env=env, capture_output=True, text=True,
                             timeout=900)
    assert samples.returncode == 0, samples.stderr
    found = json.loads(samples.stdout.splitlines()[-1])
    assert found["folder"] == str(folder)
    assert found["compiled"] == [] and found["compile_seconds"] == 0.0

    # The same solver at another path (another environment, another checkout) finds those kernels:
    # numba's own cache would have named its folders after the path and compiled again.
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(ROOT, elsewhere, ignore=shutil.ignore_patterns(".*", "wheels", "__pycache__"))
    moved = subprocess.run([sys.executable, "-c", RUN_SAMPLES.replace(str(ROOT), str(elsewhere))], env=env,
                           capture_output=True, text=True, timeout=900)
    assert moved.returncode == 0, moved.stderr[-3000:]
    assert json.loads(moved.stdout.splitlines()[-1]) == found

    # Damaged files, each as a disk or a killed copy leaves them, which numba would fail to unpickle
    # in every later run. They are deleted and compiled again.
    # (kernels called from Python: a kernel called only by other kernels lives on inside their code)
    def cache_file(kernel: str, kind: str):
        (path,) = folder.rglob(f"{kernel}-*.py{sys.version_info.major}{sys.version_info.minor}{kind}")
        return path

    truncated, emptied = cache_file("correction.advance_steps", ".1.nbc"), cache_file("contact_loop.correct_positions",
                                                                                      ".1.nbc")
    flipped, garbled = cache_file("flight.fly", ".1.nbc"), cache_file("flight.fly", ".nbi")
    truncated.write_bytes(truncated.read_bytes()[: truncated.stat().st_size // 2])
    emptied.write_bytes(b"")
    flipped_bytes = bytearray(flipped.read_bytes())
    flipped_bytes[len(flipped_bytes) // 2] ^= 0x10
    flipped.write_bytes(bytes(flipped_bytes))
    garbled.write_bytes(os.urandom(garbled.stat().st_size))
    damaged = subprocess.run([sys.executable, "-c", RUN_SAMPLES], env=env, capture_output=True, text=True,
                             timeout=900)
    assert damaged.returncode == 0, damaged.stderr[-3000:]
    recompiled = json.loads(damaged.stdout.splitlines()[-1])["compiled"]
    assert json.loads(damaged.stdout.splitlines()[-1])["compile_seconds"] > 0.5  # numba's own compile events
    assert {"mechbake.solver.kernels.correction.advance_steps", "mechbake.solver.kernels.flight.fly",
            "mechbake.solver.kernels.contact.contact_loop.correct_positions"} <= set(recompiled), recompiled
    assert not (folder / "complete").is_file()  # the next warm-up (in Blender: in the background) marks it again
    again = subprocess.run([sys.executable, "-c", IMPORT_CHECKOUT + "from mechbake.solver import warm_up; "
                            "sys.exit(warm_up.main([]))"], env=env, capture_output=True, text=True, timeout=900)
    assert again.returncode == 0 and (folder / "complete").is_file()
    rerun = subprocess.run([sys.executable, "-c", RUN_SAMPLES], env=env, capture_output=True, text=True, timeout=900)
    assert json.loads(rerun.stdout.splitlines()[-1])["compiled"] == []


def test_a_warm_up_worker_that_fails_stops_the_warm_up_with_its_error(tmp_path):
    """Workers that cannot import numba (a broken one first on the path): the warm-up ends with their
    error, and the folder is not marked complete."""
    broken = tmp_path / "broken"
    (broken / "numba").mkdir(parents=True)
    (broken / "numba" / "__init__.py").write_text("raise ImportError('this numba is broken')\n")
    env = {**os.environ, "MECHBAKE_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(broken)}
    warm = subprocess.run([sys.executable, "-c", IMPORT_CHECKOUT + "from mechbake.solver import warm_up; "
                           "warm_up.warm_up(workers=2)"], env=env, capture_output=True, text=True, timeout=300)
    assert warm.returncode == 1
    assert warm.stderr.splitlines()[-1] == ("RuntimeError: a warm-up worker failed (exit code 1): ImportError: this "
                                            "numba is broken")
    (folder,) = (tmp_path / "cache").glob("kernels-*")
    assert not (folder / "complete").exists()


def test_a_warm_up_stopped_as_blender_stops_it_stops_its_workers(tmp_path):
    """preparation.py terminates the warm-up process when Blender quits: its workers must not go on
    compiling on their own."""
    if default_workers(len(STAGES)) < 2:
        pytest.skip("one CPU: the warm-up has no workers")
    warm = subprocess.Popen([sys.executable, str(ROOT / "solver" / "warm_up_process.py"), "mechbake", str(ROOT),
                             str(tmp_path), ""], stdout=subprocess.PIPE, text=True)
    assert warm.stdout.readline().startswith(f"0/{len(STAGES)} ")  # its workers have started

    def workers() -> list[str]:
        found = []
        for status in pathlib.Path("/proc").glob("[0-9]*/cmdline"):
            try:
                line = status.read_bytes().replace(b"\0", b" ").decode()
            except OSError:  # a process that ended meanwhile
                continue
            if "--serve" in line and str(tmp_path) in line:
                found.append(line)
        return found

    assert len(workers()) == default_workers(len(STAGES))
    warm.terminate()
    assert warm.wait(timeout=30) != 0
    deadline = time.monotonic() + 30
    while workers() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert workers() == []


def test_with_no_writable_folder_at_all_the_kernels_compile_in_memory(tmp_path):
    """No cache folder, no user cache, no temporary folder (all read-only or missing): it raised
    FileNotFoundError from tempfile where the README promises an in-memory compile."""
    if not shutil.which("unshare") or subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode:
        pytest.skip("needs unshare with user and mount namespaces to make /tmp read-only")
    run = "import time; start = time.perf_counter(); " + IMPORT_CHECKOUT + """
import json, mechanisms
from mechbake.solver import Model, Simulation
from mechbake.solver.kernels import jit
simulation = Simulation(Model.from_dict(mechanisms.pendulum()))
simulation.run(0.1)
print(json.dumps({"folder": jit.CACHE_FOLDER, "time": simulation.time, "compile_seconds": jit.COMPILE_CLOCK.seconds,
                  "wall": time.perf_counter() - start}))
"""
    # /tmp and /var/tmp read-only in place (this checkout and its Python may live under /tmp)
    script = ('mount --bind -o ro /tmp /tmp && mount --bind -o ro /var/tmp /var/tmp && cd /proc && '
              'exec env -u TMPDIR -u TEMP -u TMP -u MECHBAKE_CACHE_DIR HOME=/proc XDG_CACHE_HOME=/proc/cache "$@"')
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script, "sh", sys.executable, "-c", run],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["folder"] is None and abs(found["time"] - 0.1) < 1e-9
    # the compile clock counts each outermost compile once: most of the run, never more than all of it
    assert 0.5 * found["wall"] < found["compile_seconds"] < found["wall"]
