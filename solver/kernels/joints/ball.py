"""Ball joint (Schmitt §5, joint type 0): a point of body a and a point of body b stay together.

Three linear rows along the world axes; the error is p_b - p_a at the look-ahead (P-step 2)."""
from ..jit import borrowing_kernel
from ..vector import body_point, rotate


@borrowing_kernel
def levers(model, j, position, rotation, lever_a, lever_b):
    """The anchor as seen from each centre of mass (world)."""
    a, b = model.joint_body[j, 0], model.joint_body[j, 1]
    rotate(rotation[a], model.joint_point[j, 0], lever_a)
    rotate(rotation[b], model.joint_point[j, 1], lever_b)


@borrowing_kernel
def rows(model, j, position, rotation, linear, angular, lever_a, lever_b):
    levers(model, j, position, rotation, lever_a, lever_b)
    for r in range(3):
        for i in range(3):
            linear[r, i] = 1.0 if r == i else 0.0
            angular[r, i] = 0.0


@borrowing_kernel
def errors(model, j, position, rotation, work, out):
    a, b = model.joint_body[j, 0], model.joint_body[j, 1]
    body_point(position[a], rotation[a], model.joint_point[j, 0], work[0])
    body_point(position[b], rotation[b], model.joint_point[j, 1], work[1])
    for i in range(3):
        out[i] = work[1, i] - work[0, i]
