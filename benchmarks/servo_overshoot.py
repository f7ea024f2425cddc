"""Position servos with a neighbour, a load or a keyed target: the upright box arm of
mechanisms.upright_servo_arm, its shoulder servo turning it 0 -> 110° while the elbow's servo holds the
forearm at 0. Each case at several steps: the overshoot, the time the shoulder comes within 0.5° of its
target beside the time-optimal reference (the arm moving as one body, the elbow held), and how far from
its target it rests at the end. Then a 3-joint arm (a yaw base under the same arm) keyed through poses
that move the shoulder and the elbow together: how far each servo passes a pose it holds. Then the step
beside an elbow servo too weak to hold the forearm (1 N m), which drags the shoulder past. Then the order
of a torque at its limit: a free disc spun up by a velocity motor it never lets reach its target, against
(T / I) t^2 / 2, and a hanging rod swung by one too weak to turn it over, against RK4.
    python benchmarks/servo_overshoot.py
"""
import math

from common import table

import mechanisms
from measure import arm_under_torque, held_arm, passed_holds, servo_course, upright_arm_arrival
from mechbake.solver import Model, Simulation

TARGET = math.radians(110.0)
WITHIN = math.radians(0.5)
DURATION = 2.5
STEPS = (1 / 120, 1 / 240, 1 / 960)


def step_reference(torque: float, gravity: float) -> float:
    return upright_arm_arrival(mechanisms.upright_servo_arm(TARGET, torque, gravity), torque, TARGET, WITHIN)


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

    poses()
    weak_neighbour()
    order()


KEYED_STEPS = (0.01, 0.005, 0.0025, 1 / 960)


def poses() -> None:
    rows = []
    for torque in (40.0, 25.0):
        for h in KEYED_STEPS:
            sim = Simulation(Model.from_dict(mechanisms.keyed_arm(torque, h)))
            worst = passed_holds(sim, mechanisms.KEYED_ARM_POSES, 4.0)
            rows.append([f"{torque:g} N m", f"{h:.4g}"] + [f"{math.degrees(worst[j]):.3f}°" for j in worst])
    table("3-joint arm under gravity keyed through poses (shoulder and elbow move together): worst pass of a held pose",
          ["shoulder", "h", "yaw", "shoulder", "elbow"], rows)


def weak_neighbour() -> None:
    """The step case beside an elbow servo of 1 N m, which cannot hold the forearm while the shoulder
    turns at its limit (that takes about 2 N m): the forearm whips and drags the shoulder."""
    rows = []
    for h in (0.01, 0.005, 0.0025):
        data = mechanisms.upright_servo_arm(TARGET, 15.0, 0.0, h)
        data["joints"][1]["motor"]["max_torque"] = 1.0
        _, overshoot, rest = servo_course(Simulation(Model.from_dict(data)), "shoulder", TARGET, WITHIN, DURATION)
        rows.append([f"{h}", f"{math.degrees(overshoot):.3f}°", f"{math.degrees(rest):.1e}°"])
    table("Step, 15 N m, zero gravity, beside an elbow servo of 1 N m",
          ["h", "shoulder overshoot", "|error| at the end"], rows)


def velocity_motor(body: dict, axis, gravity: float, h: float) -> Simulation:
    """`body` on a hinge at the origin about `axis`, turned by a 2 N m velocity motor toward 1000 rad/s."""
    hinge = {"name": "axle", "type": "hinge", "body_a": "world", "body_b": body["name"], "anchor": [0, 0, 0],
             "axis": axis, "motor": {"mode": "velocity", "target": 1e3, "max_torque": 2.0}}
    return Simulation(Model.from_dict({"format": "mechbake/1", "gravity": [0, 0, -gravity], "bodies": [body],
                                       "joints": [hinge], "settings": {"h": h, "dmax": 1e-10}}))


def order() -> None:
    rows = []
    for h in (0.01, 0.005, 0.0025):
        disc = velocity_motor({"name": "disc", "mass": 2.0, "inertia": [0.25, 0.25, 0.5], "position": [0, 0, 0]},
                              [0, 0, 1], 0.0, h)
        disc.run(1.0)
        disc_error = disc.joint_position("axle") - 0.5 * (2.0 / 0.5) * disc.time ** 2
        rod = velocity_motor(mechanisms.rod("rod", [0, 0, 0], [0, 0, -1.0], mass=1.0, radius=0.01), [0, -1, 0],
                             9.81, h)
        reference = arm_under_torque((3 * 0.01**2 + 1.0) / 12 + 0.5**2, 9.81 * 0.5, 2.0, 0.0, 0.0, 2.0)
        worst = 0.0
        while rod.time < 2.0 - 1e-9:
            rod.step()
            worst = max(worst, abs(rod.joint_position("axle") - reference[int(round(rod.time / 1e-4))]))
        rows.append([f"{h}", f"{disc_error:.2e} rad", f"{2.0 * 1.0 * h / (2 * 0.5):.2e} rad", f"{worst:.3e} rad"])
    table("A velocity motor at its 2 N m limit: free disc (I = 0.5) at 1 s; hanging 1 kg rod over 2 s",
          ["h", "disc: angle - (T/I) t^2 / 2", "first order's lead T t h / (2 I)", "rod: worst error (RK4)"], rows)


if __name__ == "__main__":
    main()
