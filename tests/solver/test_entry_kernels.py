"""Only entry kernels (kernels/jit.entry_kernel, borrowing_entry_kernel) have code Python can call; the
others are compiled for kernels only. Every kernel the Python sources of the checkout call must be an
entry kernel: found by reading the sources, as the modules of kernels they import and the names they
bind those modules and kernels to."""
import ast
import importlib
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest
from numba.core.dispatcher import Dispatcher

from mechbake.solver.kernels import jit, vector

ROOT = pathlib.Path(__file__).resolve().parents[2]
KERNELS = ROOT / "solver" / "kernels"
SKIPPED = {"docs", "out", "compiled", "wheels"}  # the study's measurement scripts, build output


def kernel_module(dotted: str) -> str | None:
    """`solver.kernels.x` (however the import spells it) as 'x', or None for another module."""
    parts = dotted.split(".")
    return ".".join(parts[parts.index("kernels") + 1:]) or None if "kernels" in parts else None


def kernels_of(module: str) -> dict[str, Dispatcher]:
    found = vars(importlib.import_module(f"mechbake.solver.kernels.{module}"))
    return {name: value for name, value in found.items() if isinstance(value, Dispatcher)}


def compiled_functions(tree: ast.AST) -> set[ast.AST]:
    """Functions numba compiles (any decorator naming jit or kernel): their calls are kernels' calls."""
    return {node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
            and any(word in ast.unparse(decorator) for decorator in node.decorator_list for word in ("jit", "kernel"))}


def python_calls(path: pathlib.Path) -> set[tuple[str, str]]:
    """(kernel module, name) of every kernel the Python code of this file refers to: through a kernel
    module imported under some name, any expression assigned from it (`self._kernels = correction`,
    `k = self._kernels`) or returned by a function, or a kernel imported by its name; not as
    `kernel.py_func`."""
    tree = ast.parse(path.read_text())
    modules: dict[str, str] = {}  # expression's text -> kernel module it holds
    names: dict[str, tuple[str, str]] = {}  # local name -> the kernel it was imported as
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            source = kernel_module(f"{'x.' * node.level}{node.module}")
            for alias in node.names:
                if source is None and kernel_module(f"{node.module}.{alias.name}"):
                    modules[alias.asname or alias.name] = kernel_module(f"{node.module}.{alias.name}")
                elif source is not None and (KERNELS / source.replace(".", "/") / f"{alias.name}.py").exists():
                    modules[alias.asname or alias.name] = f"{source}.{alias.name}"  # a module of a kernel folder
                elif source is not None:
                    names[alias.asname or alias.name] = (source, alias.name)
        elif isinstance(node, ast.Import):
            modules.update({alias.asname: kernel_module(alias.name) for alias in node.names
                            if alias.asname and kernel_module(alias.name)})
    for _ in range(3):  # assignments of assignments
        for node in ast.walk(tree):
            pairs = []
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                        pairs += zip(target.elts, node.value.elts)
                    else:
                        pairs.append((target, node.value))
            elif isinstance(node, ast.FunctionDef):
                pairs += [(ast.parse(f"{node.name}()").body[0].value, statement.value) for statement in ast.walk(node)
                          if isinstance(statement, ast.Return) and statement.value is not None]
            for target, value in pairs:
                if ast.unparse(value) in modules:
                    modules[ast.unparse(target)] = modules[ast.unparse(value)]
    inside_kernels = {inner for function in compiled_functions(tree) for inner in ast.walk(function)}
    # `kernel.py_func` is the kernel's Python source, run as plain Python: no compiled entry is called
    plain = {node.value for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "py_func"}
    calls = set()
    for node in ast.walk(tree):
        if node in inside_kernels or node in plain:
            continue
        if isinstance(node, ast.Attribute) and ast.unparse(node.value) in modules:
            calls.add((modules[ast.unparse(node.value)], node.attr))
        elif isinstance(node, ast.Name) and node.id in names:
            calls.add(names[node.id])
    return calls


def python_sources() -> list[pathlib.Path]:
    """The checkout's Python outside the kernels, but for this file (it calls an inner kernel on purpose)."""
    return [path for path in sorted(ROOT.rglob("*.py")) if not path.is_relative_to(KERNELS)
            and path != pathlib.Path(__file__).resolve()
            and not any(part.startswith(".") or part in SKIPPED for part in path.relative_to(ROOT).parts)]


def test_every_kernel_python_calls_is_an_entry_kernel():
    calls = {call: path for path in python_sources() for call in python_calls(path)}
    kernels = {(module, name): kernel for module in {module for module, _ in calls}
               for name, kernel in kernels_of(module).items()}
    called = {call: path for call, path in calls.items() if call in kernels}
    assert {("correction", "advance_steps"), ("flight", "fly"), ("rows", "build"), ("contact.lemke", "run_lemke"),
            ("contact.velocity_correction", "velocity_correction"),
            ("contact.manifold", "box_box")} <= set(called)  # all found
    inner = [f"{module}.{name} (called in {path.relative_to(ROOT)})" for (module, name), path in called.items()
             if not jit.is_entry(kernels[module, name])]
    assert not inner, "kernels Python calls must be entry kernels: " + ", ".join(sorted(inner))


