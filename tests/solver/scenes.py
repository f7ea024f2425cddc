"""Small builders and measurements shared by the solver tests."""
import mechanisms
from measure import crossing_times, elliptic_k, pendulum_period  # noqa: F401  (shared with benchmarks)

from mechbake.solver import Model, Simulation

FORMAT = "mechbake/1"


def scene(bodies, joints, gravity=(0.0, 0.0, -9.81), **settings) -> dict:
    return {"format": FORMAT, "gravity": list(gravity), "settings": settings, "bodies": bodies, "joints": joints}


def simulate(data: dict, **overrides) -> Simulation:
    return Simulation(Model.from_dict(data), **overrides)


def rod(name, start, end, mass=1.0, radius=0.01) -> dict:
    return mechanisms.rod(name, start, end, mass=mass, radius=radius)
