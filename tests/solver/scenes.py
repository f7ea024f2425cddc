"""Small builders and measurements shared by the solver tests."""
import mechanisms
import numpy as np
from measure import crossing_times, elliptic_k, pendulum_period  # noqa: F401  (shared with benchmarks)

from mechbake.solver import Model, Simulation

FORMAT = "mechbake/1"


def scene(bodies, joints, gravity=(0.0, 0.0, -9.81), **settings) -> dict:
    return {"format": FORMAT, "gravity": list(gravity), "settings": settings, "bodies": bodies, "joints": joints}


def simulate(data: dict, **overrides) -> Simulation:
    return Simulation(Model.from_dict(data), **overrides)


def rod(name, start, end, mass=1.0, radius=0.01) -> dict:
    return mechanisms.rod(name, start, end, mass=mass, radius=radius)


def simulate_contact(bodies, obstacles, method, joints=(), h=0.01, **settings) -> Simulation:
    """Bodies among obstacles, by the contact method given."""
    return simulate({**scene(bodies, list(joints), h=h, contact_method=method, **settings), "obstacles": obstacles})


BOX_FACES = np.array([[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4],
                      [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]])


def box(size, centre=(0, 0, 0), rotation=np.eye(3)):
    x, y, z = np.array(size) / 2
    corners = np.array([[-x, -y, -z], [x, -y, -z], [x, y, -z], [-x, y, -z],
                        [-x, -y, z], [x, -y, z], [x, y, z], [-x, y, z]])
    return corners @ rotation.T + centre


def grid_mesh(side: int, size: float, height: float = 0.0, centre=(0.0, 0.0)) -> tuple[np.ndarray, np.ndarray]:
    """A square of side x side vertices, (side - 1)^2 cells of two triangles, counter-clockwise from above."""
    xs = np.linspace(-size / 2, size / 2, side)
    x, y = np.meshgrid(xs + centre[0], xs + centre[1], indexing="ij")
    vertices = np.c_[x.ravel(), y.ravel(), np.full(side * side, height)]
    cells = (np.arange(side - 1)[:, None] * side + np.arange(side - 1)[None]).ravel()
    triangles = np.concatenate((np.c_[cells, cells + side, cells + side + 1],
                                np.c_[cells, cells + side + 1, cells + 1]))
    return vertices, triangles
