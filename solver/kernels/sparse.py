"""The §7 system K x = b by a sparse LDL^T factorisation (T. Davis's up-looking LDL, "Algorithm 849",
ACM TOMS 2005), in the elimination order the model chose from the joint graph (solver/elimination.py):
no fill for chains and trees, so the cost grows linearly with the number of bodies.

K is stored as the upper triangle of P K P^T by columns (k_start, k_index, values); L by columns
(ldl_start, filled in order by the numeric phase), D as a vector.

Redundant joints (a planar loop of hinges, Bricard's mechanism) make K singular: a row that depends on
the rows before it leaves a pivot of round-off size. Such a row is dropped (its pivot set to
infinity, so its impulse is 0 and no later row divides by it), and the rows before it carry its share.
The part of the right side along K's null space is one no impulse can change (the look-ahead gaps of
dependent rows disagree by a little, as K is taken at t and the gaps at t + h); it is projected out
first, so the solve is the least-squares one of Schmitt's (7.1) and that misfit is shared by all the
rows it concerns instead of being left whole in the dropped row. A ridge instead would answer it with
an impulse of |b| / ridge along the null space; K = J M^-1 J^T squares J's conditioning, so that
impulse is null only to the square root of round-off and leaks a velocity change that does work on
every sweep (Bricard's mechanism lost 0.02 J of its 4 J that way in 10 s).
"""
import numpy as np

from .jit import kernel

# A pivot below this fraction of its row's own diagonal K_kk means the row depends on the rows before
# it: the part of K_kk they leave is round-off (1e-15 of it in Bricard's mechanism, where the next smallest pivot is 8e-3) or a position so near a
# singular one (a four-bar lying flat) that closing a gap along it would take an impulse 1e6 times
# the row's own.
DEPENDENT_PIVOT = 1e-6


@kernel
def factor(model, values, ldl_index, ldl_value, ldl_count, diagonal, y, pattern, flag):
    """L D L^T = P K P^T from `values` (the pattern's entries), dropping dependent rows (their pivot
    infinite). Returns the number of rows dropped (0 for a positive definite K)."""
    n = diagonal.shape[0]
    parent, ldl_start = model.ldl_parent, model.ldl_start
    dropped = 0
    for k in range(n):
        y[k] = 0.0
        top = n
        flag[k] = k
        ldl_count[k] = 0
        for p in range(model.k_start[k], model.k_start[k + 1]):
            i = model.k_index[p]
            y[i] += values[p]
            length = 0
            while flag[i] != k:  # the path up the elimination tree: row k's pattern of L
                pattern[length] = i
                length += 1
                flag[i] = k
                i = parent[i]
            while length > 0:
                top -= 1
                length -= 1
                pattern[top] = pattern[length]
        own = y[k]  # K_kk
        diagonal[k] = own
        y[k] = 0.0
        while top < n:
            i = pattern[top]
            top += 1
            yi = y[i]
            y[i] = 0.0
            end = ldl_start[i] + ldl_count[i]
            for p in range(ldl_start[i], end):
                y[ldl_index[p]] -= ldl_value[p] * yi
            l_ki = yi / diagonal[i]  # 0 below a dropped row: no row leans on it
            diagonal[k] -= l_ki * yi
            ldl_index[end] = k
            ldl_value[end] = l_ki
            ldl_count[i] += 1
        if not diagonal[k] > DEPENDENT_PIVOT * own:
            diagonal[k] = np.inf
            dropped += 1
    return dropped


@kernel
def null_space(model, ldl_index, ldl_value, diagonal, basis):
    """An orthonormal basis of K's null space (in the elimination order) into basis[:count], one
    vector per dropped row k: L^-T e_k, the combination of rows before k that row k repeats, (P K P^T)
    L^-T e_k = 0. Returns count (at most basis.shape[0]; further dropped rows go without)."""
    n, ldl_start = diagonal.shape[0], model.ldl_start
    count = 0
    for k in range(n):
        if diagonal[k] != np.inf or count == basis.shape[0]:
            continue
        vector = basis[count]
        vector[:] = 0.0
        vector[k] = 1.0
        for j in range(k - 1, -1, -1):
            total = 0.0
            for p in range(ldl_start[j], ldl_start[j + 1]):
                total -= ldl_value[p] * vector[ldl_index[p]]
            vector[j] = total
        for previous in range(count):  # modified Gram-Schmidt
            along = 0.0
            for i in range(n):
                along += basis[previous, i] * vector[i]
            for i in range(n):
                vector[i] -= along * basis[previous, i]
        length = 0.0
        for i in range(n):
            length += vector[i] * vector[i]
        length = np.sqrt(length)
        for i in range(n):
            vector[i] /= length
        count += 1
    return count


@kernel
def solve(model, ldl_index, ldl_value, diagonal, null_basis, null_count, rhs, permuted, out):
    """out = K^+ rhs, the least-squares solution through the factor: rhs without its part along the
    null space (null_basis[:null_count], from null_space), then L D L^T on the independent rows
    (`permuted` is workspace of the rows' size)."""
    n = diagonal.shape[0]
    order, ldl_start = model.system_order, model.ldl_start
    for p in range(n):
        permuted[p] = rhs[order[p]]
    for q in range(null_count):
        along = 0.0
        for p in range(n):
            along += null_basis[q, p] * permuted[p]
        for p in range(n):
            permuted[p] -= along * null_basis[q, p]
    for j in range(n):
        xj = permuted[j]
        for p in range(ldl_start[j], ldl_start[j + 1]):
            permuted[ldl_index[p]] -= ldl_value[p] * xj
    for j in range(n):
        permuted[j] /= diagonal[j]
    for j in range(n - 1, -1, -1):
        total = permuted[j]
        for p in range(ldl_start[j], ldl_start[j + 1]):
            total -= ldl_value[p] * permuted[ldl_index[p]]
        permuted[j] = total
    for p in range(n):
        out[order[p]] = permuted[p]
