"""Animated bodies. A body the artist animates (keys, drivers, constraints, parents)
follows its own animation through the bake and drives the mechanism through its joints and contacts
with the velocity its animation has; it is never keyed, and its animation is left as it was."""
import math

import bpy
import numpy as np
import pytest
from mathutils import Vector

import build_blend
from blender_build import add_ball, add_box, add_joint, add_rod, key_turning, place_origin, set_frames
from keys import curves, point_track, world_matrices
from mechbake import bake
from mechbake.keyframes import SLOTTED, action_fcurves
from mechbake.operators import last_problems

G, PIVOT_ACCELERATION, LENGTH = 9.81, 3.0, 1.0
FPS, LAST_FRAME = 24, 72  # three seconds


def seconds(frame) -> float:
    return (frame - 1) / FPS


def support_x(frame) -> float:
    """Where the support is: accelerating along x from rest at the first frame."""
    return 0.5 * PIVOT_ACCELERATION * seconds(frame) ** 2


def key_every_frame(obj, offset: float = 0.0) -> None:
    for frame in range(1, LAST_FRAME + 2):
        obj.location.x = offset + support_x(frame)
        obj.keyframe_insert("location", index=0, frame=frame)
    obj.location.x = offset


def keyed_hand(location=(0.0, 0.0, 0.0)):
    """A plain empty the artist animates, which the support follows."""
    hand = bpy.data.objects.new("Hand", None)
    bpy.context.scene.collection.objects.link(hand)
    hand.location = location
    key_every_frame(hand, offset=location[0])
    return hand


def drive_by_keyed_time(support) -> None:
    """x = a t² / 2 by a driver reading the support's own keyed property "time" (seconds, linear)."""
    support["time"] = 0.0
    for frame in (1, 1 + FPS):
        support["time"] = seconds(frame)
        support.keyframe_insert('["time"]', frame=frame)
    for curve in action_fcurves(support):
        curve.extrapolation = "LINEAR"
        for key in curve.keyframe_points:
            key.interpolation = "LINEAR"
    driver = support.driver_add("location", 0).driver
    driver.type = "SCRIPTED"
    time = driver.variables.new()
    time.name = "t"
    time.targets[0].id = support
    time.targets[0].data_path = '["time"]'
    driver.expression = f"0.5 * {PIVOT_ACCELERATION} * t * t"


def animate_support(support, way: str) -> None:
    if way == "keyed":
        key_every_frame(support)
    elif way == "driven":
        drive_by_keyed_time(support)
    elif way == "parented":  # a scaled parent: the child's world origin counts, not its own channels
        hand = keyed_hand(location=(-1.0, 0.0, 0.0))
        hand.scale = (2.0, 2.0, 2.0)
        support.parent = hand
        support.location = (0.5, 0.0, 0.0)
    else:
        copy = support.constraints.new("COPY_LOCATION")
        copy.target = keyed_hand()
    bpy.context.view_layer.update()


def hanging_pendulum(way: str):
    """A 5 cm ball on a 1 m Distance joint under a support animated in the given way."""
    support = add_box("Support", (0.1, 0.1, 0.1), (0, 0, 0), role="ANIMATED", shape="NONE")
    animate_support(support, way)
    bob = add_ball("Bob", 0.05, (0, 0, -LENGTH), mass=1.0)
    bob.mechbake.collision_shape = "NONE"
    add_joint("Rod", "DISTANCE", (0, 0, 0), body_a=support, body_b=bob, target=bob)
    set_frames(1, LAST_FRAME, fps=FPS, substeps=10, dmax=1e-7)
    return support, bob


