"""Baked motion read back from the F-curves, against analytic results and the joints' own geometry."""
import math

import bpy
import numpy as np
import pytest
from mathutils import Vector

from blender_build import add_box, add_joint, add_rod, set_frames
from keys import curves, point_track, world_matrices
from mechbake.bake import bake_scene, clear_bake
from mechbake.keyframes import action_fcurves

from measure import pendulum_period, zero_crossings


def key_setting(obj, name: str, keys, interpolation: str) -> None:
    """Keys the MechBake setting `name` of obj at (frame, value) pairs, each with the interpolation given."""
    for frame, value in keys:
        setattr(obj.mechbake, name, value)
        obj.keyframe_insert(f"mechbake.{name}", frame=frame)
    for curve in action_fcurves(obj):
        for key in curve.keyframe_points:
            key.interpolation = interpolation


def baked_pendulum_period_error(substeps: int, dmax: float | None = None, degrees: float = 30.0,
                                frames: int = 100) -> float:
    """A 1 m rod of 64 sides hinged at its end, released `degrees` out, baked over `frames` frames at
    24 fps with the scene's settings: its period against the exact one (elliptic integral), relative."""
    amplitude, radius = math.radians(degrees), 0.02
    tip = (math.sin(amplitude), 0.0, -math.cos(amplitude))
    rod = bpy.data.objects.get("Rod") or add_rod("Rod", (0, 0, 0), tip, radius=radius, sides=64)
    if "Pivot" not in bpy.data.objects:
        add_joint("Pivot", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=rod)
    set_frames(1, frames, fps=24, substeps=substeps, dmax=dmax)
    bake_scene(bpy.context.scene)
    x = curves(rod)["location", 0]
    sampled = np.arange(1, frames + 1)
    values = [x.evaluate(float(f)) for f in sampled]
    crossings = zero_crossings((sampled - 1) / 24.0, values)
    inertia_pivot = 1.0 / 3.0 + radius**2 / 4  # per kg: a 1 m cylinder about its end
    expected = pendulum_period(inertia_pivot, 1.0, 9.81, 0.5, amplitude)
    return (crossings[2] - crossings[0]) / expected - 1.0


def test_baked_pendulum_has_the_exact_period_with_inertia_from_the_mesh():
    assert abs(baked_pendulum_period_error(substeps=20, dmax=1e-8)) < 5e-4


def test_richardson_extrapolation_set_in_the_scene_makes_one_substep_per_frame_exact():
    """Schmitt §8's combination, chosen in the scene's settings: at one substep per frame (h = 1/24 s)
    the period is 1.4e-3 short without it (the method's O(h^2)) and within 1e-5 with it."""
    plain = baked_pendulum_period_error(substeps=1, dmax=1e-6)
    bpy.context.scene.mechbake.extrapolation = "RICHARDSON"
    extrapolated = baked_pendulum_period_error(substeps=1, dmax=1e-6)
    assert plain < -1e-3
    assert abs(extrapolated) < 1e-5


def test_richardson_steps_out_of_its_reach_keep_their_halves_and_the_report_says_so():
    """The same rod released 150 degrees out at 12 fps and one substep turns up to 0.6 rad a step:
    where combining the whole step with its two halves would leave the hinge open further than the
    two results' own gaps and the pivot's curvature explain, the step keeps its halves, and the
    report counts those steps."""
    bpy.context.scene.mechbake.extrapolation = "RICHARDSON"
    rod = add_rod("Rod", (0, 0, 0), (math.sin(math.radians(150.0)), 0.0, -math.cos(math.radians(150.0))))
    add_joint("Pivot", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=rod)
    set_frames(1, 48, fps=12, substeps=1)
    report = bake_scene(bpy.context.scene)
    assert 0 < report.uncombined < report.steps
    assert "not extrapolated" in str(report)


