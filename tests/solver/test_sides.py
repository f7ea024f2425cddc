"""Every joint kind works with the world, or a fixed body, on either side."""
import numpy as np
import pytest

from scenes import rod, scene, simulate

JOINTS = {
    "ball": {"anchor": [0, 0, 0]},
    "hinge": {"anchor": [0, 0, 0], "axis": [0, 1, 0]},
    "slider": {"anchor": [0, 0, 0], "axis": [1, 0, -1]},
    "rail": {"start": [-0.5, 0, 0.5], "end": [1.5, 0, -1.5], "point": [0, 0, 0]},
    "fixed": {"anchor": [0, 0, 0]},
    "distance": {"anchor_a": [0, 0, 0.5], "anchor_b": [0, 0, 0]},
    "spring": {"anchor_a": [0, 0, 0.5], "anchor_b": [0, 0, 0], "stiffness": 200.0, "damping": 1.0},
}


@pytest.mark.parametrize("other", ["world", "frame"])
@pytest.mark.parametrize("swap", [False, True], ids=["other-is-a", "other-is-b"])
@pytest.mark.parametrize("kind", list(JOINTS))
def test_joint_kind_with_a_fixed_side(kind, swap, other):
    arm = rod("arm", [0, 0, 0], [1, 0, 0.2], radius=0.03)
    frame = {"name": "frame", "mass": 5.0, "position": [0.3, 0.2, 0.4], "orientation": [0.9, 0.1, 0.2, 0.3],
             "fixed": True}
    sides = {"body_a": "arm", "body_b": other} if swap else {"body_a": other, "body_b": "arm"}
    joint = {"name": "j", "type": kind, **sides, **JOINTS[kind]}
    sim = simulate(scene([arm, frame], [joint], h=0.005, dmax=1e-8))
    start = sim.position("arm")
    worst = 0.0
    for _ in range(100):
        sim.step()
        worst = max(worst, sim.max_joint_error())
    assert worst < 1e-8
    if kind == "fixed":
        assert sim.position("arm") == pytest.approx(start, abs=1e-8)
    else:
        assert np.linalg.norm(sim.position("arm") - start) > 1e-3  # it moved, as its joint allows
