"""python -m mechbake.solver run: the report, the trajectory file, and clear failures."""
import csv
import json

import pytest

import mechanisms
from mechbake.solver.__main__ import main


def test_run_reports_and_writes_the_trajectory(tmp_path, capsys):
    scene = tmp_path / "pendulum.json"
    scene.write_text(json.dumps(mechanisms.pendulum()))
    out = tmp_path / "traj.csv"
    assert main(["run", str(scene), "--duration", "0.5", "--h", "0.01", "--out", str(out)]) == 0
    report = capsys.readouterr().out
    for word in ("50 steps", "corrections", "worst gap", "energy drift", "x real time"):
        assert word in report
    rows = list(csv.reader(out.open()))
    assert rows[0][:4] == ["time", "bob.x", "bob.y", "bob.z"]
    assert len(rows) == 52  # header, the start, 50 steps
    x, z = float(rows[-1][1]), float(rows[-1][3])
    assert abs(x * x + z * z - 1.0) < 1e-8  # still on its rod


def test_invalid_scene_exits_non_zero_with_the_field(tmp_path, capsys):
    data = mechanisms.pendulum()
    data["bodies"][0]["mass"] = -2
    scene = tmp_path / "bad.json"
    scene.write_text(json.dumps(data))
    assert main(["run", str(scene)]) == 2
    assert "body 'bob': field 'mass' must be positive" in capsys.readouterr().err


def test_missing_file_exits_non_zero(tmp_path, capsys):
    assert main(["run", str(tmp_path / "nowhere.json")]) == 2
    assert "nowhere.json" in capsys.readouterr().err


@pytest.mark.parametrize("duration", ["nan", "inf", "-1", "0"])
def test_duration_must_be_a_positive_number(tmp_path, capsys, duration):
    scene = tmp_path / "pendulum.json"
    scene.write_text(json.dumps(mechanisms.pendulum()))
    assert main(["run", str(scene), f"--duration={duration}"]) == 2
    assert "--duration must be a positive number of seconds" in capsys.readouterr().err


def test_a_blend_file_is_named_as_not_a_mechanism_file(tmp_path, capsys):
    blend = tmp_path / "scene.blend"
    blend.write_bytes(b"BLENDER-v402REND\x00\x00\x00\x00\xf0\x9f\xff\xfe" + bytes(range(256)))
    assert main(["run", str(blend)]) == 2
    error = capsys.readouterr().err
    assert "scene.blend: not a mechanism file: it is binary, not JSON text" in error
    assert "Traceback" not in error
