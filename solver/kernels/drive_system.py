"""The limit and motor rows of a stage solved together (Schmitt §7, eq. 7.1, for the drives): every
impulse at once from one small dense system, instead of one row after the other.

Each row k asks its axis's rate to change by b_k; an impulse l_j along axis j changes axis k's rate by
C_kj l_j through the joints (rows.axis_coupling). The changes d solve C d = b where each row's
accumulated impulse stays within its bounds (a motor's budget, a limit's one side): a
box-constrained LCP, which block principal pivoting (Judice and Pires) solves exactly in a few
factorisations. Gauss-Seidel row by row contracts by about the largest off-diagonal share of C per
pass, which for a robot arm's chain of servos is 0.9: a hundred passes for what this does in one.

The caller lists the rows in rows.drive_taking_part with their b (drive_asked) and bounds on the
accumulated impulse (drive_lower, drive_upper); solve_drive_rows leaves the changes in
rows.drive_change.
"""
from .jit import borrowing_kernel
from .rows import LOCKED, axis_coupling

FREE, AT_LOWER, AT_UPPER = 0, 1, 2
# block pivoting flips every infeasible row while their count falls, and after this many flips in a
# row that did not lower it, only the last one (Murty's rule, which cannot cycle)
BLOCK_STRIKES = 3
# a row past its bound, or pushing against it, by less than this share of the largest asked change or
# of its bound is taken as meeting it (round-off would otherwise flip a row that sits exactly at its bound)
TOLERANCE = 1e-10
# Gauss-Seidel passes over the dense system, should the pivoting not settle
FALLBACK_PASSES = 100


@borrowing_kernel
def solve_drive_rows(model, rows, count, accumulated):
    """rows.drive_change[:count]: the changes of the listed rows' accumulated impulses (accumulated,
    indexed by drive) that meet their asked changes within their bounds."""
    _fill_system(model, rows, count)
    matrix, state = rows.drive_system, rows.drive_state
    lower, upper, asked = rows.drive_lower, rows.drive_upper, rows.drive_asked
    largest_asked = 0.0
    for i in range(count):
        largest_asked = max(largest_asked, abs(asked[i]))
        # the start: each row on its own, clamped where that alone takes it past a bound
        state[i] = FREE
        if matrix[i, i] > 0.0:
            alone = accumulated[rows.drive_taking_part[i]] + asked[i] / matrix[i, i]
            if alone < lower[i]:
                state[i] = AT_LOWER
            elif alone > upper[i]:
                state[i] = AT_UPPER
    fewest, strikes = count + 1, BLOCK_STRIKES
    for _ in range(4 * count + 8):
        _solve_free_rows(rows, count, accumulated)
        infeasible, last = _infeasible_rows(rows, count, accumulated, largest_asked, False)
        if infeasible == 0:
            if _dependent_rows_met(rows, count, largest_asked):
                return
            break
        if infeasible < fewest:
            fewest, strikes = infeasible, BLOCK_STRIKES
        elif strikes > 0:
            strikes -= 1
        else:
            _flip(rows, last, accumulated)
            continue
        _infeasible_rows(rows, count, accumulated, largest_asked, True)
    _projected_passes(rows, count, accumulated)


@borrowing_kernel
def _fill_system(model, rows, count):
    """rows.drive_system[:count, :count] = C over the listed rows (symmetric: its upper triangle mirrored)."""
    matrix = rows.drive_system
    for i in range(count):
        axis_i = model.drive_axis[rows.drive_taking_part[i]]
        for j in range(i, count):
            coupling = axis_coupling(model, rows, axis_i, model.drive_axis[rows.drive_taking_part[j]])
            matrix[i, j] = coupling
            matrix[j, i] = coupling


