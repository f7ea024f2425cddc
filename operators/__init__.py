"""MechBake's operators: thin over the scripting API in bake.py; they gather, call, report."""
import bpy
from bpy.props import EnumProperty

from .. import bake, preparation
from ..properties import JOINT_TYPES
from ..solver import ModelError, SimulationDiverged

# Problems found by the last Validate, by object name, for the panel's list to mark.
last_problems: dict[str, list[str]] = {}


def remember_problems(found: list[str]) -> None:
    last_problems.clear()
    for problem in found:
        name = problem.split("'")[1] if problem.count("'") >= 2 else ""
        last_problems.setdefault(name, []).append(problem)


class MECHBAKE_OT_add_joint(bpy.types.Operator):
    """Add a joint empty between the selected bodies (the active one becomes Body B)"""

    bl_idname = "mechbake.add_joint"
    bl_label = "Add Joint"
    bl_options = {"REGISTER", "UNDO"}

    joint_type: EnumProperty(name="Type", items=[item for item in JOINT_TYPES if item[0] != "NONE"], default="HINGE")

    def execute(self, context):
        meshes = [o for o in context.selected_objects if o.type == "MESH"]
        if len(meshes) > 2:
            self.report({"ERROR"}, "select at most two meshes (the active one becomes Body B)")
            return {"CANCELLED"}
        for obj in context.selected_objects:
            if obj.type != "MESH":
                self.report({"WARNING"}, f"'{obj.name}' is not a mesh, so it cannot be a body: left out of the joint")
        tagged = [o for o in meshes if o.mechbake.role == "NONE"]
        for obj in tagged:  # the artist asked to join them: they are bodies now
            obj.mechbake.role = "DYNAMIC"
        active = context.active_object if context.active_object in meshes else (meshes[-1] if meshes else None)
        others = [o for o in meshes if o is not active]
        places = [o.matrix_world.translation for o in meshes]
        location = sum(places, start=places[0] * 0) / len(places) if places else context.scene.cursor.location.copy()
        empty = bpy.data.objects.new(f"{self.joint_type.title()}Joint", None)
        empty.empty_display_type = "SINGLE_ARROW" if self.joint_type in ("HINGE", "SLIDER") else "SPHERE"
        empty.empty_display_size = 0.25
        empty.location = location
        context.collection.objects.link(empty)
        empty.mechbake.joint_type = self.joint_type
        empty.mechbake.body_b = active
        empty.mechbake.body_a = others[0] if others else None
        for obj in context.selected_objects:
            obj.select_set(False)
        empty.select_set(True)
        context.view_layer.objects.active = empty
        if tagged:
            self.report({"INFO"}, f"{' and '.join(repr(o.name) for o in tagged)} tagged as Dynamic "
                                  f"{'bodies' if len(tagged) > 1 else 'body'} (set Role to Fixed for a ground)")
        if not meshes:
            self.report({"WARNING"}, "no mesh was selected: the joint holds nothing yet; set its Body B (and Body A) "
                                     "in its panel")
        return {"FINISHED"}


class MECHBAKE_OT_validate(bpy.types.Operator):
    """Check the mechanism and report every problem, naming its object"""

    bl_idname = "mechbake.validate"
    bl_label = "Validate"
    bl_options = {"REGISTER", "UNDO"}

    def execute(self, context):
        found, doubts = bake.check(context.scene)
        remember_problems(found + doubts)
        for problem in found + doubts:  # warnings: Validate worked, it found problems (an error would raise in scripts)
            self.report({"WARNING"}, problem)
        if not found:
            self.report({"INFO"}, "the mechanism is ready to bake")
        return {"FINISHED"}


