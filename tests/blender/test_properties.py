"""Every property exists with its default, takes values, and the animatable ones can be keyed."""
import bpy
import pytest

from blender_build import add_box, add_joint
from mechbake.panels import draw_object_settings

OBJECT_DEFAULTS = {"role": "NONE", "mass": 0.0, "density": 1000.0, "collision_shape": "CONVEX_HULL", "friction": 0.5,
                   "restitution": 0.0, "joint_type": "NONE", "body_a": None, "body_b": None, "target": None,
                   "use_limits": False, "limit_min": -1.0, "limit_max": 1.0, "limit_min_length": -1.0,
                   "limit_max_length": 1.0, "use_spring": False, "spring_stiffness": 100.0, "spring_damping": 0.0,
                   "spring_rest": 0.0, "spring_rest_length": 0.0, "spring_method": "IMPULSE", "motor_mode": "NONE",
                   "motor_target": 0.0, "motor_target_length": 0.0, "motor_speed": 0.0, "motor_speed_length": 0.0,
                   "motor_max_torque": 100.0, "motor_brake": 0.0, "use_effort": False, "effort": 0.0}
SCENE_DEFAULTS = {"substeps": 10, "dmax": 1e-7, "vmax": 1e-6, "solver": "SYSTEM", "taylor_order": 3,
                  "velocity_correction": True, "max_corrections": 200, "contact_method": "IMPULSE",
                  "extrapolation": "NONE", "levers": "START", "error_tolerance": 0.0,
                  "energy_tolerance": 5e-3}


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
                                  "spring_damping", "spring_rest", "spring_rest_length", "motor_brake",
                                  "effort"])
def test_drive_settings_can_be_keyed(name):
    joint = add_joint("Joint", "HINGE", (0, 0, 0))
    setattr(joint.mechbake, name, 0.25)
    assert joint.keyframe_insert(f"mechbake.{name}", frame=5)


class RecordingLayout:
    """Stands in for a panel's layout: records the properties drawn, with their labels."""

    def __init__(self, drawn: dict):
        self.drawn = drawn
        self.active = True

    def prop(self, _data, name, text=None):
        self.drawn[name] = text

    def row(self, align=False):
        return self

    column = row

    def label(self, text="", icon="NONE"):
        pass


@pytest.mark.parametrize("joint_type, label", [("HINGE", "Torque"), ("SLIDER", "Force"), ("RAIL", "Force"),
                                               ("BALL", None)])
def test_the_panel_offers_an_effort_on_hinges_sliders_and_rails(joint_type, label):
    joint = add_joint("Joint", joint_type, (0, 0, 0))
    drawn: dict = {}
    draw_object_settings(RecordingLayout(drawn), joint)
    assert ("use_effort" in drawn, drawn.get("effort")) == (label is not None, label)
