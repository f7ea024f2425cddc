"""MechBake's settings on objects (Object.mechbake) and scenes (Scene.mechbake)."""
import bpy
from bpy.props import (BoolProperty, EnumProperty, FloatProperty, FloatVectorProperty, IntProperty, PointerProperty,
                       StringProperty)

ROLES = [("NONE", "None", "Not part of the mechanism"),
         ("DYNAMIC", "Dynamic", "A moving rigid body: mass and inertia come from its mesh"),
         ("FIXED", "Fixed", "A body that never moves (ground, frame)"),
         # last, so that files saved before it keep their roles (an enum is saved as its item's number)
         ("ANIMATED", "Animated", "Follows its own animation (keys, drivers, constraints, parents) and drives the "
                                  "mechanism through its joints and contacts")]
JOINT_TYPES = [("NONE", "None", "Not a joint"),
               ("BALL", "Ball", "The two bodies share a point and turn freely about it"),
               ("HINGE", "Hinge", "The bodies turn about the empty's Z axis only"),
               ("SLIDER", "Slider", "Body B slides along the empty's Z axis, without turning"),
               ("RAIL", "Rail", "A point of body B runs on the segment from this empty to the target, with end stops"),
               ("FIXED", "Fixed", "The two bodies move as one"),
               ("DISTANCE", "Distance", "This empty and the target keep their distance (a massless rod)"),
               ("SPRING", "Spring", "A spring-damper between this empty and the target")]
SHAPES = [("CONVEX_HULL", "Convex Hull", "The corners of the mesh's convex hull touch the floor and obstacles"),
          ("MESH", "Mesh", "Fixed bodies: the mesh's triangles are the obstacle (moving bodies use its hull)"),
          ("BOX", "Box", "The bounding box, in the object's axes"),
          ("SPHERE", "Sphere", "The sphere about the centre of mass (an Animated body's origin) that holds the mesh"),
          ("CAPSULE", "Capsule", "A capsule along the object's local Z axis through the centre of mass (an Animated "
                                 "body's origin) that holds the mesh"),
          ("NONE", "None", "No collisions for this body")]
CONTACT_METHODS = [("IMPULSE", "Impulse",
                    "Contact pairs in the joint correction, impacts by Poisson's law (Schmitt §11)"),
                   ("LCP", "LCP", "Time-stepping LCP with a polyhedral friction cone (Stewart and Trinkle)")]
SPRING_METHODS = [("IMPULSE", "Impulse", "Explicit centred impulse (Schmitt): exact, stable below k = 4 m / h^2"),
                  ("SOFT", "Soft", "Soft constraint (Strashnov): stable at any stiffness, slightly damped")]
MOTOR_MODES = [("NONE", "None", "No motor"), ("POSITION", "Position", "Servo to a target angle or position"),
               ("VELOCITY", "Velocity", "Drive at a target angular or linear speed")]
SOLVERS = [("SYSTEM", "System", "Solve all joints at once (Schmitt §7); fastest for most mechanisms"),
           ("ITERATIVE", "Iterative", "Correct joints one after another (Schmitt §5); near a singular position (a "
                                      "four-bar lying flat), where that stalls, all at once")]
EXTRAPOLATIONS = [("NONE", "None", "One solver step per substep: errors fall with the square of the step"),
                  ("RICHARDSON", "Richardson", "Each substep once whole and twice halved, combined as "
                                               "-1/3 p(h) + 4/3 p(h/2) (Schmitt §8): a pendulum's period about 400 "
                                               "times more exact at one substep per frame, for three times the "
                                               "work")]
LEVERS = [("START", "Step Start", "Schmitt's: the joints' impulses act along the rows at each step's start and "
                                  "end; fastest"),
          ("THIRDS", "Thirds", "The joints' impulses act along the rows a third and two thirds of the way along "
                               "each step: a link turning fast keeps its phase (a rod swinging from 150° keeps "
                               "its period 2.6 times better at two substeps), for about 2.4 times the work. "
                               "System solver only")]


EFFORT_JOINTS = ("HINGE", "SLIDER", "RAIL")  # the joint types that carry an applied effort


def _is_body(_self, obj) -> bool:
    return obj.type == "MESH" and obj.mechbake.role != "NONE"


def drive_property(joint_type: str, name: str) -> str:
    """The property of a drive value (limit_min, limit_max, spring_rest, motor_target, motor_speed) for a joint
    type: a hinge's is an angle, a slider's (and a Spring joint's rest) a length."""
    return name if joint_type == "HINGE" else f"{name}_length"


def _remember_body_a(self, _context) -> None:
    self.body_a_name = self.body_a.name if self.body_a is not None else ""


