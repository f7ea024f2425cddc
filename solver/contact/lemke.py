"""Lemke's complementary pivoting algorithm for the linear complementarity problem

    find z >= 0 with w = M z + q >= 0 and z.w = 0,

with lexicographic degeneracy resolution (Cottle, Pang and Stone, Algorithm 4.4.1; as Stewart and
Trinkle used it). Instead of updating a tableau, which lets round-off pile up on the degenerate
problems contacts produce (coplanar contacts, redundant rows), the basis inverse is formed afresh
from the original columns at every pivot.

Stewart and Trinkle's matrix is copositive but not copositive-plus (the sliding-speed rows), so
Lemke's algorithm may stop on a ray for one covering vector and solve the problem with another: a
short ladder of covering vectors is tried before giving up.
"""
import numpy as np

# Pivot tolerances, relative to the entering column, tried in turn: contact LCPs are degenerate
# (opposite cone edges, coplanar contacts), and round-off can fake a ray at the finest one.
PIVOT_TOLERANCES = (1e-10, 1e-8, 1e-6)


class LemkeFailure(RuntimeError):
    """Lemke's algorithm ended on a secondary ray (no solution found) or ran out of pivots."""


def lemke(M: np.ndarray, q: np.ndarray, max_pivots: int | None = None) -> np.ndarray:
    n = len(q)
    if n == 0 or np.all(q >= 0):
        return np.zeros(n)
    coverings = [np.ones(n), np.maximum(-q, 0.0) + 1e-3 * max(1.0, float(np.abs(q).max()))]
    coverings += [1.0 + np.random.default_rng(seed).random(n) for seed in range(4)]  # fixed: runs repeat
    failure = LemkeFailure("no covering vector tried")
    for tolerance in PIVOT_TOLERANCES:
        for covering in coverings:
            try:
                return _lemke(M, q, covering, max_pivots, tolerance)
            except LemkeFailure as error:
                failure = error
    raise failure


def _lemke(M: np.ndarray, q: np.ndarray, covering: np.ndarray, max_pivots: int | None, tolerance: float) -> np.ndarray:
    n = len(q)
    max_pivots = max_pivots or 50 * (n + 1)
    # columns of w - M z - d z0 = q: w (0..n-1), z (n..2n-1), z0 (2n)
    columns = np.hstack((np.eye(n), -M, -covering[:, None]))
    lexicon = np.hstack((q[:, None], np.eye(n)))  # [q, I]: B^-1 of it orders ties lexicographically
    basis = list(range(n))
    z0 = 2 * n
    entering = z0
    leaving_row = _lexicographic_min(lexicon, covering, np.arange(n))  # the row that goes negative last
    for _ in range(max_pivots):
        leaving = basis[leaving_row]
        basis[leaving_row] = entering
        if leaving == z0:
            break
        entering = leaving + n if leaving < n else leaving - n  # the complement of what left
        try:
            inverse = np.linalg.inv(columns[:, basis])
        except np.linalg.LinAlgError:
            raise LemkeFailure("the basis became singular") from None
        column = inverse @ columns[:, entering]
        scale = max(1.0, float(np.abs(column).max()))
        candidates = np.flatnonzero(column > tolerance * scale)
        if not len(candidates):
            raise LemkeFailure("secondary ray: the LCP has no solution Lemke's algorithm can find")
        leaving_row = _lexicographic_min(inverse @ lexicon, column, candidates)
    else:
        raise LemkeFailure(f"no solution after {max_pivots} pivots")
    values = np.linalg.solve(columns[:, basis], q)
    z = np.zeros(2 * n + 1)
    z[basis] = values
    return np.maximum(z[n:2 * n], 0.0)


def _lexicographic_min(rhs: np.ndarray, column: np.ndarray, rows: np.ndarray) -> int:
    """The row that leaves the basis: the lexicographic minimum over `rows` of [B^-1 q, B^-1]
    divided by the entering column's entry (the minimum-ratio test, ties broken so that no basis
    repeats). For the first pivot the column is the covering vector: the row whose q / d is most
    negative leaves."""
    ratios = rhs[rows] / column[rows, None]
    return int(rows[np.lexsort(ratios.T[::-1])[0]])
