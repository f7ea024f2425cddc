"""How every kernel is compiled: numba's `njit`, cached on disk in a writable per-user folder.

This module is the only place that imports numba (with inner_code.py and numba_patches.py, which it
imports once numba is configured), and only the kernels import it, so `import mechbake.solver` (and
Blender's `register()`) stays free of numba; the kernels are imported when the first Simulation is
made. Which code numba makes of a kernel, and how it is cached: inner_code.py; what this process
changes in numba's compile: numba_patches.py. Where the cache is, and how it is keyed: cache.py (call
`set_cache_folder()` before the first Simulation). With NUMBA_DISABLE_JIT=1 the kernels run as
plain Python.
"""
import functools
import hashlib
import os
import pathlib
import threading
import time
import types

import numpy as np

from ..arrays import ModelArrays, RowArrays, SolverSettings, WorkArrays
from ..contact.layout import ContactTable
from ..contact.shape_table import ShapeTable
from .cache import SOLVER_FOLDER, cache_folder, is_complete, is_generic, repair, set_cache_folder  # noqa: F401  (set_cache_folder: the API named here)

CACHE_FOLDER = cache_folder()
REPAIRED = repair(CACHE_FOLDER)  # damaged cache files deleted before numba reads them
if CACHE_FOLDER is not None:
    os.environ["NUMBA_CACHE_DIR"] = str(CACHE_FOLDER)

import numba  # noqa: E402  (after NUMBA_CACHE_DIR is set: numba reads it on import)

numba.config.CACHE_DIR = str(CACHE_FOLDER) if CACHE_FOLDER is not None else ""
COMPILED = not numba.config.DISABLE_JIT  # False: the kernels run as plain Python, nothing is cached
if is_generic(CACHE_FOLDER):  # shipped kernels: numba's cache keys them by CPU, so compile as they were built
    numba.config.CPU_NAME, numba.config.CPU_FEATURES = "generic", ""

from numba.core import caching, event, types as numba_types  # noqa: E402
from numba.core.registry import CPUDispatcher  # noqa: E402

from . import numba_patches  # noqa: E402,F401  (how numba compiles, changed for this process)
from .inner_code import ENTRY_PIPELINE, PIPELINE as INNER_PIPELINE  # noqa: E402  (numba imported as configured above)
from .records import make_record, record_from_python  # noqa: E402


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


def cache_complete() -> bool:
    """Whether the warm-up has compiled every kernel into CACHE_FOLDER (or shipped kernels filled it):
    asked as each Simulation starts, since Blender's warm-up may finish while the kernels are loaded."""
    return is_complete(CACHE_FOLDER)


class InnerDispatcher(CPUDispatcher):
    """A kernel only other kernels call: numba builds no Python entry for it (no_cpython_wrapper), which
    saves a good part of the compile. Called from Python, it raises instead of jumping to no code.
    A constant argument is typed as its type, not its value: numba would compile the kernel once per
    value (a Literal[int](0), a Literal[bool](True)), and the caller's optimiser folds the constant anyway
    where it inlines the kernel."""

    def get_call_template(self, args, kws):
        plain = tuple(numba_types.unliteral(arg) for arg in args)
        plain_keywords = {name: numba_types.unliteral(arg) for name, arg in kws.items()}
        return super().get_call_template(plain, plain_keywords)

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.py_func.__module__}.{self.py_func.__qualname__} is compiled for kernels only; "
                        "mark it entry_kernel (or borrowing_entry_kernel) to call it from Python")


# The arrays a simulation builds once and never rebuilds (the model's, its shapes', the settings, the
# joints' rows, the work arrays): a call from Python types each of them once, by identity.
LASTING = frozenset((ModelArrays, ShapeTable, ContactTable, SolverSettings, RowArrays, WorkArrays))
# Of those, the ones kernels take as records (records.py), made once per tuple: Python keeps the tuple.
# Only tuples a simulation keeps belong here (integrator.fly makes a FlightArrays per call: not one)
RECORDED = frozenset((ModelArrays, ShapeTable, ContactTable, RowArrays, WorkArrays))
SCALARS = frozenset((float, bool, np.float64, np.int64, np.bool_, type(None)))  # None: a kernel's `driven`
FAST_CALLS = 8  # argument typings an entry kernel keeps, the oldest dropped first; each holds its lasting arrays
_ARRAY_FLAGS = 0x1 | 0x2 | 0x100 | 0x400  # C and F contiguous, aligned, writeable: what numba's array type says
_INT64 = 2**63


