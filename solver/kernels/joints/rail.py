"""Rail with end stops (Schmitt §10): a point of body b runs on a line of body a; body b may turn
freely about the point. The end stops are drives on the coordinate (drives.py).

Slots: joint_point[j, 0] the rail's start in a's frame, [1] the running point in b's frame;
joint_direction[j, 0] the rail's direction in a's frame, [1], [2] two directions across it."""
from ..jit import borrowing_kernel
from ..vector import body_point, dot, rotate


@borrowing_kernel
def levers(model, j, position, rotation, lever_a, lever_b):
    """Schmitt §10: the impulse acts at the running point, for both bodies."""
    a, b = model.joint_body[j, 0], model.joint_body[j, 1]
    rotate(rotation[b], model.joint_point[j, 1], lever_b)
    for i in range(3):
        lever_a[i] = position[b, i] + lever_b[i] - position[a, i]


@borrowing_kernel
def offset(model, j, position, rotation, work, out):
    """The running point relative to the line's origin (world)."""
    a, b = model.joint_body[j, 0], model.joint_body[j, 1]
    body_point(position[a], rotation[a], model.joint_point[j, 0], work[0])
    body_point(position[b], rotation[b], model.joint_point[j, 1], work[1])
    for i in range(3):
        out[i] = work[1, i] - work[0, i]


@borrowing_kernel
def rows(model, j, position, rotation, linear, angular, lever_a, lever_b):
    levers(model, j, position, rotation, lever_a, lever_b)
    a = model.joint_body[j, 0]
    for r in range(2):  # the cross directions turn with body a
        rotate(rotation[a], model.joint_direction[j, 1 + r], linear[r])
        angular[r, :] = 0.0


@borrowing_kernel
def errors(model, j, position, rotation, work, out):
    offset(model, j, position, rotation, work, work[2])
    a = model.joint_body[j, 0]
    for r in range(2):
        rotate(rotation[a], model.joint_direction[j, 1 + r], work[3])
        out[r] = dot(work[3], work[2])


@borrowing_kernel
def axis_row(model, j, position, rotation, linear, angular, lever_a, lever_b):
    levers(model, j, position, rotation, lever_a, lever_b)
    rotate(rotation[model.joint_body[j, 0]], model.joint_direction[j, 0], linear)
    angular[:] = 0.0


@borrowing_kernel
def coordinate(model, j, position, rotation, work):
    """Distance of b's point along the line from its origin."""
    offset(model, j, position, rotation, work, work[2])
    rotate(rotation[model.joint_body[j, 0]], model.joint_direction[j, 0], work[3])
    return dot(work[2], work[3])
