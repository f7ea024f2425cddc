"""The §7 system K x = b by a sparse LDL^T factorisation (T. Davis's up-looking LDL, "Algorithm 849",
ACM TOMS 2005), in the elimination order the model chose from the joint graph (solver/elimination.py):
no fill for chains and trees, so the cost grows linearly with the number of bodies.

K is stored as the upper triangle of P K P^T by columns (k_start, k_index, values); L by columns
(ldl_start, filled in order by the numeric phase), D as a vector.
"""
from .jit import kernel


@kernel
def factor(model, values, ldl_index, ldl_value, ldl_count, diagonal, y, pattern, flag):
    """L D L^T = P K P^T from `values` (the pattern's entries). Returns the number of pivots that are
    not positive (0 for a positive definite matrix)."""
    n = diagonal.shape[0]
    parent, ldl_start = model.ldl_parent, model.ldl_start
    bad = 0
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
        diagonal[k] = y[k]
        y[k] = 0.0
        while top < n:
            i = pattern[top]
            top += 1
            yi = y[i]
            y[i] = 0.0
            end = ldl_start[i] + ldl_count[i]
            for p in range(ldl_start[i], end):
                y[ldl_index[p]] -= ldl_value[p] * yi
            l_ki = yi / diagonal[i]
            diagonal[k] -= l_ki * yi
            ldl_index[end] = k
            ldl_value[end] = l_ki
            ldl_count[i] += 1
        if not diagonal[k] > 0.0:
            bad += 1
    return bad


@kernel
def solve(model, ldl_index, ldl_value, diagonal, rhs, permuted, out):
    """out = K^-1 rhs, through the factor (`permuted` is workspace of the rows' size)."""
    n = diagonal.shape[0]
    order, ldl_start = model.system_order, model.ldl_start
    for p in range(n):
        permuted[p] = rhs[order[p]]
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