def pendulum_on_accelerating_pivot(times, steps_per_sample: int = 400) -> np.ndarray:
    """The angle from the vertical at the evenly spaced times (from 0) by RK4 of L θ'' = -(g sin θ + a cos θ),
    from rest hanging down: a particle on a rod whose pivot accelerates at a along x."""
    def rate(y):
        return np.array([y[1], -(G * math.sin(y[0]) + PIVOT_ACCELERATION * math.cos(y[0])) / LENGTH])

    dt = (times[1] - times[0]) / steps_per_sample  # about 1e-4 s: RK4 is exact to 1e-12 here
    y, angles = np.zeros(2), [0.0]
    for _ in range((len(times) - 1) * steps_per_sample):
        k1 = rate(y)
        k2 = rate(y + 0.5 * dt * k1)
        k3 = rate(y + 0.5 * dt * k2)
        k4 = rate(y + dt * k3)
        y = y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        angles.append(y[0])
    return np.array(angles[::steps_per_sample])


@pytest.mark.parametrize("way", ["keyed", "driven", "parented", "constrained"])
def test_a_pendulum_under_an_animated_accelerating_support_swings_as_the_analytic_one(way):
    """Keys, a driver on a keyed property, a keyed parent and a constraint to a keyed empty all move the
    support as the artist sees it; the bob lags behind and swings about the tilted vertical."""
    support, bob = hanging_pendulum(way)
    frames = np.arange(1, LAST_FRAME + 1)
    report = bake.bake_scene(bpy.context.scene)
    assert report.bodies == 1 and not support.mechbake.is_baked  # only the bob is keyed
    pivots = world_matrices(support, frames)[:, :3, 3]
    # the animation plays on (32-bit values of up to 12 m: 1.3e-6 m measured)
    assert pivots[:, 0] == pytest.approx([support_x(f) for f in frames], abs=1e-5)
    offsets = point_track(bob, (0, 0, 0), frames) - pivots
    angles = np.arctan2(offsets[:, 0], -offsets[:, 2])
    expected = pendulum_on_accelerating_pivot(seconds(frames))
    assert expected.min() < -0.55  # it swings out to twice the tilt atan(a / g) = 0.30 rad
    # measured 2.0e-5 rad in every way at h = 1/240 s (5.8e-6 at half the step: the solver's second-order
    # error); a support that stood still would leave the bob hanging, 0.59 rad off
    assert np.abs(angles - expected).max() < 4e-5


CRANK, COUPLER, ROCKER, GROUND = 0.3, 1.0, 0.8, 1.0  # a crank-rocker (Grashof): the crank turns fully
TURNS_PER_SECOND = 1.0


def coupler_pin(crank_angle: float) -> np.ndarray:
    """The closed-form four-bar: (x, z) of the coupler-rocker pin, on the branch it starts on (above),
    for the crank at crank_angle from +x towards +z about its axle at the origin."""
    crank_pin = CRANK * np.array([math.cos(crank_angle), math.sin(crank_angle)])
    rocker_axle = np.array([GROUND, 0.0])
    span = np.linalg.norm(rocker_axle - crank_pin)
    along = (rocker_axle - crank_pin) / span
    across = np.array([-along[1], along[0]])
    reach = (COUPLER ** 2 - ROCKER ** 2 + span ** 2) / (2 * span)
    return crank_pin + reach * along + math.sqrt(COUPLER ** 2 - reach ** 2) * across


def keyed_crank_four_bar(mirrored: bool):
    """A crank whose rotation is keyed linearly through three turns drives a coupler and a rocker (Dynamic
    rods) on hinges about y."""
    crank = place_origin(add_rod("Crank", (0, 0, 0), (CRANK, 0, 0), radius=0.02, role="ANIMATED"), (0, 0, 0))
    if mirrored:  # a mirrored rod looks the same; its frame must still be a rotation that turns with it
        crank.scale = (-1.0, 1.0, 1.0)
    # Euler y turns +x towards -z, so the crank angle from +x towards +z is minus the keyed turn
    key_turning(crank, 1, -TURNS_PER_SECOND, 1, 1 + 3 * FPS)
    pin = coupler_pin(0.0)
    pin_b = (pin[0], 0.0, pin[1])
    coupler = add_rod("Coupler", (CRANK, 0, 0), pin_b, radius=0.02)
    rocker = add_rod("Rocker", pin_b, (GROUND, 0, 0), radius=0.02)
    for name, body_a, body_b, place in (("CrankPin", crank, coupler, (CRANK, 0, 0)),
                                        ("CouplerPin", coupler, rocker, pin_b),
                                        ("RockerAxle", None, rocker, (GROUND, 0, 0))):
        add_joint(name, "HINGE", place, axis=(0, 1, 0), body_a=body_a, body_b=body_b)
    set_frames(1, LAST_FRAME, fps=FPS, substeps=10, dmax=1e-7)
    return crank, rocker, pin_b


