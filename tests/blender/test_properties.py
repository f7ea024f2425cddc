"""Every property exists with its default, takes values, and the animatable ones can be keyed."""
import bpy
import pytest

from blender_build import add_box, add_joint

OBJECT_DEFAULTS = {"role": "NONE", "mass": 0.0, "density": 1000.0, "collision_shape": "CONVEX_HULL", "friction": 0.5,
                   "restitution": 0.0, "joint_type": "NONE", "body_a": None, "body_b": None, "target": None,
                   "use_limits": False, "limit_min": -1.0, "limit_max": 1.0, "limit_min_length": -1.0,
                   "limit_max_length": 1.0, "use_spring": False, "spring_stiffness": 100.0, "spring_damping": 0.0,
                   "spring_rest": 0.0, "spring_rest_length": 0.0, "spring_method": "IMPULSE", "motor_mode": "NONE",
                   "motor_target": 0.0, "motor_target_length": 0.0, "motor_speed": 0.0, "motor_speed_length": 0.0,
                   "motor_max_torque": 100.0, "motor_brake": 0.0}
SCENE_DEFAULTS = {"substeps": 10, "dmax": 1e-7, "vmax": 1e-6, "solver": "SYSTEM", "taylor_order": 3,
                  "velocity_correction": True, "max_corrections": 200, "contact_method": "IMPULSE",
                  "extrapolation": "NONE", "levers": "START"}


def test_object_and_scene_defaults():
    obj = bpy.data.objects.new("Thing", None)
    for name, value in OBJECT_DEFAULTS.items():
        assert getattr(obj.mechbake, name) == pytest.approx(value) if isinstance(value, float) else \
            getattr(obj.mechbake, name) == value, name
    for name, value in SCENE_DEFAULTS.items():
        assert getattr(bpy.context.scene.mechbake, name) == pytest.approx(value), name


def test_enums_reject_unknown_values_and_body_pointers_offer_only_bodies():
    from mechbake.properties import MECHBAKE_PG_object

    box = add_box("Box", (1, 1, 1), (0, 0, 0))
    joint = add_joint("Joint", "HINGE", (0, 0, 0))
    with pytest.raises(TypeError):
        box.mechbake.role = "FLOATING"
    joint.mechbake.body_b = box
    assert joint.mechbake.body_b == box
    untagged = bpy.data.objects.new("Untagged", bpy.data.meshes.new("mesh"))
    offer = MECHBAKE_PG_object.__annotations__["body_a"].keywords["poll"]
    assert offer(joint.mechbake, box) and not offer(joint.mechbake, untagged) and not offer(joint.mechbake, joint)


@pytest.mark.parametrize("name", ["motor_target", "motor_target_length", "motor_speed", "motor_speed_length",
                                  "limit_min", "limit_max", "limit_min_length", "limit_max_length", "spring_stiffness",
                                  "spring_damping", "spring_rest", "spring_rest_length", "motor_brake"])
def test_drive_settings_can_be_keyed(name):
    joint = add_joint("Joint", "HINGE", (0, 0, 0))
    setattr(joint.mechbake, name, 0.25)
    assert joint.keyframe_insert(f"mechbake.{name}", frame=5)
