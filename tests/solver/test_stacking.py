"""Contact that stacks. Bodies at rest on each other stay at rest: equal boxes stacked
(their corners sit on the edges of the face below), a box half over the edge of another, a capsule
lying across a box, a row of boxes side by side. Each stands for 5 s with no sinking beyond Dmax and
no drift faster than 1e-6 m/s. Nothing sleeps here (sleep_speed 0): these are the solver's own
stillness and cost, which a sleeping island would hide (tests/solver/test_sleeping.py)."""
import math

import numpy as np
import pytest

from contact_scenes import MASS, RESTING, SIZE, box_body, floor
from measure import resting_motion
from scenes import simulate_contact

from mechbake.solver.codes import TOUCHING
from mechbake.solver.contact.detection import find_contacts
from mechbake.solver.contact.step import CONTACT_TIGHTNESS

METHODS = ["impulse", "lcp"]

DMAX = 1e-5  # the default users get
DRIFT = 1e-6  # m/s
SECONDS = 5.0
AWAKE = 0.0  # sleep_speed: nothing sleeps


def stands_still(bodies, method) -> None:
    """Each body keeps its place (within Dmax) and does not drift: in the last second it moves less
    than DRIFT times that second."""
    sim = simulate_contact(bodies, [floor()], method, dmax=DMAX, sleep_speed=AWAKE)
    assert sim.warnings == []
    for name, (moved, last_second, _) in resting_motion(sim, [body["name"] for body in bodies], SECONDS).items():
        assert moved < DMAX, name
        assert last_second < DRIFT, name


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("scene", RESTING)
def test_resting_bodies_stand_still(scene, method):
    stands_still(RESTING[scene], method)


@pytest.mark.parametrize("method", METHODS)
def test_a_stack_of_two_does_not_sink_or_tilt(method):
    """Two equal boxes stacked on the floor neither sink beyond Dmax nor tilt."""
    sim = simulate_contact([box_body("lower", position=(0, 0, 0.5 * SIZE), size=SIZE, mass=MASS),
                    box_body("upper", position=(0, 0, 1.5 * SIZE), size=SIZE, mass=MASS)], [floor()], method, dmax=DMAX,
                           sleep_speed=AWAKE)
    sim.run(1.0)
    assert sim.position("upper")[2] == pytest.approx(1.5 * SIZE, abs=DMAX)
    assert np.allclose(sim.orientation("upper"), [1, 0, 0, 0], atol=DMAX)


@pytest.mark.parametrize("friction", [0.5, 0.0])
def test_a_resting_stack_settles_in_a_few_passes_a_step(friction):
    """While every contact of a stack presses and sticks (or, frictionless, presses), the correction
    loop's contact passes solve a linear system: one direct step (kernels/contact/held_contacts.py) closes
    it, where Gauss-Seidel alone shrinks what is left by about 2 % a pass, so a step takes fewer than two
    passes."""
    bodies = [box_body(f"box{k}", position=(0, 0, SIZE * (k + 0.5)), size=SIZE, mass=MASS, friction=friction)
              for k in range(3)]
    sim = simulate_contact(bodies, [floor(friction=friction)], "impulse", dmax=DMAX, sleep_speed=AWAKE)
    sim.run(0.5)
    passes, substeps = sim.stats["contact_passes"], sim.stats["contact_substeps"]
    sim.run(1.0)
    assert (sim.stats["contact_passes"] - passes) / (sim.stats["contact_substeps"] - substeps) < 2.0
    assert abs(sim.position("box2")[2] - 2.5 * SIZE) < DMAX


TOWER_SECONDS = 3.0
TOWER_DRIFT = 1e-4  # m: no box of a standing tower moves further


@pytest.mark.parametrize("h", [0.01, 0.001])
@pytest.mark.parametrize("boxes", [4, 6, 8, 10])
def test_a_tower_stands_from_its_first_step(boxes, h):
    """A tower of equal boxes stands from its first step, neither hopping nor thrown: at the default
    settings its contacts carry no impulse in their first step, and Gauss-Seidel alone would need
    thousands of passes to pass the load down; the direct step for held contacts finds their
    support from none."""
    bodies = [box_body(f"box{k}", position=(0, 0, SIZE * (k + 0.5)), size=SIZE, mass=MASS) for k in range(boxes)]
    sim = simulate_contact(bodies, [floor()], "impulse", h=h, sleep_speed=AWAKE)
    start = np.array([sim.position(body["name"]) for body in bodies])
    highest = 0.0
    for _ in range(int(round(TOWER_SECONDS / h))):
        sim.step()
        highest = max(highest, sim.position(bodies[-1]["name"])[2] - start[-1, 2])
    end = np.array([sim.position(body["name"]) for body in bodies])
    assert np.linalg.norm(end - start, axis=1).max() < TOWER_DRIFT
    assert highest < TOWER_DRIFT  # no hop


