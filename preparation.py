"""Preparing the solver in Blender: where its compiled kernels are kept, and compiling them in a
background process once the extension is enabled, so that an artist never meets a frozen Blender.

The kernels compile once per machine and MechBake version, in a few minutes (solver/warm_up.py, in
one process per core: 4 minutes on a slow 2-core machine), into the extension's own user folder
(`bpy.utils.extension_path_user`), unless the zip shipped them compiled for this platform and name
(solver/kernels/cache.py). register() only chooses that folder: numba is never imported there. A
second after Blender starts (or the extension is enabled), a timer checks whether the cache is
complete and, if not, starts the warm-up in a separate Python process at low priority (which starts
its workers, solver/warm_up_workers.py), then follows it. Meanwhile the MechBake panel
says "Preparing the solver (first use, a few minutes)" with the stage it is at, and Bake waits for it
(Esc cancels) and then bakes: baking at once would compile the same kernels a second time inside
Blender, freezing it for those minutes. In background mode (`blender -b`, the bpy module) nothing is
started: the headless bake prepares the solver itself and prints that it does (cli.py).
"""
import importlib.util
import os
import pathlib
import subprocess
import sys
import threading

import bpy

from .solver.kernels import cache

PACKAGE = __package__ or "mechbake"  # Blender's name for the extension: bl_ext.<repository>.mechbake
EXTENSION_FOLDER = pathlib.Path(__file__).resolve().parent
PREPARING = "Preparing the solver (first use, a few minutes)"
WATCH_INTERVAL = 0.5  # s between looks at the process (and redraws of the panel)

WARM_UP_PROCESS = EXTENSION_FOLDER / "solver" / "warm_up_process.py"  # under the name Blender imports the solver by


class Preparation:
    """The warm-up process, and the last thing it said."""

    def __init__(self, cache_base: pathlib.Path, import_paths: list[str]):
        arguments = [PACKAGE, str(EXTENSION_FOLDER), str(cache_base), os.pathsep.join(import_paths)]
        # Windows: no console window, and below Blender's priority (os.nice does it elsewhere)
        flags = getattr(subprocess, "CREATE_NO_WINDOW", 0) | getattr(subprocess, "BELOW_NORMAL_PRIORITY_CLASS", 0)
        self.process = subprocess.Popen([sys.executable, str(WARM_UP_PROCESS), *arguments], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, creationflags=flags)
        self.stage = "starting"  # what the process is compiling: "contacts (3 of 5)"
        self.errors: list[str] = []
        self._readers = [threading.Thread(target=self._read_stage, daemon=True),
                         threading.Thread(target=self._read_errors, daemon=True)]
        for reader in self._readers:
            reader.start()

    def _read_stage(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:  # "3/5 contacts", as warm_up prints it
            count, _, what = line.strip().partition(" ")
            self.stage = f"{what} ({count.replace('/', ' of ')})"

    def _read_errors(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.errors.append(line.rstrip())

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def wait(self, timeout: float | None = None) -> int:
        """The exit code, once the process and what it printed are read to the end."""
        code = self.process.wait(timeout)
        for reader in self._readers:
            reader.join()
        return code

    @property
    def failure(self) -> str | None:
        """Why the process failed, in the artist's words with its own last line, or None."""
        code = self.process.poll()
        if code in (None, 0):
            return None
        for reader in self._readers:
            reader.join()
        last = next((line.strip() for line in reversed(self.errors) if line.strip()), f"exit code {code}")
        return f"MechBake could not prepare its solver ({last}); a bake will compile it, with Blender paused"

    def stop(self) -> None:
        if self.running:
            self.process.terminate()
        self.wait()


NUMBA_MISSING = ("MechBake's solver needs numba, which this Blender cannot find: install the MechBake package "
                 "built for this platform (see the README)")
_preparation: Preparation | None = None
_numba_missing = False


def start() -> Preparation | None:
    """Starts compiling the kernels in a background process, unless they are compiled already, one is
    running or numba cannot be found (the panel says so); the running process, or None."""
    global _preparation, _numba_missing
    if _preparation is not None and _preparation.running:
        return _preparation
    numba = importlib.util.find_spec("numba")  # where it is, without importing it
    numba_folders = list(numba.submodule_search_locations or []) if numba is not None else []
    _numba_missing = not numba_folders
    folder = cache.cache_folder()
    if _numba_missing or folder is None or cache.is_warm():  # no folder: nowhere to keep kernels, each bake compiles
        return None
    _preparation = Preparation(folder.parent, [str(pathlib.Path(numba_folders[0]).parent)])
    return _preparation


def current() -> Preparation | None:
    """The warm-up process of this session, running or finished, if one was started."""
    return _preparation


def status() -> tuple[str, list[str]] | None:
    """What the panel shows about the solver's preparation, (icon, lines); None once it is ready."""
    if _numba_missing:
        return "ERROR", [NUMBA_MISSING]
    if _preparation is None:
        return None
    if _preparation.running:
        return "TIME", [PREPARING, f"compiling: {_preparation.stage}"]
    failure = _preparation.failure
    return ("ERROR", [failure]) if failure else None


def _watch() -> float | None:
    """Timer: redraws the 3D views while the process runs (the panel shows its stage)."""
    for manager in bpy.data.window_managers:
        for window in manager.windows:
            for area in window.screen.areas:
                if area.type == "VIEW_3D":
                    area.tag_redraw()
    return WATCH_INTERVAL if _preparation is not None and _preparation.running else None


def _start_after_startup() -> None:
    if start() is not None:
        bpy.app.timers.register(_watch, first_interval=WATCH_INTERVAL)


def register() -> None:
    if PACKAGE.startswith("bl_ext."):  # installed as an extension (tests and `python -m mechbake` use the default)
        folder = bpy.utils.extension_path_user(PACKAGE, create=True)
        if folder:  # "" when Blender could not make it (it printed why): the user's cache folder serves
            cache.set_cache_folder(folder)
    if not bpy.app.background:
        bpy.app.timers.register(_start_after_startup, first_interval=1.0)


def unregister() -> None:
    global _preparation
    for timer in (_start_after_startup, _watch):
        if bpy.app.timers.is_registered(timer):
            bpy.app.timers.unregister(timer)
    if _preparation is not None:
        _preparation.stop()
        _preparation = None
