"""The §7 system K x = b by a sparse LDL^T factorisation (T. Davis's up-looking LDL, "Algorithm 849",
ACM TOMS 2005), in the elimination order the model chose from the joint graph (solver/elimination.py):
no fill for chains and trees, so the cost grows linearly with the number of bodies.

K is stored as the upper triangle of P K P^T by columns (k_start, k_index, values); L by columns
(ldl_start), its pattern also by rows (ldl_row_start, ldl_row_column, ldl_row_position: where each
row's entries sit in L by columns), both found once per model (elimination.py); D as a vector.

Redundant joints (a planar loop of hinges, Bricard's mechanism) make K singular: a row that depends on
the rows before it leaves a pivot of round-off size. Such a row is dropped (its pivot set to
infinity, so its impulse is 0 and no later row divides by it), and the rows before it carry its share.
The part of the right side along K's null space is one no impulse can change (the look-ahead gaps of
dependent rows disagree by a little, as K is taken at t and the gaps at t + h); it is projected out
first, so the solve is the least-squares one of Schmitt's (7.1) and that misfit is shared by all the
rows it concerns instead of being left whole in the dropped row. The misfit along dropped row k's null
vector L^-T e_k is e_k^T L^-1 b, the value the forward substitution leaves in row k: a solve without
the projection measures it for nothing, so the null space is found only at an instant whose right
sides need it (rows.solve_system). A planar mechanism's dependent rows are across its plane, where
every right side is 0: IFToMM's A02 never needs it. A ridge instead would answer it with
an impulse of |b| / ridge along the null space; K = J M^-1 J^T squares J's conditioning, so that
impulse is null only to the square root of round-off and leaks a velocity change that does work on
every sweep (Bricard's mechanism, 4.55 J of kinetic energy at most, lost up to 0.021 J that way in 10 s).
"""
import numpy as np

from .jit import borrowing_entry_kernel, borrowing_kernel, column_count, entry, set_entry

# The blocks of K a planar instant splits it into (kernels/rows.split_at_plane), for list_block
IN_PLANE_BLOCK, ACROSS_BLOCK, BOTH_BLOCKS = 0, 1, 2
# A pivot below this fraction of its row's own diagonal K_kk means the row depends on the rows before
# it: the part of K_kk they leave is round-off (1e-15 of it in Bricard's mechanism, where the next
# smallest pivot is 8e-3 of its row's) or a position so near a singular one (a four-bar lying flat)
# that closing a gap along it would take an impulse 1e6 times the row's own.
DEPENDENT_PIVOT = 1e-6


@borrowing_kernel
def list_block(model, ldl_index, row_across, which, ldl_value, row_start, row_entry, column_start, column_entry):
    """The part of L's pattern within the block `which` of K (IN_PLANE_BLOCK: the rows whose
    row_across is False, every row where the rows do not split; ACROSS_BLOCK; BOTH_BLOCKS): row k's
    entries to columns of its own block, as indices into the model's pattern by rows
    (row_entry[row_start[k]:row_start[k + 1]]), and column i's entries from rows of its own block, as
    positions in L by columns (column_entry[column_start[i]:column_start[i + 1]], rows ascending).
    At a planar instant L is two blocks too, so the factorisation and the solves walk only these
    (A02 N = 40: 757 of the 1711 entries of its rows in the plane); L's entries between the blocks
    are set to 0 here, and nothing writes them until the lists change."""
    n = model.system_order.shape[0]
    order, row_column, row_position = model.system_order, model.ldl_row_column, model.ldl_row_position
    count = 0
    for k in range(n):
        row_start[k] = count
        across = row_across[order[k]]
        wanted = which == BOTH_BLOCKS or across == (which == ACROSS_BLOCK)
        for t in range(model.ldl_row_start[k], model.ldl_row_start[k + 1]):
            if row_across[order[row_column[t]]] != across:
                ldl_value[row_position[t]] = 0.0
            elif wanted:
                row_entry[count] = t
                count += 1
    row_start[n] = count
    count = 0
    for i in range(n):
        column_start[i] = count
        across = row_across[order[i]]
        if which == BOTH_BLOCKS or across == (which == ACROSS_BLOCK):
            for p in range(model.ldl_start[i], model.ldl_start[i + 1]):
                if row_across[order[ldl_index[p]]] == across:
                    column_entry[count] = p
                    count += 1
    column_start[n] = count


