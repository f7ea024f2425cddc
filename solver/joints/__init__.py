"""Joint kinds and the one table the solver dispatches through.

Every kind module offers the same functions:
  read(reader) -> dict              the kind's own fields of a joint record, validated and normalised
  build(joints, frames0)            body-frame constants from the world-space start pose
  rows(joints, frames)              row directions at time t: A, B (m, d, 3), levers r_a, r_b (m, 3)
  look_ahead_error(joints, frames)  (m, d) row errors: how far body b is off relative to body a
and, where the joint has a coordinate (angle or displacement) that drives act on:
  axis_row(joints, frames)          one row (A, B (m, 3), r_a, r_b) along the joint coordinate
  coordinate(joints, frames)        (m,) the raw coordinate (a hinge angle is wrapped to (-pi, pi])
A kind's ROW_ANGULAR tuple says which of its rows measure an angle; COORDINATE says what the
coordinate is ("angle", "length" or None); DRIVE_FIELDS lists which drive fields a record may carry.
"""
from dataclasses import dataclass, field

import numpy as np

from . import ball, distance, fixed, hinge, rail, slider, spring


@dataclass
class KindJoints:
    """All joints of one kind, as arrays (m = how many)."""

    joint: np.ndarray  # (m,) index into the model's joint list
    body_a: np.ndarray  # (m,) body index, 0 is the world
    body_b: np.ndarray  # (m,)
    specs: list  # (m,) the normalised records
    data: dict = field(default_factory=dict)  # kind-specific constant arrays, filled by build()

    def __getattr__(self, name):
        try:
            return self.__dict__["data"][name]
        except KeyError:
            raise AttributeError(name) from None


JOINT_KINDS = {module.NAME: module for module in (ball, hinge, slider, rail, fixed, distance, spring)}
