"""Resting islands sleep (solver/sleeping.py): a tower or a chain at rest falls asleep and stays exactly
where it was; whatever nears a sleeping island wakes it, with every body jointed to it, and meets the
same bodies it would meet awake; what is not resting on something still, rests on something moved by a
motion table, or is moved by a joint's motor or spring, never sleeps."""
import math

import numpy as np
import pytest

from contact_scenes import MASS, SIZE, box_body, floor
from scenes import scene, simulate, simulate_contact

from mechbake.solver import ModelError
from mechbake.solver.contact.impulse import SEPARATION_SPEED
from mechbake.solver.sleeping import HELD_STEPS, SLEEP_AFTER

DMAX = 1e-5


def tower(count: int, **settings):
    bodies = [box_body(f"box{k}", position=(0, 0, SIZE * (k + 0.5)), size=SIZE, mass=MASS) for k in range(count)]
    return simulate_contact(bodies, [floor()], "impulse", dmax=DMAX, **settings)


@pytest.mark.parametrize("h", [0.01, 0.002])
def test_a_resting_tower_falls_asleep_and_stays_exactly_put(h):
    """Placed at rest, the tower is held by its contacts: after HELD_STEPS steps the whole tower sleeps at
    once (one island); asleep, no body moves at all, and each is where it stood (within Dmax)."""
    sim = tower(4, h=h)
    for _ in range(HELD_STEPS - 1):
        sim.step()
    assert sim.stats["asleep"] == 0
    sim.step()
    assert sim.stats["asleep"] == 4
    before = {name: sim.position(name) for name in ("box0", "box3")}
    substeps = sim.stats["contact_substeps"]
    sim.run(1.0)
    assert sim.stats["contact_substeps"] == substeps  # nothing of a sleeping island is solved
    for name, position in before.items():
        assert np.array_equal(sim.position(name), position)
        assert np.array_equal(sim.velocity(name), np.zeros(3))
    assert sim.position("box3")[2] == pytest.approx(3.5 * SIZE, abs=DMAX)


@pytest.mark.parametrize("h, dmax", [(0.01, DMAX), (0.001, 1e-3)])
def test_a_box_sliding_off_from_rest_too_slowly_to_see_in_a_step_is_not_held(h, dmax):
    """On a slope a little steeper than its friction the box starts from rest at 0.4 mm/s^2, far too little
    to move it by the contacts' convergence in a step (with a coarse Dmax), and fast enough to pass the
    sleep speed (0.1 mm/s) within SLEEP_AFTER: it never sleeps, and slides as a = g (sin theta - mu cos
    theta) says."""
    slope, acceleration = math.radians(20.0), 4e-4
    mu = math.tan(slope) - acceleration / (9.81 * math.cos(slope))
    normal = np.array([-math.sin(slope), 0.0, math.cos(slope)])
    box = box_body("box", position=tuple(0.1 * normal), orientation=(math.cos(-slope / 2), 0, math.sin(-slope / 2), 0),
                   friction=mu)
    sim = simulate_contact([box], [floor(normal=tuple(normal), friction=mu)], "impulse", dmax=dmax, h=h,
                           sleep_speed=1e-4)
    downhill = np.array([-math.cos(slope), 0.0, -math.sin(slope)])
    sim.run(0.5)
    speed = float(sim.velocity("box") @ downhill)
    sim.run(0.5)
    assert sim.stats["asleep"] == 0
    assert float(sim.velocity("box") @ downhill) - speed == pytest.approx(0.5 * acceleration, rel=1e-3)


def test_a_ball_rolling_slower_than_the_sleep_speed_sleeps_after_the_rest_time():
    """Rolling at half the sleep speed it moves every step, so it is not held: it sleeps once it has
    been that slow for SLEEP_AFTER."""
    ball = {"name": "ball", "mass": 1.0, "inertia": [0.004] * 3, "position": [0.0, 0.0, 0.1],
            "velocity": [5e-4, 0.0, 0.0], "angular_velocity": [0.0, 5e-3, 0.0],
            "shape": {"type": "sphere", "radius": 0.1}, "friction": 0.5}
    sim = simulate_contact([ball], [floor()], "impulse", dmax=DMAX)
    sim.run(SLEEP_AFTER - 0.05)
    assert sim.stats["asleep"] == 0
    sim.run(0.1)
    assert sim.stats["asleep"] == 1


def test_sleep_speed_zero_keeps_every_body_awake():
    sim = tower(2, sleep_speed=0.0)
    sim.run(2.0)
    assert sim.stats["asleep"] == 0


