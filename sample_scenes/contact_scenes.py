"""Contact scenes in the file format, shared by the solver's tests and the benchmarks that measure
the same scenes: boxes, floors and a terrain; the resting bodies of the stacking tests; a box dropped
flat and a Newton's cradle (issue 24's physics cases); the row of dominoes benchmarks/blender_contact.py
also builds in Blender."""
import math

import numpy as np

G = 9.81
SIZE, MASS = 0.4, 10.0  # the stacking tests' boxes
BOX = 0.4  # the dropped box's edge, m
RADIUS = 0.05  # the cradle's balls, m


def box_body(name="box", position=(0, 0, 0.1), orientation=(1, 0, 0, 0), size=0.2, mass=1.0, friction=0.5, **extra):
    return {"name": name, "mass": mass, "inertia": [mass * size * size / 6] * 3, "position": list(position),
            "orientation": list(orientation), "shape": {"type": "box", "size": [size] * 3}, "friction": friction,
            **extra}


def floor(normal=(0, 0, 1), friction=0.5, **extra):
    return {"name": "floor", "type": "plane", "point": [0, 0, 0], "normal": list(normal), "friction": friction, **extra}


def terrain(size=8, step=0.25, seed=4):
    """A 2 size^2-triangle mesh of random heights (5 cm standard deviation) on a grid of `step`."""
    rng = np.random.default_rng(seed)
    xs = np.arange(size + 1) * step - size * step / 2
    heights = 0.05 * rng.standard_normal((size + 1, size + 1))
    vertices = [[x, y, heights[i, j]] for i, x in enumerate(xs) for j, y in enumerate(xs)]
    triangles = []
    for i in range(size):
        for j in range(size):
            a, b, c, d = (i * (size + 1) + j, (i + 1) * (size + 1) + j, (i + 1) * (size + 1) + j + 1,
                          i * (size + 1) + j + 1)
            triangles += [[a, b, c], [a, c, d]]
    return {"name": "terrain", "type": "mesh", "vertices": vertices, "triangles": triangles, "friction": 0.8}


CAPSULE = {"name": "capsule", "mass": 2.0, "inertia": [0.07, 0.07, 0.0025], "position": [0, 0.05, SIZE + 0.05],
           "orientation": [np.cos(np.pi / 4), np.sin(np.pi / 4), 0, 0],  # its axis along y
           "shape": {"type": "capsule", "radius": 0.05, "length": 0.6}}  # longer than the box is wide
# Issue 8.2's resting bodies on a floor
RESTING = {
    "three equal boxes stacked": [box_body(f"box{k}", position=(0, 0, SIZE * (k + 0.5)), size=SIZE, mass=MASS)
                                  for k in range(3)],
    # the upper box's centre 0.15 m beyond the lower one's: its support ends on the lower box's edge
    "a box half over the edge of another": [box_body("lower", position=(0, 0, 0.5 * SIZE), size=SIZE, mass=MASS),
                                            box_body("upper", position=(0.15, 0.05, 1.5 * SIZE), size=SIZE, mass=MASS)],
    "a capsule lying across a box": [box_body("box", position=(0, 0, 0.5 * SIZE), size=SIZE, mass=MASS), CAPSULE],
    "a row of four boxes side by side": [box_body(f"box{k}", position=(SIZE * k, 0, 0.5 * SIZE), size=SIZE, mass=MASS)
                                         for k in range(4)],
}


def box_tower(count: int = 3, method: str = "impulse", h: float = 0.01) -> dict:
    """The stacking tests' boxes (SIZE, MASS, friction 0.5) stacked on a floor, placed at rest."""
    bodies = [box_body(f"box{k + 1}", position=(0, 0, SIZE * (k + 0.5)), size=SIZE, mass=MASS) for k in range(count)]
    return {"format": "mechbake/1", "gravity": [0, 0, -G], "settings": {"h": h, "dmax": 1e-7, "contact_method": method},
            "bodies": bodies, "joints": [], "obstacles": [floor()]}


DOMINO, DOMINOES, SPACING, TIP = (0.06, 0.3, 0.6), 12, 0.35, math.radians(20.0)  # m, count, m, rad


