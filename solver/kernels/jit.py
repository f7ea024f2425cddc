"""How every kernel is compiled: numba's `njit`, cached on disk in a writable per-user folder.

This module is the only place that imports numba, and only the kernels import it, so
`import mechbake.solver` (and Blender's `register()`) stays free of numba; the kernels are imported
when the first Simulation is made. Where the cache is, and how it is keyed: cache.py (call
`set_cache_folder()` before the first Simulation). With NUMBA_DISABLE_JIT=1 the kernels run as
plain Python.
"""
import functools
import hashlib
import os
import pathlib
import time

from .cache import SOLVER_FOLDER, cache_folder, is_generic, repair, set_cache_folder  # noqa: F401  (set_cache_folder: the API named here)

CACHE_FOLDER = cache_folder()
REPAIRED = repair(CACHE_FOLDER)  # damaged cache files deleted before numba reads them
if CACHE_FOLDER is not None:
    os.environ["NUMBA_CACHE_DIR"] = str(CACHE_FOLDER)

import numba  # noqa: E402  (after NUMBA_CACHE_DIR is set: numba reads it on import)

numba.config.CACHE_DIR = str(CACHE_FOLDER) if CACHE_FOLDER is not None else ""
COMPILED = not numba.config.DISABLE_JIT  # False: the kernels run as plain Python, nothing is cached
if is_generic(CACHE_FOLDER):  # shipped kernels: numba's cache keys them by CPU, so compile as they were built
    numba.config.CPU_NAME, numba.config.CPU_FEATURES = "generic", ""

from numba.core import caching, event  # noqa: E402
from numba.core.registry import CPUDispatcher  # noqa: E402


class CompileClock(event.Listener):
    """Wall seconds numba has spent compiling kernels in this process; a kernel compiled while its
    caller compiles counts once. Loading from the cache is not compiling."""

    def __init__(self):
        self.seconds = 0.0
        self._depth = 0
        self._started = 0.0

    def on_start(self, event):
        if self._depth == 0:
            self._started = time.perf_counter()
        self._depth += 1

    def on_end(self, event):
        self._depth -= 1
        if self._depth == 0:
            self.seconds += time.perf_counter() - self._started


COMPILE_CLOCK = CompileClock()
event.register("numba:compile", COMPILE_CLOCK)


@functools.cache
def _content_hash(path: str) -> bytes:
    return hashlib.sha256(pathlib.Path(path).read_bytes()).digest()


class SolverCacheLocator(caching._CacheLocator):
    """Where numba keeps a kernel's compiled code: CACHE_FOLDER, at its source file's place in
    solver/, stamped by the file's content. numba's own locator names the folder after the file's
    absolute path, so the same solver in another environment would compile again."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        place = pathlib.Path(py_file).resolve().parent.relative_to(SOLVER_FOLDER)
        self._cache_path = str(CACHE_FOLDER / place)

    def get_cache_path(self):
        return self._cache_path

    def get_source_stamp(self):
        return _content_hash(self._py_file)

    def get_disambiguator(self):
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        if CACHE_FOLDER is None or not pathlib.Path(py_file).resolve().is_relative_to(SOLVER_FOLDER):
            return None
        locator = cls(py_func, py_file)
        locator.ensure_cache_path()
        return locator


# numba asks these in turn for every cached kernel; its own locator is kept for code outside solver/
numba.config.CACHE_LOCATOR_CLASSES = f"{__name__}.SolverCacheLocator,UserProvidedCacheLocator"


class InnerDispatcher(CPUDispatcher):
    """A kernel only other kernels call: numba builds no Python entry for it (no_cpython_wrapper), which
    saves a good part of the compile. Called from Python, it raises instead of jumping to no code."""

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.py_func.__module__}.{self.py_func.__qualname__} is compiled for kernels only; "
                        "mark it entry_kernel (or borrowing_entry_kernel) to call it from Python")


def _decorator(python_entry: bool, nrt: bool):
    """numba's njit with the solver's options; a kernel without a Python entry is an InnerDispatcher.
    No kernel is used as a first-class function value, so none needs numba's C-callable wrapper."""
    options = {"error_model": "numpy", "_nrt": nrt, "no_cfunc_wrapper": True, "no_cpython_wrapper": not python_entry}
    cache = CACHE_FOLDER is not None

    def decorate(function):
        if python_entry or numba.config.DISABLE_JIT:
            return numba.njit(cache=cache, **options)(function)
        dispatcher = InnerDispatcher(py_func=function, locals={}, targetoptions={"nopython": True, **options})
        if cache:
            dispatcher.enable_caching()
        return dispatcher

    return decorate


def is_entry(dispatcher) -> bool:
    """Whether Python can call this kernel."""
    return not dispatcher.targetoptions.get("no_cpython_wrapper", False)


# Which decorator: a kernel Python calls (Simulation, the contact stage, tools, tests) is an entry
# kernel; every other kernel is only called by kernels (tests/solver/test_entry_kernels.py checks it).
# error_model "numpy": a division by zero gives inf or nan as in numpy (the finiteness watch catches
# it) instead of raising from deep inside a kernel.
# _nrt=True said outright: a kernel called from a borrowing one would otherwise inherit its _nrt=False.
kernel = _decorator(python_entry=False, nrt=True)
entry_kernel = _decorator(python_entry=True, nrt=True)
# A kernel that creates no array and returns none only borrows its caller's: numba need not count
# references to them, which it does at every call of a kernel it does not inline: an atomic increment
# and decrement per array handed over (benchmarks/README.md, "Speed"). numba refuses to compile a borrowing kernel that
# allocates or returns an array; one that calls a kernel returning a new array would leak it
# (tests/solver/test_kernels.py counts the allocations of whole runs).
borrowing_kernel = _decorator(python_entry=False, nrt=False)
borrowing_entry_kernel = _decorator(python_entry=True, nrt=False)
