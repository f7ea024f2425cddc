"""Scenes an artist can make with a body missing, deleted or linked from a library: each is named by
Validate and the bake, never raises, bakes wrong or silently joins a joint to the world."""
import bpy
import numpy as np
import pytest

from blender_build import add_box, add_joint, add_marker, add_rod, set_frames
from keys import curves, world_matrices
from mechbake import bake
from mechbake.solver import ModelError


def test_a_rail_whose_body_b_is_not_in_the_scene_is_named():
    bead = add_box("Bead", (0.1, 0.1, 0.1), (0.5, 0, 0))
    end = add_marker("RailEnd", (1, 0, 0))
    add_joint("Rail", "RAIL", (0, 0, 0), body_b=bead, target=end)
    set_frames(1, 10)
    bpy.context.scene.collection.objects.unlink(bead)
    message = "joint 'Rail': its Body B 'Bead' is not in the scene (deleted, or its collection is excluded)"
    assert message in bake.problems(bpy.context.scene)
    with pytest.raises(ModelError, match="its Body B 'Bead' is not in the scene"):
        bake.bake_scene(bpy.context.scene)


def test_deleting_body_a_is_named_instead_of_joining_the_world():
    upper = add_rod("Upper", (0, 0, 0), (1, 0, 0))
    lower = add_rod("Lower", (1, 0, 0), (2, 0, 0))
    add_joint("Shoulder", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=upper)
    add_joint("Elbow", "HINGE", (1, 0, 0), axis=(0, 1, 0), body_a=upper, body_b=lower)
    set_frames(1, 10)
    bpy.data.objects.remove(upper)
    problems = bake.problems(bpy.context.scene)
    assert "joint 'Elbow': its Body A 'Upper' was deleted; pick another body, or clear Body A to hold the joint " \
           "to the world" in problems
    elbow = bpy.data.objects["Elbow"]
    elbow.mechbake.body_a = None  # cleared on purpose: now it is a joint to the world
    assert not [p for p in bake.problems(bpy.context.scene) if "Elbow" in p]


def test_a_body_deleted_from_the_scene_but_still_held_by_a_joint_is_named():
    rod = add_rod("Rod", (0, 0, 0), (1, 0, 0))
    add_joint("Pivot", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=rod)
    set_frames(1, 10)
    for obj in bpy.context.scene.objects:
        obj.select_set(obj == rod)
    bpy.context.view_layer.objects.active = rod
    bpy.ops.object.delete()  # the joint's pointer keeps the object alive outside the scene
    assert "joint 'Pivot': its Body B 'Rod' is not in the scene (deleted, or its collection is excluded)" in \
        bake.problems(bpy.context.scene)


def linked_rod(tmp_path):
    """A scene that links a Dynamic rod from another .blend file, hung on a local hinge."""
    library = str(tmp_path / "parts.blend")
    add_rod("Rod", (0, 0, 0), (1, 0, 0))
    bpy.ops.wm.save_as_mainfile(filepath=library)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    with bpy.data.libraries.load(library, link=True) as (source, target):
        target.objects = ["Rod"]
    rod = target.objects[0]
    bpy.context.scene.collection.objects.link(rod)
    add_joint("Pivot", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=rod)
    set_frames(1, 12)
    return rod


def test_a_body_linked_from_a_library_is_named_and_bakes_once_made_local(tmp_path):
    rod = linked_rod(tmp_path)
    assert any(p.startswith("object 'Rod' is linked from the library") and "Make Local" in p
               for p in bake.problems(bpy.context.scene))
    with pytest.raises(ModelError, match="object 'Rod' is linked from the library"):
        bake.bake_scene(bpy.context.scene)
    assert rod.animation_data is None
    rod = rod.make_local()
    bpy.data.objects["Pivot"].mechbake.body_b = rod
    bake.bake_scene(bpy.context.scene)
    pose = world_matrices(rod, [12])[0]
    path = str(tmp_path / "scene.blend")
    bpy.ops.wm.save_as_mainfile(filepath=path)
    bpy.ops.wm.open_mainfile(filepath=path)
    rod = bpy.data.objects["Rod"]
    assert len(curves(rod)["location", 0].keyframe_points) == 12
    assert np.abs(world_matrices(rod, [12])[0] - pose).max() < 1e-6
    assert abs(pose[2, 3]) > 0.1  # swung down, not at the origin