def _remember_body_b(self, _context) -> None:
    self.body_b_name = self.body_b.name if self.body_b is not None else ""


class MECHBAKE_PG_object(bpy.types.PropertyGroup):
    role: EnumProperty(name="Role", items=ROLES, default="NONE")
    mass: FloatProperty(name="Mass", description="Mass in kg; 0 takes it from the density and the mesh volume",
                        default=0.0, min=0.0, unit="MASS")
    density: FloatProperty(name="Density", description="kg/m³, used when Mass is 0", default=1000.0, min=0.0)
    collision_shape: EnumProperty(name="Collision Shape", items=SHAPES, default="CONVEX_HULL")
    friction: FloatProperty(name="Friction", default=0.5, min=0.0)
    restitution: FloatProperty(name="Restitution", description="0 plastic, 1 elastic", default=0.0, min=0.0, max=1.0)

    joint_type: EnumProperty(name="Joint", items=JOINT_TYPES, default="NONE")
    body_a: PointerProperty(name="Body A", type=bpy.types.Object, poll=_is_body, update=_remember_body_a,
                            description="First body; empty means the world")
    body_b: PointerProperty(name="Body B", type=bpy.types.Object, poll=_is_body, update=_remember_body_b,
                            description="Second body; empty means the world")
    # The name of the body last chosen: deleting that body empties the pointer without an update,
    # and the joint must then say so rather than join the world
    body_a_name: StringProperty(options={"HIDDEN"})
    body_b_name: StringProperty(options={"HIDDEN"})
    target: PointerProperty(name="Target", type=bpy.types.Object,
                            description="Marks the other anchor of a distance joint or spring, or a rail's end")
    use_limits: BoolProperty(name="Limits", default=False)
    # Hinges and sliders keep their values apart, in Blender's units (as its own rigid body
    # constraints do): an angle typed as 90 is 90° (stored, and keyed, in radians), a length is
    # in the scene's length unit.
    limit_min: FloatProperty(name="Min", description="Lowest angle (0 is the start pose)", default=-1.0,
                             subtype="ANGLE")
    limit_max: FloatProperty(name="Max", description="Highest angle (0 is the start pose)", default=1.0,
                             subtype="ANGLE")
    limit_min_length: FloatProperty(name="Min", description="Lowest position along the axis (0 is the start pose)",
                                    default=-1.0, subtype="DISTANCE")
    limit_max_length: FloatProperty(name="Max", description="Highest position along the axis (0 is the start pose)",
                                    default=1.0, subtype="DISTANCE")
    use_spring: BoolProperty(name="Spring", description="A torsion (hinge) or linear (slider) spring", default=False)
    spring_stiffness: FloatProperty(name="Stiffness", description="N/m, or N·m/rad for a hinge", default=100.0, min=0.0)
    spring_damping: FloatProperty(name="Damping", description="N·s/m, or N·m·s/rad for a hinge", default=0.0, min=0.0)
    spring_rest: FloatProperty(name="Rest", description="The hinge angle the spring pulls to", default=0.0,
                               subtype="ANGLE")
    spring_rest_length: FloatProperty(name="Rest", description="The slider position the spring pulls to; for a "
                                      "Spring joint its rest length", default=0.0, subtype="DISTANCE")
    use_spring_rest: BoolProperty(name="Set Rest Length",
                                  description="Use Rest as the spring's rest length instead of its start length")
    spring_method: EnumProperty(name="Method", items=SPRING_METHODS, default="IMPULSE")
    motor_mode: EnumProperty(name="Motor", items=MOTOR_MODES, default="NONE")
    motor_target: FloatProperty(name="Target", description="The angle the servo turns to", default=0.0,
                                subtype="ANGLE")
    motor_target_length: FloatProperty(name="Target", description="The position the servo moves to", default=0.0,
                                       subtype="DISTANCE")
    # Blender has no unit of angular speed: an angle per second reads as degrees per second
    motor_speed: FloatProperty(name="Speed", description="Angle turned per second", default=0.0, subtype="ANGLE")
    motor_speed_length: FloatProperty(name="Speed", description="Distance moved per second", default=0.0,
                                      unit="VELOCITY")
    motor_max_torque: FloatProperty(name="Max Torque", description="N·m (N for a slider); 0 means unlimited",
                                    default=100.0, min=0.0)
    motor_brake: FloatProperty(name="Brake", description="Velocity-proportional braking, N·m·s/rad", default=0.0,
                               min=0.0)
    # Blender has no unit of torque or force: the effort is in N·m for a hinge, N for a slider or rail
    use_effort: BoolProperty(name="Effort", description="Apply a given torque about a hinge's axis, or force along a "
                                                        "slider's or rail's, to Body B (and its reaction to Body A); "
                                                        "keyframe it to vary it", default=False)
    effort: FloatProperty(name="Effort", description="N·m about a hinge's axis, N along a slider's (or a rail's, "
                                                     "toward its Target); positive turns or moves Body B the way the "
                                                     "axis points", default=0.0)

    # What MechBake needs to take its bake off again and give the artist's animation back
    is_baked: BoolProperty(name="Baked", default=False, options={"HIDDEN"})
    bake_action: PointerProperty(name="Bake Action", type=bpy.types.Action, options={"HIDDEN"},
                                 description="MechBake's action with the baked keys")
    artist_action: PointerProperty(name="Artist's Action", type=bpy.types.Action, options={"HIDDEN"},
                                   description="The action the object had before the bake, given back by Clear")
    artist_slot: StringProperty(name="Artist's Slot", options={"HIDDEN"},
                                description="Identifier of the action slot the object had before the bake")
    made_animation_data: BoolProperty(options={"HIDDEN"}, description="The bake gave the object its animation data")
    # location (3), rotation_quaternion (4), rotation_euler (3), rotation_axis_angle (4)
    baked_pose: FloatVectorProperty(name="Start Pose", size=14, options={"HIDDEN"},
                                    description="Location and rotations at the start of the last bake, restored "
                                                "by Clear")


