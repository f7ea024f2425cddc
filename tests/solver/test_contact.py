"""Contact and Coulomb friction against obstacles and between bodies, by both methods."""
import math

import numpy as np
import pytest

from mechbake.solver import Model, ModelError, Simulation
from contact_scenes import box_body, floor, terrain
from scenes import rod, scene, simulate_contact

METHODS = ["impulse", "lcp"]
G = 9.81


def lowest_gap(sim, obstacles_normal=(0, 0, 1)) -> float:
    """Smallest separation of any contact probe from the plane through the origin."""
    from mechbake.solver.contact.detection import find_contacts

    contacts = find_contacts(sim.model, sim.state.frames, sim.state.frames)
    return float(contacts.separation(sim.state.frames).min(initial=np.inf))


@pytest.mark.parametrize("method, tolerance", [("impulse", 1e-9), ("lcp", 0.03)])
@pytest.mark.parametrize("restitution", [0.0, 0.5, 0.9])
def test_ball_bounces_with_its_restitution(method, tolerance, restitution):
    ball = {"name": "ball", "mass": 1.0, "inertia": [0.004] * 3, "position": [0, 0, 1.1],
            "shape": {"type": "sphere", "radius": 0.1}, "restitution": restitution}
    sim = simulate_contact([ball], [floor()], method)
    impact_time, impact_speed = math.sqrt(2.0 / G), math.sqrt(2 * G * 1.0)
    worst, rising = 0.0, None
    for _ in range(60):
        sim.step()
        worst = min(worst, sim.position("ball")[2] - 0.1)
        if rising is None and sim.time > impact_time:  # the first step after the bounce
            rising = sim.velocity("ball")[2] + G * (sim.time - impact_time)  # the speed it left the floor with
    assert worst >= -1e-6
    if restitution == 0:
        assert abs(sim.velocity("ball")[2]) < 1e-9 and abs(sim.position("ball")[2] - 0.1) < 1e-6
    else:
        assert rising == pytest.approx(restitution * impact_speed, abs=tolerance * impact_speed)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("degrees", [15.0, 25.0, 35.0, 45.0])
def test_block_on_an_incline_sticks_or_slides_by_coulomb(method, degrees):
    slope = math.radians(degrees)
    normal = [-math.sin(slope), 0, math.cos(slope)]
    downhill = np.array([-math.cos(slope), 0, -math.sin(slope)])
    turn = [math.cos(-slope / 2), 0, math.sin(-slope / 2), 0]
    sim = simulate_contact([box_body(position=0.1 * np.array(normal), orientation=turn)], [floor(normal)], method)
    start = sim.position("box")
    sim.run(1.0)
    travelled = float((sim.position("box") - start) @ downhill)
    acceleration = G * (math.sin(slope) - 0.5 * math.cos(slope))
    if acceleration <= 0:
        assert abs(travelled) < 1e-7  # below atan(mu): it stays
    else:
        assert travelled == pytest.approx(0.5 * acceleration * sim.time**2, rel=1e-6)
    assert abs(float((sim.position("box") - start) @ normal)) < 1e-6  # and it does not sink


@pytest.mark.parametrize("method, creep", [("impulse", 1e-8), ("lcp", 1e-6)])
def test_resting_box_is_still(method, creep):
    """The LCP's tiny regularising compliance lets a resting box creep about 1e-7 m a second."""
    sim = simulate_contact([box_body()], [floor()], method)
    sim.run(0.5)
    before = sim.position("box")
    sim.run(1.5)
    assert np.abs(sim.position("box") - before).max() < creep
    assert np.abs(sim.velocity("box")).max() < 1e-6 and np.abs(sim.angular_velocity("box")).max() < 1e-5


@pytest.mark.parametrize("method", METHODS)
def test_tumbling_box_never_sinks_below_dmax(method):
    turn = [math.cos(0.4), math.sin(0.4) * 0.6, math.sin(0.4) * 0.8, 0]
    body = box_body(position=(0, 0, 0.6), orientation=turn, angular_velocity=[2.0, -1.0, 0.5], velocity=[0.5, 0, 0])
    sim = simulate_contact([body], [floor()], method, dmax=1e-7)
    worst = 0.0
    for _ in range(150):
        sim.step()
        worst = min(worst, lowest_gap(sim))
    assert worst >= -1e-7
    assert np.linalg.norm(sim.velocity("box")) < 1e-3  # it came to rest


