"""Fixed joint: the two bodies move as one (a ball joint plus a rotation lock).

Slots: joint_point[j] the anchor in a's and b's frames; joint_rest[j] R_a^T R_b at the start."""
from ..jit import borrowing_kernel
from ..vector import relative_rotation_vector
from . import ball


@borrowing_kernel
def rotation_lock_rows(linear, angular):
    """Three angular rows along the world axes: no relative rotation (fixed joints, sliders)."""
    for r in range(3):
        for i in range(3):
            linear[r, i] = 0.0
            angular[r, i] = 1.0 if r == i else 0.0


@borrowing_kernel
def rows(model, j, position, rotation, linear, angular, lever_a, lever_b):
    ball.rows(model, j, position, rotation, linear[0:3], angular[0:3], lever_a, lever_b)
    rotation_lock_rows(linear[3:6], angular[3:6])


@borrowing_kernel
def errors(model, j, position, rotation, work, out):
    ball.errors(model, j, position, rotation, work, out[0:3])
    a, b = model.joint_body[j, 0], model.joint_body[j, 1]
    relative_rotation_vector(rotation[a], rotation[b], model.joint_rest[j], out[3:6])
