"""One direct step for the contacts that hold, beside the correction loop's Gauss-Seidel passes.

A stack's contacts pass its load down level by level, and four corners on a face carry what three
could (their rows are dependent), so projected Gauss-Seidel shrinks what is left of a resting stack's
look-ahead gaps by only about 2 % a pass, and from no impulse at all (a stack's first step) it needs
thousands of passes. While every contact presses and sticks, the passes are solving a linear system,
K_HH l_H = K_H l - r_H over the held contacts' rows; this solves it at once (Newton's step on the
complementarity problem): the support is guessed as the contacts that press or must press, and
corrected until every held normal impulse pushes and every contact let go stays open. The result is
kept only if every friction impulse then lies within its cone. Otherwise, with a contact that slides,
the passes go on alone.

Arrays as kernels/contact.py names them, m contacts and n bodies.
"""
import numpy as np

from .contact import look_ahead_residual
from .jit import kernel
from .sparse import DEPENDENT_PIVOT

# Dependent rows (four corners on a face) leave the held impulses free along K's null space, where the
# passes pile up impulses that cancel (friction squeezing a box) until a cone seems full. The direct
# step takes the least of them: K + SPREAD diag(K) first, then the exact K for the remainder.
SPREAD = 1e-4
SUPPORT_GUESSES = 8  # corrections of the guessed support before the passes are left to find it


@kernel
def settle(jacobian, response, accumulated, friction, gap_h, slip_h, rates_at_look, twist, h, tolerance):
    """The impulses that close the look-ahead gaps and slips (as contact.position_pass measures them)
    of the contacts that press, and leave every other contact open to within `tolerance` (a rate,
    m/s), applied to `accumulated` and `twist`, if every pressing contact can stick. A frictionless
    contact holds only its normal. Returns whether they were applied."""
    m = accumulated.shape[0]
    rates = np.empty(3)
    residual = np.empty((m, 3))
    for c in range(m):
        look_ahead_residual(jacobian, gap_h, slip_h, rates_at_look, twist, h, c, rates, residual[c])
    pressing = np.empty(m, dtype=np.bool_)
    for c in range(m):
        pressing[c] = accumulated[c, 0] > 0.0 or residual[c, 0] < -tolerance
    # what the current impulses do to the twist: the held rows' right side is K_H l - r_H
    current = np.zeros(twist.shape[0])
    for i in range(twist.shape[0]):
        for row in range(3 * m):
            current[i] += response[i, row] * accumulated[row // 3, row % 3]
    after = np.zeros((m, 3))
    change = np.empty(twist.shape[0])
    consistent = False
    for _ in range(SUPPORT_GUESSES):
        if not _held_impulses(jacobian, response, friction, residual, current, pressing, after):
            return False
        for i in range(twist.shape[0]):
            change[i] = 0.0
            for row in range(3 * m):
                change[i] += response[i, row] * (after[row // 3, row % 3] - accumulated[row // 3, row % 3])
        consistent = True
        for c in range(m):
            if pressing[c] and after[c, 0] < 0.0:  # it lets go
                pressing[c] = False
                consistent = False
            elif not pressing[c]:
                opening = residual[c, 0]
                for i in range(twist.shape[0]):
                    opening += jacobian[3 * c, i] * change[i]
                if opening < -tolerance:  # pushed in by the others' impulses: it presses too
                    pressing[c] = True
                    consistent = False
        if consistent:
            break
    if not consistent:
        return False
    for c in range(m):
        if np.hypot(after[c, 1], after[c, 2]) > friction[c] * after[c, 0]:
            return False  # sliding: its friction is not a linear row
    for i in range(twist.shape[0]):
        twist[i] += change[i]
    accumulated[:, :] = after
    return True


@kernel
def _held_impulses(jacobian, response, friction, residual, current, pressing, after):
    """after (m, 3) <- the impulses of the pressing contacts that close their gaps and slips, the least
    along K's null space, and 0 for the others. `current` (6 n,) is what the impulses so far do to the
    twist. Returns False if no contact presses."""
    m = after.shape[0]
    held = np.empty(3 * m, dtype=np.int64)  # the held rows, 3 c + direction (0 normal, 1-2 tangents)
    count = 0
    for c in range(m):
        if pressing[c]:
            for r in range(3 if friction[c] > 0.0 else 1):
                held[count] = 3 * c + r
                count += 1
    if count == 0:
        return False
    matrix = np.empty((count, count))  # K over the held rows: J response
    rhs = np.empty(count)
    for p in range(count):
        row = held[p]
        for q in range(count):
            total = 0.0
            for i in range(current.shape[0]):
                total += jacobian[row, i] * response[i, held[q]]
            matrix[p, q] = total
        total = -residual[row // 3, row % 3]
        for i in range(current.shape[0]):
            total += jacobian[row, i] * current[i]
        rhs[p] = total
    spread = matrix.copy()
    for p in range(count):
        spread[p, p] *= 1.0 + SPREAD
    solution = rhs.copy()
    _solve_dropping_dependent(spread, solution)
    remainder = rhs.copy()  # what the spread solution leaves, solved exactly
    for p in range(count):
        for q in range(count):
            remainder[p] -= matrix[p, q] * solution[q]
    _solve_dropping_dependent(matrix, remainder)
    after[:, :] = 0.0
    for p in range(count):
        after[held[p] // 3, held[p] % 3] = solution[p] + remainder[p]
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
