"""MechBake's panels: a "MechBake" tab in the 3D viewport's sidebar and a subpanel in Object
properties. They draw settings and buttons only."""
import bpy

from .. import preparation
from ..operators import last_problems
from ..properties import EFFORT_JOINTS, drive_property


def draw_object_settings(layout, obj) -> None:
    """The body or joint settings of one object, shared by both places that show them."""
    settings = obj.mechbake
    if obj.type == "EMPTY":
        layout.prop(settings, "joint_type")
        kind = settings.joint_type
        if kind == "NONE":
            return
        layout.prop(settings, "body_a")
        layout.prop(settings, "body_b")
        if kind in ("DISTANCE", "SPRING", "RAIL"):
            layout.prop(settings, "target")
        if kind in ("HINGE", "SLIDER"):
            row = layout.row(align=True)
            row.prop(settings, "use_limits", text="Limits")
            sub = row.row(align=True)
            sub.active = settings.use_limits
            sub.prop(settings, drive_property(kind, "limit_min"))
            sub.prop(settings, drive_property(kind, "limit_max"))
            layout.prop(settings, "use_spring")
        if kind == "SPRING" or (kind in ("HINGE", "SLIDER") and settings.use_spring):
            column = layout.column(align=True)
            column.prop(settings, "spring_stiffness")
            column.prop(settings, "spring_damping")
            if kind == "SPRING":
                column.prop(settings, "use_spring_rest")
            column.prop(settings, drive_property(kind, "spring_rest"))
            column.prop(settings, "spring_method")
        if kind in ("HINGE", "SLIDER"):
            layout.prop(settings, "motor_mode")
            if settings.motor_mode != "NONE":
                column = layout.column(align=True)
                target = "motor_target" if settings.motor_mode == "POSITION" else "motor_speed"
                column.prop(settings, drive_property(kind, target))
                column.prop(settings, "motor_max_torque")
                column.prop(settings, "motor_brake")
        if kind in EFFORT_JOINTS:
            row = layout.row(align=True)
            row.prop(settings, "use_effort", text="Effort")
            sub = row.row(align=True)
            sub.active = settings.use_effort
            sub.prop(settings, "effort", text="Torque" if kind == "HINGE" else "Force")
    elif obj.type == "MESH":
        layout.prop(settings, "role")
        if settings.role == "DYNAMIC":
            layout.prop(settings, "mass")
            row = layout.row()
            row.active = settings.mass == 0
            row.prop(settings, "density")
        elif settings.role == "ANIMATED":  # its animation moves it: it needs no mass, only a surface
            layout.label(text="Follows its keys, drivers, constraints and parents", icon="ANIM")
        if settings.role != "NONE":
            layout.prop(settings, "collision_shape")
            row = layout.row(align=True)
            row.prop(settings, "friction")
            row.prop(settings, "restitution")
    else:
        layout.label(text="Meshes are bodies, empties are joints")


class MECHBAKE_UL_items(bpy.types.UIList):
    """The mechanism's bodies and joints; the last Validate's problems are marked."""

    def draw_item(self, context, layout, data, item, icon, active_data, active_property, index=0, flt_flag=0):
        settings = item.mechbake
        kind = settings.joint_type.title() if item.type == "EMPTY" else settings.role.title()
        problem = item.name in last_problems
        layout.label(text=item.name,
                     icon="ERROR" if problem else ("EMPTY_AXIS" if item.type == "EMPTY" else "MESH_DATA"))
        layout.label(text=kind)

    def filter_items(self, context, data, propname):
        objects = getattr(data, propname)
        flags = [self.bitflag_filter_item if _in_mechanism(o) else 0 for o in objects]
        return flags, []


def _in_mechanism(obj) -> bool:
    settings = obj.mechbake
    return (obj.type == "MESH" and settings.role != "NONE") or (obj.type == "EMPTY" and settings.joint_type != "NONE")


class MECHBAKE_PT_main(bpy.types.Panel):
    bl_label = "MechBake"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "MechBake"

    def draw(self, context):
        layout = self.layout
        scene = context.scene
        solver_status = preparation.status()
        if solver_status is not None:
            icon, (first, *more) = solver_status
            column = layout.column(align=True)
            column.label(text=first, icon=icon)
            for line in more:
                column.label(text=line, icon="BLANK1")
        layout.template_list("MECHBAKE_UL_items", "", scene, "objects", scene.mechbake, "active_item", rows=4)
        for problem in [p for problems in last_problems.values() for p in problems][:5]:
            layout.label(text=problem, icon="ERROR")
        row = layout.row(align=True)
        row.operator("mechbake.add_joint", icon="EMPTY_AXIS")
        row.operator("mechbake.validate", icon="CHECKMARK")
        row = layout.row(align=True)
        row.scale_y = 1.4
        row.operator("mechbake.bake", icon="REC")
        row.operator("mechbake.clear", icon="X")


class MECHBAKE_PT_active(bpy.types.Panel):
    bl_label = "Active Object"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "MechBake"
    bl_parent_id = "MECHBAKE_PT_main"

    @classmethod
    def poll(cls, context):
        return context.active_object is not None

    def draw(self, context):
        self.layout.use_property_split = True
        draw_object_settings(self.layout, context.active_object)


class MECHBAKE_PT_settings(bpy.types.Panel):
    bl_label = "Solver"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "MechBake"
    bl_parent_id = "MECHBAKE_PT_main"
    bl_options = {"DEFAULT_CLOSED"}

    def draw(self, context):
        layout = self.layout
        layout.use_property_split = True
        settings = context.scene.mechbake
        for name in ("substeps", "extrapolation", "dmax", "vmax", "solver"):
            layout.prop(settings, name)
        row = layout.row()
        row.active = settings.solver == "SYSTEM"  # the iterative solver keeps the levers at the step's ends
        row.prop(settings, "levers")
        for name in ("taylor_order", "velocity_correction", "max_corrections", "error_tolerance", "energy_tolerance",
                     "contact_method", "sleep_speed"):
            layout.prop(settings, name)
        layout.label(text="Gravity and frame range are the scene's")


class MECHBAKE_PT_object(bpy.types.Panel):
    bl_label = "MechBake"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "object"

    @classmethod
    def poll(cls, context):
        return context.object is not None and context.object.type in ("MESH", "EMPTY")

    def draw(self, context):
        self.layout.use_property_split = True
        draw_object_settings(self.layout, context.object)


classes = (MECHBAKE_UL_items, MECHBAKE_PT_main, MECHBAKE_PT_active, MECHBAKE_PT_settings, MECHBAKE_PT_object)
# fake-bpy-module types the factory as returning None; it returns (register, unregister)
register, unregister = bpy.utils.register_classes_factory(classes)  # type: ignore[func-returns-value,misc]
