"""Every way a scene can be unfit to bake gets a message naming the object; nothing is changed."""
import bpy
import pytest

from blender_build import add_box, add_joint, add_marker, add_rod, set_frames
from keys import curves
from mechbake import bake
from mechbake.solver import ModelError


def rod_on_hinge():
    rod = add_rod("Rod", (0, 0, 0), (1, 0, 0))
    joint = add_joint("Pivot", "HINGE", (0, 0, 0), axis=(0, 1, 0), body_b=rod)
    set_frames(1, 10)
    return rod, joint


def open_mesh(rod, joint):
    bpy.ops.mesh.primitive_plane_add(size=1.0, location=(3, 0, 0))
    bpy.context.active_object.name = "Sheet"
    bpy.context.active_object.mechbake.role = "DYNAMIC"


def flat_mesh(rod, joint):
    box = add_box("Flat", (1.0, 1.0, 0.0), (3, 0, 0))
    box.mechbake.role = "DYNAMIC"


def empty_mesh(rod, joint):
    obj = bpy.data.objects.new("Nothing", bpy.data.meshes.new("nothing"))
    bpy.context.scene.collection.objects.link(obj)
    obj.mechbake.role = "DYNAMIC"


def parented(rod, joint):
    holder = add_box("Holder", (0.2, 0.2, 0.2), (0, 0, 2), role="FIXED")
    rod.parent = holder


def not_a_mesh(rod, joint):
    marker = add_marker("Marker", (0, 0, 1))
    marker.mechbake.role = "DYNAMIC"


def untagged_body(rod, joint):
    rod.mechbake.role = "NONE"


def missing_target(rod, joint):
    joint.mechbake.joint_type = "SPRING"


def motor_on_ball(rod, joint):
    joint.mechbake.joint_type, joint.mechbake.motor_mode = "BALL", "VELOCITY"


def effort_on_ball(rod, joint):
    joint.mechbake.joint_type, joint.mechbake.use_effort, joint.mechbake.effort = "BALL", True, 1.0


def zero_axis(rod, joint):
    joint.scale = (0, 0, 0)


def world_name(rod, joint):
    rod.name = "world"


def no_dynamic_body(rod, joint):
    rod.mechbake.role = "FIXED"
    joint.mechbake.joint_type = "NONE"


def joint_of_fixed_bodies(rod, joint):
    rod.mechbake.role = "FIXED"
    add_box("Loose", (0.2, 0.2, 0.2), (0, 0, 3))  # so the scene still has something to move


def zero_density(rod, joint):
    rod.mechbake.density = 0.0


def limits_excluding_the_start(rod, joint):
    joint.mechbake.use_limits, joint.mechbake.limit_min, joint.mechbake.limit_max = True, 0.2, 0.5


def empty_frame_range(rod, joint):
    bpy.context.scene.frame_end = 1


CASES = [
    (open_mesh, "object 'Sheet': the mesh is not closed"),
    (flat_mesh, "object 'Flat': the mesh encloses no volume"),
    (empty_mesh, "object 'Nothing': the mesh has no faces"),
    (parented, "object 'Rod': a MechBake body cannot have a parent ('Holder')"),
    (not_a_mesh, "object 'Marker': a Dynamic body must be a mesh"),
    (untagged_body, "joint 'Pivot': Body B 'Rod' is not a MechBake body"),
    (missing_target, "joint 'Pivot': a Spring joint needs a Target object"),
    (motor_on_ball, "joint 'Pivot': a Ball joint cannot carry a motor"),
    (effort_on_ball, "joint 'Pivot': a Ball joint cannot carry an applied effort (only Hinge, Slider and Rail can)"),
    (zero_axis, "joint 'Pivot': its Z axis has no length"),
    (world_name, "object 'world': the name 'world' is reserved"),
    (no_dynamic_body, "the scene has no Dynamic body"),
    (joint_of_fixed_bodies, "joint 'Pivot': neither of its bodies can move ('Rod' is Fixed); make one of them Dynamic"),
    (zero_density, "object 'Rod': needs a positive mass or density"),
    (limits_excluding_the_start, "joint 'Pivot': its limits (11.5° to 28.6°) must include 0°, the start pose"),
    (empty_frame_range, "frame range 1-1 is empty"),
]


@pytest.mark.parametrize("spoil, message", CASES, ids=[case[0].__name__ for case in CASES])
def test_problem_is_named_and_the_scene_is_left_alone(spoil, message):
    rod, joint = rod_on_hinge()
    spoil(rod, joint)
    bpy.context.view_layer.update()
    assert any(message in problem for problem in bake.problems(bpy.context.scene)), bake.problems(bpy.context.scene)
    frame = bpy.context.scene.frame_current
    with pytest.raises(ModelError, match=message.replace("(", r"\(").replace(")", r"\)")):
        bake.bake_scene(bpy.context.scene)
    assert bpy.context.scene.frame_current == frame
    assert all(curves(obj) == {} for obj in bpy.context.scene.objects)


def test_validate_lists_every_problem_at_once():
    rod, joint = rod_on_hinge()
    open_mesh(rod, joint)
    motor_on_ball(rod, joint)
    found = bake.problems(bpy.context.scene)
    assert any("Sheet" in p for p in found) and any("Pivot" in p for p in found)


def test_cancelled_bake_leaves_the_scene_as_it_was():
    rod, _ = rod_on_hinge()
    set_frames(1, 50)
    bpy.context.scene.frame_set(17)
    job = bake.Bake(bpy.context.scene)
    job.run(frames=5)
    assert not job.finished
    del job  # cancelling is dropping the job
    assert bpy.context.scene.frame_current == 17
    assert curves(rod) == {} and not rod.mechbake.is_baked
