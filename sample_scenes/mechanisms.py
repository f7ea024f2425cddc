"""The sample mechanisms as mechanism-file dicts (format mechbake/1), built in plain Python.

`python sample_scenes/mechanisms.py` writes each one to sample_scenes/<name>.json. Benchmarks and
tests build the same dicts from here, so the files and the figures never disagree.
"""
import json
import math
import pathlib

FORMAT = "mechbake/1"
G = [0.0, 0.0, -9.81]


def rod_inertia(mass: float, length: float, radius: float, direction) -> list:
    """Inertia tensor (world-aligned body frame) of a solid cylinder along the unit `direction`."""
    axial = 0.5 * mass * radius**2
    transverse = mass * (3 * radius**2 + length**2) / 12
    d = [c / math.sqrt(sum(x * x for x in direction)) for c in direction]
    return [[transverse * ((i == j) - d[i] * d[j]) + axial * d[i] * d[j] for j in range(3)] for i in range(3)]


def rod(name: str, start, end, mass: float = 1.0, radius: float = 0.01) -> dict:
    centre = [(a + b) / 2 for a, b in zip(start, end)]
    direction = [b - a for a, b in zip(start, end)]
    length = math.sqrt(sum(c * c for c in direction))
    return {"name": name, "mass": mass, "inertia": rod_inertia(mass, length, radius, direction), "position": centre}


def pendulum(angle_deg: float = 10.0, length: float = 1.0) -> dict:
    """Schmitt Table 9.1: a 1 m mathematical pendulum (a particle on a massless rod), 10 degrees out."""
    angle = math.radians(angle_deg)
    bob = [length * math.sin(angle), 0.0, -length * math.cos(angle)]
    return {
        "format": FORMAT, "gravity": G, "settings": {"h": 0.01, "dmax": 1e-9},
        "bodies": [{"name": "bob", "mass": 1.0, "position": bob}],
        "joints": [{"name": "rod", "type": "distance", "body_a": "world", "body_b": "bob",
                    "anchor_a": [0.0, 0.0, 0.0], "anchor_b": bob}],
    }


def double_pendulum() -> dict:
    """Two 1 m rods on hinges about y, started horizontal and at 45 degrees."""
    elbow = [1.0, 0.0, 0.0]
    tip = [1.0 + math.sqrt(0.5), 0.0, -math.sqrt(0.5)]
    return {
        "format": FORMAT, "gravity": G, "settings": {"h": 0.005, "dmax": 1e-7},
        "bodies": [rod("upper", [0, 0, 0], elbow, radius=0.02), rod("lower", elbow, tip, radius=0.02)],
        "joints": [
            {"name": "shoulder", "type": "hinge", "body_a": "world", "body_b": "upper", "anchor": [0, 0, 0],
             "axis": [0, 1, 0]},
            {"name": "elbow", "type": "hinge", "body_a": "upper", "body_b": "lower", "anchor": elbow,
             "axis": [0, 1, 0]},
        ],
    }


def eight_loop_points(links: int = 8, length: float = 1.0) -> list:
    """Schmitt §9 "8-Loop": 9 points of a horizontal regular 12-gon with 1 m edges, p1 and p9 hung."""
    radius = length / (2 * math.sin(math.pi / 12))
    return [[radius * math.cos(k * math.pi / 6), radius * math.sin(k * math.pi / 6), 0.0] for k in range(links + 1)]


def eight_loop(h: float = 0.01, dmax: float = 1e-5) -> dict:
    """8 rods of 1 m and 1 kg, 9 ball joints, hung at both ends, released from rest in a horizontal plane."""
    points = eight_loop_points()
    bodies = [rod(f"rod{k + 1}", points[k], points[k + 1]) for k in range(8)]
    joints = [{"name": "hang1", "type": "ball", "body_a": "world", "body_b": "rod1", "anchor": points[0]}]
    joints += [{"name": f"link{k + 1}", "type": "ball", "body_a": f"rod{k}", "body_b": f"rod{k + 1}",
                "anchor": points[k]}
               for k in range(1, 8)]
    joints.append({"name": "hang9", "type": "ball", "body_a": "rod8", "body_b": "world", "anchor": points[8]})
    return {"format": FORMAT, "gravity": G, "settings": {"h": h, "dmax": dmax}, "bodies": bodies, "joints": joints}


