"""Error control of a mechanism's steps (docs/error_control.md): each sub-step's local
error is estimated by step doubling (Schmitt §8: one step of h and two of h/2 from the same start),
and the sub-step's length is chosen so that the error per unit of time stays within the user's
`error_tolerance`. Plain numpy: the sub-steps themselves are kernels/correction.advance_steps."""
import numpy as np

SAFETY = 0.9  # the new length aims at this fraction of the length the estimate allows
LEAST_FACTOR = 0.2  # a sub-step shrinks at most to this fraction of the last one ...
MOST_FACTOR = 2.0  # ... and grows at most to this multiple
# the estimate's error per unit time grows as the length squared (local O(h^3)); below this ratio to
# the tolerance a sub-step of the whole step h is accurate with room, and the estimate runs less often
ACCURATE = 1 / 8
MOST_UNCHECKED = 128  # steps taken without an estimate, at most, between two estimated ones
# the estimate's floor, in Dmax: the gaps each step leaves (up to Dmax a joint, along a chain of
# them) differ between the whole step and the halves whatever the step's length
GAP_NOISE = 4.0
SHORTEST = 2.0**-16  # the shortest sub-step, as a fraction of h, before the run is declared diverged


def body_lengths(body_mass: np.ndarray, body_inertia: np.ndarray) -> np.ndarray:
    """(n,) each body's radius of gyration about its centre, m: sqrt(mean |r|^2) = sqrt(tr J / 2m),
    the length by which an error in its rotation counts as a distance its mass moves."""
    finite = np.isfinite(body_mass) & (body_mass > 0)
    lengths = np.zeros(len(body_mass))
    lengths[finite] = np.sqrt(body_inertia[finite].sum(axis=1) / (2.0 * body_mass[finite]))
    return lengths


def local_error(moving: np.ndarray, lengths: np.ndarray, whole_position: np.ndarray, whole_rotation: np.ndarray,
                halves_position: np.ndarray, halves_rotation: np.ndarray) -> np.ndarray:
    """(n,) the local error of one step of h, m, estimated from it and two steps of h/2 from the same
    start (Schmitt §8: the error is c h^3, so p(h) - p(h/2, h/2) = 3/4 c h^3): 4/3 of their difference,
    the centre's plus the rotation's angle times the body's radius of gyration. moving: (n,) bool,
    the bodies the step moves (others count 0)."""
    centre = np.linalg.norm(halves_position - whole_position, axis=1)
    relative = np.einsum("nji,njk->nik", whole_rotation, halves_rotation)  # R_whole^T R_halves
    sine = 0.5 * np.linalg.norm(np.stack([relative[:, 2, 1] - relative[:, 1, 2], relative[:, 0, 2] - relative[:, 2, 0],
                                          relative[:, 1, 0] - relative[:, 0, 1]], axis=1), axis=1)
    cosine = 0.5 * (np.trace(relative, axis1=1, axis2=2) - 1.0)
    angle = np.arctan2(sine, cosine)
    return np.where(moving, 4.0 / 3.0 * (centre + angle * lengths), 0.0)


def length_factor(error_ratio: float) -> float:
    """How much the next sub-step is to grow (or shrink) after one whose error per unit time was
    error_ratio times the tolerance: that error goes as the length squared."""
    if error_ratio <= 0.0:
        return MOST_FACTOR
    return float(np.clip(SAFETY * error_ratio**-0.5, LEAST_FACTOR, MOST_FACTOR))
