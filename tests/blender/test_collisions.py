"""Contact in Blender: bodies land on Fixed meshes and bounce by their restitution, braked wheels hold;
bad geometry is named."""
import math

import bpy
import numpy as np
import pytest

from blender_build import add_ball, add_box, add_joint, set_frames
from mathutils import Matrix
from keys import world_matrices
from mechbake.bake import bake_scene, problems
from mechbake.solver import ModelError


@pytest.mark.parametrize("method", ["IMPULSE", "LCP"])
def test_box_lands_on_a_fixed_floor_and_rests_on_it(method):
    add_box("Floor", (3.0, 3.0, 0.2), (0, 0, -0.1), role="FIXED", shape="MESH")
    add_box("Crate", (0.4, 0.4, 0.4), (0, 0, 0.8), rotation=(0.3, 0.2, 0.0))
    set_frames(1, 60, substeps=10, dmax=1e-7)
    bpy.context.scene.mechbake.contact_method = method
    bake_scene(bpy.context.scene)
    crate = bpy.data.objects["Crate"]
    matrices = world_matrices(crate, range(1, 61))
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * 0.5  # the unit cube's
    lowest = [float((m[:3, :3] @ corners.T + m[:3, 3:4])[2].min()) for m in matrices]
    assert min(lowest) >= -1e-5  # never into the floor (keys are 32-bit floats)
    assert lowest[-1] == pytest.approx(0.0, abs=1e-5)  # resting on it
    assert np.abs(matrices[-1] - matrices[-5]).max() < 1e-5  # and still


@pytest.mark.parametrize("method", ["IMPULSE", "LCP"])
def test_three_equal_crates_stacked_stand_still(method):
    """Resting contact as an artist builds it: three 0.4 m crates (cubes with unapplied scale, the
    middle one turned 90 degrees about z, which leaves its shape where it was) stacked on a Fixed floor mesh,
    frames 10-85 at 25 fps. Their corners sit on the edges of the faces below; over 3 s none moves."""
    add_box("Floor", (3.0, 3.0, 0.2), (0, 0, -0.1), role="FIXED", shape="MESH")
    crates = [add_box(f"Crate{k}", (0.4, 0.4, 0.4), (0, 0, 0.2 + 0.4 * k), rotation=(0, 0, math.pi / 2 * (k == 1)),
                      mass=10.0) for k in range(3)]
    set_frames(10, 85, fps=25, substeps=4, dmax=1e-5)
    bpy.context.scene.mechbake.contact_method = method
    bake_scene(bpy.context.scene)
    for crate in crates:
        matrices = world_matrices(crate, range(10, 86))
        assert np.abs(matrices - matrices[0]).max() < 1e-5, crate.name


def test_ball_bounces_by_its_restitution():
    add_box("Floor", (3.0, 3.0, 0.2), (0, 0, -0.1), role="FIXED", shape="MESH")
    add_ball("Ball", 0.1, (0, 0, 1.1), restitution=0.5)
    set_frames(1, 40, fps=50, substeps=20)
    bake_scene(bpy.context.scene)
    heights = world_matrices(bpy.data.objects["Ball"], range(1, 41))[:, 2, 3] - 0.1
    after = heights[int(math.sqrt(2 / 9.81) * 50) + 2:]
    assert after.max() == pytest.approx(0.25, abs=0.01)  # e^2 of the 1 m drop, sampled at 50 fps


def test_a_tower_stands_still_while_a_crate_slides_down_a_ramp_beside_it():
    """Six 0.4 m crates (cubes with unapplied scale, 10 kg) stacked on a Fixed floor mesh, and beside
    them a 0.2 m crate on a Fixed ramp mesh tilted 30 degrees, friction 0.1 on both (less than tan 30):
    built level and turned onto the slope as an artist would. The crate slides down as Coulomb's law
    says while the tower stays exactly where it was stacked, and no step is halved."""
    add_box("Floor", (2.0, 2.0, 0.2), (0, 0, -0.1), role="FIXED", shape="MESH")
    crates = [add_box(f"Crate{k}", (0.4, 0.4, 0.4), (0, 0, 0.2 + 0.4 * k), mass=10.0) for k in range(6)]
    slope = math.radians(30.0)
    centre = Matrix.Translation((5.0, 0.0, 1.5))
    ramp = add_box("Ramp", (4.0, 1.0, 0.2), (0, 0, -0.1), role="FIXED", shape="MESH")
    slider = add_box("Slider", (0.2, 0.2, 0.2), (-1.5, 0, 0.1), mass=1.0)
    for part in (ramp, slider):
        part.mechbake.friction = 0.1
        part.matrix_world = centre @ Matrix.Rotation(slope, 4, "Y") @ part.matrix_world
    set_frames(1, 25, fps=24)
    report = bake_scene(bpy.context.scene)
    assert report.halvings == 0
    for crate in crates:
        matrices = world_matrices(crate, range(1, 26))
        assert np.abs(matrices - matrices[0]).max() < 1e-6, crate.name
    path = world_matrices(slider, range(1, 26))[:, :3, 3]
    down = np.array([math.cos(slope), 0.0, -math.sin(slope)])
    accelerating = 9.81 * (math.sin(slope) - 0.1 * math.cos(slope))
    assert (path[-1] - path[0]) @ down == pytest.approx(0.5 * accelerating * 1.0**2, rel=1e-3)


