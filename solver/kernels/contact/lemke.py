"""One run of Lemke's complementary pivoting algorithm (Lemke 1965; Cottle, Pang and Stone,
Algorithm 4.4.1, as Stewart and Trinkle used it) for the LCP

    find z >= 0 with w = M z + q >= 0 and z.w = 0,

with one covering vector d and one pivot tolerance and lexicographic degeneracy resolution.
solver/contact/lcp_solver.py tries the covering vectors and tolerances and turns a status into
LemkeFailure.

The basis B (columns of [I, -M, -d], for w, z and the artificial z0) is factorised afresh at every
pivot rather than updated as a tableau: Lemke's ratio test on contact problems pivots on entries as
small as 1e-7 of their column, and a Gauss-Jordan tableau carries each such pivot's round-off into
every later ratio test, where it decides the degenerate ties (on the three-box stack a tableau
ended on a ray for 8 of 10 LCPs the refactorised basis solves). The refactorisation is cheap because
a basic w's column is a unit vector: only the block of the basic z's columns in the rows of the
non-basic w's is factorised (k x k for k basic z's), the w's follow by substitution.

Workspace, allocated once by the caller, for n unknowns:
  basis (n,)             the variable basic in each row: w_i is i, z_i is n + i, z0 is 2 n
  block (n, n)           LU factors of the basic z's block, k x k used; block_row (n,) their pivot rows
  z_rows (n,)            rows of the basis holding a z (or z0), in order; free_rows (n,) the rows i
                         whose w_i is not basic, in order (k of each)
  w_basic (n,)           1 where w_i is basic
  column (n,), ratios (n,)  the entering column B^-1 a and B^-1 q, by row of the basis
  work (n,), unit (n,)   scratch: the block's right-hand side, a unit vector
  inverse (n, n)         B^-1 transposed (row k is B^-1 e_k), formed only when the ratio test ties
                         exactly
  z (n,)                 the solution, written when the status is SOLVED

Python calls `run_lemke`, one entry for the cold and the warm start, so that the pivoting they share
is optimised and compiled to machine code once.
"""
from ..jit import entry_kernel, kernel

SOLVED = 0
SECONDARY_RAY = 1  # the entering column has no positive entry: no solution along this path
OUT_OF_PIVOTS = 2
SINGULAR_BASIS = 3  # the basis has an exactly zero pivot


@entry_kernel
def run_lemke(M, q, warm, support, slack, covering, tolerance, max_pivots, basis, block, block_row, z_rows, free_rows,
              w_basic, column, ratios, work, unit, inverse, z):
    """warm_run from the guessed basis of `support` when `warm`, else lemke_run along `covering`;
    returns their status."""
    if warm:
        return warm_run(M, q, support, slack, tolerance, max_pivots, covering, basis, block, block_row, z_rows,
                        free_rows, w_basic, column, ratios, work, unit, inverse, z)
    return lemke_run(M, q, covering, tolerance, max_pivots, basis, block, block_row, z_rows, free_rows, w_basic,
                     column, ratios, work, unit, inverse, z)


@kernel
def lemke_run(M, q, covering, tolerance, max_pivots, basis, block, block_row, z_rows, free_rows, w_basic, column,
              ratios, work, unit, inverse, z):
    """Lemke's algorithm from the basis w = q, z0 entering along the covering vector; returns a status.
    An entry of the entering column counts as positive above tolerance times its largest entry (at
    least 1)."""
    for row in range(q.shape[0]):
        basis[row] = row
    # Lemke's first pivot: the row whose [q, I] / d is lexicographically least (q / d most negative)
    # leaves, after which every basic variable is nonnegative
    leaving_row = _first_leaving_row(q, covering)
    return _pivot_from(M, q, covering, tolerance, max_pivots, leaving_row, basis, block, block_row, z_rows,
                       free_rows, w_basic, column, ratios, work, unit, inverse, z)