def slide_into_a_resting_box(sleep_speed: float):
    """A box at rest; a second slides along the floor from 1.3 m away at 2 m/s and hits it at 0.8 s; one
    friction coefficient, 0.1, everywhere."""
    bodies = [box_body("resting", position=(0, 0, 0.1), friction=0.1),
              box_body("sliding", position=(-1.5, 0, 0.1), velocity=[2.0, 0, 0], friction=0.1)]
    sim = simulate_contact(bodies, [floor(friction=0.1)], "impulse", dmax=DMAX, sleep_speed=sleep_speed)
    sim.run(0.6)
    asleep = sim.stats["asleep"]
    sim.run(1.4)
    return sim, asleep


def test_a_body_sliding_into_a_sleeping_one_wakes_it_and_moves_it_as_if_awake():
    """The resting box sleeps before the slider arrives; the hit wakes it, and both end where they end
    when nothing sleeps (within 1 mm), and as a plastic impact and Coulomb friction would have them."""
    sleeping, asleep_before = slide_into_a_resting_box(1e-3)
    awake, _ = slide_into_a_resting_box(0.0)
    assert asleep_before == 1
    assert sleeping.stats["wakes"] >= 1
    deceleration = 0.1 * 9.81
    common = 0.5 * np.sqrt(2.0**2 - 2 * deceleration * 1.3)  # the boxes' speed after the impact
    assert sleeping.position("resting")[0] == pytest.approx(common**2 / (2 * deceleration), abs=2e-3)
    for name in ("resting", "sliding"):
        assert np.linalg.norm(sleeping.position(name) - awake.position(name)) < 1e-3, name


def test_a_box_dropped_on_a_sleeping_tower_wakes_it_and_lands_on_it():
    """A box falls 3 m onto a tower of 3 that fell asleep while it fell: the tower wakes whole as the box
    nears it, the box comes to rest on top, and the tower has not sunk or moved."""
    bodies = [box_body(f"box{k}", position=(0, 0, SIZE * (k + 0.5)), size=SIZE, mass=MASS) for k in range(3)]
    bodies.append(box_body("dropped", position=(0, 0, 3.5 * SIZE + 3.0), size=SIZE, mass=MASS))
    sim = simulate_contact(bodies, [floor()], "impulse", dmax=DMAX)
    sim.run(0.7)
    assert sim.stats["asleep"] == 3 and sim.position("dropped")[2] > 3.5 * SIZE + 0.5
    tower_top = sim.position("box2")
    sim.run(2.0)
    assert sim.stats["wakes"] >= 1
    assert sim.position("dropped")[2] == pytest.approx(3.5 * SIZE, abs=1e-4)
    assert np.linalg.norm(sim.position("box2") - tower_top) < 1e-4


def test_a_box_placed_into_the_floor_sleeps_only_once_it_is_out():
    """Pushed out of the floor it has no speed (kernels hold the overlap's normal rate at 0), yet it moves:
    it sleeps only when it rests on the floor."""
    sim = simulate_contact([box_body("placed", position=(0, 0, 0.05))], [floor()], "impulse", dmax=DMAX)
    while not sim.stats["asleep"] and sim.time < 2.0:
        sim.step()
    assert sim.stats["asleep"] == 1
    assert sim.time >= 0.05 / SEPARATION_SPEED  # pushed out at most this fast, it was not asleep on the way
    assert sim.position("placed")[2] == pytest.approx(0.1, abs=DMAX)


def test_a_slowly_drifting_body_in_space_does_not_sleep():
    """Slower than the sleep speed, but resting on nothing: it keeps its speed."""
    drifting = box_body("drifting", position=(0, 0, 1.0), velocity=[5e-4, 0, 0])
    sim = simulate({**scene([drifting], [], gravity=(0, 0, 0), dmax=DMAX), "obstacles": [floor()]})
    sim.run(2.0)
    assert sim.stats["asleep"] == 0
    assert sim.position("drifting")[0] == pytest.approx(1e-3, rel=1e-9)


def test_a_box_on_an_animated_platform_stays_awake_and_rides_it():
    """The platform stands still for a second, then rises at 0.2 m/s: the box on it never sleeps and
    rises with it."""
    times = np.arange(0.0, 2.05, 0.05)
    height = np.where(times < 1.0, 0.0, 0.2 * (times - 1.0))
    platform = {"name": "platform", "shape": {"type": "box", "size": [1.0, 1.0, 0.1]},
                "motion": {"time": times.tolist(), "position": [[0.0, 0.0, z] for z in height],
                           "orientation": [[1.0, 0.0, 0.0, 0.0]] * len(times)}}
    sim = simulate_contact([platform, box_body("box", position=(0, 0, 0.15))], [], "impulse", dmax=DMAX)
    sim.run(1.0)
    assert sim.stats["asleep"] == 0
    sim.run(1.0)
    assert sim.position("box")[2] == pytest.approx(0.15 + 0.2, abs=1e-3)


