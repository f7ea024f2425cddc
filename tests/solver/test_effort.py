"""An applied effort on a joint's axis (field `effort`: a torque about a hinge's axis, a force along a
slider's or rail's, constant or a time table) acts as the impulse springs do, half before the flight
and half after it: the centred impulse of Schmitt §8, second order in h. The file names the joint and
the field of every bad effort."""
import pytest

import mechanisms
from mechbake.solver import Model, ModelError
from scenes import scene, simulate

DISC_INERTIA = 0.5  # kg m^2 about its axle
TORQUE = 2.0  # N m


def free_disc(effort, h: float, body_a: str = "world", bodies=()):
    """A disc about an axle through its centre along z, turned by an applied effort."""
    disc = {"name": "disc", "mass": 2.0, "inertia": [0.25, 0.25, DISC_INERTIA], "position": [0, 0, 0]}
    axle = {"name": "axle", "type": "hinge", "body_a": body_a, "body_b": "disc", "anchor": [0, 0, 0],
            "axis": [0, 0, 1], "effort": effort}
    return simulate(scene([disc, *bodies], [axle], gravity=(0, 0, 0), h=h, dmax=1e-9))


@pytest.mark.parametrize("h", [0.01, 0.0025])
def test_a_constant_torque_turns_a_free_disc_by_t_t_squared_over_2_i(h):
    """Half the impulse T h before the flight and half after it is exact for a constant torque (the
    whole of it before the flight would lead by T t h / (2 I), first order)."""
    sim = free_disc(TORQUE, h)
    sim.run(1.0)
    assert sim.joint_position("axle") == pytest.approx(TORQUE * sim.time**2 / (2 * DISC_INERTIA), abs=1e-9)
    assert sim.angular_velocity("disc")[2] == pytest.approx(TORQUE * sim.time / DISC_INERTIA, rel=1e-9)


def ramp_error(h: float) -> float:
    """The angle's error at 1 s under a torque keyed from 0 to 2 N m over that second: c t^3 / (6 I)
    exactly, c = 2 N m/s."""
    sim = free_disc([[0.0, 0.0], [1.0, TORQUE]], h)
    sim.run(1.0)
    return sim.joint_position("axle") - TORQUE * sim.time**3 / (6 * DISC_INERTIA)


def test_a_time_table_torque_is_followed_to_second_order():
    """The schedule's value at each step's start and end, half an impulse each: the trapezoidal rule,
    exact for the speed under a linear torque, leaves the angle behind by (c / I) t h^2 / 6."""
    coarse, fine = ramp_error(0.01), ramp_error(0.005)
    assert coarse == pytest.approx(-TORQUE / DISC_INERTIA * 0.01**2 / 6, rel=1e-6)
    assert coarse / fine == pytest.approx(4.0, rel=1e-6)


def squeezer_error(h: float) -> float:
    """IFToMM A03, Andrews' squeezer: the crank's angle at 0.03 s against the published 15.81077120 rad,
    the method's at steps of h (the energy gate, which would shorten them, off)."""
    sim = simulate(mechanisms.andrews_squeezer(h=h, dmax=1e-10), energy_tolerance=0.0)
    sim.run(0.03)
    return mechanisms.SQUEEZER_ANGLES[0] + sim.joint_position("O") - 15.81077120


def test_andrews_squeezer_under_its_torque_converges_at_second_order():
    """benchmarks/a03_andrews_squeezer.py: 4.3e-5 rad at h = 1e-5."""
    coarse, fine = squeezer_error(1e-4), squeezer_error(5e-5)
    assert abs(fine) < 1.1e-3
    assert coarse / fine == pytest.approx(4.0, rel=0.02)


