"""P-step 4 for the contact pairs (Schmitt §11, the velocity correction): projected Gauss-Seidel passes
over the contacts' rates (passes.velocity_passes), and the direct step for the contacts that press and
stick (held_contacts.settle) where the passes alone carry a stack's load down too slowly, in one call
(contact/impulse.ContactRows.solve_velocities)."""
import numpy as np

from ...codes import FIRST_PASSES, SETTLE_RETRY_WORK
from .held_contacts import settle
from ..jit import entry_kernel
from .passes import tangent_bases, velocity_passes


@entry_kernel
def velocity_correction(contact_rows, block, accumulated, friction, normal_floor, carried, twist, passes, limit,
                        settle_wait, vmax):
    """Passes until none changes a rate by vmax, at most `limit` (fewer where they could not get there
    within it: passes.out_of_reach), each contact's friction within its cone together with the impulses
    it took in the step's loop, `carried` (m, 3). After `settle_wait` passes
    that leave more to do, the direct step is tried (each contact's rate the residual to close), and the
    passes go on from there: passes carry a stack's load down level by level. Returns the passes made
    in all (counting on from `passes`) and the passes the next call waits before its direct step:
    FIRST_PASSES after one that held; after one that failed, passes that do a multiple of its work
    (SETTLE_RETRY_WORK), carried across calls, so that failing tries cost at most a fraction of the passes."""
    first = min(limit, settle_wait)
    basis = tangent_bases(block)
    after = velocity_passes(contact_rows, block, basis, accumulated, friction, normal_floor, carried, twist, passes,
                            first, vmax, first == limit)
    made = after - passes
    if made < first or made == limit:  # the passes settled the contacts, or none are left
        return after, max(settle_wait - made, 1)
    m = block.shape[0]
    # no gap, slip or earlier rate to close from; passes follow, so each island may hold alone
    held, work = settle(contact_rows, accumulated, friction, np.zeros(m), np.zeros((m, 2)), np.zeros((m, 3)), twist,
                        1.0, np.full(m, vmax), True)
    after = velocity_passes(contact_rows, block, basis, accumulated, friction, normal_floor, carried, twist, after,
                            limit - made, vmax, True)
    return after, FIRST_PASSES if held else max(made, SETTLE_RETRY_WORK * work // max(m, 1))
