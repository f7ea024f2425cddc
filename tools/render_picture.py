"""Renders the README's picture: the 8-Loop sample (the main job's: 8 rods on 9 ball joints, hung at
both ends) baked by MechBake, drawn solid at one frame and faintly at earlier frames as it falls and
swings, in Cycles on the CPU.

    .venv/bin/python tools/render_picture.py [--output docs/images/mechbake.png] [--samples 24]

About a minute on two cores (most of it Cycles); the bake itself takes under a second once the
solver's kernels are compiled.
"""
import argparse
import math
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "sample_scenes"))
from checkout import import_checkout_as_mechbake  # noqa: E402

mechbake = import_checkout_as_mechbake()

import bpy  # noqa: E402
from mathutils import Matrix, Vector  # noqa: E402

import build_blend  # noqa: E402

TRAIL_FRAMES = (1, 9, 13, 17, 21, 25)  # the loop falling from the horizontal to the bottom of its swing
SHOWN_FRAME = 33  # drawn solid, on its way up the other side
ROD_THICKER = 3.5  # the rods drawn this many times thicker than the sample's 1 cm radius, to show at this size
SHOWN_COLOUR, TRAIL_COLOUR = (0.90, 0.35, 0.08), (0.20, 0.45, 0.85)


def material(name: str, colour, alpha: float = 1.0):
    """A Principled BSDF of one colour; alpha below 1 makes it a faint ghost."""
    made = bpy.data.materials.new(name)
    if bpy.app.version < (5, 0, 0):  # from 5.0 on every material has nodes
        made.use_nodes = True
    shader = made.node_tree.nodes["Principled BSDF"]
    shader.inputs["Base Color"].default_value = (*colour, 1.0)
    shader.inputs["Roughness"].default_value = 0.4
    shader.inputs["Alpha"].default_value = alpha
    return made


def bake_eight_loop():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    build_blend.eight_loop()
    scene = bpy.context.scene
    scene.frame_end = SHOWN_FRAME
    start = time.perf_counter()
    report = mechbake.bake.bake_scene(scene)
    print(f"baked frames 1-{SHOWN_FRAME} in {time.perf_counter() - start:.1f} s: {report}")
    return scene


def drawn(obj, name: str, made):
    """A copy of the body where it stands at the current frame, thicker, in its own material."""
    copy = bpy.data.objects.new(name, obj.data.copy())
    copy.data.transform(Matrix.Diagonal((ROD_THICKER, ROD_THICKER, 1.0, 1.0)))  # the rod's own z is its length
    copy.data.materials.append(made)
    bpy.context.scene.collection.objects.link(copy)
    copy.matrix_world = obj.matrix_world.copy()
    return copy


def draw_motion(scene) -> None:
    """The rods at TRAIL_FRAMES, fainter the earlier they are, then solid at SHOWN_FRAME; the baked
    bodies themselves are hidden from the render."""
    rods = [obj for obj in scene.objects if obj.type == "MESH" and obj.mechbake.role == "DYNAMIC"]
    for k, frame in enumerate(TRAIL_FRAMES):
        scene.frame_set(frame)
        ghost = material(f"trail {frame}", TRAIL_COLOUR, 0.18 + 0.3 * k / (len(TRAIL_FRAMES) - 1))
        for rod in rods:
            drawn(rod, f"{rod.name} at {frame}", ghost)
    scene.frame_set(SHOWN_FRAME)
    solid = material("shown", SHOWN_COLOUR)
    joint = material("joint", (0.06, 0.06, 0.06))
    for rod in rods:
        drawn(rod, f"{rod.name} at {SHOWN_FRAME}", solid)
        rod.hide_render = True
        for end in (-0.5, 0.5):  # a ball at each joint, where the rod's ends are (its length along its z)
            bpy.ops.mesh.primitive_uv_sphere_add(radius=0.045, location=rod.matrix_world @ Vector((0, 0, end)))
            bpy.context.active_object.data.materials.append(joint)


def stage(scene) -> None:
    """The bar the loop hangs from (its two ball joints to the world), a floor below it, the sun, a
    soft sky and a camera looking down at the swing."""
    ends = [joint.matrix_world.translation.copy() for joint in scene.objects
            if joint.type == "EMPTY" and not (joint.mechbake.body_a and joint.mechbake.body_b)]
    bar = ends[1] - ends[0]
    bpy.ops.mesh.primitive_cylinder_add(radius=0.05, depth=bar.length + 0.3, location=(ends[0] + ends[1]) / 2)
    beam = bpy.context.active_object
    beam.rotation_mode = "QUATERNION"
    beam.rotation_quaternion = Vector((0, 0, 1)).rotation_difference(bar)
    beam.data.materials.append(material("bar", (0.15, 0.15, 0.17)))
    bpy.ops.mesh.primitive_plane_add(size=60, location=(0, 0, -4.2))
    bpy.context.active_object.data.materials.append(material("floor", (0.75, 0.75, 0.73)))
    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    scene.collection.objects.link(camera)
    target = Vector((0.4, -0.9, -1.7))  # the middle of the swing
    camera.location = target + 9.5 * Vector((0.25, -1.0, 0.32)).normalized()
    camera.rotation_euler = (target - camera.location).to_track_quat("-Z", "Y").to_euler()
    camera.data.lens = 30
    scene.camera = camera
    sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", "SUN"))
    scene.collection.objects.link(sun)
    sun.rotation_euler = (math.radians(30), math.radians(15), math.radians(-20))
    sun.data.energy = 3.5
    sun.data.angle = math.radians(6)
    world = bpy.data.worlds.new("World")
    if bpy.app.version < (5, 0, 0):
        world.use_nodes = True
    background = world.node_tree.nodes["Background"]
    background.inputs["Color"].default_value = (0.60, 0.67, 0.76, 1.0)
    background.inputs["Strength"].default_value = 0.7
    scene.world = world


def render(scene, output: pathlib.Path, samples: int) -> None:
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = samples
    scene.cycles.use_denoising = True
    scene.render.resolution_x, scene.render.resolution_y, scene.render.resolution_percentage = 960, 540, 100
    scene.render.image_settings.file_format = "PNG"
    scene.render.image_settings.color_mode = "RGB"
    scene.render.image_settings.compression = 100
    scene.render.filepath = str(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    bpy.ops.render.render(write_still=True)
    # 256 colours: the README's picture at a third of a full-colour PNG's size (Pillow comes with matplotlib)
    from PIL import Image

    with Image.open(output) as full:
        palette = full.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    palette.save(output, optimize=True)
    print(f"rendered {output} ({samples} samples, {output.stat().st_size // 1024} kB) in "
          f"{time.perf_counter() - start:.1f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=pathlib.Path, default=ROOT / "docs" / "images" / "mechbake.png")
    parser.add_argument("--samples", type=int, default=24, help="Cycles samples per pixel, denoised (default 24)")
    args = parser.parse_args()
    mechbake.register()
    try:
        scene = bake_eight_loop()
        draw_motion(scene)
        stage(scene)
        render(scene, args.output.resolve(), args.samples)
    finally:
        mechbake.unregister()
    return 0


if __name__ == "__main__":
    sys.exit(main())