@pytest.mark.parametrize("mirrored", [False, True], ids=["plain", "mirrored"])
def test_a_keyed_crank_drives_a_four_bar_as_the_closed_form_linkage(mirrored):
    crank, rocker, pin_b = keyed_crank_four_bar(mirrored)
    start = rocker.matrix_world.copy()
    bake.bake_scene(bpy.context.scene)
    frames = np.arange(1, LAST_FRAME + 1)
    crank_angles = 2 * math.pi * TURNS_PER_SECOND * seconds(frames)
    tips = point_track(crank, (0, 0, CRANK), frames)  # the rod's +Z end: the crank pin
    assert tips[:, [0, 2]] == pytest.approx(CRANK * np.column_stack((np.cos(crank_angles), np.sin(crank_angles))),
                                            abs=1e-6)  # three turns as keyed (32-bit angles up to 19 rad)
    pins = point_track(rocker, start.inverted() @ Vector(pin_b), frames)
    rocker_angles = np.unwrap(np.arctan2(pins[:, 2], pins[:, 0] - GROUND))
    expected = np.array([coupler_pin(angle) for angle in crank_angles])
    expected_angles = np.unwrap(np.arctan2(expected[:, 1], expected[:, 0] - GROUND))
    assert np.ptp(expected_angles) > 0.5  # the rocker rocks
    # measured 8.1e-7 rad (5.7e-7 at half the step): three joints' gaps within Dmax = 1e-7 m over the 0.8 m
    # rocker, more where the linkage nears its toggle, and 32-bit keys; a crank that stood still would
    # leave the rocker up to 0.68 rad off
    assert np.abs(rocker_angles - expected_angles).max() < 2e-6


def key_snapshot(obj) -> dict:
    """Everything about the object's keys an artist could see: values, handles, interpolation."""
    out = {}
    for curve in action_fcurves(obj):
        points = curve.keyframe_points
        out[curve.data_path, curve.array_index] = [
            (tuple(p.co), tuple(p.handle_left), tuple(p.handle_right), p.interpolation, p.easing)
            for p in points] + [curve.extrapolation]
    return out


def test_bake_and_clear_leave_an_animated_bodys_own_animation_exactly_as_it_was():
    support, bob = hanging_pendulum("keyed")
    support.keyframe_insert("rotation_euler", frame=1)
    for curve in action_fcurves(support):
        for key in list(curve.keyframe_points)[::3]:
            key.interpolation, key.easing = "BACK", "EASE_IN"
    action = support.animation_data.action
    action.name = "SupportMoves"
    slot = support.animation_data.action_slot.identifier if SLOTTED else ""
    before = key_snapshot(support)

    def untouched() -> bool:
        return (support.animation_data.action == action and key_snapshot(support) == before
                and (support.animation_data.action_slot.identifier if SLOTTED else "") == slot
                and support.mechbake.bake_action is None and not support.mechbake.is_baked
                and not [a for a in bpy.data.actions if a.name.startswith("Support MechBake")])

    bake.bake_scene(bpy.context.scene)
    assert untouched() and curves(bob)  # the bob is baked, the support is not
    bake.clear_bake(bpy.context.scene)
    assert untouched()
    assert [a.name for a in bpy.data.actions] == ["SupportMoves"]  # the bob's bake is gone, the artist's stays
    assert curves(bob) == {}