def test_bad_contact_geometry_is_named():
    add_box("Crate", (0.4, 0.4, 0.4), (0, 0, 0.8))
    sheet = bpy.data.objects.new("Ground", bpy.data.meshes.new("ground"))
    sheet.data.from_pydata([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [], [])
    bpy.context.scene.collection.objects.link(sheet)
    sheet.mechbake.role, sheet.mechbake.collision_shape = "FIXED", "MESH"
    set_frames(1, 10)
    assert any("object 'Ground': a Fixed body with collisions needs faces" in p for p in problems(bpy.context.scene))
    with pytest.raises(ModelError, match="object 'Ground'"):
        bake_scene(bpy.context.scene)


def test_non_finite_vertices_are_named():
    crate = add_box("Crate", (0.4, 0.4, 0.4), (0, 0, 0.8))
    crate.data.vertices[0].co = (float("nan"), 0.0, 0.0)
    set_frames(1, 10)
    assert any("object 'Crate': the mesh has vertices that are not finite" in p for p in problems(bpy.context.scene))


@pytest.mark.parametrize("method", ["IMPULSE", "LCP"])
@pytest.mark.parametrize("floor_kind", ["PLANE", "CUBE"])
def test_a_crate_placed_into_the_floor_comes_out_and_rests_on_it(floor_kind, method):
    """A body placed into the floor, as an artist meets it: a Plane primitive (an open sheet) or a
    Cube scaled flat (a closed slab, scale unapplied) as the Fixed floor, and a 0.4 m crate, turned
    about z, placed 30 mm into it; frames 5-40 at 30 fps. The crate rises out at no more than 0.2 m/s and rests on the
    floor, and the bake's report names the crate, the floor and the depth. It fell through the Plane
    (18 m down in 2 s) and sank onto the inside of the slab's bottom face, with no warning."""
    if floor_kind == "PLANE":
        bpy.ops.mesh.primitive_plane_add(size=4.0, location=(0, 0, 0))
    else:
        bpy.ops.mesh.primitive_cube_add(size=1.0, location=(0, 0, -0.1))
        bpy.context.active_object.scale = (4.0, 4.0, 0.2)
    floor = bpy.context.active_object
    floor.name, floor.mechbake.role = "Floor", "FIXED"
    bpy.ops.mesh.primitive_cube_add(size=0.4, location=(0.3, 0.2, 0.17), rotation=(0, 0, 0.4))
    crate = bpy.context.active_object
    crate.name, crate.mechbake.role, crate.mechbake.collision_shape = "Crate", "DYNAMIC", "BOX"
    set_frames(5, 40, fps=30)
    bpy.context.scene.mechbake.contact_method = method
    report = bake_scene(bpy.context.scene)
    assert ("body 'Crate' starts 30 mm inside obstacle 'Floor'; they are pushed apart at up to 0.2 m/s"
            in report.warnings)
    heights = world_matrices(crate, range(5, 41))[:, 2, 3]
    assert np.diff(heights).max() <= 0.2 / 30 + 1e-6  # out at 0.2 m/s at most
    assert heights.max() <= 0.2 + 1e-5
    assert heights[-1] == pytest.approx(0.2, abs=1e-5)  # resting on the floor's top face


def test_a_sleeping_tower_is_woken_by_a_keyed_pusher():
    """Six 0.3 m crates (unapplied scale) stacked on a Fixed floor, frames 1-96 at 24 fps: they rest, fall
    asleep (identical keys), and a keyed Animated paddle that starts moving at frame 48 wakes them and
    shoves the bottom crate 5 cm along; the crates above ride on it."""
    add_box("Floor", (3.0, 3.0, 0.2), (0, 0, -0.1), role="FIXED", shape="MESH")
    crates = [add_box(f"Crate{k}", (0.3, 0.3, 0.3), (0, 0, 0.15 + 0.3 * k), mass=5.0) for k in range(6)]
    paddle = add_box("Paddle", (0.05, 0.6, 0.2), (-0.2, 0, 0.12), role="ANIMATED")
    for frame, x in ((48, -0.2), (72, -0.125)):
        paddle.location.x = x
        paddle.keyframe_insert("location", index=0, frame=frame)
    set_frames(1, 96, fps=24, substeps=10, dmax=1e-5)
    assert bpy.context.scene.mechbake.sleep_speed > 0  # the default
    bake_scene(bpy.context.scene)
    bottom = world_matrices(crates[0], range(1, 97))
    top = world_matrices(crates[5], range(1, 97))
    assert np.array_equal(top[40], top[47])  # asleep: not a digit of a key changes
    assert np.abs(top[47] - top[0]).max() < 1e-4  # where it was built
    assert bottom[-1][0, 3] == pytest.approx(0.05, abs=2e-3)  # the paddle's face went from -0.175 to -0.1
    assert top[-1][2, 3] == pytest.approx(top[0][2, 3], abs=1e-3)  # still standing


def test_a_chain_of_crates_lying_on_the_floor_sleeps_and_wakes_whole():
    """Six 0.2 m crates (unapplied scale) in a row on a Fixed floor, 5 cm apart, each linked to the next by
    a ball joint between them, frames 1-96 at 24 fps: the chain rests and falls asleep (identical
    keys); a keyed Animated paddle that starts moving at frame 48 shoves the first crate 5 cm along,
    and the last one, jointed to it through four others, wakes and goes along with it."""
    add_box("Floor", (3.0, 3.0, 0.2), (0, 0, -0.1), role="FIXED", shape="MESH")
    crates = [add_box(f"Crate{k}", (0.2, 0.2, 0.2), (0.25 * k, 0, 0.1), mass=2.0) for k in range(6)]
    for k in range(5):
        add_joint(f"Ball{k}", "BALL", (0.25 * k + 0.125, 0, 0.1), body_a=crates[k], body_b=crates[k + 1])
    paddle = add_box("Paddle", (0.05, 0.6, 0.15), (-0.15, 0, 0.1), role="ANIMATED")
    for frame, x in ((48, -0.15), (72, -0.075)):
        paddle.location.x = x
        paddle.keyframe_insert("location", index=0, frame=frame)
    set_frames(1, 96, fps=24, substeps=10, dmax=1e-5)
    bake_scene(bpy.context.scene)
    first, last = (world_matrices(crate, range(1, 97)) for crate in (crates[0], crates[5]))
    assert np.array_equal(last[40], last[47])  # asleep: not a digit of a key changes
    assert np.abs(last[47] - last[0]).max() < 1e-4  # where it was built
    assert first[-1][0, 3] == pytest.approx(0.05, abs=2e-3)  # the paddle's face went from -0.125 to -0.05
    assert last[-1][0, 3] - last[0][0, 3] == pytest.approx(first[-1][0, 3] - first[0][0, 3], abs=2e-3)


@pytest.mark.parametrize("method", ["IMPULSE", "LCP"])
def test_a_cart_on_braked_wheels_stays_parked_on_a_ramp(method):
    """A cart as an artist builds it: a chassis (a cube with unapplied scale) on four UV-sphere wheels,
    masses from the density, each wheel on a hinge whose velocity motor holds 0 with up to 200 N m,
    parked on a Fixed ramp mesh tilted 20 degrees, friction 0.8 everywhere (tan 20 = 0.36): the whole
    rig built level and turned onto the slope. The brakes hold the wheels and the wheels' grip holds
    the cart where it was parked."""
    ramp = add_box("Ramp", (4.0, 2.0, 0.2), (0, 0, -0.1), role="FIXED", shape="MESH")
    chassis = add_box("Chassis", (1.0, 0.6, 0.2), (0, 0, 0.3))
    parts = [ramp, chassis]
    for k, (x, y) in enumerate([(0.4, 0.4), (0.4, -0.4), (-0.4, 0.4), (-0.4, -0.4)]):
        wheel = add_ball(f"Wheel{k}", 0.1, (x, y, 0.1))
        parts += [wheel, add_joint(f"Axle{k}", "HINGE", (x, y, 0.1), axis=(0, 1, 0), body_a=chassis, body_b=wheel,
                                   motor_mode="VELOCITY", motor_speed=0.0, motor_max_torque=200.0)]
    for part in parts:
        if part.type == "MESH":
            part.mechbake.friction = 0.8
        part.matrix_world = Matrix.Rotation(math.radians(20.0), 4, "Y") @ part.matrix_world
    set_frames(1, 48, fps=24, substeps=4)
    bpy.context.scene.mechbake.contact_method = method
    bake_scene(bpy.context.scene)
    places = world_matrices(chassis, range(1, 49))[:, :3, 3]
    assert np.linalg.norm(places - places[0], axis=1).max() < 1e-4