@borrowing_kernel
def _solve_free_rows(rows, count, accumulated):
    """The changes with the clamped rows at their bounds and the free rows meeting their asked change:
    A_FF d_F = b_F - A_FC d_C, by L D L^T of A_FF; a free row that depends on those before it (two
    rows on one axis, a loop's dependent axes) gets no change of its own."""
    matrix, state, change, factor = rows.drive_system, rows.drive_state, rows.drive_change, rows.drive_factor
    free, right = rows.drive_free, rows.drive_right
    free_count = 0
    for i in range(count):
        drive = rows.drive_taking_part[i]
        if state[i] == AT_LOWER:
            change[i] = rows.drive_lower[i] - accumulated[drive]
        elif state[i] == AT_UPPER:
            change[i] = rows.drive_upper[i] - accumulated[drive]
        else:
            free[free_count] = i
            free_count += 1
        rows.drive_dropped[i] = False
    for p in range(free_count):
        i = free[p]
        total = rows.drive_asked[i]
        for j in range(count):
            if state[j] != FREE:
                total -= matrix[i, j] * change[j]
        right[p] = total
    # L D L^T, column by column: factor[p, c] holds L below the diagonal, factor[p, p] holds D (0 where dropped)
    for c in range(free_count):
        pivot = matrix[free[c], free[c]]
        for k in range(c):
            pivot -= factor[c, k] * factor[c, k] * factor[k, k]
        dropped = not pivot > LOCKED * matrix[free[c], free[c]]
        factor[c, c] = 0.0 if dropped else pivot
        rows.drive_dropped[free[c]] = dropped
        for p in range(c + 1, free_count):
            entry = matrix[free[p], free[c]]
            for k in range(c):
                entry -= factor[p, k] * factor[c, k] * factor[k, k]
            factor[p, c] = 0.0 if dropped else entry / pivot
    for p in range(free_count):  # L y = right
        for k in range(p):
            right[p] -= factor[p, k] * right[k]
    for p in range(free_count - 1, -1, -1):  # D L^T d = y
        if factor[p, p] == 0.0:
            change[free[p]] = 0.0
            continue
        value = right[p] / factor[p, p]
        for k in range(p + 1, free_count):
            value -= factor[k, p] * change[free[k]]
        change[free[p]] = value


@borrowing_kernel
def _infeasible_rows(rows, count, accumulated, largest_asked, flip):
    """(how many rows break the LCP's conditions, the last of them): a free row whose accumulated
    impulse ends past a bound, a clamped one whose rate would rather move it off its bound (w = A d - b
    below 0 at the lower bound, above 0 at the upper). With `flip`, each such row changes state."""
    matrix, state, change = rows.drive_system, rows.drive_state, rows.drive_change
    infeasible, last = 0, -1
    for i in range(count):
        drive = rows.drive_taking_part[i]
        lower, upper = rows.drive_lower[i], rows.drive_upper[i]
        if state[i] == FREE:
            total = accumulated[drive] + change[i]
            below = total < lower - TOLERANCE * abs(lower)
            above = total > upper + TOLERANCE * abs(upper)
            if below or above:
                infeasible, last = infeasible + 1, i
                if flip:
                    state[i] = AT_LOWER if below else AT_UPPER
            continue
        surplus = -rows.drive_asked[i]
        for j in range(count):
            surplus += matrix[i, j] * change[j]
        margin = TOLERANCE * largest_asked
        if (state[i] == AT_LOWER and surplus < -margin) or (state[i] == AT_UPPER and surplus > margin):
            infeasible, last = infeasible + 1, i
            if flip:
                state[i] = FREE
    return infeasible, last


@borrowing_kernel
def _dependent_rows_met(rows, count, largest_asked):
    """Whether every free row the factorisation dropped is met by the others' changes (a row that
    depends on others and asks what they give); one that asks otherwise (a servo driving a loop into a
    limit on another of its joints) leaves the system to _projected_passes."""
    for i in range(count):
        if not rows.drive_dropped[i]:
            continue
        residual = rows.drive_asked[i]
        for j in range(count):
            residual -= rows.drive_system[i, j] * rows.drive_change[j]
        if abs(residual) > TOLERANCE * largest_asked:
            return False
    return True


@borrowing_kernel
def _flip(rows, i, accumulated):
    """Row i to the state its last solve asks: a clamped row freed, a free one clamped at the bound it passed."""
    if rows.drive_state[i] != FREE:
        rows.drive_state[i] = FREE
    elif accumulated[rows.drive_taking_part[i]] + rows.drive_change[i] < rows.drive_lower[i]:
        rows.drive_state[i] = AT_LOWER
    else:
        rows.drive_state[i] = AT_UPPER


@borrowing_kernel
def _projected_passes(rows, count, accumulated):
    """Projected Gauss-Seidel over the dense system from the last solve's changes, kept within the
    bounds: the rows' answer should the pivoting not settle (it does for a positive definite C)."""
    matrix, change = rows.drive_system, rows.drive_change
    for i in range(count):
        drive = rows.drive_taking_part[i]
        total = min(max(accumulated[drive] + change[i], rows.drive_lower[i]), rows.drive_upper[i])
        change[i] = total - accumulated[drive]
    for _ in range(FALLBACK_PASSES):
        for i in range(count):
            if not matrix[i, i] > 0.0:
                continue
            residual = rows.drive_asked[i]
            for j in range(count):
                residual -= matrix[i, j] * change[j]
            drive = rows.drive_taking_part[i]
            total = accumulated[drive] + change[i] + residual / matrix[i, i]
            total = min(max(total, rows.drive_lower[i]), rows.drive_upper[i])
            change[i] = total - accumulated[drive]
