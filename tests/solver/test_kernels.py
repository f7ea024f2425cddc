"""The kernels that only borrow their arrays (kernels/jit.borrowing_kernel) count no references to
them. One that called a kernel returning a new array would leak it, every step; so a run, past its
first steps, must free every array the kernels make."""
import gc

import contact_scenes
import mechanisms
import numpy as np
import pytest
from numba.core.runtime import _nrt_python as runtime  # numba's own allocation counters
from scenes import rod, scene, simulate


def animated_support() -> dict:
    """A pendulum on a support keyed to swing along x (the flight reads its motion table)."""
    times = np.arange(0.0, 1.0, 1.0 / 24.0)
    motion = {"time": times.tolist(), "position": [[0.2 * np.sin(4 * t), 0.0, 0.0] for t in times],
              "orientation": [[1.0, 0.0, 0.0, 0.0]] * len(times)}
    return scene([{"name": "Support", "motion": motion}, rod("Arm", [0, 0, 0], [0, 0, -1])],
                 [{"name": "Pivot", "type": "hinge", "body_a": "Support", "body_b": "Arm", "anchor": [0, 0, 0],
                   "axis": [0, 1, 0], "limits": [-0.3, 0.3]}], h=0.005, dmax=1e-8)


SCENES = {
    "servo and slider (planar split)": (mechanisms.crank_slider, {}),
    "Bricard (K's null space)": (mechanisms.bricard, {}),
    "explicit springs": (lambda: mechanisms.spring_suspension("impulse"), {}),
    "soft springs": (lambda: mechanisms.spring_suspension("soft"), {}),
    "8-Loop, iterative": (mechanisms.eight_loop, {"solver": "iterative"}),
    "four-bar, Richardson's steps": (mechanisms.four_bar, {"extrapolation": "richardson"}),
    "animated support, limit": (animated_support, {}),
    "balls on a table": (mechanisms.four_balls, {}),
    "tower of boxes (the direct step)": (lambda: contact_scenes.box_tower(4), {}),
    "braked cart on a slope (contacts through joints)": (lambda: contact_scenes.braked_cart("impulse", 20.0), {}),
}


def live_arrays() -> int:
    gc.collect()
    return runtime.memsys_get_stats_mi_alloc() - runtime.memsys_get_stats_mi_free()


@pytest.fixture
def counted():
    runtime.memsys_enable_stats()
    yield
    runtime.memsys_disable_stats()


@pytest.mark.parametrize("name", SCENES)
def test_a_run_frees_every_array_its_kernels_make(counted, name):
    build, overrides = SCENES[name]
    sim = simulate(build(), **overrides)
    sim.run(0.05)  # compiled, and every buffer the simulation keeps is made
    before = live_arrays()
    sim.run(0.2)
    for _ in range(10):  # step by step as well: the path a bake and the contact scenes take
        sim.step()
    assert live_arrays() == before
