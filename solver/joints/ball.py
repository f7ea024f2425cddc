"""Ball joint: a point of body a and a point of body b stay together (Schmitt §5, joint type 0)."""
from .primitives import point_rows, spec_array, zeros_rows

NAME = "ball"
ROW_ANGULAR = (False, False, False)
COORDINATE = None
DRIVE_FIELDS = ()


def read(reader) -> dict:
    return {"anchor": reader.vector("anchor")}


def build(joints, frames0) -> None:
    anchor = spec_array(joints, "anchor")
    joints.data["anchor_a"] = frames0.to_local_points(joints.body_a, anchor)
    joints.data["anchor_b"] = frames0.to_local_points(joints.body_b, anchor)


def rows(joints, frames):
    m = len(joints.joint)
    r_a = frames.vectors(joints.body_a, joints.anchor_a)
    r_b = frames.vectors(joints.body_b, joints.anchor_b)
    return point_rows(m), zeros_rows(m, 3), r_a, r_b


def look_ahead_error(joints, frames):
    # Schmitt P-step 2: delta = p_b(t+h) - p_a(t+h), along the world axes
    return frames.points(joints.body_b, joints.anchor_b) - frames.points(joints.body_a, joints.anchor_a)
