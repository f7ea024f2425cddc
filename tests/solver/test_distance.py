"""Distance joint: a massless rod between two free particles, spinning in space."""
import numpy as np
import pytest

from scenes import scene, simulate


@pytest.mark.parametrize("levers", ["start", "thirds"])
def test_spinning_dumbbell_keeps_its_length_and_momenta(levers):
    """With the levers at thirds the rod's impulses are not along the line between the particles at
    the step's start, yet the step's two corrections leave angular momentum as it was (the velocity
    correction closes the thirds' rows below Vmax: correction.LEVER_TIGHTNESS)."""
    bodies = [{"name": "a", "mass": 1.0, "position": [-0.6, 0, 0], "velocity": [0, -2.0, 0.1]},
              {"name": "b", "mass": 2.0, "position": [0.6, 0, 0], "velocity": [0, 1.0, 0.1]}]
    joint = {"name": "rod", "type": "distance", "body_a": "a", "body_b": "b", "anchor_a": [-0.6, 0, 0],
             "anchor_b": [0.6, 0, 0]}
    sim = simulate(scene(bodies, [joint], gravity=(0, 0, 0), h=0.005, dmax=1e-10, levers=levers))

    def momenta(s):
        masses = {"a": 1.0, "b": 2.0}
        linear = sum(m * s.velocity(n) for n, m in masses.items())
        angular = sum(m * np.cross(s.position(n), s.velocity(n)) for n, m in masses.items())
        return linear, angular

    linear, angular = momenta(sim)
    energy = sim.energy()
    for _ in range(400):
        sim.step()
        assert abs(np.linalg.norm(sim.position("b") - sim.position("a")) - 1.2) < 1e-10
    assert momenta(sim)[0] == pytest.approx(linear, abs=1e-10)
    assert momenta(sim)[1] == pytest.approx(angular, abs=1e-7)
    assert sim.energy() == pytest.approx(energy, rel=1e-6)
