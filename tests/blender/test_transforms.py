"""Every transform an artist uses is honoured, or refused by name."""
import math

import bpy
import numpy as np
import pytest
from mathutils import Euler, Matrix, Vector

from blender_build import add_box, add_joint, add_rod, set_frames
from keys import curves, point_track, world_matrices
from mechbake import bake
from mechbake.solver import ModelError


def swing_about(obj, anchor, axis=(0, 1, 0), frames=36):
    """Hangs obj on a hinge at anchor, bakes, and returns (start matrix, matrices at every frame, the
    anchor's track in the object's own coordinates)."""
    add_joint("Hinge", "HINGE", anchor, axis=axis, body_b=obj)
    set_frames(1, frames, substeps=10, dmax=1e-7)
    start = obj.matrix_world.copy()
    bake.bake_scene(bpy.context.scene)
    return (np.array(start), world_matrices(obj, range(1, frames + 1)),
            point_track(obj, start.inverted() @ Vector(anchor), range(1, frames + 1)))


POSES = [("XYZ", (0.0, 0.0, 0.4)), ("XYZ", (0.3, -1.2, 2.5)), ("ZXY", (math.pi, 0.2, -0.4)),
         ("QUATERNION", (1.1, 0.3, 2.9)), ("AXIS_ANGLE", (0.0, 2.0, 3.1))]


@pytest.mark.parametrize("mode, angles", POSES, ids=[f"{m}-{a}" for m, a in POSES])
def test_a_mirrored_body_starts_where_it_stands_and_keeps_its_hinge(mode, angles):
    box = add_box("Mirrored", (1.0, 1.0, 1.0), (0.6, 0.2, -0.3))
    box.scale = (-1.0, 0.5, 0.25)
    box.rotation_mode = mode
    turn = Euler(angles, "XYZ").to_quaternion()
    if mode == "QUATERNION":
        box.rotation_quaternion = turn
    elif mode == "AXIS_ANGLE":
        axis, angle = turn.to_axis_angle()
        box.rotation_axis_angle = (angle, *axis)
    else:
        box.rotation_euler = turn.to_euler(mode)
    bpy.context.view_layer.update()
    start, matrices, anchor_track = swing_about(box, (0.0, 0.0, 0.0))
    assert np.abs(matrices[0] - start).max() < 1e-6  # not turned 180 degrees at the first frame
    assert np.abs(anchor_track).max() < 1e-5  # the hinge holds the box's own point all the way
    assert np.abs(matrices[-1] - start).max() > 0.05  # and it did swing


def test_delta_transforms_are_kept_out_of_the_keys():
    box = add_box("Offset", (0.2, 0.2, 1.0), (0.0, 0.0, 0.0), rotation=(0.2, 0.0, 0.0))
    box.delta_location = (0.7, 0.0, -0.5)
    box.delta_rotation_euler = (0.0, 0.0, 0.9)
    box.delta_scale = (1.0, 2.0, 1.0)
    bpy.context.view_layer.update()
    start, matrices, anchor_track = swing_about(box, (0.7, 0.0, -0.1))
    assert np.abs(matrices[0] - start).max() < 1e-6
    assert np.abs(anchor_track - [0.7, 0.0, -0.1]).max() < 1e-5
    assert tuple(box.delta_location) == pytest.approx((0.7, 0.0, -0.5))  # the artist's deltas stay as they were


def test_two_bodies_sharing_one_action_each_get_their_own_motion():
    left = add_rod("Left", (0, 0, 0), (1, 0, 0))
    left.keyframe_insert("scale", frame=1)
    right = left.copy()  # the copy shares the action, as Duplicate Linked and obj.copy() do
    right.name = "Right"
    bpy.context.scene.collection.objects.link(right)
    right.location.x += 3.0
    right.rotation_quaternion = Vector((0, 0, 1)).rotation_difference(Vector((0, 0, -1)))  # hanging still
    shared = left.animation_data.action
    add_joint("LeftPivot", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=left)
    add_joint("RightPivot", "HINGE", (3.5, 0, 0.5), axis=(0, 1, 0), body_b=right)
    set_frames(1, 24)
    bpy.context.view_layer.update()
    right_start = np.array(right.matrix_world)
    bake.bake_scene(bpy.context.scene)
    assert np.abs(world_matrices(right, [24])[0] - right_start).max() < 1e-5  # hanging straight down stays still
    assert np.abs(point_track(left, (0, 0, -0.5), [1, 24])).max() < 1e-5  # the left rod swings about its own pivot
    assert world_matrices(left, [12])[0][2, 3] < -0.3  # down it swung
    bake.clear_bake(bpy.context.scene)
    assert left.animation_data.action == shared and right.animation_data.action == shared


