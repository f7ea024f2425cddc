"""Builds the sample mechanisms as ready-to-bake .blend files (needs the bpy module or Blender).

    python sample_scenes/build_blend.py NAME OUT.blend      NAME: one of the scenes below, or "all" with a folder
    blender -b -P sample_scenes/build_blend.py -- NAME OUT.blend
"""
import math
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tools"))
sys.path.insert(0, str(HERE))
from checkout import import_checkout_as_mechbake  # noqa: E402

mechbake = import_checkout_as_mechbake()

import bpy  # noqa: E402

import mechanisms  # noqa: E402
from blender_build import add_ball, add_box, add_joint, add_marker, add_rod, key_turning, place_origin, \
    set_frames  # noqa: E402


def pendulum():
    """Schmitt Table 9.1: a small 1 kg ball on a massless 1 m rod, 10 degrees out."""
    angle = math.radians(10)
    bob = add_ball("Bob", 0.02, (math.sin(angle), 0, -math.cos(angle)), mass=1.0)
    add_joint("Rod", "DISTANCE", (0, 0, 0), body_b=bob, target=bob)
    set_frames(1, 250, substeps=20, dmax=1e-9)


def double_pendulum():
    elbow = (1.0, 0.0, 0.0)
    tip = (1.0 + math.sqrt(0.5), 0.0, -math.sqrt(0.5))
    upper = add_rod("Upper", (0, 0, 0), elbow, radius=0.03)
    lower = add_rod("Lower", elbow, tip, radius=0.03)
    add_joint("Shoulder", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=upper)
    add_joint("Elbow", "HINGE", elbow, axis=(0, 1, 0), body_a=upper, body_b=lower)
    set_frames(1, 250, substeps=20, dmax=1e-7)


def eight_loop():
    """Schmitt §9: 8 rods of 1 m and 1 kg on 9 ball joints, hung at both ends, released in a horizontal plane."""
    points = mechanisms.eight_loop_points()
    rods = [add_rod(f"Rod{k + 1}", points[k], points[k + 1], radius=0.01, mass=1.0, sides=16) for k in range(8)]
    add_joint("Hang1", "BALL", points[0], body_b=rods[0])
    for k in range(1, 8):
        add_joint(f"Link{k + 1}", "BALL", points[k], body_a=rods[k - 1], body_b=rods[k])
    add_joint("Hang9", "BALL", points[8], body_a=rods[7])
    set_frames(1, 250, substeps=4, dmax=1e-5)


def four_bar():
    data = mechanisms.four_bar()
    pins = {j["name"]: j["anchor"] for j in data["joints"]}
    a, b, c, d = pins["ground_crank"], pins["crank_coupler"], pins["coupler_rocker"], pins["rocker_ground"]
    crank, coupler, rocker = add_rod("Crank", a, b, 0.03), add_rod("Coupler", b, c, 0.03), add_rod("Rocker", c, d, 0.03)
    for name, body_a, body_b, place in (("GroundCrank", None, crank, a), ("CrankCoupler", crank, coupler, b),
                                        ("CouplerRocker", coupler, rocker, c), ("RockerGround", rocker, None, d)):
        add_joint(name, "HINGE", place, axis=(0, 1, 0), body_a=body_a, body_b=body_b)
    set_frames(1, 250, substeps=10, dmax=1e-7)


def animated_crank():
    """The four-bar with an Animated crank: its rotation is keyed (linear, half a turn a second) about its
    origin on the axle, and the Dynamic coupler and rocker follow it through their hinges."""
    data = mechanisms.four_bar()
    pins = {j["name"]: j["anchor"] for j in data["joints"]}
    a, b, c, d = pins["ground_crank"], pins["crank_coupler"], pins["coupler_rocker"], pins["rocker_ground"]
    crank = place_origin(add_rod("Crank", a, b, 0.03, role="ANIMATED"), a)
    key_turning(crank, 1, 0.5, 1, 25)
    coupler, rocker = add_rod("Coupler", b, c, 0.03), add_rod("Rocker", c, d, 0.03)
    # no hinge holds the crank to the ground: its animation is its axle
    for name, body_a, body_b, place in (("CrankCoupler", crank, coupler, b), ("CouplerRocker", coupler, rocker, c),
                                        ("RockerGround", rocker, None, d)):
        add_joint(name, "HINGE", place, axis=(0, 1, 0), body_a=body_a, body_b=body_b)
    set_frames(1, 250, substeps=10, dmax=1e-7)


def crank_slider():
    """A servo turns the crank at 2 rad/s; the connecting rod pushes a piston along a slider."""
    crank = add_rod("Crank", (0, 0, 0), (0.3, 0, 0), 0.03)
    conrod = add_rod("Conrod", (0.3, 0, 0), (1.3, 0, 0), 0.02)
    piston = add_box("Piston", (0.2, 0.2, 0.2), (1.3, 0, 0))
    add_joint("CrankAxle", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=crank, motor_mode="VELOCITY",
              motor_speed=-2.0, motor_max_torque=200.0)
    add_joint("CrankPin", "HINGE", (0.3, 0, 0), axis=(0, 1, 0), body_a=crank, body_b=conrod)
    add_joint("WristPin", "HINGE", (1.3, 0, 0), axis=(0, 1, 0), body_a=conrod, body_b=piston)
    add_joint("Cylinder", "SLIDER", (1.3, 0, 0), axis=(1, 0, 0), body_b=piston)
    set_frames(1, 250, substeps=10, dmax=1e-7)


