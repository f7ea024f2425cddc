"""Hinge (revolute) joint: a ball joint whose bodies may turn relative to each other only about one
axis. Schmitt §10 builds it from two point joints on the axis; rows for the point and for the axis
direction do the same with five rows instead of six redundant ones.

Slots: joint_point[j] the anchor in a's and b's frames; joint_direction[j, 0] the axis in a's
frame, [1], [2] two directions across it in a's frame, [3] the axis in b's frame;
joint_reference[j] the zero-angle direction in a's and b's frames."""
from math import atan2

from ..jit import borrowing_kernel
from ..vector import cross, dot, rotate
from . import ball


@borrowing_kernel
def rows(model, j, position, rotation, linear, angular, lever_a, lever_b):
    ball.rows(model, j, position, rotation, linear[0:3], angular[0:3], lever_a, lever_b)
    a = model.joint_body[j, 0]
    for r in range(3, 5):  # the cross directions turn with body a
        linear[r, :] = 0.0
        rotate(rotation[a], model.joint_direction[j, r - 2], angular[r])


@borrowing_kernel
def errors(model, j, position, rotation, work, out):
    ball.errors(model, j, position, rotation, work, out[0:3])
    a, b = model.joint_body[j, 0], model.joint_body[j, 1]
    rotate(rotation[a], model.joint_direction[j, 0], work[0])
    rotate(rotation[b], model.joint_direction[j, 3], work[1])
    cross(work[0], work[1], work[2])  # sin(angle) * the axis that turns a's axis into b's
    for r in range(3, 5):
        rotate(rotation[a], model.joint_direction[j, r - 2], work[3])
        out[r] = dot(work[3], work[2])


@borrowing_kernel
def axis_row(model, j, position, rotation, linear, angular, lever_a, lever_b):
    ball.levers(model, j, position, rotation, lever_a, lever_b)
    linear[:] = 0.0
    rotate(rotation[model.joint_body[j, 0]], model.joint_direction[j, 0], angular)


@borrowing_kernel
def coordinate(model, j, position, rotation, work):
    """Angle of body b about the axis relative to body a, right-handed, in (-pi, pi]."""
    a, b = model.joint_body[j, 0], model.joint_body[j, 1]
    rotate(rotation[a], model.joint_direction[j, 0], work[0])
    rotate(rotation[a], model.joint_reference[j, 0], work[1])
    rotate(rotation[b], model.joint_reference[j, 1], work[2])
    cross(work[1], work[2], work[3])
    return atan2(dot(work[3], work[0]), dot(work[1], work[2]))
