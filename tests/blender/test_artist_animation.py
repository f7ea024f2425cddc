"""Nothing the artist made is lost. The artist's animation is kept
beside the bake and given back by Clear; a bake starts from what the artist sees; Validate and a
failed or cancelled bake leave even unkeyed edits alone."""
import math

import bpy
import numpy as np
import pytest
from mathutils import Quaternion

from blender_build import add_joint, add_rod, set_frames
from keys import curves, world_matrices
from mechbake import bake
from mechbake.keyframes import SLOTTED, action_fcurves
from mechbake.solver import ModelError


def pendulum(name="Rod", x=0.0):
    rod = add_rod(name, (x, 0, 0), (x + 1, 0, 0))
    add_joint(f"{name}Pivot", "HINGE", (x, 0, 0), axis=(0, 1, 0), body_b=rod)
    return rod


def key_snapshot(obj) -> dict:
    """Everything about the object's keys an artist could see: values, handles, interpolation."""
    out = {}
    for curve in action_fcurves(obj):
        points = curve.keyframe_points
        out[curve.data_path, curve.array_index] = [
            (tuple(p.co), tuple(p.handle_left), tuple(p.handle_right), p.interpolation, p.easing) for p in points]
    return out


def slot_identifier(obj) -> str:
    return obj.animation_data.action_slot.identifier if SLOTTED else ""


def artist_keys(rod):
    """Keys an artist made before deciding to simulate: bezier location and rotation, a constant
    scale and a custom property."""
    rod["glow"] = 0.0
    for frame, x, glow in ((1, 0.5, 0.0), (12, 0.8, 1.0)):
        rod.location.x = x
        rod["glow"] = glow
        rod.keyframe_insert("location", frame=frame)
        rod.keyframe_insert("rotation_quaternion", frame=frame)
        rod.keyframe_insert("scale", frame=frame)
        rod.keyframe_insert('["glow"]', frame=frame)
    action = rod.animation_data.action
    for curve in action_fcurves(rod):
        for point in curve.keyframe_points:
            point.interpolation = "BACK" if curve.data_path == "location" else "BEZIER"
    return action


def test_bake_keeps_the_artists_action_and_clear_gives_it_back_exactly():
    rod = pendulum()
    action = artist_keys(rod)
    action.name = "RodDance"
    set_frames(1, 12)
    bpy.context.scene.frame_set(1)
    before, slot = key_snapshot(rod), slot_identifier(rod)
    bake.bake_scene(bpy.context.scene)
    baked = curves(rod)
    assert rod.animation_data.action != action and action.name == "RodDance"  # the artist's action is kept aside
    assert len(baked["location", 0].keyframe_points) == 12  # one key a frame: the bake, not the artist's two
    assert ("scale", 0) in baked and ('["glow"]', 0) in baked  # the other channels go on playing
    bpy.context.scene.frame_set(12)
    assert rod["glow"] == pytest.approx(1.0)
    bake.bake_scene(bpy.context.scene)  # a second bake replaces the first, the artist's action stays aside
    assert bake.clear_bake(bpy.context.scene) == 1
    assert rod.animation_data.action == action and slot_identifier(rod) == slot
    assert key_snapshot(rod) == before
    assert not [a for a in bpy.data.actions if a != action]  # nothing of MechBake's is left behind


def test_clear_leaves_no_action_behind_on_a_body_that_had_none():
    rod = pendulum()
    set_frames(1, 10)
    bake.bake_scene(bpy.context.scene)
    assert len(bpy.data.actions) == 1
    bake.clear_bake(bpy.context.scene)
    assert len(bpy.data.actions) == 0 and rod.animation_data is None


def test_the_start_of_a_bake_is_the_artists_pose_at_the_first_frame():
    """A body keyed by the artist starts from its keyed pose at the first frame, wherever the user is."""
    rod = pendulum()
    artist_keys(rod)
    set_frames(1, 12)
    bpy.context.scene.frame_set(1)
    expected = np.array(rod.matrix_world)
    bpy.context.scene.frame_set(9)
    bake.bake_scene(bpy.context.scene)
    assert np.abs(world_matrices(rod, [1])[0] - expected).max() < 1e-6


