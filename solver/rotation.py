"""Small rotation helpers, vectorised over a leading axis.

Matrices rotate column vectors: a vector given in a body frame is `R @ v` in the world.
Quaternions are (w, x, y, z).
"""
import numpy as np


def quaternion_to_matrix(q) -> np.ndarray:
    """(..., 4) quaternions (w, x, y, z), any length > 0 -> (..., 3, 3) rotation matrices."""
    q = np.asarray(q, dtype=float)
    w, x, y, z = np.moveaxis(q / np.linalg.norm(q, axis=-1, keepdims=True), -1, 0)
    rows = ((1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
            (2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
            (2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))
    return np.stack([np.stack(row, axis=-1) for row in rows], axis=-2)


def matrix_to_quaternion(m: np.ndarray) -> np.ndarray:
    """3x3 rotation matrix -> unit quaternion (w, x, y, z) with w >= 0 (Shepperd's method)."""
    trace = m[0, 0] + m[1, 1] + m[2, 2]
    diagonal = (m[0, 0], m[1, 1], m[2, 2])
    if trace >= max(diagonal):
        w = 0.5 * np.sqrt(1.0 + trace)
        q = np.array([w, (m[2, 1] - m[1, 2]) / (4 * w), (m[0, 2] - m[2, 0]) / (4 * w), (m[1, 0] - m[0, 1]) / (4 * w)])
    else:
        i = int(np.argmax(diagonal))
        j, k = (i + 1) % 3, (i + 2) % 3
        r = 0.5 * np.sqrt(1.0 + m[i, i] - m[j, j] - m[k, k])
        q = np.empty(4)
        q[0] = (m[k, j] - m[j, k]) / (4 * r)
        q[1 + i] = r
        q[1 + j] = (m[j, i] + m[i, j]) / (4 * r)
        q[1 + k] = (m[k, i] + m[i, k]) / (4 * r)
    q /= np.linalg.norm(q)
    return -q if q[0] < 0 else q