def domino_poses() -> list[tuple[float, float, float]]:
    """Each domino's (x, z, tilt about y): standing SPACING apart on the floor, the first tipped by TIP
    about its front bottom edge (at x = width / 2) toward the others."""
    width, _, height = DOMINO
    poses = [(k * SPACING, height / 2, 0.0) for k in range(DOMINOES)]
    poses[0] = (width / 2 - (width / 2) * math.cos(TIP) + (height / 2) * math.sin(TIP),
                (width / 2) * math.sin(TIP) + (height / 2) * math.cos(TIP), TIP)
    return poses


def dominoes(h: float = 1 / 240) -> dict:
    """The dominoes of 1 kg on a floor, friction 0.5."""
    width, depth, height = DOMINO
    inertia = [(depth**2 + height**2) / 12, (width**2 + height**2) / 12, (width**2 + depth**2) / 12]
    bodies = [{"name": f"d{k}", "mass": 1.0, "inertia": inertia, "position": [x, 0, z],
               "orientation": [math.cos(tilt / 2), 0, math.sin(tilt / 2), 0],
               "shape": {"type": "box", "size": list(DOMINO)}, "friction": 0.5}
              for k, (x, z, tilt) in enumerate(domino_poses())]
    return {"format": "mechbake/1", "gravity": [0, 0, -G], "bodies": bodies, "joints": [], "obstacles": [floor()],
            "settings": {"h": h}}


def dropped_box(method: str, restitution: float, inertia: float, drop: float = 0.3, h: float = 0.01) -> dict:
    """A 1 kg box with a BOX-edged box shape and `inertia` kg m^2 about each axis, its bottom face
    `drop` m above a floor, flat; box and floor share friction 0.5 and `restitution`."""
    box = {"name": "box", "mass": 1.0, "inertia": [inertia] * 3, "position": [0, 0, 0.5 * BOX + drop],
           "shape": {"type": "box", "size": [BOX] * 3}, "friction": 0.5, "restitution": restitution}
    return {"format": "mechbake/1", "gravity": [0, 0, -G], "settings": {"h": h, "contact_method": method},
            "bodies": [box], "joints": [], "obstacles": [floor(friction=0.5, restitution=restitution)]}


def cradle(method: str, on_floor: bool, balls: int = 5, h: float = 0.01, gap: float = 0.0) -> dict:
    """`balls` 1 kg balls of RADIUS in a row along x, each `gap` from the next (0: touching),
    restitution 1, no friction; the first moves at 1 m/s toward the rest. Without gravity, or with
    it on a frictionless floor."""
    bodies = [{"name": f"ball{i}", "mass": 1.0, "inertia": [0.4 * RADIUS ** 2] * 3,
               "position": [(2 * RADIUS + gap) * i, 0, RADIUS if on_floor else 0.0],
               "velocity": [1.0 if i == 0 else 0.0, 0, 0], "shape": {"type": "sphere", "radius": RADIUS},
               "friction": 0.0, "restitution": 1.0} for i in range(balls)]
    return {"format": "mechbake/1", "gravity": [0.0, 0.0, -G if on_floor else 0.0],
            "settings": {"h": h, "contact_method": method}, "bodies": bodies, "joints": [],
            "obstacles": [floor(friction=0.0, restitution=0.0)] if on_floor else []}


WHEEL = 0.1  # the polygon wheel's radius to its corners, m


def polygon_wheel(method: str, sides: int, h: float = 0.01, speed: float = 1.0) -> dict:
    """A 1 kg wheel made as a convex hull: two rims of `sides` corners WHEEL from its axis (y), 6 cm
    apart, inertia 0.005 kg m^2 (half m r^2) about every axis, standing on a corner on a floor
    (friction 0.8) and rolling along x at `speed` (omega = speed / WHEEL)."""
    angles = 2 * np.pi * np.arange(sides) / sides
    corners = [[WHEEL * np.cos(a), y, WHEEL * np.sin(a)] for y in (-0.03, 0.03) for a in angles]
    wheel = {"name": "wheel", "mass": 1.0, "inertia": [0.5 * WHEEL ** 2] * 3, "position": [0, 0, WHEEL],
             "velocity": [speed, 0, 0], "angular_velocity": [0, speed / WHEEL, 0],
             "shape": {"type": "convex", "vertices": corners}, "friction": 0.8}
    return {"format": "mechbake/1", "gravity": [0, 0, -G], "settings": {"h": h, "contact_method": method},
            "bodies": [wheel], "joints": [], "obstacles": [floor(friction=0.8)]}