def test_an_error_tolerance_set_in_the_scene_shortens_the_steps_that_need_it():
    """At one substep per frame (h = 1/24 s) the pendulum's period comes out 1.4e-3 short; with an
    error tolerance of 1e-3 m/s the steps whose estimated error is larger are taken shorter and the
    period is within 1e-4, and the bake's report says how many and how short."""
    plain = baked_pendulum_period_error(substeps=1, dmax=1e-6)
    bpy.context.scene.mechbake.error_tolerance = 1e-3
    controlled = baked_pendulum_period_error(substeps=1, dmax=1e-6)
    report = bake_scene(bpy.context.scene)
    assert plain < -1e-3
    assert abs(controlled) < 1e-4
    assert report.rejected > 0 and report.shortest_step < 1.0 / 24.0
    assert "retried shorter for the error tolerance" in str(report)


def test_the_energy_tolerance_halves_the_steps_that_change_the_energy():
    """Four 0.5 m rods on ball joints, hung from one end and released level, at one substep per frame
    (h = 1/24 s): where the chain whips, single steps gain or lose energy though nothing does work.
    The default energy tolerance halves them and the report counts them; set to 0 in the scene, none is."""
    links = []
    for k in range(4):
        links.append(add_rod(f"Link{k}", (0.5 * k, 0, 0), (0.5 * (k + 1), 0, 0)))
        add_joint(f"Ball{k}", "BALL", (0.5 * k, 0, 0), body_a=links[k - 1] if k else None, body_b=links[k])
    set_frames(1, 48, fps=24, substeps=1)
    gated = bake_scene(bpy.context.scene)
    bpy.context.scene.mechbake.energy_tolerance = 0.0
    plain = bake_scene(bpy.context.scene)
    assert gated.energy_halvings > 0 and "halved to keep the energy" in str(gated)
    assert plain.energy_halvings == 0 and "energy" not in str(plain)


def test_levers_at_thirds_set_in_the_scene_keep_a_fast_swing_in_phase():
    """A rod released 150 degrees out turns up to 0.15 rad a step at two substeps per frame: with the
    impulses' levers at the step's start the body flies chords and the period comes out 8.3e-4 short;
    with the levers at thirds (a third and two thirds along each step) 3.2e-4 (the solver alone, every
    step sampled: 7.9e-4 and 2.8e-4)."""
    plain = baked_pendulum_period_error(substeps=2, degrees=150.0, frames=96)
    bpy.context.scene.mechbake.levers = "THIRDS"
    thirds = baked_pendulum_period_error(substeps=2, degrees=150.0, frames=96)
    assert plain < -5e-4
    assert abs(thirds) < 0.5 * abs(plain)


def test_origin_away_from_the_centre_of_mass_is_keyed_where_it_belongs():
    """A rod whose origin sits on its hinge: the origin must not move at all."""
    rod = add_rod("Rod", (0, 0, 0), (1, 0, 0))
    bpy.context.view_layer.objects.active = rod
    bpy.context.scene.cursor.location = (0, 0, 0)
    bpy.ops.object.origin_set(type="ORIGIN_CURSOR")
    add_joint("Pivot", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=rod)
    set_frames(1, 30)
    bake_scene(bpy.context.scene)
    origins = world_matrices(rod, range(1, 31))[:, :3, 3]
    assert np.abs(origins).max() < 1e-6
    assert abs(curves(rod)["rotation_quaternion", 2].evaluate(30.0)) > 0.1  # it did swing