@pytest.mark.parametrize("method", METHODS)
def test_box_settles_on_a_terrain_without_jitter_or_penetration(method):
    sim = simulate_contact([box_body(position=(0.1, -0.05, 0.5), orientation=(0.95, 0.1, 0.2, 0.2), friction=0.8)],
                   [terrain()], method, dmax=1e-7)
    worst = 0.0
    for _ in range(200):
        sim.step()
        worst = min(worst, lowest_gap(sim))
    settled = sim.position("box")
    sim.run(0.5)
    assert worst >= -1e-7
    assert np.abs(sim.position("box") - settled).max() < 1e-7  # still: no creep, no jitter
    assert sim.position("box")[2] > 0.0


def test_elastic_head_on_collision_swaps_velocities():
    balls = [{"name": name, "mass": 1.0, "inertia": [0.004] * 3, "position": [x, 0, 0], "velocity": [v, 0, 0],
              "shape": {"type": "sphere", "radius": 0.1}, "restitution": 1.0, "friction": 0.0}
             for name, x, v in (("left", -0.5, 1.0), ("right", 0.5, 0.0))]
    sim = simulate_contact(balls, [], "impulse", gravity=None) if False else Simulation(Model.from_dict(
        {**scene(balls, [], gravity=(0, 0, 0), h=0.01), "obstacles": []}))
    sim.run(1.5)
    assert sim.velocity("left") == pytest.approx([0, 0, 0], abs=1e-9)
    assert sim.velocity("right") == pytest.approx([1, 0, 0], abs=1e-9)


@pytest.mark.parametrize("method", METHODS)
def test_jointed_arm_falls_onto_the_floor_and_keeps_its_joint(method):
    arm = rod("arm", [0, 0, 0.5], [1, 0, 0.5], radius=0.03)
    arm["shape"] = {"type": "capsule", "radius": 0.03, "length": 1.0}
    arm["orientation"] = [math.cos(math.pi / 4), 0, math.sin(math.pi / 4), 0]  # the capsule's z along the rod
    arm["inertia"] = [1.0 / 12, 1.0 / 12, 0.5 * 0.03**2]
    joint = {"name": "hip", "type": "hinge", "body_a": "world", "body_b": "arm", "anchor": [0, 0, 0.5],
             "axis": [0, 1, 0]}
    sim = simulate_contact([arm], [floor()], method, joints=[joint], h=0.005, dmax=1e-8)
    worst_gap, worst_joint = 0.0, 0.0
    for _ in range(300):
        sim.step()
        worst_gap = min(worst_gap, lowest_gap(sim))
        worst_joint = max(worst_joint, sim.max_joint_error())
    assert worst_gap >= -1e-8 and worst_joint < 1e-8
    assert sim.joint_position("hip") == pytest.approx(math.asin(0.47), abs=1e-4)  # resting on its tip


BAD = [
    ({"shape": {"type": "cone"}}, "body 'box', shape: field 'type' must be one of"),
    ({"shape": {"type": "sphere", "radius": 0}}, "field 'radius' must be positive"),
    ({"shape": {"type": "box", "size": [1, 0, 1]}}, "field 'size' must be positive in every direction"),
    ({"shape": {"type": "convex", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]}}, "must span a volume"),
    ({"shape": {"type": "convex", "vertices": [[0, 0, float("nan")]] * 4}}, "field 'vertices' must be finite"),
    ({"shape": {"type": "points", "points": []}}, "field 'points' needs a list of at least 1 points"),
    ({"restitution": 1.5}, "field 'restitution' must be between 0 (plastic) and 1 (elastic)"),
    ({"friction": -1}, "field 'friction' must be at least 0"),
]


