"""Contact physics against analytic answers, both methods (tests/solver/test_contact_physics.py
asserts the same scenes):
  - a 1 kg box with a 0.4 m box shape dropped flat from 0.3 m with restitution e, its own inertia
    (0.0267 kg m^2) and a larger one (0.1): it rises e^2 h0 after landing (0 for e = 0) and does not turn;
  - a Newton's cradle of five touching balls, e = 1, without gravity and on a frictionless floor: the
    first ball's 1 m/s passes to the last, the others stop;
  - a wheel made as a convex hull of 32 corners a rim, rolling off a corner at 1 m/s: it rolls as its
    polygon does (tools/measure.rolling_polygon; a plastic impact at each corner that lands);
  - a box and a capsule dropped on the terrain with a budget of 1 to 5 passes: no energy gained;
  - a four-wheel cart on a 30 degree slope (mu 0.8) whose wheel motors brake: with 200 N m it holds as
    Fixed axles do, with 0.5 and 1.5 N m (holding needs 1.72) it rolls at (M g sin - 4 T / r) / M_eff;
  - a 100 kg cart whose wheel motors drive 533 N pushing a crate whose friction takes 201, 402 and
    603 N: it pushes at (533 N - friction) / (all the mass), or stands, wheels rolling or still.
The rise is the apex of each step's ballistic flight after landing, z + max(v_z, 0)^2 / 2 g, so the
step's sampling does not enter.
    python benchmarks/contact_physics.py
"""
import numpy as np
from common import table

from contact_scenes import (BOX, CART_MASS, G, WHEEL, braked_cart, cradle, dropped_box,  # as the tests
                            dropped_on_terrain, polygon_wheel, pushing_cart)
from measure import energies, rise_after_landing, rolling_polygon

from mechbake.solver import Model, Simulation

DROP = 0.3
METHODS = ("impulse", "lcp")


def drops() -> None:
    rows = []
    for e in (0.0, 0.5):
        for inertia in (BOX * BOX / 6, 0.1):
            for method in METHODS:
                sim = Simulation(Model.from_dict(dropped_box(method, e, inertia, DROP)))
                rise, spin, gain = rise_after_landing(sim, DROP, BOX / 2, G)
                rows.append([e, f"{inertia:.4f}", method, f"{rise:.6f}", f"{e * e * DROP:.6f}",
                             f"{rise - e * e * DROP:+.1e}", f"{spin:.1e}", f"{gain:.1e}"])
    table(f"Box dropped flat from {DROP} m (h = 0.01 s): highest rise after landing, m",
          ["e", "inertia kg m^2", "method", "rise", "e^2 h0", "difference", "largest |w| rad/s",
           "largest energy gain J in a step"], rows)


def cradles() -> None:
    rows = []
    for on_floor in (False, True):
        for method in METHODS:
            sim = Simulation(Model.from_dict(cradle(method, on_floor)))
            energy = sim.energy()
            sim.run(0.3)
            speeds = [float(sim.velocity(f"ball{i}")[0]) for i in range(5)]
            rows.append(["frictionless floor" if on_floor else "no gravity", method,
                         " ".join(f"{v:+.4f}" for v in speeds), "0 0 0 0 1", f"{sim.energy() - energy:+.1e}"])
    table("Newton's cradle, five touching balls, e = 1, first at 1 m/s (h = 0.01 s): speeds along the row at 0.3 s",
          ["scene", "method", "speeds m/s", "analytic", "energy change J"], rows)


def wheels() -> None:
    rows = []
    for sides in (16, 32):
        exact = rolling_polygon(sides, WHEEL, 1.0, 0.5 * WHEEL ** 2, 1.0, 1.0, G)
        for method in METHODS:
            for h in (0.01, 0.005, 0.0025):
                sim = Simulation(Model.from_dict(polygon_wheel(method, sides, h)))
                sim.run(1.0)
                x, y = (float(v) for v in sim.position("wheel")[:2])
                rows.append([sides, method, h, f"{x:.4f}", f"{exact:.4f}", f"{(x - exact) / exact:+.2%}", f"{y:+.1e}"])
    table("Hull wheel rolling off a corner at 1 m/s: distance in 1 s, m (analytic: plastic impacts at its corners)",
          ["corners a rim", "method", "h", "distance", "analytic", "difference", "sideways m"], rows)


def pass_budgets() -> None:
    rows = []
    for budget in (1, 2, 5, 200):
        for method in METHODS:
            sim = Simulation(Model.from_dict(dropped_on_terrain(method, budget)))
            energy = energies(sim, 300)
            rows.append([budget, method, f"{energy[0]:.3f}", f"{max(energy):.3f}", f"{energy[-1]:.3f}",
                         f"{max(np.diff(energy)):.1e}", sim.stats["halvings"]])
    table("Box and capsule dropped on the terrain, 3 s: energy, J (once it climbed from 17.7 to 16,359 J)",
          ["max_corrections", "method", "start", "highest", "end", "largest gain in a step", "halvings"], rows)


def second_half_second(data: dict) -> tuple:
    """The chassis's acceleration along x over 0.5-1 s, its speed and wheel0's rim speed at 1 s."""
    sim = Simulation(Model.from_dict(data))
    sim.run(0.5)
    before = float(sim.velocity("chassis")[0])
    sim.run(0.5)
    after = float(sim.velocity("chassis")[0])
    return (after - before) / 0.5, after, float(sim.angular_velocity("wheel0")[1]) * 0.1


def motor_wheels() -> None:
    rows = []
    for torque in (200.0, 1.5, 0.5):
        exact = max(14.0 * G * 0.5 - 4 * torque / 0.1, 0.0) / (14.0 + 4 * 0.005 / 0.1 ** 2)
        for method in METHODS:
            for h in (0.01, 0.005):
                accel, speed, rim = second_half_second(braked_cart(method, 30.0, h=h, torque=torque))
                rows.append([torque, method, h, f"{-accel:.6f}", f"{exact:.6f}", f"{-speed:.2e}",
                             f"{rim - speed:+.1e}"])
    table("Cart braked on a 30 degree slope: acceleration down it over 0.5-1 s, m/s^2",
          ["brake N m", "method", "h", "acceleration", "analytic", "speed at 1 s", "slip m/s"], rows)
    rows = []
    for crate in (32.0, 64.0, 96.0):
        exact = max(4 * 13.33 / 0.1 - 0.64 * crate * G, 0.0) / (CART_MASS + 4.0 + crate + 2.0)
        for method in METHODS:
            accel, speed, rim = second_half_second(pushing_cart(method, crate, 13.33))
            rows.append([crate, f"{0.64 * crate * G:.0f}", method, f"{accel:.6f}", f"{exact:.6f}",
                         f"{rim - speed:+.1e}"])
    table("Cart driving 533 N against a crate, h = 0.01: acceleration over 0.5-1 s, m/s^2",
          ["crate kg", "its friction N", "method", "acceleration", "analytic", "slip m/s"], rows)


if __name__ == "__main__":
    drops()
    cradles()
    wheels()
    pass_budgets()
    motor_wheels()