def test_rotated_scaled_body_on_a_tilted_hinge_keeps_the_joint():
    tilt = math.radians(30)
    axis = Vector((0, math.cos(tilt), math.sin(tilt)))
    box = add_box("Box", (0.1, 0.3, 1.2), (0.4, 0.1, -0.2), rotation=(0.3, -0.5, 0.8))
    anchor = Vector((-0.2, 0.0, -0.2))  # level with the centre of mass: a wide swing
    add_joint("Hinge", "HINGE", anchor, axis=axis, body_b=box)
    set_frames(1, 48, substeps=10, dmax=1e-7)
    start = box.matrix_world.copy()
    local_anchor = start.inverted() @ anchor
    local_axis = (start.to_3x3().normalized().inverted() @ axis).normalized()
    bake_scene(bpy.context.scene)
    frames = range(1, 49)
    track = point_track(box, local_anchor, frames)
    # Dmax is 1e-7; keys are 32-bit floats, which round at about 1e-7 of a 1 m lever
    assert np.abs(track - np.array(anchor)).max() < 1e-6
    rotations = world_matrices(box, frames)[:, :3, :3]
    rotations /= np.linalg.norm(rotations, axis=1, keepdims=True)  # remove the scale from the columns
    axes = rotations @ np.array(local_axis)
    assert np.abs(axes - np.array(axis)).max() < 1e-6  # it turns about the tilted axis only
    origins = world_matrices(box, [1, 48])[:, :3, 3]
    assert np.linalg.norm(origins[1] - origins[0]) > 0.05  # it did swing


def test_keyed_motor_target_is_followed():
    arm = add_rod("Arm", (0, 0, 0), (1, 0, 0), radius=0.03)
    joint = add_joint("Servo", "HINGE", (0, 0, 0), axis=(0, 0, 1), body_b=arm, motor_mode="POSITION",
                      motor_max_torque=0.0)
    for frame, value in ((1, 0.0), (25, 1.0), (49, -0.5)):
        joint.mechbake.motor_target = value
        joint.keyframe_insert("mechbake.motor_target", frame=frame)
    set_frames(1, 60)
    bake_scene(bpy.context.scene)
    tip = point_track(arm, (0, 0, 0.5), [1, 25, 49, 60])  # the cylinder's +Z end, in object coordinates
    angles = np.arctan2(tip[:, 1], tip[:, 0])
    assert angles == pytest.approx([0.0, 1.0, -0.5, -0.5], abs=1e-6)


def test_an_applied_torque_keyed_in_the_panel_turns_a_box_on_its_hinge():
    """A 0.2 m box of density 1000 (8 kg, I = m (a^2 + b^2) / 12 about z, exact from its mesh) on a hinge
    through its centre, its Effort ticked and its torque keyed linearly from 0 to 0.2 N·m over 2 s:
    the angle is c t^3 / (6 I), c = 0.1 N·m/s, within the method's (c / I) t h^2 / 6 (1e-5 rad)."""
    box = add_box("Flywheel", (0.2, 0.2, 0.2), (0, 0, 0), shape="NONE")
    joint = add_joint("Axle", "HINGE", (0, 0, 0), axis=(0, 0, 1), body_b=box, use_effort=True)
    key_setting(joint, "effort", ((1, 0.0), (49, 0.2)), "LINEAR")
    set_frames(1, 49)
    bake_scene(bpy.context.scene)
    inertia = 8.0 * (0.2**2 + 0.2**2) / 12
    corner = point_track(box, (0.5, 0.0, 0.0), [25, 49])  # the middle of the box's +x face, in object coordinates
    angles = np.arctan2(corner[:, 1], corner[:, 0])
    assert angles == pytest.approx([0.1 * t**3 / (6 * inertia) for t in (1.0, 2.0)], abs=5e-5)


def test_a_servo_keyed_past_its_limits_without_a_torque_limit_is_named_and_nothing_is_written():
    """In the UI: an arm on a hinge limited to +-60 degrees, its servo at Max Torque 0
    (unlimited), its target keyed with Constant interpolation to jump to 90 degrees at frame 12.
    Baking stops with a report naming the joint and the jump, in degrees, where it said that another
    joint "kept a gap" of a fraction of a micrometre; the arm is left without keys."""
    arm = add_rod("Arm", (0, 0, 0), (0, 0, -1), radius=0.03)
    joint = add_joint("Shoulder", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=arm, motor_mode="POSITION",
                      motor_max_torque=0.0, use_limits=True, limit_min=math.radians(-60), limit_max=math.radians(60))
    key_setting(joint, "motor_target", ((1, 0.0), (12, math.radians(90))), "CONSTANT")
    set_frames(1, 48)
    start = np.array(arm.matrix_world)
    with pytest.raises(RuntimeError, match="joint 'Shoulder': its servo, with no torque limit, cannot make the "
                                           "mechanism follow its target, which goes from 0° to 90°"):
        bpy.ops.mechbake.bake()
    assert curves(arm) == {}
    assert np.abs(np.array(arm.matrix_world) - start).max() < 1e-7