@pytest.mark.parametrize("extra, message", BAD, ids=[m[:30] for _, m in BAD])
def test_bad_shapes_name_the_body(extra, message):
    with pytest.raises(ModelError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Model.from_dict({**scene([box_body(**extra)], []), "obstacles": [floor()]})


BAD_OBSTACLES = [
    ({"type": "plane", "normal": [0, 0, 0]}, "obstacle 'floor': field 'normal' must not be zero"),
    ({"type": "mesh", "vertices": [[0, 0, 0]], "triangles": []},
     "obstacle 'floor': field 'triangles' must not be empty"),
    ({"type": "mesh", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "triangles": [[0, 1, 5]]}, "whole vertex indices"),
    ({"type": "mesh", "vertices": [[0, 0, 0], [1, 0, 0], [2, 0, 0]], "triangles": [[0, 1, 2]]},
     "triangles of zero area"),
    ({"type": "mesh", "vertices": [[0, 0, float("inf")], [1, 0, 0], [0, 1, 0]], "triangles": [[0, 1, 2]]},
     "field 'vertices' must be finite"),
    ({"type": "wall"}, "obstacle 'floor': field 'type' must be one of"),
]


@pytest.mark.parametrize("fields, message", BAD_OBSTACLES, ids=[m[:30] for _, m in BAD_OBSTACLES])
def test_bad_obstacles_are_named(fields, message):
    obstacle = {"name": "floor", "point": [0, 0, 0], "normal": [0, 0, 1], **fields}
    if fields["type"] != "plane":
        obstacle.pop("point")
        obstacle.pop("normal")
    with pytest.raises(ModelError, match=message):
        Model.from_dict({**scene([box_body()], []), "obstacles": [obstacle]})


def test_contact_settings_are_checked():
    with pytest.raises(ModelError, match="settings: field 'contact_method' must be one of impulse, lcp"):
        Model.from_dict({**scene([box_body()], [], contact_method="penalty"), "obstacles": [floor()]})


@pytest.mark.parametrize("method", METHODS)
def test_box_rests_on_a_box_and_a_ball_rolls_against_a_box(method):
    # vertex contacts: the smaller box's corners stand on the larger box's face (edge-edge crossings,
    # which an overhanging stack would need, are not generated)
    bodies = [box_body("low", position=(0, 0, 0.1)), box_body("top", position=(0.03, 0.02, 0.25), size=0.1),
              {"name": "ball", "mass": 1.0, "inertia": [0.004] * 3, "position": [0.6, 0.5, 0.1],
               "velocity": [0, -1.0, 0], "shape": {"type": "sphere", "radius": 0.1}, "friction": 0.0}]
    sim = simulate_contact(bodies, [floor()], method)
    sim.run(1.0)
    assert sim.position("top") == pytest.approx([0.03, 0.02, 0.25], abs=1e-5)  # the stack stands, still
    assert sim.position("low") == pytest.approx([0.0, 0.0, 0.1], abs=1e-5)
    ball = {**bodies[2], "position": [0.6, 0.0, 0.1], "velocity": [-1.0, 0, 0]}
    sim = simulate_contact([box_body("low", position=(0, 0, 0.1)), ball], [floor()], method)
    sim.run(1.0)
    assert sim.position("ball")[0] - sim.position("low")[0] >= 0.2 - 1e-6  # it stays outside the box's face
    assert sim.position("low")[0] < -0.01  # and pushed the box along


@pytest.mark.parametrize("method", METHODS)
def test_convex_hull_stands_on_a_convex_hull(method):
    """Two tetrahedra-topped prisms given as vertex clouds: the upper rests on the lower's top face."""
    prism = [[x, y, z] for x in (-0.15, 0.15) for y in (-0.15, 0.15) for z in (-0.1, 0.1)] + [[0.0, 0.0, 0.12]]
    lower = {"name": "lower", "mass": 2.0, "inertia": [0.03] * 3, "position": [0, 0, 0.1],
             "shape": {"type": "convex", "vertices": prism}}
    small = [[x, y, z] for x in (-0.05, 0.05) for y in (-0.05, 0.05) for z in (-0.05, 0.05)]
    upper = {"name": "upper", "mass": 0.5, "inertia": [0.001] * 3, "position": [0.06, 0.0, 0.4],
             "shape": {"type": "convex", "vertices": small}}
    sim = simulate_contact([lower, upper], [floor()], method, dmax=1e-7)
    sim.run(1.5)
    # the upper hull slid off the lower one's apex face and rests on one of its sloping faces, or on
    # the flat part: either way it stays above the lower hull, never inside it
    from mechbake.solver.contact.shapes import convex_faces

    from mechbake.solver.rotation import quaternion_to_matrix

    normals, offsets = convex_faces(np.array(prism))
    corners = sim.position("upper") + np.array(small) @ quaternion_to_matrix(sim.orientation("upper")).T
    lower_frame = quaternion_to_matrix(sim.orientation("lower"))
    inside = ((corners - sim.position("lower")) @ lower_frame) @ normals.T - offsets
    assert inside.max(axis=1).min() >= -1e-6  # every corner of the upper hull is outside the lower one
    assert abs(sim.velocity("upper")[2]) < 1e-3


def square_sheet(name, corners, clockwise=False, **extra) -> dict:
    """An open mesh of two triangles over four corners given counter-clockwise seen from its front."""
    triangles = [[0, 1, 2], [0, 2, 3]]
    if clockwise:  # as after Flip Normals: the front is now the other side
        triangles = [t[::-1] for t in triangles]
    return {"name": name, "type": "mesh", "vertices": [list(c) for c in corners], "triangles": triangles, **extra}


def lowest_corner(sim, name="box", size=0.2) -> float:
    from mechbake.solver.rotation import quaternion_to_matrix

    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * size / 2
    return float((sim.position(name) + corners @ quaternion_to_matrix(sim.orientation(name)).T)[:, 2].min())


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("clockwise", [False, True], ids=["front up", "flipped normals"])
def test_box_lands_and_rests_on_an_open_mesh_floor_either_way_up(method, clockwise):
    floor_mesh = square_sheet("floor", [[-2, -2, 0], [2, -2, 0], [2, 2, 0], [-2, 2, 0]], clockwise, friction=0.8)
    turn = [math.cos(0.2), math.sin(0.2) * 0.6, math.sin(0.2) * 0.8, 0]
    sim = simulate_contact([box_body(position=(0.1, 0.2, 0.5), orientation=turn, friction=0.8)], [floor_mesh], method,
                   dmax=1e-7)
    worst = 0.0
    for _ in range(150):
        sim.step()
        worst = min(worst, lowest_corner(sim))
    settled = sim.position("box")
    sim.run(0.5)
    assert worst >= -1e-6  # never through the sheet, whichever way its normals point
    assert sim.position("box")[2] == pytest.approx(0.1, abs=1e-6)  # resting flat on a face
    assert np.abs(sim.position("box") - settled).max() < 1e-6


@pytest.mark.parametrize("method", METHODS)
def test_ball_thrown_at_the_back_of_a_single_sheet_wall_stays_in_front_of_it(method):
    """A vertical sheet at x = 1 facing +x, met from -x: the ball stops at it, as at its front."""
    wall = square_sheet("wall", [[1, -1, -1], [1, 1, -1], [1, 1, 1], [1, -1, 1]], friction=0.0)
    ball = {"name": "ball", "mass": 1.0, "inertia": [0.004] * 3, "position": [0, 0, 0], "velocity": [3.0, 0, 0],
            "shape": {"type": "sphere", "radius": 0.1}, "friction": 0.0}
    data = scene([ball], [], gravity=(0, 0, 0), h=0.01, contact_method=method)
    data["obstacles"] = [wall]
    sim = Simulation(Model.from_dict(data))
    furthest = 0.0
    for _ in range(60):
        sim.step()
        furthest = max(furthest, sim.position("ball")[0])
    assert furthest <= 0.9 + 1e-6
    assert sim.velocity("ball")[0] <= 1e-6  # stopped by the sheet (restitution 0), not through it


@pytest.mark.parametrize("method", METHODS)
def test_a_linkage_whose_shapes_never_meet_moves_as_without_shapes_and_does_no_contact_work(method):
    """A four-bar whose links and a fixed ground block all have hulls that never come near each other:
    the same motion as without shapes, to the last digit, and no sub-step spends time on contacts."""
    import mechanisms

    plain = mechanisms.four_bar()
    shaped = mechanisms.four_bar()
    cube = [[x, y, z] for x in (-0.03, 0.03) for y in (-0.03, 0.03) for z in (-0.03, 0.03)]
    for body in shaped["bodies"]:
        body["shape"] = {"type": "convex", "vertices": cube}
    shaped["bodies"].append({"name": "ground", "fixed": True, "position": [0.5, 0, -0.5],
                             "shape": {"type": "convex", "vertices": [[3 * c for c in v] for v in cube]}})
    shaped["settings"]["contact_method"] = method
    with_shapes, without = Simulation(Model.from_dict(shaped)), Simulation(Model.from_dict(plain))
    assert with_shapes.model.contacts.enabled
    with_shapes.run(2.0)
    without.run(2.0)
    for body in ("crank", "coupler", "rocker"):
        assert np.array_equal(with_shapes.position(body), without.position(body))
    assert with_shapes.stats["contact_substeps"] == 0


def servo_car(method: str) -> Simulation:
    """A 10 kg chassis on four ball wheels of 0.1 m, each on a hinge with a velocity servo at 5 rad/s."""
    bodies = [{"name": "chassis", "mass": 10.0, "inertia": [0.5, 1.0, 1.2], "position": [0, 0, 0.3],
               "shape": {"type": "box", "size": [1.0, 0.6, 0.2]}}]
    joints = []
    for k, (x, y) in enumerate([(0.4, 0.4), (0.4, -0.4), (-0.4, 0.4), (-0.4, -0.4)]):
        bodies.append({"name": f"wheel{k}", "mass": 1.0, "inertia": [0.005] * 3, "position": [x, y, 0.1],
                       "shape": {"type": "sphere", "radius": 0.1}, "friction": 0.9})
        joints.append({"name": f"axle{k}", "type": "hinge", "body_a": "chassis", "body_b": f"wheel{k}",
                       "anchor": [x, y, 0.1], "axis": [0, 1, 0],
                       "motor": {"mode": "velocity", "target": 5.0, "max_torque": 20.0}})
    return simulate_contact(bodies, [floor(friction=0.9)], method, joints, h=0.005)


@pytest.mark.parametrize("method", METHODS)
def test_a_servo_car_drives_off_at_its_wheels_rolling_speed(method):
    """Joints and contacts together: with the LCP, Lemke can end on a ray once the joints' impulses are
    in; that sub-step then goes the impulse way (counted) instead of raising LemkeFailure."""
    sim = servo_car(method)
    sim.run(1.0)
    assert sim.velocity("chassis")[0] == pytest.approx(5.0 * 0.1, rel=0.01)  # rolling: omega r
    assert sim.position("chassis")[2] == pytest.approx(0.3, abs=1e-5)


def puck(name="puck", x=0.0, sides=30) -> dict:
    """A flat prism of `sides` sides (every corner a probe: the hull keeps up to 64)."""
    angles = 2 * np.pi * np.arange(sides) / sides
    corners = [[0.2 * np.cos(a), 0.2 * np.sin(a), z] for z in (-0.1, 0.1) for a in angles]
    return {"name": name, "mass": 1.0, "inertia": [0.02] * 3, "position": [x, 0, 0.1],
            "shape": {"type": "convex", "vertices": corners}}


def test_a_face_resting_on_a_face_touches_at_four_corners_spanning_it():
    """A 30-sided puck flat on the floor: its manifold is four of its 30 corners, spanning nearly
    the whole face, and it rests still (the LCP cannot afford one contact per corner)."""
    from mechbake.solver.contact.detection import find_contacts

    sim = simulate_contact([puck()], [floor()], "lcp")
    contacts = find_contacts(sim.model, sim.state.frames, sim.state.frames)
    points = contacts.geometry(sim.state.frames)[0]
    assert len(contacts) == 4
    # four corners of the 30-gon spanning nearly its whole area: about the square inscribed in it
    hull_area = 0.5 * abs(np.cross(points[2] - points[0], points[1] - points[0])[2]) + 0.5 * abs(
        np.cross(points[3] - points[0], points[1] - points[0])[2])
    assert hull_area == pytest.approx(2 * 0.2 ** 2, rel=0.05)
    sim.run(1.0)
    assert sim.position("puck") == pytest.approx([0, 0, 0.1], abs=1e-6)


def test_contacts_are_cut_pair_by_pair():
    """Two pucks on the floor: four contacts each."""
    from mechbake.solver.contact.detection import find_contacts
    from mechbake.solver.contact.reduction import four_per_face

    sim = simulate_contact([puck("left", -0.5), puck("right", 0.5)], [floor()], "lcp")
    contacts = find_contacts(sim.model, sim.state.frames, sim.state.frames)
    kept = four_per_face(contacts, sim.state.frames)
    assert sorted(np.unique(kept.body_b, return_counts=True)[1]) == [4, 4]


def slab(name, low, high) -> dict:
    """A closed box mesh between two corners, as a scaled Cube floor is in Blender (12 triangles)."""
    vertices = [[(low, high)[x][0], (low, high)[y][1], (low, high)[z][2]]
                for x in (0, 1) for y in (0, 1) for z in (0, 1)]
    quads = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]]
    triangles = [t for a, b, c, d in quads for t in ([a, b, c], [a, c, d])]
    return {"name": name, "type": "mesh", "vertices": vertices, "triangles": triangles}