def test_an_inner_kernel_called_from_python_raises():
    assert not jit.is_entry(vector.dot)
    with pytest.raises(TypeError, match="entry_kernel"):
        vector.dot(np.ones(3), np.ones(3))


def spinning_top_instant():
    """The Instant of a free body with unequal moments spinning about a tilted axis, under gravity."""
    from mechbake.solver import Model, Simulation

    body = {"name": "top", "mass": 2.0, "inertia": [0.1, 0.2, 0.3], "position": [0, 0, 1],
            "velocity": [0.5, 0, 0], "angular_velocity": [3.0, 1.0, 7.0]}
    model = Model.from_dict({"format": "mechbake/1", "gravity": [0, 0, -9.81], "bodies": [body], "joints": []})
    return Simulation(model).instant


def test_a_call_with_lasting_arrays_goes_straight_to_the_entry_numba_chose_and_answers_alike():
    from numba.core.registry import CPUDispatcher
    from mechbake.solver.kernels import flight

    instant = spinning_top_instant()
    state = instant.state
    args = (instant.arrays, instant.settings.taylor_order, 0.25, state.frames.position, state.frames.rotation,
            state.twist, 0.01)
    plain, fast = instant.flight, instant.flight._replace(**{f: np.empty_like(a) for f, a in
                                                             instant.flight._asdict().items()})
    CPUDispatcher.__call__(flight.fly, *args, plain, instant.driven)
    flight.fly(*args, fast, instant.driven)  # types the arguments, and keeps what it found
    assert jit._call_key(args + (fast, instant.driven)) in flight.fly._fast_calls
    for array in fast:
        array[:] = np.nan
    flight.fly(*args, fast, instant.driven)  # through the kept entry
    for name, expected in plain._asdict().items():
        np.testing.assert_array_equal(getattr(fast, name), expected, err_msg=name)
    assert np.ptp(fast.rotation[1]) > 0  # the top turned


def test_the_fast_call_key_tells_apart_what_numba_types_apart():
    instant = spinning_top_instant()
    array = np.zeros((4, 3))
    readonly = array.copy()
    readonly.flags.writeable = False
    kinds = [array, array[:, :2], array.T, array.astype(np.float32), array.astype(np.int64), array.astype(">f8"),
             array.reshape(-1), readonly, 1, 1.0, True, None, np.float64(1.0), instant.arrays,
             instant.arrays._replace(), (array, 1.0), (array, 1)]
    keys = [jit._call_key((kind,)) for kind in kinds]
    assert len(set(keys)) == len(kinds)  # no two kinds share a key
    assert jit._call_key((np.ones((4, 3)), 2, 3.5, instant.arrays)) == jit._call_key((array, 1, 1.0, instant.arrays))
    assert jit._call_key((2**63,)) is None and jit._call_key(([1.0],)) is None


TINY_KERNELS = """
from mechbake.solver.kernels.jit import entry_kernel, kernel


@kernel
def scaled(x, k):
    return k * x


@entry_kernel
def leaf(x):
    return x + 1.0


@entry_kernel
def caller(x):
    return scaled(leaf(x), 2) + scaled(x, 3)


@entry_kernel
def other(x):
    return leaf(x) + 10.0
"""


def run_tiny_kernels(folder: pathlib.Path, first: str) -> dict:
    """In a fresh process with its kernel cache in `folder`: call `first` of TINY_KERNELS, then `leaf`;
    what numba made of them."""
    probe = f"""
import json, sys
sys.path.insert(0, {str(ROOT / 'tools')!r})
import checkout
checkout.import_checkout_as_mechbake()
sys.path.insert(0, {str(folder)!r})
import tiny
found = {{"first": tiny.{first}(1.0), "leaf_entries_before": len(tiny.leaf.overloads)}}
(overload,) = tiny.leaf._kernel_twin.overloads.values()
found["twin_library"] = type(overload.library).__name__
found["twin_loaded"] = sum(tiny.leaf._kernel_twin.stats.cache_hits.values())
found["scaled_signatures"] = len(tiny.scaled.overloads)
found["leaf"] = tiny.leaf(1.0)
print(json.dumps(found))
"""
    env = {**os.environ, "MECHBAKE_CACHE_DIR": str(folder / "cache")}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_kernels_call_an_entry_kernel_as_ir_and_python_gets_machine_code_only_for_what_it_calls(tmp_path):
    (tmp_path / "tiny.py").write_text(TINY_KERNELS)
    first = run_tiny_kernels(tmp_path, "caller")
    assert first["first"] == 2.0 * 2.0 + 3.0 * 1.0
    assert first["leaf_entries_before"] == 0  # caller compiled leaf's body into itself, not leaf's Python entry
    assert first["twin_library"] == "InnerCodeLibrary" and first["twin_loaded"] == 0
    assert first["scaled_signatures"] == 1  # called with the constants 2 and 3: compiled once, for an int
    assert first["leaf"] == 2.0  # Python's call compiles the entry then
    # A new caller in a later process links the twin's IR from the cache
    later = run_tiny_kernels(tmp_path, "other")
    assert later["first"] == 12.0 and later["leaf"] == 2.0
    assert later["twin_library"] == "InnerCodeLibrary" and later["twin_loaded"] == 1
