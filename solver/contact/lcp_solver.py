"""Lemke's complementary pivoting algorithm for the linear complementarity problem

    find z >= 0 with w = M z + q >= 0 and z.w = 0,

with lexicographic degeneracy resolution (Cottle, Pang and Stone, Algorithm 4.4.1; as Stewart and
Trinkle used it). Instead of updating a tableau, which lets round-off pile up on the degenerate
problems contacts produce (coplanar contacts, redundant rows), the basis is factorised afresh from
the original columns at every pivot: compiled, in solver/kernels/contact/lemke.py, on a workspace allocated
once per problem.

Stewart and Trinkle's matrix is copositive but not copositive-plus (the sliding-speed rows), so
Lemke's algorithm may stop on a ray for one covering vector and solve the problem with another: a
short ladder of covering vectors is tried before giving up.

A guessed support (which z are positive) is tried first: a resting stack's contacts keep theirs
from step to step, and then one solve of those rows is the solution, where Lemke's algorithm pivots
its way to it again from nothing. When the guess misses a few contacts' supports, Lemke's algorithm
starts from the guessed basis instead of from nothing (kernels/contact/lemke.warm_run), which takes a
few pivots where a cold start takes many (benchmarks/lemke_speed.py).
"""
import numpy as np

# Pivot tolerances, relative to the entering column, tried in turn: contact LCPs are degenerate
# (opposite cone edges, coplanar contacts), and round-off can fake a ray at the finest one.
PIVOT_TOLERANCES = (1e-10, 1e-8, 1e-6)


class LemkeFailure(RuntimeError):
    """Lemke's algorithm ended on a secondary ray (no solution found) or ran out of pivots."""


# A guessed support's solution is taken when it is complementary to this, relative to q's size
GUESS_TOLERANCE = 1e-12


def lemke(M: np.ndarray, q: np.ndarray, max_pivots: int | None = None, guess: np.ndarray | None = None) -> np.ndarray:
    """z solving the LCP (M, q); guess (n,) bool: the z expected positive, tried first."""
    n = len(q)
    if n == 0 or np.all(q >= 0):
        return np.zeros(n)
    from ..kernels.contact import lemke as compiled  # numba loads with the first LCP, not on import

    M = np.ascontiguousarray(M, dtype=np.float64)
    q = np.ascontiguousarray(q, dtype=np.float64)
    max_pivots = max_pivots or 50 * (n + 1)
    basis, block_row, z_rows, free_rows, w_basic = (np.empty(n, dtype=np.int64) for _ in range(5))
    block, inverse = np.empty((n, n)), np.empty((n, n))
    column, ratios, work, unit, z = (np.empty(n) for _ in range(5))
    failures = {compiled.SECONDARY_RAY: "secondary ray: the LCP has no solution Lemke's algorithm can find",
                compiled.OUT_OF_PIVOTS: f"no solution after {max_pivots} pivots",
                compiled.SINGULAR_BASIS: "the basis became singular"}
    if guess is not None and guess.any():
        slack = GUESS_TOLERANCE * max(1.0, float(np.abs(q).max()))
        status = compiled.run_lemke(M, q, True, guess, slack, np.empty(n), PIVOT_TOLERANCES[0], max_pivots,
                                    basis, block, block_row, z_rows, free_rows, w_basic, column, ratios, work, unit,
                                    inverse, z)
        if status == compiled.SOLVED:
            return z
    coverings = [np.ones(n), np.maximum(-q, 0.0) + 1e-3 * max(1.0, float(np.abs(q).max()))]
    coverings += [1.0 + np.random.default_rng(seed).random(n) for seed in range(4)]  # fixed: runs repeat
    status = compiled.SECONDARY_RAY  # replaced by every run below
    no_guess = np.zeros(n, dtype=bool)
    for tolerance in PIVOT_TOLERANCES:
        for covering in coverings:
            status = compiled.run_lemke(M, q, False, no_guess, 0.0, covering, tolerance, max_pivots, basis, block,
                                        block_row, z_rows, free_rows, w_basic, column, ratios, work, unit, inverse, z)
            if status == compiled.SOLVED:
                return z
    raise LemkeFailure(failures[status])