class EntryDispatcher(CPUDispatcher):
    """A kernel Python calls. numba types every argument of every call, array by array, which for the
    model's and the rows' arrays takes longer than a small scene's kernel runs (docs/contact_step.md).
    A call with LASTING arrays types them once: later calls with the same objects and arguments of
    the same kinds go straight to the compiled entry numba chose for them. The RECORDED tuples (the
    model's, the shape tables, the rows', the work arrays') reach the kernel as records of the same
    arrays (records.py), kept with the entry: the call's key holds the tuples' identities.
    Kernels that call it call its kernel twin instead (the same function compiled as an inner kernel):
    its machine code is compiled only for what Python calls (inner_code.py)."""

    @property
    def _numba_type_(self):
        twin = self.__dict__.get("_kernel_twin")
        if twin is None:
            twin = self.__dict__["_kernel_twin"] = _kernel_twin(self)
        return numba_types.Dispatcher(twin)

    def __call__(self, *args, **kwargs):
        if kwargs or LASTING.isdisjoint(map(type, args)):
            return super().__call__(*args, **kwargs)
        key = _call_key(args)
        fast = self.__dict__.setdefault("_fast_calls", {})
        found = fast.get(key) if key is not None else None
        if found is not None:
            entry, _, records = found
            if not records:
                return entry(*args)
            handed = list(args)
            for position, record in records:  # the key holds the recorded tuples' identities
                handed[position] = record
            return entry(*handed)
        handed = tuple(_record(arg) if type(arg) in RECORDED else arg for arg in args)
        result = super().__call__(*handed)  # types, compiles if need be, runs
        if key is not None:
            with _KEEPING:
                overload = self._chosen_overload(handed)
                if overload is not None:
                    if len(fast) >= FAST_CALLS:
                        del fast[next(iter(fast))]
                    records = tuple((position, record) for position, (arg, record) in enumerate(zip(args, handed))
                                    if type(arg) in RECORDED)
                    fast[key] = (overload.entry_point, tuple(arg for arg in args if type(arg) in LASTING), records)
        return result

    def _chosen_overload(self, args):
        """The compiled overload numba has just run for these arguments: its only one (numba's entry
        converts the arguments as numba's dispatch would), else the one of exactly their types; None
        when no overload has exactly their types (numba converted them): such calls stay on its path."""
        overloads = list(self.overloads.values())
        if len(overloads) == 1:
            return overloads[0]
        return self.overloads.get(tuple(_typeof_argument(self, arg) for arg in args))


def _kernel_twin(entry: EntryDispatcher) -> "InnerDispatcher":
    """The entry kernel's function as an inner kernel, cached under a name of its own."""
    function = entry.py_func
    copy = types.FunctionType(function.__code__, function.__globals__, function.__name__, function.__defaults__,
                              function.__closure__)
    copy.__qualname__ = f"{function.__qualname__}.kernel_twin"
    copy.__module__ = function.__module__
    twin = InnerDispatcher(py_func=copy, locals={}, targetoptions=dict(entry.targetoptions, no_cpython_wrapper=True),
                           pipeline_class=INNER_PIPELINE)
    if not isinstance(entry._cache, caching.NullCache):
        twin.enable_caching()
    return twin


def _call_key(args) -> tuple | None:
    """What numba's types of the arguments depend on: a lasting tuple's identity (the entry holds the
    tuple, so the identity is not reused; nothing reshapes or retypes its arrays in place), an array's
    dtype, dimensions and flags, a scalar's type, another tuple's type and its items' keys; None for
    an argument of another kind."""
    key: list = []
    append = key.append
    for arg in args:
        kind = type(arg)
        if kind is np.ndarray:
            append((arg.dtype, arg.ndim, arg.flags.num & _ARRAY_FLAGS))
        elif kind in LASTING:
            append(id(arg))
        elif kind in SCALARS or (kind is int and -_INT64 <= arg < _INT64):
            append(kind)
        elif isinstance(arg, tuple):
            inner = _call_key(arg)
            if inner is None:
                return None
            append((kind, inner))
        else:
            return None
    return tuple(key)