def spring_suspension():
    """A 4 kg box hung from a frame by four soft springs, released at their rest length."""
    box = add_box("Box", (0.4, 0.4, 0.2), (0, 0, -1.0), mass=4.0)
    add_box("Frame", (1.2, 1.2, 0.05), (0, 0, 0.05), role="FIXED")
    for k, (x, y) in enumerate(((-0.5, -0.5), (-0.5, 0.5), (0.5, -0.5), (0.5, 0.5))):
        lower = add_marker(f"SpringEnd{k + 1}", (0.4 * x, 0.4 * y, -0.9))
        add_joint(f"Spring{k + 1}", "SPRING", (x, y, 0.0), body_b=box, target=lower, spring_stiffness=400.0,
                  spring_damping=4.0, spring_method="SOFT")
    set_frames(1, 250, substeps=10)


def pusher():
    """A servo turns a crank; the connecting rod drives a pusher block along a slider into a loose
    box that rests on the floor: contact and friction with a mechanism."""
    add_box("Floor", (4.0, 2.0, 0.1), (0.0, 0.0, -0.05), role="FIXED", shape="MESH")
    axle, pin, push = (-1.0, 0.0, 0.35), (-1.2, 0.0, 0.35), (-0.6, 0.0, 0.35)
    crank = add_rod("Crank", axle, pin, radius=0.03)
    conrod = add_rod("Conrod", pin, push, radius=0.02)
    block = add_box("Pusher", (0.2, 0.3, 0.3), push)
    add_box("Crate", (0.3, 0.3, 0.3), (0.02, 0.0, 0.15), mass=2.0)
    add_joint("Axle", "HINGE", axle, axis=(0, 1, 0), body_b=crank, motor_mode="VELOCITY", motor_speed=-3.0,
              motor_max_torque=200.0)
    add_joint("CrankPin", "HINGE", pin, axis=(0, 1, 0), body_a=crank, body_b=conrod)
    add_joint("PushPin", "HINGE", push, axis=(0, 1, 0), body_a=conrod, body_b=block)
    add_joint("Guide", "SLIDER", push, axis=(1, 0, 0), body_b=block)
    set_frames(1, 250, substeps=10)


def crate_stack():
    """Resting contact: three equal crates stacked (each one's corners on the edges of the face below),
    a crate resting half over the edge of another, and a log lying across a third, on a Fixed floor.
    Baked, nothing moves."""
    add_box("Floor", (4.0, 3.0, 0.1), (0.0, 0.0, -0.05), role="FIXED", shape="MESH")
    for k in range(3):
        add_box(f"Stacked{k + 1}", (0.4, 0.4, 0.4), (-1.2, 0.0, 0.2 + 0.4 * k), mass=10.0)
    add_box("Lower", (0.4, 0.4, 0.4), (0.0, 0.0, 0.2), mass=10.0)
    add_box("Overhanging", (0.4, 0.4, 0.4), (0.15, 0.05, 0.6), mass=10.0)
    add_box("Trestle", (0.4, 0.4, 0.4), (1.2, 0.0, 0.2), mass=10.0)
    add_rod("Log", (1.2, -0.3, 0.45), (1.2, 0.3, 0.45), radius=0.05, shape="CAPSULE")
    set_frames(1, 250, substeps=4, dmax=1e-5)


SCENES = {"pendulum": pendulum, "double_pendulum": double_pendulum, "eight_loop": eight_loop, "four_bar": four_bar,
          "animated_crank": animated_crank, "crank_slider": crank_slider, "spring_suspension": spring_suspension,
          "pusher": pusher, "crate_stack": crate_stack}


def build(name: str, path: str) -> None:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    SCENES[name]()
    bpy.ops.wm.save_as_mainfile(filepath=str(pathlib.Path(path).resolve()))


def main(argv: list[str]) -> int:
    if len(argv) != 2 or (argv[0] not in SCENES and argv[0] != "all"):
        print(f"usage: build_blend.py NAME OUT.blend  (NAME: {', '.join(SCENES)}; or: all FOLDER)", file=sys.stderr)
        return 2
    mechbake.register()
    try:
        if argv[0] == "all":
            pathlib.Path(argv[1]).mkdir(parents=True, exist_ok=True)
            for name in SCENES:
                build(name, str(pathlib.Path(argv[1]) / f"{name}.blend"))
                print(f"wrote {argv[1]}/{name}.blend")
        else:
            build(argv[0], argv[1])
            print(f"wrote {argv[1]}")
    finally:
        mechbake.unregister()
    return 0


if __name__ == "__main__":
    arguments = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else sys.argv[1:]
    sys.exit(main(arguments))
