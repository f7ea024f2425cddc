"""Small rotation helpers, vectorised over a leading axis.

Matrices rotate column vectors: a vector given in a body frame is `R @ v` in the world.
Quaternions are (w, x, y, z).
"""
import numpy as np

# Levi-Civita symbol: (a x b)_i = EPS[i, j, k] a_j b_k
LEVI_CIVITA = np.zeros((3, 3, 3))
LEVI_CIVITA[0, 1, 2] = LEVI_CIVITA[1, 2, 0] = LEVI_CIVITA[2, 0, 1] = 1.0
LEVI_CIVITA[0, 2, 1] = LEVI_CIVITA[2, 1, 0] = LEVI_CIVITA[1, 0, 2] = -1.0


def orthonormalize(m: np.ndarray, tolerance: float = 1e-13, max_passes: int = 4) -> np.ndarray:
    """Schmitt §3 orthonormalisation: normalise the columns, then average each with the cross
    product of the other two. The error squares with every pass (Schmitt: one pass, rarely two, to
    about 13 digits), and no axis is preferred.

    The crosses (y x z, z x x, x x y) of all three columns are the columns of the cofactor
    matrix, taken here in one product of column-rolled copies."""
    for _ in range(max_passes):
        cols = m / np.sqrt((m * m).sum(axis=1, keepdims=True))
        m = 0.5 * (cols + np.einsum("ijk,njc,nkc->nic", LEVI_CIVITA, cols[:, :, [1, 2, 0]], cols[:, :, [2, 0, 1]]))
        if np.abs(m.transpose(0, 2, 1) @ m - IDENTITY).max(initial=0.0) < tolerance:
            break
    return m


IDENTITY = np.eye(3)


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
