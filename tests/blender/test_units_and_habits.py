"""The artist's units and habits. Angles and lengths are typed in Blender's units,
Add Joint says what it did, and Validate lists every problem at once in the artist's words."""
import math

import bpy
import numpy as np
import pytest

from blender_build import add_box, add_joint, add_rod, set_frames
from keys import curves, point_track, world_matrices
from mechbake import bake
from mechbake.properties import drive_property


def typed(obj, name: str, text: str) -> None:
    """What Blender's field does with typed text: it reads it in the property's unit (a bare number is
    in degrees for an angle in a scene that shows degrees); a property without a unit takes a number."""
    unit = obj.mechbake.bl_rna.properties[name].unit
    value = bpy.utils.units.to_value(bpy.context.scene.unit_settings.system, unit, text) if unit != "NONE" \
        else float(text)
    setattr(obj.mechbake, name, value)


def test_a_hinge_limit_typed_as_30_stops_at_30_degrees_and_keys_store_radians():
    arm = add_rod("Arm", (0, 0, 0), (1, 0, 0))
    joint = add_joint("Elbow", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=arm, use_limits=True)
    typed(joint, drive_property("HINGE", "limit_min"), "-10")
    typed(joint, drive_property("HINGE", "limit_max"), "30")
    joint.keyframe_insert("mechbake.limit_max", frame=1)
    assert curves(joint)["mechbake.limit_max", 0].evaluate(1.0) == pytest.approx(math.radians(30), abs=1e-6)
    set_frames(1, 30)
    bake.bake_scene(bpy.context.scene)
    tip = point_track(arm, (0, 0, 0.5), [30])
    assert math.atan2(-tip[0, 2], tip[0, 0]) == pytest.approx(math.radians(30), abs=1e-5)


def test_a_slider_limit_typed_as_20_cm_stops_at_20_cm():
    block = add_box("Block", (0.2, 0.2, 0.2), (0, 0, 0))
    joint = add_joint("Rail", "SLIDER", (0, 0, 0), axis=(0, 0, -1), body_b=block, use_limits=True)
    typed(joint, drive_property("SLIDER", "limit_min"), "-5 cm")
    typed(joint, drive_property("SLIDER", "limit_max"), "20 cm")
    set_frames(1, 30)
    bake.bake_scene(bpy.context.scene)
    assert world_matrices(block, [30])[0][2, 3] == pytest.approx(-0.2, abs=1e-5)  # fell 20 cm, held there


def test_a_velocity_servo_typed_in_degrees_per_second():
    arm = add_rod("Arm", (0, 0, 0), (1, 0, 0))
    joint = add_joint("Spindle", "HINGE", (0, 0, 0), axis=(0, 0, 1), body_b=arm, motor_mode="VELOCITY",
                      motor_max_torque=0.0)
    typed(joint, drive_property("HINGE", "motor_speed"), "90")
    set_frames(1, 25)
    bake.bake_scene(bpy.context.scene)
    tip = point_track(arm, (0, 0, 0.5), [25])
    assert math.atan2(tip[0, 1], tip[0, 0]) == pytest.approx(math.radians(90), abs=1e-4)  # a quarter turn in 1 s


def select(*objects, active=None):
    for obj in bpy.context.scene.objects:
        obj.select_set(obj in objects)
    bpy.context.view_layer.objects.active = active or (objects[-1] if objects else None)


def untagged_cube(name, location):
    bpy.ops.mesh.primitive_cube_add(size=0.5, location=location)
    bpy.context.active_object.name = name
    return bpy.context.active_object


def test_add_joint_on_untagged_meshes_makes_them_bodies(capfd):
    left, right = untagged_cube("Left", (-1, 0, 0)), untagged_cube("Right", (1, 0, 0))
    select(left, right, active=right)
    assert bpy.ops.mechbake.add_joint(joint_type="HINGE") == {"FINISHED"}
    joint = bpy.context.active_object
    assert joint.mechbake.body_a == left and joint.mechbake.body_b == right
    assert left.mechbake.role == right.mechbake.role == "DYNAMIC"
    assert "'Left' and 'Right' tagged as Dynamic bodies" in capfd.readouterr().out  # background mode prints reports
    bake.bake_scene(bpy.context.scene)
    assert curves(left) and curves(right)