def four_bar() -> dict:
    """A planar crank-rocker on four hinges about y (ground 2 m, crank 0.5 m, coupler 2 m, rocker 1.5 m)."""
    a, b = [0.0, 0.0, 0.0], [0.0, 0.0, 0.5]
    d = [2.0, 0.0, 0.0]
    # the coupler end C is 2 m from B and 1.5 m from D: intersect the two circles in the xz plane
    dx, dz = d[0] - b[0], d[2] - b[2]
    dist = math.hypot(dx, dz)
    along = (2.0**2 - 1.5**2 + dist**2) / (2 * dist)
    up = math.sqrt(2.0**2 - along**2)
    c = [b[0] + along * dx / dist - up * dz / dist, 0.0, b[2] + along * dz / dist + up * dx / dist]

    def hinge(name, body_a, body_b, anchor):
        return {"name": name, "type": "hinge", "body_a": body_a, "body_b": body_b, "anchor": anchor,
                "axis": [0, 1, 0]}

    return {
        "format": FORMAT, "gravity": G, "settings": {"h": 0.005, "dmax": 1e-7},
        "bodies": [rod("crank", a, b, radius=0.03), rod("coupler", b, c, radius=0.03),
                   rod("rocker", c, d, radius=0.03)],
        "joints": [hinge("ground_crank", "world", "crank", a), hinge("crank_coupler", "crank", "coupler", b),
                   hinge("coupler_rocker", "coupler", "rocker", c), hinge("rocker_ground", "rocker", "world", d)],
    }


def crank_slider() -> dict:
    """A servo turns a 0.3 m crank at 2 rad/s; a 1 m connecting rod pushes a 2 kg slider along x."""
    crank_tip = [0.3, 0.0, 0.0]
    piston = [1.3, 0.0, 0.0]
    return {
        "format": FORMAT, "gravity": G, "settings": {"h": 0.005, "dmax": 1e-7},
        "bodies": [rod("crank", [0, 0, 0], crank_tip, radius=0.03), rod("conrod", crank_tip, piston, radius=0.02),
                   {"name": "piston", "mass": 2.0, "inertia": [0.01, 0.01, 0.01], "position": piston}],
        "joints": [
            {"name": "crank_axle", "type": "hinge", "body_a": "world", "body_b": "crank", "anchor": [0, 0, 0],
             "axis": [0, 1, 0], "motor": {"mode": "velocity", "target": -2.0, "max_torque": 50.0}},
            {"name": "crank_pin", "type": "hinge", "body_a": "crank", "body_b": "conrod", "anchor": crank_tip,
             "axis": [0, 1, 0]},
            {"name": "wrist_pin", "type": "hinge", "body_a": "conrod", "body_b": "piston", "anchor": piston,
             "axis": [0, 1, 0]},
            {"name": "cylinder", "type": "slider", "body_a": "world", "body_b": "piston", "anchor": piston,
             "axis": [1, 0, 0]},
        ],
    }


def bricard(**settings) -> dict:
    """IFToMM benchmark A04, Bricard's mechanism (M. Gonzalez et al., Multibody System Dynamics 16(2),
    2006): five rods of 1 m and 1 kg (0.1 m square sections) along the edges of a unit cube, from the
    origin along x, down -y, along z, back -x and up +y to (0, 0, 1), on six hinges whose axes are
    each square to both rods they join. Gruebler's count gives no freedom (30 rows for 30 body
    coordinates); the geometry leaves one, so one row is dependent everywhere. Released from rest, gravity
    along -y. `settings` (h, dmax, ...) override MechBake's defaults."""
    corners = [[0, 0, 0], [1, 0, 0], [1, -1, 0], [1, -1, 1], [0, -1, 1], [0, 0, 1]]
    along = [0, 1, 2, 0, 1]  # each rod's direction, as a world axis
    axes = [[0, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]]
    side = 0.1
    transverse, axial = (1.0 + side**2) / 12, 2 * side**2 / 12  # a 1 kg, 1 m bar of square section
    bodies = [{"name": f"rod{k + 1}", "mass": 1.0,
               "inertia": [axial if i == along[k] else transverse for i in range(3)],
               "position": [(a + b) / 2 for a, b in zip(corners[k], corners[k + 1])]} for k in range(5)]
    ends = ["world"] + [body["name"] for body in bodies] + ["world"]
    joints = [{"name": f"pin{k + 1}", "type": "hinge", "body_a": ends[k], "body_b": ends[k + 1], "anchor": corners[k],
               "axis": axes[k]} for k in range(6)]
    return {"format": FORMAT, "gravity": [0.0, -9.81, 0.0], "settings": settings, "bodies": bodies, "joints": joints}