@kernel
def warm_run(M, q, support, slack, tolerance, max_pivots, covering, basis, block, block_row, z_rows, free_rows,
             w_basic, column, ratios, work, unit, inverse, z):
    """Lemke's algorithm from a guessed basis B: the z of `support` (n,) bool and the other w. When
    every basic variable B^-1 q is at least -slack that is the solution, with no pivot. Otherwise the
    covering vector is d = B 1 (written into `covering`), so that z0 entering along it raises every
    basic variable alike (B^-1 d = 1): the first pivot is the lexicographic minimum of [B^-1 q, B^-1]
    as a cold start's is of [q, I], every row stays lexicographically positive after it, and the
    complementary pivots go on from there, a few where the guess missed by a few. d need not be
    positive, so where Lemke's theory asks for that this may end on a ray (the caller then starts
    cold). Returns a status as lemke_run does."""
    n = q.shape[0]
    for row in range(n):
        basis[row] = n + row if support[row] else row
    for i in range(n):
        covering[i] = 0.0 if support[i] else 1.0  # a basic w_i's column is e_i
    for j in range(n):
        if support[j]:  # a basic z_j's column is -M e_j
            for i in range(n):
                covering[i] -= M[i, j]
    if not _factorise(M, covering, basis, block, block_row, z_rows, free_rows, w_basic):
        return SINGULAR_BASIS
    _solve(M, covering, basis, block, block_row, z_rows, free_rows, q, work, ratios)
    least = 0.0
    for row in range(n):
        least = min(least, ratios[row])
        column[row] = 1.0
    if least >= -slack:
        for row in range(n):
            z[row] = max(ratios[row], 0.0) if support[row] else 0.0
        return SOLVED
    leaving_row = _lexicographic_min(M, covering, basis, block, block_row, z_rows, free_rows, column, 0.5, ratios,
                                     work, unit, inverse)
    return _pivot_from(M, q, covering, tolerance, max_pivots, leaving_row, basis, block, block_row, z_rows,
                       free_rows, w_basic, column, ratios, work, unit, inverse, z)


@kernel
def _pivot_from(M, q, covering, tolerance, max_pivots, leaving_row, basis, block, block_row, z_rows, free_rows,
                w_basic, column, ratios, work, unit, inverse, z):
    """Lemke's pivots once z0 is to enter in place of the variable of `leaving_row`: the complement
    of each variable that leaves enters next, until z0 leaves (SOLVED, z written)."""
    n = q.shape[0]
    z0 = 2 * n
    entering = z0
    for _ in range(max_pivots):
        leaving = basis[leaving_row]
        basis[leaving_row] = entering
        if leaving == z0:
            if not _factorise(M, covering, basis, block, block_row, z_rows, free_rows, w_basic):
                return SINGULAR_BASIS
            _solve(M, covering, basis, block, block_row, z_rows, free_rows, q, work, ratios)
            for i in range(n):
                z[i] = 0.0
            for row in range(n):
                if n <= basis[row] < 2 * n:
                    z[basis[row] - n] = max(ratios[row], 0.0)
            return SOLVED
        # complementary pivot rule: the complement of the variable that left enters next
        entering = leaving + n if leaving < n else leaving - n
        if not _factorise(M, covering, basis, block, block_row, z_rows, free_rows, w_basic):
            return SINGULAR_BASIS
        _basis_column(M, covering, entering, unit)
        _solve(M, covering, basis, block, block_row, z_rows, free_rows, unit, work, column)
        largest = 1.0
        for row in range(n):
            largest = max(largest, abs(column[row]))
        _solve(M, covering, basis, block, block_row, z_rows, free_rows, q, work, ratios)
        leaving_row = _lexicographic_min(M, covering, basis, block, block_row, z_rows, free_rows, column,
                                         tolerance * largest, ratios, work, unit, inverse)
        if leaving_row < 0:
            return SECONDARY_RAY
    return OUT_OF_PIVOTS


@kernel
def _first_leaving_row(q, covering):
    """The lexicographic minimum of the rows of [q, I] / d. The keys after q / d are 1 / d_r > 0 at
    the row's own column and 0 elsewhere, so of rows tied in q / d the one with the highest index
    wins (the others' positive 1 / d comes at an earlier column, where it has 0)."""
    best = 0
    for row in range(1, q.shape[0]):
        if q[row] / covering[row] <= q[best] / covering[best]:
            best = row
    return best


@kernel
def _basis_entry(M, covering, variable, row):
    """Row `row` of the column of `variable` in [I, -M, -d]."""
    n = M.shape[0]
    if variable < n:
        return 1.0 if row == variable else 0.0
    if variable < 2 * n:
        return -M[row, variable - n]
    return -covering[row]


@kernel
def _basis_column(M, covering, variable, out):
    for row in range(M.shape[0]):
        out[row] = _basis_entry(M, covering, variable, row)


