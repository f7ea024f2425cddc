"""Contact at speed, beside MuJoCo on the same scenes:
  - a 0.4 m, 10 kg box resting on a plane;
  - three such boxes stacked centred on the plane (equal boxes' corners sit on the edges of
    the face below);
  - a 0.2 m box dropped onto the 128-triangle terrain of the contact tests.
Each runs 3 s at h = 0.01 s after a warm-up that loads our kernels; printed: wall time (best of 3;
one run of the slow ones),
times real time, and where the top box ends (drift from its start, its height, how far it sank). MuJoCo
(`mujoco` from PyPI, a benchmark peer only) gets the same boxes, masses, friction 0.5 and step,
its default solver. MuJoCo collides with a mesh by its convex hull, so its terrain is the hull of
ours: that row is a reference for speed only. --dmax sets ours (default: MechBake's); contact
takes no more sweeps with a smaller one (1e-6 and 1e-7: the same sinking and drift, wall times within
the machine's noise of a few per cent).
    python benchmarks/contact_speed.py [--dmax 1e-6]
"""
import argparse
import time

import numpy as np
from common import best_wall_time, table

from mechbake.solver import Model, Settings, Simulation

from contact_scenes import terrain  # the 128-triangle terrain the contact tests assert on

H, DURATION, G = 0.01, 3.0, 9.81
SIZE, MASS = 0.4, 10.0


def box(name: str, z: float, size: float = SIZE, mass: float = MASS, x: float = 0.0, y: float = 0.0) -> dict:
    return {"name": name, "mass": mass, "inertia": [mass * size * size / 6] * 3, "position": [x, y, z],
            "shape": {"type": "box", "size": [size] * 3}, "friction": 0.5}


def floor_plane() -> dict:
    return {"name": "floor", "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1], "friction": 0.5}


SCENES = {
    "box resting on a plane": ([box("box0", SIZE / 2)], floor_plane()),
    "three boxes stacked": ([box(f"box{k}", SIZE / 2 + k * SIZE) for k in range(3)], floor_plane()),
    "box dropped on the terrain": ([box("box0", 0.5, size=0.2, mass=1.0, x=0.1, y=-0.05)],
                                   {**terrain(), "friction": 0.5}),
}


def ours(bodies: list, obstacle: dict, method: str, dmax: float):
    data = {"format": "mechbake/1", "gravity": [0, 0, -G], "bodies": bodies, "joints": [], "obstacles": [obstacle],
            "settings": {"h": H, "contact_method": method, "dmax": dmax}}
    Simulation(Model.from_dict(data)).run(0.05)  # the kernels load (and compile on a cold cache)
    final = {}

    def run():
        sim = Simulation(Model.from_dict(data))
        sim.run(DURATION)
        final["position"] = sim.position(bodies[-1]["name"])

    once = Simulation(Model.from_dict(data))
    return best_wall_time(run, repeats=3 if _quick(once) else 1), final["position"]


def _quick(sim: Simulation) -> bool:
    """Whether a tenth of a second runs within a second of wall time (then three runs are cheap)."""
    start = time.perf_counter()
    sim.run(0.1)
    return time.perf_counter() - start < 1.0


def mujoco_xml(bodies: list, obstacle: dict) -> str:
    geoms = []
    for body in bodies:
        half = 0.5 * body["shape"]["size"][0]
        x, y, z = body["position"]
        geoms.append(f'<body name="{body["name"]}" pos="{x} {y} {z}"><freejoint/>'
                     f'<geom type="box" size="{half} {half} {half}" mass="{body["mass"]}" friction="0.5"/></body>')
    if obstacle["type"] == "plane":
        ground, assets = '<geom type="plane" size="10 10 0.1" friction="0.5"/>', ""
    else:
        vertices = " ".join(f"{v:.6f}" for vertex in obstacle["vertices"] for v in vertex)
        faces = " ".join(str(i) for triangle in obstacle["triangles"] for i in triangle)
        assets = f'<asset><mesh name="terrain" vertex="{vertices}" face="{faces}"/></asset>'
        ground = '<geom type="mesh" mesh="terrain" friction="0.5"/>'
    return (f'<mujoco><option timestep="{H}" gravity="0 0 {-G}"/>{assets}<worldbody>{ground}{"".join(geoms)}'
            f'</worldbody></mujoco>')


def theirs(bodies: list, obstacle: dict):
    import mujoco

    model = mujoco.MjModel.from_xml_string(mujoco_xml(bodies, obstacle))
    final = {}

    def run():
        data = mujoco.MjData(model)
        for _ in range(int(round(DURATION / H))):
            mujoco.mj_step(model, data)
        final["position"] = data.body(bodies[-1]["name"]).xpos.copy()

    return best_wall_time(run), final["position"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dmax", type=float, default=Settings().dmax, help="ours, m (default: MechBake's)")
    args = parser.parse_args()
    rows = []
    for name, (bodies, obstacle) in SCENES.items():
        start = np.array(bodies[-1]["position"])
        results = [(f"MechBake {method}", *ours(bodies, obstacle, method, args.dmax)) for method in ("impulse", "lcp")]
        results.append(("MuJoCo", *theirs(bodies, obstacle)))
        for who, wall, end in results:
            rows.append([name, who, f"{wall:.3f}", f"{DURATION / wall:.1f}",
                         f"{np.linalg.norm(end[:2] - start[:2]):.2e}", f"{end[2]:.4f}",
                         f"{start[2] - end[2]:.2e}" if name != "box dropped on the terrain" else "-"])
    table(f"Contact scenes, {DURATION} s at h = {H} s, MechBake's Dmax {args.dmax:g}; the top box's end", [
        "scene", "simulator", "wall s", "x real time", "sideways drift m", "height m", "sank m"], rows)


if __name__ == "__main__":
    main()