class MECHBAKE_PG_scene(bpy.types.PropertyGroup):
    substeps: IntProperty(name="Substeps", description="Solver steps per frame", default=10, min=1, max=1000)
    dmax: FloatProperty(name="Dmax", description="Largest joint gap allowed, m. Lower it as you raise the substeps: "
                                                 "the gap each step leaves just under Dmax adds up over many steps",
                        default=1e-7, min=1e-12, max=1.0, precision=9)
    vmax: FloatProperty(name="Vmax", description="Largest joint velocity error, m/s", default=1e-6, min=1e-12,
                        max=1.0, precision=9)
    solver: EnumProperty(name="Solver", items=SOLVERS, default="SYSTEM")
    taylor_order: IntProperty(name="Taylor Order", description="Order of the rotation series", default=3, min=1,
                              max=12)
    velocity_correction: BoolProperty(name="Velocity Correction", default=True)
    contact_method: EnumProperty(name="Contacts", items=CONTACT_METHODS, default="IMPULSE")
    extrapolation: EnumProperty(name="Extrapolation", items=EXTRAPOLATIONS, default="NONE")
    levers: EnumProperty(name="Levers", items=LEVERS, default="START")
    max_corrections: IntProperty(name="Max Corrections", description="Correction sweeps per step before halving",
                                 default=200, min=1)
    error_tolerance: FloatProperty(name="Error Tolerance",
                                   description="Largest estimated error a step may make, m per second of the step: "
                                               "the steps shrink to keep below it (mechanisms without contact). "
                                               "0: the steps shrink only when the joints do not close",
                                   default=0.0, min=0.0, max=10.0, precision=6, unit="VELOCITY")
    energy_tolerance: FloatProperty(name="Energy Tolerance",
                                    description="Where only gravity, joints, undamped springs and efforts act (no "
                                                "contact, motor, limit, damper or animated body), the fraction of "
                                                "the energy the mechanism trades that a step may gain or lose "
                                                "beyond its work; a step that changes it more is halved. 0: off",
                                    default=5e-3, min=0.0, max=1.0, precision=4)
    sleep_speed: FloatProperty(name="Sleep Below", description="Resting piles and chains (bodies touching or "
                                                            "jointed, no motor or spring on their joints) slower "
                                                            "than this for half a second (or held exactly by "
                                                            "their contacts for two steps) sleep, still, until "
                                                            "something touches them, m/s. 0: nothing sleeps",
                               default=1e-3, min=0.0, max=10.0, precision=4, unit="VELOCITY")
    active_item: IntProperty(name="Active Item", default=0, options={"HIDDEN"})


classes = (MECHBAKE_PG_object, MECHBAKE_PG_scene)


def register() -> None:
    for cls in classes:
        bpy.utils.register_class(cls)
    # Blender adds these attributes at run time; the stubs cannot know them
    bpy.types.Object.mechbake = PointerProperty(type=MECHBAKE_PG_object)  # type: ignore[attr-defined,func-returns-value]
    bpy.types.Scene.mechbake = PointerProperty(type=MECHBAKE_PG_scene)  # type: ignore[attr-defined,func-returns-value]


def unregister() -> None:
    del bpy.types.Scene.mechbake  # type: ignore[attr-defined]
    del bpy.types.Object.mechbake  # type: ignore[attr-defined]
    for cls in reversed(classes):
        bpy.utils.unregister_class(cls)