# IFToMM A03, Andrews' squeezer, as E. Hairer and G. Wanner give it (Solving Ordinary Differential
# Equations II, 2nd ed., §VII.7): masses (kg), moments about z (kg m^2), points (m), spring, torque
SQUEEZER_MASS = (0.04325, 0.00365, 0.02373, 0.00706, 0.07050, 0.00706, 0.05498)
SQUEEZER_INERTIA = (2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7, 1.169e-5, 5.667e-7, 1.912e-5)
SQUEEZER_GROUND = {"A": (-0.06934, -0.00227), "B": (-0.03635, 0.03273), "C": (0.014, 0.072)}
SQUEEZER_LENGTHS = dict(d=0.028, da=0.0115, e=0.02, ea=0.01421, rr=0.007, ra=0.00092, ss=0.035, sa=0.01874,
                        sb=0.01043, sc=0.018, sd=0.02, ta=0.02308, tb=0.00916, u=0.04, ua=0.01228, ub=0.00449,
                        zf=0.02, zt=0.04, fa=0.01421)
SQUEEZER_SPRING = (4530.0, 0.07785)  # stiffness N/m, rest length m
SQUEEZER_TORQUE = 0.033  # N m on the crank
# the start, consistent to 1e-30: beta, Theta, gamma, Phi, delta, Omega, epsilon (rad)
SQUEEZER_ANGLES = (-0.0617138900142764496358948458001, 0.0, 0.455279819163070380255912382449,
                   0.222668390165885884674473185609, 0.487364979543842550225598953530,
                   -0.222668390165885884674473185609, 1.23054744454982119249735015568)


def squeezer_points() -> tuple[dict, dict]:
    """Andrews' squeezer at its start, in the plane z = 0: (its joints' points, its bodies' centres of
    mass), as Hairer and Wanner place them from the seven angles. The joint E is met from three
    sides (bodies 2, 4 and 6 each reach it), which agree to rounding."""
    beta, theta, gamma, phi, delta, omega, epsilon = SQUEEZER_ANGLES
    n = SQUEEZER_LENGTHS
    (xa, ya), (xb, yb) = SQUEEZER_GROUND["A"], SQUEEZER_GROUND["B"]

    def at(x, y, *terms):  # a point from (x, y) and (length, direction angle) steps
        return (x + sum(r * math.cos(a) for r, a in terms), y + sum(r * math.sin(a) for r, a in terms))

    right = math.pi / 2
    p = at(0.0, 0.0, (n["rr"], beta))
    points = {"O": (0.0, 0.0), "P": p, "A": (xa, ya), "B": (xb, yb), "C": SQUEEZER_GROUND["C"],
              "E": at(xb, yb, (n["ss"], gamma - right)),
              "E from 2": at(*p, (-n["d"], beta + theta)),
              "E from 4": at(xa, ya, (n["zt"], delta), (n["e"], phi + delta - right)),
              "E from 6": at(xa, ya, (n["u"], epsilon - right), (n["zf"], omega + epsilon)),
              "F": at(xa, ya, (n["zt"], delta)), "G": at(xa, ya, (n["u"], epsilon - right)),
              "D": at(xb, yb, (n["sd"], gamma), (n["sc"], gamma - right))}
    centres = [at(0.0, 0.0, (n["ra"], beta)), at(*p, (-n["da"], beta + theta)),
               at(xb, yb, (n["sa"], gamma - right), (n["sb"], gamma)),
               at(xa, ya, (n["zt"], delta), (n["e"] - n["ea"], phi + delta - right)),
               at(xa, ya, (n["ta"], delta), (n["tb"], delta + right)),
               at(xa, ya, (n["u"], epsilon - right), (n["zf"] - n["fa"], omega + epsilon)),
               at(xa, ya, (n["ua"], epsilon - right), (-n["ub"], epsilon))]
    return points, {f"body{k + 1}": centre for k, centre in enumerate(centres)}