def chain_on_the_floor(links: int = 6, drop: float = 0.01, motor: dict | None = None, extra=(), method="impulse",
                       **settings):
    """Capsule links (0.1 m, radius 0.02 m, 0.2 kg) along x on ball joints, `drop` above the floor; with
    `motor`, the first joint is a hinge about y driven by it."""
    length, radius, mass = 0.1, 0.02, 0.2
    across = mass * (3 * radius * radius + length * length) / 12
    bodies = [{"name": f"link{k}", "mass": mass, "inertia": [across, across, 0.5 * mass * radius * radius],
               "position": [length * (k + 0.5), 0, radius + drop],
               "orientation": [math.cos(math.pi / 4), 0, math.sin(math.pi / 4), 0],
               "shape": {"type": "capsule", "radius": radius, "length": length}, "friction": 0.5}
              for k in range(links)]
    joints = [{"name": f"ball{k}", "type": "ball", "body_a": f"link{k}", "body_b": f"link{k + 1}",
               "anchor": [length * (k + 1), 0, radius + drop]} for k in range(links - 1)]
    if motor is not None:
        joints[0] = {**joints[0], "type": "hinge", "axis": [0, 1, 0], "motor": motor}
    return simulate_contact(bodies + list(extra), [floor()], method, joints=joints, dmax=DMAX, **settings)


@pytest.mark.parametrize("method", ["impulse", "lcp"])
def test_a_chain_lying_on_the_floor_falls_asleep_whole_with_its_joints_closed(method):
    """Dropped 1 cm, the chain settles and sleeps as one island (linked by its joints); asleep, nothing of
    it is solved, no link moves at all, and its joints stay closed."""
    sim = chain_on_the_floor(method=method)
    sim.run(1.5)
    assert sim.stats["asleep"] == 6
    before = [sim.position(f"link{k}") for k in range(6)]
    substeps = sim.stats["contact_substeps"]
    sim.run(1.0)
    assert sim.stats["contact_substeps"] == substeps
    for k, position in enumerate(before):
        assert np.array_equal(sim.position(f"link{k}"), position)
        assert position[2] == pytest.approx(0.02, abs=DMAX)
    assert sim.max_joint_error() < DMAX


def test_a_box_dropped_on_one_end_of_a_sleeping_chain_wakes_all_of_it():
    """A box falls 2 m onto the first link of a chain that fell asleep meanwhile: the whole chain wakes
    at once, the far end too (it is jointed to the island the box nears), and its joints hold."""
    dropped = box_body("dropped", position=(0.05, 0, 2.2), size=0.1, mass=0.5)
    sim = chain_on_the_floor(extra=[dropped])
    sim.run(0.6)
    asleep_before = sim.stats["asleep"]
    while not sim.stats["wakes"]:
        sim.step()
    assert asleep_before == 6 and sim.stats["asleep"] == 0
    assert sim.position("dropped")[2] > 0.09 - 1e-4  # woken in the step that meets it: not into the link
    sim.run(1.0)
    assert sim.position("dropped")[2] == pytest.approx(0.04 + 0.05, abs=1e-3)  # on the first link
    assert sim.max_joint_error() < DMAX


def test_a_sleeping_chain_holds_still_while_a_body_beside_it_moves():
    """A box lands 2 m from a sleeping chain: the chain's joints link bodies that the kernels see as
    fixed while the box's step is solved, and nothing of the chain moves."""
    sim = chain_on_the_floor(extra=[box_body("dropped", position=(2.6, 0, 2.2), size=0.1, mass=0.5)])
    sim.run(0.6)
    assert sim.stats["asleep"] == 6
    before = [sim.position(f"link{k}") for k in range(6)]
    sim.run(1.0)
    assert sim.position("dropped")[2] == pytest.approx(0.05, abs=1e-4)
    assert sim.stats["wakes"] == 0
    for k, position in enumerate(before):
        assert np.array_equal(sim.position(f"link{k}"), position)
    assert sim.max_joint_error() < DMAX


@pytest.mark.parametrize("motor", [{"mode": "position", "target": 0.0, "max_torque": 5.0},
                                   {"mode": "velocity", "target": 0.0, "max_torque": 5.0}],
                         ids=["servo", "velocity motor"])
def test_a_chain_with_a_motor_on_a_joint_stays_awake(motor):
    sim = chain_on_the_floor(motor=motor)
    sim.run(2.0)
    assert sim.stats["asleep"] == 0


def test_a_negative_sleep_speed_is_an_error_naming_the_field():
    with pytest.raises(ModelError, match="sleep_speed"):
        tower(1, sleep_speed=-1.0)
