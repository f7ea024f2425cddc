"""The warm-up in a process of its own, with the solver imported under the name Blender gives the
extension (`bl_ext.user_default.mechbake`): numba's cache finds a kernel by its argument types, and
the model's named tuples are named by their module, so under another name every kernel would
compile again in Blender. The packages above the solver are stand-ins (the extension's __init__,
which needs bpy, is not run). Run as a script, by preparation.py in the background and by
tools/build_extension.py for the kernels the linux-x64 zip ships:

    python warm_up_process.py PACKAGE EXTENSION_FOLDER CACHE_BASE IMPORT_PATHS [--where | --serve]

CACHE_BASE "" is the default base (cache.py). IMPORT_PATHS (os.pathsep-separated, may be empty) go
first on sys.path: where Blender found numba.
With --where it compiles nothing and prints the folder the kernels would go to; with --serve it is
a worker of solver/warm_up_workers.py, simulating the stages it is given.
"""
import importlib
import os
import signal
import sys
import types


def import_solver(package: str, folder: str):
    """The solver of the extension in `folder`, imported as `package`.solver."""
    parts = package.split(".")
    for count in range(1, len(parts) + 1):
        module = types.ModuleType(".".join(parts[:count]))
        module.__path__ = [folder] if count == len(parts) else []
        sys.modules[module.__name__] = module
    return importlib.import_module(package + ".solver")


def main(argv: list[str]) -> int:
    package, folder, cache_base, import_paths = argv[:4]
    if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
        del sys.path[0]  # the script's own folder: the solver's modules are not top-level modules
    sys.path[:0] = [path for path in import_paths.split(os.pathsep) if path]
    import_solver(package, folder)
    if "--where" in argv[4:]:
        cache = importlib.import_module(package + ".solver.kernels.cache")
        if cache_base:
            cache.set_cache_folder(cache_base)
        print(cache.cache_folder())
        return 0
    warm_up = importlib.import_module(package + ".solver.warm_up")
    if "--serve" in argv[4:]:  # a worker of warm_up_workers.py, at its parent's priority
        warm_up.cache.set_cache_folder(cache_base)
        warm_up.serve(sys.stdin)
        return 0
    if hasattr(os, "nice"):
        os.nice(10)
    if hasattr(signal, "SIGTERM"):  # Blender stopping the warm-up: its workers are stopped on the way out
        signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(1))
    return warm_up.main([cache_base] if cache_base else [])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
