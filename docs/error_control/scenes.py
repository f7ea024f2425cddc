"""The jointed scenes of docs/error_control.md's energy study, imported from the checkout."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from checkout import import_checkout_as_mechbake  # noqa: E402

import_checkout_as_mechbake()
import mechanisms  # noqa: E402
from mechbake.solver import Model, Simulation  # noqa: E402

SCENES = {
    "eight_loop": lambda: mechanisms.eight_loop(0.01, 1e-5),
    "zigzag": mechanisms.hanging_zigzag,
    "a02": lambda: mechanisms.n_four_bar(10, h=0.005),
    "top": mechanisms.heavy_top,
}


def simulation(name: str) -> Simulation:
    return Simulation(Model.from_dict(SCENES[name]()))
