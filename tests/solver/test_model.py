"""The mechanism file: what it accepts, what it round-trips, and a clear error for every bad input."""
import copy
import json
import math

import numpy as np
import pytest

import mechanisms
from mechbake.solver import Model, ModelError, Simulation, load_model


def hinge_arm() -> dict:
    return mechanisms.servo_arm()


def test_every_sample_loads_and_round_trips():
    for name, build in mechanisms.SAMPLES.items():
        model = Model.from_dict(build())
        again = Model.from_dict(model.to_dict())
        assert again.to_dict() == model.to_dict(), name
        json.dumps(model.to_dict())  # plain JSON, no numpy inside


def test_load_model_reads_a_file_and_applies_overrides(tmp_path):
    path = tmp_path / "arm.json"
    path.write_text(json.dumps(hinge_arm()))
    model = load_model(path, h=0.002, solver="iterative")
    assert model.settings.h == 0.002 and model.settings.solver == "iterative"
    assert model.settings.dmax == hinge_arm()["settings"]["dmax"]


def test_simulation_keyword_overrides_the_file_settings():
    sim = Simulation(Model.from_dict(hinge_arm()), h=0.02, dmax=1e-5)
    assert sim.h == 0.02 and sim.model.settings.dmax == 1e-5


def test_full_inertia_tensor_matches_its_principal_form():
    """A rod given as a 3x3 tensor along x behaves as the same rod given by its principal moments."""
    data = mechanisms.double_pendulum()
    model = Model.from_dict(data)
    rod = data["bodies"][0]
    moments = sorted(np.linalg.eigvalsh(np.array(rod["inertia"])))
    assert sorted(model.body_inertia[1]) == pytest.approx(moments)


def mutate(path, value):
    """A copy of the arm with one field replaced (path like ("joints", 0, "axis")); value None deletes it."""
    data = copy.deepcopy(hinge_arm())
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is None:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


BAD = [
    (("format",), "mechbake/2", "format"),
    (("bodies", 0, "mass"), -1.0, "body 'arm': field 'mass'"),
    (("bodies", 0, "mass"), 0.0, "field 'mass' must be positive"),
    (("bodies", 0, "mass"), None, "field 'mass' is missing"),
    (("bodies", 0, "mass"), "heavy", "field 'mass' must be a number"),
    (("bodies", 0, "mass"), True, "field 'mass' must be a number"),
    (("bodies", 0, "mass"), float("nan"), "field 'mass' must be finite"),
    (("bodies", 0, "position"), [0, 0, float("inf")], "field 'position' must be finite"),
    (("bodies", 0, "position"), [0, 0], "field 'position' must be numbers of shape [3]"),
    (("bodies", 0, "inertia"), [1, 1, -1], "field 'inertia' must be positive definite"),
    (("bodies", 0, "inertia"), [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]], "field 'inertia' must be symmetric"),
    (("bodies", 0, "orientation"), [0, 0, 0, 0], "field 'orientation' must not be zero"),
    (("bodies", 0, "name"), "world", "reserved"),
    (("bodies", 0, "colour"), "red", "unknown field 'colour'"),
    (("joints", 0, "body_b"), "forearm", "joint 'shoulder': field 'body_b' names an unknown body 'forearm'"),
    (("joints", 0, "body_a"), "arm", "with itself"),
    (("joints", 0, "axis"), [0, 0, 0], "joint 'shoulder': field 'axis' must not be zero"),
    (("joints", 0, "type"), "screw", "joint 'shoulder': field 'type' must be one of"),
    (("joints", 0, "limits"), [1.0, -1.0], "field 'limits' must be [lower, upper]"),
    (("joints", 0, "limits"), [0.5, 1.0], "must contain the start position"),
    (("joints", 0, "motor"), {"mode": "torque", "target": 0}, "field 'mode' must be one of"),
    (("joints", 0, "motor"), {"mode": "position", "target": [[1, 0], [0, 1]]}, "times must increase"),
    (("joints", 0, "motor"), {"mode": "position", "target": 0, "max_torque": -1},
     "field 'max_torque' must be at least 0"),
    (("joints", 0, "motor"), {"mode": "position"}, "field 'target' is missing"),
    (("joints", 0, "spring"), {"stiffness": -5}, "field 'stiffness' must be at least 0"),
    (("joints", 0, "spring"), {"stiffness": 5, "method": "rk4"}, "field 'method' must be one of"),
    (("settings", "h"), 0.0, "settings: field 'h' must be positive"),
    (("settings", "solver"), "magic", "settings: field 'solver'"),
    (("settings", "levers"), "middle", "settings: field 'levers' must be one of"),
    (("settings", "taylor_order"), 2.5, "settings: field 'taylor_order' must be a whole number"),
    (("gravity",), [0, 0, "down"], "field 'gravity'"),
]


