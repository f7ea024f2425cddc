"""Why a sub-step could not stand, from a kernel's (status, index, size) as codes.py lists them."""
from typing import NamedTuple

import numpy as np

from .codes import DONE, NON_FINITE, STIFF_SPRING


class Failure(NamedTuple):
    """GAP (the culprit a joint, size its gap, m), NON_FINITE (a body), STIFF_SPRING (a drive, size the
    longest step it is stable at, about: kernels.drives.unstable_explicit_spring); or
    CONTACTS_UNSETTLED (a body of the deepest contact, its depth), LCP_GAVE_UP."""

    status: int
    culprit: int
    size: float


def kernel_failure(status: int, index: int, size: float, h: float) -> Failure | None:
    """A kernel's (status, index, size) for a sub-step of length h as a Failure (None: it stood)."""
    if status == DONE:
        return None
    if status == STIFF_SPRING:
        return Failure(status, index, h / np.sqrt(size))
    return Failure(status, index, size)


def non_finite(state) -> Failure:
    """The failure of a state that became infinite or NaN, naming the first such body."""
    bad = ~(np.isfinite(state.frames.position).all(axis=1) & np.isfinite(state.twist).all(axis=1)
            & np.isfinite(state.frames.rotation).all(axis=(1, 2)))
    return Failure(NON_FINITE, int(np.argmax(bad)), np.inf)
