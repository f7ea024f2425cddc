"""Error control of a mechanism's steps (docs/error_control.md): each sub-step's local
error is estimated by step doubling (Schmitt §8: one step of h and two of h/2 from the same start),
and the sub-step's length is chosen so that the error per unit of time stays within the user's
`error_tolerance`. The rule's constants and the bodies' lengths, plain numpy; the controlled steps
are one kernel call (kernels/error_control.controlled_steps)."""
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
# The controller's state, carried from one kernel call to the next (kernels/error_control), by place:
# the sub-step it proposes next, the steps from one estimate to the next, the steps left before the
# next estimate, and the stats it keeps (the largest error ratio met, the shortest sub-step kept, the
# sub-steps rejected)
PROPOSED, CHECK_EVERY, UNCHECKED_LEFT, LARGEST_RATIO, SMALLEST_SUBSTEP, REJECTED = range(6)
CONTROL_SIZE = 6


def body_lengths(body_mass: np.ndarray, body_inertia: np.ndarray) -> np.ndarray:
    """(n,) each body's radius of gyration about its centre, m: sqrt(mean |r|^2) = sqrt(tr J / 2m),
    the length by which an error in its rotation counts as a distance its mass moves."""
    finite = np.isfinite(body_mass) & (body_mass > 0)
    lengths = np.zeros(len(body_mass))
    lengths[finite] = np.sqrt(body_inertia[finite].sum(axis=1) / (2.0 * body_mass[finite]))
    return lengths
