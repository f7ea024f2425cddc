"""Resting islands sleep (solver/sleeping.py): a tower at rest falls asleep and stays exactly where it
was; whatever nears a sleeping island wakes it and meets the same bodies it would meet awake; what is
not resting on something still, or rests on something moved by a motion table or a joint, never
sleeps."""
import numpy as np
import pytest

from contact_scenes import MASS, SIZE, box_body, floor
from scenes import scene, simulate, simulate_contact

from mechbake.solver import ModelError
from mechbake.solver.sleeping import SLEEP_AFTER

DMAX = 1e-5


def tower(count: int, **settings):
    bodies = [box_body(f"box{k}", position=(0, 0, SIZE * (k + 0.5)), size=SIZE, mass=MASS) for k in range(count)]
    return simulate_contact(bodies, [floor()], "impulse", dmax=DMAX, **settings)


@pytest.mark.parametrize("h", [0.01, 0.002])
def test_a_resting_tower_falls_asleep_and_stays_exactly_put(h):
    """After SLEEP_AFTER at rest the whole tower sleeps at once (one island), within a second; asleep,
    no body moves at all, and each is where it stood (within Dmax)."""
    sim = tower(4, h=h)
    sim.run(SLEEP_AFTER + 0.5)
    assert sim.stats["asleep"] == 4
    before = {name: sim.position(name) for name in ("box0", "box3")}
    substeps = sim.stats["contact_substeps"]
    sim.run(1.0)
    assert sim.stats["contact_substeps"] == substeps  # nothing of a sleeping island is solved
    for name, position in before.items():
        assert np.array_equal(sim.position(name), position)
        assert np.array_equal(sim.velocity(name), np.zeros(3))
    assert sim.position("box3")[2] == pytest.approx(3.5 * SIZE, abs=DMAX)


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
    sim.run(0.6)
    assert sim.stats["asleep"] == 0
    sim.run(1.4)
    assert sim.stats["asleep"] == 1
    assert sim.position("placed")[2] == pytest.approx(0.1, abs=1e-4)


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


def test_a_negative_sleep_speed_is_an_error_naming_the_field():
    with pytest.raises(ModelError, match="sleep_speed"):
        tower(1, sleep_speed=-1.0)