@pytest.mark.parametrize("run", ["validate", "bake"])
def test_reading_the_animation_frame_by_frame_leaves_the_scene_as_it_was(run):
    """The user is at frame 7 and has dragged the keyed support along x without keying it: after Validate
    or a bake it is still there, at frame 7 (the bake follows the keys, not the drag)."""
    support, bob = hanging_pendulum("keyed")
    scene = bpy.context.scene
    scene.frame_set(7)
    support.location.x = 2.5
    bpy.context.view_layer.update()
    dragged, seen = tuple(support.location), np.array(support.matrix_world)
    if run == "validate":
        assert bpy.ops.mechbake.validate() == {"FINISHED"} and not last_problems
    else:
        bake.bake_scene(scene)
    assert scene.frame_current == 7
    assert tuple(support.location) == dragged
    assert np.array_equal(np.array(support.matrix_world), seen)
    if run == "bake":  # and the bake followed the keys: the bob hangs 1 m from the keyed support
        pivot = world_matrices(support, [24])[0][:3, 3]
        assert pivot == pytest.approx([support_x(24), 0.0, 0.0], abs=1e-6)
        assert np.linalg.norm(point_track(bob, (0, 0, 0), [24])[0] - pivot) == pytest.approx(LENGTH, abs=1e-5)


def test_an_animated_lift_carries_a_box_on_its_surface():
    """A keyed Box platform (eased up 0.5 m in a second) lifts a Dynamic box standing on it: the box's
    probes meet the moving platform's faces."""
    lift = add_box("Lift", (1.0, 1.0, 0.1), (0, 0, -0.05), role="ANIMATED")
    for frame, z in ((1, -0.05), (25, 0.45)):
        lift.location.z = z
        lift.keyframe_insert("location", index=2, frame=frame)
    lift.location.z = -0.05
    crate = add_box("Crate", (0.2, 0.2, 0.2), (0, 0, 0.1), mass=1.0)
    set_frames(1, 36, fps=FPS, substeps=10, dmax=1e-6)
    bake.bake_scene(bpy.context.scene)
    frames = np.arange(1, 37)
    lift_tops = world_matrices(lift, frames)[:, 2, 3] + 0.05
    crate_bottoms = world_matrices(crate, frames)[:, 2, 3] - 0.1
    assert lift_tops[-1] == pytest.approx(0.5, abs=1e-6)
    # measured 3e-8 m (32-bit keys) against the bake's Dmax of 1e-6 m; without the platform's surface the
    # box would fall through it
    assert np.abs(crate_bottoms - lift_tops).max() < 1e-6


def joined_to_animated(other: str):
    support = add_box("Support", (0.1, 0.1, 0.1), (0, 0, 0), role="ANIMATED", shape="NONE")
    key_every_frame(support)
    add_box("Loose", (0.2, 0.2, 0.2), (0, 0, 3))  # so that the scene has a Dynamic body
    body_a = add_box("Ground", (1, 1, 0.1), (0, 0, -1), role="FIXED") if other == "Fixed" else None
    add_joint("Hook", "BALL", (0, 0, 0), body_a=body_a, body_b=support)
    set_frames(1, 10)


ANIMATED_JOINTS = [
    ("Fixed", "joint 'Hook': neither of its bodies is simulated: 'Ground' is Fixed and 'Support' is Animated (it "
              "follows its own animation); make one of them Dynamic"),
    ("world", "joint 'Hook': neither of its bodies is simulated: 'Support' is Animated (it follows its own "
              "animation) and the other side is the world; make 'Support' Dynamic, or join it to a Dynamic body"),
]


