"""Joint kinds: what each joint record holds, and the body-frame constants its equations need.

Every kind module offers the same model-time functions:
  read(reader) -> dict                the kind's own fields of a joint record, validated and normalised
  build(arrays, j, spec, start, a, b) fills joint j's slots of the JointArrays from the start pose
  start_coordinate(spec) -> float     the raw coordinate at the start (kinds with a coordinate)
and constants: CODE (the kind's number in joint_kind), ROW_ANGULAR (which of its rows measure an
angle; their count is the kind's rows), COORDINATE ("angle", "length" or None: what drives act on),
DRIVE_FIELDS (which drive fields a record may carry). The kind's equations (rows, errors, axis row,
coordinate) are compiled kernels in solver/kernels/joints/, one file per kind with the same name.
"""
from dataclasses import dataclass

import numpy as np

from . import ball, distance, fixed, hinge, rail, slider, spring
from .common import BALL, DISTANCE, FIXED, HINGE, RAIL, SLIDER, SPRING

__all__ = ["JOINT_KINDS", "JointArrays", "BALL", "HINGE", "SLIDER", "RAIL", "FIXED", "DISTANCE", "SPRING"]

JOINT_KINDS = {module.NAME: module for module in (ball, hinge, slider, rail, fixed, distance, spring)}


@dataclass
class JointArrays:
    """Every joint's constants, in the frames of its bodies (m joints; index into the model's list)."""

    kind: np.ndarray  # (m,) CODE of the joint's kind
    body: np.ndarray  # (m, 2) body a, body b (0 is the world)
    point: np.ndarray  # (m, 2, 3) a point fixed in body a (a's principal frame), one fixed in body b (b's)
    direction: np.ndarray  # (m, 4, 3) [0] an axis, [1], [2] two directions across it, in a's frame; [3] the axis in b's
    reference: np.ndarray  # (m, 2, 3) the zero-angle direction of a hinge, in a's frame and in b's
    rest: np.ndarray  # (m, 3, 3) R_a^T R_b at the start (rotation locks)
    length: np.ndarray  # (m,) a distance joint's length, a rail's length

    @classmethod
    def build(cls, specs: list, body_a: np.ndarray, body_b: np.ndarray, start) -> "JointArrays":
        m = len(specs)
        arrays = cls(np.array([JOINT_KINDS[s["type"]].CODE for s in specs], dtype=np.int64).reshape(m),
                     np.stack((body_a, body_b), axis=1).astype(np.int64).reshape(m, 2), np.zeros((m, 2, 3)),
                     np.zeros((m, 4, 3)), np.zeros((m, 2, 3)), np.tile(np.eye(3), (m, 1, 1)), np.zeros(m))
        for j, spec in enumerate(specs):
            JOINT_KINDS[spec["type"]].build(arrays, j, spec, start, int(body_a[j]), int(body_b[j]))
        return arrays
