"""Baking in real Blender (the bpy module): the 8-Loop sample's bake time for 250 frames and its
joint gap read back from the keys, the `pusher` sample (a servo crank pushing a crate: joints with
contact) at the default Dmax and at 1e-6, best of three bakes each, taken in turns, and a 20-link
chain baked by MechBake beside Blender's own rigid-body (Bullet) point constraints at their default
settings.
    python benchmarks/blender_bake.py          (needs the bpy module: .venv/bin/python after tools/setup.sh)
"""
import pathlib
import sys
import time

from common import table

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "sample_scenes"))
import bpy  # noqa: E402
from mathutils import Vector  # noqa: E402

import build_blend  # noqa: E402
import mechbake  # noqa: E402
from blender_build import add_joint, add_rod, set_frames  # noqa: E402

LINK = 0.1  # m, the chain's links
LINKS = 20


def joint_gap_in_keys(frames) -> float:
    """Largest distance, over every ball joint and frame, between the joint's point as carried by
    body A and by body B, both read from the objects' keyed transforms."""
    scene = bpy.context.scene
    scene.frame_set(frames[0])
    joints = []
    for empty in [o for o in scene.objects if o.type == "EMPTY" and o.mechbake.joint_type == "BALL"]:
        anchor = empty.matrix_world.translation.copy()
        sides = [(o, o.matrix_world.inverted() @ anchor) if o else (None, anchor)
                 for o in (empty.mechbake.body_a, empty.mechbake.body_b)]
        joints.append(sides)
    worst = 0.0
    for frame in frames:
        scene.frame_set(frame)
        for (a, pa), (b, pb) in joints:
            wa = a.matrix_world @ pa if a else pa
            wb = b.matrix_world @ pb if b else pb
            worst = max(worst, (wa - wb).length)
    return worst


def eight_loop() -> list:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    build_blend.eight_loop()
    start = time.perf_counter()
    report = mechbake.bake.bake_scene(bpy.context.scene)
    seconds = time.perf_counter() - start
    gap = joint_gap_in_keys(range(1, 251))
    settings = bpy.context.scene.mechbake
    return ["8-Loop sample, 250 frames", f"{seconds:.2f} s", f"{gap:.3g} m", f"{report.worst_gap:.3g} m",
            f"{settings.substeps} substeps/frame, Dmax {settings.dmax:g}"]


def pushers(dmaxes=(None, 1e-6), repeats: int = 3) -> list:
    """The pusher sample baked at each Dmax (None: the add-on's default) in turns; a row each."""
    best: dict = {}
    for _ in range(repeats):
        for dmax in dmaxes:
            bpy.ops.wm.read_factory_settings(use_empty=True)
            build_blend.pusher()
            settings = bpy.context.scene.mechbake
            if dmax is not None:
                settings.dmax = dmax
            start = time.perf_counter()
            report = mechbake.bake.bake_scene(bpy.context.scene)
            seconds = time.perf_counter() - start
            if seconds < best.get(dmax, (float("inf"),))[0]:
                best[dmax] = (seconds, report.worst_gap,
                              f"{settings.substeps} substeps/frame, Dmax {settings.dmax:.2g}")
    return [["pusher sample, 250 frames" + (" (defaults)" if dmax is None else ""), f"{seconds:.2f} s", "",
             f"{gap:.3g} m", what] for dmax, (seconds, gap, what) in best.items()]


def chain(points: int) -> list:
    return [(LINK * k, 0.0, 0.0) for k in range(points + 1)]


def mechbake_chain() -> list:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    ends = chain(LINKS)
    links = [add_rod(f"Link{k}", ends[k], ends[k + 1], radius=0.01, mass=0.1, sides=12) for k in range(LINKS)]
    add_joint("Hang", "BALL", ends[0], body_b=links[0])
    for k in range(1, LINKS):
        add_joint(f"Pin{k}", "BALL", ends[k], body_a=links[k - 1], body_b=links[k])
    set_frames(1, 100, substeps=10)
    start = time.perf_counter()
    mechbake.bake.bake_scene(bpy.context.scene)
    seconds = time.perf_counter() - start
    settings = bpy.context.scene.mechbake
    return [f"{LINKS}-link chain, MechBake (defaults)", f"{seconds:.2f} s", f"{joint_gap_in_keys(range(1, 101)):.3g} m",
            "", f"{settings.substeps} substeps/frame, Dmax {settings.dmax:.2g}"]


def bullet_chain() -> list:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    bpy.ops.rigidbody.world_add()
    ends = chain(LINKS)
    links = []
    for k in range(LINKS):
        link = add_rod(f"Link{k}", ends[k], ends[k + 1], radius=0.01, role="NONE", sides=12)
        bpy.context.view_layer.objects.active = link
        bpy.ops.rigidbody.object_add()
        link.rigid_body.mass = 0.1
        links.append(link)
    bpy.ops.mesh.primitive_cube_add(size=0.02, location=ends[0])
    anchor = bpy.context.active_object
    bpy.ops.rigidbody.object_add()
    anchor.rigid_body.type = "PASSIVE"
    pins = []
    for k in range(LINKS):
        pin = bpy.data.objects.new(f"Pin{k}", None)
        scene.collection.objects.link(pin)
        pin.location = ends[k]
        bpy.context.view_layer.objects.active = pin
        bpy.ops.rigidbody.constraint_add()
        pin.rigid_body_constraint.type = "POINT"
        pin.rigid_body_constraint.object1 = links[k - 1] if k else anchor
        pin.rigid_body_constraint.object2 = links[k]
        pins.append(pin)
    scene.frame_start, scene.frame_end = 1, 100
    bpy.context.view_layer.update()
    start = time.perf_counter()
    worst = 0.0
    half = Vector((0.0, 0.0, LINK / 2))  # the cylinders' ends, in their own coordinates
    for frame in range(1, 101):
        scene.frame_set(frame)
        for k in range(1, LINKS):
            worst = max(worst, (links[k - 1].matrix_world @ half - links[k].matrix_world @ -half).length)
    seconds = time.perf_counter() - start
    world = scene.rigidbody_world
    return [f"{LINKS}-link chain, Blender rigid body (defaults)", f"{seconds:.2f} s", f"{worst:.3g} m", "",
            f"{world.substeps_per_frame} substeps/frame, {world.solver_iterations} iterations"]


def main() -> None:
    mechbake.register()
    try:
        rows = [eight_loop(), *pushers(), mechbake_chain(), bullet_chain()]
    finally:
        mechbake.unregister()
    table("Baking in Blender (bpy 5.0.1)", ["what", "bake time", "joint gap in the keys", "gap in the solver",
                                             "settings"], rows)


if __name__ == "__main__":
    main()
