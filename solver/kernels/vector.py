"""3-vector and 3x3 helpers for the kernels: written out, so numba inlines them into plain arithmetic."""
from .jit import borrowing_kernel


@borrowing_kernel
def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@borrowing_kernel
def cross(a, b, out):
    x = a[1] * b[2] - a[2] * b[1]
    y = a[2] * b[0] - a[0] * b[2]
    z = a[0] * b[1] - a[1] * b[0]
    out[0], out[1], out[2] = x, y, z


@borrowing_kernel
def rotate(rotation, local, out):
    """out = R local: a body-frame vector in the world."""
    for i in range(3):
        out[i] = rotation[i, 0] * local[0] + rotation[i, 1] * local[1] + rotation[i, 2] * local[2]


@borrowing_kernel
def unrotate(rotation, world, out):
    """out = R^T world: a world vector in the body frame."""
    for i in range(3):
        out[i] = rotation[0, i] * world[0] + rotation[1, i] * world[1] + rotation[2, i] * world[2]


@borrowing_kernel
def rotated_component(rotation, body, i, x, y, z):
    """(R (x, y, z))[i] for the body's rotation R = rotation[body] (rotation (n, 3, 3)): component i
    in the world of a body-frame vector, read by index (a view of a row costs a reference count)."""
    return rotation[body, i, 0] * x + rotation[body, i, 1] * y + rotation[body, i, 2] * z


@borrowing_kernel
def body_point(position, rotation, local, out):
    """out = x + R local: a point fixed in a body, in the world."""
    rotate(rotation, local, out)
    out[0] += position[0]
    out[1] += position[1]
    out[2] += position[2]


@borrowing_kernel
def _turned(rotation_a, rotation_b, rest_relative, i, j):
    """Entry (i, j) of E = R_b (R_a rest)^T = R_b rest^T R_a^T."""
    total = 0.0
    for k in range(3):
        for m in range(3):
            total += rotation_b[i, k] * rest_relative[m, k] * rotation_a[j, m]
    return total


@borrowing_kernel
def relative_rotation_vector(rotation_a, rotation_b, rest_relative, out):
    """sin(angle) * axis by which body b is turned away from its rest orientation relative to a:
    the axial vector of the antisymmetric part of E = R_b (R_a rest)^T, I when the lock holds."""
    out[0] = 0.5 * (_turned(rotation_a, rotation_b, rest_relative, 2, 1)
                    - _turned(rotation_a, rotation_b, rest_relative, 1, 2))
    out[1] = 0.5 * (_turned(rotation_a, rotation_b, rest_relative, 0, 2)
                    - _turned(rotation_a, rotation_b, rest_relative, 2, 0))
    out[2] = 0.5 * (_turned(rotation_a, rotation_b, rest_relative, 1, 0)
                    - _turned(rotation_a, rotation_b, rest_relative, 0, 1))
