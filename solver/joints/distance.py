"""Distance joint: two anchor points keep the distance they have at the start (a massless rod)."""
import numpy as np

from .primitives import spec_array

NAME = "distance"
ROW_ANGULAR = (False,)
COORDINATE = "length"
DRIVE_FIELDS = ()


def read(reader) -> dict:
    anchor_a, anchor_b = reader.vector("anchor_a"), reader.vector("anchor_b")
    if np.linalg.norm(anchor_b - anchor_a) < 1e-9:
        raise reader.fail("anchor_b", "must differ from 'anchor_a' (a distance joint needs a direction)")
    return {"anchor_a": anchor_a, "anchor_b": anchor_b}


def build(joints, frames0) -> None:
    anchor_a, anchor_b = spec_array(joints, "anchor_a"), spec_array(joints, "anchor_b")
    joints.data["anchor_a"] = frames0.to_local_points(joints.body_a, anchor_a)
    joints.data["anchor_b"] = frames0.to_local_points(joints.body_b, anchor_b)
    joints.data["length"] = np.linalg.norm(anchor_b - anchor_a, axis=1)


def separation(joints, frames):
    """(m, 3) vector from anchor a to anchor b, (m,) its length, (m, 3) its direction."""
    d = frames.points(joints.body_b, joints.anchor_b) - frames.points(joints.body_a, joints.anchor_a)
    length = np.linalg.norm(d, axis=1)
    direction = d / np.maximum(length, 1e-300)[:, None]
    return d, length, direction


def axis_row(joints, frames):
    _, _, direction = separation(joints, frames)
    r_a = frames.vectors(joints.body_a, joints.anchor_a)
    r_b = frames.vectors(joints.body_b, joints.anchor_b)
    return direction, 0.0 * direction, r_a, r_b


def rows(joints, frames):
    direction, zero, r_a, r_b = axis_row(joints, frames)
    return direction[:, None, :], zero[:, None, :], r_a, r_b


def look_ahead_error(joints, frames):
    return (separation(joints, frames)[1] - joints.length)[:, None]


def coordinate(joints, frames):
    return separation(joints, frames)[1]
