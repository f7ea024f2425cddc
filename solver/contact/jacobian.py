"""Contact rows as dense Jacobians over every body's twist (the contact stage is still numpy)."""
import numpy as np

from ..frames import Frames


def contact_jacobian(model, frames: Frames, body_a, body_b, point, directions) -> np.ndarray:
    """(d m, 6n) rows along (m, d, 3) directions at (m, 3) points shared by bodies a and b: a row's
    rate is A.(v_b + w_b x r_b - v_a - w_a x r_a), and w x r . A = w . (r x A)."""
    m, d = directions.shape[:2]
    n = len(model.body_names)
    jacobian = np.zeros((d * m, 6 * n))
    rows = np.arange(d * m).reshape(m, d)
    for side, bodies, sign in ((0, body_a, -1.0), (1, body_b, 1.0)):
        lever = point - frames.position[bodies]
        block = np.concatenate((directions, np.cross(lever[:, None, :], directions)), axis=2) * sign
        columns = (6 * np.asarray(bodies))[:, None, None] + np.arange(6)
        np.add.at(jacobian, (rows[:, :, None], columns), block)
    return jacobian
