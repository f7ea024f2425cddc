"""Fixed joint: the two bodies move as one (a ball joint plus a rotation lock)."""
import numpy as np

from . import ball
from .primitives import relative_rotation_error, rotation_lock_rows, zeros_rows

NAME = "fixed"
ROW_ANGULAR = (False, False, False, True, True, True)
COORDINATE = None
DRIVE_FIELDS = ()


def read(reader) -> dict:
    return {"anchor": reader.vector("anchor")}


def build(joints, frames0) -> None:
    ball.build(joints, frames0)
    joints.data["rest_relative"] = np.swapaxes(frames0.rotation[joints.body_a], 1, 2) @ frames0.rotation[joints.body_b]


def rows(joints, frames):
    m = len(joints.joint)
    point_a, _, r_a, r_b = ball.rows(joints, frames)
    linear = np.concatenate((point_a, zeros_rows(m, 3)), axis=1)
    angular = np.concatenate((zeros_rows(m, 3), rotation_lock_rows(m)), axis=1)
    return linear, angular, r_a, r_b


def look_ahead_error(joints, frames):
    rotation = relative_rotation_error(frames, joints.body_a, joints.body_b, joints.rest_relative)
    return np.concatenate((ball.look_ahead_error(joints, frames), rotation), axis=1)