@pytest.mark.parametrize("max_corrections", [1, 2, 5])
def test_a_tower_stands_on_a_few_passes_a_step(max_corrections):
    """A tower of 8 given fewer passes a step than Gauss-Seidel needs stands: the direct
    step for held contacts closes what the passes leave."""
    bodies = [box_body(f"box{k}", position=(0, 0, SIZE * (k + 0.5)), size=SIZE, mass=MASS) for k in range(8)]
    sim = simulate_contact(bodies, [floor()], "impulse", max_corrections=max_corrections, sleep_speed=AWAKE)
    sim.run(1.0)
    assert abs(sim.position("box7")[2] - 7.5 * SIZE) < TOWER_DRIFT



SLOPE = math.radians(30.0)
SLOPE_FRICTION = 0.1


@pytest.mark.parametrize("h", [0.01, 0.004])
def test_a_tower_stands_while_a_box_slides_down_a_slope_beside_it(h):
    """A tower of 6 stands from its first step, awake, while a box slides down a slope 5 m away, and
    the box slides as Coulomb's law says, at steps of 0.01 and 0.004 s. The direct step for held
    contacts settles each group of contacts that share no body on its own: one whose contact slides
    leaves only its own group to the passes, not the tower's support too (which took 550 halvings
    and 457,000 passes a second)."""
    tower = [box_body(f"box{k}", position=(0, 0, SIZE * (k + 0.5)), size=SIZE, mass=MASS) for k in range(6)]
    # the slope rises along +x from x = 5; the slider starts 2 m up it, resting flat on it
    along = np.array([math.cos(SLOPE), 0.0, math.sin(SLOPE)])
    normal = np.array([-math.sin(SLOPE), 0.0, math.cos(SLOPE)])
    start = np.array([5.0, 0.0, 0.0]) + 2.0 * along + 0.1 * normal
    slider = box_body("slider", position=start, orientation=(math.cos(SLOPE / 2), 0, -math.sin(SLOPE / 2), 0),
                      size=0.2, mass=1.0, friction=SLOPE_FRICTION)
    slope = {"name": "slope", "type": "plane", "point": [5, 0, 0], "normal": normal.tolist(),
             "friction": SLOPE_FRICTION}
    sim = simulate_contact(tower + [slider], [floor(), slope], "impulse", h=h, sleep_speed=AWAKE)
    placed = np.array([sim.position(body["name"]) for body in tower])
    seconds = 0.5
    sim.run(seconds)
    moved = np.array([sim.position(body["name"]) for body in tower]) - placed
    assert np.linalg.norm(moved, axis=1).max() < DMAX * 1e-3
    assert sim.stats["halvings"] == 0
    assert sim.stats["contact_passes"] / sim.stats["contact_substeps"] < 10
    accelerating = 9.81 * (math.sin(SLOPE) - SLOPE_FRICTION * math.cos(SLOPE))
    slid = -(sim.position("slider") - start) @ along
    assert slid == pytest.approx(0.5 * accelerating * seconds**2, rel=1e-3)


@pytest.mark.parametrize("method", METHODS)
def test_a_box_pressed_between_two_walls_settles_in_a_few_passes(method):
    """A box 2e-7 m wider than the slot it sits in (a press fit, within Dmax): no impulse opens both
    walls' contacts, so each pass pushes them apart by as much as the last and the passes never
    settle by their own tolerance. The loop takes that as settled once they stall, instead of
    spending every pass of the budget on each step; the box stays where it is."""
    squeeze = 1e-7
    half = 0.5 * SIZE - squeeze
    walls = [floor(), {"name": "left", "type": "plane", "point": [-half, 0, 0], "normal": [1, 0, 0], "friction": 0.5},
             {"name": "right", "type": "plane", "point": [half, 0, 0], "normal": [-1, 0, 0], "friction": 0.5}]
    sim = simulate_contact([box_body("box", position=(0, 0, 0.5 * SIZE), size=SIZE, mass=MASS)], walls, method,
                           dmax=DMAX, sleep_speed=AWAKE)
    start = sim.position("box")
    passes = []
    for _ in range(50):
        made = sim.stats["contact_passes"]
        sim.step()
        passes.append(sim.stats["contact_passes"] - made)
    assert sim.stats["halvings"] == 0
    assert np.linalg.norm(sim.position("box") - start) < DMAX
    if method == "impulse":  # the LCP solves the contacts by Lemke's algorithm, not by passes
        assert max(passes[1:]) <= sim.model.settings.max_corrections // 4


