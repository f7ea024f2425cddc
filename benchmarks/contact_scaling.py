"""Contact scenes beside MuJoCo, timed in one run: one box resting, towers of 3 and 10
equal boxes, a 20-link chain dropped on a floor, 50 boxes dropped into a walled bin. Both contact
methods at the default settings (h = 0.01, Dmax 1e-5 m); MuJoCo (`mujoco` from PyPI, a benchmark peer
only) gets the same shapes, masses, inertias, friction 0.5 and step, its default solver. Printed:
wall time, real-time factor, our time over MuJoCo's against its goal (GOALS), and for resting scenes
how far the body that moved most ended from its start.
    python benchmarks/contact_scaling.py [--scale 0.2] [--only tower] [--method impulse] [--awake]
(--only: scenes whose name contains it; --awake: each method also with sleeping off).
--scale shortens every run (the 50-box bin takes many minutes at full length).
"""
import argparse
import time

import numpy as np
from common import table

import mechbake.solver as solver
from mechbake.solver import warm_up

H, DMAX, FRICTION, SIZE, MASS = 0.01, 1e-5, 0.5, 0.4, 10.0
GOALS = {"one box resting": 10, "tower of 3": 10, "tower of 10": 20, "20-link chain on a floor": 10,
         "50 boxes into a bin": 50}


def box(name: str, position, size=SIZE, mass=MASS) -> dict:
    return {"name": name, "mass": mass, "inertia": [mass * size * size / 6] * 3, "position": list(position),
            "shape": {"type": "box", "size": [size] * 3}, "friction": FRICTION}


def plane(name: str, point, normal) -> dict:
    return {"name": name, "type": "plane", "point": list(point), "normal": list(normal), "friction": FRICTION}


def tower(count: int) -> tuple[list, list, list]:
    return [box(f"box{k}", (0, 0, SIZE * (k + 0.5))) for k in range(count)], [], [plane("floor", (0, 0, 0), (0, 0, 1))]


def chain(links: int = 20, length: float = 0.1, radius: float = 0.02, mass: float = 0.2) -> tuple[list, list, list]:
    """Capsule links along x joined end to end by ball joints, 0.3 m above the floor."""
    inertia_across = mass * (3 * radius * radius + length * length) / 12
    bodies = [{"name": f"link{k}", "mass": mass, "inertia": [inertia_across, inertia_across, 0.5 * mass * radius ** 2],
               "position": [length * (k + 0.5), 0, 0.3], "orientation": [np.cos(np.pi / 4), 0, np.sin(np.pi / 4), 0],
               "shape": {"type": "capsule", "radius": radius, "length": length}, "friction": FRICTION}
              for k in range(links)]
    joints = [{"name": f"ball{k}", "type": "ball", "body_a": f"link{k}", "body_b": f"link{k + 1}",
               "anchor": [length * (k + 1), 0, 0.3]} for k in range(links - 1)]
    return bodies, joints, [plane("floor", (0, 0, 0), (0, 0, 1))]