def test_add_joint_with_nothing_to_join_says_what_is_missing(capfd):
    lamp = bpy.data.objects.new("Lamp", bpy.data.lights.new("lamp", "POINT"))
    bpy.context.scene.collection.objects.link(lamp)
    select(lamp)
    assert bpy.ops.mechbake.add_joint(joint_type="BALL") == {"FINISHED"}
    joint = bpy.context.active_object
    assert joint.mechbake.body_a is None and joint.mechbake.body_b is None
    said = capfd.readouterr().out
    assert "'Lamp' is not a mesh, so it cannot be a body" in said
    assert "no mesh was selected: the joint holds nothing yet; set its Body B" in said


def test_validate_lists_body_and_joint_problems_together_in_the_artists_words():
    rod = add_rod("Rod", (0, 0, 0), (1, 0, 0))
    add_joint("Pivot", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=rod)
    bpy.ops.mesh.primitive_plane_add(size=1.0, location=(3, 0, 0))  # an open mesh: a body problem
    bpy.context.active_object.name = "Sheet"
    bpy.context.active_object.mechbake.role = "DYNAMIC"
    add_joint("Twice", "BALL", (0, 0, 0), body_a=rod, body_b=rod)
    ground = add_box("Ground", (1, 1, 0.1), (0, 0, -2), role="FIXED")
    add_joint("Nailed", "FIXED", (0, 0, -2), body_b=ground)
    add_joint("Tight", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=rod, use_limits=True, limit_min=0.1,
              limit_max=0.4)
    set_frames(1, 10)
    found = bake.problems(bpy.context.scene)
    expected = ["object 'Sheet': the mesh is not closed",
                "joint 'Twice': Body A and Body B are the same object ('Rod')",
                "joint 'Nailed': neither of its bodies can move ('Ground' is Fixed); make one of them Dynamic",
                "joint 'Tight': its limits (5.73° to 22.9°) must include 0°, the start pose"]
    for message in expected:
        assert any(p.startswith(message) for p in found), (message, found)
    assert not [p for p in found if "field '" in p]  # none in the file format's words


def test_validate_names_a_rotation_unit_in_radians_when_the_scene_shows_radians():
    rod = add_rod("Rod", (0, 0, 0), (1, 0, 0))
    add_joint("Tight", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=rod, use_limits=True, limit_min=0.1,
              limit_max=0.4)
    bpy.context.scene.unit_settings.system_rotation = "RADIANS"
    set_frames(1, 10)
    assert np.any(["its limits (0.1 to 0.4) must include 0" in p for p in bake.problems(bpy.context.scene)])


def test_a_linkage_whose_default_hulls_never_meet_does_no_contact_work():
    """A four-bar whose links and Fixed ground block keep Blender's default Convex Hull shape, as an
    artist leaves them: it bakes the same keys as with no shapes, and no sub-step spends time on
    contacts."""
    def four_bar(shape):
        bpy.ops.wm.read_factory_settings(use_empty=True)
        crank = add_rod("Crank", (0, 0, 0), (0, 0, 0.3), 0.03, shape=shape)
        coupler = add_rod("Coupler", (0, 0, 0.3), (1.0, 0, 0.6), 0.03, shape=shape)
        rocker = add_rod("Rocker", (1.0, 0, 0.6), (1.0, 0, 0), 0.03, shape=shape)
        add_box("Ground", (1.2, 0.2, 0.1), (0.5, 0, -0.3), role="FIXED", shape=shape)
        for name, body_a, body_b, place in (("A", None, crank, (0, 0, 0)), ("B", crank, coupler, (0, 0, 0.3)),
                                            ("C", coupler, rocker, (1.0, 0, 0.6)), ("D", rocker, None, (1.0, 0, 0))):
            add_joint(name, "HINGE", place, axis=(0, 1, 0), body_a=body_a, body_b=body_b)
        set_frames(1, 48, substeps=4)
        job = bake.Bake(bpy.context.scene)
        while not job.finished:
            job.run(frames=48)
        job.finish()
        return job, point_track(bpy.data.objects["Rocker"], (0, 0, 0), range(1, 49))

    hulls, with_hulls = four_bar("CONVEX_HULL")
    assert hulls.simulation.model.contacts.enabled
    assert hulls.simulation.stats["contact_substeps"] == 0
    _, without = four_bar("NONE")
    assert np.abs(with_hulls - without).max() < 1e-6
