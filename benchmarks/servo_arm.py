"""Servo arms (Schmitt §10).

1. A 1 m, 2 kg arm on a servo hinge, horizontal at the start, told to go to 0.5 rad. A strong servo
   (50 N m) reaches its target and holds it; a weak one (5 N m, with a brake) cannot lift the arm
   and settles where gravity's torque m g d cos(angle) equals its limit.
2. A 1 kg arm with its centre 0.5 m out, hanging, told to go to 90° by a 10 N m servo: the time it
   takes at several steps beside the analytic time-optimal motion (accelerate at the limit, brake on
   sqrt(2 alpha e)); a 2 N m servo with a brake settles at asin(T / m g d).
    python benchmarks/servo_arm.py
"""
import math

from common import crossing_times, table

import mechanisms
from measure import servo_reach_time
from mechbake.solver import Model, Simulation

RADIUS = 0.01


def main() -> None:
    strong = Simulation(Model.from_dict(mechanisms.servo_arm(max_torque=50.0, target=0.5)))
    reached = None
    while strong.time < 3.0:
        strong.step()
        if reached is None and abs(strong.joint_position("shoulder") - 0.5) < 1e-3:
            reached = strong.time
    hold = abs(strong.joint_position("shoulder") - 0.5)

    weak_data = mechanisms.servo_arm(max_torque=5.0, target=0.5)
    weak_data["joints"][0]["motor"]["brake"] = 3.0
    weak = Simulation(Model.from_dict(weak_data))
    weak.run(12.0)
    expected = -math.acos(5.0 / (2.0 * 9.81 * 0.5))
    table("Servo arm, h = 0.005 s, Dmax = 1e-7 m", ["case", "ours", "expected"], [
        ["strong (50 N m): time to within 1e-3 rad of 0.5 rad", f"{reached:.3f} s", "reaches it"],
        ["strong: |angle - target| at t = 3 s", f"{hold:.2e} rad", "0"],
        ["weak (5 N m, brake 3): angle at t = 12 s", f"{weak.joint_position('shoulder'):.6f} rad",
         f"{expected:.6f} rad (m g d cos = 5 N m)"],
    ])

    step_independence()


def hanging_arm(max_torque: float, h: float, brake: float = 0.0) -> Simulation:
    rod = mechanisms.rod("arm", [0, 0, 0], [0, 0, -1.0], mass=1.0, radius=RADIUS)
    motor = {"mode": "position", "target": math.pi / 2, "max_torque": max_torque, "brake": brake}
    hinge = {"name": "shoulder", "type": "hinge", "body_a": "world", "body_b": "arm", "anchor": [0, 0, 0],
             "axis": [0, -1, 0], "motor": motor}
    return Simulation(Model.from_dict({"format": "mechbake/1", "gravity": [0, 0, -9.81], "bodies": [rod],
                                       "joints": [hinge], "settings": {"h": h, "dmax": 1e-8}}))


def reach_time(sim: Simulation, target: float, fraction: float = 0.02) -> float:
    """When the arm first comes within the fraction of the target, interpolated between steps."""
    return crossing_times(sim, lambda s: s.joint_position("shoulder") - (1 - fraction) * target, 1)[0]


def step_independence() -> None:
    inertia = (3 * RADIUS ** 2 + 1.0) / 12 + 0.5 ** 2
    analytic = servo_reach_time(inertia, 9.81 * 0.5, 10.0, math.pi / 2)
    rows = [[f"h = {h}", f"{reach_time(hanging_arm(10.0, h), math.pi / 2):.4f} s", f"{analytic:.4f} s"]
            for h in (0.01, 0.005, 0.002, 0.001)]
    weak = hanging_arm(2.0, 0.005, brake=0.5)
    weak.run(25.0)
    rows.append(["2 N m, brake 0.5, h = 0.005: angle at 25 s", f"{weak.joint_position('shoulder'):.6f} rad",
                 f"{math.asin(2.0 / (9.81 * 0.5)):.6f} rad (torque balance)"])
    table("Position servo, 1 kg arm (centre 0.5 m out) from hanging to 90°, 10 N m: time to within 2 %",
          ["case", "ours", "analytic"], rows)


if __name__ == "__main__":
    main()
