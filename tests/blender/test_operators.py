"""The four operators, called as scripts call them."""
import bpy
import numpy as np
import pytest

from blender_build import add_box, add_joint, add_rod, set_frames
from keys import curves


def select(*objects, active=None):
    for obj in bpy.context.scene.objects:
        obj.select_set(obj in objects)
    bpy.context.view_layer.objects.active = active or objects[-1]


def test_add_joint_places_a_typed_empty_between_the_selected_bodies():
    left = add_box("Left", (1, 1, 1), (-1, 0, 0))
    right = add_box("Right", (1, 1, 1), (1, 0, 2))
    select(left, right, active=right)
    assert bpy.ops.mechbake.add_joint(joint_type="SLIDER") == {"FINISHED"}
    joint = bpy.context.active_object
    assert joint.type == "EMPTY" and joint.mechbake.joint_type == "SLIDER"
    assert joint.mechbake.body_a == left and joint.mechbake.body_b == right
    assert np.allclose(joint.location, (0, 0, 1))
    assert joint.empty_display_type == "SINGLE_ARROW"  # the arrow is its axis


def test_add_joint_with_one_body_joins_it_to_the_world():
    box = add_box("Box", (1, 1, 1), (0, 0, 3))
    select(box)
    bpy.ops.mechbake.add_joint(joint_type="BALL")
    joint = bpy.context.active_object
    assert joint.mechbake.body_a is None and joint.mechbake.body_b == box


def swinging_rod():
    rod = add_rod("Rod", (0, 0, 0), (1, 0, 0))
    add_joint("Pivot", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=rod)
    set_frames(1, 12)
    return rod


def test_validate_reports_ok_and_bake_keys_every_frame_then_clear_restores():
    rod = swinging_rod()
    start = np.array(rod.matrix_world)
    assert bpy.ops.mechbake.validate() == {"FINISHED"}
    assert bpy.ops.mechbake.bake() == {"FINISHED"}
    found = curves(rod)
    assert {path for path, _ in found} == {"location", "rotation_quaternion"}
    assert all(len(c.keyframe_points) == 12 for c in found.values())
    bpy.context.scene.frame_set(12)
    assert not np.allclose(np.array(rod.matrix_world), start)
    assert bpy.ops.mechbake.clear() == {"FINISHED"}
    assert curves(rod) == {}
    assert np.abs(np.array(rod.matrix_world) - start).max() < 1e-6


def test_validate_marks_problems_and_bake_refuses_an_invalid_scene():
    from mechbake.operators import last_problems

    rod = swinging_rod()
    bpy.data.objects["Pivot"].mechbake.motor_mode = "POSITION"
    bpy.data.objects["Pivot"].mechbake.joint_type = "BALL"
    bpy.ops.mechbake.validate()
    assert "Pivot" in last_problems
    with pytest.raises(RuntimeError, match="joint 'Pivot': a Ball joint cannot carry a motor"):
        bpy.ops.mechbake.bake()
    assert curves(rod) == {}
