"""Servo arm (Schmitt §10): a 1 m, 2 kg arm on a servo hinge, horizontal at the start, told to go to 0.5 rad.

A strong servo (50 N m) reaches its target and holds it; a weak one (5 N m, with a brake) cannot
lift the arm and settles where gravity's torque m g d cos(angle) equals its limit.
    python benchmarks/servo_arm.py
"""
import math

from common import table

import mechanisms
from mechbake.solver import Model, Simulation


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


if __name__ == "__main__":
    main()
