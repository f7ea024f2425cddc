"""Rail with end stops (Schmitt §10): a point of body b runs on the segment start-end of body a.

The point may not leave the line; the two stops are one-sided rows that act only when the look-ahead
finds the point past an end. Body b may turn freely about the point.
"""
import numpy as np

from ..errors import ModelError
from .primitives import along, carried, cross_directions, off_line, spec_array, zeros_rows

NAME = "rail"
ROW_ANGULAR = (False, False)
COORDINATE = "length"
DRIVE_FIELDS = ()


def read(reader) -> dict:
    start, end = reader.vector("start"), reader.vector("end")
    if np.linalg.norm(end - start) < 1e-12:
        raise reader.fail("end", "must differ from 'start' (the rail has no length)")
    return {"start": start, "end": end, "point": reader.vector("point")}


def build(joints, frames0) -> None:
    start, end = spec_array(joints, "start"), spec_array(joints, "end")
    direction = (end - start) / np.linalg.norm(end - start, axis=1, keepdims=True)
    joints.data["start_a"] = frames0.to_local_points(joints.body_a, start)
    joints.data["direction_a"] = frames0.to_local_vectors(joints.body_a, direction)
    joints.data["length"] = np.linalg.norm(end - start, axis=1)
    joints.data["across_a"] = cross_directions(direction) @ frames0.rotation[joints.body_a]
    joints.data["point_b"] = frames0.to_local_points(joints.body_b, spec_array(joints, "point"))
    off = off_line(spec_array(joints, "point"), start, direction)
    for k, spec in enumerate(joints.specs):
        if np.linalg.norm(off[k]) > 1e-6:
            raise ModelError(f"joint '{spec['name']}': field 'point' must lie on the rail from 'start' to 'end' "
                             f"(it is {np.linalg.norm(off[k]):.3g} m off)")


def _levers(joints, frames):
    point = frames.points(joints.body_b, joints.point_b)
    return point - frames.position[joints.body_a], point - frames.position[joints.body_b]


def rows(joints, frames):
    r_a, r_b = _levers(joints, frames)
    return carried(frames, joints.body_a, joints.across_a), zeros_rows(len(joints.joint), 2), r_a, r_b


def look_ahead_error(joints, frames):
    offset = frames.points(joints.body_b, joints.point_b) - frames.points(joints.body_a, joints.start_a)
    return along(carried(frames, joints.body_a, joints.across_a), offset)


def axis_row(joints, frames):
    direction = frames.vectors(joints.body_a, joints.direction_a)
    r_a, r_b = _levers(joints, frames)
    return direction, 0.0 * direction, r_a, r_b


def coordinate(joints, frames):
    """Distance of b's point along the rail from its start."""
    offset = frames.points(joints.body_b, joints.point_b) - frames.points(joints.body_a, joints.start_a)
    return np.einsum("mi,mi->m", offset, frames.vectors(joints.body_a, joints.direction_a))