@kernel
def _factorise(M, covering, basis, block, block_row, z_rows, free_rows, w_basic):
    """LU with partial pivoting of the basic z's columns in the rows of the non-basic w's; False if
    the basis is singular. Rows and columns are taken in index order, so the factors do not depend on
    how the basis was reached."""
    n = basis.shape[0]
    for i in range(n):
        w_basic[i] = 0
    size = 0
    for row in range(n):
        if basis[row] < n:
            w_basic[basis[row]] = 1
        else:
            z_rows[size] = row
            size += 1
    free = 0
    for i in range(n):
        if w_basic[i] == 0:
            free_rows[free] = i
            free += 1
    for a in range(size):
        for b in range(size):
            block[a, b] = _basis_entry(M, covering, basis[z_rows[b]], free_rows[a])
    for step in range(size):
        largest = step
        for a in range(step + 1, size):
            if abs(block[a, step]) > abs(block[largest, step]):
                largest = a
        block_row[step] = largest
        if block[largest, step] == 0.0:
            return False
        if largest != step:
            for b in range(size):
                block[step, b], block[largest, b] = block[largest, b], block[step, b]
        for a in range(step + 1, size):
            block[a, step] /= block[step, step]
            multiplier = block[a, step]
            if multiplier != 0.0:
                for b in range(step + 1, size):
                    block[a, b] -= multiplier * block[step, b]
    return True


@kernel
def _solve(M, covering, basis, block, block_row, z_rows, free_rows, rhs, work, out):
    """out = B^-1 rhs, by row of the basis. The basic z's solve the factorised block in the rows of the
    non-basic w's (where the basic w's unit columns vanish); each basic w_i is then rhs_i less the
    basic z's part of row i."""
    n = basis.shape[0]
    size = 0
    for row in range(n):
        if basis[row] >= n:
            size += 1
    for a in range(size):
        work[a] = rhs[free_rows[a]]
    for step in range(size):
        swap = block_row[step]
        if swap != step:
            work[step], work[swap] = work[swap], work[step]
    for a in range(size):
        total = work[a]
        for b in range(a):
            total -= block[a, b] * work[b]
        work[a] = total
    for a in range(size - 1, -1, -1):
        total = work[a]
        for b in range(a + 1, size):
            total -= block[a, b] * work[b]
        work[a] = total / block[a, a]
    for b in range(size):
        out[z_rows[b]] = work[b]
    for row in range(n):
        i = basis[row]
        if i < n:
            total = rhs[i]
            for b in range(size):
                total -= _basis_entry(M, covering, basis[z_rows[b]], i) * work[b]
            out[row] = total


@kernel
def _lexicographic_min(M, covering, basis, block, block_row, z_rows, free_rows, column, threshold, ratios, work,
                       unit, inverse):
    """The row that leaves the basis, or -1 if none may: among the rows whose entry of the entering
    column exceeds `threshold`, the lexicographic minimum of [B^-1 q, B^-1] / column (the minimum-
    ratio test with ties broken so that no basis repeats, Cottle, Pang and Stone's lexicographic
    Lemke). `ratios` holds B^-1 q; B^-1 is formed only if the first key ties exactly. Of rows tied in
    every key the first wins, as a stable sort would have it."""
    n = basis.shape[0]
    best = -1
    ties = 0
    for row in range(n):
        if not column[row] > threshold:
            continue
        ratio = ratios[row] / column[row]
        if best < 0 or ratio < ratios[best] / column[best]:
            best = row
            ties = 1
        elif ratio == ratios[best] / column[best]:
            ties += 1
    if ties <= 1:
        return best
    least = ratios[best] / column[best]
    for k in range(n):  # row k of `inverse` is B^-1 e_k, the k-th column of B^-1
        for i in range(n):
            unit[i] = 1.0 if i == k else 0.0
        _solve(M, covering, basis, block, block_row, z_rows, free_rows, unit, work, inverse[k])
    tied = best
    for row in range(best + 1, n):
        if not (column[row] > threshold and ratios[row] / column[row] == least):
            continue
        for k in range(n):
            ratio = inverse[k, row] / column[row]
            best_ratio = inverse[k, tied] / column[tied]
            if ratio < best_ratio:
                tied = row
                break
            if ratio > best_ratio:
                break
    return tied