@pytest.mark.parametrize("other, message", ANIMATED_JOINTS, ids=[case[0] for case in ANIMATED_JOINTS])
def test_a_joint_of_an_animated_body_with_the_world_or_a_fixed_body_is_named_in_validate(other, message):
    joined_to_animated(other)
    assert bpy.ops.mechbake.validate() == {"FINISHED"}
    assert last_problems == {"Hook": [message]}


def test_an_animated_body_cannot_follow_a_dynamic_one():
    arm = add_rod("Arm", (0, 0, 0), (1, 0, 0))
    add_joint("Shoulder", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=arm)
    hand = add_box("Hand", (0.1, 0.1, 0.1), (1, 0, 0), role="ANIMATED")
    hand.parent = arm
    hand.matrix_parent_inverse = arm.matrix_world.inverted()
    set_frames(1, 10)
    assert bake.problems(bpy.context.scene) == [
        "object 'Hand': an Animated body cannot follow the Dynamic body 'Arm' (its parent), whose motion is what "
        "the bake computes; join the two with a joint instead"]


def test_a_baked_body_made_animated_must_have_its_bake_cleared_first():
    support, bob = hanging_pendulum("keyed")
    support.mechbake.role = "DYNAMIC"
    support.animation_data_clear()
    bake.bake_scene(bpy.context.scene)
    support.mechbake.role = "ANIMATED"
    assert "object 'Support' still plays MechBake's bake from when it was Dynamic, not its own animation; press " \
           "Clear Bake before animating it" in bake.problems(bpy.context.scene)
    bake.clear_bake(bpy.context.scene)
    key_every_frame(support)
    assert bake.problems(bpy.context.scene) == []


def test_a_keyed_fixed_body_is_warned_about():
    """A support keyed to move but tagged Fixed holds still in the bake; Validate says so and names the
    role that follows the keys."""
    support, _ = hanging_pendulum("keyed")
    support.mechbake.role = "FIXED"
    assert bake.check(bpy.context.scene) == ([], [
        "object 'Support': it is Fixed, so it stays where it is at the first frame, but its keys on location would "
        "move it; make it Animated to have the mechanism follow its animation"])


def test_reading_the_animation_leaves_where_the_dynamic_bodies_start_alone():
    """Reading an Animated body steps the scene past the last frame and back: a Dynamic rod the artist
    keyed spinning (two turns by frame 12) is still keyed on from its Euler angle at the first frame."""
    hanging_pendulum("keyed")
    rod = add_rod("Rod", (3, 0, 0), (4, 0, 0))
    add_joint("Pivot", "HINGE", (3, 0, 0), axis=(0, 1, 0), body_b=rod)
    rod.rotation_mode = "XYZ"  # the rod lies along x: Euler y is 90°
    for frame, turns in ((1, 0), (12, 2)):
        rod.rotation_euler.y = math.pi / 2 + 2 * math.pi * turns
        rod.keyframe_insert("rotation_euler", index=1, frame=frame)
    bake.bake_scene(bpy.context.scene)
    assert curves(rod)["rotation_euler", 1].evaluate(1.0) == pytest.approx(math.pi / 2, abs=1e-6)


def test_the_animated_crank_sample_turns_its_rocker():
    build_blend.animated_crank()
    crank, rocker = bpy.data.objects["Crank"], bpy.data.objects["Rocker"]
    report = bake.bake_scene(bpy.context.scene)
    assert report.bodies == 2 and report.worst_gap < bpy.context.scene.mechbake.dmax
    assert curves(crank)["rotation_euler", 1].evaluate(250.0) == pytest.approx(2 * math.pi * 0.5 * 249 / 24)
    rocker_axle = np.array(bpy.data.objects["RockerGround"].matrix_world.translation)
    tips = point_track(rocker, rocker.matrix_world.inverted() @ Vector(bpy.data.objects["CouplerRocker"].location),
                       range(1, 251)) - rocker_axle
    assert np.ptp(np.arctan2(tips[:, 2], tips[:, 0])) > 0.5  # it rocks to and fro as the crank turns