def andrews_squeezer(torque=SQUEEZER_TORQUE, **settings) -> dict:
    """IFToMM benchmark A03, Andrews' squeezer (benchmarks/a03_andrews_squeezer.py): seven planar
    bodies on ten hinges about z, one freedom, released from rest without gravity. A torque on the
    crank (body1, about O; `torque` N m, a number or a time table) turns it against a spring from C
    to a point D of body3; the joint E joins bodies 2, 3, 4 and 6, here three hinges of body3 at one
    point. The crank's angle beta is the start's plus the joint O's position. `settings` (h, dmax,
    ...) override MechBake's defaults."""
    points, centres = squeezer_points()
    bodies = [{"name": name, "mass": mass, "inertia": [moment / 2, moment / 2, moment],  # flat plates
               "position": [*centre, 0.0]}
              for (name, centre), mass, moment in zip(centres.items(), SQUEEZER_MASS, SQUEEZER_INERTIA)]
    pins = [("O", "O", "world", "body1"), ("P", "P", "body1", "body2"), ("B", "B", "world", "body3"),
            ("E2", "E", "body3", "body2"), ("E4", "E", "body3", "body4"), ("E6", "E", "body3", "body6"),
            ("A5", "A", "world", "body5"), ("F", "F", "body5", "body4"), ("A7", "A", "world", "body7"),
            ("G", "G", "body7", "body6")]  # (joint, its point, body a, body b)
    joints = [{"name": name, "type": "hinge", "body_a": a, "body_b": b, "anchor": [*points[point], 0.0],
               "axis": [0.0, 0.0, 1.0]} for name, point, a, b in pins]
    joints[0]["effort"] = torque
    stiffness, rest = SQUEEZER_SPRING
    joints.append({"name": "spring", "type": "spring", "body_a": "world", "body_b": "body3",
                   "anchor_a": [*points["C"], 0.0], "anchor_b": [*points["D"], 0.0], "stiffness": stiffness,
                   "damping": 0.0, "rest_length": rest})
    return {"format": FORMAT, "gravity": [0.0, 0.0, 0.0], "settings": settings, "bodies": bodies, "joints": joints}


def n_four_bar(n: int, **settings) -> dict:
    """IFToMM benchmark A02, the N-four-bar (benchmarks/a02_n_four_bar.py): n parallelogram windows in a
    row, n + 1 upright cranks of 1 m pinned to the ground 1 m apart and n couplers of 1 m across their
    tips, all 1 kg thin rods on hinges about z, gravity along -y, released upright with the tips moving
    at 1 m/s along +x. Every planar loop of hinges has three dependent rows; whenever the cranks lie
    flat, every link is on one line (a singular position). `settings` override MechBake's defaults."""
    transverse, axial = 1.0 / 12, 0.5 * 0.01**2  # a 1 cm rod's spin inertia: it never acts
    bodies = [{"name": f"crank{k}", "mass": 1.0, "inertia": [transverse, axial, transverse],
               "position": [float(k), 0.5, 0.0], "velocity": [0.5, 0.0, 0.0], "angular_velocity": [0.0, 0.0, -1.0]}
              for k in range(n + 1)]
    bodies += [{"name": f"coupler{k}", "mass": 1.0, "inertia": [axial, transverse, transverse],
                "position": [k - 0.5, 1.0, 0.0], "velocity": [1.0, 0.0, 0.0]} for k in range(1, n + 1)]
    hinge = {"type": "hinge", "axis": [0.0, 0.0, 1.0]}
    joints = [{**hinge, "name": f"A{k}", "body_a": "world", "body_b": f"crank{k}", "anchor": [float(k), 0.0, 0.0]}
              for k in range(n + 1)]
    for k in range(1, n + 1):
        joints.append({**hinge, "name": f"B{k - 1}", "body_a": f"crank{k - 1}", "body_b": f"coupler{k}",
                       "anchor": [k - 1.0, 1.0, 0.0]})
        joints.append({**hinge, "name": f"C{k}", "body_a": f"coupler{k}", "body_b": f"crank{k}",
                       "anchor": [float(k), 1.0, 0.0]})
    return {"format": FORMAT, "gravity": [0.0, -9.81, 0.0], "settings": settings, "bodies": bodies, "joints": joints}