def test_a_body_moved_after_a_bake_bakes_from_where_it_was_moved_and_clear_returns_there():
    rod = add_rod("Rod", (0, 0, 0), (1, 0, 0))
    add_joint("Pivot", "BALL", (0, 0, 0), body_b=rod)
    set_frames(1, 24)
    first_start = np.array(rod.matrix_world)
    bake.bake_scene(bpy.context.scene)
    bpy.context.scene.frame_set(1)
    assert np.abs(np.array(rod.matrix_world) - first_start).max() < 1e-6
    rod.location.z += 0.3  # the artist drags the body up, without keying it, and bakes again
    rod.rotation_quaternion.rotate(Quaternion((0, 0, 1), 0.5))
    bpy.context.view_layer.update()
    moved = np.array(rod.matrix_world)
    bake.bake_scene(bpy.context.scene)
    assert np.abs(world_matrices(rod, [1])[0] - moved).max() < 1e-6
    bpy.context.scene.frame_set(20)
    bake.bake_scene(bpy.context.scene)  # unmoved, from another frame: the same start again
    assert np.abs(world_matrices(rod, [1])[0] - moved).max() < 1e-6
    bpy.context.scene.frame_set(20)
    bake.clear_bake(bpy.context.scene)
    assert np.abs(np.array(rod.matrix_world) - moved).max() < 1e-6


def test_a_body_renamed_during_a_step_by_step_bake_is_keyed_under_its_new_name():
    rod = pendulum()
    set_frames(1, 20)
    job = bake.Bake(bpy.context.scene)
    job.run(frames=5)
    rod.name = "Pendulum"
    job.run(frames=100)
    job.finish()
    assert len(curves(bpy.data.objects["Pendulum"])["location", 0].keyframe_points) == 20


def test_a_body_deleted_during_a_step_by_step_bake_is_named_and_nothing_is_written():
    rod, other = pendulum(), pendulum("Other", x=3.0)
    set_frames(1, 20)
    job = bake.Bake(bpy.context.scene)
    job.run(frames=100)
    bpy.data.objects.remove(rod)
    with pytest.raises(ModelError, match="object 'Rod' was deleted during the bake; nothing was written"):
        job.finish()
    assert curves(other) == {} and not other.mechbake.is_baked


def animated_prop_with_an_unkeyed_edit():
    """A camera-like object keyed along x, then moved by hand at frame 7 without a key, and a keyed
    custom property on the scene edited the same way."""
    prop = bpy.data.objects.new("Prop", None)
    bpy.context.scene.collection.objects.link(prop)
    scene = bpy.context.scene
    scene["wind"] = 0.0
    for frame, x in ((1, 0.0), (20, 2.0)):
        prop.location.x = x
        scene["wind"] = x
        prop.keyframe_insert("location", index=0, frame=frame)
        scene.keyframe_insert('["wind"]', frame=frame)
    scene.frame_set(7)
    prop.location = (5.0, 1.0, 0.25)
    scene["wind"] = 9.0
    return prop


def spoil_the_pivot():
    bpy.data.objects["RodPivot"].mechbake.joint_type = "DISTANCE"  # without a target: cannot bake


@pytest.mark.parametrize("action", ["validate", "failed bake", "cancelled bake", "bake", "clear"])
def test_unkeyed_edits_of_animated_objects_survive(action):
    pendulum()
    set_frames(1, 20)
    if action == "clear":
        bake.bake_scene(bpy.context.scene)
    prop = animated_prop_with_an_unkeyed_edit()
    scene = bpy.context.scene
    if action == "validate":
        assert bpy.ops.mechbake.validate() == {"FINISHED"}
    elif action == "failed bake":
        spoil_the_pivot()
        with pytest.raises(ModelError):
            bake.bake_scene(scene)
    elif action == "cancelled bake":
        job = bake.Bake(scene)
        job.run(frames=4)
        del job
    elif action == "bake":
        bake.bake_scene(scene)
    else:
        bake.clear_bake(scene)
    assert scene.frame_current == 7
    assert tuple(prop.location) == pytest.approx((5.0, 1.0, 0.25)) and scene["wind"] == pytest.approx(9.0)


def test_validate_and_a_failed_bake_leave_a_baked_body_and_its_unkeyed_edit_as_they_were():
    rod = pendulum()
    set_frames(1, 20)
    bake.bake_scene(bpy.context.scene)
    bake_action = rod.animation_data.action
    bpy.context.scene.frame_set(9)
    rod.location.y = 0.4  # moved by hand at frame 9
    bpy.context.view_layer.update()
    seen = np.array(rod.matrix_world)
    assert bake.problems(bpy.context.scene) == []
    spoil_the_pivot()
    with pytest.raises(ModelError):
        bake.bake_scene(bpy.context.scene)
    assert rod.animation_data.action == bake_action
    assert np.abs(np.array(rod.matrix_world) - seen).max() < 1e-7


def test_keys_continue_the_artists_euler_turns():
    """A body whose Euler angle reads 370 degrees keeps counting from there, not from 10."""
    rod = pendulum()
    rod.rotation_mode = "XYZ"
    rod.rotation_euler = (0.0, math.radians(90) + 2 * math.pi, 0.0)  # the same pose as the rod's quaternion
    set_frames(1, 10)
    bake.bake_scene(bpy.context.scene)
    assert curves(rod)["rotation_euler", 1].evaluate(1.0) == pytest.approx(math.radians(90) + 2 * math.pi, abs=1e-5)

