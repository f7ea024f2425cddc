"""One direct step for the contacts that hold, beside the correction loop's Gauss-Seidel passes.

A stack's contacts pass its load down level by level, and four corners on a face carry what three
could (their rows are dependent), so projected Gauss-Seidel shrinks what is left of a resting stack's
look-ahead gaps by only about 2 % a pass: three boxes stacked took 51 passes a step on average, each
a look-ahead, to bring their gaps within CONTACT_TIGHTNESS Dmax. While every contact presses and
sticks, the passes are solving a linear system, K_HH dl = -r_H over the held contacts' rows; this
solves it at once (Newton's step on the complementarity problem with its support guessed from the
passes) and keeps the result only if every normal impulse still pushes and every friction impulse
stays within its cone. Otherwise, with a contact that slides or lets go, the passes go on alone.

Arrays as kernels/contact.py names them, m contacts and n bodies.
"""
import numpy as np

from .contact import look_ahead_residual
from .jit import kernel
from .sparse import DEPENDENT_PIVOT

STICKING = 1.0 - 1e-9  # friction below this share of mu I_n is sticking: the slip is held at zero


@kernel
def settle(jacobian, response, accumulated, friction, gap_h, slip_h, rates_at_look, twist, h):
    """If every contact either presses and sticks or lets go and opens, the impulse changes that
    close the held contacts' look-ahead gaps and slips (as contact.position_pass measures them) all
    at once, applied to `accumulated` and `twist`. A frictionless contact holds only its normal.
    Returns whether they were."""
    m = accumulated.shape[0]
    held = np.empty(3 * m, dtype=np.int64)  # the held rows, 3 c + direction (0 normal, 1-2 tangents)
    count = 0
    rates, own = np.empty(3), np.empty(3)
    residual = np.empty(3 * m)
    for c in range(m):
        look_ahead_residual(jacobian, gap_h, slip_h, rates_at_look, twist, h, c, rates, own)
        if accumulated[c, 0] <= 0.0:
            if own[0] < 0.0:
                return False  # a contact not yet pushing that must: the passes find its impulse
            continue  # open, and staying so
        if friction[c] > 0.0 and (np.hypot(accumulated[c, 1], accumulated[c, 2])
                                  >= STICKING * friction[c] * accumulated[c, 0]):
            return False  # sliding: its friction is not a linear row
        for r in range(3 if friction[c] > 0.0 else 1):
            residual[count] = own[r]
            held[count] = 3 * c + r
            count += 1
    if count == 0:
        return False
    matrix = np.empty((count, count))  # K over the held rows: J response
    for p in range(count):
        for q in range(count):
            total = 0.0
            for i in range(twist.shape[0]):
                total += jacobian[held[p], i] * response[i, held[q]]
            matrix[p, q] = total
    change = -residual[:count]
    _solve_dropping_dependent(matrix, change)
    after = accumulated.copy()
    for p in range(count):
        after[held[p] // 3, held[p] % 3] += change[p]
    for c in range(m):
        if after[c, 0] < 0.0 or np.hypot(after[c, 1], after[c, 2]) > friction[c] * after[c, 0]:
            return False
    for p in range(count):
        for i in range(twist.shape[0]):
            twist[i] += response[i, held[p]] * change[p]
    accumulated[:, :] = after
    return True


@kernel
def _solve_dropping_dependent(matrix, rhs):
    """rhs <- a solution of matrix x = rhs (symmetric, positive semi-definite) by L D L^T in place,
    a row whose pivot is below DEPENDENT_PIVOT of its diagonal taken as dependent on the rows before
    it (its impulse 0, as kernels/sparse.py drops a joint's)."""
    n = rhs.shape[0]
    pivot = np.empty(n)
    for k in range(n):
        own = matrix[k, k]
        for j in range(k):
            if pivot[j] != np.inf:
                own -= matrix[k, j] * matrix[k, j] * pivot[j]
        dependent = not own > DEPENDENT_PIVOT * matrix[k, k]
        pivot[k] = np.inf if dependent else own
        for i in range(k + 1, n):
            if dependent:
                matrix[i, k] = 0.0
                continue
            total = matrix[i, k]
            for j in range(k):
                if pivot[j] != np.inf:
                    total -= matrix[i, j] * matrix[k, j] * pivot[j]
            matrix[i, k] = total / own
    for k in range(n):  # L y = rhs
        for j in range(k):
            rhs[k] -= matrix[k, j] * rhs[j]
    for k in range(n):  # D z = y; a dependent row takes no impulse
        rhs[k] = 0.0 if pivot[k] == np.inf else rhs[k] / pivot[k]
    for k in range(n - 1, -1, -1):  # L^T x = z
        for i in range(k + 1, n):
            rhs[k] -= matrix[i, k] * rhs[i]