@pytest.mark.parametrize("path, value, message", BAD, ids=[f"{'.'.join(map(str, p))}={v!r}" for p, v, _ in BAD])
def test_bad_input_names_the_field(path, value, message):
    with pytest.raises(ModelError, match=_escaped(message)):
        Model.from_dict(mutate(path, value))


def _escaped(text):
    import re

    return re.escape(text)


def test_model_error_is_a_value_error():
    assert issubclass(ModelError, ValueError)


def test_duplicate_names_are_rejected():
    data = mechanisms.double_pendulum()
    data["bodies"][1]["name"] = "upper"
    with pytest.raises(ModelError, match="body 'upper': the name is used twice"):
        Model.from_dict(data)
    data = mechanisms.double_pendulum()
    data["joints"][1]["name"] = "shoulder"
    with pytest.raises(ModelError, match="joint 'shoulder': the name is used twice"):
        Model.from_dict(data)


def test_joint_between_fixed_bodies_is_rejected():
    data = hinge_arm()
    data["bodies"][0]["fixed"] = True
    with pytest.raises(ModelError, match="joint 'shoulder'.*both fixed"):
        Model.from_dict(data)


def test_rotation_locking_joint_between_particle_and_world_is_rejected():
    data = mechanisms.pendulum()
    data["joints"][0] = {"name": "pin", "type": "hinge", "body_a": "world", "body_b": "bob",
                         "anchor": [0, 0, 0], "axis": [0, 1, 0]}
    with pytest.raises(ModelError, match="joint 'pin'.*neither body can rotate"):
        Model.from_dict(data)


@pytest.mark.parametrize("joint", [
    {"type": "ball", "anchor": [0, 0, 0]},
    {"type": "fixed", "anchor": [0, 0, 0]},
    {"type": "distance", "anchor_a": [0, 0, 0], "anchor_b": [1, 0, 0]},
    {"type": "rail", "start": [0, 0, 0], "end": [2, 0, 0], "point": [1, 0, 0]},
])
def test_motor_on_a_joint_that_cannot_carry_one(joint):
    data = hinge_arm()
    data["joints"][0] = {"name": "j", "body_a": "world", "body_b": "arm", **joint,
                         "motor": {"mode": "velocity", "target": 1.0}}
    with pytest.raises(ModelError, match=f"joint 'j': field 'motor' is not allowed: "
                                         f"a {joint['type']} joint cannot carry a motor"):
        Model.from_dict(data)


def test_rail_point_off_the_rail_and_zero_length_rail():
    data = hinge_arm()
    data["joints"][0] = {"name": "track", "type": "rail", "body_a": "world", "body_b": "arm",
                         "start": [0, 0, 0], "end": [2, 0, 0], "point": [1, 0, 0.5]}
    with pytest.raises(ModelError, match="joint 'track': field 'point' must lie on the rail"):
        Model.from_dict(data)
    data["joints"][0].update(end=[0, 0, 0])
    with pytest.raises(ModelError, match="joint 'track': field 'end' must differ"):
        Model.from_dict(data)


def test_particle_with_spin_and_non_list_sections():
    data = mechanisms.pendulum()
    data["bodies"][0]["angular_velocity"] = [0, 0, 1]
    with pytest.raises(ModelError, match="body 'bob': field 'angular_velocity' must be zero for a particle"):
        Model.from_dict(data)
    with pytest.raises(ModelError, match="field 'joints' must be a list"):
        Model.from_dict({**mechanisms.pendulum(), "joints": {}})
    with pytest.raises(ModelError, match="mechanism: must be an object"):
        Model.from_dict([])


