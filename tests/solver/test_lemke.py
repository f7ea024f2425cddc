"""Lemke's algorithm (solver/contact/lcp_solver.py over the kernel solver/kernels/contact/lemke.py): every
solution it returns satisfies the complementarity conditions, and a problem without one raises."""
import numpy as np
import pytest

from mechbake.solver.contact.lcp_solver import LemkeFailure, lemke


def assert_complementary(M, q, z, tolerance=1e-9):
    """w = M z + q >= 0, z >= 0, z.w = 0, up to round-off on the problem's scale."""
    w = M @ z + q
    scale = max(1.0, float(np.abs(q).max()), float(np.abs(M).max()) * float(np.abs(z).max(initial=0.0)))
    assert z.min(initial=0.0) >= 0.0
    assert w.min() >= -tolerance * scale
    assert abs(z @ w) <= tolerance * scale * max(1.0, float(np.abs(z).sum()))


@pytest.mark.parametrize("seed", range(20))
def test_positive_definite(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 16))
    root = rng.standard_normal((n, n))
    M = root @ root.T + 0.1 * np.eye(n)
    q = rng.standard_normal(n)
    z = lemke(M, q)
    assert_complementary(M, q, z)


@pytest.mark.parametrize("seed", range(10))
def test_a_guessed_support_gives_the_solution_and_a_wrong_guess_is_not_taken(seed):
    """The solution's own support, as a guess, gives that solution back; the support flipped in one
    place gives a z that is not complementary, so lemke() must not take it and still solves."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 16))
    root = rng.standard_normal((n, n))
    M = root @ root.T + 0.1 * np.eye(n)  # positive definite: one solution
    q = rng.standard_normal(n)
    q[0] = -abs(q[0]) - 1.0  # at least one z positive
    z = lemke(M, q)
    guess = z > 0
    assert np.allclose(lemke(M, q, guess=guess), z, atol=1e-12)
    wrong = guess.copy()
    wrong[int(rng.integers(n))] ^= True
    if wrong.any():
        assert np.allclose(lemke(M, q, guess=wrong), z, atol=1e-9)


@pytest.mark.parametrize("seed", range(10))
def test_lemke_starts_from_a_guess_that_missed_some_supports(seed):
    """A guess with a few supports wrong is not a solution, but Lemke's algorithm started from its
    basis (run_lemke with warm set, which lemke() tries before a cold start) pivots to the solution."""
    from mechbake.solver.kernels.contact import lemke as compiled

    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 16))
    root = rng.standard_normal((n, n))
    M = root @ root.T + 0.1 * np.eye(n)  # positive definite: one solution
    q = rng.standard_normal(n)
    q[:2] = -np.abs(q[:2]) - 1.0
    z = lemke(M, q)
    guess = z > 0
    guess[rng.choice(n, size=3, replace=False)] ^= True
    basis, block_row, z_rows, free_rows, w_basic = (np.empty(n, dtype=np.int64) for _ in range(5))
    covering, column, ratios, work, unit, warm = (np.empty(n) for _ in range(6))
    status = compiled.run_lemke(M, q, True, guess, 1e-12, covering, 1e-10, 50 * (n + 1), basis,
                                np.empty((n, n)), block_row, z_rows, free_rows, w_basic, column, ratios, work, unit,
                                np.empty((n, n)), warm)
    assert status == compiled.SOLVED
    assert np.allclose(warm, z, atol=1e-9)


def test_nonnegative_q_needs_no_pivot():
    M = np.array([[2.0, 1.0], [1.0, 2.0]])
    assert np.array_equal(lemke(M, np.array([0.0, 1.0])), np.zeros(2))


def test_copositive_with_ties():
    """A rank-one, copositive M with every q_i equal: the first ratio test ties in every row and
    every later basis is degenerate, which the lexicographic rule has to resolve."""
    n = 6
    M = np.ones((n, n))
    q = -np.ones(n)
    z = lemke(M, q)
    assert_complementary(M, q, z)
    assert z.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("seed", range(10))
def test_stewart_trinkle_contact_problem(seed):
    """Stewart and Trinkle's LCP for a box resting on four coplanar corners with a friction cone of
    four edges (copositive, not copositive-plus): the impulse block is singular but for the small
    compliance stewart_trinkle.py adds, the friction rows have q = 0 and the normal rows tie."""
    rng = np.random.default_rng(seed)
    m, k = 4, 4
    corners = np.array([[x, y, -0.2] for x in (-0.2, 0.2) for y in (-0.2, 0.2)])
    angles = 2 * np.pi * np.arange(k) / k
    edges = np.stack((np.cos(angles), np.sin(angles), np.zeros(k)), axis=1)
    rows = []
    for corner in corners:
        for direction in np.vstack(([0.0, 0.0, 1.0], edges)):
            rows.append(np.concatenate((direction, np.cross(corner, direction))))
    jacobian = np.array(rows)  # (m (1 + k), 6): one body's twist
    inverse_mass = np.diag([1 / 10.0] * 3 + [1 / (10.0 * 0.4 ** 2 / 6)] * 3)
    impulse_block = jacobian @ inverse_mass @ jacobian.T
    impulse_block += 1e-7 * np.abs(np.diag(impulse_block)).max() * np.eye(len(rows))
    normal = np.arange(m) * (1 + k)
    edge = (normal[:, None] + 1 + np.arange(k)).ravel()
    order = np.concatenate((normal, edge))
    size = m + m * k + m
    M = np.zeros((size, size))
    M[: m + m * k, : m + m * k] = impulse_block[np.ix_(order, order)]
    incidence = np.kron(np.eye(m), np.ones((k, 1)))
    M[m:m + m * k, m + m * k:] = incidence
    M[m + m * k:, :m] = 0.5 * np.eye(m)
    M[m + m * k:, m:m + m * k] = -incidence.T
    sliding = rng.uniform(-0.05, 0.05, size=2) * rng.integers(0, 2)  # at rest or pushed sideways
    q = np.concatenate((np.full(m, -9.81 * 0.01), np.tile(edges[:, :2] @ sliding, m), np.zeros(m)))
    z = lemke(M, q)
    assert_complementary(M, q, z)
    assert z[:m].sum() > 0.0  # the weight is carried


def test_no_solution_raises():
    """w = -z - 1 is negative for every z >= 0: Lemke's algorithm ends on a secondary ray."""
    with pytest.raises(LemkeFailure, match="secondary ray"):
        lemke(np.array([[-1.0, 0.0], [0.0, -1.0]]), np.array([-1.0, 1.0]))