GROUNDS = {"plane": floor(), "sheet": square_sheet("floor", [[-2, -2, 0], [2, -2, 0], [2, 2, 0], [-2, 2, 0]]),
           "slab": slab("floor", [-2, -2, -0.2], [2, 2, 0.0])}


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("depth", [0.005, 0.05])
@pytest.mark.parametrize("ground", list(GROUNDS))
def test_a_box_started_inside_the_floor_comes_out_gently_and_rests_on_it(method, depth, ground):
    """A box placed 5 or 50 mm into the floor is pushed out at no more than 0.2 m/s, keeps no speed
    from it (it jumped 1.3 m) and rests on the floor; the start is named in a warning. A plane is a
    half-space; in Blender every floor is a mesh, a Plane (an open sheet of two triangles) or a Cube
    scaled flat (a closed slab), which the box pierces with its centre above the top face: it fell
    through the sheet (18 m in 2 s) and sank onto the inside of the slab's bottom face, without a word."""
    sim = simulate_contact([box_body(position=(0.3, -0.7, 0.1 - depth))], [GROUNDS[ground]], method)
    assert sim.warnings == [f"body 'box' starts {1000 * depth:.3g} mm inside obstacle 'floor'; they are pushed "
                            f"apart at up to 0.2 m/s"]
    heights, speeds = [], []
    sim.run(1.0, callback=lambda s: (heights.append(s.position("box")[2]), speeds.append(s.velocity("box")[2])))
    assert max(heights) <= 0.1 + 1e-6
    assert max(np.diff(heights)) <= 0.2 * 0.01 + 1e-9  # out at 0.2 m/s at most
    assert max(np.abs(speeds)) < 1e-6  # and no speed left from it
    assert heights[-1] == pytest.approx(0.1, abs=1e-6)
    assert np.abs(sim.position("box")[:2] - [0.3, -0.7]).max() < 1e-6  # straight up