def hanging_zigzag(**settings) -> dict:
    """8 rods of 0.5 m and 1 kg (axial inertia 1e-4) on ball joints, hung from two points 3 m apart and
    released from rest as a horizontal zig-zag: the chain whips as it falls and swings."""
    links, length, span = 8, 0.5, 3.0
    across = math.sqrt(length**2 - (span / links) ** 2)
    points = [[k * span / links, across if k % 2 else 0.0, 0.0] for k in range(links + 1)]
    transverse, axial = length**2 / 12, 1e-4
    bodies = []
    for k in range(links):
        d = [(b - a) / length for a, b in zip(points[k], points[k + 1])]
        inertia = [[transverse * ((i == j) - d[i] * d[j]) + axial * d[i] * d[j] for j in range(3)] for i in range(3)]
        bodies.append({"name": f"rod{k + 1}", "mass": 1.0, "inertia": inertia,
                       "position": [(a + b) / 2 for a, b in zip(points[k], points[k + 1])]})
    ends = ["world"] + [body["name"] for body in bodies] + ["world"]
    joints = [{"name": f"ball{k + 1}", "type": "ball", "body_a": ends[k], "body_b": ends[k + 1], "anchor": points[k]}
              for k in range(links + 1)]
    return {"format": FORMAT, "gravity": G, "settings": settings, "bodies": bodies, "joints": joints}


def heavy_top(tilt_deg: float = 30.0, spin: float = 150.0, **settings) -> dict:
    """A disc top (1 kg, radius 0.1 m, its centre 0.1 m up its axis from the tip) on a ball joint at its
    tip, the axis tilted `tilt_deg` from the vertical about x, spinning at `spin` rad/s about that axis."""
    mass, radius, height = 1.0, 0.1, 0.1
    tilt = math.radians(tilt_deg)
    axis = [0.0, -math.sin(tilt), math.cos(tilt)]  # body z, turned by tilt about world x
    body = {"name": "top", "mass": mass, "inertia": [mass * radius**2 / 4, mass * radius**2 / 4, mass * radius**2 / 2],
            "position": [height * c for c in axis], "orientation": [math.cos(tilt / 2), math.sin(tilt / 2), 0.0, 0.0],
            "angular_velocity": [spin * c for c in axis]}
    joints = [{"name": "tip", "type": "ball", "body_a": "world", "body_b": "top", "anchor": [0.0, 0.0, 0.0]}]
    return {"format": FORMAT, "gravity": G, "settings": settings, "bodies": [body], "joints": joints}


def spring_suspension(method: str = "soft") -> dict:
    """A 4 kg box hung from four springs at the corners of a frame, released from the springs' rest length."""
    corners = [[x, y, 0.0] for x in (-0.5, 0.5) for y in (-0.5, 0.5)]
    body = {"name": "box", "mass": 4.0, "inertia": [4 * 0.5 / 12] * 3, "position": [0.0, 0.0, -1.0]}
    joints = [{"name": f"spring{k + 1}", "type": "spring", "body_a": "world", "body_b": "box", "anchor_a": corner,
               "anchor_b": [corner[0] * 0.4, corner[1] * 0.4, -0.9], "stiffness": 400.0, "damping": 4.0,
               "method": method}
              for k, corner in enumerate(corners)]
    return {"format": FORMAT, "gravity": G, "settings": {"h": 0.01, "dmax": 1e-6}, "bodies": [body], "joints": joints}


