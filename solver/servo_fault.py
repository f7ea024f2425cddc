"""Which servo a run that cannot go on is to blame on. A position servo without a torque limit makes
its joint follow the target whatever that costs, so where the mechanism cannot go (past a limit,
beyond a closed loop's dead point, a keyed target that jumps) no step closes the joints, and the
joint left with a gap is where the conflict shows, not its cause. A servo is at fault when the
sub-step that failed goes through with that servo limp (no torque).
"""
import copy
import math

import numpy as np

from .drives import MOTOR_POSITION
from .errors import SimulationDiverged
from .model import Model


def servo_at_fault(sim, length: float) -> int | None:
    """The first position servo without a torque limit (a drive index of sim.model) without whose
    torque a sub-step of `length` from sim's state goes through; None when there is none."""
    model = sim.model
    for drive, record in enumerate(model.drives):
        if record.kind == MOTOR_POSITION and not np.isfinite(record.max_effort) and _goes_on_limp(sim, drive, length):
            return drive
    return None


def _goes_on_limp(sim, drive: int, length: float) -> bool:
    """Whether a step of `length` from sim's state stands when the servo `drive` gives no torque: a
    simulation of the same mechanism with that servo limp, from a copy of the state."""
    model = sim.model
    spec = copy.deepcopy(model.spec)
    spec["joints"][model.drives[drive].joint]["motor"]["max_effort"] = 0.0
    trial = type(sim)(Model(spec, model.settings), h=length)
    trial.blames_servos = False  # its own failure is an answer here, not a run to explain
    trial.state = sim.state.copy()
    try:
        trial.step()
    except SimulationDiverged:
        return False
    return True


def cannot_follow(model, drive: int, time: float) -> str:
    """What a servo at fault (servo_at_fault) is asked to do about `time`, naming its joint."""
    record = model.drives[drive]
    axis = model.axis_of_joint[record.joint]
    unit = "rad" if model.axis_is_angle[axis] else "m"

    def amounts(*values: float) -> str:  # angles in degrees first, as Blender shows them
        listed = " to ".join(f"{value:.4g}" for value in values) + f" {unit}"
        if unit == "m":
            return listed
        return " to ".join(f"{math.degrees(value):.4g}°" for value in values) + f" ({listed})"

    target = record.target
    segment = int(np.searchsorted(target.times, time, side="right")) - 1
    if 0 <= segment < len(target.times) - 1 and target.values[segment] != target.values[segment + 1]:
        asked = (f"its target, which goes from {amounts(target.values[segment], target.values[segment + 1])} "
                 f"between t = {target.times[segment]:.4g} and {target.times[segment + 1]:.4g} s")
    else:
        asked = f"its target of {amounts(target(time))}"
    return (f"joint '{model.joint_names[record.joint]}': its servo, with no torque limit, cannot make the mechanism "
            f"follow {asked}; give the servo a torque limit (Max Torque), or a target the mechanism can reach")