@pytest.mark.parametrize("method", METHODS)
def test_a_box_beside_a_shelf_keeps_its_corners_on_their_own_side(method):
    """A 0.2 m box on the floor beside a shelf: one triangle 0.9 mm below the box's top, its front edge
    running diagonally 0.1 mm from one of the box's upright edges. That top corner is within the margin
    of the shelf's edge and beyond its plane from the box's centre, but the segment from the centre to
    it crosses no triangle (it passes under the edge, though within the triangle's bounding box), so
    it stays on its own side, 0.9 mm from the edge, and nothing pushes the box."""
    z, front = 0.1991, 0.2 + 1e-4 * math.sqrt(2)  # the shelf's edge: x + y = front
    shelf = {"name": "shelf", "type": "mesh", "triangles": [[0, 1, 2]],
             "vertices": [[-0.8, front + 0.8, z], [1.2, front - 1.2, z], [2.0, 2.0, z]]}
    sim = simulate_contact([box_body(position=(0, 0, 0.1))], [floor(), shelf], method)
    assert sim.warnings == []
    sim.run(0.5)
    assert np.abs(sim.position("box") - [0, 0, 0.1]).max() < 1e-7


def test_overlapping_boxes_come_apart_gently():
    """A 10 cm box placed 20 mm down into a 20 cm one resting on the floor."""
    sim = simulate_contact([box_body("lower", position=(0, 0, 0.1)),
                            box_body("upper", position=(0, 0, 0.23), size=0.1)],
                           [floor()], "impulse")
    assert sim.warnings == ["body 'upper' starts 20 mm inside body 'lower'; they are pushed apart at up to 0.2 m/s"]
    sim.run(1.0)
    assert sim.position("upper")[2] == pytest.approx(0.25, abs=1e-5)
    assert abs(sim.velocity("upper")[2]) < 1e-5


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("obstacle", ["plane", "mesh"])
def test_a_box_whose_principal_axes_are_turned_lands_on_its_faces(method, obstacle):
    """A box whose inertia is given as a full matrix (as Blender's mesh integration gives it): its
    principal axes, in which the solver holds it, are turned against the box's own, and its corners
    must be where the box's are (a Blender crate fell through the floor)."""
    turn = np.array([[0.36, 0.48, -0.8], [-0.8, 0.6, 0.0], [0.48, 0.64, 0.6]])  # a rotation
    inertia = turn @ np.diag([0.004, 0.006, 0.008]) @ turn.T
    tilt = np.array([0.98, 0.15, 0.1, 0.0])
    body = box_body(position=(0, 0, 0.3), orientation=tuple(tilt / np.linalg.norm(tilt)), inertia=inertia.tolist())
    ground = floor() if obstacle == "plane" else square_sheet("floor", [[-2, -2, 0], [2, -2, 0], [2, 2, 0], [-2, 2, 0]])
    sim = simulate_contact([body], [ground], method, dmax=1e-6)
    worst = np.inf
    for _ in range(100):
        sim.step()
        worst = min(worst, lowest_corner(sim))
    assert worst >= -1e-6
    assert lowest_corner(sim) == pytest.approx(0.0, abs=1e-6)


