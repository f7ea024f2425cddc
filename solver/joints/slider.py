"""Slider (prismatic) joint: body b slides along an axis fixed in body a and may not turn relative to
it. Schmitt §10's carriage: a point of b on a line of a, plus a rotation lock."""
import numpy as np

from .primitives import (along, carried, cross_directions, relative_rotation_error, rotation_lock_rows,
                         spec_array, zeros_rows)

NAME = "slider"
ROW_ANGULAR = (False, False, True, True, True)
COORDINATE = "length"
DRIVE_FIELDS = ("limits", "spring", "motor")


def read(reader) -> dict:
    axis = reader.vector("axis", nonzero=True)
    return {"anchor": reader.vector("anchor"), "axis": axis / np.linalg.norm(axis)}


def build(joints, frames0) -> None:
    anchor = spec_array(joints, "anchor")
    joints.data["origin_a"] = frames0.to_local_points(joints.body_a, anchor)
    joints.data["point_b"] = frames0.to_local_points(joints.body_b, anchor)
    joints.data["axis_a"] = frames0.to_local_vectors(joints.body_a, spec_array(joints, "axis"))
    joints.data["across_a"] = cross_directions(spec_array(joints, "axis")) @ frames0.rotation[joints.body_a]
    joints.data["rest_relative"] = np.swapaxes(frames0.rotation[joints.body_a], 1, 2) @ frames0.rotation[joints.body_b]


def _levers(joints, frames):
    # Schmitt §10 rail: the impulse acts at the sliding point, for both bodies.
    point = frames.points(joints.body_b, joints.point_b)
    return point - frames.position[joints.body_a], point - frames.position[joints.body_b]


def rows(joints, frames):
    m = len(joints.joint)
    r_a, r_b = _levers(joints, frames)
    linear = np.concatenate((carried(frames, joints.body_a, joints.across_a), zeros_rows(m, 3)), axis=1)
    angular = np.concatenate((zeros_rows(m, 2), rotation_lock_rows(m)), axis=1)
    return linear, angular, r_a, r_b


def look_ahead_error(joints, frames):
    offset = frames.points(joints.body_b, joints.point_b) - frames.points(joints.body_a, joints.origin_a)
    across = along(carried(frames, joints.body_a, joints.across_a), offset)
    rotation = relative_rotation_error(frames, joints.body_a, joints.body_b, joints.rest_relative)
    return np.concatenate((across, rotation), axis=1)


def axis_row(joints, frames):
    axis = frames.vectors(joints.body_a, joints.axis_a)
    r_a, r_b = _levers(joints, frames)
    return axis, 0.0 * axis, r_a, r_b


def coordinate(joints, frames):
    """Displacement of b's point along a's axis from a's origin (0 at the start)."""
    offset = frames.points(joints.body_b, joints.point_b) - frames.points(joints.body_a, joints.origin_a)
    return np.einsum("mi,mi->m", offset, frames.vectors(joints.body_a, joints.axis_a))
