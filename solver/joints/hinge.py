"""Hinge (revolute) joint: a ball joint whose bodies may turn relative to each other only about one
axis. Schmitt §10 builds it from two point joints on the axis; rows for the point and for the axis
direction do the same with five rows instead of six redundant ones."""
import numpy as np

from ..rotation import cross, perpendicular_basis
from . import ball
from .primitives import along, axis_misalignment, carried, cross_directions, spec_array, zeros_rows

NAME = "hinge"
ROW_ANGULAR = (False, False, False, True, True)
COORDINATE = "angle"
DRIVE_FIELDS = ("limits", "spring", "motor")


def read(reader) -> dict:
    axis = reader.vector("axis", nonzero=True)
    return {"anchor": reader.vector("anchor"), "axis": axis / np.linalg.norm(axis)}


def build(joints, frames0) -> None:
    ball.build(joints, frames0)
    axis = spec_array(joints, "axis")
    reference, _ = perpendicular_basis(axis)  # the angle is measured between these, 0 at the start
    for side, body in (("a", joints.body_a), ("b", joints.body_b)):
        joints.data[f"axis_{side}"] = frames0.to_local_vectors(body, axis)
        joints.data[f"reference_{side}"] = frames0.to_local_vectors(body, reference)
    across = cross_directions(axis)
    joints.data["across_a"] = across @ frames0.rotation[joints.body_a]  # world -> body a, row by row


def rows(joints, frames):
    m = len(joints.joint)
    point, _, r_a, r_b = ball.rows(joints, frames)
    linear = np.concatenate((point, zeros_rows(m, 2)), axis=1)
    angular = np.concatenate((zeros_rows(m, 3), carried(frames, joints.body_a, joints.across_a)), axis=1)
    return linear, angular, r_a, r_b


def look_ahead_error(joints, frames):
    phi = axis_misalignment(frames.vectors(joints.body_a, joints.axis_a), frames.vectors(joints.body_b, joints.axis_b))
    across = along(carried(frames, joints.body_a, joints.across_a), phi)
    return np.concatenate((ball.look_ahead_error(joints, frames), across), axis=1)


def axis_row(joints, frames):
    axis = frames.vectors(joints.body_a, joints.axis_a)
    _, _, r_a, r_b = ball.rows(joints, frames)
    return 0.0 * axis, axis, r_a, r_b


def coordinate(joints, frames):
    """Angle of body b about the axis relative to body a, right-handed, in (-pi, pi]."""
    axis = frames.vectors(joints.body_a, joints.axis_a)
    ref_a = frames.vectors(joints.body_a, joints.reference_a)
    ref_b = frames.vectors(joints.body_b, joints.reference_b)
    sine = np.einsum("mi,mi->m", cross(ref_a, ref_b), axis)
    cosine = np.einsum("mi,mi->m", ref_a, ref_b)
    return np.arctan2(sine, cosine)
