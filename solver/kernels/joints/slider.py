"""Slider (prismatic) joint: body b slides along an axis fixed in body a and may not turn relative to
it. Schmitt §10's carriage: a point of b on a line of a, plus a rotation lock.

Slots: joint_point[j, 0] the line's origin in a's frame, [1] the sliding point in b's frame;
joint_direction[j, 0] the axis in a's frame, [1], [2] two directions across it in a's frame;
joint_rest[j] R_a^T R_b at the start."""
from ..jit import borrowing_kernel
from ..vector import relative_rotation_vector
from . import fixed, rail


@borrowing_kernel
def rows(model, j, position, rotation, linear, angular, lever_a, lever_b):
    rail.rows(model, j, position, rotation, linear[0:2], angular[0:2], lever_a, lever_b)
    fixed.rotation_lock_rows(linear[2:5], angular[2:5])


@borrowing_kernel
def errors(model, j, position, rotation, work, out):
    rail.errors(model, j, position, rotation, work, out[0:2])
    a, b = model.joint_body[j, 0], model.joint_body[j, 1]
    relative_rotation_vector(rotation[a], rotation[b], model.joint_rest[j], out[2:5])


axis_row = rail.axis_row
coordinate = rail.coordinate
