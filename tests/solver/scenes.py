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


# --- contact physics (issue 24): a box dropped flat, a Newton's cradle of touching balls ---------

G = 9.81
BOX = 0.4  # the dropped box's edge, m
RADIUS = 0.05  # the cradle's balls, m


def dropped_box(method: str, restitution: float, inertia: float, drop: float = 0.3, h: float = 0.01) -> Simulation:
    """A 1 kg box with a BOX-edged box shape and `inertia` kg m^2 about each axis, its bottom face
    `drop` m above a floor, flat; box and floor share friction 0.5 and `restitution`."""
    box = {"name": "box", "mass": 1.0, "inertia": [inertia] * 3, "position": [0, 0, 0.5 * BOX + drop],
           "shape": {"type": "box", "size": [BOX] * 3}, "friction": 0.5, "restitution": restitution}
    floor = {"name": "floor", "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1], "friction": 0.5,
             "restitution": restitution}
    return simulate({**scene([box], [], h=h, contact_method=method), "obstacles": [floor]})


def rise_after_landing(sim: Simulation, drop: float, duration: float = 1.0) -> tuple:
    """Steps the dropped box for `duration` s from the start and returns (the highest its bottom
    rises above the floor after it first lands, as the apex of each step's ballistic flight,
    z + max(v_z, 0)^2 / 2 g; the largest angular speed after landing; the energy's largest rise
    over any step, J)."""
    landing = (2.0 * drop / G) ** 0.5
    rise, spin, gain = 0.0, 0.0, 0.0
    energy = sim.energy()
    while sim.time < duration - 1e-9:
        sim.step()
        now = sim.energy()
        gain, energy = max(gain, now - energy), now
        if sim.time > landing + sim.h:
            vz = float(sim.velocity("box")[2])
            rise = max(rise, float(sim.position("box")[2]) - 0.5 * BOX + max(vz, 0.0) ** 2 / (2.0 * G))
            spin = max(spin, float(abs(sim.angular_velocity("box")).max()))
    return rise, spin, gain


def cradle(method: str, on_floor: bool, balls: int = 5, h: float = 0.01, gap: float = 0.0) -> Simulation:
    """`balls` 1 kg balls of RADIUS in a row along x, each `gap` from the next (0: touching),
    restitution 1, no friction; the first moves at 1 m/s toward the rest. Without gravity, or with
    it on a frictionless floor."""
    bodies = [{"name": f"ball{i}", "mass": 1.0, "inertia": [0.4 * RADIUS ** 2] * 3,
               "position": [(2 * RADIUS + gap) * i, 0, RADIUS if on_floor else 0.0], "velocity": [1.0 if i == 0 else 0.0, 0, 0],
               "shape": {"type": "sphere", "radius": RADIUS}, "friction": 0.0, "restitution": 1.0}
              for i in range(balls)]
    obstacles = [{"name": "floor", "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1], "friction": 0.0,
                  "restitution": 0.0}] if on_floor else []
    gravity = (0.0, 0.0, -G) if on_floor else (0.0, 0.0, 0.0)
    return simulate({**scene(bodies, [], gravity=gravity, h=h, contact_method=method), "obstacles": obstacles})
