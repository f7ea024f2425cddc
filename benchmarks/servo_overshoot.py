"""Position servos with a neighbour, a load or a keyed target (issue 25): the upright box arm of
mechanisms.upright_servo_arm, its shoulder servo turning it 0 -> 110° while the elbow's servo holds the
forearm at 0. Each case at several steps: the overshoot, the time the shoulder comes within 0.5° of its
target beside the time-optimal reference (the arm moving as one body, the elbow held), and how far from
its target it rests at the end.
    python benchmarks/servo_overshoot.py
"""
import math

from common import table

import mechanisms
from measure import servo_course, upright_servo_arrival
from mechbake.solver import Model, Simulation

TARGET = math.radians(110.0)
WITHIN = math.radians(0.5)
DURATION = 2.5
STEPS = (1 / 120, 1 / 240, 1 / 960)


def held_arm(data: dict) -> tuple[float, float]:
    """(inertia about the shoulder, m g d at the horizontal) of the whole arm turning as one body."""
    g = -data["gravity"][2]
    inertia = sum(b["inertia"][1] + b["mass"] * b["position"][2] ** 2 for b in data["bodies"])
    return inertia, g * sum(b["mass"] * b["position"][2] for b in data["bodies"])


def step_reference(torque: float, gravity: float) -> float:
    inertia, load = held_arm(mechanisms.upright_servo_arm(TARGET, torque, gravity))
    return upright_servo_arrival(inertia, load, torque, TARGET, WITHIN)


def ramp_reference(torque: float, duration: float) -> float:
    """Keyed 0 -> target over `duration` s in zero gravity: an arm that can follow the ramp keeps its rate r
    and brakes at alpha = T / I so as to stop at its end, r / (2 alpha) after it (within 0.5°
    sqrt(2 within / alpha) before that); a ramp faster than it can follow leaves it the step's time."""
    alpha = torque / held_arm(mechanisms.upright_servo_arm(TARGET, torque))[0]
    follows = duration + TARGET / duration / (2 * alpha) - math.sqrt(2 * WITHIN / alpha)
    return max(follows, step_reference(torque, 0.0))


CASES = [
    ("step, 15 N m, zero gravity", TARGET, 15.0, 0.0, lambda: step_reference(15.0, 0.0)),
    ("keyed over 12 frames at 24 fps", [[0.0, 0.0], [0.5, TARGET]], 15.0, 0.0, lambda: ramp_reference(15.0, 0.5)),
    ("keyed over 24 frames at 24 fps", [[0.0, 0.0], [1.0, TARGET]], 15.0, 0.0, lambda: ramp_reference(15.0, 1.0)),
    ("step, 20 N m, gravity (load <= 16.4 N m)", TARGET, 20.0, 9.81, lambda: step_reference(20.0, 9.81)),
]


def main() -> None:
    rows = []
    for name, target, torque, gravity, reference in CASES:
        expected = reference()
        for h in STEPS:
            sim = Simulation(Model.from_dict(mechanisms.upright_servo_arm(target, torque, gravity, h)))
            arrival, overshoot, rest = servo_course(sim, "shoulder", TARGET, WITHIN, DURATION)
            rows.append([name, f"1/{round(1 / h)}", f"{math.degrees(overshoot):.4f}°", f"{arrival:.4f} s",
                         f"{expected:.4f} s", f"{math.degrees(rest):.1e}°"])
    table(f"Upright box arm, shoulder servo 0 -> 110°, elbow servo holding 0 (10 N m); {DURATION} s",
          ["case", "h", "overshoot", "within 0.5°", "reference", "|error| at the end"], rows)


if __name__ == "__main__":
    main()