@pytest.mark.parametrize("method", METHODS)
def test_a_box_on_a_hinge_swings_onto_the_floor_and_rests_there(method):
    """The hinge lets the box's contacts slip one way only (their K is singular, now that the system
    solve drops dependent rows exactly): friction there must be finite (it made the state NaN)."""
    box = box_body(position=(1.0, 0.0, 0.12))
    hinge = {"name": "arm", "type": "hinge", "body_a": "world", "body_b": "box", "anchor": [0.8, 0, 0.12],
             "axis": [0, 1, 0]}
    sim = simulate_contact([box], [floor()], method, joints=[hinge], dmax=1e-6)
    sim.run(0.5)
    assert np.isfinite(sim.velocity("box")).all()
    assert lowest_corner(sim) == pytest.approx(0.0, abs=1e-5)
    assert np.linalg.norm(sim.velocity("box")) < 1e-3


@pytest.mark.parametrize("method", METHODS)
def test_a_richardson_step_leaves_touching_what_its_halved_steps_leave_touching(method):
    """Schmitt §8 with contacts: the combined state goes on from the halved steps, so a box resting on
    the floor is still touching it afterwards (the next step tells an impact from a rest by that), as
    after plain steps of h/2 from the same state."""
    box = box_body(position=(0, 0, 0.1))
    extrapolated = simulate_contact([box], [floor()], method, extrapolation="richardson")
    halved = simulate_contact([box], [floor()], method, h=0.005)
    extrapolated.run(0.1)
    halved.state = extrapolated.state.copy()
    halved.run(0.01)
    extrapolated.step()
    assert len(halved.state.touching) == 4  # the box's bottom corners
    assert extrapolated.state.touching == halved.state.touching


