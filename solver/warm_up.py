"""Compiling every kernel into the cache before the first bake (a few minutes, once per machine and
version), so that no bake waits for the compiler.

numba compiles a kernel the first time it is called with a new kind of argument, so warming up is
simulating: a few small mechanisms that, between them, take every path of the step (every joint
kind, every drive, an Animated body, both system solvers, Richardson steps, every contact shape
against planes and meshes with both contact methods), in processes side by side. Blender runs
`main` in a background process when the extension is enabled; the headless bake calls `warm_up`
itself and prints its progress.

    python -m mechbake.solver.warm_up [CACHE_FOLDER]
"""
import math
import os
import pathlib
import sys
from collections.abc import Callable
from typing import Any, TextIO

from . import warm_up_workers
from .kernels import cache
from .model import Model
from .simulation import Simulation

FORMAT = "mechbake/1"
STEPS = 30  # long enough for the dropped shapes to land and the drives to reach their limits
DRIVE_KEYS = ("limits", "spring", "motor", "effort")


def _body(name: str, position, **extra) -> dict:
    return {"name": name, "mass": 1.0, "inertia": [0.01, 0.01, 0.01], "position": list(position), **extra}


def every_joint(solver: str = "system", extrapolation: str = "none", spring_method: str = "soft",
                driven: bool = True, error_tolerance: float = 0.0) -> dict:
    """A chain holding one joint of every kind, with limits, springs, both motor modes and an applied
    effort (one target and the effort time tables, as keyed values are); unless `driven`, without
    them, the spring and the rail (a model without drives compiles kernels of its own:
    arrays.drives_flag). error_tolerance > 0: its steps under error control (kernels/error_control)."""
    bodies = [_body(f"link{k}", (0.3 * k, 0.0, -0.1 * k)) for k in range(1, 8)]
    joints: list[dict[str, Any]] = [
        {"name": "ball", "type": "ball", "body_a": "world", "body_b": "link1", "anchor": [0.15, 0, 0]},
        {"name": "hinge", "type": "hinge", "body_a": "link1", "body_b": "link2", "anchor": [0.45, 0, -0.15],
         "axis": [0, 1, 0], "limits": [-0.5, 0.5],
         "spring": {"stiffness": 5.0, "damping": 0.1, "method": spring_method},
         "motor": {"mode": "position", "target": [[0.0, 0.0], [1.0, 0.3]], "max_torque": 2.0}},
        {"name": "slider", "type": "slider", "body_a": "link2", "body_b": "link3", "anchor": [0.75, 0, -0.25],
         "axis": [1, 0, 0], "limits": [-0.05, 0.05], "spring": {"stiffness": 20.0, "damping": 0.2, "method": "impulse"},
         "motor": {"mode": "velocity", "target": 0.1, "max_force": 5.0, "brake": 0.1}},
        {"name": "fixed", "type": "fixed", "body_a": "link3", "body_b": "link4", "anchor": [1.05, 0, -0.35]},
        {"name": "distance", "type": "distance", "body_a": "link4", "body_b": "link5", "anchor_a": [1.2, 0, -0.4],
         "anchor_b": [1.5, 0, -0.5]},
        {"name": "spring", "type": "spring", "body_a": "link5", "body_b": "link6", "anchor_a": [1.5, 0, -0.5],
         "anchor_b": [1.8, 0, -0.6], "stiffness": 50.0, "damping": 0.5, "method": spring_method},
        {"name": "rail", "type": "rail", "body_a": "link6", "body_b": "link7", "start": [1.8, 0, -0.6],
         "end": [2.1, 0, -0.7], "point": [1.95, 0, -0.65], "effort": [[0.0, 0.0], [1.0, 0.5]]},
    ]
    if not driven:
        joints = [{key: value for key, value in joint.items() if key not in DRIVE_KEYS} for joint in joints
                  if joint["type"] not in ("spring", "rail")]  # a rail's end stops are drives
    settings = {"h": 0.01, "dmax": 1e-6, "solver": solver, "extrapolation": extrapolation,
                "error_tolerance": error_tolerance}
    return {"format": FORMAT, "gravity": [0, 0, -9.81], "settings": settings, "bodies": bodies, "joints": joints}


