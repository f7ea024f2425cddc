"""How fast contact points move apart (the rows themselves, through the joints: kernels/contact_rows.py)."""
import numpy as np

from ..frames import Frames


def point_rates(frames: Frames, twist: np.ndarray, body_a, body_b, point, direction) -> np.ndarray:
    """(m,) the rate A.(v_b + w_b x r_b - v_a - w_a x r_a) of (m, 3) world points shared by bodies a
    and b along (m, 3) directions A, for the (n, 6) twist (linear, angular)."""
    def velocity(bodies):
        lever = point - frames.position[bodies]
        return twist[bodies, :3] + np.cross(twist[bodies, 3:], lever)

    return np.einsum("mi,mi->m", velocity(body_b) - velocity(body_a), direction)