@borrowing_kernel
def factor(model, values, row_across, across, block_row_start, block_row_entry, block_column_start,
           block_column_entry, ldl_index, ldl_value, diagonal, y, softest):
    """L D L^T = P K P^T from `values` (the pattern's entries), dropping dependent rows (their pivot
    infinite), for the rows whose row_across is `across`, over the pattern list_block listed for
    their block. At a planar instant (rows.split_at_plane) K is two blocks with exact zeros between
    them, whose factors are the two blocks of L: the rows in the plane are factorised first (across
    False), and the rows across it, not taken then, wait with an infinite pivot (no impulse, no row
    leans on them) until a call with across True factorises them. Where the rows do not split, every
    row is in the plane. Row k of L solves L D l = K[:k, k] over the columns of its pattern, which
    the model found once (elimination.py): the walks up the elimination tree that find it are not
    redone at every instant. `y` is workspace of the rows' size, left 0. softest (1,) is lowered to
    the smallest pivot kept, as a fraction of its row's own K_kk: how near the instant is to a
    singular position (1 far from one, DEPENDENT_PIVOT at a dependent row). Returns the number of
    rows dropped (0 for a positive definite K)."""
    n = diagonal.shape[0]
    row_column, row_position = model.ldl_row_column, model.ldl_row_position
    dropped = 0
    for k in range(n):
        if row_across[model.system_order[k]] != across:
            if not across:  # across the plane: waits
                diagonal[k] = np.inf
            continue
        y[k] = 0.0
        for p in range(model.k_start[k], model.k_start[k + 1]):
            y[model.k_index[p]] += values[p]  # K's entries to the other block are 0
        own = y[k]  # K_kk
        diagonal[k] = own
        y[k] = 0.0
        for e in range(block_row_start[k], block_row_start[k + 1]):
            t = block_row_entry[e]
            i = row_column[t]
            yi = y[i]
            y[i] = 0.0
            end = row_position[t]  # column i's entries from the rows before k come first
            ldl_value[end] = yi / diagonal[i]  # 0 below a dropped row: no row leans on it
            if yi == 0.0:  # nothing to carry
                continue
            for q in range(block_column_start[i], block_column_start[i + 1]):
                p = block_column_entry[q]
                if p >= end:
                    break
                y[ldl_index[p]] -= ldl_value[p] * yi
            diagonal[k] -= ldl_value[end] * yi
        if not diagonal[k] > DEPENDENT_PIVOT * own:
            diagonal[k] = np.inf
            dropped += 1
        else:
            softest[0] = min(softest[0], diagonal[k] / own)
    return dropped


@borrowing_entry_kernel
def null_space(model, ldl_value, diagonal, basis, span, gram, stamp, dense):
    """K's null space (in the elimination order), one vector per dropped row k into `basis` (a
    NullBasis, arrays.py): L^-T e_k, the combination of the rows before k that row k repeats
    ((P K P^T) L^-T e_k = 0). These stay as local as the loops they close (at most 10 rows that are
    not 0 in IFToMM's A02, though the last three reach across all 605 rows with N = 40), so they
    are found by walking L's rows (the model's pattern by rows) down from k (`stamp` and `dense` are
    workspace of the rows' size, `dense` 0 on entry and left 0) and kept sparse, each with
    its span (span[q, :2], its first and last entry that is not 0), beside the Cholesky factor of
    their Gram matrix (lower triangle of `gram`, row q from column span[q, 2] on; span[q, 3] the last
    row whose profile reaches column q) that the projection in `solve` needs: an orthonormal basis
    would be filled in (186 rows each in A02 with N = 40, 10x the work). Returns count (at most
    span.shape[0]; further dropped rows go without)."""
    n = diagonal.shape[0]
    row_start, row_column, row_position = model.ldl_row_start, model.ldl_row_column, model.ldl_row_position
    dropped = False
    for k in range(n):
        dropped |= diagonal[k] == np.inf
    if not dropped:
        return 0
    stamp[:] = -1
    count = 0
    filled = 0  # entries of basis.row and basis.value in use
    basis.start[0] = 0
    for k in range(n):
        if diagonal[k] != np.inf or count == span.shape[0]:
            continue
        dense[k] = 1.0
        stamp[k] = k
        lowest = k  # the lowest row reached: rows are taken from k down to it, those reached (stamped) only
        for m in range(k, -1, -1):  # x_j = -sum over m > j of L[m, j] x_m, the rows m taken from the highest down
            if m < lowest:
                break
            if stamp[m] != k:
                continue
            x_m = dense[m]  # final: only the rows above m change it, and they were taken before it
            dense[m] = 0.0
            if x_m == 0.0:
                continue
            basis.row[filled] = m
            basis.value[filled] = x_m
            filled += 1
            for t in range(row_start[m], row_start[m + 1]):
                j = row_column[t]
                l_mj = ldl_value[row_position[t]]
                if l_mj == 0.0:  # below a dropped row, or decoupled (a planar loop's rows across its plane)
                    continue
                dense[j] -= l_mj * x_m
                if stamp[j] != k:
                    stamp[j] = k
                    lowest = min(lowest, j)
        low, high = basis.start[count], filled - 1
        while low < high:  # taken from the highest row down: turned round, rows ascending
            basis.row[low], basis.row[high] = basis.row[high], basis.row[low]
            basis.value[low], basis.value[high] = basis.value[high], basis.value[low]
            low += 1
            high -= 1
        span[count, 0], span[count, 1] = basis.row[basis.start[count]], k
        count += 1
        basis.start[count] = filled
    for i in range(count):  # the Gram matrix's lower triangle, factorised in place (Cholesky), within its
        low, high = 0, i     # profile: row i is 0 left of the first vector whose span meets its own; the
        while low < high:    # spans end (at their dropped rows) in ascending order, each before span i does
            middle = (low + high) // 2
            if span[middle, 1] >= span[i, 0]:
                high = middle
            else:
                low = middle + 1
        profile = low
        span[i, 2] = profile
        span[i, 3] = i
        for p in range(basis.start[i], basis.start[i + 1]):  # vector i spread out, to meet the others'
            dense[basis.row[p]] = basis.value[p]
        for j in range(profile, i + 1):
            span[j, 3] = i
            total = 0.0
            for p in range(basis.start[j], basis.start[j + 1]):
                total += dense[basis.row[p]] * basis.value[p]
            for m in range(max(profile, span[j, 2]), j):
                total -= gram[i, m] * gram[j, m]
            gram[i, j] = np.sqrt(total) if i == j else total / gram[j, j]
        for p in range(basis.start[i], basis.start[i + 1]):
            dense[basis.row[p]] = 0.0
    return count