def animated_support() -> dict:
    """A pendulum hung from a body that follows a motion table, as an Animated object does in Blender."""
    times = [0.1 * k for k in range(11)]
    motion = {"time": times, "position": [[0.2 * t, 0.0, 0.0] for t in times],
              "orientation": [[math.cos(0.2 * t), 0.0, 0.0, math.sin(0.2 * t)] for t in times]}
    bodies = [{"name": "support", "motion": motion}, _body("bob", (0.0, 0.0, -0.5))]
    joints = [{"name": "pivot", "type": "hinge", "body_a": "support", "body_b": "bob", "anchor": [0, 0, 0],
               "axis": [0, 1, 0]}]
    return {"format": FORMAT, "gravity": [0, 0, -9.81], "settings": {"h": 0.01, "dmax": 1e-6}, "bodies": bodies,
            "joints": joints}


def every_shape(contact_method: str, hinged: bool, driven: bool = True, animated: bool = False) -> dict:
    """A sphere, a capsule, a box, a hull and points dropped onto a plane and a mesh, the box on a
    hinge if `hinged`, driven by a servo if `driven`; if `animated`, a ball that follows a motion table
    pushes the sphere (a scene without joints that moves bodies by motion tables: arrays.joints_flag,
    drives_flag). Every kind of shape: the narrow phase compiled while the cache is not complete is a
    scene's own (contact/detection.compiled_shapes), and what the warm-up leaves is every kind's."""
    hull = {"type": "convex", "vertices": [[x, y, z] for x in (-0.1, 0.1) for y in (-0.1, 0.1) for z in (-0.1, 0.1)]}
    bodies = [
        _body("sphere", (0.0, 0.0, 0.12), shape={"type": "sphere", "radius": 0.1}, restitution=0.5),
        _body("capsule", (0.5, 0.0, 0.12), shape={"type": "capsule", "radius": 0.1, "length": 0.2},
              orientation=[math.sqrt(0.5), 0.0, math.sqrt(0.5), 0.0]),
        _body("box", (1.0, 0.0, 0.12), shape={"type": "box", "size": [0.2, 0.2, 0.2]}),
        _body("hull", (1.5, 0.0, 0.12), shape=hull),
        _body("points", (2.5, 0.0, 0.12), shape={"type": "points", "points": [[0, 0, -0.1], [0.1, 0, -0.1]]}),
    ]
    mesh = {"name": "ramp", "type": "mesh",
            "vertices": [[2.0, -1, 0.01], [3.0, -1, 0.01], [3.0, 1, 0.01], [2.0, 1, 0.01]],
            "triangles": [[0, 1, 2], [0, 2, 3]]}
    plane = {"name": "floor", "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}
    # a servo on the hinge: its motor holds its axis against the box's contacts (contact/motor_hold.py)
    arm = {"name": "arm", "type": "hinge", "body_a": "world", "body_b": "box", "anchor": [0.8, 0, 0.12],
           "axis": [0, 1, 0]}
    if animated:
        times = [0.05 * k for k in range(11)]
        motion = {"time": times, "position": [[-0.3 + 0.5 * t, 0.0, 0.12] for t in times],
                  "orientation": [[1.0, 0.0, 0.0, 0.0]] * len(times)}
        bodies.append({"name": "pusher", "motion": motion, "shape": {"type": "sphere", "radius": 0.1}})
    joints: list[dict[str, Any]] = [arm] if hinged else []
    if hinged and driven:
        joints[0]["motor"] = {"mode": "position", "target": 0.0, "max_torque": 5.0}
    settings = {"h": 0.01, "dmax": 1e-6, "contact_method": contact_method}
    return {"format": FORMAT, "gravity": [0, 0, -9.81], "settings": settings, "bodies": bodies, "joints": joints,
            "obstacles": [plane, mesh]}


# What is compiled, in the order the stages are handed out (what an artist reads, the mechanism): the
# two longest, which share least, first, so that two processes side by side compile them at once
STAGES: tuple[tuple[str, Callable[[], dict]], ...] = (
    ("joints", lambda: every_joint(driven=False)),
    ("contacts", lambda: every_shape("impulse", hinged=False, driven=False)),
    ("joints and drives", every_joint),
    ("contacts and drives", lambda: every_shape("impulse", hinged=True)),
    ("the iterative solver and Richardson steps", lambda: every_joint("iterative", "richardson", "impulse")),
    ("Richardson steps without drives", lambda: every_joint("system", "richardson", driven=False)),
    ("animated bodies", animated_support),
    # not hinged: Lemke's algorithm ends on a ray for this box on a hinge after 27 steps, and that
    # LemkeFailure is not caught on the LCP's path with joints (contact/step.ContactStep._lcp_with_joints)
    ("contacts with the LCP", lambda: every_shape("lcp", hinged=False)),
    ("error control", lambda: every_joint(error_tolerance=1e-3)),
    ("error control without drives", lambda: every_joint(driven=False, error_tolerance=1e-3)),
    ("contacts on a hinge", lambda: every_shape("impulse", hinged=True, driven=False)),
    ("contacts and animated bodies", lambda: every_shape("impulse", hinged=False, animated=True)),
)


def warm_up(progress: Callable[[int, int, str], None] | None = None, workers: int | None = None) -> None:
    """Simulates every stage, so every kernel is compiled into the cache folder, then marks the folder
    complete. progress(started, total, what) is called as each stage starts. workers: processes
    compiling stages side by side (warm_up_workers.py; by default one per CPU, at most
    warm_up_workers.MOST_WORKERS); 1, no cache folder or numba's JIT off: the stages run here, one
    after the other."""
    folder = cache.cache_folder()
    count = warm_up_workers.default_workers(len(STAGES)) if workers is None else workers
    if count > 1 and folder is not None and os.environ.get("NUMBA_DISABLE_JIT", "0") == "0":
        warm_up_workers.run_stages([what for what, _ in STAGES], folder, count, progress)
        compiled_into: pathlib.Path | None = folder
    else:
        for index, (what, _) in enumerate(STAGES):
            if progress is not None:
                progress(index, len(STAGES), what)
            simulate_stage(index)
        from .kernels import jit  # imported by the first Simulation, with the folder it compiles into

        compiled_into = jit.CACHE_FOLDER if jit.COMPILED else None
    if progress is not None:
        progress(len(STAGES), len(STAGES), "done")
    if compiled_into is not None:
        cache.mark_warm(compiled_into)


def simulate_stage(index: int) -> None:
    """Simulates STAGES[index], compiling what it needs."""
    simulation = Simulation(Model.from_dict(STAGES[index][1]()))
    for _ in range(STEPS):
        simulation.step()
    # what a bake and the command line read after each frame; kernels call these kernels' inner
    # twins, so the steps above do not compile the kernels Python calls here
    simulation.max_joint_error()
    simulation.energy()


def serve(stages: TextIO) -> None:
    """A warm_up_workers worker: simulates each stage whose index comes in on a line of `stages`,
    printing `started INDEX` before and `done INDEX` after it."""
    for line in stages:
        index = int(line)
        print(f"started {index}", flush=True)
        simulate_stage(index)
        print(f"done {index}", flush=True)


def print_progress(done: int, total: int, what: str) -> None:
    """One line per stage, `done/total what`, which Blender's status line reads from the process."""
    print(f"{done}/{total} {what}", flush=True)


def main(argv: list[str]) -> int:
    if argv:
        cache.set_cache_folder(argv[0])
    warm_up(print_progress)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