def servo_arm(max_torque: float = 50.0, target=0.5) -> dict:
    """A 1 m, 2 kg arm on a servo hinge about y, horizontal at the start, commanded to `target` rad."""
    return {
        "format": FORMAT, "gravity": G, "settings": {"h": 0.005, "dmax": 1e-7},
        "bodies": [rod("arm", [0, 0, 0], [1.0, 0, 0], mass=2.0, radius=0.03)],
        "joints": [{"name": "shoulder", "type": "hinge", "body_a": "world", "body_b": "arm", "anchor": [0, 0, 0],
                    "axis": [0, -1, 0], "motor": {"mode": "position", "target": target, "max_torque": max_torque}}],
    }


def upright_box(name: str, bottom: float, width: float, length: float) -> dict:
    """A width x width x length box of density 1000 kg/m^3 standing upright with its bottom at height `bottom`."""
    mass = 1000.0 * width * width * length
    across = mass * (width**2 + length**2) / 12
    return {"name": name, "mass": mass, "inertia": [across, across, mass * width**2 / 6],
            "position": [0.0, 0.0, bottom + length / 2]}


def upright_servo_arm(target, max_torque: float = 15.0, gravity: float = 0.0, h: float = 1 / 240) -> dict:
    """A robot arm built from boxes, upright at the start: a 0.08 x 0.08 x 0.54 m upper arm (3.46 kg) on a
    shoulder servo hinge about y at its foot, turned to `target` (rad, or keyed [[t, rad], ...]) with
    `max_torque`, and a 0.06 x 0.06 x 0.3 m forearm (1.08 kg) on an elbow hinge held at 0 by its own
    position servo (10 N m)."""
    def servo(name, a, b, anchor, goal, torque):
        return {"name": name, "type": "hinge", "body_a": a, "body_b": b, "anchor": anchor, "axis": [0, 1, 0],
                "motor": {"mode": "position", "target": goal, "max_torque": torque}}
    return {
        "format": FORMAT, "gravity": [0.0, 0.0, -gravity], "settings": {"h": h, "dmax": 1e-7},
        "bodies": [upright_box("upper_arm", 0.0, 0.08, 0.54), upright_box("forearm", 0.54, 0.06, 0.3)],
        "joints": [servo("shoulder", "world", "upper_arm", [0, 0, 0], target, max_torque),
                   servo("elbow", "upper_arm", "forearm", [0, 0, 0.54], 0.0, 10.0)],
    }



# the poses keyed_arm's servos are keyed through, [[t, rad], ...]: the shoulder and the elbow move together
KEYED_ARM_POSES = {"yaw": [[0, 0], [0.5, 0], [0.75, 1.5], [2.0, 1.5], [2.25, -0.5]],
                   "shoulder": [[0, 0], [0.25, 1.2], [1.5, 1.2], [1.75, 0.4]],
                   "elbow": [[0, 0], [0.25, 0.8], [1.5, 0.8], [1.75, 1.6]]}


def keyed_arm(shoulder_torque: float, h: float) -> dict:
    """A 3-joint arm: upright_servo_arm on a 2 kg yaw base (10 N m), shoulder `shoulder_torque`, elbow
    10 N m, under gravity, each servo keyed through KEYED_ARM_POSES."""
    data = upright_servo_arm(KEYED_ARM_POSES["shoulder"], shoulder_torque, 9.81, h)
    data["joints"][1]["motor"]["target"] = KEYED_ARM_POSES["elbow"]
    data["bodies"].append({"name": "base", "mass": 2.0, "inertia": [0.01, 0.01, 0.02], "position": [0, 0, -0.05]})
    data["joints"][0]["body_a"] = "base"
    data["joints"].append({"name": "yaw", "type": "hinge", "body_a": "world", "body_b": "base", "anchor": [0, 0, 0],
                           "axis": [0, 0, 1],
                           "motor": {"mode": "position", "target": KEYED_ARM_POSES["yaw"], "max_torque": 10.0}})
    return data

SEVEN_LINK_TORQUE = 200.0
# (amplitude rad, frequency Hz) of each servo's sine, base to wrist
SEVEN_LINK_SINES = ((0.8, 0.25), (0.6, 0.3), (0.8, 0.35), (0.6, 0.4), (0.8, 0.45), (0.6, 0.5), (0.8, 0.55))


