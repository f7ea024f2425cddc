"""Where the method's O(h^2) comes from when links turn fast: a 1 m mathematical pendulum (a particle
on a distance joint) that loops over its pivot, beside RATTLE and beside Stormer-Verlet in the angle.

Schmitt's step for a particle is RATTLE's: the rod's impulse acts along the rod as it is at the
start of the step, so that the particle, flying straight, lands on the circle; the velocity
correction then takes out the part along the rod as it is at the end. A particle turning at omega
lands at asin(omega h) instead of omega h (1 m rod): a lead of (omega h)^2 / 6 a step, from flying
the chord. Stormer-Verlet in the angle is the same order and the same symmetry without a chord: its
lead comes from sampling gravity alone. At 10 degrees (Table 9.1's pendulum) the particle is slow
and the three agree; looping, ours and RATTLE stay equal to the digits printed and Verlet in the
angle is several times closer. That is the share of IFToMM A02's error the exact pendulum's Verlet
column in benchmarks/a02_n_four_bar.py does not have. The last RATTLE takes each multiplier along the
rod through a point a third (position) and two thirds (velocity) of the way along the chord: it lands
a turning particle where the arc ends, and comes as close as Verlet in the angle.
    python benchmarks/looping_pendulum.py [--duration 10]
"""
import argparse
import math

import numpy as np
from common import table

import mechanisms
from measure import arm_under_torque, verlet_angles
from mechbake.solver import Model, Simulation

GRAVITY, LENGTH = 9.81, 1.0
REFERENCE_SUBSTEPS = 50


def angle_of(position) -> float:
    """The particle's angle from the lowest point (the pivot at the origin, gravity along -z)."""
    return math.atan2(position[0], -position[-1])


def exact(start: float, rate: float, h: float, steps: int) -> np.ndarray:
    """theta'' = -g / L sin(theta) by RK4 at h / REFERENCE_SUBSTEPS (measure.arm_under_torque: m = 1 kg)."""
    angles = arm_under_torque(LENGTH**2, GRAVITY * LENGTH, 0.0, 0.0, start, steps * h, h / REFERENCE_SUBSTEPS, rate)
    return np.array(angles[::REFERENCE_SUBSTEPS])


def verlet_in_the_angle(start: float, rate: float, h: float, steps: int) -> np.ndarray:
    return np.array(verlet_angles(-GRAVITY / LENGTH, start, rate, h, steps))


def rattle(start: float, rate: float, h: float, steps: int, levers: tuple[float, float] = (0.0, 1.0)) -> np.ndarray:
    """RATTLE in the plane (x, z). levers (a, b): the position's multiplier acts along the rod through
    the point a of the way along the step's chord, the velocity's along the rod through the point b;
    (0, 1) is the textbook method (the rod at the step's start, then at its end). Without gravity a
    particle turning by d = omega h a step (1 m rod) lands d^3 (1/6 - a / 2) ahead of the arc's end
    and leaves with its speed times 1 + d^2 (1 - a - b) / 2: (1/3, 2/3) turns it by omega h and keeps
    its speed, and since a = 1 - b the step is its own adjoint (the method stays symmetric)."""
    gravity = np.array([0.0, -GRAVITY])
    q = LENGTH * np.array([math.sin(start), -math.cos(start)])
    v = rate * LENGTH * np.array([math.cos(start), math.sin(start)])
    out = [start]
    for _ in range(steps):
        free = q + h * v + 0.5 * h * h * gravity
        landed = free
        for _ in range(100):  # the pull's direction depends on where it lands
            rod = _unit(q + levers[0] * (landed - q))
            # |free + s rod| = L: the root with the smaller |s| is the pull back onto the circle
            b, c = 2 * free @ rod, free @ free - LENGTH**2
            root = math.sqrt(b * b - 4 * c)
            pull = min(0.5 * (-b + root), 0.5 * (-b - root), key=abs)
            moved = np.abs(free + pull * rod - landed).max()
            landed = free + pull * rod
            if moved < 1e-15:
                break
        v = (landed - q) / h + 0.5 * h * gravity
        rod = _unit(q + levers[1] * (landed - q))
        v -= (v @ landed) / (rod @ landed) * rod  # along that rod, to no rate along the rod at the end
        q = landed
        out.append(angle_of(q))
    return np.unwrap(out)


def _unit(vector: np.ndarray) -> np.ndarray:
    return vector / np.linalg.norm(vector)


def ours(start: float, rate: float, h: float, steps: int, levers: str = "start") -> np.ndarray:
    data = mechanisms.pendulum(math.degrees(start), LENGTH)
    data["bodies"][0]["velocity"] = [rate * LENGTH * math.cos(start), 0.0, rate * LENGTH * math.sin(start)]
    sim = Simulation(Model.from_dict(data), h=h, dmax=1e-9, vmax=1e-9, levers=levers)
    out = [angle_of(sim.position("bob"))]
    sim.run(steps * h, callback=lambda s: out.append(angle_of(s.position("bob"))))
    return np.unwrap(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10.0, help="simulated seconds (default 10)")
    args = parser.parse_args()
    rows = []
    # Table 9.1's swing, and a loop: 7 rad/s at the bottom (looping needs sqrt(4 g / L) = 6.26)
    for motion, start, rate in (("10 degrees, from rest", math.radians(10.0), 0.0), ("looping", 0.0, 7.0)):
        for h in (0.01, 0.005, 0.0025):
            steps = int(round(args.duration / h))
            reference = exact(start, rate, h, steps)
            worst = {name: float(np.abs(method(start, rate, h, steps) - reference).max()) for name, method in (
                ("ours", ours), ("rattle", rattle), ("ours, thirds", lambda *a: ours(*a, levers="thirds")),
                ("rattle, thirds", lambda *a: rattle(*a, levers=(1 / 3, 2 / 3))), ("verlet", verlet_in_the_angle))}
            rows.append([motion, h, *(f"{value:.4e}" for value in worst.values()),
                         f"{worst['ours'] / worst['verlet']:.2f}", f"{worst['ours, thirds'] / worst['verlet']:.2f}"])
    table(f"A 1 m particle pendulum over {args.duration:g} s, Dmax 1e-9: worst distance from the exact angle, rad",
          ["motion", "h s", "MechBake", "RATTLE", "MechBake, levers at thirds", "RATTLE, levers at 1/3 and 2/3",
           "Stormer-Verlet in the angle", "MechBake / Verlet", "thirds / Verlet"], rows)


if __name__ == "__main__":
    main()