@pytest.mark.parametrize("levers", ["start", "thirds"])
def test_an_arm_spinning_on_a_frictionless_floor_keeps_its_energy(levers):
    """A ball on a hinge about z sweeps round on a frictionless floor at 5 rad/s, touching it every
    step: the contact loop corrects the joint with its levers at the step's start, so the velocity
    correction must take the step's end too, whatever the levers setting (the pair's levers must sum
    to 1, or the energy grows)."""
    ball = {"name": "ball", "mass": 1.0, "inertia": [0.001] * 3, "position": [1.0, 0, 0.05], "velocity": [0, 5.0, 0],
            "shape": {"type": "sphere", "radius": 0.05}, "friction": 0.0}
    hinge = {"name": "pivot", "type": "hinge", "body_a": "world", "body_b": "ball", "anchor": [0, 0, 0.05],
             "axis": [0, 0, 1]}
    sim = simulate_contact([ball], [floor(friction=0.0)], "impulse", joints=[hinge], levers=levers)
    start = sim.energy()
    sim.run(1.0)
    assert sim.stats["contact_substeps"] == sim.stats["steps"]  # it touches the floor every step
    assert abs(sim.energy() - start) < 2e-3 * start


def shaped(name, kind, x) -> dict:
    """A body of each kind of shape, 0.2 m across, resting on the floor with its centre at x."""
    shapes = {"box": {"type": "box", "size": [0.2, 0.2, 0.2]},
              "hull": {"type": "convex", "vertices": [[a, b, c] for a in (-0.1, 0.1) for b in (-0.1, 0.1)
                                                      for c in (-0.1, 0.1)]},
              "sphere": {"type": "sphere", "radius": 0.1},
              "capsule": {"type": "capsule", "radius": 0.1, "length": 0.2},
              "points": {"type": "points", "points": [[0, 0, -0.1], [0.1, 0, -0.1], [-0.1, 0, -0.1]]}}
    lying = [math.sqrt(0.5), 0.0, math.sqrt(0.5), 0.0]  # a capsule along x
    return {"name": name, "mass": 1.0, "inertia": [0.01] * 3, "position": [x, 0, 0.1], "shape": shapes[kind],
            **({"orientation": lying} if kind == "capsule" else {})}