@borrowing_kernel
def solve(model, block_column_start, block_column_entry, ldl_index, ldl_value, diagonal, null_basis, null_span,
          null_gram, null_count, along, rhs, permuted, out):
    """out = K^+ rhs for a right side of one column (R,) or several (R, c) (jit.entry), the
    least-squares solution through the factor: rhs without its part along the null space
    (rhs - N G^-1 N^T rhs with N, G from null_space; null_count 0: not projected), then L D L^T on
    the independent rows, over L's columns as list_block listed them for the blocks factorised
    (`along` (Q[, c]) and `permuted` (R[, c]) are workspace). Several columns share each entry of L
    read. Returns the misfit left along the null space: the largest |(L^-1 P rhs)_k| over the
    dropped rows k (0 when K has none; round-off after the projection)."""
    n, columns = diagonal.shape[0], column_count(rhs)
    order = model.system_order
    for p in range(n):
        for c in range(columns):
            set_entry(permuted, p, c, entry(rhs, order[p], c))
    for c in range(columns if null_count > 0 else 0):
        for q in range(null_count):  # N^T rhs, then G^-1 of it through G's Cholesky factor
            total = 0.0
            for p in range(null_basis.start[q], null_basis.start[q + 1]):
                total += null_basis.value[p] * entry(permuted, null_basis.row[p], c)
            for m in range(null_span[q, 2], q):
                total -= null_gram[q, m] * entry(along, m, c)
            set_entry(along, q, c, total / null_gram[q, q])
        for q in range(null_count - 1, -1, -1):
            total = entry(along, q, c)
            for m in range(q + 1, null_span[q, 3] + 1):
                if null_span[m, 2] <= q:
                    total -= null_gram[m, q] * entry(along, m, c)
            set_entry(along, q, c, total / null_gram[q, q])
        for q in range(null_count):
            for p in range(null_basis.start[q], null_basis.start[q + 1]):
                row = null_basis.row[p]
                set_entry(permuted, row, c, entry(permuted, row, c) - entry(along, q, c) * null_basis.value[p])
    for j in range(n):
        empty = True  # a row that is not corrected, or decoupled from those that are
        for c in range(columns):
            empty = empty and entry(permuted, j, c) == 0.0
        if empty:
            continue
        for q in range(block_column_start[j], block_column_start[j + 1]):
            p = block_column_entry[q]
            i, value = ldl_index[p], ldl_value[p]
            for c in range(columns):
                set_entry(permuted, i, c, entry(permuted, i, c) - value * entry(permuted, j, c))
    misfit = 0.0
    for j in range(n):
        for c in range(columns):
            if diagonal[j] == np.inf:  # dropped: what is left in its row is the null vector's part of rhs
                misfit = max(misfit, abs(entry(permuted, j, c)))
            set_entry(permuted, j, c, entry(permuted, j, c) / diagonal[j])
    for j in range(n - 1, -1, -1):
        if diagonal[j] == np.inf:  # dropped or waiting: its impulse is 0 (the rows below it hold L = 0 there)
            for c in range(columns):
                set_entry(permuted, j, c, 0.0)
            continue
        for q in range(block_column_start[j], block_column_start[j + 1]):  # each entry of L read once for all columns
            p = block_column_entry[q]
            i, value = ldl_index[p], ldl_value[p]
            for c in range(columns):
                set_entry(permuted, j, c, entry(permuted, j, c) - value * entry(permuted, i, c))
    for p in range(n):
        for c in range(columns):
            set_entry(out, order[p], c, entry(permuted, p, c))
    return misfit