def test_a_constraint_on_a_body_is_named_and_a_disabled_one_is_fine():
    rod = add_rod("Rod", (0, 0, 0), (1, 0, 0))
    add_joint("Pivot", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=rod)
    set_frames(1, 10)
    limit = rod.constraints.new("LIMIT_LOCATION")
    limit.name = "Stay Up"
    message = "object 'Rod': its constraint 'Stay Up' would override the baked motion; delete it or turn it off"
    assert message in bake.problems(bpy.context.scene)
    with pytest.raises(ModelError, match="constraint 'Stay Up'"):
        bake.bake_scene(bpy.context.scene)
    limit.enabled = False
    assert bake.problems(bpy.context.scene) == []


def test_a_driver_on_a_bodys_location_is_named():
    rod = add_rod("Rod", (0, 0, 0), (1, 0, 0))
    add_joint("Pivot", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=rod)
    set_frames(1, 10)
    rod.driver_add("location", 2)
    assert any("object 'Rod': a driver on its location would override" in p for p in bake.problems(bpy.context.scene))


def test_bodies_in_an_excluded_collection_are_left_out():
    rod = add_rod("Rod", (0, 0, 0), (1, 0, 0))
    add_joint("Pivot", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=rod)
    stored = bpy.data.collections.new("Stored")
    bpy.context.scene.collection.children.link(stored)
    spare = add_rod("Spare", (3, 0, 0), (4, 0, 0))
    bpy.context.scene.collection.objects.unlink(spare)
    stored.objects.link(spare)
    bpy.context.view_layer.layer_collection.children["Stored"].exclude = True
    set_frames(1, 10)
    report = bake.bake_scene(bpy.context.scene)
    assert report.bodies == 1 and curves(spare) == {} and not spare.mechbake.is_baked
    bpy.data.objects["Pivot"].mechbake.body_b = spare
    assert "joint 'Pivot': its Body B 'Spare' is not in the scene (deleted, or its collection is excluded)" in \
        bake.problems(bpy.context.scene)


def arrayed_box(offset: float):
    box = add_box("Chain", (0.2, 0.2, 0.2), (0, 0, 1), shape="NONE")
    array = box.modifiers.new("Array", "ARRAY")
    array.count, array.relative_offset_displace = 3, (offset, 0.0, 0.0)
    array.use_merge_vertices = False
    add_joint("Pin", "BALL", (0, 0, 1.2), body_b=box)
    set_frames(1, 10)
    return box


def test_overlapping_array_copies_are_warned_about():
    arrayed_box(0.5)
    problems, warnings = bake.check(bpy.context.scene)
    assert problems == []
    assert any("object 'Chain': parts of its mesh overlap" in w for w in warnings)
    assert any("parts of its mesh overlap" in w for w in bake.bake_scene(bpy.context.scene).warnings)


@pytest.mark.parametrize("offset", [1.0, 1.5])
def test_touching_or_apart_array_copies_are_fine(offset):
    arrayed_box(offset)
    assert bake.check(bpy.context.scene) == ([], [])


def test_a_hollow_body_is_not_an_overlap():
    """A shell inside a shell, wound inward, is a cavity: its volume is taken away, not counted twice."""
    box = add_box("Hollow", (1.0, 1.0, 1.0), (0, 0, 1), shape="NONE")
    inner = [Matrix.Scale(0.5, 3) @ v.co for v in box.data.vertices]
    faces = [tuple(reversed([v + 8 for v in p.vertices])) for p in box.data.polygons]
    mesh = bpy.data.meshes.new("hollow")
    mesh.from_pydata([v.co for v in box.data.vertices] + inner, [],
                     [tuple(p.vertices) for p in box.data.polygons] + faces)
    box.data = mesh
    add_joint("Pin", "BALL", (0, 0, 1.6), body_b=box)
    set_frames(1, 10)
    assert bake.check(bpy.context.scene) == ([], [])
