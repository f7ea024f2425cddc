"""Contact in real Blender (the bpy module), MechBake beside Blender's own rigid bodies (Bullet) on the
same scenes built as an artist builds them, each at its default settings, timed in one run:
a tower of 10 cubes (0.4 m, unapplied scale) on a floor, and 12 dominoes (0.06 x 0.3 x 0.6 m, 0.35 m
apart) whose first is tipped 20°; 250 frames at 24 fps. Printed: the bake time (Bullet's: stepping its
point cache through the frames), our time over Bullet's against the goal (10×), how far the top
cube ended from where it was built, and how many dominoes fell (tilted past 45°).
    python benchmarks/blender_contact.py          (needs the bpy module: .venv/bin/python after tools/setup.sh)
"""
import math
import pathlib
import sys
import time

from common import table

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "sample_scenes"))
import bpy  # noqa: E402

import mechbake  # noqa: E402
from mechbake.solver import warm_up  # noqa: E402
from blender_build import add_box, set_frames  # noqa: E402
from contact_scenes import DOMINO, domino_poses  # noqa: E402

FRAMES = 250
CUBE, CUBES = 0.4, 10
GOAL = 10  # issue 24: within 10x Bullet's time


def tower(role: str) -> list:
    return [add_box(f"Cube{k}", (CUBE,) * 3, (0, 0, CUBE * (k + 0.5)), mass=10.0, role=role) for k in range(CUBES)]


def dominoes(role: str) -> list:
    """The first tipped about its front bottom edge toward the others."""
    return [add_box(f"Domino{k}", DOMINO, (x, 0, z), rotation=(0, tilt, 0), mass=1.0, role=role)
            for k, (x, z, tilt) in enumerate(domino_poses())]


def floor(role: str):
    return add_box("Floor", (12.0, 12.0, 0.2), (3.0, 0, -0.1), role=role, shape="MESH")


def outcome(bodies: list, built: list) -> str:
    """How far the top cube ended from where it was built, or how many dominoes fell (past 45°)."""
    if bodies[0].name.startswith("Cube"):
        return f"top cube moved {(bodies[-1].matrix_world.translation - built[-1]).length:.3g} m"
    fell = sum(1 for piece in bodies if abs(piece.matrix_world.to_euler().y) > math.radians(45.0))
    return f"{fell} of {len(bodies)} fell"


def mechbake_scene(build) -> tuple[float, str]:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    floor("FIXED")
    bodies = build("DYNAMIC")
    built = [body.matrix_world.translation.copy() for body in bodies]
    set_frames(1, FRAMES, fps=24)
    start = time.perf_counter()
    mechbake.bake.bake_scene(bpy.context.scene)
    seconds = time.perf_counter() - start
    bpy.context.scene.frame_set(FRAMES)
    return seconds, outcome(bodies, built)


def bullet_scene(build) -> tuple[float, str]:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    bpy.ops.rigidbody.world_add()
    ground = floor("NONE")
    bpy.context.view_layer.objects.active = ground
    bpy.ops.rigidbody.object_add()
    ground.rigid_body.type = "PASSIVE"
    bodies = build("NONE")
    built = [body.matrix_world.translation.copy() for body in bodies]
    for body in bodies:
        bpy.context.view_layer.objects.active = body
        bpy.ops.rigidbody.object_add()
        body.rigid_body.mass = 10.0 if body.name.startswith("Cube") else 1.0
        body.rigid_body.collision_shape = "BOX"
    scene.frame_start, scene.frame_end = 1, FRAMES
    scene.render.fps = 24
    scene.rigidbody_world.point_cache.frame_end = FRAMES
    bpy.context.view_layer.update()
    start = time.perf_counter()
    for frame in range(1, FRAMES + 1):
        scene.frame_set(frame)
    seconds = time.perf_counter() - start
    return seconds, outcome(bodies, built)


def main() -> None:
    mechbake.register()
    warm_up.warm_up(workers=1)  # in this process: the kernels loaded (compiled once per machine) before any timing
    rows = []
    try:
        for name, build in (("tower of 10 cubes", tower), ("12 dominoes", dominoes)):
            bullet_seconds, bullet_outcome = bullet_scene(build)
            ours_seconds, our_outcome = mechbake_scene(build)
            rows.append([name, "Bullet (Blender rigid body)", f"{bullet_seconds:.3g} s", "1", "",
                         bullet_outcome])
            rows.append([name, "MechBake", f"{ours_seconds:.3g} s", f"{ours_seconds / bullet_seconds:.1f}",
                         f"<= {GOAL}", our_outcome])
    finally:
        mechbake.unregister()
    table(f"Contact baked in Blender ({bpy.app.version_string}), {FRAMES} frames at 24 fps, default settings, "
          "timed in one run", ["scene", "who", "bake time", "x Bullet's time", "goal", "outcome"], rows)


if __name__ == "__main__":
    main()
