"""Distance joint: two anchor points keep the distance they had at the start (a massless rod). A
spring uses the same anchors and coordinate without the row.

Slots: joint_point[j] the anchors in a's and b's frames; joint_length[j] the distance."""
from math import sqrt

from ..jit import borrowing_kernel
from ..vector import body_point
from . import ball


@borrowing_kernel
def separation(model, j, position, rotation, work):
    """work[2] = anchor b - anchor a (world); returns its length."""
    a, b = model.joint_body[j, 0], model.joint_body[j, 1]
    body_point(position[a], rotation[a], model.joint_point[j, 0], work[0])
    body_point(position[b], rotation[b], model.joint_point[j, 1], work[1])
    for i in range(3):
        work[2, i] = work[1, i] - work[0, i]
    return sqrt(work[2, 0] ** 2 + work[2, 1] ** 2 + work[2, 2] ** 2)


@borrowing_kernel
def axis_row(model, j, position, rotation, linear, angular, lever_a, lever_b):
    ball.levers(model, j, position, rotation, lever_a, lever_b)
    for i in range(3):
        linear[i] = position[model.joint_body[j, 1], i] + lever_b[i] - position[model.joint_body[j, 0], i] - lever_a[i]
    length = max(sqrt(linear[0] ** 2 + linear[1] ** 2 + linear[2] ** 2), 1e-300)
    for i in range(3):
        linear[i] /= length
        angular[i] = 0.0


@borrowing_kernel
def rows(model, j, position, rotation, linear, angular, lever_a, lever_b):
    axis_row(model, j, position, rotation, linear[0], angular[0], lever_a, lever_b)


@borrowing_kernel
def errors(model, j, position, rotation, work, out):
    out[0] = separation(model, j, position, rotation, work) - model.joint_length[j]


@borrowing_kernel
def coordinate(model, j, position, rotation, work):
    return separation(model, j, position, rotation, work)