def test_unreadable_file_names_it(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{ not json")
    with pytest.raises(ModelError, match="broken.json: not valid JSON"):
        load_model(path)


def test_queries_name_unknown_bodies_and_joints():
    sim = Simulation(Model.from_dict(hinge_arm()))
    with pytest.raises(ModelError, match="body 'leg'"):
        sim.position("leg")
    with pytest.raises(ModelError, match="joint 'knee'"):
        sim.joint_position("knee")
    ball = Simulation(Model.from_dict(mechanisms.eight_loop()))
    with pytest.raises(ModelError, match="joint 'hang1': a ball joint has no joint position"):
        ball.joint_position("hang1")


def test_orientation_is_the_users_body_frame():
    data = hinge_arm()
    angle = 0.3
    data["bodies"][0]["orientation"] = [math.cos(angle / 2), 0, 0, math.sin(angle / 2)]
    sim = Simulation(Model.from_dict(data))
    assert sim.orientation("arm") == pytest.approx([math.cos(angle / 2), 0, 0, math.sin(angle / 2)])


HOSTILE = [  # values a file or a fuzzer may hold, each a named ModelError rather than a crash or NaN
    (("bodies", 0, "mass"), 10**400, "field 'mass' must be at most 1e+30 in size"),
    (("bodies", 0, "position"), [0, 0, 10**400], "field 'position' must be at most 1e+30 in size"),
    (("bodies", 0, "inertia"), [[1, 0, 0], [0, 1], [0, 0, 1]], "field 'inertia' must be numbers of shape [3, 3]"),
    (("bodies", 0, "inertia"), [[1, 0, 0], 5, [0, 0, 1]], "field 'inertia' must be numbers of shape [3, 3]"),
    (("bodies", 0, "velocity"), ["1", 0, 0], "field 'velocity' must be numbers of shape [3]"),
    (("bodies", 0, "velocity"), [None, 0, 0], "field 'velocity' must be numbers of shape [3]"),
    (("bodies", 0, "position"), [1e200, 1e200, 0], "field 'position' must be finite and at most 1e+30"),
    (("joints", 0, "axis"), [1e200, 1e200, 0], "joint 'shoulder': field 'axis' must be finite and at most 1e+30"),
    (("bodies", 0, "mass"), [[[[[[[[1.0]]]]]]]], "field 'mass' must be a number, got [[[[...]]]]"),
    (("bodies", 0, 7), "a key that is not a string", "body 'arm': unknown field 7"),
    (("bodies", 0, "mass"), 5e-324, "field 'mass' must be positive (at least 1e-30)"),  # 1 / mass is infinite
    (("bodies", 0, "inertia"), [1e-300, 1, 1], "field 'inertia' must be positive definite, every principal moment"),
]


@pytest.mark.parametrize("path, value, message", HOSTILE, ids=[f"{'.'.join(map(str, p))}" for p, _, _ in HOSTILE])
def test_hostile_values_are_named_model_errors(path, value, message):
    with pytest.raises(ModelError, match=_escaped(message)):
        Model.from_dict(mutate(path, value))


def test_deeply_nested_value_is_a_short_model_error():
    nested: list = [1.0]
    for _ in range(10000):
        nested = [nested]
    with pytest.raises(ModelError, match="field 'position' must be numbers of shape") as error:
        Model.from_dict(mutate(("bodies", 0, "position"), nested))
    assert len(str(error.value)) < 300


@pytest.mark.parametrize("path", [("joints", 0, "motor", "target"), ("joints", 0, "limits")])
def test_a_deeply_nested_drive_setting_is_a_short_model_error(path):
    nested: list = [1.0]
    for _ in range(10000):
        nested = [nested]
    with pytest.raises(ModelError, match="joint 'shoulder'") as error:
        Model.from_dict(mutate(path, {"deep": nested}))
    assert len(str(error.value)) < 300


def test_a_bad_vertex_in_a_large_mesh_is_named_in_a_short_message():
    side = 317  # about 100 000 vertices
    xs = np.linspace(-5, 5, side)
    vertices = np.array([[x, y, 0.0] for x in xs for y in xs])
    vertices[1234, 2] = np.nan
    vertices[5678, 0] = np.inf
    cells = np.array([i * side + j for i in range(side - 1) for j in range(side - 1)])
    triangles = np.concatenate((np.c_[cells, cells + side, cells + side + 1],
                                np.c_[cells, cells + side + 1, cells + 1]))
    data = {**hinge_arm(), "obstacles": [{"name": "terrain", "type": "mesh", "vertices": vertices.tolist(),
                                          "triangles": triangles.tolist()}]}
    with pytest.raises(ModelError) as error:
        Model.from_dict(data)
    message = str(error.value)
    assert message.startswith("obstacle 'terrain': field 'vertices' must be finite")
    assert "2 of 100489 rows" in message and "#1234 [" in message and "#5678 [" in message
    assert len(message) < 300


def test_obstacles_without_a_name_are_named_by_their_place():
    data = {**hinge_arm(), "obstacles": [{"type": "plane", "point": [0, 0, -5], "normal": [0, 0, 1]},
                                         {"name": "wall", "type": "plane", "point": [5, 0, 0], "normal": [-1, 0, 0]},
                                         {"type": "plane", "point": [0, 0, -6], "normal": [0, 0, 2]}]}
    model = Model.from_dict(data)
    assert [o["name"] for o in model.to_dict()["obstacles"]] == ["obstacle 0", "wall", "obstacle 2"]
    data["obstacles"][2]["normal"] = [0, 0, 0]
    with pytest.raises(ModelError, match="obstacle 'obstacle 2': field 'normal' must not be zero"):
        Model.from_dict(data)


@pytest.mark.parametrize("content, message", [
    (b"BLENDER-v402RENDH\x00\x00\x00\xff\xfe\x80binary", "not a mechanism file: it is binary, not JSON text"),
    (b"[" * 100000 + b"]" * 100000, "nested too deeply"),
    (b'{"format": "mechbake/1", "bodies": [], "gravity": [0, 0, ' + b"9" * 5000 + b"]}", "a number too long"),
], ids=["blend", "nested", "digits"])
def test_unreadable_files_are_model_errors(tmp_path, content, message):
    path = tmp_path / "scene.json"
    path.write_bytes(content)
    with pytest.raises(ModelError, match=f"scene.json: .*{message}"):
        load_model(path)