@pytest.mark.parametrize("kinds, missing", [(("box", "box"), 2), (("sphere", "capsule", "points"), 2),
                                            (("hull", "sphere"), 1), (("box", "capsule"), 1),
                                            (("hull", "box", "hull"), 1)])
def test_a_scene_compiles_the_narrow_phase_of_its_kinds_only_and_finds_what_every_kind_finds(kinds, missing):
    """Each body 0.5 mm into the next and on the floor: the narrow phase compiled for the scene's kinds
    of shape alone (None for the others) finds the same points as the one compiled for every kind."""
    from mechbake.solver.codes import BODIES, PLANE
    from mechbake.solver.contact.detection import EVERY_SHAPE, compiled_shapes, find_contacts

    reach = {"capsule": 0.2}  # half of each body's length along x, a capsule lying along it
    bodies, x = [], 0.0
    for k, kind in enumerate(kinds):
        if k:
            x += reach.get(kinds[k - 1], 0.1) + reach.get(kind, 0.1) - 0.0005
        bodies.append(shaped(f"{kind}{k}", kind, x))
    sim = simulate_contact(bodies, [floor()], "impulse")
    own = compiled_shapes(sim.model.contacts, every=False)
    assert own[:3].count(None) == missing and own[3] is None  # the floor is a plane: no mesh's probes either
    frames = sim.state.frames
    found = find_contacts(sim.model, frames, frames, shapes=own)
    every = find_contacts(sim.model, frames, frames, shapes=EVERY_SHAPE)
    assert found.key == every.key
    assert {key[0] for key in found.key} == {BODIES, PLANE}
    for field in ("body_a", "body_b", "probe_b", "radius", "surface_a", "normal_a", "segment_a", "radius_a"):
        assert np.array_equal(getattr(found, field), getattr(every, field)), field