class MECHBAKE_OT_bake(bpy.types.Operator):
    """Simulate the mechanism over the scene's frame range and key every Dynamic body (Esc cancels)"""

    bl_idname = "mechbake.bake"
    bl_label = "Bake"
    bl_options = {"REGISTER", "UNDO"}

    def execute(self, context):
        """Scripts and background mode: run to the end."""
        try:
            report = bake.bake_scene(context.scene)
        except (ModelError, SimulationDiverged) as error:
            return self._fail(error)
        return self._done(report)

    def invoke(self, context, event):
        if bpy.app.background:
            return self.execute(context)
        self.job = None
        preparing = preparation.current()
        if preparing is None or not preparing.running:
            failed = self._start_job(context)
            if failed is not None:
                return failed
        manager = context.window_manager
        # baking: a few frames per tick, as often as Blender can; waiting: a look four times a second
        self.timer = manager.event_timer_add(0.001 if self.job else 0.25, window=context.window)
        manager.progress_begin(0, 100)
        manager.modal_handler_add(self)
        return {"RUNNING_MODAL"}

    def _start_job(self, context):
        """Reads the scene into a bake job; None, or the operator's result if it could not."""
        try:
            self.job = bake.Bake(context.scene)
        except ModelError as error:
            return self._fail(error)
        return None

    def modal(self, context, event):
        if event.type == "ESC":  # the job has written nothing: dropping it cancels
            self._stop(context)
            self.report({"WARNING"}, "bake cancelled; the scene is as it was")
            return {"CANCELLED"}
        if event.type != "TIMER":
            return {"PASS_THROUGH"}
        if self.job is None:  # waiting for the solver's kernels, compiled in the background (preparation.py)
            return self._wait_for_preparation(context)
        try:
            self.job.run(frames=2)
        except SimulationDiverged as error:
            self._stop(context)
            return self._fail(error)
        context.window_manager.progress_update(int(100 * self.job.progress))
        crawling = f"; {self.job.slow}" if self.job.slow else ""  # said while it runs, not only at the end
        context.workspace.status_text_set(f"MechBake: {100 * self.job.progress:.0f} % (Esc cancels){crawling}")
        if not self.job.finished:
            return {"RUNNING_MODAL"}
        self._stop(context)
        try:
            report = self.job.finish()
        except ModelError as error:
            return self._fail(error)
        return self._done(report)

    def _wait_for_preparation(self, context):
        preparing = preparation.current()
        if preparing is not None and preparing.running:
            context.workspace.status_text_set(f"MechBake: {preparation.PREPARING.lower()}, {preparing.stage}; "
                                              "the bake starts after it (Esc cancels)")
            return {"RUNNING_MODAL"}
        if preparing is not None and preparing.failure:
            self.report({"WARNING"}, preparing.failure)
        failed = self._start_job(context)
        if failed is not None:
            self._stop(context)
            return failed
        manager = context.window_manager
        manager.event_timer_remove(self.timer)
        self.timer = manager.event_timer_add(0.001, window=context.window)
        return {"RUNNING_MODAL"}

    def _stop(self, context) -> None:
        context.window_manager.event_timer_remove(self.timer)
        context.window_manager.progress_end()
        context.workspace.status_text_set(None)

    def _done(self, report):
        for warning in report.warnings:
            self.report({"WARNING"}, warning)
        self.report({"INFO"}, str(report))
        return {"FINISHED"}

    def _fail(self, error):
        remember_problems(str(error).split("\n"))
        for line in str(error).split("\n"):
            self.report({"ERROR"}, line)
        return {"CANCELLED"}


class MECHBAKE_OT_clear(bpy.types.Operator):
    """Remove the baked keys and put every body back in its pose from before the bake"""

    bl_idname = "mechbake.clear"
    bl_label = "Clear Bake"
    bl_options = {"REGISTER", "UNDO"}

    def execute(self, context):
        count = bake.clear_bake(context.scene)
        self.report({"INFO"}, f"cleared the bake of {count} bodies")
        return {"FINISHED"}


classes = (MECHBAKE_OT_add_joint, MECHBAKE_OT_validate, MECHBAKE_OT_bake, MECHBAKE_OT_clear)
# fake-bpy-module types the factory as returning None; it returns (register, unregister)
register, unregister = bpy.utils.register_classes_factory(classes)  # type: ignore[func-returns-value,misc]