_KEEPING = threading.Lock()  # what calls keep, changed by one thread at a time
_lasting_types: dict[int, tuple] = {}  # id: (a lasting tuple, its numba type), the oldest dropped first


_records: dict[int, tuple] = {}  # id: (a RECORDED tuple, its record), the oldest dropped first
_make_record = numba.njit(cache=CACHE_FOLDER is not None)(make_record)


def _record(group):
    """The record a kernel takes for the RECORDED tuple `group`; a tuple within it (the work arrays'
    rows at thirds) is a record too. Made once per tuple: a record holds its arrays, and the tuple is
    held beside it, so its identity is not reused."""
    found = _records.get(id(group))
    if found is None or found[0] is not group:
        items = with_inner_records(group)
        made = record_from_python(items)
        if made is None:
            made = _make_record(items)
        with _KEEPING:
            if len(_records) >= 8 * len(RECORDED):
                del _records[next(iter(_records))]
            found = _records[id(group)] = (group, made)
    return found[1]


def with_inner_records(group):
    """The RECORDED tuple `group` with its RECORDED items as their records: what its record is made of."""
    return type(group)(*(_record(item) if type(item) in RECORDED else item for item in group))


def _typeof_argument(dispatcher, arg):
    """numba's type of an argument; a lasting tuple's is kept (typing one takes 0.3-0.6 ms)."""
    if type(arg) not in LASTING:
        return dispatcher.typeof_pyval(arg)
    found = _lasting_types.get(id(arg))
    if found is None or found[0] is not arg:
        if len(_lasting_types) >= 8 * len(LASTING):
            del _lasting_types[next(iter(_lasting_types))]
        found = _lasting_types[id(arg)] = (arg, dispatcher.typeof_pyval(arg))
    return found[1]


def _decorator(python_entry: bool, nrt: bool):
    """numba's njit with the solver's options: an EntryDispatcher, or without a Python entry an InnerDispatcher.
    No kernel is used as a first-class function value, so none needs numba's C-callable wrapper."""
    options = {"error_model": "numpy", "_nrt": nrt, "no_cfunc_wrapper": True, "no_cpython_wrapper": not python_entry}
    cache = CACHE_FOLDER is not None

    def decorate(function):
        if numba.config.DISABLE_JIT:
            return numba.njit(cache=cache, **options)(function)
        targetoptions = {"nopython": True, **options}
        if python_entry:
            dispatcher = EntryDispatcher(py_func=function, locals={}, targetoptions=targetoptions,
                                         pipeline_class=ENTRY_PIPELINE)
        else:
            dispatcher = InnerDispatcher(py_func=function, locals={}, targetoptions=targetoptions,
                                         pipeline_class=INNER_PIPELINE)
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


# A right side of one column (R,) or of several (R, c) in one kernel's source (sparse.solve): the
# kernel reads and writes it through these, so for (R,) the column count is a constant the compiler
# folds, and the one-column solve is compiled as if written for (R,) alone.
def column_count(values) -> int:
    """1 for (R,), c for (R, c)."""
    return 1 if values.ndim == 1 else values.shape[1]


def entry(values, row: int, column: int) -> float:
    """values[row] of (R,), values[row, column] of (R, c)."""
    return values[row] if values.ndim == 1 else values[row, column]


def set_entry(values, row: int, column: int, value: float) -> None:
    if values.ndim == 1:
        values[row] = value
    else:
        values[row, column] = value


if COMPILED:
    from numba.extending import overload  # noqa: E402

    @overload(column_count)
    def _column_count(values):
        if values.ndim == 1:
            return lambda values: 1
        return lambda values: values.shape[1]

    @overload(entry)
    def _entry(values, row, column):
        if values.ndim == 1:
            return lambda values, row, column: values[row]
        return lambda values, row, column: values[row, column]

    @overload(set_entry)
    def _set_entry(values, row, column, value):
        if values.ndim == 1:
            def set_one(values, row, column, value):
                values[row] = value
            return set_one

        def set_several(values, row, column, value):
            values[row, column] = value
        return set_several
