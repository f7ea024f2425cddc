"""Contact figures, both methods beside the reference:
  - Stewart and Trinkle's four balls (§4): Table I, errors against h = 0.00125;
  - a block on an incline with mu = 0.5: sticks below atan(mu), slides with a = g (sin - mu cos) above;
  - a ball with restitution e bouncing to e^2 of its drop height;
  - a box dropped onto a triangulated terrain: settles without jitter or penetration.
    python benchmarks/contact_tables.py
"""
import math

import numpy as np
from common import table

import mechanisms

from mechbake.solver import Model, Simulation
from mechbake.solver.contact.detection import find_contacts

from contact_scenes import box_body, terrain  # noqa: E402  (the same scenes the tests assert on)

G = 9.81
METHODS = ("impulse", "lcp")
PAPER_TABLE_I = {0.02: (0.5050, 0.2505), 0.01: (0.3523, 0.2015), 0.005: (0.1657, 0.0838), 0.0025: (0.0700, 0.0298)}


def ball_track(method: str, h: float, duration: float = 1.5, sample: float = 0.02):
    sim = Simulation(Model.from_dict(mechanisms.four_balls(method, h)))
    names = [f"ball{k}" for k in range(1, 5)]
    times, positions, velocities = [], [], []
    every = int(round(sample / h))
    for k in range(int(round(duration / h))):
        sim.step()
        if (k + 1) % every == 0:
            times.append(sim.time)
            positions.append(np.concatenate([sim.position(n) for n in names]))
            velocities.append(np.concatenate([np.r_[sim.velocity(n), sim.angular_velocity(n)] for n in names]))
    return np.array(times), np.array(positions), np.array(velocities), sim


def table_one() -> None:
    rows = []
    for method in METHODS:
        _, ref_p, ref_v, _ = ball_track(method, 0.00125)
        for h, (paper_v, paper_p) in PAPER_TABLE_I.items():
            _, p, v, sim = ball_track(method, h)
            velocity_error = float(np.sum(np.abs(v - ref_v).max(axis=1)) * 0.02)  # integral of the inf-norm
            position_error = float(np.abs(p - ref_p).max())  # supremum
            rows.append([method, h, f"{velocity_error:.4f}", paper_v, f"{position_error:.4f}", paper_p])
        final = {n: sim.position(n).round(3).tolist() for n in ("ball1", "ball2", "ball3", "ball4")}
        print(f"  {method}: final positions at t = 1.5 s {final}")
    table("Stewart-Trinkle four balls, Table I: errors against h = 0.00125 over 1.5 s",
          ["method", "h", "velocity error ours", "paper", "position error ours", "paper"], rows)


def incline() -> None:
    rows = []
    for degrees in (20.0, 26.0, 27.0, 35.0, 45.0):
        slope = math.radians(degrees)
        normal = [-math.sin(slope), 0, math.cos(slope)]
        downhill = np.array([-math.cos(slope), 0, -math.sin(slope)])
        expected = max(G * (math.sin(slope) - 0.5 * math.cos(slope)), 0.0) * 0.5
        row = [degrees, f"{expected:.6f}"]
        for method in METHODS:
            data = {"format": "mechbake/1", "gravity": [0, 0, -G], "joints": [],
                    "bodies": [box_body(position=0.1 * np.array(normal),
                                        orientation=[math.cos(-slope / 2), 0, math.sin(-slope / 2), 0])],
                    "obstacles": [{"name": "slope", "type": "plane", "point": [0, 0, 0], "normal": normal,
                                   "friction": 0.5}], "settings": {"h": 0.01, "contact_method": method}}
            sim = Simulation(Model.from_dict(data))
            start = sim.position("box")
            sim.run(1.0)
            row.append(f"{float((sim.position('box') - start) @ downhill):.6f}")
        rows.append(row)
    table(f"Block on an incline, mu = 0.5 (atan mu = {math.degrees(math.atan(0.5)):.2f} deg): distance slid in 1 s, m",
          ["slope deg", "g (sin - mu cos) t^2 / 2", "impulse", "lcp"], rows)


def bounce() -> None:
    rows = []
    for e in (0.3, 0.6, 0.9):
        row = [e, f"{e * e:.4f}"]
        for method in METHODS:
            ball = {"name": "ball", "mass": 1.0, "inertia": [0.004] * 3, "position": [0, 0, 1.1],
                    "shape": {"type": "sphere", "radius": 0.1}, "restitution": e}
            data = {"format": "mechbake/1", "gravity": [0, 0, -G], "bodies": [ball], "joints": [],
                    "obstacles": [{"name": "floor", "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}],
                    "settings": {"h": 0.001, "contact_method": method}}
            sim = Simulation(Model.from_dict(data))
            apex, falling_again = 0.0, False
            while not falling_again:
                sim.step()
                z, vz = sim.position("ball")[2] - 0.1, sim.velocity("ball")[2]
                if sim.time > math.sqrt(2 / G) + 0.01:
                    apex = max(apex, z)
                    falling_again = vz < 0
            row.append(f"{apex:.4f}")
        rows.append(row)
    table("Ball dropped from 1 m (h = 0.001 s): height of the first rebound, m", ["e", "e^2", "impulse", "lcp"], rows)


def terrain_box() -> None:
    rows = []
    for method in METHODS:
        data = {"format": "mechbake/1", "gravity": [0, 0, -G], "joints": [], "obstacles": [terrain()],
                "bodies": [box_body(position=(0.1, -0.05, 0.5), orientation=(0.95, 0.1, 0.2, 0.2), friction=0.8)],
                "settings": {"h": 0.01, "dmax": 1e-7, "contact_method": method}}
        sim = Simulation(Model.from_dict(data))
        worst = 0.0
        for _ in range(200):
            sim.step()
            contacts = find_contacts(sim.model, sim.state.frames, sim.state.frames)
            worst = min(worst, float(contacts.separation(sim.state.frames).min(initial=np.inf)))
        settled = sim.position("box")
        sim.run(1.0)
        rows.append([method, f"{worst:.1e}", f"{np.abs(sim.position('box') - settled).max():.1e}",
                     f"{np.linalg.norm(sim.velocity('box')):.1e}"])
    table("Box dropped on a 128-triangle terrain (h = 0.01 s, Dmax = 1e-7 m)",
          ["method", "deepest gap m", "drift in the last second m", "speed at the end m/s"], rows)


if __name__ == "__main__":
    table_one()
    incline()
    bounce()
    terrain_box()