def tumbling_rod(mode):
    """A rod spun by a velocity motor about a tilted axis: several turns, no chaos."""
    rod = add_rod("Rod", (0, 0, 0), (1, 0, 0))
    rod.rotation_mode = mode
    add_joint("Spindle", "HINGE", (0, 0, 0), axis=(0.3, 0.4, 1.0), body_b=rod, motor_mode="VELOCITY",
              motor_speed=6.0, motor_max_torque=0.0)
    set_frames(1, 96, substeps=10)
    bake_scene(bpy.context.scene)
    return rod


ROTATION_PATHS = {"QUATERNION": ("rotation_quaternion", 4), "AXIS_ANGLE": ("rotation_axis_angle", 4)}


@pytest.mark.parametrize("mode", ["XYZ", "ZXY", "QUATERNION", "AXIS_ANGLE"])
def test_rotation_modes_give_the_same_continuous_motion(mode):
    rod = tumbling_rod(mode)
    frames = range(1, 97)
    matrices = world_matrices(rod, frames)
    path, width = ROTATION_PATHS.get(mode, ("rotation_euler", 3))
    found = curves(rod)
    values = np.array([[found[path, i].evaluate(float(f)) for i in range(width)] for f in frames])
    if path == "rotation_quaternion":
        assert (np.einsum("fi,fi->f", values[1:], values[:-1]) > 0).all()  # one hemisphere throughout
    elif path == "rotation_euler":
        assert np.abs(np.diff(values, axis=0)).max() < math.pi  # each frame follows the last: no wrap by 2 pi
        assert np.abs(values).max() > 4.0  # the angles kept counting past pi
    bpy.ops.wm.read_factory_settings(use_empty=True)
    reference = world_matrices(tumbling_rod("QUATERNION"), frames)
    assert np.abs(matrices - reference).max() < 1e-5