def seven_link_arm(duration: float, h: float = 0.005, every: float = 0.005) -> dict:
    """A 7-link robot arm of boxes stacked upright under gravity, hinged at their feet about z, y, z, y, z,
    y, z, each hinge a position servo of SEVEN_LINK_TORQUE whose target, a sine (SEVEN_LINK_SINES), is keyed
    as a time table every `every` s for `duration` s."""
    sizes = [(0.12, 0.3), (0.1, 0.3), (0.1, 0.3), (0.08, 0.3), (0.08, 0.3), (0.06, 0.3), (0.06, 0.1)]
    times = [k * every for k in range(round(duration / every) + 1)]
    bodies, joints, bottom = [], [], 0.0
    for k, ((width, length), (amplitude, frequency)) in enumerate(zip(sizes, SEVEN_LINK_SINES)):
        bodies.append(upright_box(f"link{k + 1}", bottom, width, length))
        target = [[t, amplitude * math.sin(2 * math.pi * frequency * t)] for t in times]
        joints.append({"name": f"joint{k + 1}", "type": "hinge", "body_a": f"link{k}" if k else "world",
                       "body_b": f"link{k + 1}", "anchor": [0.0, 0.0, bottom],
                       "axis": [0, 1, 0] if k % 2 else [0, 0, 1],
                       "motor": {"mode": "position", "target": target, "max_torque": SEVEN_LINK_TORQUE}})
        bottom += length
    return {"format": FORMAT, "gravity": G, "settings": {"h": h, "dmax": 1e-7}, "bodies": bodies, "joints": joints}


def four_balls(method: str = "impulse", h: float = 0.005) -> dict:
    """Stewart and Trinkle §4: a ball thrown onto a table rolls into a row of three, mu = 0.4."""
    starts = [[0, 0, 1], [1, 0, 0.1], [1.2 + 1e-5, 0, 0.1], [1.4 + 2e-5, 0, 0.1]]
    bodies = [{"name": f"ball{k + 1}", "mass": 1.0, "inertia": [0.4 * 0.01] * 3, "position": p,
               "velocity": [1.5, 0.1, 0] if k == 0 else [0, 0, 0], "shape": {"type": "sphere", "radius": 0.1},
               "friction": 0.4} for k, p in enumerate(starts)]
    return {"format": FORMAT, "gravity": G, "bodies": bodies, "joints": [],
            "obstacles": [{"name": "table", "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1], "friction": 0.4}],
            "settings": {"h": h, "dmax": 1e-7, "contact_method": method}}


def spinning_rod(method: str = "impulse", h: float = 0.001) -> dict:
    """Stewart and Trinkle §4: a rod with rounded ends (a capsule), spinning at 4 rad/s, falls onto a table."""
    tilt = math.pi / 2 - math.radians(30)  # the capsule's axis is body z; lay it 30 degrees to the horizontal
    body = {"name": "rod", "mass": 1.0, "inertia": [0.002, 0.002, 0.5 * 0.05**2], "position": [0, 0, 1.0],
            "orientation": [math.cos(tilt / 2), 0, math.sin(tilt / 2), 0], "angular_velocity": [0, 4.0, 0],
            "shape": {"type": "capsule", "radius": 0.05, "length": 0.5}, "friction": 0.6}
    return {"format": FORMAT, "gravity": G, "bodies": [body], "joints": [],
            "obstacles": [{"name": "table", "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1], "friction": 0.6}],
            "settings": {"h": h, "dmax": 1e-7, "contact_method": method}}


SAMPLES = {"pendulum": pendulum, "double_pendulum": double_pendulum, "eight_loop": eight_loop, "four_bar": four_bar,
           "crank_slider": crank_slider, "spring_suspension": spring_suspension, "servo_arm": servo_arm,
           "four_balls": four_balls, "spinning_rod": spinning_rod}

if __name__ == "__main__":
    folder = pathlib.Path(__file__).resolve().parent
    for name, build in SAMPLES.items():
        (folder / f"{name}.json").write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {name}.json")
