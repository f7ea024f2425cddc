"""Small builders and measurements shared by the solver tests."""
import math

import mechanisms

from mechbake.solver import Model, Simulation

FORMAT = "mechbake/1"


def scene(bodies, joints, gravity=(0.0, 0.0, -9.81), **settings) -> dict:
    return {"format": FORMAT, "gravity": list(gravity), "settings": settings, "bodies": bodies, "joints": joints}


def simulate(data: dict, **overrides) -> Simulation:
    return Simulation(Model.from_dict(data), **overrides)


def rod(name, start, end, mass=1.0, radius=0.01) -> dict:
    return mechanisms.rod(name, start, end, mass=mass, radius=radius)


def crossing_times(sim: Simulation, signal, count: int, limit: float = 60.0) -> list:
    """Times at which signal(sim) changes sign, linearly interpolated, until `count` are found."""
    times = []
    previous_time, previous = sim.time, signal(sim)
    while len(times) < count:
        sim.step()
        value = signal(sim)
        if previous > 0 >= value or previous < 0 <= value:
            times.append(previous_time + (sim.time - previous_time) * previous / (previous - value))
        previous_time, previous = sim.time, value
        if sim.time > limit:
            raise AssertionError(f"only {len(times)} sign changes in {limit} s")
    return times


def elliptic_k(k: float) -> float:
    """Complete elliptic integral of the first kind, by the arithmetic-geometric mean."""
    a, b = 1.0, math.sqrt(1.0 - k * k)
    while abs(a - b) > 1e-15:
        a, b = 0.5 * (a + b), math.sqrt(a * b)
    return math.pi / (2.0 * a)


def pendulum_period(inertia_pivot: float, mass: float, g: float, lever: float, amplitude: float) -> float:
    """Exact period of a physical pendulum of any amplitude."""
    return 4.0 * math.sqrt(inertia_pivot / (mass * g * lever)) * elliptic_k(math.sin(amplitude / 2.0))