def spun_lever(mode: str, seconds: float):
    """A 0.1 m lever spun at 10 turns a second by a velocity servo for `seconds` (24 fps), keyed in
    `mode`: the lever's tip at every frame from its stored keys, and the bake's warnings."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    lever = add_rod("Lever", (0, 0, 0), (0.1, 0, 0), radius=0.005)
    lever.rotation_mode = mode
    add_joint("Spindle", "HINGE", (0, 0, 0), axis=(0, 0, 1), body_b=lever, motor_mode="VELOCITY",
              motor_speed=20 * math.pi, motor_max_torque=0.0)
    frames = range(1, int(24 * seconds) + 1)
    set_frames(1, frames[-1], substeps=4)
    tip = np.linalg.inv(np.array(lever.matrix_world)) @ [0.1, 0, 0, 1]
    report = bake_scene(bpy.context.scene)
    return (world_matrices(lever, frames) @ tip)[:, :3], report.warnings


def test_euler_keys_of_a_long_spin_warn_where_their_float_precision_moves_the_body():
    """Blender stores keys as 32-bit floats: Euler angles that keep growing put the lever's tip
    micrometres off after 12 s at 10 turns a second (754 rad); quaternion keys do not."""
    euler, euler_warnings = spun_lever("XYZ", 12.0)
    quaternion, quaternion_warnings = spun_lever("QUATERNION", 12.0)
    off = np.linalg.norm(euler - quaternion, axis=1).max()
    assert off > 1e-6 and np.abs(np.linalg.norm(quaternion[:, :2], axis=1) - 0.1).max() < 1e-7
    (warning,) = [w for w in euler_warnings if "Euler" in w]
    turns = 10 * (24 * 12 - 1) / 24  # 10 turns a second from frame 1 to frame 288
    assert warning.startswith(f"object 'Lever' turns {turns:.0f} times") and "Rotation Mode to Quaternion" in warning
    stated = float(warning.split("up to ")[2].split(" m")[0])
    assert off / 2 < stated < off * 2
    assert not [w for w in quaternion_warnings if "Euler" in w]
    short, short_warnings = spun_lever("XYZ", 1.0)
    assert not [w for w in short_warnings if "Euler" in w]  # 63 rad: well within a float's precision


def test_rebake_replaces_and_clear_removes():
    rod = add_rod("Rod", (0, 0, 0), (1, 0, 0))
    add_joint("Pivot", "BALL", (0, 0, 0), body_b=rod)
    set_frames(1, 20)
    start = np.array(rod.matrix_world)
    bake_scene(bpy.context.scene)
    first = {key: [c.evaluate(f) for f in range(1, 21)] for key, c in curves(rod).items()}
    bake_scene(bpy.context.scene)
    again = curves(rod)
    assert set(again) == set(first) and all(len(c.keyframe_points) == 20 for c in again.values())
    assert all(np.allclose([c.evaluate(f) for f in range(1, 21)], first[key]) for key, c in again.items())
    assert clear_bake(bpy.context.scene) == 1
    assert curves(rod) == {} and np.allclose(np.array(rod.matrix_world), start)


def test_bake_survives_saving_and_reopening(tmp_path):
    rod = add_rod("Rod", (0, 0, 0), (1, 0, 0))
    add_joint("Pivot", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=rod, use_limits=True, limit_min=-0.5, limit_max=0.5)
    set_frames(1, 24)
    bpy.context.scene.mechbake.substeps = 7
    bake_scene(bpy.context.scene)
    bpy.context.scene.frame_set(24)
    pose = np.array(rod.matrix_world)
    path = str(tmp_path / "saved.blend")
    bpy.ops.wm.save_as_mainfile(filepath=path)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.wm.open_mainfile(filepath=path)
    rod, joint = bpy.data.objects["Rod"], bpy.data.objects["Pivot"]
    assert rod.mechbake.role == "DYNAMIC" and rod.mechbake.is_baked
    assert joint.mechbake.body_b == rod and joint.mechbake.limit_max == 0.5
    assert bpy.context.scene.mechbake.substeps == 7
    bpy.context.scene.frame_set(24)
    assert np.abs(np.array(rod.matrix_world) - pose).max() < 1e-6
    angle = math.atan2(-pose[2, 2], pose[0, 2])  # the cylinder's axis, from +x down about +y
    assert abs(angle) == pytest.approx(0.5, abs=1e-6)  # stopped at its limit


def test_quaternion_matrices_agree_with_blender():
    from mathutils import Quaternion

    from mechbake.solver.rotation import quaternion_to_matrix

    q = np.array([[0.8, 0.2, -0.3, 0.4], [0.1, -0.9, 0.3, 0.2]])
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    for single, stacked in zip(q, quaternion_to_matrix(q)):
        assert np.allclose(stacked, np.array(Quaternion(single).to_matrix()))
        assert np.allclose(quaternion_to_matrix(single), stacked)


def test_keyed_limit_is_followed_during_the_bake():
    """Blender's own rigid-body limits ignore their keys during the simulation; ours follow them."""
    arm = add_rod("Arm", (0, 0, 0), (1, 0, 0))
    joint = add_joint("Elbow", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=arm, use_limits=True, limit_min=-0.2)
    for frame, value in ((1, 0.6), (30, 0.6), (50, 0.2)):
        joint.mechbake.limit_max = value
        joint.keyframe_insert("mechbake.limit_max", frame=frame)
    set_frames(1, 70)
    bake_scene(bpy.context.scene)
    tip = point_track(arm, (0, 0, 0.5), [30, 70])  # the cylinder's far end
    angles = np.arctan2(-tip[:, 2], tip[:, 0])  # down from +x, about +y
    assert angles == pytest.approx([0.6, 0.2], abs=1e-5)