def test_the_torque_acts_on_body_a_too():
    """The reaction turns body a the other way: two free discs on one axle keep their angular momentum
    at zero."""
    stator = {"name": "stator", "mass": 2.0, "inertia": [0.25, 0.25, 2 * DISC_INERTIA], "position": [0, 0, 0]}
    sim = free_disc(TORQUE, 0.01, body_a="stator", bodies=[stator])
    sim.run(1.0)
    momentum = DISC_INERTIA * sim.angular_velocity("disc")[2] + 2 * DISC_INERTIA * sim.angular_velocity("stator")[2]
    assert momentum == pytest.approx(0.0, abs=1e-9)
    # the relative angle, through the reduced inertia I_disc I_stator / (I_disc + I_stator)
    reduced = DISC_INERTIA * 2 * DISC_INERTIA / (3 * DISC_INERTIA)
    assert sim.joint_position("axle") == pytest.approx(TORQUE * sim.time**2 / (2 * reduced), rel=1e-7)


@pytest.mark.parametrize("kind, extra", [
    ("slider", {"anchor": [0, 0, 0], "axis": [1, 0, 0]}),
    ("rail", {"start": [-1, 0, 0], "end": [5, 0, 0], "point": [0, 0, 0]}),
])
def test_a_force_pushes_a_block_along_a_slider_or_a_rail(kind, extra):
    block = {"name": "block", "mass": 4.0, "inertia": [1, 1, 1], "position": [0, 0, 0]}
    joint = {"name": "guide", "type": kind, "body_a": "world", "body_b": "block", **extra, "effort": 8.0}
    sim = simulate(scene([block], [joint], gravity=(0, 0, 0), h=0.01, dmax=1e-9))
    sim.run(1.0)
    assert sim.joint_position("guide") == pytest.approx(8.0 / 4.0 * sim.time**2 / 2, abs=1e-9)


def test_the_effort_round_trips_through_the_file():
    model = free_disc([[0.0, 1.0], [2.0, -1.0]], 0.01).model
    assert model.to_dict()["joints"][0]["effort"] == [[0.0, 1.0], [2.0, -1.0]]
    assert Model.from_dict(model.to_dict()).to_dict() == model.to_dict()


def disc_data(effort) -> dict:
    disc = {"name": "disc", "mass": 2.0, "inertia": [0.25, 0.25, DISC_INERTIA], "position": [0, 0, 0]}
    axle = {"name": "axle", "type": "hinge", "body_a": "world", "body_b": "disc", "anchor": [0, 0, 0],
            "axis": [0, 0, 1], "effort": effort}
    return scene([disc], [axle], gravity=(0, 0, 0))


@pytest.mark.parametrize("effort, message", [
    ("strong", "must be a number or a list of [time, value] pairs, got 'strong'"),
    (True, "must be a number or a list of [time, value] pairs, got True"),
    ([], "must be a number or a list of [time, value] pairs, got []"),
    ([[0.0, 1.0], [0.0, 2.0]], "times must increase strictly"),
    ([[0.0, 1.0, 2.0]], "must be numbers of shape [1, 2]"),
    (float("nan"), "must be finite"),
    (1e31, "must be finite and at most 1e+30 in size"),
])
def test_a_bad_effort_names_the_joint_and_the_field(effort, message):
    with pytest.raises(ModelError) as error:
        Model.from_dict(disc_data(effort))
    assert str(error.value).startswith("joint 'axle': field 'effort' ")
    assert message in str(error.value)


@pytest.mark.parametrize("joint", [
    {"type": "ball", "anchor": [0, 0, 0]},
    {"type": "fixed", "anchor": [0, 0, 0]},
    {"type": "distance", "anchor_a": [0, 0, 1], "anchor_b": [0, 0, 0]},
    {"type": "spring", "anchor_a": [0, 0, 1], "anchor_b": [0, 0, 0], "stiffness": 10.0},
])
def test_an_effort_on_a_joint_without_an_axis_is_rejected(joint):
    data = disc_data(1.0)
    data["joints"][0] = {"name": "j", "body_a": "world", "body_b": "disc", **joint, "effort": 1.0}
    with pytest.raises(ModelError, match=f"joint 'j': field 'effort' is not allowed: "
                                         f"a {joint['type']} joint cannot carry an applied effort"):
        Model.from_dict(data)