def dropped_on_terrain(method: str, max_corrections: int) -> dict:
    """A 0.2 m box and the CAPSULE dropped onto the terrain, with a pass budget of `max_corrections`."""
    bodies = [box_body("box", position=(0.1, -0.05, 0.5)), {**CAPSULE, "position": [-0.4, 0.3, 0.6]}]
    return {"format": "mechbake/1", "gravity": [0, 0, -G], "bodies": bodies, "joints": [], "obstacles": [terrain()],
            "settings": {"h": 0.01, "max_corrections": max_corrections, "contact_method": method}}


def cart(chassis_mass: float, axle: dict | None, friction: float = 0.8, chassis_friction: float = 0.8) -> tuple:
    """(bodies, joints) of a chassis of `chassis_mass` (1.0 x 0.6 x 0.2 m, its bottom 0.2 m up) on four
    1 kg ball wheels of 0.1 m (inertia 0.005 kg m^2), each on a hinge across the chassis with the
    `axle` motor, or welded to it (None)."""
    scale = chassis_mass / 10.0
    bodies = [{"name": "chassis", "mass": chassis_mass, "inertia": [0.5 * scale, 1.0 * scale, 1.2 * scale],
               "position": [0, 0, 0.3], "shape": {"type": "box", "size": [1.0, 0.6, 0.2]},
               "friction": chassis_friction}]
    joints = []
    for k, (x, y) in enumerate([(0.4, 0.4), (0.4, -0.4), (-0.4, 0.4), (-0.4, -0.4)]):
        bodies.append({"name": f"wheel{k}", "mass": 1.0, "inertia": [0.005] * 3, "position": [x, y, 0.1],
                       "shape": {"type": "sphere", "radius": 0.1}, "friction": friction})
        joint = {"name": f"axle{k}", "type": "fixed", "body_a": "chassis", "body_b": f"wheel{k}", "anchor": [x, y, 0.1]}
        if axle is not None:
            joint.update(type="hinge", axis=[0, 1, 0], motor=axle)
        joints.append(joint)
    return bodies, joints


def braked_cart(method: str, slope: float, axle: str = "brake", h: float = 0.01, torque: float = 200.0) -> dict:
    """A 10 kg cart (`cart`) on a slope of `slope` degrees (gravity turned by it), friction 0.8
    everywhere. axle "brake": each wheel's velocity motor holds 0 rad/s with up to `torque` N m;
    "fixed": each wheel welded to the chassis."""
    tilt = np.radians(slope)
    brake = {"mode": "velocity", "target": 0.0, "max_torque": torque} if axle == "brake" else None
    bodies, joints = cart(10.0, brake)
    return {"format": "mechbake/1", "gravity": [-G * np.sin(tilt), 0, -G * np.cos(tilt)],
            "settings": {"h": h, "contact_method": method}, "bodies": bodies, "joints": joints,
            "obstacles": [floor(friction=0.8)]}


CRATE = 0.6  # the pushed crate's side, m
CART_MASS = 100.0  # the pushing cart's chassis, kg: its wheels' grip (0.89 of its weight) is not what limits it


def pushing_cart(method: str, crate_mass: float, torque: float, crate_friction: float = 0.64,
                 h: float = 0.01) -> dict:
    """A cart (`cart`, 100 kg chassis) whose wheels' velocity motors drive at 30 rad/s with up to `torque`
    N m each, its frictionless front face against a CRATE of `crate_mass` resting on the floor with
    friction `crate_friction` to it (the floor's 1, the wheels' 0.8: 0.89 at the wheels)."""
    drive = {"mode": "velocity", "target": 30.0, "max_torque": torque}
    bodies, joints = cart(CART_MASS, drive, chassis_friction=0.0)
    side = CRATE
    bodies.append({"name": "crate", "mass": crate_mass, "inertia": [crate_mass * side * side / 6] * 3,
                   "position": [0.5 + side / 2, 0, side / 2], "shape": {"type": "box", "size": [side] * 3},
                   "friction": crate_friction ** 2})
    return {"format": "mechbake/1", "gravity": [0, 0, -G], "settings": {"h": h, "contact_method": method},
            "bodies": bodies, "joints": joints, "obstacles": [floor(friction=1.0)]}