def test_a_box_slid_to_rest_on_a_tower_then_stands_as_still_as_one_placed_there():
    """The top box of a tower of four is pushed sideways and slides to rest on the box below. While it
    moves, its contacts converge to Dmax, as a joint does; once it rests, to CONTACT_TIGHTNESS Dmax a
    step again, so in the 300 steps after it stopped no box moves further than those steps' share of
    that tightness (held to Dmax, as while it slid, a box creeps 0.68 Dmax in that time)."""
    bodies = [box_body(f"box{k}", position=(0, 0, SIZE * (k + 0.5)), size=SIZE, mass=MASS) for k in range(4)]
    bodies[-1]["velocity"] = [0.6, 0.2, 0.0]
    sim = simulate_contact(bodies, [floor()], "impulse", sleep_speed=AWAKE)
    sim.run(1.0)
    assert sim.position("box3")[0] > 0.03  # it slid
    rested = {body["name"]: sim.position(body["name"]) for body in bodies}
    steps = 300
    sim.run(steps * sim.model.settings.h)
    for name, position in rested.items():
        assert np.linalg.norm(sim.position(name) - position) < steps * CONTACT_TIGHTNESS * sim.model.settings.dmax, name


DOMINO = (0.06, 0.3, 0.6)  # m: width, depth, height


def domino(k: int, tip: float) -> dict:
    """Domino k of a row 0.35 m apart; the first turned by `tip` about its front bottom edge."""
    width, depth, height = DOMINO
    x, z, tilt = 0.35 * k, height / 2, 0.0
    if k == 0:
        x = width / 2 - width / 2 * math.cos(tip) + height / 2 * math.sin(tip)
        z, tilt = width / 2 * math.sin(tip) + height / 2 * math.cos(tip), tip
    inertia = [(depth ** 2 + height ** 2) / 12, (width ** 2 + height ** 2) / 12, (width ** 2 + depth ** 2) / 12]
    return {"name": f"domino{k}", "mass": 1.0, "position": [x, 0, z], "inertia": inertia,
            "orientation": [math.cos(tilt / 2), 0, math.sin(tilt / 2), 0],
            "shape": {"type": "box", "size": list(DOMINO)}, "friction": 0.5}


def test_toppling_dominoes_hold_their_contacts_to_dmax_not_to_the_resting_tightness():
    """Three dominoes, the first tipped 20°, topple in 1.5 s at Blender's step (1/240 s) and lie on
    each other. Their contacts converge to Dmax while the dominoes move, as joints do: about 22
    passes a contact sub-step, where holding every contact to the resting tightness took 48. The
    velocity correction's passes that could not reach Vmax within their budget stop early
    (passes.out_of_reach): about 22 a contact sub-step, where running each such call to its budget took 28."""
    sim = simulate_contact([domino(k, math.radians(20.0)) for k in range(3)], [floor()], "impulse", h=1 / 240)
    sim.run(1.5)
    for k in range(3):  # each has turned past 45° about y: toppled
        assert abs(sim.orientation(f"domino{k}")[2]) > math.sin(math.radians(45.0) / 2), k
    assert sim.stats["contact_passes"] / sim.stats["contact_substeps"] < 30
    assert sim.stats["contact_velocity_passes"] / sim.stats["contact_substeps"] < 25


def test_dominoes_sliding_on_each_other_keep_their_steps_and_their_contacts_touching():
    """Five dominoes topple onto each other and slide. Where their contacts' passes cycle (friction that
    follows the normals: docs/limits.md) a step keeps its contacts within TOUCHING instead of being
    halved until the cycle fits in Dmax: 9 halvings, where that took 32. No contact is ever left deeper
    than TOUCHING at the end of a step."""
    sim = simulate_contact([domino(k, math.radians(20.0)) for k in range(5)], [floor()], "impulse", h=1 / 240)
    deepest = 0.0
    for _ in range(600):  # 2.5 s
        sim.step()
        contacts = find_contacts(sim.model, sim.state.frames, sim.state.frames)
        deepest = min(deepest, float(contacts.separation(sim.state.frames).min(initial=0.0)))
    for k in range(5):
        assert abs(sim.orientation(f"domino{k}")[2]) > math.sin(math.radians(45.0) / 2), k
    assert deepest > -TOUCHING
    assert sim.stats["halvings"] < 16