def bin_of_boxes(count: int = 50, size: float = 0.2, width: float = 1.6) -> tuple[list, list, list]:
    """Boxes in 5 x 5 grids of layers above a floor walled at +-width/2, each turned a little about
    the vertical and tilted about x, every other layer shifted half a cell: they land on edges and
    corners of the boxes below and pile. No two overlap at the start."""
    rng = np.random.default_rng(1)
    bodies = []
    for k in range(count):
        layer, cell = divmod(k, 25)
        shift = 0.13 * (layer % 2)
        x, y = (cell % 5 - 2) * 0.26 + shift, (cell // 5 - 2) * 0.26 + shift
        turn, tilt = rng.uniform(-0.3, 0.3), rng.uniform(-0.4, 0.4)
        # the turn about z after the tilt about x, (w, x, y, z)
        orientation = [np.cos(turn / 2) * np.cos(tilt / 2), np.cos(turn / 2) * np.sin(tilt / 2),
                       np.sin(turn / 2) * np.sin(tilt / 2), np.sin(turn / 2) * np.cos(tilt / 2)]
        bodies.append({**box(f"box{k}", (x, y, 0.25 + 0.35 * layer), size=size, mass=1.0),
                       "orientation": orientation})
    half = width / 2
    walls = [plane("floor", (0, 0, 0), (0, 0, 1))] + [
        plane(f"wall{k}", point, normal) for k, (point, normal)
        in enumerate([((-half, 0, 0), (1, 0, 0)), ((half, 0, 0), (-1, 0, 0)),
                      ((0, -half, 0), (0, 1, 0)), ((0, half, 0), (0, -1, 0))])]
    return bodies, [], walls


SCENES = {"one box resting": (lambda: tower(1), 3.0, True), "tower of 3": (lambda: tower(3), 3.0, True),
          "tower of 10": (lambda: tower(10), 3.0, True), "20-link chain on a floor": (chain, 3.0, False),
          "50 boxes into a bin": (bin_of_boxes, 5.0, False)}


def ours(build, seconds: float, method: str, sleep: bool) -> tuple[float, float]:
    """Wall time of the run and how far the body that moved most ended; sleep False: nothing sleeps
    (sleep_speed 0)."""
    bodies, joints, obstacles = build()
    settings = {"h": H, "dmax": DMAX, "contact_method": method, **({} if sleep else {"sleep_speed": 0.0})}
    data = {"format": "mechbake/1", "gravity": [0, 0, -9.81], "bodies": bodies, "joints": joints,
            "obstacles": obstacles, "settings": settings}
    sim = solver.Simulation(solver.Model.from_dict(data))
    start = {body["name"]: sim.position(body["name"]) for body in bodies}
    began = time.perf_counter()
    sim.run(seconds)
    wall = time.perf_counter() - began
    return wall, max(float(np.linalg.norm(sim.position(name) - p)) for name, p in start.items())


def mujoco_xml(bodies: list, joints: list, obstacles: list, h: float = H) -> str:
    def geom(body) -> str:
        shape = body["shape"]
        if shape["type"] == "box":
            return f'<geom type="box" size="{" ".join(str(0.5 * s) for s in shape["size"])}" friction="{FRICTION}"/>'
        return f'<geom type="capsule" size="{shape["radius"]} {0.5 * shape["length"]}" friction="{FRICTION}"/>'

    def opened(body, joint: str) -> str:
        x, y, z = body["position"]
        quat = " ".join(str(q) for q in body.get("orientation", [1, 0, 0, 0]))
        inertia = " ".join(str(i) for i in body["inertia"])
        return (f'<body name="{body["name"]}" pos="{x} {y} {z}" quat="{quat}">{joint}'
                f'<inertial pos="0 0 0" mass="{body["mass"]}" diaginertia="{inertia}"/>{geom(body)}')

    if joints:  # a chain: nested bodies, each after the first on a ball joint at its anchor (in its parent's axes)
        parts, previous = [], None
        for body, joint in zip(bodies, [None] + joints):
            if previous is None:
                parts.append(opened(body, "<freejoint/>"))
            else:
                offset = _in_body(np.subtract(body["position"], previous["position"]), previous)
                anchor = _in_body(np.subtract(joint["anchor"], body["position"]), body)
                relative = {**body, "position": list(offset), "orientation": [1, 0, 0, 0]}  # all links alike
                parts.append(opened(relative, f'<joint type="ball" pos="{" ".join(map(str, anchor))}"/>'))
            previous = body
        world = "".join(parts) + "</body>" * len(parts)
    else:
        world = "".join(opened(body, "<freejoint/>") + "</body>" for body in bodies)
    planes = "".join(f'<geom type="plane" size="10 10 0.1" pos="{" ".join(map(str, o["point"]))}" '
                     f'zaxis="{" ".join(map(str, o["normal"]))}" friction="{FRICTION}"/>' for o in obstacles)
    return f'<mujoco><option timestep="{h}" gravity="0 0 -9.81"/><worldbody>{planes}{world}</worldbody></mujoco>'


def _in_body(vector, body) -> np.ndarray:
    """A vector given in the world's axes, in the body's own axes."""
    w, x, y, z = body.get("orientation", [1, 0, 0, 0])
    rotation = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                         [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                         [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
    return rotation.T @ np.asarray(vector, dtype=float)


def theirs(build, seconds: float, h: float = H) -> tuple[float, float]:
    """MuJoCo's wall time for the scene `build` gives, and how far the body that moved most ended."""
    import mujoco

    bodies, joints, obstacles = build()
    model = mujoco.MjModel.from_xml_string(mujoco_xml(bodies, joints, obstacles, h))
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    start = {body["name"]: data.body(body["name"]).xpos.copy() for body in bodies}
    began = time.perf_counter()
    mujoco.mj_step(model, data, nstep=int(round(seconds / h)))
    wall = time.perf_counter() - began
    return wall, max(float(np.linalg.norm(data.body(name).xpos - p)) for name, p in start.items())


def main() -> None:
    import mujoco

    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=float, default=1.0, help="run each scene for this fraction of its time")
    parser.add_argument("--only", default="", help="only scenes whose name contains this")
    parser.add_argument("--method", choices=("impulse", "lcp"), action="append",
                        help="only this contact method (repeatable; default both)")
    parser.add_argument("--awake", action="store_true",
                        help="also each method with nothing asleep (sleep_speed 0): the solver's own cost at rest")
    args = parser.parse_args()
    warm_up.warm_up(workers=1)  # in this process: every kernel compiled (once per machine) and loaded before any timing
    rows = []
    for name, (build, seconds, resting) in SCENES.items():
        if args.only not in name:
            continue
        seconds *= args.scale
        peer_wall, peer_moved = theirs(build, seconds)
        rows.append([name, f"MuJoCo {mujoco.__version__}", seconds, peer_wall, seconds / peer_wall, "1", "",
                     peer_moved if resting else ""])
        for method in args.method or ("impulse", "lcp"):
            for sleep in (True, False) if args.awake else (True,):
                wall, moved = ours(build, seconds, method, sleep)
                rows.append([name, f"MechBake {method}" + ("" if sleep else ", awake"), seconds, wall,
                             seconds / wall, f"{wall / peer_wall:.1f}",
                             f"<= {GOALS[name]}" if method == "impulse" and sleep else "", moved if resting else ""])
    table(f"Contact scenes at h = {H}, timed in one run", ["scene", "who", "simulated s", "wall s", "x real time",
                                                           "x MuJoCo's time", "goal", "moved most, m"], rows)


if __name__ == "__main__":
    main()
