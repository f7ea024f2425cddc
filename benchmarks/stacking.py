"""Resting bodies beside MuJoCo on the same scenes: three equal 0.4 m, 10 kg boxes
stacked, a box half over another's edge, a capsule lying across a box, a row of four boxes, each on
a floor with friction 0.5 for 5 s at h = 0.01 (tests/solver/test_stacking.py asserts ours). Printed
for each body that moved most: how far it ended from its start, its speed over the last second, how
far it sank, beside a resting body's bounds (Dmax = 1e-5 m, 1e-6 m/s). MuJoCo (`mujoco` from PyPI, a
benchmark peer only) gets the same shapes, masses, inertias, friction and step, its default solver.
    python benchmarks/stacking.py
"""
import time

import numpy as np
from common import table

from contact_scenes import RESTING as SCENES  # the scenes tests/solver/test_stacking.py asserts on
from contact_scenes import floor
from measure import resting_motion

from mechbake.solver import Model, Simulation

H = 0.01  # the tests' step
FRICTION = 0.5
DMAX, DRIFT, SECONDS = 1e-5, 1e-6, 5.0  # a resting body's bounds (m, m/s) over the tests' run


def run(bodies: list, method: str, seconds: float) -> dict:
    data = {"format": "mechbake/1", "gravity": [0, 0, -9.81], "bodies": bodies, "joints": [], "obstacles": [floor()],
            "settings": {"h": H, "dmax": DMAX, "contact_method": method}}
    return resting_motion(Simulation(Model.from_dict(data)), [body["name"] for body in bodies], seconds)


def ours(bodies: list, method: str):
    run(bodies, method, 1.0)  # the kernels load (and compile on a cold cache)
    start = time.perf_counter()
    motion = run(bodies, method, SECONDS)
    return time.perf_counter() - start, motion


def mujoco_xml(bodies: list) -> str:
    parts = []
    for body in bodies:
        shape, (x, y, z), quat = body["shape"], body["position"], body.get("orientation", [1, 0, 0, 0])
        if shape["type"] == "box":
            half = " ".join(str(0.5 * s) for s in shape["size"])
            geom = f'<geom type="box" size="{half}" friction="{FRICTION}"/>'
        else:  # the capsule: its axis is its local z, as MuJoCo's
            geom = f'<geom type="capsule" size="{shape["radius"]} {0.5 * shape["length"]}" friction="{FRICTION}"/>'
        inertia = " ".join(str(i) for i in body["inertia"])
        parts.append(f'<body name="{body["name"]}" pos="{x} {y} {z}" quat="{" ".join(str(q) for q in quat)}">'
                     f'<freejoint/><inertial pos="0 0 0" mass="{body["mass"]}" diaginertia="{inertia}"/>{geom}</body>')
    return (f'<mujoco><option timestep="{H}" gravity="0 0 -9.81"/><worldbody>'
            f'<geom type="plane" size="10 10 0.1" friction="{FRICTION}"/>{"".join(parts)}</worldbody></mujoco>')


def theirs(bodies: list):
    import mujoco

    model = mujoco.MjModel.from_xml_string(mujoco_xml(bodies))
    data = mujoco.MjData(model)
    names = [body["name"] for body in bodies]

    def positions():
        return {name: data.body(name).xpos.copy() for name in names}

    started = time.perf_counter()
    mujoco.mj_forward(model, data)  # the bodies' positions from the start state
    start = positions()
    for _ in range(int(round((SECONDS - 1.0) / H))):
        mujoco.mj_step(model, data)
    before = positions()
    for _ in range(int(round(1.0 / H))):
        mujoco.mj_step(model, data)
    end = positions()
    wall = time.perf_counter() - started
    return wall, {name: (float(np.linalg.norm(end[name] - start[name])),
                         float(np.linalg.norm(end[name] - before[name])),
                         float(start[name][2] - end[name][2])) for name in names}


def main() -> None:
    import mujoco

    rows = []
    for scene, bodies in SCENES.items():
        results = [(f"MechBake {method}", *ours(bodies, method)) for method in ("impulse", "lcp")]
        results.append((f"MuJoCo {mujoco.__version__}", *theirs(bodies)))
        for who, wall, motion in results:
            moved = max(m[0] for m in motion.values())
            speed = max(m[1] for m in motion.values())
            sank = max(m[2] for m in motion.values())
            holds = "yes" if moved < DMAX and speed < DRIFT else "no"
            rows.append([scene, who, f"{moved:.2e}", f"{speed:.2e}", f"{sank:.2e}", holds, f"{SECONDS / wall:.1f}"])
    table(f"Resting bodies on a floor, {SECONDS:g} s at h = {H} s; the body that moved most "
          f"(a resting body's bounds: within Dmax = {DMAX:g} m of its start, under {DRIFT:g} m/s)",
          ["scene", "simulator", "moved m", "last second m/s", "sank m", "within bounds", "x real time"], rows)


if __name__ == "__main__":
    main()
